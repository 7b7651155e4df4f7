"""Dotted names the docs' prose spells in code (``c.configurableHTTPProxy.api_url``,
``zero_optimization.stage3_max_reuse_distanc``) that no configuration has,
where fixing one part's spelling gives a key of one: a reader who copies
the name sets nothing, or fails. Shared by CD101 (a strict parent) and
CD102 (a lenient one)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.files import read_or_none
from configdrift.model import Finding, Location, SchemaNode
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: How close a part must be to a key's spelling to be its misspelling.
_CUTOFF = 0.85
#: Code files searched for a name before it is called a misspelling.
_MAX_CODE_FILES = 5000


def _spellings(node: SchemaNode) -> tuple[str, ...]:
    return tuple(s for s in (node.spellings or (node.key,)) if isinstance(s, str))


def _child(node: SchemaNode, part: str) -> SchemaNode | None:
    return next((c for c in node.children.values() if part in _spellings(c)), None)


def _near(node: SchemaNode, part: str) -> SchemaNode | None:
    """The one child of ``node`` ``part`` misspells: the same letters in
    another case, or a close spelling."""
    folded = [
        c for c in node.children.values() if part.casefold() in map(str.casefold, _spellings(c))
    ]
    if len(folded) == 1:
        return folded[0]
    names = {s: c for c in node.children.values() for s in _spellings(c)}
    close = [s for s in names if _one_edit(part, s)]
    close += difflib.get_close_matches(part, [s for s in names if s not in close], 2, _CUTOFF)
    return names[close[0]] if len(close) == 1 else None


def _one_edit(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` one letter apart: one left out, added, changed,
    or two side by side swapped (``prot`` for ``port``)?"""
    if a == b or abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 3:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def resolve(root: SchemaNode, parts: list[str]) -> tuple[SchemaNode, SchemaNode, str] | None:
    """Where ``parts`` lands when one part, and one only, is misspelt: the
    node it names, the parent of the misspelt part, and the spelling; None
    when the parts name a key as they are, or no key with one fix."""
    node, fixed = root, None
    for part in parts:
        child = _child(node, part)
        if child is None:
            if fixed is not None:
                return None
            child = _near(node, part)
            if child is None:
                return None
            fixed = (node, part)
        node = child
    if fixed is None:
        return None
    return node, fixed[0], fixed[1]


def misspelt_mentions(analysis: Analysis, strict: bool) -> Iterator[Finding]:
    """CD101 (``strict``) or CD102 for each name the prose spells that is a
    misspelling of a key of this surface and of no key of any surface."""
    first = analysis.first or analysis
    if not first.mentions:
        return
    root = analysis.schema
    traits = root.model_kind == "traitlets"
    code: list[bytes] | None = None
    for rel, name, line in first.mentions:
        parts = name.split(".")
        if traits and parts[0] == "c":
            parts = parts[1:]  # ``c.Class.trait`` in a traitlets config file
        if len(parts) < 2 or any(_exists(s.schema, parts) for s in first.everything):
            continue
        found = resolve(root, parts)
        if found is None:
            continue
        node, parent, wrong = found
        if (parent.strict is True) != strict:
            continue
        if code is None:
            code = _code(analysis)
        if any(name.encode() in data for data in code):
            continue  # the code spells it: something real, not a misspelling
        right = ".".join(node.path)
        said = f"c.{right}" if traits and name.startswith("c.") else right
        if strict:
            owner = parent.model or "the schema"
            consequence = (
                f"{owner} forbids unknown keys, so following the docs {parent.rejection()}"
            )
        else:
            where = f"under `{'.'.join(parent.path)}`" if parent.path else "at the top level"
            consequence = f"nothing reads `{wrong}` {where}, so setting it does nothing"
        yield make(
            "CD101" if strict else "CD102",
            name,
            Location(rel, line),
            f"the docs name `{name}`, which no configuration has: {consequence}",
            (),
            f"did you mean `{said}`?",
        )


def _exists(root: SchemaNode, parts: list[str]) -> bool:
    node: SchemaNode | None = root
    for part in parts:
        node = _child(node, part) if node is not None else None
    return node is not None


def _code(analysis: Analysis) -> list[bytes]:
    root = analysis.config.root
    paths = sorted({info.path for info in analysis.project.modules.values()})
    return [
        data for path in paths[:_MAX_CODE_FILES] if (data := read_or_none(root, path)) is not None
    ]
