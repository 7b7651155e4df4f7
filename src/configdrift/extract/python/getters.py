"""Reads through a class's getter: ``self.config("port", 8080)`` where
the class defines ``def config(self, key, default=None): return
self._options.get(key, default)``.

A getter that returns at once what it reads, by the key it is given, of
a dict the class holds on ``self`` hands back what
``self._options.get("port", 8080)`` would: each call of it on ``self``
with a literal key is that read, made where the call is, with the call's
default (or the getter's own where the call gives none). Only calls in
the class's own methods count: on another object, the getter may be
another class's.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from configdrift.extract.python.exprs import defaulted, self_attribute, to_expr
from configdrift.extract.python.facts import DictRead, DictSource, Expr


@dataclass(frozen=True, slots=True)
class Getter:
    """A method that reads ``self.<attribute>`` by the key it is given."""

    attribute: str
    #: ``get`` (a default may be given) or ``subscript`` (none).
    how: str
    #: The default the getter falls back to where a call gives none, when
    #: it takes one (``default=None``), else None.
    default: ast.expr | None
    #: The name of the default it takes as its second parameter, if any.
    given: str | None


def _is_name(node: ast.expr, name: str | None) -> bool:
    return name is not None and isinstance(node, ast.Name) and node.id == name


def getter(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Getter | None:
    """The getter ``node`` is: ``def NAME(self, key[, default]):`` whose
    first statement (a docstring aside) returns ``self.X.get(key[, default])`` or
    ``self.X[key]``; None for any other method."""
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    if args.vararg or args.kwarg or args.kwonlyargs or node.decorator_list:
        return None
    if len(params) not in (2, 3) or params[0] != "self":
        return None
    key, given = params[1], (params[2] if len(params) == 3 else None)
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if not body or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    value = body[0].value
    # The default parameter's own default (``default=None``), if it has one.
    fallback = next((d for a, d in defaulted(args) if a.arg == given), None)
    if isinstance(value, ast.Subscript):
        attribute = self_attribute(value.value)
        if attribute is None or not _is_name(value.slice, key):
            return None
        return Getter(attribute, "subscript", None, None)
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and not value.keywords
        and 1 <= len(value.args) <= 2
        and _is_name(value.args[0], key)
    ):
        attribute = self_attribute(value.func.value)
        if attribute is None:
            return None
        if len(value.args) == 1:
            return None if given is not None else Getter(attribute, "get", None, None)
        if not _is_name(value.args[1], given):
            return None  # a default of its own: what a call gives is lost
        return Getter(attribute, "get", fallback, given)
    return None


def getter_reads(node: ast.ClassDef, qualname: str, source: str) -> list[DictRead]:
    """The reads the class makes through its getters: each call
    ``self.NAME("key"[, default])`` in one of its methods, as the read of
    ``self.X`` the getter makes (``getter``)."""
    methods = [s for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    getters = {m.name: g for m in methods if (g := getter(m)) is not None}
    if not getters:
        return []
    reads: list[DictRead] = []
    for method in methods:
        function = f"{qualname}.{method.name}"
        for call in ast.walk(method):
            if not isinstance(call, ast.Call) or self_attribute(call.func) not in getters:
                continue
            found = getters[call.func.attr]  # type: ignore[attr-defined]
            read = _read(call, found, source)
            if read is not None:
                reads.append(
                    DictRead(
                        DictSource(f"self.{found.attribute}", [["c", read[0]]], True),
                        call.lineno,
                        function,
                        found.how,
                        read[1],
                    )
                )
    return reads


def _read(call: ast.Call, found: Getter, source: str) -> tuple[str, Expr | None] | None:
    """The literal key a call of a getter reads and the default it falls
    back to; None where the key is not a literal or the arguments are not
    the getter's plain ones."""
    args = list(call.args)
    for keyword in call.keywords:
        if found.given is None or keyword.arg != found.given:
            return None
        args.append(keyword.value)  # ``default=5``
    if not args or any(isinstance(a, ast.Starred) for a in args):
        return None
    first = args[0]
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str) or not first.value:
        return None
    if len(args) > (1 if found.given is None else 2):
        return None
    if len(args) == 2:
        return first.value, to_expr(args[1], source)
    if found.default is not None:
        return first.value, to_expr(found.default, source)
    return first.value, None
