"""TypedDict settings: the dicts a parameter or a global is annotated with.

A TypedDict only describes a dict to a type checker: the code reads it as
a dict (``settings.get("showSyntaxErrors", True)``, ``settings["path"]``).
Where the tree mounts a TypedDict, a parameter or a module's global
annotated with it (or with a TypedDict that extends it, as
``WorkspaceSettings(UserSettings)`` does) holds that node's keys, and its
reads are the node's reads. The keys only the extending TypedDict declares
(a workspace's ``cwd``, filled in by the code) are not the node's.
"""

from __future__ import annotations

from configdrift.model import ConfigPath, Location, SchemaNode, Surface
from configdrift.resolve.flow_graph import Scope, scope_of
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder

#: A dict scope annotated with a mounted TypedDict: the node's config path
#: and the keys only the annotation's extension declares.
Typed = tuple[ConfigPath, frozenset[str]]


def typed_dict_scopes(builder: SchemaBuilder, root: SchemaNode) -> dict[Scope, Typed]:
    """The dict scopes annotated with a TypedDict the tree mounts, each
    with the node's config path and the keys its extension adds."""
    mounted: dict[Location, ConfigPath] = {}
    for node in root.walk():
        if node.model_kind == "typeddict" and node.model_location is not None:
            mounted.setdefault(node.model_location, node.path)
    if not mounted:
        return {}
    project = builder.project
    out: dict[Scope, Typed] = {}
    for name in sorted(project.modules):
        facts = project.modules[name].facts
        typed_globals: dict[str, Typed] = {}
        for function, local, annotation in facts.local_types:
            path = _mounted_path(builder, project.resolve(name, annotation), mounted)
            if path is None:
                continue
            if function:
                out.setdefault(scope_of(function, local, name), path)
            else:
                typed_globals[local] = path
        if typed_globals:
            # A global is read inside functions: each reading function's
            # scope of the name holds the same dict.
            uses = [(r.function, r.source) for r in facts.dict_reads]
            uses += [(a.function, a.source) for a in facts.dict_args]
            for function, source in uses:
                typed = typed_globals.get(source.base)
                if typed is not None and not source.is_param:
                    out.setdefault(scope_of(function, source.base, name), typed)
    return out


def _mounted_path(
    builder: SchemaBuilder, symbol: Symbol | None, mounted: dict[Location, ConfigPath]
) -> Typed | None:
    """Where the tree mounts the TypedDict ``symbol`` or one it extends,
    and the keys ``symbol`` adds to the mounted one."""
    if symbol is None or symbol.kind != "class":
        return None
    info = builder.model(symbol)
    if info is None or info.kind != "typeddict":
        return None
    for ancestor in builder.project.mro(symbol):
        found = builder.model(ancestor) if ancestor.kind == "class" else None
        if found is not None and found.location in mounted:
            own = {fact.name for _, fact in found.fields}
            extra = frozenset(fact.name for _, fact in info.fields if fact.name not in own)
            return mounted[found.location], extra
    return None


def seed_typed_dicts(builder: SchemaBuilder, root: SchemaNode) -> None:
    """Make the dicts annotated with the TypedDicts ``root``'s tree mounts
    configuration of ``builder``'s flow, at their nodes' paths (the reads
    of keys only an extension declares set apart), beside the scopes its
    last ``mark`` started from."""
    typed = typed_dict_scopes(builder, root)
    if not typed:
        return
    for scope, (path, extra) in typed.items():
        builder.flow.fixed.setdefault(scope, path)
        if extra:
            builder.typed_extras[scope[:2]] = (path, extra)
    builder.flow.mark(builder.flow.seeds | set(typed))


def annotated(builder: SchemaBuilder) -> list[tuple[Symbol, Location]]:
    """The TypedDicts parameters or globals are annotated with, each with
    its first such place; an extension only where its base is not."""
    project = builder.project
    found: dict[Symbol, Location] = {}
    for name in sorted(project.modules):
        info = project.modules[name]
        for function, _local, annotation in info.facts.local_types:
            symbol = project.resolve(name, annotation)
            if symbol is None or symbol.kind != "class" or symbol in found:
                continue
            model = builder.model(symbol)
            if model is not None and model.kind == "typeddict":
                line = info.facts.function_lines.get(function, (1, 1))[0] if function else 1
                found[symbol] = Location(info.path, line)
    return [
        (symbol, where)
        for symbol, where in found.items()
        if not any(base in found for base in project.mro(symbol) if base != symbol)
    ]


def surfaces(discovery: Discovery) -> list[Surface]:
    """A TypedDict the code reads as a dict through annotated parameters
    or globals (an editor's settings, ``settings: UserSettings``), that the
    docs document and the root does not hold: a surface of its own."""
    builder = discovery.builder
    mounted = discovery.mounted()
    found: list[Surface] = []
    for symbol, where in annotated(builder):
        if symbol.qualname in mounted:
            continue
        node = builder.model_root(symbol)
        if not discovery.claim(node):
            continue
        # The reads of the dicts annotated with the TypedDicts it holds: a
        # flow of its own (the root's is not this one).
        reader = SchemaBuilder(builder.project, builder.declared)
        seed_typed_dicts(reader, node)
        reader.apply_reads(node)
        how = f"a TypedDict the code reads as a dict ({where.path}:{where.line})"
        found.append(Surface(symbol.qualname, node, how, [], symbol.target))
    return found
