"""A plain class whose attributes are a configuration: ``class Config:
backlog = 100; certfile: str | None = None ...``, filled by ``setattr``
from a file or a mapping, read as ``config.backlog``.

No library declares it; the docs say it is one. A class of ``MIN_FIELDS``
public attributes or more, each given a value in its body (its own and
its project bases') or a keyword its ``__init__`` takes with a default and
keeps as an attribute of the same name (``self.port = port``, uvicorn's
shape), that is no model of any kind nor derives from one,
and whose own values are mostly no calls of the project's classes (option
objects, ``IntParameter(default=60)``, whose calls hold the defaults),
is a surface where the pages that look like configuration references
document ``MIN_FIELDS`` of them and half (the evidence
``documented_models`` asks of a model), three where a loop fills it by
name behind ``hasattr`` (``ModuleFacts.attribute_fills``). Each
attribute is an option: its value is its default, its annotation (else its
value) its type. A plain object takes any attribute it is given, so
nothing is said of a documented key the class lacks, but where every
loop that fills it raises on a name it lacks.
"""

from __future__ import annotations

from dataclasses import replace

from configdrift.extract.python.exprs import assigned, computed
from configdrift.extract.python.facts import Expr
from configdrift.model import Location, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.documented_models import MIN_FIELDS
from configdrift.resolve.mechanisms.held_dicts import PAGE_MIN_KEYS
from configdrift.resolve.mechanisms.option_tables import table_option, table_root
from configdrift.resolve.mechanisms.section_classes import option_rows
from configdrift.resolve.project import Project, Symbol


def _attributes(
    project: Project, lineage: list[Symbol], filled: bool
) -> dict[str, tuple[str, int, Expr, Expr | None]]:
    """The public attributes a class and its project bases (``lineage``)
    give a value in their bodies (or a filled one's ``__init__``, a literal
    value), by name: module, line, value, annotation."""
    out: dict[str, tuple[str, int, Expr, Expr | None]] = {}
    for ancestor in reversed(lineage):
        fact = project.class_fact(ancestor)
        assert fact is not None
        initial = assigned(replace(fact, assigns=fact.init_values)) if filled else []
        for name, value, line in assigned(fact) + initial:
            if not name.startswith("_") and not computed(value):
                out[name] = (ancestor.module, line, value, None)
        for field in fact.fields:
            if not field.name.startswith("_") and field.value and not computed(field.value):
                out[field.name] = (ancestor.module, field.line, field.value, field.annotation)
        # ``def __init__(self, app, port: int = 8000): self.port = port``:
        # a keyword it takes and keeps as its attribute.
        for function, name, _, _, line in project.modules[ancestor.module].facts.attr_assigns:
            given = fact.init_defaults.get(name)
            if given is not None and function.rpartition(".")[0] == ancestor.qualname:
                annotation = fact.init_annotations.get(name)
                out.setdefault(name, (ancestor.module, line, given, annotation))
    return out


def _filled(project: Project) -> dict[Symbol, tuple[str, Location] | None]:
    """The classes a loop fills by name behind ``hasattr``, each with the
    function and line of one where every such loop raises on a name the
    class lacks: it is strict."""
    out: dict[Symbol, tuple[str, Location] | None] = {}
    for module, info in project.modules.items():
        for function, made, raises, line in info.facts.attribute_fills:
            owner = project.class_of(module, function) if made == "self" else None
            symbol = Symbol("class", module, owner) if owner else project.resolve(module, made)
            if symbol is not None:
                strict = raises and out.get(symbol, True) is not None
                out[symbol] = (function, project.location(module, line)) if strict else None
    return out


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each plain class the reference pages document ``MIN_FIELDS`` of
    the attributes of, and half."""
    if discovery.references is None:
        return []
    builder = discovery.builder
    project = builder.project
    names = discovery.references()
    filled = _filled(project)
    found: list[Surface] = []
    for symbol in project.class_symbols():
        lineage = [s for s in project.mro(symbol) if s.kind == "class"]
        if any(builder.model(ancestor) is not None for ancestor in lineage):
            continue  # a model's, or a subclass of one: its reader's
        attributes = _attributes(project, lineage, symbol in filled)
        if option_rows(builder, symbol) is not None:
            continue  # a class of option objects: their calls hold the defaults
        documented = len(attributes.keys() & names - discovery.taken)
        least = PAGE_MIN_KEYS if symbol in filled else MIN_FIELDS
        if documented < least or 2 * documented < len(attributes):
            continue
        fact = project.class_fact(symbol)
        assert fact is not None
        root, _, _ = table_root(builder, symbol.module, symbol.qualname, fact.line)
        root.strict = None  # a plain object takes any attribute
        if (fill := filled.get(symbol)) is not None:
            root.strict, root.strict_location = True, fill[1]
            root.strict_owner = f"the loop of `{fill[0]}` that fills it"
        root.model_kind = "attributes"
        for name, (owner, at, value, annotation) in sorted(attributes.items()):
            default, where = project.evaluate(owner, value), project.location(owner, at)
            node = root.children[name] = table_option((name,), default, where, symbol.qualname)
            typed = builder.type_facts(owner, annotation).info
            if typed.kinds:
                node.type = typed
        if discovery.claim(root, names):
            how = f"a class of {len(attributes)} attributes; its page documents {documented}"
            found.append(Surface(symbol.qualname, root, how, [], symbol.target))
    return found
