"""The facts of one call in a function: a model built from a dict
(``Model(**d)``, ``Model.model_validate(d)``), an option declared, a key read
with ``get``, a dict handed to another function, a constructor's arguments,
``getattr`` and ``setattr`` by name.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.built_parts import name_parts
from configdrift.extract.python.dict_sources import (
    ATTRIBUTE_WRAPPERS,
    BUILTIN_CONSUMERS,
    LOADED,
    DictSources,
)
from configdrift.extract.python.exprs import dotted, last_name, to_expr
from configdrift.extract.python.facts import (
    DictArg,
    DictSource,
    Expr,
    Placement,
    RegistrationCall,
)
from configdrift.extract.python.registration_calls import (
    REGISTRATION_METHODS,
    registration_call,
)

#: Methods that read a key of a dict: ``d.get(K)``, ``d.pop(K)``.
READ_METHODS = frozenset({"get", "pop", "setdefault"})
_VALIDATE_METHODS = frozenset({"model_validate", "parse_obj", "from_dict"})


#: The methods of an argument parser (pytest's included) that add options.
_PARSER_METHODS = frozenset({"add_argument", "addoption", "_addoption"})
#: optparse's declaring method, bound to a local as a parser's are.
_OPTPARSE = frozenset({"add_option"})
#: The methods whose calls a project's helper may make for its caller.
WRAPPED = REGISTRATION_METHODS | _OPTPARSE


#: Calls that read an option by its name: ``config.getini("timeout")``.
_NAMED_READS = frozenset({"getini", "getoption"})


#: Argument nodes whose value may be static: a helper's default.
_VALUE_NODES = frozenset(
    {ast.Constant, ast.Name, ast.Attribute, ast.UnaryOp, ast.BinOp, ast.List, ast.Tuple, ast.Dict}
)


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


def _receiver(node: ast.expr, local_values: dict[str, list[ast.expr]], function: str) -> str:
    """What ``getattr`` reads from: ``self`` (or what a ``__getattr__``
    hands its attributes on to: ``self.sock``), a module the function
    imports (``importlib.import_module(name)``, ``sys.modules[name]``), a
    name or a dotted name (``name:cfg``, ``name:orm.User``, resolved where
    imports are known), an object known by its spelling alone (``spelt:cfg``
    for ``self.cfg``, or a local bound to other values than calls), or
    ``""`` for anything else."""
    if function.rsplit(".", 1)[-1] in _PROXIES and _on_self(node):
        return "self"
    if makes_module(node, local_values):
        return "module"
    if type(node) is ast.Attribute:
        if _on_self(node):
            return f"spelt:{node.attr}"
        # ``orm.User``: a dotted name, resolved where imports are known.
        path = dotted(node)
        return f"name:{path}" if path else ""
    if type(node) is not ast.Name:
        return ""
    if node.id == "self":
        return "self"
    values = local_values.get(node.id, ())
    # A local bound to calls only is typed by them (``m = Modes()``).
    if values and not all(type(v) is ast.Call for v in values):
        return f"spelt:{node.id}"
    return f"name:{node.id}"


#: Calls and attributes that give an object's own attribute names: a loop
#: over them reads every attribute, whatever the object (a dump).
_OWN_NAMES = frozenset({"vars", "dir", "fields", "asdict", "getmembers"})
_OWN_ATTRS = frozenset(
    {"__dict__", "__dataclass_fields__", "__fields__", "model_fields", "__annotations__"}
)


def _own_names(node: ast.expr, depth: int = 0) -> bool:
    """Does the expression give an object's own attribute names
    (``vars(obj)``, ``fields(obj)``, ``obj.__dict__.items()``,
    ``sorted(vars(obj))``)?"""
    if depth > 3:
        return False
    if type(node) is ast.Attribute:
        return node.attr in _OWN_ATTRS
    if type(node) is not ast.Call:
        return False
    func = node.func
    if type(func) is ast.Attribute and func.attr in ("keys", "items") and not node.args:
        return _own_names(func.value, depth + 1)
    name = last_name(func)
    if name in ("sorted", "list", "tuple", "set") and len(node.args) == 1:
        return _own_names(node.args[0], depth + 1)
    return name in _OWN_NAMES


#: Methods through which a class hands attribute reads on to another object.
_PROXIES = frozenset({"__getattr__", "__getattribute__"})


def _on_self(node: ast.expr) -> bool:
    """Is it an attribute of ``self`` (``self.sock``, ``self._obj.inner``)?"""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def makes_module(node: ast.expr, local_values: dict[str, list[ast.expr]]) -> bool:
    """Is it a module imported at runtime, or a local bound only to such?"""
    if type(node) is ast.Name:
        values = local_values.get(node.id, ())
        return bool(values) and all(_imports_module(v) for v in values)
    return _imports_module(node)


def _imports_module(node: ast.expr) -> bool:
    """Is it ``importlib.import_module(...)``, ``__import__(...)``,
    ``importlib.util.module_from_spec(...)`` or ``sys.modules[...]``?"""
    if isinstance(node, ast.Subscript):
        base = node.value
        return (
            isinstance(base, ast.Attribute)
            and base.attr == "modules"
            and isinstance(base.value, ast.Name)
            and base.value.id == "sys"
        )
    if not isinstance(node, ast.Call):
        return False
    return last_name(node.func) in ("import_module", "__import__", "module_from_spec")


def _strings(expr: Expr | None) -> list[str] | None:
    """The items of a literal list, tuple or set of strings."""
    if expr is None or expr[0] != "seq":
        return None
    items = expr[2]
    names = [i[1] for i in items if i[0] == "c" and isinstance(i[1], str)]
    return names if len(names) == len(items) else None


def _replaced(default: Expr | None, tested: object) -> bool:
    """Does a fallback stand in for a read's default: the read's default is
    the value the test replaces (none, or a falsy literal for ``not v``)?"""
    if default is None:
        return True
    if tested is FALSY and default[0] in ("seq", "dict"):
        return not default[-1]  # an empty list, tuple or dict
    # A name or a call is no literal: neither falsy nor None nor "".
    return not default[1] if tested is FALSY else default[1] == tested


#: What ``if not v:`` tests (any falsy value), beside ``v is None``/``v == ""``.
FALSY = object()


class CallFacts(DictSources):
    """What one call says: a model built from a dict, an option declared, a
    key read by ``get``, a dict handed to another function."""

    def _loop_names(self, node: ast.expr) -> list[str] | None:
        """The names a loop variable takes where every loop that binds it
        walks a literal list of strings: written there, or held by a local,
        a module constant or an attribute of the class (``for flag in
        self._FLAGS``), or the keys or values of a literal dict whose items
        the loop walks (``for kwarg, attr in {"lr": "learning_rate"}.items()``).
        None otherwise."""
        iters = self.loop_iters(node)
        if not iters:
            return self._item_names(node)
        out: list[str] = []
        for it in iters:
            if (
                type(it) is ast.Attribute
                and type(it.value) is ast.Name
                and it.value.id in ("self", "cls")
                and self.module.open_classes
            ):
                held = [self.module.open_classes[-1].assigns.get(it.attr)]
            else:
                held = self._held(it)
            found = [_strings(expr) for expr in held]
            if any(names is None for names in found):
                return None
            out.extend(name for names in found for name in names or ())
        return out

    def _held(self, node: ast.expr) -> list[Expr | None]:
        """What an expression stands for: each value a local of the
        function is bound to, or the module's constant of that name; the
        expression itself otherwise."""
        if type(node) is ast.Name and node.id in self.locals:
            return [to_expr(v, self.module.source) for v in self.locals[node.id]]
        if type(node) is ast.Name:
            return [self.module.facts.assigns.get(node.id)]
        return [to_expr(node, self.module.source)]

    def _walks_own_names(self, node: ast.expr) -> bool:
        """Is the name a loop's over an object's own attribute names
        (``for key in vars(obj)``; ``f.name`` for ``f in fields(obj)``)?"""
        if type(node) is ast.Attribute:
            node = node.value
        if type(node) is not ast.Name:
            return False
        walked = [*self.loops.get(node.id, ())]
        walked += [mapping for mapping, side in self.item_loops.get(node.id, ()) if side == 0]
        return any(_own_names(it) for it in walked)

    def _item_names(self, node: ast.expr) -> list[str] | None:
        """The keys (or values) a pair of loop variables takes from a
        literal dict's ``items()``: written there, or held by a local or a
        module constant. None where any such dict is not one of strings."""
        if type(node) is not ast.Name or node.id in self.params:
            return None
        walks = self.item_loops.get(node.id)
        if not walks:
            return None
        out: list[str] = []
        for mapping, side in walks:
            for expr in self._held(mapping):
                if not expr or expr[0] != "dict":
                    return None
                sides = [pair[side] for pair in expr[1]]
                if not all(e[0] == "c" and type(e[1]) is str for e in sides):
                    return None
                out.extend(e[1] for e in sides)
        return out

    def _full_name(self, name: str) -> str:
        """``from_dict`` as ``dacite.from_dict`` where the module imports it so."""
        head, _, rest = name.partition(".")
        for fact in self.module.facts.imports:
            if fact.local == head and not fact.level:
                base = f"{fact.module}.{fact.name}" if fact.name else fact.module
                return f"{base}.{rest}" if rest else base
        return name

    def _call(self, call: ast.Call) -> None:
        src = self.module.source
        func = call.func
        if self.module.wrappers and self.module.helper_declared(call, self.qualname):
            return  # ``add_flag("--port", 8000)``: what the project's helper declares
        registration = registration_call(
            self._unaliased(call), src, self.qualname, declaring=self.module.declaring
        )
        if registration is not None:
            # ``parser.add_argument(*names, **kwargs)`` is no model built.
            self.module.facts.registrations.append(registration)
            return
        structured = structured_placement(call, src, self.qualname)
        if structured is not None:
            self.module.facts.placements.append(structured)
            return
        converted = converted_model(call, self._full_name(dotted(func) or ""))
        if converted is not None:
            # ``dacite.from_dict(data_class=Config, data=raw)``: built from ``raw``.
            model_node, data, library = converted
            keyed = [s for s in self.sources(data) if s.keys or s.is_param]
            if keyed:
                self.module.facts.placements.append(
                    Placement(to_expr(model_node, src), keyed, call.lineno, self.qualname, library)
                )
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
            if via == "kwargs" and any(
                type(f) is ast.Name and f.id in self.keyword_holders for f in feeds
            ):
                # ``Config(**kwargs)`` of the function's own keyword arguments.
                self.module.facts.keyword_models.append((self.qualname, model, call.lineno, []))
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
        last = last_name(func)
        if last[:1].isupper():
            ctor = dotted(func)
            if ctor is not None:
                self._ctor_args(ctor, call)
                passed = [
                    k.arg
                    for k in call.keywords
                    if type(k.value) is ast.Name and k.value.id == k.arg and k.arg in self.params
                ]
                if len(passed) >= 2 and len(passed) == len(call.keywords):
                    # ``Config(timeout=timeout, retries=retries)``: the
                    # function's parameters are the model's fields.
                    self.module.facts.keyword_models.append(
                        (self.qualname, ["n", ctor], call.lineno, passed)
                    )
        if type(func) is ast.Name and func.id == "getattr" and len(call.args) >= 2:
            name_arg = call.args[1]
            if type(name_arg) is ast.Constant and isinstance(name_arg.value, str):
                self.module.attr_loads.add(name_arg.value)
            elif (names := self._loop_names(name_arg)) is not None:
                # ``for key in ("bind", "workers"): getattr(cfg, key)``
                self.module.attr_loads.update(names)
            else:
                receiver = _receiver(call.args[0], self.locals, self.qualname)
                if self._walks_own_names(name_arg):
                    # ``for k in vars(obj): getattr(obj, k)``: every attribute
                    # of that object; of any object, where it is a parameter
                    # (a helper that dumps what it is handed).
                    dumped = call.args[0]
                    given = (
                        type(dumped) is ast.Name
                        and dumped.id in self.params
                        and dumped.id not in ("self", "cls")
                    )
                    receiver = "dump:" if given else f"dump:{receiver}"
                bound = self.locals.get(name_arg.id, ()) if isinstance(name_arg, ast.Name) else ()
                # A local the function binds to built names: each of them
                # (``key = f"{PREFIX}{x}"``; ``getattr(self, key)``).
                for built in bound or (name_arg,):
                    self.module.facts.dynamic_getattr.append(
                        (call.lineno, self.qualname, name_parts(built), receiver)
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
            and func.attr == "__setattr__"
            and type(func.value) is ast.Name
            and func.value.id == "object"
            and len(call.args) >= 2
        ):
            # A frozen dataclass's ``object.__setattr__(self, "name", v)``.
            self._setattr(call)
        elif (
            type(func) is ast.Attribute
            and func.attr == "update"
            and _is_self_dict(func.value)
            and "." in self.qualname
        ):
            self.module.facts.dynamic_setattr.append(self.qualname)
        if type(func) is ast.Attribute and func.attr in READ_METHODS and call.args:
            default = (
                to_expr(call.args[1], src)
                if len(call.args) > 1 and func.attr in ("get", "setdefault")
                else None
            )
            fallback = self.falsy.get(id(call))
            if fallback is not None and _replaced(default, fallback[1]):
                default = fallback[0]
            self._read(
                func.value, call.args[0], call.lineno, func.attr, default, self.kinds.get(id(call))
            )
            return
        if type(func) is ast.Name and func.id in BUILTIN_CONSUMERS | ATTRIBUTE_WRAPPERS:
            return  # ``EasyDict(raw)`` hands nothing over: it is ``raw``, read by attribute
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

    def _unaliased(self, call: ast.Call) -> ast.Call:
        """A call through a local bound to a parser's declaring method
        (``option = parser.add_option``, then ``option("-e", ...)``) as the
        method's own call; any other call as it is."""
        func = call.func
        if type(func) is not ast.Name:
            return call
        bound = self.locals.get(func.id, ())
        if len(bound) != 1 or type(bound[0]) is not ast.Attribute:
            return call
        if bound[0].attr not in REGISTRATION_METHODS and bound[0].attr not in _OPTPARSE:
            return call
        return ast.copy_location(ast.Call(bound[0], call.args, call.keywords), call)

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


def structured_placement(call: ast.expr, source: str, function: str) -> Placement | None:
    """The placement of the model an OmegaConf structured config is built
    from (``structured_schema``): the schema config files are merged into,
    loaded key by key."""
    schema = structured_schema(call) if type(call) is ast.Call else None
    if schema is None:
        return None
    loaded = [DictSource(LOADED, [], True)]
    return Placement(to_expr(schema, source), loaded, call.lineno, function, "omegaconf")


def structured_schema(call: ast.Call) -> ast.expr | None:
    """The class an OmegaConf structured config is built from:
    ``OmegaConf.structured(TrainConf)`` (or ``TrainConf()``), Hydra's
    ``cs.store(name="train", node=TrainConf)``."""
    func = call.func
    schema: ast.expr | None = None
    if type(func) is not ast.Attribute:
        return None
    if func.attr == "structured" and last_name(func.value) == "OmegaConf" and call.args:
        schema = call.args[0]
        if type(schema) is ast.Call and not schema.args and not schema.keywords:
            schema = schema.func
    elif func.attr == "store":
        given = {k.arg: k.value for k in call.keywords if k.arg}
        schema = given.get("node") if "name" in given else None
    else:
        return None
    return schema if type(schema) in (ast.Name, ast.Attribute) else None


def converted_model(call: ast.Call, name: str) -> tuple[ast.expr, ast.expr, str] | None:
    """The class a library builds from a dict, dropping the keys it lacks,
    with the dict and the library: dacite's ``from_dict(data_class=Config,
    data=raw)`` (not with a ``config=``, which may make it strict), cattrs'
    ``cattrs.structure(raw, Config)``. ``name`` is the callee's full name."""
    given = {k.arg: k.value for k in call.keywords if k.arg}
    if name in ("dacite.from_dict", "dacite.core.from_dict") and "config" not in given:
        model = given.get("data_class", call.args[0] if call.args else None)
        data = given.get("data", call.args[1] if len(call.args) > 1 else None)
        library = "dacite"
    elif name in ("cattrs.structure", "cattr.structure") and len(call.args) == 2:
        data, model, library = call.args[0], call.args[1], "cattrs"
    else:
        return None
    if model is None or data is None or type(model) not in (ast.Name, ast.Attribute):
        return None
    return model, data, library
