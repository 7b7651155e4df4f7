"""Trees of settings built by assigning attributes: a root made by a call
(``_C = CN()``), nodes made the same way (``_C.MODEL = CN()``) and leaves
given their defaults (``_C.MODEL.DEVICE = "cuda"``); the shape yacs,
EasyDict and ml_collections defaults share, whatever library makes the
nodes. A function that extends such a tree it is handed (``def
add_x_config(cfg): cfg.MODEL.X = 1``) builds a part of one.

Only the statements of the module's body and of its functions' bodies are
read (a tree is written flat), never run.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import to_expr
from configdrift.extract.python.facts import AttributeTree

#: The attributes a root made by a call must be assigned below it.
MIN_ASSIGNED = 5
#: The paths two names deep or more a function must assign below a root it
#: is handed (``cfg.MODEL.X = 1``): a tree it extends, not an object it sets.
MIN_EXTENDED = 3
#: The most attributes kept of one tree, and the deepest path.
MAX_ASSIGNED = 5000
MAX_DEPTH = 12


def attribute_trees(tree: ast.Module, source: str) -> list[AttributeTree]:
    """The trees the module's body and its functions' bodies build."""
    out: list[AttributeTree] = []
    _scope(tree.body, "<module>", frozenset(), source, out)
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            params = frozenset(a.arg for a in (*stmt.args.posonlyargs, *stmt.args.args))
            _scope(stmt.body, stmt.name, params, source, out)
    return out


def _scope(
    body: list[ast.stmt],
    scope: str,
    params: frozenset[str],
    source: str,
    out: list[AttributeTree],
) -> None:
    """The trees one body builds: rooted at a name it binds to a call that
    makes a node, or at a parameter (or a name bound to one: ``_C = cfg``)."""
    made: dict[str, tuple[ast.Call, int]] = {}
    handed = set(params)
    assigned: dict[str, list[tuple[str, int, ast.expr]]] = {}
    for stmt in body:
        if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) != 1:
            continue
        target, value = targets[0], stmt.value
        if isinstance(target, ast.Name):
            name = target.id
            made.pop(name, None)
            assigned.pop(name, None)
            handed.discard(name)
            if type(value) is ast.Call and _makes_node(value):
                made[name] = (value, stmt.lineno)
            elif type(value) is ast.Name and value.id in params:
                handed.add(name)
            continue
        path = _path(target)
        if path is None or path[0] not in made.keys() | handed:
            continue
        entries = assigned.setdefault(path[0], [])
        if len(entries) < MAX_ASSIGNED:
            entries.append((".".join(path[1:]), stmt.lineno, value))
    for root, entries in assigned.items():
        call, line = made.get(root, (None, entries[0][1]))
        deep = sum(1 for path, _, _ in entries if "." in path)
        if (len(entries) if call is not None else deep) < (
            MIN_ASSIGNED if call is not None else MIN_EXTENDED
        ):
            continue
        out.append(
            (
                scope,
                root,
                to_expr(call, source) if call is not None else None,
                line,
                [(path, at, to_expr(value, source)) for path, at, value in entries],
            )
        )


def _makes_node(call: ast.Call) -> bool:
    """Does a call look like one that makes a node of settings: no
    positional argument, or a dict literal alone (``CN()``, ``edict({...})``,
    ``ConfigDict()``; never ``Flask(__name__)``)?"""
    return not call.args or (len(call.args) == 1 and type(call.args[0]) is ast.Dict)


def _path(target: ast.expr) -> list[str] | None:
    """The names of an attribute chain on a name (``_C.MODEL.DEVICE``),
    the name first."""
    parts: list[str] = []
    while type(target) is ast.Attribute and len(parts) < MAX_DEPTH:
        parts.append(target.attr)
        target = target.value
    if type(target) is not ast.Name or not parts:
        return None
    parts.append(target.id)
    return parts[::-1]
