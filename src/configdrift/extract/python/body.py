"""Dict flow inside one function body: the facts the code view needs.

Which sub-dicts feed which models, which keys are read, which dicts are
handed to other functions or kept in instance attributes, and what the
function's assignments, returns and constructor calls say about types.
"""

from __future__ import annotations

import ast
import re
from typing import Protocol

from configdrift.extract.python.exprs import dotted, to_expr
from configdrift.extract.python.facts import (
    DictArg,
    DictRead,
    DictSource,
    DictStore,
    Expr,
    ModuleFacts,
    Placement,
    RegistrationCall,
)


class ModuleContext(Protocol):
    """What a function body needs of the module it is in (the module's
    extractor, ``extractor.ModuleExtractor``)."""

    facts: ModuleFacts
    source: str
    declaring: frozenset[str]
    #: Attribute names loaded anywhere in the module (``getattr`` with a
    #: constant name included).
    attr_loads: set[str]

    def import_statement(self, stmt: ast.Import | ast.ImportFrom) -> None: ...


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
_COPY_FUNCS = frozenset({"copy.copy", "copy.deepcopy", "deepcopy", "dict"})
#: Calls that parse a whole file or string into a dict: where a
#: configuration read from a file starts. Their result is a dict source of
#: its own (base ``LOADED``), as a parameter is.
LOADERS = frozenset(
    {
        "json.load",
        "json.loads",
        "hjson.load",
        "hjson.loads",
        "yaml.safe_load",
        "yaml.load",
        "yaml.full_load",
        "tomllib.load",
        "tomllib.loads",
        "tomli.load",
        "tomli.loads",
        "toml.load",
        "toml.loads",
    }
)
LOADED = "<loaded>"
#: What an HTTP response is usually called: ``json.loads(r.read())``.
_RESPONSE_NAMES = frozenset({"r", "res", "resp", "response", "reply"})
_HTTP_MODULES = frozenset({"requests", "httpx", "urllib", "aiohttp", "urllib3"})


def _from_network(arg: ast.expr) -> bool:
    """Is a loader's argument the body of an HTTP response
    (``r.read().decode()``, ``response.text``, ``urlopen(url).read()``)?"""
    node = arg
    for _ in range(8):  # down the chain of calls and attributes to its root
        if isinstance(node, ast.Call):
            name = dotted(node.func) or ""
            if name.split(".")[0] in _HTTP_MODULES or name.endswith("urlopen"):
                return True
            node = node.func
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            break
    return isinstance(node, ast.Name) and node.id in _RESPONSE_NAMES


#: Methods that declare an option by name (see ``resolve.mechanisms.options``).
REGISTRATION_METHODS = frozenset(
    {
        "add_argument",
        "addoption",
        "_addoption",
        "addini",
        "add_config_value",
        "add_config",
        "add_constant",
    }
)
#: Declaring methods that may name their key by keyword alone
#: (tox's ``add_config(keys=["env_list", "envlist"], ...)``).
_KEYS_KEYWORD = frozenset({"add_config", "add_constant"})
#: The methods of an argument parser (pytest's included) that add options.
_PARSER_METHODS = frozenset({"add_argument", "addoption", "_addoption"})
#: Calls that read an option by its name: ``config.getini("timeout")``.
_NAMED_READS = frozenset({"getini", "getoption"})


class FunctionBody:
    """Dict flow inside one function: which sub-dicts feed which models, which
    keys are read, and which dicts are handed to other functions."""

    def __init__(
        self, module: ModuleContext, qualname: str, params: set[str], annotated: set[str]
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
        ifexps: list[ast.IfExp] = []
        refused: set[int] = set()
        call_type, assign_type, name_type = ast.Call, ast.Assign, ast.Name
        subscript_type, compare_type, load = ast.Subscript, ast.Compare, ast.Load
        for sub in fast_walk(node.body, leaves=False):
            kind = type(sub)
            if kind is call_type:
                calls.append(sub)  # type: ignore[arg-type]
            elif kind is assign_type:
                assigns.append(sub)  # type: ignore[arg-type]
            elif kind is ast.AnnAssign and sub.value is not None:  # type: ignore[attr-defined]
                # ``self.x: bool = d.get("x")`` assigns as ``self.x = ...`` does.
                plain = ast.Assign(targets=[sub.target], value=sub.value)  # type: ignore[attr-defined]
                plain.lineno, plain.col_offset = sub.lineno, sub.col_offset  # type: ignore[attr-defined]
                assigns.append(plain)
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
            elif kind is ast.IfExp:
                ifexps.append(sub)  # type: ignore[arg-type]
            elif kind is ast.If and type(sub.test) is ast.Attribute:  # type: ignore[attr-defined]
                # ``if cfg.opt: v = cfg.opt else: v = DEFAULT``: DEFAULT stands
                # in for a falsy option.
                body, orelse = sub.body, sub.orelse  # type: ignore[attr-defined]
                if (
                    len(body) == len(orelse) == 1
                    and type(body[0]) is type(orelse[0]) is assign_type
                    and ast.dump(body[0].value) == ast.dump(sub.test)  # type: ignore[attr-defined]
                    and [ast.dump(t) for t in body[0].targets]
                    == [ast.dump(t) for t in orelse[0].targets]
                ):
                    self._fallback(sub.test, orelse[0].value)  # type: ignore[attr-defined]
            elif kind is ast.BoolOp and type(sub.op) is ast.Or:  # type: ignore[attr-defined]
                values = sub.values  # type: ignore[attr-defined]
                if len(values) == 2 and type(values[0]) is ast.Attribute:
                    self._fallback(values[0], values[1])
            elif kind is ast.If and type(sub.test) is compare_type and sub.body:  # type: ignore[attr-defined]
                if type(sub.body[0]) is ast.Raise:  # type: ignore[attr-defined]
                    # ``if K in d: raise ...``: the key is refused, not read.
                    refused.add(id(sub.test))  # type: ignore[attr-defined]
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
                    if type(target) is name_type and self._one_kind(target.id):
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
        self.kinds = _use_kinds(calls, attributes)
        # ``d[K] if K in d else D``: the subscript falls back to ``D``.
        fallbacks = {
            id(e.body): e.orelse
            for e in ifexps
            if type(e.body) is subscript_type
            and type(e.test) is compare_type
            and len(e.test.ops) == 1
            and type(e.test.ops[0]) is ast.In
            and ast.dump(e.test.left) == ast.dump(e.body.slice)
        }
        self._handed_parsers(calls)
        for call in calls:
            if call.args or call.keywords:  # ``f()`` hands nothing over
                self._call(call)
        for read_node in (*calls, *subscripts, *attributes):
            read = env_read(read_node, self.module.source, self.qualname)
            if read is not None:
                self.module.facts.registrations.append(read)
        for subscript in subscripts:
            if type(subscript.slice) is not ast.Slice:
                default = fallbacks.get(id(subscript))
                self._read(
                    subscript.value,
                    subscript.slice,
                    subscript.lineno,
                    "subscript",
                    None if default is None else to_expr(default, self.module.source),
                    self.kinds.get(id(subscript)),
                )
        for compare in compares:
            if id(compare) in refused and type(compare.ops[0]) is ast.In:
                continue
            if len(compare.ops) == 1 and type(compare.ops[0]) in (ast.In, ast.NotIn):
                container = compare.comparators[0]
                if (
                    type(container) is call_type
                    and type(container.func) is ast.Attribute
                    and container.func.attr == "keys"
                ):
                    container = container.func.value
                self._read(container, compare.left, compare.lineno, "in")

    def _one_kind(self, name: str) -> bool:
        """Is every binding of a local a call? ``cfg = {}`` or a parameter
        rebound to ``Model(**cfg)`` holds a dict before it holds the model:
        a chain on it is not typed (the typing does not follow the order)."""
        if name in self.params and name not in self.annotated:
            return False
        return all(type(value) is ast.Call for value in self.locals.get(name, ()))

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

    def _read(
        self,
        container: ast.expr,
        key_node: ast.expr,
        line: int,
        how: str,
        default: Expr | None = None,
        kind: str | None = None,
    ) -> None:
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
                        DictSource(source.base, [*source.keys, key], True),
                        line,
                        self.qualname,
                        how,
                        default,
                        kind,
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
            if name in LOADERS:
                if node.args and _from_network(node.args[0]):
                    return []  # a response's body is data, not a config file
                return [DictSource(LOADED, [], True)]
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
        registration = registration_call(call, src, self.qualname, declaring=self.module.declaring)
        if registration is not None:
            # ``parser.add_argument(*names, **kwargs)`` is no model built.
            self.module.facts.registrations.append(registration)
            return
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
        if (
            type(func) is ast.Attribute
            and func.attr in _NAMED_READS
            and call.args
            and type(call.args[0]) is ast.Constant
            and isinstance(call.args[0].value, str)
        ):
            # ``config.getoption("--numprocesses")`` reads ``numprocesses``.
            self.module.attr_loads.add(call.args[0].value.lstrip("-").replace("-", "_"))
        elif type(func) is ast.Name and func.id == "vars" and len(call.args) == 1:
            # ``vars(args)`` hands on every attribute of the object at once.
            self.module.attr_loads.add("__dict__")
        if type(func) is ast.Name and func.id == "setattr" and len(call.args) >= 2:
            self._setattr(call)
        elif (
            type(func) is ast.Attribute
            and func.attr == "update"
            and _is_self_dict(func.value)
            and "." in self.qualname
        ):
            self.module.facts.dynamic_setattr.append(self.qualname)
        if type(func) is ast.Attribute and func.attr in _READ_METHODS and call.args:
            default = (
                to_expr(call.args[1], src)
                if len(call.args) > 1 and func.attr in ("get", "setdefault")
                else None
            )
            self._read(
                func.value, call.args[0], call.lineno, func.attr, default, self.kinds.get(id(call))
            )
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
        values: dict[str, Expr] = {}
        for position, arg in args:
            kind = type(arg)
            if kind in _VALUE_NODES and not (
                kind is ast.Name or (kind is ast.Constant and isinstance(arg.value, str))  # type: ignore[attr-defined]
            ):
                # Names and strings are kept once, as key arguments below.
                values[str(position)] = to_expr(arg, src)
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
                        values,
                        self.kinds.get(id(call)),
                    )
                )

    def _handed_parsers(self, calls: list[ast.Call]) -> None:
        """A parser handed to other code (``shtab.add_argument_to(parser)``)
        may get options there: recorded as a registration ``handed`` whose
        callee is that code."""
        receivers = {
            name
            for call in calls
            if type(call.func) is ast.Attribute and call.func.attr in _PARSER_METHODS
            for name in [dotted(call.func.value)]
            if name is not None
        }
        if not receivers:
            return
        for call in calls:
            func = call.func
            if type(func) is ast.Attribute and dotted(func.value) in receivers:
                continue  # the parser's own methods
            callee = dotted(func)
            if callee is None:
                continue
            if any(dotted(arg) in receivers for arg in call.args):
                self.module.facts.registrations.append(
                    RegistrationCall("handed", [], {}, call.lineno, self.qualname, callee)
                )

    def _setattr(self, call: ast.Call) -> None:
        """``setattr(self, "name", v)`` assigns ``name``; with a computed
        name, the class's attributes are not known statically."""
        target, name = call.args[0], call.args[1]
        if type(target) is not ast.Name or target.id != "self" or "." not in self.qualname:
            return
        if type(name) is ast.Constant and isinstance(name.value, str):
            self.module.facts.attr_assigns.append(
                (self.qualname, name.value, "other", "", call.lineno)
            )
        else:
            self.module.facts.dynamic_setattr.append(self.qualname)

    def _fallback(self, option: ast.Attribute, value: ast.expr) -> None:
        """Record the value used when an option read as an attribute is
        falsy, if it is a literal or a name (a constant)."""
        if type(value) in (ast.Constant, ast.Name, ast.List, ast.Tuple, ast.Attribute):
            self.module.facts.fallbacks.append(
                (option.attr, to_expr(value, self.module.source), value.lineno)
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


#: Calls that declare a configuration key by name, called bare or on any
#: receiver, when their first argument is a string: Tornado's
#: ``define("port", default=8888)``, oslo.config's ``cfg.StrOpt("host")``.
#: Resolution keeps those whose callee is the library's.
DECLARING_CALLS = frozenset(
    {
        "define",
        "StrOpt",
        "IntOpt",
        "BoolOpt",
        "FloatOpt",
        "ListOpt",
        "DictOpt",
        "PortOpt",
        "MultiStrOpt",
        "HostAddressOpt",
        "URIOpt",
    }
)


def registration_call(
    call: ast.Call,
    source: str,
    function: str,
    methods: frozenset[str] = frozenset(),
    declaring: frozenset[str] = frozenset(),
) -> RegistrationCall | None:
    """``x.add_argument("--flag", ...)`` and the other declaring methods
    (``methods`` adds names called bare or on any receiver: decorators);
    ``declaring`` adds the calls the configuration declares
    (``registrations``), kept as the catalogue's are: when their first
    argument is a string."""
    func = call.func
    name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    if name == "add" and type(func) is ast.Attribute:
        return _defaults_added(call, func.value, source, function)
    if not call.args and not (
        name in _KEYS_KEYWORD and any(k.arg == "keys" for k in call.keywords)
    ):
        return None
    if not ((type(func) is ast.Attribute and name in REGISTRATION_METHODS) or name in methods):
        if name not in DECLARING_CALLS and name not in declaring:
            return None
        first = call.args[0]
        if type(first) is not ast.Constant or not isinstance(first.value, str):
            return None
    return RegistrationCall(
        name,
        [to_expr(a, source) for a in call.args if type(a) is not ast.Starred],
        {k.arg: to_expr(k.value, source) for k in call.keywords if k.arg is not None},
        call.lineno,
        function,
        dotted(func) or "",
    )


def _defaults_added(
    call: ast.Call, receiver: ast.expr, source: str, function: str
) -> RegistrationCall | None:
    """confuse's defaults for a view of the configuration:
    ``config.add({...})``, ``config["import"].add({...})``,
    ``self.config.add({...})`` (a plugin's own section), as the
    registration ``config.add`` whose first argument is the dict and whose
    others are the view's keys."""
    if len(call.args) != 1 or call.keywords or type(call.args[0]) is not ast.Dict:
        return None
    keys: list[Expr] = []
    node = receiver
    while type(node) is ast.Subscript:
        index = node.slice
        if type(index) is not ast.Constant or not isinstance(index.value, str):
            return None
        keys.append(["c", index.value])
        node = node.value
    last = node.attr if type(node) is ast.Attribute else node.id if type(node) is ast.Name else ""
    if last != "config":
        return None
    return RegistrationCall(
        "config.add",
        [to_expr(call.args[0], source), *reversed(keys)],
        {},
        call.lineno,
        function,
        dotted(node) or "",
    )


#: Decorators that declare a command's option (``@click.option("--x")``).
OPTION_DECORATORS = frozenset({"option"})
#: click's decorators that add an option of its own, and its default flag.
CLICK_BUILTINS = {"version_option": "--version", "help_option": "--help"}


def click_builtin(deco: ast.expr, source: str, function: str) -> RegistrationCall | None:
    """``@click.version_option(...)``, ``@click.help_option(...)`` (called or
    not), and a command's ``context_settings={"help_option_names": [...]}``:
    the options click adds, as a call named ``version_option`` or
    ``help_option``."""
    call = deco if type(deco) is ast.Call else None
    func = call.func if call is not None else deco
    name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
    if name in CLICK_BUILTINS:
        args = call.args if call is not None else []
        keywords = call.keywords if call is not None else []
        return RegistrationCall(
            name,
            [to_expr(a, source) for a in args if type(a) is not ast.Starred],
            {k.arg: to_expr(k.value, source) for k in keywords if k.arg is not None},
            deco.lineno,
            function,
            dotted(func) or "",
        )
    for keyword in call.keywords if call is not None else []:
        if keyword.arg != "context_settings" or type(keyword.value) is not ast.Dict:
            continue
        for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
            if (
                type(key) is ast.Constant
                and key.value == "help_option_names"
                and type(value) in (ast.List, ast.Tuple)
            ):
                return RegistrationCall(
                    "help_option",
                    [to_expr(v, source) for v in value.elts],  # type: ignore[attr-defined]
                    {},
                    deco.lineno,
                    function,
                    dotted(func) or "",
                )
    return None


#: Calls and mappings that read an environment variable by name.
_ENV_CALLS = frozenset({"os.environ.get", "environ.get", "os.getenv", "getenv"})
_ENV_MAPPINGS = frozenset({"os.environ", "environ"})


#: A settings object's getters (Scrapy's ``settings.getint("NAME")``).
_SETTING_GETTERS = frozenset(
    {"get", "getbool", "getint", "getfloat", "getlist", "getdict", "getwithbase", "getdictorlist"}
)


def _settings_object(node: ast.expr) -> str | None:
    """``settings``, ``self.settings``, ``crawler.settings``: the dotted
    name of what looks like a settings object."""
    name = dotted(node)
    if name is not None and (name == "settings" or name.endswith(".settings")):
        return name
    return None


def _setting_name(node: ast.expr) -> bool:
    """An upper-case name, as settings are spelt (``MYAPP_TIMEOUT``)."""
    return (
        type(node) is ast.Constant
        and isinstance(node.value, str)
        and len(node.value) > 1
        and node.value.isupper()
        and node.value.replace("_", "").isalnum()
    )


def env_read(node: ast.AST, source: str, function: str) -> RegistrationCall | None:
    """A configuration value read by name: an environment variable
    (``os.environ.get("X", d)``, ``os.getenv("X", d)``, ``os.environ["X"]``,
    a registration ``env``) or a setting of a settings object
    (``settings.NAME``, ``getattr(settings, "NAME", d)``,
    ``settings.getint("NAME", d)``, ``settings["NAME"]``, a registration
    ``setting`` whose callee is the object's dotted name)."""
    # Cheap tests first: this runs on every call, subscript and attribute.
    kind, callee, form = "env", "os.environ", ""
    if type(node) is ast.Attribute:
        attr = node.attr
        if not attr.isupper() or len(attr) < 2 or _settings_object(node.value) is None:
            return None
        return RegistrationCall(
            "setting",
            [["c", attr]],
            {"form": ["c", "attribute"]},
            node.lineno,
            function,
            _settings_object(node.value) or "",
        )
    if type(node) is ast.Call:
        func = node.func
        last = func.attr if type(func) is ast.Attribute else getattr(func, "id", "")
        if not node.args:
            return None
        if last == "getattr" and type(func) is ast.Name and len(node.args) >= 2:
            holder = _settings_object(node.args[0])
            if holder is None or not _setting_name(node.args[1]):
                return None
            kind, callee, form = "setting", holder, "getattr"
            name = node.args[1]
            default = node.args[2] if len(node.args) > 2 else None
        elif last in _SETTING_GETTERS and type(func) is ast.Attribute:
            holder = _settings_object(func.value)
            if holder is not None:
                if not _setting_name(node.args[0]):
                    return None
                kind, callee, form = "setting", holder, "getter"
            elif last != "get" or dotted(func) not in _ENV_CALLS:
                return None
            else:
                callee = dotted(func.value) or callee  # ``environ`` or ``os.environ``
            name = node.args[0]
            default = node.args[1] if len(node.args) > 1 else None
        elif last == "getenv" and dotted(func) in _ENV_CALLS:
            name = node.args[0]
            default = node.args[1] if len(node.args) > 1 else None
        elif _setting_name(node.args[0]) and (helper := dotted(func)) is not None:
            # ``envbool("DEBUG", False)``: a helper that may read a variable
            # by its parameter (resolution decides).
            kind, form, name, callee = "named_call", "", node.args[0], helper
            default = node.args[1] if len(node.args) > 1 else None
        else:
            return None
    elif type(node) is ast.Subscript and type(node.ctx) is ast.Load:
        value = node.value
        last = value.attr if type(value) is ast.Attribute else getattr(value, "id", "")
        if last == "environ" and dotted(value) in _ENV_MAPPINGS:
            name, default = node.slice, None
            callee = dotted(value) or callee
        elif (holder := _settings_object(value)) is not None and _setting_name(node.slice):
            kind, callee, form = "setting", holder, "subscript"
            name, default = node.slice, None
        else:
            return None
    else:
        return None
    if kind == "env" and type(name) is ast.Name:
        # ``os.getenv(name, d)`` with a parameter: the function is a helper
        # that reads the variable its callers name.
        return RegistrationCall("env", [["n", name.id]], {}, node.lineno, function, callee)
    if (
        kind == "env"
        and type(name) is ast.BinOp
        and type(name.op) is ast.Add
        and type(name.left) is ast.Name
        and type(name.right) is ast.Constant
        and isinstance(name.right.value, str)
    ):
        # ``os.getenv(name + "_FILE")``: the variable with a suffix.
        suffix = {"suffix": ["c", name.right.value]}
        return RegistrationCall("env", [["n", name.left.id]], suffix, node.lineno, function, callee)
    if type(name) is not ast.Constant or not isinstance(name.value, str):
        return None
    args = [to_expr(name, source)] + ([to_expr(default, source)] if default is not None else [])
    kwargs = {"form": ["c", form]} if form else {}
    return RegistrationCall(kind, args, kwargs, node.lineno, function, callee)


#: Argument nodes whose value may be static: a helper's default.
_VALUE_NODES = frozenset(
    {ast.Constant, ast.Name, ast.Attribute, ast.UnaryOp, ast.BinOp, ast.List, ast.Tuple, ast.Dict}
)
#: ``int()`` and ``float()`` take a number or a string of one; ``str()``
#: takes any value and says nothing of what the user writes.
_CONVERSIONS = {"int": "number", "float": "number"}
#: Methods only a string has: calling one on a value makes it a string.
_STR_METHODS = frozenset(
    {"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "startswith", "endswith", "split"}
)


def _use_kinds(calls: list[ast.Call], attributes: list[ast.Attribute]) -> dict[int, str]:
    """Expressions whose type a use makes certain, by node id: the argument
    of ``int()`` or ``float()`` is a number, the receiver of a string method
    a string. A comparison with a string literal says nothing: ``if size ==
    "auto"`` is how a number field takes "auto"."""
    out: dict[int, str] = {}
    for call in calls:
        func = call.func
        if type(func) is ast.Name and func.id in _CONVERSIONS and len(call.args) == 1:
            out[id(call.args[0])] = _CONVERSIONS[func.id]
    for attribute in attributes:
        if attribute.attr in _STR_METHODS:
            out[id(attribute.value)] = "str"
    return out


def _is_self_dict(node: ast.expr) -> bool:
    """``self.__dict__`` or ``vars(self)``."""
    if type(node) is ast.Attribute:
        return node.attr == "__dict__" and type(node.value) is ast.Name and node.value.id == "self"
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and node.func.id == "vars"
        and len(node.args) == 1
        and type(node.args[0]) is ast.Name
        and node.args[0].id == "self"
    )


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
