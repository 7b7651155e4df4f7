"""A project's own helpers that declare an option for their caller: a
function whose body hands one of its parameters, as the option's name, to
a parser's declaring method (pytest's ``add_option_ini(option, dest,
default=None, **kwargs)`` calling ``group.addoption(option, dest=dest,
**kwargs)``; a CLI's ``add_flag(flag, default, help)``). Each call of the
helper with its names written out is the declaration the helper makes:
its body's declaring call, with the helper's parameters replaced by what
the caller gives them (a parameter it does not give, by its default).

A call the helper's signature cannot take (a missing required argument,
an unknown keyword where there is no ``**kwargs``, a starred argument)
declares nothing: what it binds is not known.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from configdrift.extract.python.facts import RegistrationCall

#: Whether a module's text can hold a helper: it calls a declaring method.
_DECLARING_TEXT = ("add_argument", "addoption", "addini", "add_option")


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A helper function and the declaring calls its body makes with one
    of its parameters as the name."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    calls: tuple[ast.Call, ...]
    #: Is it defined in a function, and how often does the module name
    #: it? A local helper every use of which is a call that declares is
    #: seen whole: its body's declaring calls declare nothing of their own.
    local: bool
    uses: int


def declaring_wrappers(
    tree: ast.Module, source: str, methods: frozenset[str]
) -> dict[str, Wrapper]:
    """The module's helpers by name: functions (at any depth, methods
    included) whose own body calls one of the declaring ``methods`` on an
    object with a parameter as the first argument (``parser.add_argument(
    flag, ...)``, ``*names``). A name two functions of the module share is
    no one helper's."""
    if not any(word in source for word in _DECLARING_TEXT):
        return {}
    # One walk: each function, whether it is defined in another, and how
    # often each name is spelt.
    functions: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool]] = []
    uses: Counter[str] = Counter()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        kind = type(node)
        function = kind is ast.FunctionDef or kind is ast.AsyncFunctionDef
        if function:
            functions.append((node, inside))  # type: ignore[arg-type]
        elif kind is ast.Name:
            uses[node.id] += 1  # type: ignore[attr-defined]
        stack.extend((child, inside or function) for child in ast.iter_child_nodes(node))
    names = Counter(node.name for node, _ in functions)
    found: dict[str, Wrapper] = {}
    for node, local in functions:
        calls = tuple(sorted(_declaring_calls(node, methods), key=lambda c: c.lineno))
        if names[node.name] == 1 and calls:
            found[node.name] = Wrapper(node, calls, local, uses[node.name])
    return found


def wrapper_called(call: ast.Call, wrappers: dict[str, Wrapper]) -> Wrapper | None:
    """The helper ``call`` calls: by its bare name, or a method of the
    object's own class (``self.add_flag(...)``)."""
    func = call.func
    if type(func) is ast.Name:
        return wrappers.get(func.id)
    if (
        type(func) is ast.Attribute
        and type(func.value) is ast.Name
        and func.value.id in ("self", "cls")
    ):
        return wrappers.get(func.attr)
    return None


def _declaring_calls(
    node: ast.FunctionDef | ast.AsyncFunctionDef, methods: frozenset[str]
) -> Iterator[ast.Call]:
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    if node.args.vararg is not None:
        params.add(node.args.vararg.arg)
    stack: list[ast.AST] = list(node.body)
    while stack:
        sub = stack.pop()
        kind = type(sub)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            continue  # an inner function's calls are its own
        if (
            isinstance(sub, ast.Call)
            and type(sub.func) is ast.Attribute
            and sub.func.attr in methods
            and sub.args
        ):
            first = sub.args[0]
            if type(first) is ast.Starred:
                first = first.value
            if type(first) is ast.Name and first.id in params:
                yield sub
        stack.extend(ast.iter_child_nodes(sub))


def _bound(
    node: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call
) -> tuple[dict[str, ast.expr], list[ast.keyword]] | None:
    """What each parameter of the helper is bound to by ``call`` (a method
    called on its object binds from its second parameter on), and the
    keywords its ``**kwargs`` takes; None where the binding is not known
    or the call would fail."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if positional and positional[0].arg in ("self", "cls") and type(call.func) is ast.Attribute:
        positional = positional[1:]
    if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    bound: dict[str, ast.expr] = {}
    given = list(call.args)
    for param in positional:
        if given:
            bound[param.arg] = given.pop(0)
    if given and args.vararg is None:
        return None
    if args.vararg is not None:
        bound[args.vararg.arg] = ast.Tuple(given, ast.Load())
    extra: list[ast.keyword] = []
    names = {a.arg for a in (*positional, *args.kwonlyargs)}
    for keyword in call.keywords:
        if keyword.arg in names and keyword.arg not in bound:
            bound[keyword.arg] = keyword.value
        elif args.kwarg is not None and keyword.arg not in names:
            extra.append(keyword)
        else:
            return None
    defaults = dict(zip([a.arg for a in positional][::-1], args.defaults[::-1], strict=False))
    defaults.update(
        (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    )
    for param in (*positional, *args.kwonlyargs):
        if param.arg not in bound:
            if param.arg not in defaults:
                return None
            bound[param.arg] = defaults[param.arg]
    return bound, extra


class _Replace(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.bound.get(node.id)
        return node if value is None or type(node.ctx) is not ast.Load else value


def expanded(wrapper: Wrapper, call: ast.Call) -> list[ast.Call]:
    """The declaring calls ``call`` of the helper makes, each with the
    caller's arguments in place of the helper's parameters and the caller's
    line; the parser it is made on is the helper's (not replaced)."""
    binding = _bound(wrapper.node, call)
    if binding is None:
        return []
    try:
        return _substituted(wrapper, call, *binding)
    except RecursionError:
        return []  # an argument nested past what is copied: nothing declared


def _substituted(
    wrapper: Wrapper, call: ast.Call, bound: dict[str, ast.expr], extra: list[ast.keyword]
) -> list[ast.Call]:
    star = {wrapper.node.args.vararg.arg} if wrapper.node.args.vararg else set()
    starstar = wrapper.node.args.kwarg.arg if wrapper.node.args.kwarg else None
    replace = _Replace(bound)
    out: list[ast.Call] = []
    for inner in wrapper.calls:
        args: list[ast.expr] = []
        for arg in inner.args:
            if type(arg) is ast.Starred and type(arg.value) is ast.Name and arg.value.id in star:
                args.extend(bound[arg.value.id].elts)  # type: ignore[attr-defined]
            else:
                args.append(replace.visit(copy.deepcopy(arg)))
        keywords: list[ast.keyword] = []
        for keyword in inner.keywords:
            value = keyword.value
            if keyword.arg is None and type(value) is ast.Name and value.id == starstar:
                keywords.extend(extra)
            else:
                keywords.append(ast.keyword(keyword.arg, replace.visit(copy.deepcopy(value))))
        new = ast.Call(inner.func, args, keywords)
        out.append(ast.copy_location(new, call))
    return out


def seen_whole(
    registrations: list[RegistrationCall], wrappers: dict[str, Wrapper], declared: Counter[str]
) -> list[RegistrationCall]:
    """``registrations`` without the declaring calls of the local helpers
    every use of which declared (``parser.add_argument(flag, ...)`` in
    ``add_flag``): their callers' declarations stand for them, and a
    declaration by a parameter's name would leave the parser's keys open."""
    lines = {
        inner.lineno
        for name, wrapper in wrappers.items()
        if wrapper.local and wrapper.uses == declared[name]
        for inner in wrapper.calls
    }
    if not lines:
        return registrations
    return [
        r for r in registrations if not (r.line in lines and r.args[:1] and r.args[0][0] == "n")
    ]
