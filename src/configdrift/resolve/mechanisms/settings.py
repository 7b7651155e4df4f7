"""pydantic-settings: a settings class (built as ``Settings()``, from the
environment) as the configuration's root, or as a surface of its own."""

from __future__ import annotations

from collections.abc import Callable

from configdrift.model import Mount, SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.models import SETTINGS_BASES
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder


def settings_root(
    builder: SchemaBuilder, root: SchemaNode, doc_names: Callable[[], frozenset[str]]
) -> None:
    """A project whose configuration is a pydantic-settings class (built
    as ``Settings()``, from the environment) has it as the root: the
    settings class that no other one derives from or holds as a field; of
    several, the one most of whose fields the docs document (three at
    least, and no tie)."""
    leaves = settings_leaves(builder)
    how = "the project's one settings class"
    if len(leaves) > 1:

        def documented(symbol: Symbol) -> int:
            # A field counts by its name or as its variable (``env_prefix``).
            node = builder.model_root(symbol)
            return sum(
                1 for child in node.children.values() if doc_names() & {child.key, *child.spellings}
            )

        scored = sorted(((documented(s), s) for s in leaves), key=lambda i: i[0], reverse=True)
        if scored[0][0] < 3 or scored[0][0] == scored[1][0]:
            return
        leaves = [scored[0][1]]
        how = f"the settings class whose fields the docs name most ({scored[0][0]})"
    if leaves:
        fill_settings(builder, root, leaves[0], how)
        builder.primary = "settings"


def fill_settings(builder: SchemaBuilder, root: SchemaNode, chosen: Symbol, how: str) -> None:
    model = builder.model(chosen)
    assert model is not None
    builder.fill(root, chosen, direct=True)
    root.model_location = model.location
    builder.mounts.append(Mount((), chosen.qualname, model.location, how))


def settings_leaves(builder: SchemaBuilder) -> list[Symbol]:
    """The settings classes no other one derives from or holds as a field."""
    project = builder.project
    settings: list[Symbol] = []
    for symbol in project.class_symbols():
        if builder.model(symbol) is not None and project.inherits_external(symbol, SETTINGS_BASES):
            settings.append(symbol)
    inner: set[Symbol] = set()
    for symbol in settings:
        inner.update(s for s in project.mro(symbol)[1:] if s.kind == "class")
        model = builder.model(symbol)
        assert model is not None
        for module, fact in model.fields:
            inner.update(s for _, s in builder.type_facts(module, fact.annotation).models)
    return [s for s in settings if s not in inner]


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each settings class the docs document (an app may have one for
    itself and one for its server, ``UVICORN_``); one alone is named
    ``settings``."""
    builder = discovery.builder
    if not (builder.imported("pydantic_settings") or builder.imported("pydantic")):
        return []
    mounted = discovery.mounted()
    leaves = [s for s in settings_leaves(builder) if s.qualname not in mounted]
    how = "a settings class the docs document"
    if len(leaves) == 1:
        how = "the project's one settings class"
    found: list[Surface] = []
    for symbol in leaves:
        settings = builder.model_root(symbol)
        if discovery.claim(settings):
            found.append(Surface(symbol.qualname, settings, how, [], symbol.target))
    if len(found) == 1 and builder.primary != "settings":
        found[0].name = "settings"
    return found
