"""The arguments and helpers the commands share: exit statuses, the
options of every command that analyses a project, and the analysis of a
project with a note for what will not be used."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.config import Config
    from configdrift.sources import Sources


if TYPE_CHECKING:
    #: The subcommands' parsers, as ``argparse`` hands them to ``register``.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


class ExitCode(IntEnum):
    """Exit statuses, documented in the README and in docs/command-line.md."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    #: A bug of configdrift's: nothing was written to standard output.
    INTERNAL = 3


def usage_error(message: str, err: TextIO | None = None) -> None:
    """Print an exit-2 message on one line: every control character of the
    project's text in it (a key, a path, a newline) shown escaped, as in a
    finding, so that no part of it can pass for a line of its own."""
    from configdrift.escape import printable

    print(f"configdrift: error: {printable(message)}", file=err or sys.stderr)


def codes(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def file_stamps(config: Config, sources: Sources) -> dict[str, tuple[int, int] | None]:
    """What tells a later change of each file an analysis reads (taken
    before it reads them), for the commands that edit them."""
    from configdrift.edits import pages

    root = str(config.root)
    return {
        rel: pages.stamp(root, rel)
        for rel in (*sources.read(), config.source_rel or "pyproject.toml")
    }


def analysed_project(
    path: str,
    config_file: str | None,
    jobs: int | None,
    err: TextIO,
    cache: bool = True,
    stamps: dict[str, tuple[int, int] | None] | None = None,
) -> Analysis | None:
    """Load the configuration of the project ``path`` names and analyse it;
    print a usage error and return None on failure. ``stamps`` is filled
    with what tells a later change of each file read (for edits)."""
    from configdrift.api import project_configs
    from configdrift.config import ConfigError
    from configdrift.engine import analyse

    try:
        ((config, _),) = project_configs([Path(path)], Path(config_file) if config_file else None)
        sources = discovered(config, cache)
        if stamps is not None:
            stamps.update(file_stamps(config, sources))
        return analyse(config, jobs=jobs, cache=cache, sources=sources)
    except ConfigError as exc:
        usage_error(str(exc), err)
        return None


def analysed_projects(
    paths: str | Sequence[str], config_file: str | None, jobs: int | None, cache: bool
) -> list[Analysis]:
    """The analysis of each project the paths name (``ConfigError`` when
    a configuration is wrong)."""
    from configdrift.engine import analyse

    return [
        analyse(config, jobs=jobs, cache=cache, sources=discovered(config, cache))
        for config, _ in targets(paths, config_file)
    ]


def discovered(config: Config, cache: bool) -> Sources:
    """The project's sources, with a note on standard error for what will
    not be used: a cache directory inside the tree, folders that could not
    be read."""
    from configdrift.discover import discover, unreadable_note
    from configdrift.escape import printable
    from configdrift.files import cache_note

    sources = discover(config)
    for note in (cache_note(config.root) if cache else None, unreadable_note(sources.unreadable)):
        if note is not None:
            print(printable(note), file=sys.stderr)
    return sources


def targets(
    paths: str | Sequence[str], config_file: str | None
) -> list[tuple[Config, set[str] | None]]:
    """Each project the paths name, with the files named in it (None: the
    whole project); ``ConfigError`` when a configuration is wrong."""
    from configdrift.api import project_configs

    return project_configs(
        [Path(p) for p in ([paths] if isinstance(paths, str) else paths)],
        Path(config_file) if config_file else None,
    )


def percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"not a percentage from 0 to 100: {text!r}")
    return value


def positive(text: str) -> int:
    """``--jobs``: a whole number of one or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a number of processes (1 or more)")
    return value


EXIT_CODES = """exit status:
  0  nothing at or above the failing severity (or --exit-zero)
  1  findings at or above the failing severity (sweep: nothing references the key)
  2  usage or configuration error
  3  internal error (a bug of configdrift's)
"""


def paths_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="projects or files (default: .)"
    )


def text_or_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        "--output-format",
        choices=("text", "json"),
        default="text",
        dest="output_format",
        help="text, or JSON for scripts (default: text)",
    )


def project_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that analyses a project: its
    configuration file, the worker processes and the fact cache."""
    parser.add_argument("--config", metavar="FILE", help="configuration file to use")
    parser.add_argument("--jobs", type=positive, help="worker processes (default: one per core)")
    parser.add_argument(
        "--no-cache", action="store_true", help="do not read or write the fact cache"
    )
