"""Dicts of a config file that name the class they build by a ``type``
key (``dict(type="ResNet", depth=50)``, ``{"type": "ResNet", "depth":
50}``): a registry builds the class it names with the other keys as
keywords (MMEngine's ``build_from_cfg``). Read in a module's top-level
assignments, where a Python config file writes them, each with the dict
it is a value of (``backbone=dict(type="ResNet")`` in ``dict(type=
"ImageClassifier", ...)``): the class that one builds is handed it, and
may change it before it builds."""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import to_expr
from configdrift.extract.python.facts import Expr, TypedDict

#: The most typed dicts kept of one module, and the deepest nesting read.
MAX_TYPED = 5000
MAX_DEPTH = 40
#: The key that names the class.
TYPE_KEY = "type"


def typed_dicts(value: ast.expr, source: str, out: list[TypedDict]) -> None:
    """Append to ``out`` the typed dicts of an assigned value, outer
    before inner, each with the index and key of the typed dict it is
    a value of (through plain dicts and lists), or None at the top."""
    _visit(value, source, out, None, 0)


def _visit(
    node: ast.AST, source: str, out: list[TypedDict], parent: tuple[int, str] | None, depth: int
) -> None:
    if depth > MAX_DEPTH or len(out) >= MAX_TYPED:
        return
    pairs = _pairs(node)
    if pairs is not None:
        found = _typed(pairs, source, parent)
        if found is not None:
            out.append(found)
            index = len(out) - 1
            for key, value, _ in pairs:
                if key != TYPE_KEY:
                    _visit(value, source, out, (index, key), depth + 1)
            return
        for _, value, _ in pairs:
            _visit(value, source, out, parent, depth + 1)
        return
    if type(node) in (ast.List, ast.Tuple):
        for item in node.elts:  # type: ignore[attr-defined]
            _visit(item, source, out, parent, depth + 1)


def _pairs(node: ast.AST) -> list[tuple[str, ast.expr, int]] | None:
    """The string keys of a ``dict(...)`` call or a dict literal with their
    values and lines; None for any other node."""
    if type(node) is ast.Call:
        func = node.func
        if type(func) is not ast.Name or func.id != "dict" or node.args:
            return None
        return [(k.arg, k.value, k.lineno) for k in node.keywords if k.arg is not None]
    if type(node) is ast.Dict:
        return [
            (key.value, value, key.lineno)
            for key, value in zip(node.keys, node.values, strict=True)
            if type(key) is ast.Constant and isinstance(key.value, str)
        ]
    return None


def _typed(
    pairs: list[tuple[str, ast.expr, int]], source: str, parent: tuple[int, str] | None
) -> TypedDict | None:
    """The dict as a typed one: the class its ``type`` names (a string, or
    a name: a class the config imports), the line of that key, its other
    keys with their lines and its parent; None where it names none, or
    computes it."""
    named = [(value, line) for key, value, line in pairs if key == TYPE_KEY]
    if not named:
        return None
    value, line = named[-1]  # a literal that writes the key twice keeps the last
    if type(value) is not ast.Name and not (
        type(value) is ast.Constant and isinstance(value.value, str)
    ):
        return None
    others = [(key, at) for key, _, at in pairs if key != TYPE_KEY]
    expr: Expr = to_expr(value, source)
    return expr, line, others, parent
