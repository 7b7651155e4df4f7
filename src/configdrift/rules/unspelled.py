"""A key an example sets beside a configuration's keys that no code of the
project spells in any form (part of CD302).

A surface its examples document and that says nothing of the keys it does
not read (``Analysis.examples_document``, an open dict read key by key)
cannot tell an ignored key from one read elsewhere. The whole project can:
a key that no Python file or config file spells, in any case and with
``-`` or ``_``, is read by nothing static analysis could miss but a name
built at run time, and one a built name may be (``f"{name}_DSN"``,
anything in its holes) is never judged. Such a key is judged only in a
block that is plainly this project's settings: one of its keys is an
option of the surface, and all but a third of them are the surface's or
spelt by the code (a block of another program's settings, Django's
``INSTALLED_APPS`` beside one of the project's own, is left alone).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.calls import PERCENT_HOLE
from configdrift.extract.python.facts import Expr, built_name_matches
from configdrift.model import (
    ConfigPath,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
    resolve_path,
)
from configdrift.rules.evidence import built_names, spelt_anywhere
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: At most one key in this many of a block may be spelt nowhere: more,
#: and the block is another program's settings (a block of two keys is
#: never judged).
UNSPELT_SHARE = 3


def unspelled_keys(analysis: Analysis) -> Iterator[Finding]:
    """CD302 for each key of an example that neither the surface reads nor
    any file of the project spells (see the module's docs)."""
    root = analysis.schema
    if not analysis.examples_document or root.strict is not None:
        return
    # A block not placed (it sets other keys too) is read at the top.
    documenting = [
        *analysis.blocks,
        *((rel, block, ()) for rel, block in analysis.other_examples),
    ]
    # Per block: its keys the surface does not read, (page, line, path,
    # what the block is), an option of the surface it sets, its size.
    judged: list[tuple[list[tuple[str, int, ConfigPath, str]], SchemaNode, int]] = []
    for rel, block, base in documenting:
        top = [key for key in block.keys if len(key.path) == 1]
        unread: list[tuple[str, int, ConfigPath, str]] = []
        held: list[SchemaNode] = []
        for key in top:
            path = (*base, *key.path)
            node, _, parent = resolve_path(root, path)
            if node is not None and not node.children:
                held.append(node)  # one of its options, not a section it is under
            elif node is None and parent.strict is None:
                unread.append((rel, key.line, path, block.described()))
        if unread and held:
            judged.append((unread, held[0], len(top)))
    if not judged:
        return
    names = {path[-1] for unread, _, _ in judged for _, _, path, _ in unread}
    spelt = spelt_anywhere(analysis, names) | _built(analysis, names)
    seen: set[ConfigPath] = set()
    for unread, option, size in judged:
        nowhere = [item for item in unread if item[2][-1] not in spelt]
        if UNSPELT_SHARE * len(nowhere) > size:
            continue  # another program's settings beside the project's
        for rel, line, path, what in nowhere:
            if path in seen:
                continue
            seen.add(path)
            yield make(
                "CD302",
                format_path(path),
                Location(rel, line),
                f"{what} sets `{format_path(path)}`, but neither {root.model or 'the code'} "
                "reads it nor does any code of the project spell it: the setting is "
                "silently ignored",
                _beside(option),
            )


def _built(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` a key some code builds at run time may be, in any case:
    a dict's key (``settings.get(f"{name}_DSN")``, ``"PRE_" + name``,
    ``"X_%s" % name``) or an attribute ``getattr`` builds, anything in the
    holes between its literal parts."""
    built = [parts for _, _, parts, _ in built_names(analysis)]
    for info in analysis.project.modules.values():
        for read in (*info.facts.dict_reads, *info.facts.held_reads):
            if read.source.keys:
                parts = key_parts(read.source.keys[-1])
                if parts is not None and len(parts) > 1:
                    built.append(parts)
    # A name with no literal part (``getattr(module, name)``, ``d[key]``) is
    # a value the code got elsewhere, spelt where it is set: no built name.
    built = [parts for parts in built if any(parts)]
    return {
        name
        for name in names
        if any(
            built_name_matches(parts, form)
            for parts in built
            for form in (name, name.lower(), name.upper())
        )
    }


def key_parts(expr: Expr) -> tuple[str, ...] | None:
    """The literal parts of a key built from text and holes (an f-string,
    ``+``, ``%``), a hole between each two; None for another expression."""
    if expr[0] == "c":
        return (expr[1],) if isinstance(expr[1], str) else None
    if expr[0] == "n":
        return ("", "")  # a name's value: a hole
    if expr[0] == "b" and expr[1] == "+":
        left, right = key_parts(expr[2]), key_parts(expr[3])
        if left is None or right is None:
            return None
        return (*left[:-1], left[-1] + right[0], *right[1:])
    if expr[0] == "b" and expr[1] == "%" and expr[2][0] == "c" and isinstance(expr[2][1], str):
        return tuple(PERCENT_HOLE.split(expr[2][1]))
    if expr[0] == "src" and isinstance(expr[1], str) and expr[1][:2].lower() in ("f'", 'f"'):
        return _fstring_parts(expr[1])
    return None


def _fstring_parts(text: str) -> tuple[str, ...] | None:
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree.body, ast.JoinedStr):
        return None
    parts = [""]
    for value in tree.body.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts[-1] += value.value
        else:
            parts.append("")
    return tuple(parts)


def _beside(option: SchemaNode) -> tuple[Related, ...]:
    """Where the code reads an option the example sets beside the key."""
    where = option.location
    if where is None:
        return ()
    note = f"`{format_path(option.path)}`, set beside it, is read here"
    return (Related(where.path, where.line, note),)
