"""Loops that fill an object's attributes from a mapping by name, each
name guarded by the object having it:

    for key, value in data.items():
        if hasattr(config, key):
            setattr(config, key, value)
        else:
            raise ValueError(f"unknown option {key}")

The object's class is a configuration its loader fills: the names a file
sets are its attributes. Where an unknown name raises, the class is strict:
a documented key it lacks fails the load. The object is ``self`` (or a
class method's ``cls()``), or a local bound to a call of a class
(``config = Config()``); any other receiver is not known statically.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import dotted, self_attribute, to_expr
from configdrift.extract.python.facts import Expr

#: A fill: the function, the receiver's class (``self`` for the class the
#: function is a method of, else the dotted name called to make it),
#: whether an unknown name raises, and the loop's line.
Fill = tuple[str, str, bool, int]


def attribute_fills(node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> list[Fill]:
    """The guarded fills the function makes (see the module's docs)."""
    out: list[Fill] = []
    for loop in ast.walk(node):
        if not isinstance(loop, ast.For | ast.AsyncFor):
            continue
        key = _loop_key(loop.target)
        if key is None:
            continue
        found = _fill(loop.body, key)
        if found is None:
            continue
        receiver, strict = found
        made = "self" if receiver == "self" else _made_by(node, receiver)
        if made is not None:
            out.append((qualname, made, strict, loop.lineno))
    return out


def _loop_key(target: ast.expr) -> str | None:
    """The name a loop binds each key to: ``key`` of ``for key, value in
    ...`` or ``for key in ...``."""
    if isinstance(target, ast.Tuple) and len(target.elts) == 2:
        target = target.elts[0]
    return target.id if isinstance(target, ast.Name) else None


def _guard(test: ast.expr, key: str) -> tuple[str, bool] | None:
    """``hasattr(R, key)`` (True) or ``not hasattr(R, key)`` (False), with R."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    call = test.operand if negated else test  # type: ignore[attr-defined]
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "hasattr"
        and len(call.args) == 2
        and isinstance(call.args[0], ast.Name)
        and isinstance(call.args[1], ast.Name)
        and call.args[1].id == key
    ):
        return call.args[0].id, not negated
    return None


def _sets(body: list[ast.stmt], receiver: str, key: str) -> bool:
    """Does ``body`` call ``setattr(receiver, key, ...)`` at its top?"""
    return any(
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "setattr"
        and len(stmt.value.args) == 3
        and all(
            isinstance(arg, ast.Name) and arg.id == name
            for arg, name in zip(stmt.value.args[:2], (receiver, key), strict=True)
        )
        for stmt in body
    )


def _raises(body: list[ast.stmt]) -> bool:
    return any(isinstance(stmt, ast.Raise) for stmt in body)


def _fill(body: list[ast.stmt], key: str) -> tuple[str, bool] | None:
    """The receiver a loop's body fills by ``key`` behind a ``hasattr``
    guard, and whether an unknown key raises; None for another body."""
    for index, stmt in enumerate(body):
        if not isinstance(stmt, ast.If):
            continue
        guard = _guard(stmt.test, key)
        if guard is None:
            continue
        receiver, present = guard
        if present and _sets(stmt.body, receiver, key):
            return receiver, _raises(stmt.orelse)
        if not present and _sets(body[index + 1 :], receiver, key):
            return receiver, _raises(stmt.body)
    return None


def _made_by(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> str | None:
    """The class ``name`` is made by in the function: ``Config`` of
    ``name = Config()`` (``self`` for a class method's ``cls()``), where
    that is its one binding; None otherwise."""
    made: set[str | None] = set()
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        ):
            value = stmt.value
            callee = dotted(value.func) if isinstance(value, ast.Call) else None
            made.add("self" if callee == "cls" else callee)
        elif isinstance(stmt, ast.arg) and stmt.arg == name:
            made.add(None)
    if len(made) != 1:
        return None
    return made.pop()


def init_values(init: ast.FunctionDef, source: str) -> dict[str, Expr]:
    """The values ``__init__`` gives attributes of ``self`` at its top
    that are no calls nor names (``self.port = 8080``, ``self.hosts =
    []``): where a loop fills the class, its attributes and their defaults.
    Each line is kept beside it, as ``__line__`` and the name."""
    out: dict[str, Expr] = {}
    for stmt in init.body:
        if not isinstance(stmt, ast.Assign) or not _literal(stmt.value):
            continue
        for name in filter(None, map(self_attribute, stmt.targets)):
            out.setdefault(name, to_expr(stmt.value, source))
            out.setdefault("__line__" + name, ["c", stmt.lineno])
    return out


def _literal(node: ast.expr) -> bool:
    """Is the value written out: a constant, or a container of such values?"""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(
            k is not None and _literal(k) and _literal(v)
            for k, v in zip(node.keys, node.values, strict=True)
        )
    return isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)  # ``-1``
