"""Extract facts from one Python file: a pure function of its bytes.

The module body, class bodies and function signatures are read statement by
statement; only function bodies are walked in full, and only when the source
mentions the patterns they are searched for.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections import Counter
from typing import Any

from configdrift.extract.python.facts import (
    ClassFact,
    DictArg,
    DictRead,
    DictSource,
    DictStore,
    Expr,
    FieldFact,
    ImportFact,
    ModuleFacts,
    Placement,
)
from configdrift.extract.text import NotText, decode

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
_VALIDATE_METHODS = frozenset({"model_validate", "parse_obj", "from_dict"})
_READ_METHODS = frozenset({"get", "pop", "setdefault"})
#: Builtins that take a dict without reading a particular key from it
#: (``len(d)``, ``isinstance(d, dict)``, ``list(d)``): no fact is recorded.
BUILTIN_CONSUMERS = frozenset(
    [
        "len",
        "isinstance",
        "issubclass",
        "print",
        "str",
        "repr",
        "bool",
        "type",
        "id",
        "hash",
        "format",
        "sorted",
        "getattr",
        "hasattr",
        "setattr",
        "delattr",
        "list",
        "tuple",
        "set",
        "frozenset",
        "zip",
        "enumerate",
        "range",
        "min",
        "max",
        "sum",
        "any",
        "all",
        "int",
        "float",
        "iter",
        "next",
        "map",
        "filter",
        "reversed",
        "abs",
        "round",
        "super",
        "vars",
        "callable",
        "open",
    ]
)
# ``.name``: an attribute name (the receiver is looked at by hand: a pattern
# that matched it too would try a match at every character).
_ATTRIBUTE = re.compile(r"\.[ \t]*([A-Za-z_]\w*)(?![ \t]*=[^=])")
# The same loads on ``self`` (the receiver is a whole word).
_SELF_ATTRIBUTE = re.compile(r"(?<![\w.])self\.[ \t]*([A-Za-z_]\w*)(?![ \t]*=[^=])")
# ``self.a.b``: a chain of two attributes or more on ``self``.
_SELF_CHAIN = re.compile(r"(?<![\w.])(self)(?:\.[A-Za-z_]\w*){2,}")
_COPY_FUNCS = frozenset({"copy.copy", "copy.deepcopy", "deepcopy", "dict"})


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


def to_expr(node: ast.expr, source: str, depth: int = 0) -> Expr:
    """Convert an AST expression to the JSON-able ``Expr`` form."""
    if depth > 20:
        return ["src", _segment(source, node)]
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bytes):
            return ["src", _segment(source, node)]
        if value is Ellipsis:
            return ["src", "..."]
        if isinstance(value, complex):
            return ["src", _segment(source, node)]
        if isinstance(value, int | float) and not isinstance(value, bool):
            # Keep how the number was written (5e8, 1_000) for messages.
            text = _segment(source, node)
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
    return ["src", _segment(source, node)]


_LINES: dict[int, tuple[str, list[bytes]]] = {}


def _segment(source: str, node: ast.AST) -> str:
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


def extract_python(data: bytes) -> ModuleFacts:
    """Facts of one Python file, from its bytes alone."""
    facts = ModuleFacts()
    try:
        source = decode(data)
    except NotText as exc:
        facts.error, facts.error_line = str(exc), exc.line
        return facts
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        facts.error = f"invalid Python syntax: {getattr(exc, 'msg', str(exc))}"
        facts.error_line = getattr(exc, "lineno", None) or 1
        return facts
    module = _Module(facts, source)
    module.run(tree)
    module.finish()
    return facts


class _Module:
    def __init__(self, facts: ModuleFacts, source: str) -> None:
        self.facts = facts
        self.source = source
        self.attr_loads: set[str] = set()

    def run(self, tree: ast.Module) -> None:
        self._statements(tree.body, top=True)

    def finish(self) -> None:
        self._drop_unstored_attributes()
        self._chains()
        # Attribute names from the text, in one pass of a compiled pattern:
        # visiting every Attribute node costs more than the rest together.
        names = set(self.attr_loads)
        source = self.source
        counts = Counter(_ATTRIBUTE.findall(source))
        for name, count in Counter(_SELF_ATTRIBUTE.findall(source)).items():
            counts[name] -= count
            if counts[name] <= 0:
                del counts[name]
            counts["self." + name] = count
        names.update(counts)
        self.facts.attr_loads = sorted(names)
        self.facts.attr_counts = dict(counts)

    def _chains(self) -> None:
        """Attribute chains of two attributes or more on ``self``, by function.

        Chains on locals (``cfg = get_zero_config(d); cfg.x``) are not
        recorded: a pattern for them would match every dotted name.
        """
        facts = self.facts
        source = self.source
        if not facts.function_lines or "self." not in source:
            return
        spans = sorted(facts.function_lines.items(), key=lambda item: (item[1][0], -item[1][1]))
        starts = [span[0] for _, span in spans]
        line = 1
        position = 0
        for match in _SELF_CHAIN.finditer(source):
            # Matches come in order: count the newlines since the last one.
            line += source.count("\n", position, match.start())
            position = match.start()
            # The innermost function whose span holds the line.
            index = bisect.bisect_right(starts, line) - 1
            while index >= 0:
                name, (first, last) = spans[index]
                if first <= line <= last:
                    facts.chains.append((line, name, match.group(0)))
                    break
                index -= 1

    def _drop_unstored_attributes(self) -> None:
        """An instance attribute holds a config dict only if the class stores
        one there: facts about the other ``self.X`` (``f(self.module)``) go."""
        facts = self.facts

        def owner(function: str, base: str) -> tuple[str, str]:
            return function.rsplit(".", 1)[0], base

        stored = {
            owner(s.function, s.target) for s in facts.dict_stores if s.target.startswith("self.")
        }

        def keep(function: str, base: str) -> bool:
            return not base.startswith("self.") or owner(function, base) in stored

        facts.dict_args = [a for a in facts.dict_args if keep(a.function, a.source.base)]
        facts.dict_reads = [r for r in facts.dict_reads if keep(r.function, r.source.base)]
        facts.dict_stores = [s for s in facts.dict_stores if keep(s.function, s.source.base)]

    def import_statement(self, stmt: ast.Import | ast.ImportFrom) -> None:
        self._statements([stmt], top=False)

    def _statements(self, body: list[ast.stmt], top: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        local = alias.asname
                        self.facts.imports.append(
                            ImportFact(local, alias.name, None, 0, stmt.lineno)
                        )
                    else:
                        local = alias.name.split(".")[0]
                        self.facts.imports.append(ImportFact(local, local, None, 0, stmt.lineno))
            elif isinstance(stmt, ast.ImportFrom):
                module = stmt.module or ""
                for alias in stmt.names:
                    if alias.name == "*":
                        self.facts.star_imports.append(("." * stmt.level + module, stmt.lineno))
                    else:
                        local = alias.asname or alias.name
                        self.facts.imports.append(
                            ImportFact(local, module, alias.name, stmt.level, stmt.lineno)
                        )
            elif isinstance(stmt, ast.Assign) and top:
                self._module_assign(stmt.targets, stmt.value, stmt.lineno)
            elif isinstance(stmt, ast.AnnAssign) and top and stmt.value is not None:
                self._module_assign([stmt.target], stmt.value, stmt.lineno)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, prefix="")
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(stmt, stmt.name)
            elif isinstance(stmt, ast.If | ast.Try | ast.With):
                # Conditional imports and definitions (version checks, optional
                # dependencies) still define names the rest of the project uses.
                for block in _sub_bodies(stmt):
                    self._statements(block, top)

    def _module_assign(self, targets: list[ast.expr], value: ast.expr, line: int) -> None:
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id == "__all__" and isinstance(value, ast.List | ast.Tuple):
                    self.facts.all_names = [
                        e.value
                        for e in value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
                    continue
                self.facts.assigns[target.id] = to_expr(value, self.source)
                self.facts.assign_lines[target.id] = line

    def _class(self, node: ast.ClassDef, prefix: str) -> None:
        qualname = prefix + node.name
        fact = ClassFact(
            name=qualname,
            line=node.lineno,
            bases=[to_expr(b, self.source) for b in node.bases],
            decorators=[to_expr(d, self.source) for d in node.decorator_list],
        )
        for kw in node.keywords:
            # class M(BaseModel, extra="forbid")
            if kw.arg is not None:
                fact.config_class[kw.arg] = to_expr(kw.value, self.source)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            fact.docstring = isinstance(body[0].value.value, str)
        for stmt in body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                value = to_expr(stmt.value, self.source) if stmt.value is not None else None
                fact.fields.append(
                    FieldFact(
                        stmt.target.id, stmt.lineno, to_expr(stmt.annotation, self.source), value
                    )
                )
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        fact.assigns[target.id] = to_expr(stmt.value, self.source)
                        fact.assigns.setdefault("__line__" + target.id, ["c", stmt.lineno])
            elif isinstance(stmt, ast.ClassDef):
                if stmt.name == "Config":
                    for inner in stmt.body:
                        if isinstance(inner, ast.Assign):
                            for target in inner.targets:
                                if isinstance(target, ast.Name):
                                    fact.config_class[target.id] = to_expr(inner.value, self.source)
                else:
                    self._class(stmt, prefix=qualname + ".")
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(stmt, qualname + "." + stmt.name)
        self.facts.classes.append(fact)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> None:
        args = node.args
        params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        self.facts.functions[qualname] = params
        self.facts.function_lines[qualname] = (node.lineno, node.end_lineno or node.lineno)
        annotated: set[str] = set()
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            if a.annotation is not None and a.arg not in ("self", "cls"):
                annotation = dotted(a.annotation)
                if annotation is not None:
                    self.facts.local_types.append((qualname, a.arg, annotation))
                    annotated.add(a.arg)
        positional = [*args.posonlyargs, *args.args]
        pairs = [
            *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
            *(
                (a, d)
                for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                if d is not None
            ),
        ]
        defaults = {
            a.arg: to_expr(d, self.source)
            for a, d in pairs
            if (isinstance(d, ast.Constant) and isinstance(d.value, str)) or dotted(d) is not None
        }
        if defaults:
            self.facts.param_defaults[qualname] = defaults
        _FunctionBody(self, qualname, set(params), annotated).run(node)


def _sub_bodies(stmt: ast.If | ast.Try | ast.With) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Try):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    return [stmt.body]


class _FunctionBody:
    """Dict flow inside one function: which sub-dicts feed which models, which
    keys are read, and which dicts are handed to other functions."""

    def __init__(
        self, module: _Module, qualname: str, params: set[str], annotated: set[str]
    ) -> None:
        self.module = module
        self.qualname = qualname
        self.params = params
        self.annotated = annotated
        self.locals: dict[str, list[ast.expr]] = {}
        self._name_memo: dict[str, list[DictSource]] = {}

    def run(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Nested functions are walked as part of this one: closures read the
        # enclosing function's dicts.
        calls: list[ast.Call] = []
        assigns: list[ast.Assign] = []
        subscripts: list[ast.Subscript] = []
        compares: list[ast.Compare] = []
        returns: list[ast.Return] = []
        self.loops: dict[str, list[ast.expr]] = {}
        attributes: list[ast.Attribute] = []
        call_type, assign_type, name_type = ast.Call, ast.Assign, ast.Name
        subscript_type, compare_type, load = ast.Subscript, ast.Compare, ast.Load
        for sub in fast_walk(node.body, leaves=False):
            kind = type(sub)
            if kind is call_type:
                calls.append(sub)  # type: ignore[arg-type]
            elif kind is assign_type:
                assigns.append(sub)  # type: ignore[arg-type]
            elif kind is subscript_type and type(sub.ctx) is load:  # type: ignore[attr-defined]
                subscripts.append(sub)  # type: ignore[arg-type]
            elif kind is compare_type:
                compares.append(sub)  # type: ignore[arg-type]
            elif kind is ast.Return and sub.value is not None:  # type: ignore[attr-defined]
                returns.append(sub)  # type: ignore[arg-type]
            elif kind is ast.For or kind is ast.comprehension:
                target = sub.target  # type: ignore[attr-defined]
                if type(target) is name_type:
                    self.loops.setdefault(target.id, []).append(sub.iter)  # type: ignore[attr-defined]
            elif kind is ast.Attribute and type(sub.ctx) is load:  # type: ignore[attr-defined]
                attributes.append(sub)  # type: ignore[arg-type]
            elif kind is ast.ImportFrom or kind is ast.Import:
                # An import inside a function still names a project class.
                self.module.import_statement(sub)  # type: ignore[arg-type]
        # Source order matters: the first key a local is read from is the
        # primary spelling, later ones are legacy spellings.
        assigns.sort(key=lambda a: (a.lineno, a.col_offset))
        calls.sort(key=lambda c: (c.lineno, c.col_offset))
        for assign in assigns:
            for target in assign.targets:
                if type(target) is name_type:
                    self.locals.setdefault(target.id, []).append(assign.value)
        facts = self.module.facts
        typed = set(self.annotated)
        for assign in assigns:
            value = assign.value
            callee = dotted(value.func) if type(value) is call_type else None
            if callee is not None:
                for target in assign.targets:
                    if type(target) is name_type:
                        facts.local_types.append((self.qualname, target.id, callee))
                        typed.add(target.id)
            for target in assign.targets:
                if (
                    type(target) is ast.Attribute
                    and type(target.value) is name_type
                    and target.value.id == "self"
                    and "." in self.qualname
                ):
                    if callee is not None:
                        facts.attr_assigns.append(
                            (self.qualname, target.attr, "call", callee, assign.lineno)
                        )
                    elif type(value) is name_type and value.id in self.params:
                        facts.attr_assigns.append(
                            (self.qualname, target.attr, "param", value.id, assign.lineno)
                        )
                    else:
                        facts.attr_assigns.append(
                            (self.qualname, target.attr, "other", "", assign.lineno)
                        )
                elif type(target) is ast.Tuple and "." in self.qualname:
                    for element in target.elts:
                        if (
                            type(element) is ast.Attribute
                            and type(element.value) is name_type
                            and element.value.id == "self"
                        ):
                            facts.attr_assigns.append(
                                (self.qualname, element.attr, "other", "", assign.lineno)
                            )
        for ret in returns:
            returned = ret.value
            if isinstance(returned, ast.Call):
                callee = dotted(returned.func)
                if callee is not None:
                    facts.return_calls.append((self.qualname, callee))
            elif isinstance(returned, ast.Name):
                for bound in self.locals.get(returned.id, ()):
                    if type(bound) is call_type:
                        callee = dotted(bound.func)
                        if callee is not None:
                            facts.return_calls.append((self.qualname, callee))
        if typed:
            self._local_chains(attributes, typed)
        stores = self.module.facts.dict_stores
        for assign in assigns:
            for target in assign.targets:
                if (
                    type(target) is ast.Attribute
                    and type(target.value) is name_type
                    and target.value.id == "self"
                ):
                    for source in self._param_sources(assign.value):
                        if source.base != f"self.{target.attr}":
                            stores.append(
                                DictStore(
                                    f"self.{target.attr}", source, assign.lineno, self.qualname
                                )
                            )
        for ret in returns:
            for source in self._param_sources(ret.value):  # type: ignore[arg-type]
                if source.keys:
                    stores.append(DictStore("<return>", source, ret.lineno, self.qualname))
        # Results that are followed: assigned to a name or to self, returned,
        # or read from directly (``f(d)[K]``, ``f(d).get(K)``, ``K in f(d)``).
        self.consumed = {id(ret.value) for ret in returns}
        for assign in assigns:
            if all(
                type(t) is name_type
                or (
                    type(t) is ast.Attribute and type(t.value) is name_type and t.value.id == "self"
                )
                for t in assign.targets
            ):
                self.consumed.add(id(assign.value))
        self.consumed.update(id(s.value) for s in subscripts)
        self.consumed.update(id(c.comparators[0]) for c in compares if c.comparators)
        self.consumed.update(
            id(c.func.value)
            for c in calls
            if type(c.func) is ast.Attribute and c.func.attr in _READ_METHODS
        )
        for call in calls:
            if call.args or call.keywords:  # ``f()`` hands nothing over
                self._call(call)
        for subscript in subscripts:
            if type(subscript.slice) is not ast.Slice:
                self._read(subscript.value, subscript.slice, subscript.lineno, "subscript")
        for compare in compares:
            if len(compare.ops) == 1 and type(compare.ops[0]) in (ast.In, ast.NotIn):
                container = compare.comparators[0]
                if (
                    type(container) is call_type
                    and type(container.func) is ast.Attribute
                    and container.func.attr == "keys"
                ):
                    container = container.func.value
                self._read(container, compare.left, compare.lineno, "in")

    def _param_sources(self, node: ast.expr) -> list[DictSource]:
        """Sources of a dict that come from a parameter or an instance attribute."""
        kind = type(node)
        # Fast rejections: most arguments are constants, globals or attributes.
        if kind is ast.Constant or kind is ast.JoinedStr or kind is ast.Lambda:
            return []
        if kind is ast.Name and node.id not in self.params and node.id not in self.locals:  # type: ignore[attr-defined]
            return []
        if kind is ast.Attribute and not (
            type(node.value) is ast.Name and node.value.id == "self"  # type: ignore[attr-defined]
        ):
            return []
        return [s for s in self.sources(node) if s.is_param and s.base not in ("self", "cls")]

    def _read(self, container: ast.expr, key_node: ast.expr, line: int, how: str) -> None:
        sources = self._param_sources(container)
        if not sources:
            return
        keys = self._loop_keys(key_node, sources)
        if keys is None:
            keys = [to_expr(key_node, self.module.source)]
        for key in keys:
            if key[0] == "c" and not isinstance(key[1], str):
                continue  # d[0]: an index, not a key
            for source in sources:
                self.module.facts.dict_reads.append(
                    DictRead(
                        DictSource(source.base, [*source.keys, key], True), line, self.qualname, how
                    )
                )

    def _loop_keys(self, key_node: ast.expr, sources: list[DictSource]) -> list[Expr] | None:
        """Keys a loop variable takes: the items of a literal list of keys, or
        none at all when the loop walks the dict's own keys (a generic pass
        that consumes no key in particular). None when it is not a loop key."""
        if type(key_node) is not ast.Name or key_node.id in self.params:
            return None
        iters = self.loops.get(key_node.id)
        if not iters:
            return None
        out: list[Expr] = []
        bases = {s.base.split(".")[-1] for s in sources}
        for it in iters:
            if type(it) in (ast.Tuple, ast.List, ast.Set) and all(
                (type(e) is ast.Constant and isinstance(e.value, str)) or dotted(e) is not None
                for e in it.elts  # type: ignore[attr-defined]
            ):
                out.extend(to_expr(e, self.module.source) for e in it.elts)  # type: ignore[attr-defined]
                continue
            if bases & self._names_in(it):
                continue  # iterating over the dict's own keys
            return None
        return out

    def _names_in(self, node: ast.expr, depth: int = 0) -> set[str]:
        """Names (and attribute names) an expression uses, through locals."""
        names: set[str] = set()
        for sub in fast_walk([ast.Expr(node)]):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
                if depth < 2:
                    for value in self.locals.get(sub.id, ()):
                        names |= self._names_in(value, depth + 1)
            elif isinstance(sub, ast.Attribute):
                names.add(sub.attr)
        return names

    def sources(self, node: ast.expr, depth: int = 0) -> list[DictSource]:
        """Where a dict expression comes from, as base name plus keys."""
        if depth > 8:
            return []
        d = depth + 1
        src = self.module.source
        if isinstance(node, ast.Name) and node.id in self.params:
            return [DictSource(node.id, [], True)]
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and "." in self.qualname
        ):
            # An instance attribute (``self._param_dict``) is a dict shared by
            # the class's methods: resolution scopes it to the class.
            return [DictSource(f"self.{node.attr}", [], True)]
        if isinstance(node, ast.Name):
            # A local is looked up once per function, whatever uses it.
            cached = self._name_memo.get(node.id)
            if cached is not None:
                return cached
            self._name_memo[node.id] = []  # guards ``x = f(x)`` cycles
            out: list[DictSource] = []
            for value in self.locals.get(node.id, ()):
                out.extend(self.sources(value, d))
            if not out and node.id not in self.locals:
                out = [DictSource(node.id, [], False)]
            self._name_memo[node.id] = out
            return out
        # A key that is not a literal or a name (an f-string, a call) is kept
        # as source text: resolution reports it as unresolved, never guesses.
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            key = to_expr(node.slice, src)
            return [
                DictSource(s.base, [*s.keys, key], s.is_param) for s in self.sources(node.value, d)
            ]
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("get", "pop") and node.args:
                key = to_expr(node.args[0], src)
                return [
                    DictSource(s.base, [*s.keys, key], s.is_param)
                    for s in self.sources(func.value, d)
                ]
            name = dotted(func)
            if name in _COPY_FUNCS and len(node.args) == 1:
                return self.sources(node.args[0], d)
            if name is not None and name not in _COPY_FUNCS:
                # ``x = get_section(d)``: the result of a call on a dict; the
                # ``ret`` segment is replaced by what the function returns.
                out = []
                for position, arg in enumerate(node.args):
                    for s in self.sources(arg, d):
                        if s.is_param:
                            out.append(DictSource(s.base, [*s.keys, ["ret", name, position]], True))
                return out
            return []
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            out = []
            for value in node.values:
                out.extend(self.sources(value, d))
            return out
        if isinstance(node, ast.IfExp):
            return self.sources(node.body, d) + self.sources(node.orelse, d)
        return []

    def _call(self, call: ast.Call) -> None:
        src = self.module.source
        func = call.func
        starred = [k.value for k in call.keywords if k.arg is None]
        model: Expr | None = None
        feeds: list[ast.expr] = []
        via = "kwargs"
        if starred:
            model = to_expr(func, src)
            feeds = starred
        elif isinstance(func, ast.Attribute) and func.attr in _VALIDATE_METHODS and call.args:
            model = to_expr(func.value, src)
            feeds = [call.args[0]]
            via = func.attr
        if model is not None and model[0] == "n":
            sources = [s for f in feeds for s in self.sources(f)]
            keyed = [s for s in sources if s.keys or s.is_param]
            if keyed or not sources:
                # No source at all: built from something that is not a dict
                # lookup (a comprehension, a call); resolution reports it as
                # unresolved if the callee is a model.
                self.module.facts.placements.append(
                    Placement(model, keyed, call.lineno, self.qualname, via)
                )
            return
        kind = type(func)
        last = func.id if kind is ast.Name else func.attr if kind is ast.Attribute else ""  # type: ignore[attr-defined]
        if last[:1].isupper():
            ctor = dotted(func)
            if ctor is not None:
                self._ctor_args(ctor, call)
        if type(func) is ast.Name and func.id == "getattr" and len(call.args) >= 2:
            name_arg = call.args[1]
            if type(name_arg) is ast.Constant and isinstance(name_arg.value, str):
                self.module.attr_loads.add(name_arg.value)
            else:
                self.module.facts.dynamic_getattr.append(
                    (call.lineno, self.qualname, _pattern(name_arg))
                )
        if type(func) is ast.Attribute and func.attr in _READ_METHODS and call.args:
            self._read(func.value, call.args[0], call.lineno, func.attr)
            return
        if type(func) is ast.Name and func.id in BUILTIN_CONSUMERS:
            return
        args: list[tuple[int | str, ast.expr]] = [
            *enumerate(call.args),
            *((k.arg, k.value) for k in call.keywords if k.arg is not None),
        ]
        # Most calls hand over no config dict: find that out before building
        # anything else.
        handed: list[tuple[int | str, DictSource]] = [
            (position, source)
            for position, arg in args
            if type(arg) is not ast.Starred
            for source in self._param_sources(arg)
        ]
        if not handed:
            return
        key_args: dict[str, Expr] = {}
        for position, arg in args:
            kind = type(arg)
            if kind is ast.Constant:
                if isinstance(arg.value, str):  # type: ignore[attr-defined]
                    key_args[str(position)] = ["c", arg.value]  # type: ignore[attr-defined]
                continue
            # A constant, or a parameter handed on (a helper calling a helper).
            if kind is ast.Name and (arg.id.isupper() or arg.id in self.params):  # type: ignore[attr-defined]
                key_args[str(position)] = ["n", arg.id]  # type: ignore[attr-defined]
            if kind is ast.Attribute and arg.attr.isupper():  # type: ignore[attr-defined]
                name = dotted(arg)
                if name is not None:
                    key_args[str(position)] = ["n", name]
        for callee in self._callees(func):
            for position, source in handed:
                self.module.facts.dict_args.append(
                    DictArg(
                        callee,
                        position,
                        source,
                        call.lineno,
                        self.qualname,
                        key_args,
                        id(call) in self.consumed,
                    )
                )

    def _local_chains(self, attributes: list[ast.Attribute], typed: set[str]) -> None:
        """Chains rooted at a typed local (``cfg = get_zero_config(d); cfg.x``),
        the longest of each: an attribute inside a longer chain is skipped."""
        inner = {id(a.value) for a in attributes if type(a.value) is ast.Attribute}
        for attribute in attributes:
            if id(attribute) in inner:
                continue
            root: ast.expr = attribute
            while type(root) is ast.Attribute:
                root = root.value
            if type(root) is ast.Name and root.id in typed:
                text = dotted(attribute)
                if text is not None:
                    self.module.facts.chains.append((attribute.lineno, self.qualname, text))

    def _ctor_args(self, ctor: str, call: ast.Call) -> None:
        """Which classes a constructor's arguments are built from."""
        args: list[tuple[str, ast.expr]] = [
            *((str(i), a) for i, a in enumerate(call.args)),
            *((k.arg, k.value) for k in call.keywords if k.arg is not None),
        ]
        for position, arg in args:
            values = [arg] if type(arg) is ast.Call else []
            if type(arg) is ast.Name:
                values = [v for v in self.locals.get(arg.id, ()) if type(v) is ast.Call]
            callees = [c for c in (dotted(v.func) for v in values) if c is not None]
            if callees:
                self.module.facts.ctor_args.append((ctor, position, callees))

    def _callees(self, func: ast.expr) -> list[Expr]:
        """The callable a call names; a local bound to ``A if c else B`` is both."""
        if type(func) is ast.Name and func.id in self.locals:
            out: list[Expr] = []
            for value in self.locals[func.id]:
                options = [value.body, value.orelse] if type(value) is ast.IfExp else [value]
                for option in options:
                    name = dotted(option)
                    if name is not None:
                        out.append(["n", name])
            if out:
                return out
        callee = to_expr(func, self.module.source)
        return [callee] if callee[0] == "n" else []


def _pattern(node: ast.expr) -> str:
    """A regular expression for the names an f-string can build; ``.*`` for
    any other computed name."""

    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(re.escape(value.value))
            else:
                parts.append(".*")
        return "".join(parts)
    return ".*"


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


def facts_to_json(facts: ModuleFacts) -> dict[str, Any]:
    """A JSON-able dict of the facts (for the cache)."""
    from dataclasses import asdict

    return asdict(facts)
