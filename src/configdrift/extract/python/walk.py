"""A fast walk over a function's nodes, for the extractor's hot loop."""

from __future__ import annotations

import ast


def _child_fields() -> dict[type, tuple[str, ...]]:
    """For each node type, the fields that can hold child nodes."""
    out: dict[type, tuple[str, ...]] = {}
    for name in dir(ast):
        cls = getattr(ast, name)
        if isinstance(cls, type) and issubclass(cls, ast.AST):
            fields = tuple(f for f in cls._fields if f not in ("ctx", "type_comment"))
            out[cls] = fields
    for leaf in (
        ast.Name,
        ast.Constant,
        ast.Load,
        ast.Store,
        ast.Del,
        ast.Pass,
        ast.Break,
        ast.Continue,
    ):
        out[leaf] = ()
    out[ast.Name] = ()
    out[ast.Attribute] = ("value",)
    return out


_FIELDS = _child_fields()


_AST = ast.AST


_LEAVES = frozenset({ast.Name, ast.Constant})


def fast_walk(body: list[ast.stmt], leaves: bool = True) -> list[ast.AST]:
    """Every node under ``body``, in no particular order.

    ``ast.walk`` is a generator over ``iter_child_nodes``; this iterative walk
    over a per-type table of child fields does the same work in about half
    the time, which matters because it runs over every function body. Without
    ``leaves``, names and constants (nearly half of all nodes) are left out.
    """
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    fields = _FIELDS
    skip = frozenset() if leaves else _LEAVES
    pop, push, extend, add = stack.pop, stack.append, stack.extend, out.append
    while stack:
        node = pop()
        add(node)
        for name in fields.get(type(node), ()):
            value = getattr(node, name, None)
            if value is None:
                continue
            if type(value) is list:
                extend([v for v in value if isinstance(v, _AST) and type(v) not in skip])
            elif isinstance(value, _AST) and type(value) not in skip:
                push(value)
    return out
