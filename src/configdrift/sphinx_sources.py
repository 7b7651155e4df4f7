"""Sphinx projects that write their pages with another suffix: a
``conf.py`` whose ``source_suffix`` names ``.txt`` (Django's docs, and its
apps') makes the ``.txt`` files under its folder reStructuredText pages.
The ``conf.py`` is read as text, never run."""

from __future__ import annotations

import re
from pathlib import Path

from configdrift.files import read_or_none

#: The suffix a Sphinx project may give its reStructuredText pages, where
#: its ``conf.py`` says so.
SPHINX_TEXT = ".txt"
#: The bytes of a ``conf.py`` read for its ``source_suffix``.
MAX_CONF_BYTES = 256 * 1024
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
