"""Config dicts written in Python tests and examples, as example configs.

A dict literal counts when it is handed to a call: directly
(``initialize(config={...})``) or through a name bound to it in the same
scope (``config = {...}`` then ``DeepSpeedConfig(config)``). A scope that
expects a rejection (``pytest.raises``, ``assertRaises``) is skipped: its
configs are wrong on purpose. So is a dict whose keys are deleted or popped
before use. Whether a dict is shaped like this project's config is decided
later, with the schema; this module only reads the file.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field

from configdrift.extract.docs.block_model import BlockKey, literal_value
from configdrift.extract.python.exprs import dotted
from configdrift.extract.text import NotText, decode, too_dense
from configdrift.model import LIST_ITEM

#: Deeper literals are data, not configs.
MAX_DEPTH = 32
_RAISES = frozenset({"raises", "assertRaises", "assertRaisesRegex"})


@dataclass(slots=True)
class PyExample:
    """A dict literal handed to a call, with each key's line (1-based)."""

    line: int
    callee: str
    keys: list[BlockKey] = field(default_factory=list)


def extract_py_examples(data: bytes) -> list[PyExample]:
    """The config-like dict literals of one Python file that reach a call."""
    if too_dense(data) is not None:
        return []
    try:
        source = decode(data)
    except NotText:
        return []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    scopes = _scopes(tree)
    out: list[PyExample] = []
    seen: set[int] = set()
    module = scopes[0]
    for scope in sorted(scopes, key=lambda sc: sc.line):
        if scope.raises:
            continue  # the scope expects a rejection
        # In source order: the first call names the dict's use.
        for call in sorted(scope.calls, key=lambda c: (c.lineno, c.col_offset)):
            args = [*call.args, *(kw.value for kw in call.keywords if kw.arg is not None)]
            for arg in args:
                literals: list[ast.Dict] = []
                if isinstance(arg, ast.Dict):
                    literals = [arg]
                elif isinstance(arg, ast.Name) and arg.id not in scope.spoiled:
                    # A module-level config is seen from the functions that use it.
                    literals = scope.bound.get(arg.id) or module.bound.get(arg.id, [])
                for literal in literals:
                    if id(literal) in seen:
                        continue
                    seen.add(id(literal))
                    keys: list[BlockKey] = []
                    _dict_keys(literal, (), keys, 0)
                    if keys:
                        out.append(PyExample(literal.lineno, _callee(call.func), keys))
    out.sort(key=lambda e: e.line)
    return out


@dataclass(slots=True)
class _Scope:
    """What one function (or the module) does with dicts."""

    calls: list[ast.Call] = field(default_factory=list)
    bound: dict[str, list[ast.Dict]] = field(default_factory=dict)
    spoiled: set[str] = field(default_factory=set)
    raises: bool = False
    line: int = 0


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _scopes(tree: ast.Module) -> list[_Scope]:
    """One pass over the tree: each node is given to its innermost function.

    The walk reads ``_fields`` directly rather than through ``ast.walk``,
    which is several times slower over the large test files this reads."""
    module = _Scope()
    scopes = [module]
    stack: list[tuple[ast.AST, _Scope]] = [(tree, module)]
    while stack:
        node, scope = stack.pop()
        kind = type(node)
        if kind in _FUNCTIONS:
            scope = _Scope(line=node.lineno)  # type: ignore[attr-defined]
            scopes.append(scope)
        elif kind is ast.Lambda or kind is ast.Constant or kind is ast.Name:
            continue
        elif kind is ast.Call:
            _call(node, scope)  # type: ignore[arg-type]
        elif kind is ast.Assign and type(node.value) is ast.Dict:  # type: ignore[attr-defined]
            for target in node.targets:  # type: ignore[attr-defined]
                if type(target) is ast.Name:
                    scope.bound.setdefault(target.id, []).append(node.value)  # type: ignore[attr-defined]
        elif kind is ast.Delete:
            for target in node.targets:  # type: ignore[attr-defined]
                if type(target) is ast.Subscript and type(target.value) is ast.Name:
                    scope.spoiled.add(target.value.id)
        for name in node._fields:
            if name == "ctx":
                continue
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend((item, scope) for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append((value, scope))
    return scopes


def _call(node: ast.Call, scope: _Scope) -> None:
    func = node.func
    if _callee(func).rsplit(".", 1)[-1] in _RAISES:
        scope.raises = True
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ("pop", "popitem")
        and isinstance(func.value, ast.Name)
    ):
        scope.spoiled.add(func.value.id)
    scope.calls.append(node)


def _dict_keys(node: ast.Dict, base: tuple[str, ...], keys: list[BlockKey], depth: int) -> None:
    if depth > MAX_DEPTH:
        return
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue  # ``**spread`` or a computed key: not known statically
        path = (*base, key.value)
        kind, known = literal_value(value)
        keys.append(BlockKey(path, key.lineno, kind, known))
        _nested(value, path, keys, depth + 1)


def _nested(value: ast.expr, path: tuple[str, ...], keys: list[BlockKey], depth: int) -> None:
    if isinstance(value, ast.Dict):
        _dict_keys(value, path, keys, depth)
    elif isinstance(value, ast.List | ast.Tuple):
        for item in value.elts:
            _nested(item, (*path, LIST_ITEM), keys, depth + 1)


def _callee(func: ast.expr) -> str:
    """``a.b.c`` for a call through names, else the method's name."""
    name = dotted(func)
    if name is not None:
        return name
    return f"….{func.attr}" if isinstance(func, ast.Attribute) else "a call"
