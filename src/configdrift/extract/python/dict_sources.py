"""Where a function's dicts come from, and the reads of their keys.

A dict's source is a base (a parameter, an instance attribute shared by a
class's methods, a file parsed by a loader) and the keys indexed from it
(``d["zero"]["stage"]``, ``d.get("zero")``, the keys a called function
returns a section by). Resolution follows the sources across functions.
"""

from __future__ import annotations

import ast
from typing import Protocol

from configdrift.extract.python.exprs import dotted, to_expr
from configdrift.extract.python.facts import (
    HELD_MIN_KEYS,
    ClassFact,
    DictRead,
    DictSource,
    Expr,
    ModuleFacts,
)
from configdrift.extract.python.walk import fast_walk
from configdrift.extract.python.wrappers import Wrapper


class ModuleContext(Protocol):
    """What a function body needs of the module it is in (the module's
    extractor, ``extractor.ModuleExtractor``)."""

    facts: ModuleFacts
    source: str
    declaring: frozenset[str]
    #: Attribute names loaded anywhere in the module (``getattr`` with a
    #: constant name included).
    attr_loads: set[str]
    #: The classes whose bodies are being read, innermost last.
    open_classes: list[ClassFact]
    #: Can a loop of the module go over the environment's variables?
    mentions_environ: bool
    #: The module's helpers that declare an option for their caller.
    wrappers: dict[str, Wrapper]

    def import_statement(self, stmt: ast.Import | ast.ImportFrom) -> None: ...

    def helper_declared(self, call: ast.Call, function: str) -> bool: ...


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


#: Dicts whose keys are read as attributes, around a loaded one
#: (``EasyDict(yaml.safe_load(f))``): a copy.
ATTRIBUTE_WRAPPERS = frozenset(
    {"EasyDict", "edict", "Munch", "munchify", "Box", "AttrDict", "DotMap", "ConfigDict"}
)
_COPY_FUNCS = frozenset({"copy.copy", "copy.deepcopy", "deepcopy", "dict", *ATTRIBUTE_WRAPPERS})


#: A dict's methods, never its keys: ``cfg.get(...)``, ``cfg.items()``.
_DICT_METHODS = frozenset(
    {"get", "items", "keys", "values", "pop", "setdefault", "update", "copy", "to_dict", "toDict"}
)
#: Calls that hand back a loaded dict whose keys are read as attributes
#: (``cfg = OmegaConf.load(path)``, then ``cfg.train.lr``).
ATTRIBUTE_LOADERS = frozenset({"OmegaConf.load", "omegaconf.OmegaConf.load"})


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
        *ATTRIBUTE_LOADERS,
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


def read_by_many(reads: list[DictRead]) -> list[DictRead]:
    """The call reads of the locals a function reads ``HELD_MIN_KEYS``
    keys of or more: fewer are a record's, not kept."""
    keys: dict[tuple[str, str, str], set[str]] = {}
    for read in reads:
        at = (read.function, read.source.base, repr(read.source.keys[:-1]))
        keys.setdefault(at, set()).add(repr(read.source.keys[-1]))
    return [
        r
        for r in reads
        if len(keys[(r.function, r.source.base, repr(r.source.keys[:-1]))]) >= HELD_MIN_KEYS
    ]


def _origin(value: ast.expr) -> tuple[str, tuple[str, ...]] | None:
    """Where a local's dict comes from, when no flow follows it: what a
    function returns (``("load_options()", ())``), or a literal key of
    another dict (``theme.get("launch_buttons", {})``, ``conf["app"]``:
    ``("theme", ("launch_buttons",))``). None for a class's instance
    (``ConfigParser()``, capitalised), a loader's or a copy's result, and
    what is not a call or a key."""
    if type(value) is ast.Subscript:
        key = value.slice
        parent = dotted(value.value)
    elif type(value) is ast.Call and value.args:
        func = value.func
        if type(func) is not ast.Attribute or func.attr not in ("get", "pop", "setdefault"):
            key, parent = None, None
        else:
            key, parent = value.args[0], dotted(func.value)
    else:
        key, parent = None, None
    if key is not None:
        if parent is None or type(key) is not ast.Constant or not isinstance(key.value, str):
            return None
        return parent, (key.value,)
    if type(value) is not ast.Call:
        return None
    callee = dotted(value.func)
    if (
        callee is None
        or not callee.rpartition(".")[2].lstrip("_")[:1].islower()
        or callee in LOADERS
        or callee in _COPY_FUNCS
        or callee in BUILTIN_CONSUMERS
    ):
        return None
    return f"{callee}()", ()


class DictSources:
    """Where the dicts of one function come from (a parameter, an instance
    attribute, a file loaded, a key of another dict), and the reads of
    their keys. ``FunctionBody`` fills ``locals``, ``loops``, ``kinds`` and
    ``consumed`` as it walks the function."""

    def __init__(
        self, module: ModuleContext, qualname: str, params: set[str], annotated: set[str]
    ) -> None:
        self.module = module
        self.qualname = qualname
        self.params = params
        self.annotated = annotated
        self.locals: dict[str, list[ast.expr]] = {}
        self._name_memo: dict[str, list[DictSource]] = {}
        #: What each loop variable iterates over, by name.
        self.loops: dict[str, list[ast.expr]] = {}
        #: The dicts whose items a pair of loop variables walks, by name,
        #: with the side each takes (0 the key, 1 the value).
        self.item_loops: dict[str, list[tuple[ast.expr, int]]] = {}
        #: Expressions whose type a use makes certain (``_use_kinds``).
        self.kinds: dict[int, str] = {}
        #: Reads whose value a falsy fallback replaces (``_falsy_fallbacks``).
        self.falsy: dict[int, tuple[Expr, object]] = {}
        #: Expressions whose value is followed (assigned, returned, read from).
        self.consumed: set[int] = set()
        #: The names that hold the function's own keyword arguments (``**kwargs``).
        self.keyword_holders: frozenset[str] = frozenset()

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

    def attribute_read(self, node: ast.Attribute) -> None:
        """``cfg.train.lr`` of a local bound to a dict that takes its keys as
        attributes (``OmegaConf.load(path)``, ``EasyDict(yaml.safe_load(f))``):
        a read of ``lr`` under ``train``. Never a method's name."""
        chain: list[str] = []
        root: ast.expr = node
        while type(root) is ast.Attribute:
            chain.append(root.attr)
            root = root.value
        if type(root) is not ast.Name or any(a in _DICT_METHODS or a[:1] == "_" for a in chain):
            return
        bound = self.locals.get(root.id, ())
        wrappers = ATTRIBUTE_WRAPPERS | ATTRIBUTE_LOADERS
        if not bound or not all(type(v) is ast.Call and dotted(v.func) in wrappers for v in bound):
            return
        path: list[Expr] = [["c", part] for part in reversed(chain)]
        for source in [s for value in bound for s in self.sources(value)]:
            self.module.facts.dict_reads.append(
                DictRead(
                    DictSource(source.base, [*source.keys, *path], source.is_param),
                    node.lineno,
                    self.qualname,
                    "attribute",
                )
            )

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
            self._call_read(container, key_node, line, how, default, kind)
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

    def _call_read(
        self,
        container: ast.expr,
        key_node: ast.expr,
        line: int,
        how: str,
        default: Expr | None,
        kind: str | None,
    ) -> None:
        """A read by a literal key of a local no flow follows, bound only
        to what one call returns (``opts = load_options(path)``: base
        ``load_options()``) or to one key of a dict (``buttons =
        theme.get("launch_buttons", {})``: base ``theme``, that key first
        in the keys)."""
        if type(container) is not ast.Name or container.id in self.params:
            return
        if type(key_node) is not ast.Constant or not isinstance(key_node.value, str):
            return
        bound = self.locals.get(container.id)
        origins = {_origin(value) for value in bound or ()}
        if len(origins) != 1:
            return
        origin = origins.pop()
        if origin is None:
            return
        base, within = origin
        self.module.facts.call_reads.append(
            DictRead(
                DictSource(base, [*(["c", k] for k in within), ["c", key_node.value]], False),
                line,
                self.qualname,
                how,
                default,
                kind,
            )
        )

    def loop_iters(self, node: ast.expr) -> list[ast.expr] | None:
        """What the loops binding a local name walk (``for key in X``);
        None for a parameter or a name no loop binds."""
        if type(node) is not ast.Name or node.id in self.params:
            return None
        return self.loops.get(node.id)

    def _loop_keys(self, key_node: ast.expr, sources: list[DictSource]) -> list[Expr] | None:
        """Keys a loop variable takes: the items of a literal list of keys, or
        none at all when the loop walks the dict's own keys (a generic pass
        that consumes no key in particular). None when it is not a loop key."""
        iters = self.loop_iters(key_node)
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
        if isinstance(node, ast.DictComp) and (items := _items_of(node)) is not None:
            # ``{k: v for k, v in raw.items() if k not in (...)}``: what is
            # left of ``raw``, its keys as they are.
            return self.sources(items, d)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            out = []
            for value in node.values:
                out.extend(self.sources(value, d))
            return out
        if isinstance(node, ast.IfExp):
            return self.sources(node.body, d) + self.sources(node.orelse, d)
        return []


def _items_of(node: ast.DictComp) -> ast.expr | None:
    """The dict a comprehension copies key by key, the keys handled
    elsewhere left out: ``X`` of ``{k: v for k, v in X.items() if k not in
    ("model", "optim")}``. None where a condition keeps only some keys
    (``if k in allowed``): the rest are dropped, not passed on."""
    if len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if not all(_leaves_out(test, loop.target) for test in loop.ifs):
        return None
    target, call = loop.target, loop.iter
    if not (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and all(isinstance(e, ast.Name) for e in target.elts)
        and isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "items"
        and not call.args
    ):
        return None
    key, value = target.elts
    assert isinstance(key, ast.Name) and isinstance(value, ast.Name)
    same = (
        isinstance(node.key, ast.Name)
        and node.key.id == key.id
        and isinstance(node.value, ast.Name)
        and node.value.id == value.id
    )
    return call.func.value if same else None


def _leaves_out(test: ast.expr, target: ast.expr) -> bool:
    """Is the condition ``k not in (literals)`` or ``k != literal`` of the
    loop's key?"""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and isinstance(target, ast.Tuple)
        and target.elts
        and isinstance(target.elts[0], ast.Name)
        and test.left.id == target.elts[0].id
    ):
        return False
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(e, ast.Constant) for e in right.elts)
    return isinstance(op, ast.NotEq) and isinstance(right, ast.Constant)
