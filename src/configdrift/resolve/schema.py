"""The accepted view: a tree of SchemaNodes built from models and their mounts.

Models (read by ``models.ModelReader``) are mounted under a config path where the code builds it from a sub-dict
(``Model(**d.get(KEY, {}))``, ``Model(**d[KEY])``, through locals and helper
functions), where a parent model declares it as a field type, or where the
configuration says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from configdrift.config import ConfigError
from configdrift.extract.docs.blocks import BlockKey
from configdrift.extract.python.body import LOADED
from configdrift.extract.python.facts import DictArg, DictRead, DictStore, Expr, Placement
from configdrift.model import (
    ANY_KEY,
    CLI_KINDS,
    ConfigPath,
    Location,
    Mount,
    ReadSite,
    SchemaNode,
    Surface,
    TypeInfo,
    Unresolved,
    Value,
    read_defaults,
    same_value,
)
from configdrift.resolve.defaults import defaults_root, ensure_path
from configdrift.resolve.flow import DictFlow, Scope, scope_of
from configdrift.resolve.mechanisms.environment import (
    ENVIRONMENT,
    environment_variables,
    mount_environment,
)
from configdrift.resolve.mechanisms.options import argparse_options, mount_options
from configdrift.resolve.mechanisms.settings_module import mount_settings, setting_reads
from configdrift.resolve.models import SETTINGS_BASES, ModelReader, value_kind
from configdrift.resolve.project import Project, Symbol, render

#: A dict root needs this many documented keys read under it (and is tried
#: only where the code reads or hands on the dict this many times).
ROOT_MIN_KEYS = 5
#: The same for a dict the flow shows loaded from a file (``json.load``).
LOADED_MIN_KEYS = 3
#: How many candidate dicts are tried as the root, the busiest first.
ROOT_TRIALS = 12
#: A command line of this many options is the configuration of a project
#: that has no other.
MIN_OPTIONS = 3


def _from_reads(node: SchemaNode) -> None:
    """A key made by reads takes its default from them, where they agree
    (CD106 reports where they do not), and its type from the one kind its
    uses make certain."""
    defaults = read_defaults(node)
    if defaults and all(same_value(s.default.value, defaults[0].default.value) for s in defaults):  # type: ignore[union-attr]
        node.default = defaults[0].default
        node.default_location = defaults[0].location
    kinds = {s.kind for s in node.reads if s.kind}
    if len(kinds) == 1 and not node.children:
        kind = kinds.pop()
        node.type = TypeInfo(kind, _READ_KINDS.get(kind, frozenset({kind})))


#: What the user may write for a read the code converts: ``int(x)`` takes
#: an int, a float or a string of digits.
_READ_KINDS = {"number": frozenset({"int", "float", "str"})}


def render_scope(scope: Scope) -> str:
    """A dict scope as users name it: ``Class.method(param_dict)``."""
    _, function, base = scope
    if base.startswith("self."):
        return f"{function}.{base[5:]}"
    if base == LOADED:
        return f"{function}(a dict loaded from a file)"
    return f"{function}({base})"


#: A declarative table of options has this many keys at least.
MIN_TABLE = 5
#: Names of dicts that hold a configuration's defaults.
_DEFAULTS_NAME = re.compile(r"(?i)default|settings|options|config")
#: A key of a table of tuples: ``branch``, ``run:branch`` (a section's option).
_TABLE_KEY = re.compile(r"[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?")
_SECTIONED = re.compile(r"[A-Za-z_][\w-]*:[A-Za-z_][\w.-]*")


def _distinct_tables(surfaces: list[Surface]) -> list[Surface]:
    """The tables whose keys no other table mostly shares: two tables of
    defaults with the same keys (a parameter offload's and an optimizer
    offload's ``device``, ``buffer_count`` ...) cannot tell which of them a
    doc entry describes by its name."""
    keys = [{n.key for n in s.root.walk() if not n.children} for s in surfaces]
    out: list[Surface] = []
    for i, surface in enumerate(surfaces):
        shared = any(
            j != i and 2 * len(keys[i] & other) >= min(len(keys[i]), len(other))
            for j, other in enumerate(keys)
        )
        if not shared:
            out.append(surface)
    return out


def _new_root() -> SchemaNode:
    """An empty root: nothing known yet of unknown keys."""
    return SchemaNode(key="", path=(), strict=None, origin="root")


_DYNAMIC = (
    "options built at runtime, or added by code the parser is handed to: "
    "unknown options are not judged"
)


class SchemaBuilder(ModelReader):
    """The tree of accepted keys: models mounted where the code builds them,
    and what the code reads from config dicts."""

    def __init__(
        self,
        project: Project,
        declared: dict[str, tuple[int | str, int | str]] | None = None,
    ) -> None:
        super().__init__(project)
        #: The project's own registration calls (``registrations``).
        self.declared = declared or {}
        self.mounts: list[Mount] = []
        self.unresolved: list[Unresolved] = []
        self.root_candidates: list[Mount] = []
        self.flow = DictFlow(project)
        self.reads: list[ReadSite] = []
        self.unknown_reads: list[tuple[ConfigPath, Location, str]] = []
        #: Reads of a key a strict model does not declare: (site, model node).
        self.dead_reads: list[tuple[ReadSite, SchemaNode]] = []
        self.forwarded: list[tuple[str, Placement, Location]] = []
        #: A dict root found by the docs whose origin the code does not show.
        self.root_origin: Location | None = None
        self._override_memo: dict[Scope, set[Scope]] = {}
        self._options: tuple[list[SchemaNode], list[Location]] | None = None
        #: Models built from a whole dict loaded from a file
        #: (``Config(**yaml.safe_load(fh))``): a config file's schema.
        self.loaded_models: dict[Symbol, Location] = {}
        #: The name of the root's surface (``config``, ``settings``, ``cli``,
        #: ``env``), set by ``build``.
        self.primary = "config"
        #: Which group of options the root holds, if any (``option_groups``).
        self.primary_options = ""
        #: The keys of the defaults files a confuse application ships, by
        #: file (set by the engine before ``surfaces``).
        self.defaults_files: list[tuple[str, list[BlockKey]]] = []

    def options(self) -> tuple[list[SchemaNode], list[Location]]:
        """The project's registered options and where options are built at
        runtime (computed once)."""
        if self._options is None:
            self._options = argparse_options(self.project, self.declared)
        return self._options

    def option_groups(self) -> list[tuple[str, list[SchemaNode]]]:
        """The options split by what users write: command-line flags
        (``cli``) and keys registered by name for a file (``registered``:
        pytest's ini, Sphinx's conf.py, tox's ``add_config``), larger first."""
        options, _ = self.options()
        named = [o for o in options if o.model_kind == "named"]
        flags = [o for o in options if o.model_kind != "named"]
        if min(len(named), len(flags)) < MIN_OPTIONS:
            # A plugin's two flags and two ini keys: one surface, named by
            # what most of them are.
            return (
                [("cli" if len(flags) >= len(named) else "registered", options)] if options else []
            )
        groups = [("cli", flags), ("registered", named)]
        groups.sort(key=lambda g: -len(g[1]))
        return groups

    def mount(
        self,
        root: SchemaNode,
        path: ConfigPath,
        symbol: Symbol,
        spellings: tuple[str, ...],
        how: str,
        location: Location,
        direct: bool = False,
    ) -> None:
        node = root
        for i, key in enumerate(path):
            child = node.child(key)
            if child is None:
                last = i == len(path) - 1
                child = SchemaNode(
                    key=key,
                    path=path[: i + 1],
                    spellings=spellings if last else (key,),
                    type=TypeInfo("dict", frozenset({"dict"})),
                    location=location if last else None,
                    origin=how,
                )
                node.children[key] = child
            elif i == len(path) - 1 and spellings:
                child.spellings = tuple(dict.fromkeys((*child.spellings, *spellings)))
            node = child
        if node.location is None:
            node.location = location
        self.fill(node, symbol, direct=direct)
        self.mounts.append(Mount(path, symbol.qualname, location, how))

    # -- placements ----------------------------------------------------------

    def param_prefixes(self, module: str, function: str, base: str) -> list[ConfigPath] | None:
        """Config paths a dict parameter (or instance attribute) stands for."""
        return self.flow.prefixes(scope_of(function, base, module))

    def _seeds(self) -> set[Scope]:
        """Dict scopes that build a model by key: where configuration starts."""
        out: set[Scope] = set()
        for name, info in self.project.modules.items():
            for placement in info.facts.placements:
                symbol = self.project.resolve(name, placement.model[1])
                model = self.model(symbol) if symbol is not None else None
                if model is None or model.kind == "attrs":
                    continue
                for source in placement.sources:
                    if source.is_param:
                        out.add(scope_of(placement.function, source.base, name))
        return out

    def apply_reads(self, root: SchemaNode) -> None:
        """Add what the code reads from config dicts to the tree.

        A dict section that code reads key by key accepts the keys it reads
        and silently ignores the rest: it becomes a lenient node. A read of a
        key that a strict model does not declare is kept as a dead read.
        """
        sites, self.unknown_reads = self.flow.reads()
        if self.root_origin is not None:
            what = "the config dict comes from code not followed, where it may be read too"
            self.unknown_reads.append(((), self.root_origin, what))
        for module, placement, location in self.forwarded:
            for source in placement.sources:
                scope = scope_of(placement.function, source.base, module)
                if not source.is_param or scope not in self.flow.config:
                    continue
                keys = self.flow.expand(module, placement.function, source.keys)
                prefixes = self.flow.prefixes(scope)
                if keys is None or prefixes is None:
                    continue
                what = f"forwarded as **kwargs to {placement.model[1]}"
                self.unknown_reads.extend(((*p, *keys), location, what) for p in prefixes)
        self.reads = sites
        for site in sites:
            node = root
            for i, key in enumerate(site.path):
                child = node.child(key) or node.children.get(ANY_KEY)
                if child is None:
                    if node.type.kinds and "dict" not in node.type.kinds:
                        break  # `"all" in stages`: a membership test on a list, not a key
                    if node.strict is True:
                        self.dead_reads.append((site, node))
                        break
                    node.strict = False
                    child = SchemaNode(
                        key=key,
                        path=site.path[: i + 1],
                        spellings=(key,),
                        location=site.location,
                        origin=f"read in {site.function}",
                    )
                    node.children[key] = child
                node = child
            else:
                node.reads.append(site)
        for node in root.walk():
            if node.reads and node.origin.startswith("read in"):
                _from_reads(node)

    def _mount_dict(self, root: SchemaNode, path_text: str, symbol: Symbol) -> bool:
        """Mount a module-level dict literal of option -> default (a registry
        of options, such as ``DEFAULTS = {"docs": [], ...}``): its string keys
        are the accepted keys, with their defaults, and nothing else is."""
        project = self.project
        info = project.modules.get(symbol.module)
        expr = info.facts.assigns.get(symbol.qualname) if info else None
        if info is None or expr is None or expr[0] != "dict":
            return False
        path = tuple(p for p in path_text.split(".") if p)
        node = root
        for depth, part in enumerate(path):
            child = node.children.get(part)
            if child is None:
                child = SchemaNode(key=part, path=path[: depth + 1], spellings=(part,))
                node.children[part] = child
            node = child
        line = info.facts.assign_lines.get(symbol.qualname, 1)
        where = project.location(symbol.module, line)
        lines = info.facts.dict_key_lines.get(symbol.qualname, {})
        node.strict = True
        node.strict_location = where
        node.strict_owner = symbol.qualname
        node.model = symbol.qualname
        node.model_kind = "dict"
        node.model_location = where
        for key_expr, value_expr in expr[1]:
            key = project.string(symbol.module, key_expr)
            if key is None:
                node.strict = None  # a key not known statically: nothing is rejected
                continue
            default = project.evaluate(symbol.module, value_expr)
            kinds = frozenset({value_kind(default.value)}) if default.known else frozenset()
            node.children[key] = SchemaNode(
                key=key,
                path=(*path, key),
                spellings=(key,),
                type=TypeInfo(next(iter(kinds), ""), kinds),
                default=default,
                location=project.location(symbol.module, lines.get(key, line)),
                origin=f"key of {symbol.qualname}",
            )
        self.mounts.append(Mount(path, symbol.qualname, where, "configuration"))
        return True

    def build(
        self, explicit: dict[str, str], doc_names: Callable[[], frozenset[str]] | None = None
    ) -> SchemaNode:
        """The schema tree: explicit mounts first, then those found in code.

        ``doc_names`` gives the key names the doc pages document; it is
        called unless ``mount`` names the root, to decide which dict read
        key by key (if any) is the config's root where no model is.
        """
        root = _new_root()
        project = self.project
        dict_seeds: set[Scope] = set()
        for path_text, target in explicit.items():
            module, _, qualname = target.partition(":")
            module = project.canonical(module) or module
            symbol = project.resolve(module, qualname) if module in project.modules else None
            if (
                symbol is not None
                and symbol.kind == "const"
                and self._mount_dict(root, path_text, symbol)
            ):
                continue
            scope = self._dict_scope(module, qualname)
            if scope is not None and (symbol is None or self.model(symbol) is None):
                path = tuple(p for p in path_text.split(".") if p)
                self.flow.fixed[scope] = path
                dict_seeds.add(scope)
                self.mounts.append(
                    Mount(path, render_scope(scope), self._scope_location(scope), "configuration")
                )
                continue
            if symbol is None or self.model(symbol) is None:
                raise ConfigError(
                    f"mount {path_text!r} = {target!r}: {self._unmountable(module, qualname, symbol)}"
                )
            path = tuple(p for p in path_text.split(".") if p)
            if not path:
                self.fill(root, symbol, direct=True)
                root.model_location = self.model(symbol).location  # type: ignore[union-attr]
                self.mounts.append(Mount((), symbol.qualname, root.model_location, "configuration"))
            else:
                loc = self.model(symbol).location  # type: ignore[union-attr]
                self.mount(root, path, symbol, (path[-1],), "configuration", loc, direct=True)
        explicit_paths = {tuple(p for p in k.split(".") if p) for k in explicit}
        seeds = self._seeds() | dict_seeds
        self.flow.mark(seeds)
        if () not in explicit_paths and doc_names is not None:
            chosen = self._dict_root(seeds, doc_names)
            if chosen is not None:
                dict_seeds.add(chosen)
                dict_seeds.update(self._overrides(chosen))
                self.flow.mark(seeds | dict_seeds)
                self.root_origin = self._origin(chosen)
        for scope in dict_seeds:
            node = root
            for key in self.flow.fixed.get(scope, ()):
                node = node.children.get(key) or node
            if node.location is None:
                node.location = self._scope_location(scope)
                node.origin = f"the config dict {render_scope(scope)}"
        for name in sorted(project.modules):
            info = project.modules[name]
            for placement in info.facts.placements:
                self._place(root, name, info.path, placement, explicit_paths)
        # No model, no dict read key by key and no configured mount: the
        # configuration may be a settings class, or the command line.
        empty = not (root.children or root.model or explicit or dict_seeds)
        empty = empty and not self.flow.reads()[0]
        if empty and doc_names is not None:
            self._settings_root(root, doc_names)
        if not explicit and not dict_seeds and not root.model:
            groups = self.option_groups()
            options = groups[0][1] if groups else []
            dynamic = self.options()[1]
            if len(options) >= MIN_OPTIONS and (
                (empty and not root.children) or self._options_documented(root, options, doc_names)
            ):
                if not empty:
                    # Models built from serialized data (a report, a message)
                    # that no doc describes are not the configuration.
                    root.children.clear()
                    self.mounts.clear()
                    self.flow.mark(set())
                mount_options(root, options, complete=not dynamic)
                how = (
                    f"{len(options)} options declared with add_argument or @option"
                    if groups[0][0] == "cli"
                    else f"{len(options)} keys registered by name"
                )
                # Keys a plugin registers by name (pytest's ini, Sphinx's
                # conf.py) are a config file's, not a command line's.
                self.primary = "cli" if root.model_kind in CLI_KINDS else "config"
                self.primary_options = groups[0][0]
                self.unresolved.extend(Unresolved(where, _DYNAMIC) for where in dynamic)
                assert root.model_location is not None and root.model is not None
                self.mounts.append(Mount((), root.model, root.model_location, how))
        if empty and not root.children and not root.model:
            variables = environment_variables(project)
            if len(variables) >= MIN_OPTIONS:
                mount_environment(root, variables)
                self.primary = "env"
                assert root.model_location is not None
                how = f"{len(variables)} variables read with os.environ or os.getenv"
                self.mounts.append(Mount((), ENVIRONMENT, root.model_location, how))
        return root

    def _options_documented(
        self,
        root: SchemaNode,
        options: list[SchemaNode],
        doc_names: Callable[[], frozenset[str]] | None,
    ) -> bool:
        """Do the docs describe the command line rather than what the code
        placed at the root? The options win when the docs name three of
        them at least and none of the placed keys: a tree built from models
        of serialized data (a report file, a transfer's metadata) that no
        page documents is no configuration."""
        if doc_names is None:
            return False
        names = doc_names()
        placed = {
            s for node in root.walk() if node is not root for s in node.spellings or (node.key,)
        }
        placed |= {key for site in self.flow.reads()[0] for key in site.path}
        if placed & names:
            return False
        spelt = {s for node in options for s in node.spellings}
        return len(spelt & names) >= MIN_OPTIONS

    def _settings_root(self, root: SchemaNode, doc_names: Callable[[], frozenset[str]]) -> None:
        """A project whose configuration is a pydantic-settings class (built
        as ``Settings()``, from the environment) has it as the root."""
        found = self._settings_class(doc_names)
        if found is not None:
            self._fill_settings(root, *found)
            self.primary = "settings"

    def _fill_settings(self, root: SchemaNode, chosen: Symbol, how: str) -> Mount:
        model = self.model(chosen)
        assert model is not None
        self.fill(root, chosen, direct=True)
        root.model_location = model.location
        mount = Mount((), chosen.qualname, model.location, how)
        self.mounts.append(mount)
        return mount

    def _settings_leaves(self) -> list[Symbol]:
        """The settings classes no other one derives from or holds as a field."""
        project = self.project
        settings: list[Symbol] = []
        for name in sorted(project.modules):
            for qualname in project.modules[name].classes:
                symbol = Symbol("class", name, qualname)
                if self.model(symbol) is not None and project.inherits_external(
                    symbol, SETTINGS_BASES
                ):
                    settings.append(symbol)
        inner: set[Symbol] = set()
        for symbol in settings:
            inner.update(s for s in project.mro(symbol)[1:] if s.kind == "class")
            model = self.model(symbol)
            assert model is not None
            for module, fact in model.fields:
                inner.update(s for _, s in self.type_facts(module, fact.annotation).models)
        return [s for s in settings if s not in inner]

    def _settings_class(
        self, doc_names: Callable[[], frozenset[str]], *, needed: int = 0
    ) -> tuple[Symbol, str] | None:
        """The settings class that no other one derives from or holds as a
        field; of several, the one most of whose fields the docs document
        (three at least, and no tie). With ``needed``, the docs must
        document that many of its fields or their variables in any case."""
        leaves = self._settings_leaves()
        if not leaves:
            return None

        def documented(symbol: Symbol) -> int:
            # A field counts by its name or as its variable (``env_prefix``).
            node = self._model_root(symbol)
            return sum(
                1 for child in node.children.values() if doc_names() & {child.key, *child.spellings}
            )

        if len(leaves) == 1:
            if needed and documented(leaves[0]) < needed:
                return None
            return leaves[0], "the project's one settings class"
        scored = sorted(((documented(s), s) for s in leaves), key=lambda i: i[0], reverse=True)
        if scored[0][0] < max(3, needed) or scored[0][0] == scored[1][0]:
            return None
        return scored[0][1], f"the settings class whose fields the docs name most ({scored[0][0]})"

    def _model_root(self, symbol: Symbol) -> SchemaNode:
        """A root that is the model ``symbol``."""
        node = _new_root()
        model = self.model(symbol)
        assert model is not None
        self.fill(node, symbol, direct=True)
        node.model_location = model.location
        return node

    def configured(self, wanted: dict[str, tuple[str, tuple[str, ...]]]) -> list[Surface]:
        """The surfaces the configuration names (``surfaces``): a model, a
        module-level dict of options, ``cli`` or ``env``."""
        out: list[Surface] = []
        project = self.project
        for name, (target, _docs) in wanted.items():
            node = _new_root()
            unresolved: list[Unresolved] = []
            if target in ("cli", "registered"):
                options = [
                    o for o in self.options()[0] if (o.model_kind == "named") == (target != "cli")
                ]
                dynamic = self.options()[1]
                if not options:
                    what = "command-line option" if target == "cli" else "key registered by name"
                    raise ConfigError(f"surfaces.{name}: the code declares no {what}")
                mount_options(node, options, complete=not dynamic)
                unresolved = [Unresolved(where, _DYNAMIC) for where in dynamic]
            elif target == "env":
                variables = environment_variables(project)
                if not variables:
                    raise ConfigError(f"surfaces.{name}: the code reads no environment variable")
                mount_environment(node, variables)
            elif target == "settings":
                named = setting_reads(project)
                if not named:
                    raise ConfigError(f"surfaces.{name}: the code reads no setting by name")
                mount_settings(node, named)
            else:
                module, _, qualname = target.partition(":")
                module = project.canonical(module) or module
                symbol = project.resolve(module, qualname) if module in project.modules else None
                kept = len(self.mounts)
                if symbol is not None and self.model(symbol) is not None:
                    node = self._model_root(symbol)
                elif not (
                    symbol is not None
                    and symbol.kind == "const"
                    and self._mount_dict(node, "", symbol)
                ):
                    why = self._unmountable(module, qualname, symbol)
                    if why.endswith("(module:function.param)"):
                        why = (
                            f"{qualname} is not a model (pydantic, a dataclass, attrs) or a "
                            "module-level dict of options"
                        )
                    raise ConfigError(f"surfaces.{name} = {target!r}: {why}")
                del self.mounts[kept:]  # the primary's mounts only
            out.append(Surface(name, node, "configuration", unresolved, target))
        return out

    def _option_tables(self) -> list[Surface]:
        """Declarative tables of options: a dict literal of five string keys
        or more whose values are all calls of one option class
        (``{"name": Opt(default, ...), ...}``), or whose name says it holds
        the defaults (``DEFAULT_CONFIG = {"KEY": value, ...}``). Each key is
        an option with the call's first argument (or ``default=``) or the
        value as its default; nothing is known of unknown keys."""
        project = self.project
        out: list[Surface] = []
        for name in sorted(project.modules):
            info = project.modules[name]
            tables = [
                (q, e, info.facts.assign_lines.get(q, 1)) for q, e in info.facts.assigns.items()
            ]
            for cls in info.facts.classes:
                for attr, value in cls.assigns.items():
                    if not attr.startswith("__line__"):
                        marker = cls.assigns.get("__line__" + attr)
                        at = marker[1] if marker else cls.line
                        tables.append((f"{cls.name}.{attr}", value, at))
            for qualname, expr, line in tables:
                if expr[0] == "seq" and len(expr[2]) >= MIN_TABLE:
                    node = self._tuple_table(name, qualname, expr[2], line)
                elif expr[0] != "dict" or len(expr[1]) < MIN_TABLE:
                    continue
                else:
                    node = self._option_table(name, qualname, expr, line)
                if node is not None:
                    leaves = sum(1 for n in node.walk() if n is not node and not n.children)
                    how = f"a table of {leaves} options"
                    out.append(Surface(qualname.rsplit(".", 1)[-1], node, how, [], ""))
        return out

    def _option_table(self, module: str, qualname: str, expr: Expr, line: int) -> SchemaNode | None:
        project = self.project
        values = [value for _, value in expr[1]]
        callees = {render(v[1]) for v in values if v[0] == "call"}
        calls = len(callees) == 1 and all(v[0] == "call" for v in values)
        if not calls and not _DEFAULTS_NAME.search(qualname.rsplit(".", 1)[-1]):
            return None
        if calls and any(
            v[2] and v[2][0][0] == "c" and str(v[2][0][1]).startswith("-") for v in values
        ):
            return None  # a table of command-line flags (``Arg("-v", "--verbose")``)
        if not calls and 2 * sum(1 for v in values if v[0] == "dict") > len(values):
            return None  # a table of records (worker templates), not of options
        root, _, lines = self._table_root(module, qualname, line)
        for key_expr, value in expr[1]:
            key = project.string(module, key_expr)
            if key is None:
                return None  # keys not known statically: not a table to judge by
            if calls:
                args, kwargs = value[2], value[3]
                default_expr = args[0] if args else kwargs.get("default")
            else:
                default_expr = value
            default = project.evaluate(module, default_expr) if default_expr else None
            kinds = (
                frozenset({value_kind(default.value)})
                if default is not None and default.known
                else frozenset()
            )
            root.children[key] = SchemaNode(
                key=key,
                path=(key,),
                spellings=(key,),
                type=TypeInfo(next(iter(kinds), ""), kinds),
                default=default if default is not None and default.known else None,
                location=project.location(module, lines.get(key, line)),
                origin=f"option of {qualname}",
            )
        return root

    def _table_root(
        self, module: str, qualname: str, line: int
    ) -> tuple[SchemaNode, Location, dict[str, int]]:
        """The root of a table of options, where it is declared, and the
        line of each of its keys."""
        where = self.project.location(module, line)
        root = _new_root()
        root.model = qualname
        root.model_kind = "table"
        root.model_location = where
        return root, where, self.project.modules[module].facts.dict_key_lines.get(qualname, {})

    def _tuple_table(
        self, module: str, qualname: str, rows: list[Expr], line: int
    ) -> SchemaNode | None:
        """A table of options as tuples of strings whose name says it holds
        options (``CONFIG_FILE_OPTIONS = (("branch", "run:branch",
        "boolean"), ...)``): the column spelt ``section:option`` in every
        row, else the first column of strings, names the keys; a dict in a
        row may give the default (``("jobs", {"default": 4, ...})``)."""
        if not _DEFAULTS_NAME.search(qualname.rsplit(".", 1)[-1]):
            return None
        if not all(r[0] == "seq" and r[1] == "tuple" and r[2] for r in rows):
            return None
        width = min(len(r[2]) for r in rows)
        columns = [
            i
            for i in range(width)
            if all(r[2][i][0] == "c" and isinstance(r[2][i][1], str) for r in rows)
        ]
        sectioned = [i for i in columns if all(_SECTIONED.fullmatch(r[2][i][1]) for r in rows)]
        column = sectioned[0] if sectioned else columns[0] if columns else None
        if column is None:
            return None
        keys = [r[2][column][1] for r in rows]
        if len(set(keys)) < MIN_TABLE or not all(_TABLE_KEY.fullmatch(k) for k in keys):
            return None
        project = self.project
        root, where, lines = self._table_root(module, qualname, line)
        for row, key in zip(rows, keys, strict=True):
            path = tuple(key.split(":")) if sectioned else (key,)
            if path[-1].startswith("_"):
                continue  # private, as a model's ``_name`` is
            parent = ensure_path(root, path[:-1], where, f"section of {qualname}")
            spec = next((item for item in row[2] if item[0] == "dict"), None)
            default: Value | None = None
            for k, v in spec[1] if spec is not None else []:
                if k[0] == "c" and k[1] == "default":
                    found = project.evaluate(module, v)
                    default = found if found.known else None
            kinds = frozenset({value_kind(default.value)}) if default is not None else frozenset()
            parent.children[path[-1]] = SchemaNode(
                key=path[-1],
                path=path,
                spellings=(path[-1],),
                type=TypeInfo(next(iter(kinds), ""), kinds),
                default=default,
                location=project.location(module, lines.get(key, line)),
                origin=f"option of {qualname}",
            )
        return root

    def _descriptor_surfaces(self) -> list[Surface]:
        """Config classes of option objects: each MkDocs config class that no
        other one extends or nests (a plugin's options, ``plugins: - name:``
        in ``mkdocs.yml``), and the traitlets classes together, one key per
        class (``c.ServerApp.port``, ``--ServerApp.port``)."""
        project = self.project
        found: dict[str, list[Symbol]] = {"mkdocs": [], "traitlets": []}
        for name in sorted(project.modules):
            for qualname in project.modules[name].classes:
                symbol = Symbol("class", name, qualname)
                info = self.model(symbol)
                if info is not None and info.kind in found and info.fields:
                    found[info.kind].append(symbol)
        bases: set[Symbol] = set()
        nested: set[str] = set()
        roots: dict[Symbol, SchemaNode] = {}
        for symbol in found["mkdocs"]:
            bases.update(s for s in project.mro(symbol)[1:] if s.kind == "class")
            roots[symbol] = node = self._model_root(symbol)
            nested.update(n.model for n in node.walk() if n is not node and n.model)
        inner = bases | {s for s in found["mkdocs"] if s.qualname in nested}
        out: list[Surface] = []
        for symbol in found["mkdocs"]:
            if symbol not in inner:
                node = roots[symbol]
                target = f"{symbol.module}:{symbol.qualname}"
                how = "a MkDocs config class of options"
                out.append(Surface(symbol.qualname, node, how, [], target))
        if found["traitlets"]:
            root = SchemaNode(key="", path=(), strict=False, origin="root")
            root.model = "the traitlets classes"
            root.model_kind = "traitlets"
            for symbol in found["traitlets"]:
                key = symbol.qualname.rsplit(".", 1)[-1]
                if key in root.children:
                    continue
                info = self.model(symbol)
                assert info is not None
                # A namespace (``c.ServerApp.port``), not an option: no
                # location of its own, so only its traits are reported.
                child = SchemaNode(key=key, path=(key,), spellings=(key,), origin="class")
                self.fill(child, symbol, direct=True)
                root.children[key] = child
                root.model_location = root.model_location or info.location
            how = f"{len(root.children)} classes of traits tagged config=True"
            out.append(Surface("traitlets", root, how, [], ""))
        return out

    def surfaces(
        self,
        root: SchemaNode,
        doc_names: Callable[[], frozenset[str]] | None,
        generated: bool = False,
        doc_words: Callable[[], frozenset[str]] | None = None,
    ) -> list[Surface]:
        """The configurations beside the root's, each with a root of its
        own: a settings class, the command line, the environment variables
        read by name. Each needs evidence that users write it: the docs
        document three of its keys at least, keys the surfaces before it
        do not hold; for the command line, a page ``generated`` from the
        parser will do. ``doc_words`` adds the doc titles of one word, the
        evidence for a configuration declared by its defaults alone."""
        if doc_names is None:
            return []
        names = doc_names()
        taken = {
            s for node in root.walk() if node is not root for s in node.spellings or (node.key,)
        }
        out: list[Surface] = []

        def claim(node: SchemaNode, evidence: frozenset[str] = names) -> bool:
            spelt = {s for n in node.walk() if n is not node for s in n.spellings or (n.key,)}
            fresh = (spelt & evidence) - taken
            if len(fresh) < MIN_OPTIONS:
                return False
            taken.update(spelt)
            return True

        if self.imported("confuse"):
            defaults = defaults_root(self.project, self.defaults_files)
            words = doc_words() if doc_words is not None else names
            if defaults is not None and claim(defaults, words):
                files = [rel for rel, _ in self.defaults_files]
                how = "confuse's defaults: " + (
                    ", ".join(files) + " and config.add calls" if files else "config.add calls"
                )
                name = "config" if self.primary != "config" else "defaults"
                out.append(Surface(name, defaults, how, [], ""))
        mounted = {node.model for node in root.walk() if node.model}
        for symbol, location in sorted(
            self.loaded_models.items(), key=lambda i: (i[1].path, i[1].line)
        ):
            if symbol.qualname in mounted:
                continue
            node = self._model_root(symbol)
            if claim(node):
                how = f"built from a loaded file's contents ({location.path}:{location.line})"
                target = f"{symbol.module}:{symbol.qualname}"
                out.append(Surface(symbol.qualname, node, how, [], target))
        if self.imported("mkdocs") or self.imported("traitlets"):
            for surface in self._descriptor_surfaces():
                if claim(surface.root):
                    out.append(surface)
        tables: list[tuple[int, int, Surface]] = []
        for surface in _distinct_tables(self._option_tables()):
            # A table of values is a configuration's only where the docs
            # describe half of its keys at least; the table they describe
            # most claims its keys first.
            keys = {n.key for n in surface.root.walk() if not n.children}
            if 2 * len(keys & names) >= len(keys):
                tables.append((-len(keys & names), len(tables), surface))
        for _, _, surface in sorted(tables, key=lambda t: t[:2]):
            if claim(surface.root):
                out.append(surface)
        if self.imported("pydantic_settings") or self.imported("pydantic"):
            # Each settings class the docs document is a surface: an app may
            # have one for itself and one for its server (``UVICORN_``).
            mounted = {node.model for node in root.walk() if node.model}
            leaves = [s for s in self._settings_leaves() if s.qualname not in mounted]
            found: list[Surface] = []
            for symbol in leaves:
                settings = self._model_root(symbol)
                if claim(settings):
                    how = (
                        "the project's one settings class"
                        if len(leaves) == 1
                        else "a settings class the docs document"
                    )
                    target = f"{symbol.module}:{symbol.qualname}"
                    found.append(Surface(symbol.qualname, settings, how, [], target))
            if len(found) == 1 and self.primary != "settings":
                found[0].name = "settings"
            out.extend(found)
        for name, options in self.option_groups():
            if name == self.primary_options or len(options) < MIN_OPTIONS:
                continue
            # Keys registered by name (pytest's ini, Sphinx's conf.py, tox's
            # ``add_config``) are a file's; flags are the command line's.
            dynamic = self.options()[1]
            cli = _new_root()
            mount_options(cli, options, complete=not dynamic)
            if claim(cli) or (generated and name == "cli"):
                unresolved = [Unresolved(where, _DYNAMIC) for where in dynamic]
                how = (
                    f"{len(options)} options declared with add_argument or @option"
                    if name == "cli"
                    else f"{len(options)} keys registered by name"
                )
                out.append(Surface(name, cli, how, unresolved, name))
        named = setting_reads(self.project)
        if len(named) >= MIN_OPTIONS:
            node = _new_root()
            mount_settings(node, named)
            if claim(node):
                how = f"{len(named)} settings read by name from a settings object"
                out.append(Surface("settings object", node, how, [], "settings"))
        if self.primary != "env":
            variables = environment_variables(self.project)
            if len(variables) >= MIN_OPTIONS:
                env = _new_root()
                mount_environment(env, variables)
                if claim(env):
                    how = f"{len(variables)} variables read with os.environ or os.getenv"
                    out.append(Surface("env", env, how, [], "env"))
        return out

    def _unmountable(self, module: str, qualname: str, symbol: Symbol | None) -> str:
        """Why a ``mount`` target names nothing that can be mounted."""
        if not qualname:
            return "write it as module:Name"
        if module not in self.project.modules:
            return f"no module {module!r} among the analysed Python files"
        if symbol is None or symbol.kind in ("external", "module"):
            return f"{module} defines no {qualname!r}"
        return (
            f"{qualname} is not a pydantic model, a dataclass, a module-level dict of "
            "options or a dict parameter (module:function.param)"
        )

    # -- dict roots ------------------------------------------------------------

    def _dict_scope(self, module: str, qualname: str) -> Scope | None:
        """The dict a ``mount`` target names: ``module:function.param``, or
        ``module:Class.param`` for a parameter of the class's constructor."""
        info = self.project.modules.get(module)
        owner, _, param = qualname.rpartition(".")
        if info is None or not owner:
            return None
        functions = info.facts.functions
        for function in (owner, f"{owner}.__init__"):
            if param in functions.get(function, ()):
                return (module, function, param)
        return None

    def _scope_location(self, scope: Scope) -> Location:
        module, function, _ = scope
        info = self.project.modules[module]
        line = info.facts.function_lines.get(function, (0, 0))[0]
        if not line and function in info.classes:
            line = info.classes[function].line
        return Location(info.path, line or 1)

    def _origin(self, chosen: Scope) -> Location | None:
        """Where a dict root found by the docs comes from, when the code does
        not show it: None if configuration reaches a dict loaded from a file
        (all of its readers are then followed), else the root's place. A
        dict handed in from code not followed (a local from an unknown call,
        a ``getattr`` dispatch) may be read there too."""
        if any(scope[2] == LOADED for scope in self.flow.config):
            return None
        return self._scope_location(chosen)

    def _overrides(self, scope: Scope) -> set[Scope]:
        """The same parameter of the methods that override one another: a
        config read by ``read_config(self, config)`` of every class derived
        from one base (called through ``getattr`` on each in turn) is read
        by all of them."""
        cached = self._override_memo.get(scope)
        if cached is None:
            cached = self._override_memo[scope] = self._find_overrides(scope)
        return cached

    def _find_overrides(self, scope: Scope) -> set[Scope]:
        module, function, param = scope
        owner, _, method = function.rpartition(".")
        info = self.project.modules[module]
        params = info.facts.functions.get(function, [])
        if owner not in info.classes or param not in params or method.startswith("__"):
            return set()
        index = params.index(param)
        project = self.project
        family = {s for s in project.mro(Symbol("class", module, owner))[1:] if s.kind == "class"}
        if not family:
            return set()
        out: set[Scope] = set()
        for name, other in project.modules.items():
            for qualname in other.classes:
                overriding = other.facts.functions.get(f"{qualname}.{method}")
                if overriding is None or len(overriding) <= index:
                    continue
                ancestors = project.mro(Symbol("class", name, qualname))[1:]
                if family.intersection(ancestors):
                    out.add((name, f"{qualname}.{method}", overriding[index]))
        out.discard(scope)
        return out

    def _readable(self) -> set[str]:
        """Every key some code of the project reads from some dict, or hands
        to a helper that reads it: all that any dict root could explain."""
        project = self.project
        out: set[str] = set()
        for name, info in project.modules.items():
            exprs = [read.source.keys[-1] for read in info.facts.dict_reads if read.source.keys]
            exprs += [e for arg in info.facts.dict_args for e in arg.key_args.values()]
            # A constant is read in many places: resolved once per module.
            names: set[str] = set()
            for expr in exprs:
                if expr[0] == "c" and isinstance(expr[1], str):
                    out.add(expr[1])
                elif expr[0] == "n":
                    names.add(expr[1])
            for dotted in names:
                key = project.string(name, ["n", dotted])
                if key is not None:
                    out.add(key)
        return out

    def _model_fields(self) -> set[str]:
        """The field names of every model of the project (a dict read by a
        model's own ``from_dict`` is that model's section, not the root)."""
        known: set[str] = set()
        for name, info in self.project.modules.items():
            for qualname in info.classes:
                model = self.model(Symbol("class", name, qualname))
                if model is not None:
                    known.update(fact.name for _, fact in model.fields)
        return known

    def _dict_root(
        self, seeds: set[Scope], doc_names: Callable[[], frozenset[str]]
    ) -> Scope | None:
        """The dict that holds the whole configuration, when no model does.

        Candidates are the dicts the code reads most keys from or hands on
        most often (a config class's ``param_dict``, a dict loaded from a
        file) that configuration does not reach yet. Each is tried as a seed:
        configuration flows from it as from a model, and the keys read under
        it (at any depth) that the code does not know yet are counted against
        the keys the docs document. A key read under another path or
        declared by a model is not new, so a dict that holds one section
        (``aio_config``) is not taken for the whole. The one with most
        documented keys wins, if at least ``ROOT_MIN_KEYS`` of them and a
        third of its new keys are documented, and more keys than the seeds
        already read; a tie is never
        guessed.
        """
        flow = self.flow
        # Option spellings (``--flag``) are never keys of a dict.
        names = {name for name in doc_names() if not name.startswith("-")}
        if not names:
            return None
        read = {key for site in flow.reads()[0] for key in site.path}
        # What the seeds already read: a dict root must explain more
        # documented keys than that, or it is a section read apart.
        present = len(read & names)
        met = {fact.name for model in self.known_models() for _, fact in model.fields}
        unexplained = names - read - met
        # No dict can explain more than the seeds already do: checked first
        # against the docs, then against the keys any code reads at all.
        if len(unexplained) <= present or len(unexplained & self._readable()) <= present:
            return None
        known = read | self._model_fields()
        fan_out: dict[Scope, int] = {}
        for name, info in self.project.modules.items():
            facts = info.facts
            records: list[DictRead | DictArg | DictStore] = [
                *facts.dict_reads,
                *facts.dict_args,
                *facts.dict_stores,
            ]
            for record in records:
                scope = scope_of(record.function, record.source.base, name)
                fan_out[scope] = fan_out.get(scope, 0) + 1
        candidates = sorted(
            (
                (count, scope)
                for scope, count in fan_out.items()
                if count >= ROOT_MIN_KEYS and scope not in flow.config
            ),
            key=lambda item: (-item[0], item[1]),
        )
        tried: set[Scope] = set()
        scored: list[tuple[int, int, Scope]] = []
        for _, scope in candidates[:ROOT_TRIALS]:
            if scope in tried:
                continue  # reached from a candidate already tried: the same config
            flow.mark(seeds | {scope} | self._overrides(scope))
            tried |= flow.config
            new = {key for site in flow.reads(sites_only=True)[0] for key in site.path} - known
            documented = len(new & names)
            # A dict loaded from a file is plainly a config file: fewer
            # documented keys confirm it than a dict of unknown origin.
            loaded = any(reached[2] == LOADED for reached in flow.config)
            least = LOADED_MIN_KEYS if loaded else ROOT_MIN_KEYS
            if documented >= max(least, present + 1) and 3 * documented >= len(new):
                scored.append((documented, len(new), scope))
        if tried:
            flow.mark(seeds)
        if not scored:
            return None
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        if len(scored) > 1 and scored[1][:2] == scored[0][:2]:
            return None
        documented, new_keys, chosen = scored[0]
        how = f"docs: {documented} of the {new_keys} keys read under it are documented"
        overrides = len(self._overrides(chosen))
        if overrides:
            how += f", with the {overrides} method(s) that override it"
        module, function, base = chosen
        target = "" if base.startswith("self.") or base == LOADED else f"{module}:{function}.{base}"
        location = self._scope_location(chosen)
        self.mounts.append(Mount((), render_scope(chosen), location, how, target))
        return chosen

    def _place(
        self,
        root: SchemaNode,
        module: str,
        path: str,
        placement: Placement,
        explicit: set[ConfigPath],
    ) -> None:
        project = self.project
        symbol = project.resolve(module, placement.model[1])
        location = Location(path, placement.line)
        if symbol is not None and (info := self.model(symbol)) is not None and info.kind == "attrs":
            return  # attrs classes are mounted as fields of models, or by ``mount``
        if symbol is None or self.model(symbol) is None:
            if placement.via == "kwargs":
                # ``f(**d[KEY])`` forwards the section to code that is not a
                # model: every key in it may be read there.
                self.forwarded.append((module, placement, location))
            return
        if not placement.sources:
            self.unresolved.append(
                Unresolved(
                    location,
                    f"{symbol.qualname} built from a dict that is not a lookup in the config",
                )
            )
            return
        resolved: list[ConfigPath] = []
        for source in placement.sources:
            keys = [project.string(module, k) for k in source.keys]
            if any(k is None for k in keys):
                missing = next(
                    render(k) for k, r in zip(source.keys, keys, strict=True) if r is None
                )
                self.unresolved.append(
                    Unresolved(
                        location,
                        f"{symbol.qualname} built from {source.base}[{missing}]: key not static",
                    )
                )
                continue
            prefixes = (
                self.param_prefixes(module, placement.function, source.base)
                if source.is_param
                else [()]
            )
            if prefixes is None:
                self.unresolved.append(
                    Unresolved(
                        location,
                        f"{symbol.qualname}: callers pass {source.base} from places that disagree",
                    )
                )
                continue
            for prefix in prefixes:
                full = (*prefix, *(k for k in keys if k is not None))
                if full not in resolved:
                    resolved.append(full)
        if not resolved:
            return
        direct = placement.via == "kwargs"
        primary = resolved[0]
        if not primary:
            if any(source.base == LOADED for source in placement.sources):
                self.loaded_models.setdefault(symbol, location)
            self.root_candidates.append(
                Mount(
                    (),
                    symbol.qualname,
                    location,
                    f"built from the whole dict in {placement.function}",
                )
            )
            return
        if primary in explicit:
            return
        # Other sources with the same parent are legacy spellings of the key
        # (``param_dict.get(BFLOAT16) or param_dict.get(BFLOAT16_OLD)``).
        spellings = [primary[-1]]
        for other in resolved[1:]:
            if other and other[:-1] == primary[:-1]:
                spellings.append(other[-1])
            elif other:
                self.mount(
                    root,
                    other,
                    symbol,
                    (other[-1],),
                    f"built in {placement.function}",
                    location,
                    direct,
                )
        self.mount(
            root,
            primary,
            symbol,
            tuple(spellings),
            f"built in {placement.function}",
            location,
            direct,
        )
