"""Sphinx projects that write their pages with another suffix: a
``conf.py`` whose ``source_suffix`` names ``.txt`` (Django's docs, and its
apps') makes the ``.txt`` files under its folder reStructuredText pages;
a fragment a page includes (``.. include:: general/environment.rst.inc``,
``.. include:: ../includes/settingref.txt``) is rendered into that page,
so it is a page too, unless shown as it is (``:literal:``). The ``conf.py`` is read
as text, never run."""

from __future__ import annotations

import re
from pathlib import Path

from configdrift.files import read_or_none

#: The suffix a Sphinx project may give its reStructuredText pages, where
#: its ``conf.py`` says so.
SPHINX_TEXT = ".txt"
#: The bytes of a ``conf.py`` read for its ``source_suffix``.
MAX_CONF_BYTES = 256 * 1024
#: The suffixes of a fragment of reStructuredText a page includes.
SPHINX_FRAGMENT = ".inc"
FRAGMENT_SUFFIXES = (SPHINX_FRAGMENT, SPHINX_TEXT)
#: How many includes deep fragments are followed, and the bytes of a page
#: read for its includes.
MAX_INCLUDE_DEPTH = 4
MAX_PAGE_BYTES = 1024 * 1024
#: An ``include`` directive (not ``literalinclude``), its path.
_INCLUDE = re.compile(rb"^[ \t]*\.\. include::[ \t]*([^\s<>]{1,300})[ \t\r]*$", re.MULTILINE)
#: The directive's options, on the lines below it; one of these shows the
#: file as it is, not as reStructuredText.
_OPTIONS = re.compile(rb"(?:\r?\n[ \t]++:([\w-]{1,40}):[^\n]{0,300})")
_AS_TEXT = frozenset({b"literal", b"code", b"parser"})
#: The most option lines read below a directive.
_MAX_OPTIONS = 20
#: An assignment of ``source_suffix`` at the top of a ``conf.py``.
_SOURCE_SUFFIX = re.compile(rb"^source_suffix[ \t]*=", re.MULTILINE)


def text_folders(root: Path, files: list[str]) -> tuple[str, ...]:
    """The folders (``docs/``) of the Sphinx ``conf.py`` files whose
    ``source_suffix`` names ``.txt``."""
    return tuple(
        rel[: -len("conf.py")]
        for rel in files
        if rel.rsplit("/", 1)[-1] == "conf.py" and _text_sources(root, rel)
    )


def _text_sources(root: Path, rel: str) -> bool:
    """Does the ``conf.py`` assign ``source_suffix`` a value that names
    ``.txt`` (a string, a list or a dict's key)?"""
    data = read_or_none(root, rel, MAX_CONF_BYTES)
    if data is None or b"source_suffix" not in data:
        return False
    for match in _SOURCE_SUFFIX.finditer(data):
        # The value, to the end of its line or its brackets, ten lines at most.
        lines = data[match.end() :].split(b"\n", 10)[:10]
        depth, value = 0, b""
        for line in lines:
            code = line.split(b"#", 1)[0]
            value += code
            depth += code.count(b"[") + code.count(b"{") + code.count(b"(")
            depth -= code.count(b"]") + code.count(b"}") + code.count(b")")
            if depth <= 0:
                break
        if b"'.txt'" in value or b'".txt"' in value:
            return True
    return False


def included_fragments(root: Path, pages: list[str], files: list[str]) -> list[str]:
    """The fragments (``*.inc``, ``*.txt``) of ``files`` the reStructuredText
    ``pages`` include, and those they include in turn, a few deep: each is
    rendered where it is included. A path is taken from the including
    page's folder; one that leaves the tree, or an absolute one (from the
    Sphinx source folder, not known here), is not followed."""
    known = {rel for rel in files if rel.endswith(FRAGMENT_SUFFIXES)}
    found: list[str] = []
    todo = [rel for rel in pages if rel.endswith((".rst", SPHINX_TEXT))]
    for _ in range(MAX_INCLUDE_DEPTH):
        reached: list[str] = []
        for page in todo:
            data = read_or_none(root, page, MAX_PAGE_BYTES)
            if data is None or b".. include::" not in data:
                continue
            folder = page.rsplit("/", 1)[0] + "/" if "/" in page else ""
            for match in _INCLUDE.finditer(data):
                if _as_text(data, match.end()):
                    continue  # ``:literal:``: shown as it is, no page
                target = _joined(folder, match.group(1).decode("utf-8", "replace"))
                if target in known and target not in found and target not in reached:
                    reached.append(target)
        found.extend(reached)
        todo = reached
    return found


def _as_text(data: bytes, at: int) -> bool:
    """Do the options below the directive ending at ``at`` show the file
    as it is (``:literal:``, ``:code:``, another ``:parser:``)?"""
    for _ in range(_MAX_OPTIONS):
        option = _OPTIONS.match(data, at)
        if option is None:
            return False
        if option.group(1) in _AS_TEXT:
            return True
        at = option.end()
    return False


def _joined(folder: str, path: str) -> str | None:
    """``path`` taken from ``folder``, ``..`` resolved; None where it is
    absolute or leaves the tree."""
    if path.startswith("/"):
        return None
    parts: list[str] = []
    for part in (folder + path).split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)
