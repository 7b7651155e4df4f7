"""Which dicts hold configuration, and under which config path.

A *scope* is a dict variable: a function's parameter (``param_dict`` of
``get_zero_config``) or an instance attribute shared by a class's methods
(``self._param_dict``). Scopes are joined by edges where one hands a dict to
another: a call (``f(d)``, ``f(d[KEY])``, ``Cls(d)``, ``self.m(d)``) or an
instance store (``self._param_dict = config``).

Configuration starts at the scopes that build a model by key (seeds), flows
up to whoever hands them their dict, then down to whatever those hand dicts
to. It never flows sideways through a shared helper, so dicts that are not
configuration (``kwargs``, ``state_dict``) stay out, and what is read from
them is ignored.

A config scope's path comes from its callers: the keys they index before
handing the dict over. A scope no config caller reaches is the root.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from configdrift.extract.python.dict_sources import BUILTIN_CONSUMERS
from configdrift.extract.python.facts import DictArg, DictStore, Expr
from configdrift.model import ConfigPath, Location
from configdrift.resolve.project import Project, Symbol

Scope = tuple[str, str, str]  # (module, function or class qualname, base)

#: Calls a dict can be handed to without escaping, besides the builtins of
#: ``BUILTIN_CONSUMERS``: they read nothing from it that a config declares.
HARMLESS = frozenset({"log_dist", "copy.copy", "copy.deepcopy", "deepcopy", "dict"})
#: Modules whose functions take paths, strings or streams, not config dicts.
HARMLESS_MODULES = (
    "os.",
    "base64.",
    "json.",
    "hjson.",
    "yaml.",
    "logging.",
    "logger.",
    "warnings.",
    # Validation checks a config against a schema; it uses no key's value.
    "jsonschema.",
)


def harmless(callee: str) -> bool:
    """A call that cannot read config keys from the dict handed to it."""
    return callee in HARMLESS or callee in BUILTIN_CONSUMERS or callee.startswith(HARMLESS_MODULES)


@dataclass(slots=True)
class Edge:
    """A dict handed from ``caller`` (with ``keys`` indexed first) to a scope."""

    caller: Scope
    keys: list[Expr]
    module: str
    function: str
    location: Location
    key_args: dict[str, Expr] = field(default_factory=dict)
    offset: int = 0
    seq: int = 0
    values: dict[str, Expr] = field(default_factory=dict)
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Escape:
    """A config dict handed where its reads cannot be followed."""

    seq: int
    scope: Scope
    function: str
    keys: list[Expr]
    location: Location
    what: str


def scope_of(function: str, base: str, module: str) -> Scope:
    if base.startswith("self.") and "." in function:
        return (module, function.rsplit(".", 1)[0], base)
    return (module, function, base)


Unknown = tuple[ConfigPath, Location, str]


class FlowGraph:
    """The hand-overs of dicts between scopes, and which scopes hold
    configuration (``mark``) under which config paths (``prefixes``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.edges_in: dict[Scope, list[Edge]] = {}
        self.down: dict[Scope, set[Scope]] = {}
        self.escapes: list[Escape] = []
        #: Dicts kept in instance attributes: (attribute scope, the store).
        self.kept: list[tuple[Scope, Edge]] = []
        self.config: set[Scope] = set()
        #: The scopes the last ``mark`` started from.
        self.seeds: set[Scope] = set()
        #: Dicts the configuration mounts at a config path: their prefix.
        self.fixed: dict[Scope, ConfigPath] = {}
        self._prefix_memo: dict[Scope, list[ConfigPath] | None] = {}
        self._callees: dict[tuple[str, str, str], tuple[str, str, int] | None] = {}
        self._opaque: dict[tuple[str, str, tuple[tuple[str, int], ...], int], bool] = {}
        self._build()

    # -- edges ---------------------------------------------------------------

    def _method(self, module: str, cls: str, name: str) -> tuple[str, str] | None:
        for ancestor in self.project.mro(Symbol("class", module, cls)):
            if ancestor.kind != "class":
                continue
            qualname = f"{ancestor.qualname}.{name}"
            if qualname in self.project.modules[ancestor.module].facts.functions:
                return ancestor.module, qualname
        return None

    def callee(self, module: str, function: str, name: str) -> tuple[str, str, int] | None:
        """(module, function qualname, offset of call positions) for a call."""
        key = (module, function if name.startswith("self.") else "", name)
        if key not in self._callees:
            self._callees[key] = self._callee(module, function, name)
        return self._callees[key]

    def _callee(self, module: str, function: str, name: str) -> tuple[str, str, int] | None:
        parts = name.split(".")
        if parts[0] == "self" and len(parts) == 2:
            cls = self.project.class_of(module, function)
            found = self._method(module, cls, parts[1]) if cls else None
            return (*found, 1) if found else None
        symbol = self.project.resolve(module, name)
        if symbol is None:
            return None
        if symbol.kind == "function":
            return symbol.module, symbol.qualname, 0
        if symbol.kind == "class":
            found = self._method(symbol.module, symbol.qualname, "__init__")
            return (*found, 1) if found else None
        if symbol.kind == "member":
            # ``Settings.parse(d, ...)``: a classmethod or staticmethod called
            # on its class; ``cls`` (or ``self``) takes no call position.
            params = self.project.modules[symbol.module].facts.functions.get(symbol.qualname)
            if params is not None:
                return symbol.module, symbol.qualname, int(params[:1] in (["cls"], ["self"]))
        return None

    def _build(self) -> None:
        """Index the dict hand-overs by caller and by callee name; only those
        that touch configuration are resolved, when marking."""
        self.by_caller: dict[Scope, list[tuple[int, str, DictArg | DictStore]]] = {}
        self.by_name: dict[str, list[tuple[int, str, DictArg | DictStore]]] = {}
        self.ctor_calls: list[tuple[int, str, DictArg | DictStore]] = []
        self.stores_by_target: dict[Scope, list[tuple[int, str, DictArg | DictStore]]] = {}
        self._resolved: dict[int, tuple[Scope | None, Edge | None, list[Escape]]] = {}
        seq = 0
        for name, info in self.project.modules.items():
            facts = info.facts
            aliases = {i.local: i.name for i in facts.imports if i.name and i.name != i.local}
            for arg in facts.dict_args:
                seq += 1
                item: tuple[int, str, DictArg | DictStore] = (seq, name, arg)
                caller = scope_of(arg.function, arg.source.base, name)
                self.by_caller.setdefault(caller, []).append(item)
                last = arg.callee[1].rsplit(".", 1)[-1]
                self.by_name.setdefault(last, []).append(item)
                if last in aliases:
                    self.by_name.setdefault(aliases[last], []).append(item)
                if last[:1].isupper():
                    self.ctor_calls.append(item)
            for store in facts.dict_stores:
                seq += 1
                if store.target == "<return>":
                    continue  # followed where callers read the result (``ret`` keys)
                stored: tuple[int, str, DictArg | DictStore] = (seq, name, store)
                caller = scope_of(store.function, store.source.base, name)
                self.by_caller.setdefault(caller, []).append(stored)
                target = scope_of(store.function, store.target, name)
                self.stores_by_target.setdefault(target, []).append(stored)

    def _resolve(
        self, seq: int, name: str, record: DictArg | DictStore
    ) -> tuple[Scope | None, Edge | None, list[Escape]]:
        """Where a hand-over goes: (callee scope, edge, escapes), once per record."""
        if seq not in self._resolved:
            self._resolved[seq] = self._resolve_record(seq, name, record)
        return self._resolved[seq]

    def _resolve_record(
        self, seq: int, name: str, record: DictArg | DictStore
    ) -> tuple[Scope | None, Edge | None, list[Escape]]:
        location = Location(self.project.modules[name].path, record.line)
        keys = record.source.keys
        if self.opaque(name, record.function, keys):
            return None, None, []  # not the dict itself: an object built from it
        caller = scope_of(record.function, record.source.base, name)
        if isinstance(record, DictStore):
            edge = Edge(caller, keys, name, record.function, location, seq=seq)
            return scope_of(record.function, record.target, name), edge, []
        arg = record
        target = self.callee(name, arg.function, arg.callee[1])
        if target is None:
            if harmless(arg.callee[1]):
                return None, None, []
            what = f"handed to {arg.callee[1]}"
            return None, None, [Escape(seq, caller, arg.function, keys, location, what)]
        module, function, offset = target
        params = self.project.modules[module].facts.functions.get(function, [])
        escapes: list[Escape] = []
        if not arg.consumed and isinstance(arg.position, int):
            returned = [*keys, ["ret", arg.callee[1], arg.position]]
            if not self.opaque(name, arg.function, returned):
                # A section returned into something not followed
                # (``output[KEY] = get_section(d)``).
                what = f"returned by {function} into a value not followed"
                escapes.append(Escape(seq, caller, arg.function, returned, location, what))
        if isinstance(arg.position, int):
            index = arg.position + offset
            param = params[index] if index < len(params) else None
        else:
            param = arg.position if arg.position in params else None
        if param is None:
            return None, None, escapes
        edge = Edge(
            caller,
            keys,
            name,
            arg.function,
            location,
            arg.key_args,
            offset,
            seq,
            arg.values,
            arg.kind,
        )
        return (module, function, param), edge, escapes

    def _callers_of(self, scope: Scope) -> list[tuple[int, str, DictArg | DictStore]]:
        """Hand-overs that may reach ``scope``: by the callee's name."""
        _, function, param = scope
        if param.startswith("self."):
            return self.stores_by_target.get(scope, [])
        last = function.rsplit(".", 1)[-1]
        found = list(self.by_name.get(last, ()))
        if last == "__init__":
            found += self.ctor_calls  # ``Cls(d)``, for the class or a subclass
        return found

    # -- configuration -------------------------------------------------------

    def mark(self, seeds: set[Scope]) -> None:
        """Mark the scopes that hold configuration.

        Configuration flows up from the seeds to whoever hands them their
        dict, then down from all of those to whatever they hand dicts to.
        It never flows sideways: a helper shared by config and non-config
        code (``get_scalar_param``) does not make its other callers' dicts
        configuration.
        """
        self.seeds = set(seeds)
        ancestors = set(seeds)
        queue = deque(seeds)
        while queue:
            scope = queue.popleft()
            for seq, name, record in self._callers_of(scope):
                target, edge, _ = self._resolve(seq, name, record)
                if target == scope and edge is not None and edge.caller not in ancestors:
                    ancestors.add(edge.caller)
                    queue.append(edge.caller)
        self.config = set(ancestors)
        queue = deque(ancestors)
        edges: dict[Scope, list[Edge]] = {}
        escapes: list[Escape] = []
        kept: list[tuple[Scope, Edge]] = []
        while queue:
            scope = queue.popleft()
            for seq, name, record in self.by_caller.get(scope, ()):
                target, edge, found = self._resolve(seq, name, record)
                escapes.extend(found)
                if target is None or edge is None:
                    continue
                edges.setdefault(target, []).append(edge)
                self.down.setdefault(scope, set()).add(target)
                if isinstance(record, DictStore):
                    kept.append((target, edge))
                if target not in self.config:
                    self.config.add(target)
                    queue.append(target)
        # The order of the code, not of the search: the first caller's key is
        # a mount's primary spelling.
        self.edges_in = {s: sorted(e, key=lambda edge: edge.seq) for s, e in edges.items()}
        self.escapes = sorted(escapes, key=lambda e: e.seq)
        self.kept = sorted(kept, key=lambda item: item[1].seq)
        self._prefix_memo.clear()

    def prefixes(self, scope: Scope, depth: int = 0) -> list[ConfigPath] | None:
        """Config paths a scope stands for; None if a caller's key is not static."""
        if scope in self._prefix_memo:
            return self._prefix_memo[scope]
        if scope in self.fixed:
            return [self.fixed[scope]]
        self._prefix_memo[scope] = [()]  # a cycle falls back to the root
        callers = [
            e
            for e in self.edges_in.get(scope, ())
            if (e.caller in self.config or not self.config)
            and not self.opaque(e.module, e.function, e.keys)
        ]
        found: list[ConfigPath] = [] if callers and depth <= 8 else [()]
        result: list[ConfigPath] | None = found
        for edge in callers if depth <= 8 else []:
            keys = self.expand(edge.module, edge.function, edge.keys)
            outer = self.prefixes(edge.caller, depth + 1)
            if keys is None or outer is None:
                result = None
                break
            paths = [(*prefix, *keys) for prefix in outer]
            found += [path for path in paths if path not in found]
        self._prefix_memo[scope] = result
        return result

    # -- keys ----------------------------------------------------------------

    def opaque(self, module: str, function: str, keys: list[Expr], depth: int = 0) -> bool:
        calls = tuple((k[1], k[2]) for k in keys if k[0] == "ret")
        if not calls:
            return False
        memo = (module, function, calls, depth)
        if memo not in self._opaque:
            self._opaque[memo] = self._is_opaque(module, function, keys, depth)
        return self._opaque[memo]

    def _is_opaque(self, module: str, function: str, keys: list[Expr], depth: int) -> bool:
        """Do the keys pass through a call that returns no section of its dict
        (``json.loads(d)``, ``get_zero_config(d)``, a helper returning the
        value of a key it is given)? Then the result is another value, and
        what is read from it is not this config."""
        for key in keys:
            if key[0] != "ret":
                continue
            returns = self._returns(module, function, key[1], key[2], depth)
            if returns is None:
                return True
            callee_module, callee, params, stores = returns
            if not any(
                not any(k[0] == "n" and k[1] in params for k in store.source.keys)
                and not self.opaque(callee_module, callee, store.source.keys, depth + 1)
                for store in stores
            ):
                return True
        return False

    def expand(
        self, module: str, function: str, keys: list[Expr], depth: int = 0
    ) -> list[str] | None:
        """Key expressions as strings; a ``ret`` segment (the result of calling
        a function on the dict) becomes the keys that function returns."""
        out: list[str] = []
        for key in keys:
            if key[0] != "ret":
                value = self.project.string(module, key)
                if value is None:
                    return None
                out.append(value)
                continue
            # The keys the function indexes its dict argument with before
            # returning it: one set of them, known statically.
            returns = self._returns(module, function, key[1], key[2], depth)
            if returns is None:
                return None
            callee_module, callee, _, stores = returns
            returned = [
                self.expand(callee_module, callee, s.source.keys, depth + 1) for s in stores
            ]
            found = {tuple(inner) for inner in returned if inner is not None}
            if None in returned or len(found) != 1:
                return None
            out.extend(next(iter(found)))
        return out

    def _returns(
        self, module: str, function: str, name: str, position: int, depth: int
    ) -> tuple[str, str, list[str], list[DictStore]] | None:
        """The function the call ``name`` runs, its parameters, and the
        stores that return the dict it is handed at ``position``; None
        where the call is not followed."""
        target = self.callee(module, function, name) if depth < 6 else None
        if target is None:
            return None
        callee_module, callee, offset = target
        facts = self.project.modules[callee_module].facts
        params = facts.functions.get(callee, [])
        if position + offset >= len(params):
            return None
        param = params[position + offset]
        stores = [
            store
            for store in facts.dict_stores
            if store.target == "<return>"
            and store.function == callee
            and store.source.base == param
        ]
        return callee_module, callee, params, stores
