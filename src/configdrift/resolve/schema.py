"""The accepted view: a tree of SchemaNodes built from models and their mounts.

Models (read by ``models.ModelReader``) are mounted under a config path where the code builds it from a sub-dict
(``Model(**d.get(KEY, {}))``, ``Model(**d[KEY])``, through locals and helper
functions), where a parent model declares it as a field type, or where the
configuration says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.python.dict_sources import LOADED
from configdrift.extract.python.exprs import render
from configdrift.extract.python.facts import Placement
from configdrift.model import (
    ANY_KEY,
    ConfigPath,
    Location,
    Mount,
    ReadSite,
    SchemaNode,
    TypeInfo,
    Unresolved,
    read_defaults,
    same_value,
    value_kind,
)
from configdrift.resolve.flow import DictFlow
from configdrift.resolve.flow_graph import Scope, scope_of
from configdrift.resolve.models import ModelReader
from configdrift.resolve.project import Project, Symbol

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


def new_root() -> SchemaNode:
    """An empty root: nothing known yet of unknown keys."""
    return SchemaNode(key="", path=(), strict=None, origin="root")


DYNAMIC = (
    "options built at runtime, or added by code the parser is handed to: "
    "unknown options are not judged"
)


@dataclass(frozen=True, slots=True)
class ThemeOptions:
    """A Sphinx theme's options file (``theme.conf``, ``theme.toml``): its
    options (each a key of one part with its line and default) and the
    theme it inherits."""

    rel: str
    inherit: str
    options: list[BlockKey]
    #: The options a template (``theme_<name>``) or the code spells; None
    #: when a file could not be searched.
    spelt: frozenset[str] | None
    #: The options a comment above marks deprecated.
    deprecated: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ActionInputs:
    """A GitHub Action's metadata file (``action.yml``): its inputs, each a
    key of one part with its line and default (a string, or a placeholder
    where it gives none), those it marks deprecated, and the environment
    variables its steps are given (``env: {OUTPUT_FILE: ...}``)."""

    rel: str
    inputs: list[BlockKey]
    deprecated: frozenset[str] = frozenset()
    variables: frozenset[str] = frozenset()


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
        #: Functions where a dict is annotated with an extension of a
        #: mounted TypedDict: the node's path and the keys the extension adds.
        self.typed_extras: dict[tuple[str, str], tuple[ConfigPath, frozenset[str]]] = {}
        #: A dict root found by the docs whose origin the code does not show.
        self.root_origin: Location | None = None
        self.override_memo: dict[Scope, set[Scope]] = {}
        self.options_found: tuple[list[SchemaNode], list[Location]] | None = None
        #: Models built from a whole dict loaded from a file
        #: (``Config(**yaml.safe_load(fh))``): a config file's schema.
        self.loaded_models: dict[Symbol, Location] = {}
        #: Models built from a whole dict, loaded or not (``Config(**raw)``).
        self.whole_models: dict[Symbol, Location] = {}
        #: Models a library builds from the files (``OmegaConf.structured``,
        #: dacite's ``from_dict``), with the library: its strictness.
        self.loaders: dict[Symbol, str] = {}
        #: The name of the root's surface (``config``, ``settings``, ``cli``,
        #: ``env``), set by ``build``.
        self.primary = "config"
        #: Which group of options the root holds, if any (``option_groups``).
        self.primary_options = ""
        #: The keys of the defaults files a confuse application ships, by
        #: file (set by the engine before ``surfaces``).
        self.defaults_files: list[tuple[str, list[BlockKey]]] = []
        #: YAML files of defaults a package ships and its code loads.
        self.data_files: list[tuple[str, list[BlockKey], frozenset[str], frozenset[str]]] = []
        #: The options files of the Sphinx themes the project ships.
        self.themes: list[ThemeOptions] = []
        #: The GitHub Actions the project ships (``action.yml``).
        self.actions: list[ActionInputs] = []

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

    def seeds(self) -> set[Scope]:
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
        if self.typed_extras:
            sites = [site for site in sites if not extension_read(site, self.typed_extras)]
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

    def mount_dict(self, root: SchemaNode, path_text: str, symbol: Symbol | None) -> bool:
        """Mount a module-level dict literal of option -> default (a registry
        of options, such as ``DEFAULTS = {"docs": [], ...}``): its string keys
        are the accepted keys, with their defaults, and nothing else is.
        False where ``symbol`` names no such constant."""
        if symbol is None or symbol.kind != "const":
            return False
        project = self.project
        info = project.modules.get(symbol.module)
        expr = info.facts.assigns.get(symbol.qualname) if info else None
        if info is None or expr is None or expr[0] != "dict":
            return False
        path = tuple(p for p in path_text.split(".") if p)
        node = ensure_path(root, path, None, "")
        line = info.facts.assign_lines.get(symbol.qualname, 1)
        where = project.location(symbol.module, line)
        lines = info.facts.dict_key_lines.get(symbol.qualname, {})
        node.strict, node.strict_location, node.strict_owner = True, where, symbol.qualname
        node.model, node.model_kind, node.model_location = symbol.qualname, "dict", where
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

    def model_root(self, symbol: Symbol) -> SchemaNode:
        """A root that is the model ``symbol``."""
        node = new_root()
        model = self.model(symbol)
        assert model is not None
        self.fill(node, symbol, direct=True)
        node.model_location = model.location
        loader = self.loaders.get(symbol)
        for inner in node.walk() if loader is not None else ():
            inner.loader = loader
            if inner.model and loader != "omegaconf":
                inner.strict = False  # dacite and cattrs drop the keys a class lacks
            elif inner.model and inner.strict is None:
                # OmegaConf checks a nested structured config's keys too.
                inner.strict, inner.strict_owner = True, inner.model
                inner.strict_location = inner.model_location
        return node

    def unmountable(self, module: str, qualname: str, symbol: Symbol | None) -> str:
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

    def dict_scope(self, module: str, qualname: str) -> Scope | None:
        """The dict a ``mount`` target names: ``module:function.param``, or
        ``module:Class.param`` for a parameter of the class's constructor."""
        info = self.project.modules.get(module)
        owner, _, param = qualname.rpartition(".")
        if info is None or not owner:
            return None
        for function in (owner, f"{owner}.__init__"):
            if param in info.facts.functions.get(function, ()):
                return (module, function, param)
        return None

    def scope_location(self, scope: Scope) -> Location:
        module, function, _ = scope
        info = self.project.modules[module]
        line = info.facts.function_lines.get(function, (0, 0))[0]
        if not line and function in info.classes:
            line = info.classes[function].line
        return Location(info.path, line or 1)

    def apply_placement(
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
        info = self.model(symbol) if symbol is not None else None
        if symbol is None or info is None:
            if placement.via == "kwargs":
                # ``f(**d[KEY])`` forwards the section to code that is not a
                # model: every key in it may be read there.
                self.forwarded.append((module, placement, location))
            return
        if info.kind == "attrs":
            return  # attrs classes are mounted as fields of models, or by ``mount``

        def unresolved(why: str) -> None:
            self.unresolved.append(Unresolved(location, f"{symbol.qualname}{why}"))

        if not placement.sources:
            unresolved(" built from a dict that is not a lookup in the config")
            return
        resolved: list[ConfigPath] = []
        for source in placement.sources:
            keys = [project.string(module, k) for k in source.keys]
            if any(k is None for k in keys):
                missing = render(source.keys[keys.index(None)])
                unresolved(f" built from {source.base}[{missing}]: key not static")
                continue
            prefixes = (
                self.flow.prefixes(scope_of(placement.function, source.base, module))
                if source.is_param
                else [()]
            )
            if prefixes is None:
                unresolved(f": callers pass {source.base} from places that disagree")
                continue
            for prefix in prefixes:
                full = (*prefix, *(k for k in keys if k is not None))
                if full not in resolved:
                    resolved.append(full)
        if not resolved:
            return
        primary = resolved[0]
        if not primary:
            if any(source.base == LOADED for source in placement.sources):
                self.loaded_models.setdefault(symbol, location)
            if placement.via in ("omegaconf", "dacite", "cattrs"):
                self.loaders[symbol] = placement.via
            self.whole_models.setdefault(symbol, location)
            how = f"built from the whole dict in {placement.function}"
            self.root_candidates.append(Mount((), symbol.qualname, location, how))
            return
        if primary in explicit:
            return
        # Other sources with the same parent are legacy spellings of the key
        # (``param_dict.get(BFLOAT16) or param_dict.get(BFLOAT16_OLD)``).
        spellings = [primary[-1]]
        mounts: list[tuple[ConfigPath, tuple[str, ...]]] = []
        for other in resolved[1:]:
            if other and other[:-1] == primary[:-1]:
                spellings.append(other[-1])
            elif other:
                mounts.append((other, (other[-1],)))
        for target, spelt in [*mounts, (primary, tuple(spellings))]:
            how = f"built in {placement.function}"
            self.mount(root, target, symbol, spelt, how, location, direct=placement.via == "kwargs")


def ensure_path(
    root: SchemaNode, path: tuple[str, ...], where: Location | None, origin: str
) -> SchemaNode:
    """The node at ``path`` under ``root``, made (open, declared at
    ``where`` by ``origin``) with the nodes above it where missing."""
    node = root
    for depth, part in enumerate(path):
        child = node.children.get(part)
        if child is None:
            child = SchemaNode(
                key=part,
                path=path[: depth + 1],
                spellings=(part,),
                strict=None,
                location=where,
                origin=origin,
            )
            node.children[part] = child
        node = child
    return node


def extension_read(
    site: ReadSite, extras: dict[tuple[str, str], tuple[ConfigPath, frozenset[str]]]
) -> bool:
    """Is ``site`` a read of a key only an extension of the mounted
    TypedDict declares, made where a dict is annotated with it?"""
    found = extras.get((site.module, site.function))
    if found is None:
        return False
    prefix, extra = found
    depth = len(prefix)
    return len(site.path) > depth and site.path[:depth] == prefix and site.path[depth] in extra


def placed_under(root: SchemaNode, under: str) -> SchemaNode:
    """A surface's tree set under the config path its docs write its keys
    below (``tool.mytool``; ``*`` for any key: ``extractor.*``). The path's
    own steps are no keys of the surface: nothing is judged of them."""
    parts = tuple(ANY_KEY if part == "*" else part for part in under.split(".") if part)
    if not parts:
        return root
    for node in root.walk():
        node.path = (*parts, *node.path)
    root.key = parts[-1]
    top = new_root()
    top.model, top.model_location = root.model, root.model_location
    node = top
    for depth, part in enumerate(parts[:-1], start=1):
        step = SchemaNode(key=part, path=parts[:depth], strict=None, origin=f"under {under}")
        node.children[part] = step
        node = step
    node.children[parts[-1]] = root
    return top
