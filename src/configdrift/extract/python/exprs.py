"""Python expressions as plain, JSON-able data (the ``Expr`` form of facts),
and that data rendered back as source-like text."""

from __future__ import annotations

import ast
import re

from configdrift.extract.python.facts import ClassFact, Expr

_BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Pow: "**",
    ast.Mod: "%",
    ast.BitOr: "|",
    ast.LShift: "<<",
}
_UNOPS: dict[type[ast.unaryop], str] = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not"}


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def last_name(node: ast.expr) -> str:
    """The last name an expression spells: ``b`` of ``a.b``, ``f`` of
    ``f``; ``""`` for anything else (a callee's name, read fast)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def to_expr(node: ast.expr, source: str, depth: int = 0) -> Expr:
    """Convert an AST expression to the JSON-able ``Expr`` form."""
    if depth > 20:
        return ["src", source_segment(source, node)]
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bytes):
            return ["src", source_segment(source, node)]
        if value is Ellipsis:
            return ["src", "..."]
        if isinstance(value, complex):
            return ["src", source_segment(source, node)]
        if isinstance(value, int | float) and not isinstance(value, bool):
            # Keep how the number was written (5e8, 1_000) for messages.
            text = source_segment(source, node)
            if text != repr(value):
                return ["c", value, text]
        return ["c", value]
    name = dotted(node)
    if name is not None:
        return ["n", name]
    d = depth + 1
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return [
            "b",
            _BINOPS[type(node.op)],
            to_expr(node.left, source, d),
            to_expr(node.right, source, d),
        ]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        return ["u", _UNOPS[type(node.op)], to_expr(node.operand, source, d)]
    if isinstance(node, ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "tag"
            and isinstance(func.value, ast.Call)
        ):
            # traitlets' ``Unicode("x").tag(config=True)``: the trait's call,
            # with the tags as keywords.
            inner = to_expr(func.value, source, d)
            tags = {k.arg: to_expr(k.value, source, d) for k in node.keywords if k.arg}
            return [inner[0], inner[1], inner[2], {**inner[3], **tags}]
        args = [to_expr(a, source, d) for a in node.args if not isinstance(a, ast.Starred)]
        kwargs = {k.arg: to_expr(k.value, source, d) for k in node.keywords if k.arg is not None}
        return ["call", to_expr(node.func, source, d), args, kwargs]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        kind = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set"}[type(node)]
        return ["seq", kind, [to_expr(e, source, d) for e in node.elts]]
    if isinstance(node, ast.Dict):
        items = [
            [to_expr(k, source, d), to_expr(v, source, d)]
            for k, v in zip(node.keys, node.values, strict=True)
            if k is not None
        ]
        return ["dict", items]
    if isinstance(node, ast.Subscript):
        return ["sub", to_expr(node.value, source, d), to_expr(node.slice, source, d)]
    return ["src", source_segment(source, node)]


_LINES: dict[int, tuple[str, list[bytes]]] = {}


def source_segment(source: str, node: ast.AST) -> str:
    """Source text of a node (``ast.get_source_segment`` splits the whole
    file on every call; this splits it once per file)."""
    cached = _LINES.get(id(source))
    if cached is None or cached[0] is not source:
        _LINES.clear()
        cached = (source, [line.encode() for line in source.splitlines(keepends=True)])
        _LINES[id(source)] = cached
    lines = cached[1]
    start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if start is None or end is None or col is None or end_col is None or end > len(lines):
        return "<expr>"
    raw: bytes
    if start == end:
        raw = lines[start - 1][col:end_col]
    else:
        raw = b"".join([lines[start - 1][col:], *lines[start : end - 1], lines[end - 1][:end_col]])
    text = raw.decode("utf-8", "replace")
    return text if len(text) <= 200 else text[:197] + "..."


def is_main_guard(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":``: the module runs as a script."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


_VALIDATORS = frozenset({"field_validator", "validator", "model_validator", "root_validator"})


def before_validated(deco: ast.expr) -> list[str]:
    """The fields a validator decorator may change before type checking.

    Read by name, not resolved: a decorator that only looks like pydantic's
    makes the rules quieter, never louder."""
    call = deco if isinstance(deco, ast.Call) else None
    func = call.func if call is not None else deco
    name = last_name(func)
    if name not in _VALIDATORS:
        return []
    kwargs = {kw.arg: kw.value for kw in call.keywords if kw.arg} if call is not None else {}
    mode = kwargs.get("mode")
    mode_text = mode.value if isinstance(mode, ast.Constant) else None
    pre = kwargs.get("pre")
    pre_true = isinstance(pre, ast.Constant) and pre.value is True
    if name in ("model_validator", "root_validator"):
        return ["*"] if mode_text in ("before", "wrap") or pre_true else []
    if name == "field_validator":
        runs_first = mode is not None and mode_text != "after"
    else:
        runs_first = pre is not None and not (isinstance(pre, ast.Constant) and pre.value is False)
    if not runs_first or call is None:
        return []
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(names) != len(call.args) or "*" in names:
        return ["*"]
    return names


def add_validator(fact: ClassFact, method: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Record what a method of ``fact`` that is a validator may change
    before type checking: the fields it validates first, and, for a model
    validator that runs before, the keys it writes on its input (its last
    parameter: ``data["fsdp_config"] = {...}``)."""
    for deco in method.decorator_list:
        before = before_validated(deco)
        fact.before_validated.extend(before)
        params = method.args.posonlyargs + method.args.args
        if before == ["*"] and params:
            data = params[-1].arg
            fact.rewritten.extend(
                target.slice.value
                for stmt in ast.walk(method)
                if isinstance(stmt, ast.Assign)
                for target in stmt.targets
                if isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id == data
                and isinstance(target.slice, ast.Constant)
                and isinstance(target.slice.value, str)
            )


#: The fewest optional keyword parameters of a function that are kept.
MIN_OPTIONAL = 4
#: The longest docstring searched for them.
MAX_DOCSTRING = 100_000


def defaulted(args: ast.arguments) -> list[tuple[ast.arg, ast.expr]]:
    """Each parameter that has a default, with its default."""
    positional = [*args.posonlyargs, *args.args]
    return [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None),
    ]


def optional_keywords(args: ast.arguments) -> list[str]:
    """The parameters a caller may give by keyword or leave out: those with
    a default, but positional-only ones (``def f(func=None, /, python=None,
    *, tags=None)``: ``python`` and ``tags``)."""
    only = {id(a) for a in args.posonlyargs}
    return [a.arg for a, _ in defaulted(args) if id(a) not in only]


def described_keywords(node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str]) -> list[str]:
    """The ``names`` the function's docstring spells as words (an
    ``Args:`` section's entries, what autodoc renders), or a string of its
    body that calls them deprecated names (``"'old' is deprecated"``)."""
    texts = [ast.get_docstring(node, clean=False) or "", *deprecation_messages(node)]
    text = "\n".join(texts)[:MAX_DOCSTRING]
    words = set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", text)) if text.strip() else set()
    return [name for name in names if name in words]


#: A name a deprecation message calls deprecated: "`old` is deprecated",
#: "The 'margin' parameter was deprecated".
_DEPRECATED_NAME = re.compile(
    # Not the object of a word of relation ("the writer method for format
    # is deprecated": the method is).
    r"(?<!\bfor )(?<!\bof )(?<!\bin )(?<!\bon )(?<!\bwith )(?<!\bby )"
    r"(?<!\w)([A-Za-z_]\w{0,80})[`'\"]{0,2} {1,3}(?:(?:parameter|argument|keyword|option) {1,3})?"
    r"(?:is|are|was|has been|have been) {1,3}(?:now {1,3})?deprecated"
)


def deprecated_keywords(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters a function deprecates: a default that says so
    (``margin="deprecated"``), or a deprecation message of its body that
    names them as the deprecated one ("`margin` is deprecated")."""
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    out = {
        arg.arg
        for arg, default in defaulted(args)
        if isinstance(default, ast.Constant) and "deprecat" in str(default.value).lower()
    }
    for message in deprecation_messages(node):
        out.update(_DEPRECATED_NAME.findall(message[:MAX_DOCSTRING]))
    return [name for name in names if name in out]


def deprecation_messages(node: ast.AST) -> list[str]:
    """The strings of ``node`` that speak of deprecation (``"'old' is
    deprecated"``, a default of ``"deprecated"``)."""
    return [
        sub.value
        for sub in ast.walk(node)
        if type(sub) is ast.Constant and type(sub.value) is str and "deprecat" in sub.value.lower()
    ]


def render(expr: Expr) -> str:
    """Source-like text of an expression, for messages."""
    kind = expr[0]
    if kind == "c":
        return str(expr[2]) if len(expr) > 2 else repr(expr[1])
    if kind in ("n", "src"):
        return str(expr[1])
    if kind == "u":
        return f"{expr[1]}{render(expr[2])}" if expr[1] != "not" else f"not {render(expr[2])}"
    if kind == "b":
        return f"{render(expr[2])} {expr[1]} {render(expr[3])}"
    if kind == "call":
        parts = [render(a) for a in expr[2]] + [f"{k}={render(v)}" for k, v in expr[3].items()]
        return f"{render(expr[1])}({', '.join(parts)})"
    if kind == "seq":
        inner = ", ".join(render(e) for e in expr[2])
        return {"list": f"[{inner}]", "tuple": f"({inner})", "set": f"{{{inner}}}"}[expr[1]]
    if kind == "dict":
        return "{" + ", ".join(f"{render(k)}: {render(v)}" for k, v in expr[1]) + "}"
    if kind == "sub":
        index = expr[2]
        if index[0] == "seq" and index[1] == "tuple" and index[2]:
            return f"{render(expr[1])}[{', '.join(render(e) for e in index[2])}]"
        return f"{render(expr[1])}[{render(index)}]"
    return "?"


def assigned(cls: ClassFact) -> list[tuple[str, Expr, int]]:
    """The names a class body assigns, each with its value and its line
    (which the facts keep beside it, as ``__line__`` and the name)."""
    return [
        (name, value, marker[1] if (marker := cls.assigns.get("__line__" + name)) else cls.line)
        for name, value in cls.assigns.items()
        if not name.startswith("__line__")
    ]


def parse_annotation(text: str) -> Expr | None:
    """A string annotation (``"list[str]"``) as an expression, where it parses."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return to_expr(node, text)


def spec_rows(expr: Expr) -> bool:
    """Is ``expr`` a sequence of pairs of a name and a dict of the option's
    settings (``("jobs", {"default": 4, "type": "int"})``)?"""
    rows = expr[2] if expr[0] == "seq" else []
    return bool(rows) and all(
        r[0] == "seq" and len(r[2]) == 2 and r[2][0][0] == "c" and r[2][1][0] == "dict"
        for r in rows
    )


def falls_back(default: Expr | None) -> bool:
    """Is a read's default one to fall back on (``None`` is not)?"""
    return default is not None and default != ["c", None]


#: Callees whose value is no setting: a method or a computed attribute.
_NOT_VALUES = frozenset({"property", "staticmethod", "classmethod", "cached_property"})


def computed(value: Expr) -> bool:
    """Is the value a method's or a computed attribute's (``property(...)``)?"""
    return (
        value[0] == "call" and value[1][0] == "n" and value[1][1].rsplit(".", 1)[-1] in _NOT_VALUES
    )


_WRAPPERS = frozenset({"set", "frozenset", "tuple", "list", "dict", "MappingProxyType"})


def unwrapped(expr: Expr) -> Expr:
    """``frozenset({...})``, ``set([...])`` and kin: the literal inside."""
    while (
        expr[0] == "call"
        and expr[1][0] == "n"
        and expr[1][1].rsplit(".", 1)[-1] in _WRAPPERS
        and len(expr[2]) == 1
    ):
        expr = expr[2][0]
    return expr


def attrs_alias(call: Expr | None) -> str | None:
    """The keyword an attrs field call's ``alias=`` names, where it names one."""
    alias = call[3].get("alias") if call is not None else None
    return alias[1] if alias is not None and alias[0] == "c" and isinstance(alias[1], str) else None


def has_validator(annotation: Expr | None) -> bool:
    """Does an ``Annotated[...]`` type carry a validator that runs first?"""
    text = render(annotation) if annotation is not None else ""
    return any(name in text for name in ("BeforeValidator", "WrapValidator", "PlainValidator"))


def self_attribute(node: ast.expr) -> str | None:
    """``X`` of ``self.X``, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == "self" else None
    return None
