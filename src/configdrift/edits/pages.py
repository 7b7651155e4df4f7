"""The public API of every writer (``fix``, ``fix --add-missing``, the
renames of ``--unsafe-fixes``, ``sweep --apply``): an edit of a page, a
plan of edits, reading a page once, making the edits of a file, a diff.

An ``Edit`` is one line of one page (or a run of lines), its old text and
its new text. A file is edited whole or not at all, only the lines
concerned changed (line endings, encoding and every other byte kept), and
never when a line is no longer what the edit expects.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.files import read_or_none
from configdrift.model import Finding

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The largest page a fix edits (bytes).
MAX_PAGE = 8 << 20


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``old`` by ``new`` on line ``line`` (1-based) of ``path``;
    with ``count``, replace the ``count`` lines from ``line`` on by ``new``
    (``old`` is then their text, checked before they go; ``new`` is empty
    to delete them)."""

    path: str
    line: int
    old: str
    new: str
    code: str
    key: str
    count: int = 0
    #: The findings the edit fixes (the entries one insertion adds).
    fixes: int = 1


@dataclass(slots=True)
class Plan:
    edits: list[Edit]
    #: Findings of a fixable rule that are left alone, with why.
    skipped: list[tuple[Finding, str]]


#: Why a page's edits cannot be made: its text is not known.
UNREAD = "the page cannot be read as UTF-8 text"


def page(analysis: Analysis, pages: dict[str, list[str] | None], rel: str) -> list[str] | None:
    """A page's lines, read once for all the fixes that edit it."""
    if rel not in pages:
        pages[rel] = page_lines(str(analysis.config.root), rel)
    return pages[rel]


def names_alone(line: str, name: str) -> bool:
    """Is ``name`` written on ``line`` as an entry writes it, ended by its
    markup (a backtick, emphasis, a tag, a cell's bar, a colon) or the line's
    end rather than by a space and more text?"""
    start = line.find(name)
    while start >= 0:
        after = line[start + len(name) : start + len(name) + 1]
        if after in ("", "\n", "\r", "`", "*", "_", "<", "|", ":", ")", "]", "'", '"'):
            return True
        start = line.find(name, start + 1)
    return False


def read_page(root: str, rel: str) -> tuple[bytes, list[str]] | None:
    """A page's bytes and its lines (ends kept), None when it cannot be
    read as UTF-8 text within ``MAX_PAGE``."""
    data = read_or_none(root, rel, MAX_PAGE)
    if data is None:
        return None
    try:
        return data, data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def page_lines(root: str, rel: str) -> list[str] | None:
    read = read_page(root, rel)
    return read[1] if read is not None else None


def edited(root: str, rel: str, edits: list[Edit]) -> tuple[bytes, bytes] | None:
    """The page's bytes before and after ``edits``, read afresh (None when
    it cannot be read, or a line is no longer what the edit expects);
    every line but the edited ones is kept byte for byte."""
    read = read_page(root, rel)
    if read is None:
        return None
    data, lines = read
    spans = sorted((e.line, e.line + max(e.count, 1)) for e in edits)
    if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
        return None  # edits that overlap: none is made
    for edit in sorted(edits, key=lambda e: -e.line):
        if edit.count:
            if "".join(lines[edit.line - 1 : edit.line - 1 + edit.count]) != edit.old:
                return None
            lines[edit.line - 1 : edit.line - 1 + edit.count] = [edit.new] if edit.new else []
            continue
        text = lines[edit.line - 1]
        if text.count(edit.old) != 1:
            return None
        lines[edit.line - 1] = replaced(text, edit.old, edit.new)
    return data, "".join(lines).encode("utf-8")


_CELL_END = re.compile(r"(?<! )( ++)\|")


def replaced(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new``; in a table cell padded
    with spaces, the padding takes up the change of width, so that the
    columns stay aligned where the spaces allow."""
    start = text.index(old)
    rest = text[start + len(old) :]
    pad = _CELL_END.match(rest)
    if pad is not None:
        spaces = len(pad.group(1)) - (len(new) - len(old))
        rest = " " * max(1, spaces) + rest[len(pad.group(1)) :]
    return text[:start] + new + rest


def apart(edits: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    """The edits that do not overlap an earlier one, and those that do."""
    kept: list[Edit] = []
    dropped: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.path, e.line)):
        last = kept[-1] if kept else None
        if (
            last is not None
            and last.path == edit.path
            and last.line + max(last.count, 1) > edit.line
        ):
            dropped.append(edit)
        else:
            kept.append(edit)
    return kept, dropped


def moved(line: int, edits: list[Edit]) -> int:
    """Where line ``line`` of a page is once ``edits`` are made (a line an
    edit replaced stays where the edit starts)."""
    shift = 0
    for edit in edits:
        if edit.count and edit.line + edit.count <= line:
            shift += edit.new.count("\n") - edit.count
    return line + shift


def diff(rel: str, before: bytes, after: bytes, new: bool = False) -> str:
    """A unified diff of one page (``new``: a file to create)."""
    return "".join(
        difflib.unified_diff(
            before.decode("utf-8").splitlines(keepends=True),
            after.decode("utf-8").splitlines(keepends=True),
            "/dev/null" if new else f"a/{rel}",
            f"b/{rel}",
        )
    )


def by_file(edits: list[Edit]) -> dict[str, list[Edit]]:
    out: dict[str, list[Edit]] = {}
    for edit in edits:
        out.setdefault(edit.path, []).append(edit)
    return out


def stamp(root: str, rel: str) -> tuple[int, int] | None:
    """What tells a later change of the file: its size and modification time."""
    try:
        info = os.stat(os.path.join(root, rel))
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def dirty(root: str, rels: list[str]) -> list[str]:
    """Of ``rels``, those git says have uncommitted changes (none when the
    project is no git work tree or git is missing)."""
    from configdrift.git import GitError, run

    if not rels:
        return []
    try:
        result = run(root, "status", "--porcelain", "-z", "--", *rels, timeout=30)
    except GitError:
        return []
    return sorted(
        entry[3:].decode("utf-8", "replace") for entry in result.split(b"\0") if entry[3:]
    )
