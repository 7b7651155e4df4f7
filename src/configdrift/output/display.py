"""Findings as the user sees them: paths from the current directory, the
column of the key on its line, the line itself for an excerpt, colour.

Findings are made with paths relative to the project's root, and their
fingerprints (baselines, SARIF) stay so; only what is printed moves.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from configdrift.model import Finding, Location, Severity

#: A source line longer than this is cut around the key in an excerpt.
MAX_EXCERPT = 160


@dataclass(frozen=True, slots=True)
class Place:
    """What a reporter adds to a finding: its fingerprint (of the
    root-relative finding), the 1-based column of its key on the line, and
    the line's text when it could be read (printable, tabs as spaces)."""

    fingerprint: str
    column: int = 1
    width: int = 1
    text: str | None = None


def prefix_for(root: Path, cwd: Path | None = None) -> str:
    """The root as seen from the current directory, with ``/`` (``""``
    for the current directory itself)."""
    try:
        rel = os.path.relpath(root.resolve(), (cwd or Path.cwd()).resolve())
    except ValueError:  # another drive (Windows): the absolute path
        rel = str(root.resolve())
    rel = rel.replace(os.sep, "/")
    return "" if rel == "." else rel


def rebase(path: str, prefix: str) -> str:
    """A root-relative ``path`` from the current directory."""
    if not prefix:
        return path
    joined = posixpath.normpath(posixpath.join(prefix, path))
    if joined.startswith("../"):
        # From a folder inside the root (``docs/``): ``config.py``, not
        # ``../app/config.py`` when the current directory is ``app``.
        try:
            return os.path.relpath(joined).replace(os.sep, "/")
        except ValueError:
            return joined
    return joined


def places(prefix: str) -> Callable[[Location | None], str | None]:
    """How a report writes a place of the tree rooted at ``prefix``:
    ``path:line`` from the current directory, printable (None for none)."""
    from configdrift.escape import printable

    def where(location: Location | None) -> str | None:
        if location is None:
            return None
        return printable(f"{rebase(location.path, prefix)}:{location.line}")

    return where


def prepare(findings: list[Finding], root: Path, prefix: str) -> tuple[list[Finding], list[Place]]:
    """The findings with their paths rebased on ``prefix``, and a place
    for each. Each file named is read once, inside the tree and bounded."""
    from configdrift.escape import printable
    from configdrift.model import fingerprint

    lines: dict[str, list[str] | None] = {}
    shown: list[Finding] = []
    places: list[Place] = []
    for f in findings:
        text = _line(root, f.location.path, f.location.line, lines)
        column, width = _column(text, f.key)
        places.append(
            Place(
                fingerprint(f),
                column,
                width,
                printable(text.replace("\t", " ")) if text is not None else None,
            )
        )
        shown.append(
            replace(
                f,
                location=replace(f.location, path=rebase(f.location.path, prefix)),
                related=tuple(replace(r, path=rebase(r.path, prefix)) for r in f.related),
            )
        )
    return shown, places


def _line(root: Path, path: str, line: int, cache: dict[str, list[str] | None]) -> str | None:
    from configdrift.files import read_or_none

    if path not in cache:
        data = read_or_none(root, path) if path and not path.startswith(("<", "/")) else None
        cache[path] = data.decode("utf-8", "replace").splitlines() if data is not None else None
    text = cache[path]
    if text is None or not 1 <= line <= len(text):
        return None
    return text[line - 1]


def _word(char: str) -> bool:
    """Does ``char`` continue a key (``\\w`` or ``-``)?"""
    return bool(char) and (char.isalnum() or char in "_-")


def _column(text: str | None, key: str) -> tuple[int, int]:
    """Where the key's last segment is on the line (1-based), and its
    length; the first non-blank character when the key is not there."""
    if not text:
        return 1, 1
    last = key.rsplit(".", 1)[-1].replace("[]", "") if key else ""
    if last:
        # The first whole-word occurrence: found with ``str.find``, not a
        # regular expression compiled per key (a report has hundreds).
        at = text.find(last)
        while at != -1:
            before = text[at - 1] if at else ""
            after = text[at + len(last)] if at + len(last) < len(text) else ""
            if not _word(before) and not _word(after):
                return at + 1, len(last)
            at = text.find(last, at + 1)
    stripped = len(text) - len(text.lstrip())
    return (stripped + 1, 1) if stripped < len(text) else (1, 1)


def excerpt(line: int, place: Place) -> list[str]:
    """The finding's line with a caret under its key (as ruff shows it)."""
    if place.text is None:
        return []
    text, column = place.text, place.column
    if len(text) > MAX_EXCERPT:
        start = max(0, min(column - 1 - MAX_EXCERPT // 2, len(text) - MAX_EXCERPT))
        text = ("…" if start else "") + text[start : start + MAX_EXCERPT] + "…"
        column = column - start + (1 if start else 0)
    gutter = " " * len(str(line))
    caret = " " * (column - 1) + "^" * max(1, min(place.width, len(text) - column + 1))
    return [f"  {gutter} |", f"  {line} | {text}".rstrip(), f"  {gutter} | {caret}"]


#: ANSI styles of the text report.
STYLES = {
    "path": "1",
    Severity.ERROR: "1;31",
    Severity.WARNING: "1;33",
    Severity.INFO: "1;34",
    "help": "36",
    "dim": "2",
}


class Paint:
    """Colours the text report, or leaves it plain."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, style: str | Severity) -> str:
        if not self.on or not text:
            return text
        return f"\x1b[{STYLES[style]}m{text}\x1b[0m"


def use_colour(
    choice: str, stream: TextIO | None, environ: Mapping[str, str] | None = None
) -> bool:
    """``--color``: ``always``, ``never``, or ``auto`` (a terminal, unless
    ``NO_COLOR`` is set; ``FORCE_COLOR`` forces it, see no-color.org)."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return stream is not None and _tty(stream)


def source_shown(choice: str, stream: TextIO | None) -> bool:
    """Whether each finding's line is shown by default: on a terminal (or
    with ``--color always``). ``NO_COLOR`` drops the colour, not the lines."""
    if choice != "auto":
        return choice == "always"
    return stream is not None and _tty(stream)


def _tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
