"""The literal parts of a name built at runtime (``getattr(cfg,
f"{prefix}_size")``), with the holes between them: what a ``getattr``
with a computed name may read."""

from __future__ import annotations

import ast
import re

from configdrift.extract.python.exprs import dotted
from configdrift.extract.python.facts import CONSTANT_PART

#: What ``%`` puts in a string (``%s``, ``%(name)s``, ``%05d``): a hole in
#: the name it builds. The flags' ``0`` and the width's digits never
#: overlap, so a run of zeros is read once (linear).
PERCENT_HOLE = re.compile(r"%(?:\([^)%]{0,80}\))?[-#0 +]*(?:[1-9]\d*)?(?:\.\d+)?[sdirfxXeEgGoac]")


#: An attribute of the instance a method builds a name with.
_SELF_ATTRIBUTE = re.compile(r"self\.\w+")

#: How deep a sum of strings is followed (``"a" + x + "b" + ...``).
_MAX_DEPTH = 32


def name_parts(node: ast.expr, depth: int = 0) -> tuple[str, ...]:
    """The literal parts of the names an expression can build, a computed
    hole between each two: ``f"{x}_size"`` and ``"%s_size" % x`` give
    ``("", "_size")``, ``"handle_" + x`` gives ``("handle_", "")``; a
    constant's name in a hole (``f"{PREFIX}{x}"``, ``PREFIX + x``) or an
    attribute of the instance (``f"{self.prefix}{x}"``) is kept in its
    part, enclosed in ``CONSTANT_PART``; ``("", "")`` for any other
    computed name (``built_name_matches`` reads them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.Name) and node.id.isupper():
        return (f"{CONSTANT_PART}{node.id}{CONSTANT_PART}",)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and depth < _MAX_DEPTH:
        # Each side's parts, the two touching ones joined: ``x + "_result"``
        # gives ``("", "_result")``, ``"a_" + x + "_b"`` ``("a_", "_b")``.
        left, right = name_parts(node.left, depth + 1), name_parts(node.right, depth + 1)
        return (*left[:-1], left[-1] + right[0], *right[1:])
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
        text = node.left.value
        if isinstance(text, str) and isinstance(node.op, ast.Mod):
            pieces = PERCENT_HOLE.split(text)
            return tuple(pieces) if len(pieces) > 1 else ("", "")
    if not isinstance(node, ast.JoinedStr):
        return ("", "")
    parts = [""]
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts[-1] += value.value
            continue
        inner = value.value if isinstance(value, ast.FormattedValue) else None
        if isinstance(inner, ast.Name) and inner.id.isupper():
            # ``f"{KNOWN_PREFIX}..."``: a constant, known where it is defined.
            parts[-1] += f"{CONSTANT_PART}{inner.id}{CONSTANT_PART}"
        elif inner is not None and _SELF_ATTRIBUTE.fullmatch(dotted(inner) or ""):
            # ``f"{self.name}_x"``: an attribute of the instance, known where
            # its class gives its values (a hole where it does not).
            parts[-1] += f"{CONSTANT_PART}{dotted(inner)}{CONSTANT_PART}"
        elif parts[-1] or len(parts) == 1:
            parts.append("")
    return tuple(parts)
