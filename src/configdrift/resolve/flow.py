"""What is read from the dicts that hold configuration, and where reads
cannot be followed.

``flow_graph`` finds which dicts are configuration and under which config
path; ``DictFlow`` adds their reads: each key read from a config scope
(``d[KEY]``, ``d.get(KEY, default)``, ``KEY in d``), each read made through
a helper that takes the key as a parameter (``get_scalar_param(d, KEY,
default)``, placed at every call site), and the paths below which reads are
unknown (a key that is not static, a dict handed where it cannot be
followed, a section kept in an attribute and read through the object).
"""

from __future__ import annotations

from dataclasses import dataclass

from configdrift.extract.python.exprs import render
from configdrift.extract.python.facts import Expr
from configdrift.model import ConfigPath, Location, ReadSite
from configdrift.resolve.flow_graph import Edge, FlowGraph, Scope, Unknown, scope_of
from configdrift.resolve.project import Project

#: Uses of helpers kept per function: chains of helpers (a helper defined
#: twice, calling itself) cannot grow without bound.
MAX_HELPER_USES = 64


@dataclass(frozen=True, slots=True)
class HelperUse:
    """A helper's read of its key parameter (``get_scalar_param(d, name,
    default)``): ``inner`` keys indexed first, the default as an expression
    of ``module`` (a parameter of the helper is taken from each call)."""

    key_param: str
    inner: tuple[Expr, ...]
    how: str
    default: Expr | None
    module: str
    kind: str | None


class DictFlow(FlowGraph):
    def __init__(self, project: Project) -> None:
        self._reads_memo: dict[bool, tuple[list[ReadSite], list[Unknown]]] = {}
        super().__init__(project)

    def mark(self, seeds: set[Scope]) -> None:
        super().mark(seeds)
        self._reads_memo.clear()

    def _paths(
        self, scope: Scope, parts: list[list[str] | None], exprs: list[Expr]
    ) -> tuple[list[ConfigPath], str | None]:
        """Full paths below a scope for already expanded key parts, or what stops them."""
        prefixes = self.prefixes(scope)
        if prefixes is None:
            return [], "callers hand over the dict under keys that are not static"
        known: list[str] = []
        for part, expr in zip(parts, exprs, strict=True):
            if part is None:
                return [(*p, *known) for p in prefixes], f"key {render(expr)} is not static"
            known.extend(part)
        return [(*p, *known) for p in prefixes], None

    def _split(self, module: str, function: str, keys: list[Expr]) -> list[list[str] | None]:
        return [self.expand(module, function, [k]) for k in keys]

    # -- reads ---------------------------------------------------------------

    def reads(self, sites_only: bool = False) -> tuple[list[ReadSite], list[Unknown]]:
        """Every config read, and the paths below which reads are not known
        (not looked for with ``sites_only``); remembered until the next
        ``mark``."""
        memo = self._reads_memo.get(False) or self._reads_memo.get(sites_only)
        if memo is None:
            memo = self._reads_memo[sites_only] = self._reads(sites_only)
        return list(memo[0]), list(memo[1])

    def _reads(self, sites_only: bool) -> tuple[list[ReadSite], list[Unknown]]:
        project = self.project
        sites: list[ReadSite] = []
        unknown: list[Unknown] = []
        helpers: dict[Scope, list[HelperUse]] = {}
        for name in sorted(project.modules):
            info = project.modules[name]
            for read in info.facts.dict_reads:
                scope = scope_of(read.function, read.source.base, name)
                if scope not in self.config:
                    continue
                keys = read.source.keys
                if self.opaque(name, read.function, keys):
                    continue
                last = keys[-1]
                params = info.facts.functions.get(read.function, [])
                if (
                    last[0] == "n"
                    and last[1] in params
                    and not read.source.base.startswith("self.")
                ):
                    # A reader helper: the key is a parameter, so each call
                    # site says which key is read.
                    use = HelperUse(
                        last[1], tuple(keys[:-1]), read.how, read.default, name, read.kind
                    )
                    helpers.setdefault(scope, []).append(use)
                    continue
                location = Location(info.path, read.line)
                paths, problem = self._paths(scope, self._split(name, read.function, keys), keys)
                if problem is not None:
                    # A membership test with an unknown key checks presence;
                    # it cannot use a value, so it explains no ignored key.
                    if read.how != "in":
                        unknown.extend((p, location, problem) for p in paths)
                    continue
                default = project.known(name, read.default)
                sites.extend(
                    ReadSite(p, location, name, read.function, read.how, default, read.kind)
                    for p in paths
                )
        self._chain_helpers(helpers)
        for scope, uses in helpers.items():
            self._helper_reads(scope, uses, sites, unknown)
        if sites_only:
            return sites, []
        self._kept_escapes(unknown)
        for escape in self.escapes:
            scope, function, keys = escape.scope, escape.function, escape.keys
            if scope not in self.config or self.opaque(scope[0], function, keys):
                continue
            paths, problem = self._paths(scope, self._split(scope[0], function, keys), keys)
            unknown.extend((p, escape.location, problem or escape.what) for p in paths)
        return sites, unknown

    def _kept_escapes(self, unknown: list[Unknown]) -> None:
        """A section kept in an instance attribute is read elsewhere, through
        the object, when other code loads that attribute or nothing in the
        class reads from it (``self.amp_params = get_amp_params(d)``, handed
        to the optimizer by an accessor): its keys may all be read."""
        used: set[Scope] = set(self.down)
        external: set[str] = set()
        for name, info in self.project.modules.items():
            used.update(scope_of(r.function, r.source.base, name) for r in info.facts.dict_reads)
            external.update(k for k in info.facts.attr_loads if not k.startswith("self."))
        for scope, edge in self.kept:
            if edge.caller not in self.config or not edge.keys:
                # The whole config kept (``self._param_dict = config``): its
                # reads are followed where the code can see them.
                continue
            if scope in used and scope[2].removeprefix("self.") not in external:
                continue
            parts = self._split(edge.module, edge.function, edge.keys)
            paths, problem = self._paths(edge.caller, parts, edge.keys)
            what = problem or f"kept as {scope[2]} and read through the object"
            unknown.extend((p, edge.location, what) for p in paths)

    def _passed(
        self, edge: Edge, params: list[str], use: HelperUse, callee_module: str
    ) -> tuple[Expr | None, str]:
        """A helper use's default as seen from one call: a default that is a
        parameter of the helper is the argument the call passes for it."""
        default = use.default
        if default is None or default[0] != "n" or use.module != callee_module:
            return default, use.module
        if default[1] not in params:
            return default, use.module
        index = params.index(default[1]) - edge.offset
        for table in (edge.values, edge.key_args):
            passed = table.get(str(index), table.get(default[1]))
            if passed is not None:
                return passed, edge.module
        return None, edge.module

    def _chain_helpers(self, helpers: dict[Scope, list[HelperUse]]) -> None:
        """A function that hands its own key parameter to a helper is a helper:
        ``get_communication_data_type(d, comm_type=COMMUNICATION_DATA_TYPE)``
        calls ``get_scalar_param(d, comm_type, ...)``."""
        pending = list(helpers)
        for _ in range(4):
            found: list[Scope] = []
            for scope in pending:
                module, function, _ = scope
                params = self.project.modules[module].facts.functions.get(function, [])
                for edge in self.edges_in.get(scope, ()):
                    if edge.keys or edge.caller[2].startswith("self.") or edge.caller == scope:
                        continue  # a helper calling itself adds no reader
                    caller_params = self.project.modules[edge.module].facts.functions.get(
                        edge.function, []
                    )
                    for inner_use in list(helpers[scope]):
                        if inner_use.inner:
                            continue
                        index = params.index(inner_use.key_param) - edge.offset
                        passed = edge.key_args.get(
                            str(index), edge.key_args.get(inner_use.key_param)
                        )
                        if passed is None or passed[0] != "n" or passed[1] not in caller_params:
                            continue
                        uses = helpers.setdefault(edge.caller, [])
                        if len(uses) >= MAX_HELPER_USES:
                            continue
                        default, default_module = self._passed(edge, params, inner_use, module)
                        via, kind = f"{inner_use.how} via {function}", inner_use.kind or edge.kind
                        use = HelperUse(passed[1], (), via, default, default_module, kind)
                        if use not in uses:
                            uses.append(use)
                            found.append(edge.caller)
            pending = found

    def _helper_reads(
        self,
        scope: Scope,
        uses: list[HelperUse],
        sites: list[ReadSite],
        unknown: list[Unknown],
    ) -> None:
        """Reads made through a helper, placed at each of its config call sites."""
        module, function, _ = scope
        facts = self.project.modules[module].facts
        params = facts.functions.get(function, [])
        defaults = facts.param_defaults.get(function, {})
        for edge in self.edges_in.get(scope, ()):
            if edge.caller not in self.config:
                continue
            caller_module, caller_function, _ = edge.caller
            caller_params = self.project.modules[edge.module].facts.functions.get(edge.function, [])
            for use in uses:
                key_param, inner, how = use.key_param, list(use.inner), use.how
                index = params.index(key_param) - edge.offset
                passed = edge.key_args.get(str(index), edge.key_args.get(key_param))
                if passed is not None and passed[0] == "n" and passed[1] in caller_params:
                    continue  # the caller is a helper too: read at its own call sites
                if passed is not None:
                    key_part = self.expand(edge.module, edge.function, [passed])
                elif key_param in defaults:
                    # Not passed: the parameter's default names the key.
                    key_part = self.expand(module, function, [defaults[key_param]])
                else:
                    continue  # passed some other way: a variable we do not follow
                parts = [
                    *self._split(edge.module, edge.function, edge.keys),
                    *self._split(module, function, inner),
                    key_part,
                ]
                exprs = [*edge.keys, *inner, passed or defaults[key_param]]
                paths, problem = self._paths(edge.caller, parts, exprs)
                if problem is not None:
                    unknown.extend((p, edge.location, problem) for p in paths)
                    continue
                default, default_module = self._passed(edge, params, use, module)
                value = self.project.known(default_module, default)
                via, kind = f"{how} via {function}", use.kind or edge.kind
                sites.extend(
                    ReadSite(p, edge.location, caller_module, caller_function, via, value, kind)
                    for p in paths
                )
