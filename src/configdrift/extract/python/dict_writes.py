"""Where code puts a key into a dict by name: ``{"name": ...}``,
``d["name"] = ...``, ``dict(name=...)`` (the places a removed key is still
written, for ``lifecycle`` and ``sweep``)."""

from __future__ import annotations

import ast


def dict_writes(
    tree: ast.Module, names: set[str], skip: set[int] | frozenset[int] = frozenset()
) -> list[tuple[int, str]]:
    """(line, name) where code puts one of ``names`` into a dict as a key:
    ``{"name": ...}``, ``d["name"] = ...``, ``dict(name=...)``. Nodes whose
    ``id`` is in ``skip`` are left out."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and key.value in names:
                    out.append((key.lineno, str(key.value)))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.slice, ast.Constant)
                    and target.slice.value in names
                ):
                    out.append((target.lineno, str(target.slice.value)))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
            for kw in node.keywords:
                if kw.arg in names:
                    out.append((kw.value.lineno, kw.arg))
    return out
