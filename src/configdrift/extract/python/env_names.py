"""The name an environment read builds from its function's parameters: a
helper that reads the variable its callers name with a prefix or a suffix
of its own, written in place (``os.getenv(f"MYAPP_{name}")``,
``os.environ[prefix + "_" + arg]``) or through a local bound so
(``lookup = f"{prefix}_{arg}"``, then ``os.environ[lookup]``), where the
other parameters it uses have a text default (``prefix="PIPENV"``).

Kept as a registration ``env`` of the function's first parameter, with
the text before and after it and the parameters that text came from
(``from``): a caller that gives one of those reads another variable.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import defaulted, dotted, last_name, to_expr
from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.extract.python.registration_calls import CONVERSIONS, ENV_CALLS, ENV_MAPPINGS

#: The most parts a built name is read from.
MAX_PARTS = 12
#: What a helper puts before and after the name its caller gives, and the
#: parameters that text comes from.
Affix = tuple[str, str, frozenset[str]]
#: Where a read keeps them.
_KEPT = ("prefix", "suffix", "from")


def affix_of(read: RegistrationCall) -> Affix:
    """What a helper's read of its first parameter adds to the name
    (``env`` with ``prefix``, ``suffix`` and ``from``; ``os.getenv(name +
    "_FILE")`` keeps a suffix alone)."""
    before, after, used = (str(read.kwargs.get(k, ["c", ""])[1]) for k in _KEPT)
    return before, after, frozenset(used.split(",")) - {""}


def given_to(call: RegistrationCall) -> set[str]:
    """The keywords a call of a helper gives (``given``)."""
    return set(str(call.kwargs.get("given", ["c", ""])[1]).split(",")) - {""}


def helper_read(
    node: ast.AST,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    bound: dict[str, list[ast.expr]],
    qualname: str,
) -> RegistrationCall | None:
    """The read a helper makes of ``<before><first parameter><after>``
    (see the module's docs), or None."""
    name = _named(node)
    if type(name) is ast.Name:
        built = [v for v in bound.get(name.id, ()) if type(v) in (ast.JoinedStr, ast.BinOp)]
        name = built[0] if len(built) == 1 else None
    parts = _parts(name) if name is not None else None
    arguments = function.args
    params = [
        a.arg for a in (*arguments.posonlyargs, *arguments.args) if a.arg not in ("self", "cls")
    ]
    if not parts or not params or parts.count(("n", params[0])) != 1:
        return None
    texts = _text_defaults(arguments)
    at = parts.index(("n", params[0]))
    used = [p for kind, p in parts if kind == "n" and p != params[0]]
    if any(p not in texts for p in used):
        return None  # a name the function computes: not known statically
    before, after = (
        "".join(texts[p] if kind == "n" else p for kind, p in side)
        for side in (parts[:at], parts[at + 1 :])
    )
    kwargs: dict[str, Expr] = {
        "prefix": ["c", before],
        "suffix": ["c", after],
        "from": ["c", ",".join(used)],
    }
    line: int = getattr(node, "lineno", 0)
    return RegistrationCall("env", [["n", params[0]]], kwargs, line, qualname, "os.environ")


def built_read(
    node: ast.AST, bound: dict[str, list[ast.expr]], qualname: str, read: RegistrationCall | None
) -> RegistrationCall | None:
    """``read`` (or a read of its own, where there is none), with the
    literal parts of each name it builds at run time that begins with text
    (``f"PIPENV_{dest.upper()}"``, also through a local bound to an
    expression that holds one: ``("PIPENV_", "")``, anything between
    them): the variables it may read (``built``, a list of tuples of texts)."""
    name = _named(node)
    if type(name) is ast.Name:
        held = bound.get(name.id, [])
    else:
        held = [name] if type(name) is ast.JoinedStr else []
    strings = [sub for value in held for sub in ast.walk(value) if type(sub) is ast.JoinedStr]
    # Each name it may build that begins with text (none: any at all).
    names = [p for p in map(_holes, strings[:MAX_PARTS]) if p is not None and p[0]]
    if not names:
        return read
    built: Expr = ["seq", "list", [["seq", "tuple", [["c", p] for p in n]] for n in names]]
    if read is None:
        line: int = getattr(node, "lineno", 0)
        return RegistrationCall("env", [["n", ""]], {"built": built}, line, qualname, "os.environ")
    read.kwargs["built"] = built
    return read


def _holes(node: ast.JoinedStr) -> tuple[str, ...] | None:
    """An f-string's texts, ``""`` at each end a value takes
    (``f"APP_{x}"``: ``("APP_", "")``); None for one of no value."""
    parts = [""]
    for value in node.values[:MAX_PARTS]:
        if type(value) is ast.Constant and isinstance(value.value, str):
            parts[-1] += value.value
        else:
            parts.append("")
    return tuple(parts) if len(parts) > 1 else None


def stored_attributes(assigns: list[ast.Assign]) -> dict[int, str]:
    """The attribute of ``self`` each call's value is put in, by the call's
    id: ``self.PORT = int(os.getenv("APP_PORT", "80"))`` puts both calls'
    value in ``PORT``."""
    out: dict[int, str] = {}
    for assign in assigns:
        (target,) = assign.targets if len(assign.targets) == 1 else (None,)
        if type(target) is not ast.Attribute or not _is_self(target.value):
            continue
        value: ast.expr | None = assign.value
        while type(value) is ast.Call:
            out[id(value)] = target.attr
            converted = type(value.func) is ast.Name and value.func.id in CONVERSIONS
            value = value.args[0] if converted and len(value.args) == 1 else None
    return out


def _is_self(node: ast.expr) -> bool:
    return type(node) is ast.Name and node.id == "self"


def _named(node: ast.AST) -> ast.expr | None:
    """What names the variable an environment read reads
    (``os.environ.get(NAME)``, ``os.getenv``, ``os.environ[NAME]``,
    ``NAME in os.environ``)."""
    if type(node) is ast.Call and node.args and dotted(node.func) in ENV_CALLS:
        return node.args[0]
    if type(node) is ast.Subscript and last_name(node.value) == "environ":
        return node.slice if dotted(node.value) in ENV_MAPPINGS else None
    if type(node) is ast.Compare and len(node.comparators) == 1:
        target = node.comparators[0]
        if last_name(target) == "environ" and dotted(target) in ENV_MAPPINGS:
            return node.left
    return None


def _parts(node: ast.expr) -> list[tuple[str, str]] | None:
    """The texts (``("c", "_")``) and names (``("n", "arg")``) an f-string
    or a sum of them joins, in order; None for anything else."""
    if type(node) is ast.Constant and isinstance(node.value, str):
        return [("c", node.value)]
    if type(node) is ast.Name:
        return [("n", node.id)]
    if type(node) is ast.BinOp and type(node.op) is ast.Add:
        left, right = _parts(node.left), _parts(node.right)
        joined = left + right if left is not None and right is not None else None
        return joined if joined is not None and len(joined) <= MAX_PARTS else None
    if type(node) is not ast.JoinedStr or len(node.values) > MAX_PARTS:
        return None
    out: list[tuple[str, str]] = []
    for value in node.values:
        if type(value) is ast.Constant and isinstance(value.value, str):
            out.append(("c", value.value))
        elif (
            type(value) is ast.FormattedValue
            and value.conversion == -1
            and value.format_spec is None
            and type(value.value) is ast.Name
        ):
            out.append(("n", value.value.id))
        else:
            return None
    return out


def _text_defaults(arguments: ast.arguments) -> dict[str, str]:
    """The parameters whose default is a text (``prefix="PIPENV"``)."""
    return {
        a.arg: d.value
        for a, d in defaulted(arguments)
        if type(d) is ast.Constant and isinstance(d.value, str)
    }


def joined(node: ast.expr, source: str) -> Expr:
    """An f-string of names and text as the sum it is (``f"{prefix}_"`` is
    ``prefix + "_"``), other expressions as ``to_expr`` keeps them."""
    parts = _parts(node) if type(node) is ast.JoinedStr and node.values else None
    if parts is None:
        return to_expr(node, source)
    out: Expr = list(parts[0])
    for part in parts[1:]:
        out = ["b", "+", out, list(part)]
    return out
