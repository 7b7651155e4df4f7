"""The keys a docs build leaves out on purpose: a Sphinx ``conf.py`` that
checks every setting is documented often lists those it skips
(``ignored_settings = {"redis_host", ...}``, deprecated or replaced ones).
Such a key is undocumented by intent, and CD103 says nothing of it. The
``conf.py`` is parsed, never run."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from configdrift.files import read_or_none
from configdrift.rules.evidence import once

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The bytes of a ``conf.py`` read for its lists.
MAX_CONF_BYTES = 256 * 1024
#: A variable named for the names it leaves out.
_IGNORING = re.compile(r"ignore|undocumented|skip|exclude", re.IGNORECASE)


def left_out(analysis: Analysis) -> frozenset[str]:
    """The names the docs' build files list as left out, once a project."""
    return once(analysis, "names the docs build leaves out", lambda: _left_out(analysis))


def _left_out(analysis: Analysis) -> frozenset[str]:
    names: set[str] = set()
    for rel in analysis.other_python:
        if rel.rsplit("/", 1)[-1] != "conf.py":
            continue
        data = read_or_none(analysis.config.root, rel, MAX_CONF_BYTES)
        if data is None or not _IGNORING.search(data.decode("utf-8", "replace")):
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for statement in tree.body:
            if not isinstance(statement, ast.Assign | ast.AnnAssign):
                continue
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if not any(isinstance(t, ast.Name) and _IGNORING.search(t.id) for t in targets):
                continue
            if isinstance(value, ast.Set | ast.List | ast.Tuple):
                names.update(
                    item.value
                    for item in value.elts
                    if isinstance(item, ast.Constant) and isinstance(item.value, str)
                )
    return frozenset(names)
