"""Tables of defaults a function builds: the dict literal a module-level
function returns (``def get_default_config(): return {...}``), and one a
function binds and then updates with what it is given (``self.config =
{"linewrap": 80, ...}`` then ``self.config.update(kwargs)``): the defaults
the given values are merged over."""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import dotted, to_expr
from configdrift.extract.python.facts import ModuleFacts


def dict_key_lines(table: ast.Dict) -> dict[str, int]:
    """The line of each string key of a dict literal."""
    return {
        k.value: k.lineno
        for k in table.keys
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }


def record_tables(
    facts: ModuleFacts, source: str, node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str
) -> None:
    """Record the function's tables of defaults in ``facts``."""
    last = node.body[-1]
    if (
        "." not in qualname
        and type(last) is ast.Return
        and type(last.value) is ast.Dict
        and not any(type(n) is ast.Return for stmt in node.body[:-1] for n in ast.walk(stmt))
    ):
        facts.returned_dicts[qualname] = to_expr(last.value, source)
        if lines := dict_key_lines(last.value):
            facts.dict_key_lines[qualname] = lines
    bound: dict[str, ast.Dict] = {}
    for stmt in node.body:
        if type(stmt) is ast.Assign and type(stmt.value) is ast.Dict and len(stmt.targets) == 1:
            target = dotted(stmt.targets[0])
            if target is not None:
                bound[target] = stmt.value
        elif (
            type(stmt) is ast.Expr
            and type(stmt.value) is ast.Call
            and type(stmt.value.func) is ast.Attribute
            and stmt.value.func.attr == "update"
            and (target := dotted(stmt.value.func.value)) in bound
        ):
            table = bound.pop(target)
            facts.merged_defaults.append((qualname, to_expr(table, source), dict_key_lines(table)))
