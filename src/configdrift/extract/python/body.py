"""Dict flow inside one function body: the facts the code view needs.

Which sub-dicts feed which models, which keys are read, which dicts are
handed to other functions or kept in instance attributes, and what the
function's assignments, returns and constructor calls say about types.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.calls import FALSY, READ_METHODS, CallFacts, makes_module
from configdrift.extract.python.env_names import (
    built_read,
    helper_read,
    joined,
    stored_attributes,
)
from configdrift.extract.python.exprs import dotted, to_expr
from configdrift.extract.python.facts import DictStore, Expr
from configdrift.extract.python.registration_calls import (
    ADDED_OPTION,
    CONVERSIONS,
    click_builtin,
    env_read,
)
from configdrift.extract.python.walk import fast_walk


class FunctionBody(CallFacts):
    """Dict flow inside one function: which sub-dicts feed which models, which
    keys are read, and which dicts are handed to other functions."""

    def run(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Nested functions are walked as part of this one: closures read the
        # enclosing function's dicts.
        calls: list[ast.Call] = []
        assigns: list[ast.Assign] = []
        subscripts: list[ast.Subscript] = []
        compares: list[ast.Compare] = []
        returns: list[ast.Return] = []
        self.loops, self.item_loops = {}, {}
        attributes: list[ast.Attribute] = []
        ifexps: list[ast.IfExp] = []
        ifs: list[ast.If] = []
        ors: list[ast.BoolOp] = []
        refused: set[int] = set()
        guarded: set[int] = set()
        #: Names that loop over the environment's variables, by line.
        environ_keys: dict[str, int] = {}
        environ = self.module.mentions_environ
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
                elif type(target) is ast.Tuple and len(target.elts) == 2:
                    _item_loop(self.item_loops, target, sub.iter)  # type: ignore[attr-defined]
                variable = (
                    _environ_key(target, sub.iter)  # type: ignore[attr-defined]
                    if environ
                    else None
                )
                if variable is not None:
                    # A comprehension has no line of its own: its iterable's.
                    environ_keys[variable] = sub.iter.lineno  # type: ignore[attr-defined]
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
                elif len(values) == 2 and type(values[0]) is call_type:
                    ors.append(sub)  # type: ignore[arg-type]
            elif kind is ast.If and type(sub.test) is compare_type and sub.body:  # type: ignore[attr-defined]
                if type(sub.body[0]) is ast.Raise:  # type: ignore[attr-defined]
                    # ``if K in d: raise ...``: the key is refused, not read.
                    refused.add(id(sub.test))  # type: ignore[attr-defined]
                else:
                    ifs.append(sub)  # type: ignore[arg-type]
            elif kind is ast.If and type(sub.test) is ast.UnaryOp:  # type: ignore[attr-defined]
                ifs.append(sub)  # type: ignore[arg-type]
            elif kind is ast.Try and all(
                [type(s) for s in h.body] == [ast.Pass]
                for h in sub.handlers  # type: ignore[attr-defined]
            ):
                # ``try: app.add_config_value("html_baseurl", ...) except: pass``
                guarded.update(id(c) for c in ast.walk(sub) if type(c) is call_type)
            elif kind is ast.ImportFrom or kind is ast.Import:
                # An import inside a function still names a project class.
                self.module.import_statement(sub)  # type: ignore[arg-type]
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                # A decorator a function applies to its inner one (a
                # project's ``scriv_command`` adding options to a command).
                for deco in sub.decorator_list:  # type: ignore[attr-defined]
                    added = click_builtin(deco, self.module.source, self.qualname)
                    if added is not None and added.method == ADDED_OPTION:
                        self.module.facts.registrations.append(added)
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
        if environ_keys:
            _prefix_loops(self, calls, environ_keys)
        for assign in assigns:
            # Most assignments bind a name: no copy between a key and an option.
            if type(assign.targets[0]) in _COPY_TARGETS:
                copied = _copy(assign)
                if copied is not None:
                    facts.copies.append(copied)
        if returns and all(makes_module(r.value, self.locals) for r in returns):  # type: ignore[arg-type]
            facts.module_returns.append(self.qualname)
        for ret in returns:
            returned = ret.value
            if isinstance(returned, ast.Call):
                callee = dotted(returned.func)
                if callee is not None:
                    facts.return_calls.append((self.qualname, callee))
            elif isinstance(returned, ast.BoolOp) and _or_empty(returned):
                # ``return yaml.safe_load(f) or {}``: the call, or nothing.
                callee = dotted(returned.values[0].func)  # type: ignore[attr-defined]
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
            if type(c.func) is ast.Attribute and c.func.attr in READ_METHODS
        )
        self.kinds = _use_kinds(calls, attributes)
        if ifs or ors:
            self.falsy = _falsy_fallbacks(self.locals, ifs, ors, self.module.source)
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
        self.keyword_holders = _keyword_holders(node, calls, assigns)
        registrations = self.module.facts.registrations
        for call in calls:
            if call.args or call.keywords:  # ``f()`` hands nothing over
                count = len(registrations)
                self._call(call)
                if id(call) in guarded and len(registrations) > count:
                    registrations[-1].guarded = True
        stored = stored_attributes(assigns)
        for read_node in (*calls, *subscripts, *attributes, *compares):
            read = env_read(read_node, self.module.source, self.qualname)
            if read is None or (read.method == "env" and read.args[0][0] != "c"):
                helped = helper_read(read_node, node, self.locals, self.qualname)
                read = helped or built_read(read_node, self.locals, self.qualname, read)
            if read is not None and id(read_node) in stored:  # its value kept on ``self``
                read.kwargs["stored"] = ["c", stored[id(read_node)]]
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
        for attribute in attributes:
            self.attribute_read(attribute)
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


#: ``int()`` and ``float()`` take a number or a string of one; ``str()``
#: takes any value and says nothing of what the user writes.
_CONVERSIONS = {"int": "number", "float": "number"}
#: Methods only a string has: calling one on a value makes it a string.
_STR_METHODS = frozenset(
    {"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "startswith", "endswith", "split"}
)


def _tested(test: ast.expr) -> tuple[str, object] | None:
    """The local an ``if`` tests for a missing value, and the value it
    tests for: ``not v`` (any falsy value), ``v is None``, ``v == ""``."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not and type(test.operand) is ast.Name:
        return test.operand.id, FALSY
    if (
        type(test) is ast.Compare
        and type(test.left) is ast.Name
        and len(test.ops) == 1
        and type(test.ops[0]) in (ast.Is, ast.Eq)
        and type(test.comparators[0]) is ast.Constant
        and test.comparators[0].value in (None, "")
    ):
        return test.left.id, test.comparators[0].value
    return None


#: What a fallback is, to stand for a read's default: a literal or a constant.
_FALLBACK_VALUES = (ast.Constant, ast.Name, ast.Attribute, ast.List, ast.Tuple)


def _falsy_fallbacks(
    bound: dict[str, list[ast.expr]],
    ifs: list[ast.If],
    ors: list[ast.BoolOp],
    source: str,
) -> dict[int, tuple[Expr, object]]:
    """Reads whose missing value a literal replaces, by the read call:
    ``v = d.get(K) or "main"``, and ``v = d.get(K)`` then ``if not v: v =
    "main"`` where those are the local's only two bindings. The value is
    the read's default in effect (the literal or constant, and what it
    replaces)."""
    out: dict[int, tuple[Expr, object]] = {}
    for boolop in ors:
        first, second = boolop.values
        if type(second) in _FALLBACK_VALUES:
            out[id(first)] = (to_expr(second, source), FALSY)
    for branch in ifs:
        tested = _tested(branch.test)
        if tested is None or branch.orelse or len(branch.body) != 1:
            continue
        name, value = tested
        then = branch.body[0]
        if not (
            type(then) is ast.Assign
            and len(then.targets) == 1
            and type(then.targets[0]) is ast.Name
            and then.targets[0].id == name
            and type(then.value) in _FALLBACK_VALUES
        ):
            continue
        reads = [v for v in bound.get(name, ()) if v is not then.value]
        if len(reads) == 1 and type(reads[0]) is ast.Call:
            out[id(reads[0])] = (to_expr(then.value, source), value)
    return out


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


def _receiver(call: ast.Call, method: str) -> str | None:
    """The name ``method`` is called on (``d`` of ``d.update(...)``), or
    None for another call."""
    func = call.func
    if type(func) is ast.Attribute and func.attr == method and type(func.value) is ast.Name:
        return func.value.id
    return None


def _keyword_holders(
    node: ast.FunctionDef | ast.AsyncFunctionDef, calls: list[ast.Call], assigns: list[ast.Assign]
) -> frozenset[str]:
    """The names that hold a function's keyword arguments (``**kwargs``):
    the parameter, and the dicts built from it or updated with it
    (``d.update(kwargs)``, ``d = {**base, **kwargs}``, ``d = dict(kwargs)``)."""
    if node.args.kwarg is None:
        return frozenset()
    held = {node.args.kwarg.arg}

    def holds(value: ast.expr) -> bool:
        if type(value) is ast.Name:
            return value.id in held
        if type(value) is ast.Dict:
            return any(
                k is None and holds(v) for k, v in zip(value.keys, value.values, strict=True)
            )
        if type(value) is ast.Call:
            func = value.func
            if type(func) is ast.Name and func.id == "dict":
                return any(holds(a) for a in value.args) or any(
                    k.arg is None and holds(k.value) for k in value.keywords
                )
            if type(func) is ast.Attribute and func.attr == "copy":
                return holds(func.value)
        return False

    for _ in range(3):  # a chain of a few dicts, in any order
        before = len(held)
        for call in calls:
            updated = _receiver(call, "update")
            if updated is not None and any(holds(a) for a in call.args):
                held.add(updated)
        for assign in assigns:
            if holds(assign.value):
                held.update(t.id for t in assign.targets if type(t) is ast.Name)
        if len(held) == before:
            break
    return frozenset(held)


#: The names of an object's own state: its attributes are no configuration's.
_OWN_STATE = frozenset({"self", "cls"})
#: What a copy between an option and a key assigns to.
_COPY_TARGETS = (ast.Subscript, ast.Attribute)


def _copy(assign: ast.Assign) -> tuple[int, str, str, str, str, str] | None:
    """``d["K"] = owner.attr`` or ``owner.attr = d["K"]`` (a conversion
    such as ``str(...)`` around the value, ``d.get("K", ...)`` and
    ``os.environ.get("K")`` too), or ``obj.key = owner.attr``: a value
    copied between an option and a key (``ModuleFacts.copies``)."""
    if len(assign.targets) != 1:
        return None
    target, value = assign.targets[0], assign.value
    if type(value) is ast.Call and type(value.func) is ast.Name and value.func.id in CONVERSIONS:
        if len(value.args) != 1 or value.keywords:
            return None
        value = value.args[0]
    if type(target) is ast.Subscript and type(value) is ast.Attribute:
        key, container = _keyed(target)
        owner = dotted(value.value)
        if key is not None and container is not None and owner is not None:
            return (assign.lineno, "key", container, key, owner, value.attr)
    elif type(target) is ast.Attribute:
        key, container = _keyed(value)
        owner = dotted(target.value)
        if key is not None and container is not None and owner is not None:
            return (assign.lineno, "attr", container, key, owner, target.attr)
        if type(value) is ast.Attribute and owner is not None and owner not in _OWN_STATE:
            # ``config.keep_alive_timeout = args.keep_alive``: an object's
            # attribute set from an option's (never ``self.verbose = opts.verbose``,
            # an object's own state).
            source = dotted(value.value)
            if source is not None and source != owner:
                return (assign.lineno, "object", owner, target.attr, source, value.attr)
    return None


def _keyed(node: ast.expr) -> tuple[str | None, str | None]:
    """The constant key and the dict of ``d["K"]`` or ``d.get("K", ...)``."""
    if type(node) is ast.Subscript:
        index = node.slice
        if type(index) is ast.Constant and isinstance(index.value, str):
            return index.value, dotted(node.value)
    elif (
        type(node) is ast.Call
        and type(node.func) is ast.Attribute
        and node.func.attr in ("get", "getenv")
        and node.args
        and type(node.args[0]) is ast.Constant
        and isinstance(node.args[0].value, str)
    ):
        getenv = node.func.attr == "getenv"
        return node.args[0].value, "os.environ" if getenv else dotted(node.func.value)
    return None, None


def _environ_key(target: ast.expr, iterated: ast.expr) -> str | None:
    """The name a loop binds to each environment variable's name: ``for k,
    v in os.environ.items()``, ``for k in os.environ``, ``for k in
    sorted(os.environ)``."""
    if type(target) is ast.Tuple and target.elts and type(target.elts[0]) is ast.Name:
        name = target.elts[0].id
        items = (
            type(iterated) is ast.Call
            and type(iterated.func) is ast.Attribute
            and iterated.func.attr == "items"
            and _is_environ(iterated.func.value)
        )
        return name if items else None
    if type(target) is not ast.Name:
        return None
    if type(iterated) is ast.Call and type(iterated.func) is ast.Name and iterated.args:
        iterated = iterated.args[0]  # ``sorted(os.environ)``
    return target.id if _is_environ(iterated) else None


def _is_environ(node: ast.expr) -> bool:
    name = dotted(node)
    return name is not None and (name == "environ" or name.endswith(".environ"))


def _prefix_loops(body: FunctionBody, calls: list[ast.Call], environ_keys: dict[str, int]) -> None:
    """``k.startswith(prefix)`` on a name that loops over the environment:
    the function takes every variable with that prefix. A prefix bound once
    in the function is kept as bound (``prefix = f"{prefix}_"``)."""
    for call in calls:
        name = _receiver(call, "startswith")
        if name in environ_keys and len(call.args) == 1:
            prefix = call.args[0]
            bound = body.locals.get(prefix.id, []) if type(prefix) is ast.Name else []
            if len(bound) == 1:
                prefix = bound[0]
            line = environ_keys[name]
            body.module.facts.env_prefix_loops.append(
                (body.qualname, line, joined(prefix, body.module.source))
            )


def _item_loop(
    walks: dict[str, list[tuple[ast.expr, int]]], target: ast.Tuple, iterable: ast.expr
) -> None:
    """``for key, value in mapping.items()``: each name with the dict and
    the side of its items it takes."""
    if not isinstance(iterable, ast.Call) or iterable.args:
        return
    func = iterable.func
    if not isinstance(func, ast.Attribute) or func.attr != "items":
        return
    for side, element in enumerate(target.elts):
        if type(element) is ast.Name:
            walks.setdefault(element.id, []).append((func.value, side))


def _or_empty(node: ast.BoolOp) -> bool:
    """Is it a call or an empty literal (``load(f) or {}``)?"""
    first, *rest = node.values
    empty = [v for v in rest if not getattr(v, "keys", getattr(v, "elts", True))]
    return isinstance(node.op, ast.Or) and isinstance(first, ast.Call) and len(empty) == len(rest)
