"""Renames of keys in the docs: a deprecated key in an example renamed
to the key that replaces it (CD402, a safe fix), and the unsafe fixes of
``--unsafe-fixes``: a doc entry's key (CD101, CD102) or an example's (CD301,
CD302) renamed to the near spelling its finding suggests."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from configdrift.edits.pages import UNREAD, Edit, names_alone, page
from configdrift.model import Finding, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def deprecated_rename(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """The rename of a deprecated key in an example, or why there is none."""
    from configdrift.model import DEPRECATED, resolve_path
    from configdrift.rules.values import value_rejection

    where = finding.location
    keys = [
        (base, key)
        for rel, block, base in surface.blocks
        if rel == where.path
        for key in block.keys
        if key.line == where.line and format_path((*base, *key.path)) == finding.key
    ]
    if not keys:
        return "a doc entry: say it is deprecated, or document its replacement, by hand"
    base, key = keys[0]
    path = (*base, *key.path)
    marked = [e for e in analysis.lifecycle if e.status == DEPRECATED and e.path == path]
    replacement = marked[0].replacement if marked else None
    if not replacement or not replacement.isidentifier():
        return "no replacement key beside it is known"
    node = resolve_path(surface.schema, (*path[:-1], replacement))[0]
    info = node.type if node is not None else None
    # A literal the new key's known type takes, as the example rules judge
    # it: a section (``cpu_offload: true`` to ``offload_optimizer``) or an
    # unknown type is no rename to make blindly.
    if (
        info is None
        or not info.kinds
        or key.kind != "value"
        or value_rejection(info, key.kind, key.value) is not None
    ):
        return f"`{replacement}` does not take the example's value: rename it by hand"
    lines = page(analysis, pages, where.path)
    if lines is None:
        return UNREAD
    old = path[-1]
    text = lines[where.line - 1]
    if text.count(old) != 1 or not names_alone(text, old):
        return f"`{old}` is not written once on its line"
    return Edit(where.path, where.line, old, replacement, "CD402", finding.key)


_NEAR = re.compile(r"^(?:did you mean|the code reads) `([^`]+)`")


def near(finding: Finding) -> str | None:
    """The near spelling a finding suggests for its key ("did you mean
    `x`?", "the code reads `x`"), if it suggests one."""
    found = _NEAR.match(finding.suggestion or "")
    return found.group(1) if found else None


def near_rename(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """An unsafe fix: the key of a doc entry or an example renamed to the
    near spelling the finding suggests. Unsafe, because a near spelling may
    be another key: the diff is for a person to read."""
    from configdrift.model import ConfigPath, resolve_path
    from configdrift.rules.values import value_rejection

    close = near(finding)
    where = finding.location
    lines = page(analysis, pages, where.path)
    if close is None or lines is None:
        return UNREAD if close else "no near spelling"
    path: ConfigPath | None = None
    taken: set[str] = set()
    if where.path in analysis.env_examples:
        # ``NAME=value`` in an example environment file, read as CD302 reads it.
        from configdrift.rules.examples import env_assignments

        text = lines[where.line - 1]
        assigned = [name for name, _ in env_assignments(text.encode("utf-8"))]
        if assigned != [finding.key] or text.count(finding.key) != 1:
            return f"`{finding.key}` is not written once on its line"
        if close in {name for name, _ in env_assignments("".join(lines).encode("utf-8"))}:
            return f"`{close}` is set in the file already: remove one by hand"
        return Edit(where.path, where.line, finding.key, close, finding.code, finding.key)
    if finding.code in ("CD101", "CD102"):
        entry = next(
            (
                e
                for e in surface.entries
                if e.location == where and format_path(e.path) == finding.key
            ),
            None,
        )
        if entry is None:
            return "the entry was not found again"
        path = entry.path
        taken = {e.path[-1] for e in surface.entries if e.path[:-1] == path[:-1]}
    else:
        for rel, block, base in surface.blocks:
            if rel != where.path:
                continue
            for key in block.keys:
                full = (*base, *key.path)
                if key.line == where.line and format_path(full) == finding.key:
                    path = full
                    node = resolve_path(surface.schema, (*full[:-1], close))[0]
                    info = node.type if node is not None else None
                    if (
                        info is not None
                        and info.kinds
                        and key.kind == "value"
                        and value_rejection(info, key.kind, key.value) is not None
                    ):
                        return f"`{close}` does not take the example's value: rename it by hand"
                    taken |= {k.path[-1] for k in block.keys if k.path[:-1] == key.path[:-1]}
        if path is None:
            return "the example's key was not found again"
    if close in taken:
        return f"`{close}` is set beside it already: remove one by hand"
    old = path[-1]
    text = lines[where.line - 1]
    if text.count(old) != 1 or not names_alone(text, old):
        return f"`{old}` is not written once on its line"
    return Edit(where.path, where.line, old, close, finding.code, finding.key)


#: The unsafe fixes (``--unsafe-fixes``): a key renamed to its near spelling.
UNSAFE: dict[
    str, Callable[[Analysis, Analysis, Finding, dict[str, list[str] | None]], Edit | str]
] = {code: near_rename for code in ("CD101", "CD102", "CD301", "CD302")}
