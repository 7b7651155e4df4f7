"""An option its declaration hides from the help (argparse's
``help=argparse.SUPPRESS``, click's ``hidden=True``) is not for users to
find, and one whose help says it is deprecated (it opens so, a line or a
note in brackets does) is on its way out: neither is undocumented
(CD103). An option whose help only mentions a deprecated one, or a
deprecation to come, still is."""

from __future__ import annotations

import pytest

from configdrift.extract.python.help_texts import replacement_named, says_deprecated
from helpers import by_key, check_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--debug-dump", action="store_true", help=HELP)
    return parser.parse_args(argv)
"""

_CLICK = """
import click


@click.command()
@click.option("--host", default="127.0.0.1", help="the address")
@click.option("--port", type=int, default=8000, help="the port")
@click.option("--workers", type=int, default=1, help="processes")
@click.option("--debug-dump", is_flag=True, hidden=HIDDEN, help="dump state")
def main(host, port, workers, debug_dump):
    return host, port, workers, debug_dump
"""

_PAGE = """# Command line

| Option | Description |
| --- | --- |
| `--host` | the address |
| `--port` | the port |
| `--workers` | processes |
"""


def _undocumented(tmp_path, cli: str) -> set[str]:
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": _PAGE}
    _, findings = check_project(tmp_path, files, "shop")
    return {k for c, k in by_key(findings) if c == "CD103"}


@pytest.mark.parametrize(
    "help_",
    [
        "argparse.SUPPRESS",
        '"Deprecated: use --dump instead"',
        '"(deprecated) dump state"',
        # A note in brackets, a line of its own, a sentence of it.
        '"Dump state. [deprecated: use `shop dump`]"',
        '"Dump state.\\n\\n    Deprecated in 3.0: use --dump"',
        '"Dump state.\\n\\n    .. deprecated:: 3.0"',
        '"Dump state. This option is deprecated."',
    ],
)
def test_a_hidden_or_deprecated_option_is_not_undocumented(tmp_path, help_) -> None:
    assert _undocumented(tmp_path, _CLI.replace("HELP", help_)) == set()


@pytest.mark.parametrize(
    "help_",
    [
        '"dump state; replaces the deprecated --dump"',
        '"dump state, will be deprecated in 4.0"',
        '"PENDING DEPRECATION: dump state"',
        '"dump state (also of deprecated workers)"',
        # A value among others that is deprecated, not the option.
        '"Dump as:\\n\\n- legacy (deprecated)\\n- json (default)\\n"',
    ],
)
def test_an_option_whose_help_mentions_a_deprecation_only_is_undocumented(tmp_path, help_) -> None:
    assert _undocumented(tmp_path, _CLI.replace("HELP", help_)) == {"--debug-dump"}


@pytest.mark.parametrize(
    ("text", "instead"),
    [
        ("Deprecated: use --dump", "--dump"),
        ("Deprecated in favor of --player-verbose.", "--player-verbose"),
        ("DEPRECATED. Use ``lint.args``.", "lint.args"),
        # A command in quotes, or a phrase, names no option.
        ("Remove it. [deprecated: use `shop remove`]", None),
        ("Deprecated. Use the dump option.", None),
    ],
)
def test_the_option_a_deprecation_names_instead(text, instead) -> None:
    assert says_deprecated(text)
    assert replacement_named(text) == instead


def test_a_click_option_hidden_from_the_help_is_not_undocumented(tmp_path) -> None:
    assert _undocumented(tmp_path, _CLICK.replace("HIDDEN", "True")) == set()
    assert _undocumented(tmp_path / "shown", _CLICK.replace("HIDDEN", "False")) == {"--debug-dump"}
    deprecated = _CLICK.replace("HIDDEN", "False").replace('"dump state"', '"Deprecated."')
    assert _undocumented(tmp_path / "deprecated", deprecated) == set()
