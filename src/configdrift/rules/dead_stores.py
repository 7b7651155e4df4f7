"""An environment variable the docs document that the code reads only to
keep its value on ``self`` under a name nothing reads (part of CD102):
``self.PIPENV_TIMEOUT = int(get_from_env("TIMEOUT", default=120))`` in a
settings class, and no ``.PIPENV_TIMEOUT`` anywhere. Setting the variable
does nothing.

Every read of the variable must keep its value so (``ModuleFacts`` keeps
the attribute on the read, ``stored``), and the attribute must be read
nowhere: no file of the project loads it (``project.s.PIPENV_TIMEOUT``,
``getattr(s, "PIPENV_TIMEOUT")``, ``self.PIPENV_TIMEOUT`` in any class,
its name in a comment or a string too), and no name ``getattr`` builds at
run time from an object that may be the class's may be it (``self`` in
the class or its line, a name typed as it or through which the code reads
its attributes, an object nothing spells; not ``getattr(req, name)`` of
another class's object, unless the code quotes the attribute's name).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import built_name_matches
from configdrift.model import Finding, Location, Related, SchemaNode
from configdrift.resolve.mechanisms.environment import variable_reads
from configdrift.rules.built_names import built_names, built_reads_of
from configdrift.rules.evidence import code_files, loaded_names, once, quoted_in
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def stored_unread(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for each documented variable read only into an attribute of
    ``self`` that nothing reads (see the module's docs)."""
    root = analysis.schema
    if root.model_kind != "env":
        return
    kept = once(analysis, "variables kept", lambda: _kept(analysis))
    for entry in analysis.entries:
        if len(entry.path) != 1 or entry.path[0] not in root.children:
            continue
        stores = kept.get(entry.path[0], [])
        attributes = {a for _, _, _, a in stores}
        if len(attributes) != 1 or None in attributes:
            continue  # a read that uses the value, or two attributes
        module, function, where, attribute = stores[0]
        if attribute is None or not _unread(analysis, module, function, attribute):
            continue
        yield make(
            "CD102",
            entry.path[0],
            entry.location,
            f"`{entry.path[0]}` is documented, but the code reads it only into "
            f"`self.{attribute}`, which nothing reads: setting it does nothing",
            (Related(where.path, where.line, f"the value is kept in `self.{attribute}`"),),
        )


def _kept(analysis: Analysis) -> dict[str, list[tuple[str, str, Location, str | None]]]:
    """Each variable's reads: (module, the function that reads it, where,
    the attribute of ``self`` its value is kept in, None where the read
    uses it otherwise)."""
    project = analysis.project
    calls = {
        (module, call.line): call
        for module, info in project.modules.items()
        for call in info.facts.registrations
        if call.method in ("env", "named_call")
    }
    out: dict[str, list[tuple[str, str, Location, str | None]]] = {}
    for variable, module, where, _ in variable_reads(project):
        call = calls.get((module, where.line))
        stored = call.kwargs.get("stored") if call is not None else None
        attribute = str(stored[1]) if stored is not None else None
        function = call.function if call is not None else ""
        out.setdefault(variable, []).append((module, function, where, attribute))
    return out


def _unread(analysis: Analysis, module: str, function: str, attribute: str) -> bool:
    """Does nothing read ``self.<attribute>``, kept by a read of
    ``function``: no file loads it through an object or ``self`` (a
    subclass's too), and no name ``getattr`` builds may be it?"""
    loaded = loaded_names(analysis)
    if attribute in loaded or f"self.{attribute}" in loaded:
        return False
    holder = _holder(analysis, module, function, attribute)
    if holder is None:
        built = [parts for _, _, parts, _ in built_names(analysis)]
        return not any(built_name_matches(parts, attribute) for parts in built)
    matched = [
        shown
        for parts, shown in built_reads_of(analysis, holder)
        if built_name_matches(parts, attribute)
    ]
    if any(matched):
        return False
    return not (matched and quoted_in(analysis, code_files(analysis), {attribute}))


def _holder(analysis: Analysis, module: str, function: str, attribute: str) -> SchemaNode | None:
    """The class whose method ``function`` keeps a read in ``self``, as a
    model of the attributes its methods keep so."""
    info = analysis.project.modules[module]
    owner = analysis.project.class_of(module, function)
    cls = info.classes.get(owner) if owner else None
    if cls is None:
        return None
    kept = {a for f, a, *_ in info.facts.attr_assigns if f.startswith(f"{owner}.")} | {attribute}
    children = {a: SchemaNode(key=a, path=(a,)) for a in kept}
    where = Location(info.path, cls.line)
    return SchemaNode(key="", path=(), model=owner, model_location=where, children=children)
