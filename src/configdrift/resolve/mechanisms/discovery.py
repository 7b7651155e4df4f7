"""The surfaces beside the root: each mechanism's candidates, claimed in
turn with the evidence that users write them (the docs document three of
their keys at least, keys no surface before holds)."""

from __future__ import annotations

from collections.abc import Callable

from configdrift.model import SchemaNode, Surface, Unresolved
from configdrift.resolve.defaults import defaults_root
from configdrift.resolve.mechanisms.descriptors import descriptor_surfaces
from configdrift.resolve.mechanisms.environment import environment_variables, mount_environment
from configdrift.resolve.mechanisms.option_tables import distinct_tables, option_tables
from configdrift.resolve.mechanisms.options import declared_options, mount_options, option_groups
from configdrift.resolve.mechanisms.settings import settings_leaves
from configdrift.resolve.mechanisms.settings_module import mount_settings, setting_reads
from configdrift.resolve.schema import DYNAMIC, MIN_OPTIONS, SchemaBuilder, new_root


def discover_surfaces(
    builder: SchemaBuilder,
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
    taken = {s for node in root.walk() if node is not root for s in node.spellings or (node.key,)}
    out: list[Surface] = []

    def claim(node: SchemaNode, evidence: frozenset[str] = names) -> bool:
        spelt = {s for n in node.walk() if n is not node for s in n.spellings or (n.key,)}
        fresh = (spelt & evidence) - taken
        if len(fresh) < MIN_OPTIONS:
            return False
        taken.update(spelt)
        return True

    if builder.imported("confuse"):
        defaults = defaults_root(builder.project, builder.defaults_files)
        words = doc_words() if doc_words is not None else names
        if defaults is not None and claim(defaults, words):
            files = [rel for rel, _ in builder.defaults_files]
            how = "confuse's defaults: " + (
                ", ".join(files) + " and config.add calls" if files else "config.add calls"
            )
            name = "config" if builder.primary != "config" else "defaults"
            out.append(Surface(name, defaults, how, [], ""))
    mounted = {node.model for node in root.walk() if node.model}
    for symbol, location in sorted(
        builder.loaded_models.items(), key=lambda i: (i[1].path, i[1].line)
    ):
        if symbol.qualname in mounted:
            continue
        node = builder.model_root(symbol)
        if claim(node):
            how = f"built from a loaded file's contents ({location.path}:{location.line})"
            target = f"{symbol.module}:{symbol.qualname}"
            out.append(Surface(symbol.qualname, node, how, [], target))
    if builder.imported("mkdocs") or builder.imported("traitlets"):
        for surface in descriptor_surfaces(builder):
            if claim(surface.root):
                out.append(surface)
    tables: list[tuple[int, int, Surface]] = []
    for surface in distinct_tables(option_tables(builder)):
        # A table of values is a configuration's only where the docs
        # describe half of its keys at least; the table they describe
        # most claims its keys first.
        keys = {n.key for n in surface.root.walk() if not n.children}
        if 2 * len(keys & names) >= len(keys):
            tables.append((-len(keys & names), len(tables), surface))
    for _, _, surface in sorted(tables, key=lambda t: t[:2]):
        if claim(surface.root):
            out.append(surface)
    if builder.imported("pydantic_settings") or builder.imported("pydantic"):
        # Each settings class the docs document is a surface: an app may
        # have one for itself and one for its server (``UVICORN_``).
        mounted = {node.model for node in root.walk() if node.model}
        leaves = [s for s in settings_leaves(builder) if s.qualname not in mounted]
        found: list[Surface] = []
        for symbol in leaves:
            settings = builder.model_root(symbol)
            if claim(settings):
                how = (
                    "the project's one settings class"
                    if len(leaves) == 1
                    else "a settings class the docs document"
                )
                target = f"{symbol.module}:{symbol.qualname}"
                found.append(Surface(symbol.qualname, settings, how, [], target))
        if len(found) == 1 and builder.primary != "settings":
            found[0].name = "settings"
        out.extend(found)
    for name, options in option_groups(builder):
        if name == builder.primary_options or len(options) < MIN_OPTIONS:
            continue
        # Keys registered by name (pytest's ini, Sphinx's conf.py, tox's
        # ``add_config``) are a file's; flags are the command line's.
        dynamic = declared_options(builder)[1]
        cli = new_root()
        mount_options(cli, options, complete=not dynamic)
        if claim(cli) or (generated and name == "cli"):
            unresolved = [Unresolved(where, DYNAMIC) for where in dynamic]
            how = (
                f"{len(options)} options declared with add_argument or @option"
                if name == "cli"
                else f"{len(options)} keys registered by name"
            )
            out.append(Surface(name, cli, how, unresolved, name))
    named = setting_reads(builder.project)
    if len(named) >= MIN_OPTIONS:
        node = new_root()
        mount_settings(node, named)
        if claim(node):
            how = f"{len(named)} settings read by name from a settings object"
            out.append(Surface("settings object", node, how, [], "settings"))
    if builder.primary != "env":
        variables = environment_variables(builder.project)
        if len(variables) >= MIN_OPTIONS:
            env = new_root()
            mount_environment(env, variables)
            if claim(env):
                how = f"{len(variables)} variables read with os.environ or os.getenv"
                out.append(Surface("env", env, how, [], "env"))
    return out
