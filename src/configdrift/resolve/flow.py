"""Which dicts hold configuration, under which config path, and what is read.

A *scope* is a dict variable: a function's parameter (``param_dict`` of
``get_zero_config``) or an instance attribute shared by a class's methods
(``self._param_dict``). Scopes are joined by edges where one hands a dict to
another: a call (``f(d)``, ``f(d[KEY])``, ``Cls(d)``, ``self.m(d)``) or an
instance store (``self._param_dict = config``).

A scope holds configuration when it is connected through such edges to one
that builds a model by key (a seed): ``param_dict`` builds
``DeepSpeedZeroConfig(**param_dict[ZERO_OPTIMIZATION])``, so the dict its
callers hand it is configuration, and so are the dicts they hand to other
helpers. Dicts never connected to a seed (``kwargs``, ``state_dict``) are not
configuration, and what is read from them is ignored.

A config scope's path comes from its callers: the keys they index before
handing the dict over. A scope no config caller reaches is the root.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from configdrift.extract.python.facts import Expr
from configdrift.model import ConfigPath, Location
from configdrift.resolve.project import Project, Symbol, render

Scope = tuple[str, str, str]  # (module, function or class qualname, base)

#: Calls a dict can be handed to without escaping: they read nothing from it
#: that a config could declare.
HARMLESS = frozenset(
    {
        "isinstance",
        "len",
        "print",
        "str",
        "repr",
        "bool",
        "type",
        "id",
        "hash",
        "format",
        "sorted",
        "json.dumps",
        "logger.info",
        "logger.warning",
        "logger.debug",
        "logger.error",
        "log_dist",
        "copy.copy",
        "copy.deepcopy",
        "deepcopy",
        "dict",
    }
)


@dataclass(frozen=True, slots=True)
class ReadSite:
    """A config key the code reads: its path, where, and in which function."""

    path: ConfigPath
    location: Location
    module: str
    function: str
    how: str


@dataclass(slots=True)
class Edge:
    """A dict handed from ``caller`` (with ``keys`` indexed first) to a scope."""

    caller: Scope
    keys: list[Expr]
    module: str
    location: Location
    key_args: dict[str, Expr] = field(default_factory=dict)
    offset: int = 0


@dataclass(slots=True)
class Escape:
    """A config dict handed to code we cannot see: its keys may all be read."""

    path: ConfigPath
    location: Location
    what: str


def scope_of(function: str, base: str, module: str) -> Scope:
    if base.startswith("self.") and "." in function:
        return (module, function.rsplit(".", 1)[0], base)
    return (module, function, base)


class DictFlow:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.edges_in: dict[Scope, list[Edge]] = {}
        self.neighbours: dict[Scope, set[Scope]] = {}
        self.escapes_raw: list[tuple[Scope, list[Expr], Location, str]] = []
        self.config: set[Scope] = set()
        self._prefix_memo: dict[Scope, list[ConfigPath] | None] = {}
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

    def _class_of(self, module: str, function: str) -> str | None:
        classes = self.project.modules[module].classes
        parts = function.split(".")
        for end in range(len(parts) - 1, 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in classes:
                return candidate
        return None

    def callee(self, module: str, function: str, name: str) -> tuple[str, str, int] | None:
        """(module, function qualname, offset of call positions) for a call."""
        parts = name.split(".")
        if parts[0] == "self" and len(parts) == 2:
            cls = self._class_of(module, function)
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
        return None

    def _connect(self, a: Scope, b: Scope) -> None:
        self.neighbours.setdefault(a, set()).add(b)
        self.neighbours.setdefault(b, set()).add(a)

    def _build(self) -> None:
        project = self.project
        for name, info in project.modules.items():
            facts = info.facts
            for arg in facts.dict_args:
                caller = scope_of(arg.function, arg.source.base, name)
                location = Location(info.path, arg.line)
                target = self.callee(name, arg.function, arg.callee[1])
                if target is None:
                    if arg.callee[1] not in HARMLESS and not arg.callee[1].startswith("logger."):
                        self.escapes_raw.append(
                            (caller, arg.source.keys, location, f"handed to {arg.callee[1]}")
                        )
                    continue
                module, function, offset = target
                params = project.modules[module].facts.functions.get(function, [])
                if isinstance(arg.position, int):
                    index = arg.position + offset
                    if index >= len(params):
                        continue
                    param = params[index]
                else:
                    if arg.position not in params:
                        continue
                    param = arg.position
                scope = (module, function, param)
                self.edges_in.setdefault(scope, []).append(
                    Edge(caller, arg.source.keys, name, location, arg.key_args, offset)
                )
                self._connect(caller, scope)
            for store in facts.dict_stores:
                caller = scope_of(store.function, store.source.base, name)
                location = Location(info.path, store.line)
                if store.target == "<return>":
                    self.escapes_raw.append(
                        (caller, store.source.keys, location, f"returned by {store.function}")
                    )
                    continue
                scope = scope_of(store.function, store.target, name)
                self.edges_in.setdefault(scope, []).append(
                    Edge(caller, store.source.keys, name, location)
                )
                self._connect(caller, scope)

    # -- configuration -------------------------------------------------------

    def mark(self, seeds: set[Scope]) -> None:
        """Every scope connected to a seed holds configuration."""
        queue = deque(seeds)
        self.config = set(seeds)
        while queue:
            scope = queue.popleft()
            for other in self.neighbours.get(scope, ()):
                if other not in self.config:
                    self.config.add(other)
                    queue.append(other)
        self._prefix_memo.clear()

    def prefixes(self, scope: Scope, depth: int = 0) -> list[ConfigPath] | None:
        """Config paths a scope stands for; None if a caller's key is not static."""
        if scope in self._prefix_memo:
            return self._prefix_memo[scope]
        self._prefix_memo[scope] = [()]  # a cycle falls back to the root
        callers = [
            e for e in self.edges_in.get(scope, ()) if e.caller in self.config or not self.config
        ]
        result: list[ConfigPath] | None
        if not callers or depth > 8:
            result = [()]
        else:
            found: list[ConfigPath] = []
            result = found
            for edge in callers:
                keys = [self.project.string(edge.module, k) for k in edge.keys]
                if any(k is None for k in keys):
                    result = None
                    break
                outer = self.prefixes(edge.caller, depth + 1)
                if outer is None:
                    result = None
                    break
                for prefix in outer:
                    path = (*prefix, *(k for k in keys if k is not None))
                    if path not in found:
                        found.append(path)
        self._prefix_memo[scope] = result
        return result

    # -- reads ---------------------------------------------------------------

    def _paths(
        self, scope: Scope, module: str, keys: list[Expr]
    ) -> tuple[list[ConfigPath], str | None]:
        """Full paths of ``keys`` read from a scope, or what stops them."""
        resolved = [self.project.string(module, k) for k in keys]
        prefixes = self.prefixes(scope)
        if prefixes is None:
            return [], "callers hand over the dict under keys that are not static"
        for index, value in enumerate(resolved):
            if value is None:
                known = tuple(r for r in resolved[:index] if r is not None)
                return [(*p, *known) for p in prefixes], f"key {render(keys[index])} is not static"
        full = tuple(r for r in resolved if r is not None)
        return [(*p, *full) for p in prefixes], None

    def reads(self) -> tuple[list[ReadSite], list[tuple[ConfigPath, Location, str]]]:
        """Every config read, and the paths below which reads are not known."""
        project = self.project
        sites: list[ReadSite] = []
        unknown: list[tuple[ConfigPath, Location, str]] = []
        helpers: dict[Scope, list[tuple[str, list[Expr], str]]] = {}
        for name in sorted(project.modules):
            info = project.modules[name]
            for read in info.facts.dict_reads:
                scope = scope_of(read.function, read.source.base, name)
                if scope not in self.config:
                    continue
                location = Location(info.path, read.line)
                last = read.source.keys[-1]
                params = info.facts.functions.get(read.function, [])
                if (
                    last[0] == "n"
                    and last[1] in params
                    and not read.source.base.startswith("self.")
                ):
                    # A reader helper: the key is a parameter, so each call
                    # site says which key is read.
                    helpers.setdefault(scope, []).append((last[1], read.source.keys[:-1], read.how))
                    continue
                paths, problem = self._paths(scope, name, read.source.keys)
                if problem is not None:
                    unknown.extend((p, location, problem) for p in paths)
                    continue
                sites.extend(ReadSite(p, location, name, read.function, read.how) for p in paths)
        for scope, uses in helpers.items():
            module, function, _ = scope
            params = project.modules[module].facts.functions.get(function, [])
            for edge in self.edges_in.get(scope, ()):
                if edge.caller not in self.config:
                    continue
                caller_module, caller_function, _ = edge.caller
                for key_param, inner, how in uses:
                    index = params.index(key_param) - edge.offset
                    key = edge.key_args.get(str(index), edge.key_args.get(key_param))
                    if key is None:
                        continue  # the key is passed some other way: a default, a variable
                    paths, problem = self._paths(
                        edge.caller, edge.module, [*edge.keys, *inner, key]
                    )
                    if problem is not None:
                        unknown.extend((p, edge.location, problem) for p in paths)
                        continue
                    sites.extend(
                        ReadSite(
                            p,
                            edge.location,
                            caller_module,
                            caller_function,
                            f"{how} via {function}",
                        )
                        for p in paths
                    )
        for scope, keys, location, what in self.escapes_raw:
            if scope not in self.config:
                continue
            paths, problem = self._paths(scope, scope[0], keys)
            unknown.extend((p, location, problem or what) for p in paths)
        return sites, unknown
