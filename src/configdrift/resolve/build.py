"""The project's index of modules and its schema, from the facts of its
Python files: the first step of resolving."""

from __future__ import annotations

from collections.abc import Callable

from configdrift.config import Config, ConfigError, config_lines, line_of
from configdrift.extract.python.facts import ModuleFacts
from configdrift.extract.python.module_paths import module_name
from configdrift.model import (
    CLI_KINDS,
    CONFIGURED_STRICT,
    Location,
    Mount,
    SchemaNode,
    Surface,
    Unresolved,
)
from configdrift.resolve.flow_graph import Scope
from configdrift.resolve.mechanisms.dict_roots import dict_origin, dict_root, overrides
from configdrift.resolve.mechanisms.environment import ENVIRONMENT, environment_variables
from configdrift.resolve.mechanisms.option_nodes import mount_by_name
from configdrift.resolve.mechanisms.options import (
    FOUND_AS,
    declared_options,
    mount_options,
    option_groups,
    options_complete,
    options_documented,
)
from configdrift.resolve.mechanisms.settings import fill_settings, settings_root
from configdrift.resolve.mechanisms.settings_module import SETTINGS_OBJECT, setting_reads
from configdrift.resolve.mechanisms.typed_dicts import seed_typed_dicts
from configdrift.resolve.project import ModuleInfo, Project
from configdrift.resolve.schema import DYNAMIC, MIN_OPTIONS, SchemaBuilder, new_root, render_scope


def build_schema(
    py_facts: dict[str, ModuleFacts],
    python: list[str],
    config: Config,
    doc_names: Callable[[], frozenset[str]],
) -> tuple[SchemaNode, SchemaBuilder]:
    package_dirs = {p.rsplit("/", 1)[0] for p in python if p.endswith("/__init__.py")}
    modules: list[ModuleInfo] = []
    for rel in python:
        facts = py_facts.get(rel)
        if facts is None or facts.error is not None:
            continue
        name, is_package = module_name(rel, package_dirs)
        modules.append(ModuleInfo(name, rel, facts, is_package))
    builder = SchemaBuilder(Project(modules), config.registrations)
    named = frozenset(target for target, _ in config.surfaces.values())
    root = build_root(builder, config.mount, doc_names, named)
    seed_typed_dicts(builder, root)
    builder.apply_reads(root)
    for path_text, open_ in config.open_mounts.items():
        node = root
        for part in (p for p in path_text.split(".") if p):
            node = node.children.get(part) or node
        configured_openness(node, config, path_text, open_)
    return root, builder


def configured_openness(node: SchemaNode, config: Config, key: str, open_: bool) -> None:
    """What the ``open`` of the mount or surface ``key`` names says:
    unknown keys under ``node`` are silently ignored (``open = true``:
    lenient), or an error the configuration declares (``open = false``:
    strict), whatever the mechanism made of them."""
    node.strict = not open_
    node.strict_owner = None if open_ else CONFIGURED_STRICT
    rel = config.source_rel
    where = Location(rel, line_of(config_lines(config), key)) if rel else None
    node.strict_location = None if open_ else where


def build_root(
    builder: SchemaBuilder,
    explicit: dict[str, str],
    doc_names: Callable[[], frozenset[str]],
    named: frozenset[str] = frozenset(),
) -> SchemaNode:
    """The schema tree: explicit mounts first, then those found in code.

    ``doc_names`` gives the key names the doc pages document; it is
    called unless ``mount`` names the root, to decide which dict read
    key by key (if any) is the config's root where no model is. A
    command line, keys registered by name or environment variables the
    ``surfaces`` of the configuration name (``cli``, ``registered``,
    ``env``) are that surface's, never the root's as well.
    """
    root = new_root()
    project = builder.project
    dict_seeds: set[Scope] = set()
    for path_text, target in explicit.items():
        module, _, qualname = target.partition(":")
        module = project.canonical(module) or module
        symbol = project.resolve(module, qualname) if module in project.modules else None
        if builder.mount_dict(root, path_text, symbol):
            continue
        path = tuple(p for p in path_text.split(".") if p)
        scope = builder.dict_scope(module, qualname)
        model = builder.model(symbol) if symbol is not None else None
        if scope is not None and model is None:
            builder.flow.fixed[scope] = path
            dict_seeds.add(scope)
            builder.mounts.append(
                Mount(path, render_scope(scope), builder.scope_location(scope), "configuration")
            )
            continue
        if symbol is None or model is None:
            raise ConfigError(
                f"mount {path_text!r} = {target!r}: {builder.unmountable(module, qualname, symbol)}"
            )
        if not path:
            fill_settings(builder, root, symbol, "configuration")
        else:
            where = model.location
            builder.mount(root, path, symbol, (path[-1],), "configuration", where, direct=True)
    explicit_paths = {tuple(p for p in k.split(".") if p) for k in explicit}
    seeds = builder.seeds() | dict_seeds
    builder.flow.mark(seeds)
    if () not in explicit_paths:
        chosen = dict_root(builder, seeds, doc_names)
        if chosen is not None:
            dict_seeds.add(chosen)
            dict_seeds.update(overrides(builder, chosen))
            builder.flow.mark(seeds | dict_seeds)
            builder.root_origin = dict_origin(builder, chosen)
    for scope in dict_seeds:
        node = root
        for key in builder.flow.fixed.get(scope, ()):
            node = node.children.get(key) or node
        if node.location is None:
            node.location = builder.scope_location(scope)
            node.origin = f"the config dict {render_scope(scope)}"
    for name in sorted(project.modules):
        info = project.modules[name]
        for placement in info.facts.placements:
            builder.apply_placement(root, name, info.path, placement, explicit_paths)
    # No model, no dict read key by key and no configured mount: the
    # configuration may be a settings class, or the command line.
    empty = not (root.children or root.model or explicit or dict_seeds or builder.flow.reads()[0])
    if empty:
        settings_root(builder, root, doc_names)
    if not explicit and not dict_seeds and not root.model:
        groups = [(kind, options) for kind, options in option_groups(builder) if kind not in named]
        options = groups[0][1] if groups else []
        dynamic = declared_options(builder)[1]
        if len(options) >= MIN_OPTIONS and (
            (empty and not root.children) or options_documented(builder, root, options, doc_names)
        ):
            if not empty:
                # Models built from serialized data (a report, a message)
                # that no doc describes are not the configuration.
                root.children.clear()
                builder.mounts.clear()
                builder.flow.mark(set())
            mount_options(root, options, complete=options_complete(builder))
            how = f"{len(options)} {FOUND_AS[groups[0][0]]}"
            # Keys a plugin registers by name (pytest's ini, Sphinx's
            # conf.py) are a config file's, not a command line's.
            builder.primary = "cli" if root.model_kind in CLI_KINDS else "config"
            builder.primary_options = groups[0][0]
            builder.unresolved.extend(Unresolved(where, DYNAMIC) for where in dynamic)
            assert root.model_location is not None and root.model is not None
            builder.mounts.append(Mount((), root.model, root.model_location, how))
    if empty and not root.children and not root.model and "env" not in named:
        variables = environment_variables(project)
        if len(variables) >= MIN_OPTIONS:
            mount_by_name(root, variables, ENVIRONMENT, "env")
            builder.primary = "env"
            assert root.model_location is not None
            how = f"{len(variables)} variables read with os.environ or os.getenv"
            builder.mounts.append(Mount((), ENVIRONMENT, root.model_location, how))
    return root


def configured_surfaces(
    builder: SchemaBuilder,
    wanted: dict[str, tuple[str, tuple[str, ...]]],
) -> list[Surface]:
    """The surfaces the configuration names (``surfaces``): a model, a
    module-level dict of options, a dict a function reads key by key
    (``module:function.param``), ``cli`` or ``env``."""
    out: list[Surface] = []
    project = builder.project
    for name, (target, _docs) in wanted.items():
        if target == "discovered":
            continue  # the surface discovery finds under that name
        node = new_root()
        unresolved: list[Unresolved] = []
        if target in ("cli", "registered"):
            declared, dynamic = declared_options(builder)
            options = [o for o in declared if (o.model_kind == "named") == (target != "cli")]
            if not options:
                what = "command-line option" if target == "cli" else "key registered by name"
                raise ConfigError(f"surfaces.{name}: the code declares no {what}")
            mount_options(node, options, complete=options_complete(builder))
            unresolved = [Unresolved(where, DYNAMIC) for where in dynamic]
        elif target == "env":
            variables = environment_variables(project)
            if not variables:
                raise ConfigError(f"surfaces.{name}: the code reads no environment variable")
            mount_by_name(node, variables, ENVIRONMENT, "env")
        elif target == "settings":
            named = setting_reads(project)
            if not named:
                raise ConfigError(f"surfaces.{name}: the code reads no setting by name")
            mount_by_name(node, named, SETTINGS_OBJECT, "setting")
        else:
            module, _, qualname = target.partition(":")
            module = project.canonical(module) or module
            symbol = project.resolve(module, qualname) if module in project.modules else None
            kept = len(builder.mounts)
            scope = builder.dict_scope(module, qualname)
            if symbol is not None and builder.model(symbol) is not None:
                node = builder.model_root(symbol)
            elif symbol is None and scope is not None:
                # A dict read key by key (``options.get("retries", 3)``):
                # its reads, followed through the code, are its keys.
                reader = SchemaBuilder(project, builder.declared)
                reader.flow.fixed[scope] = ()
                reader.flow.mark({scope})
                reader.apply_reads(node)
                node.model = f"the dict {render_scope(scope)}"
                node.model_location = builder.scope_location(scope)
                if not node.children:
                    raise ConfigError(f"surfaces.{name} = {target!r}: the code reads no key of it")
            elif not builder.mount_dict(node, "", symbol):
                why = builder.unmountable(module, qualname, symbol)
                if why.endswith("(module:function.param)"):
                    why = (
                        f"{qualname} is not a model (pydantic, a dataclass, attrs) or a "
                        "module-level dict of options"
                    )
                raise ConfigError(f"surfaces.{name} = {target!r}: {why}")
            del builder.mounts[kept:]  # the primary's mounts only
        out.append(Surface(name, node, "configuration", unresolved, target))
    return out
