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
run time may be it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import built_name_matches
from configdrift.model import Finding, Location, Related
from configdrift.resolve.mechanisms.environment import variable_reads
from configdrift.rules.built_names import built_names
from configdrift.rules.evidence import loaded_names, once
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
        attributes = {a for _, _, a in stores}
        if len(attributes) != 1 or None in attributes:
            continue  # a read that uses the value, or two attributes
        _, where, attribute = stores[0]
        if attribute is None or not _unread(analysis, attribute):
            continue
        yield make(
            "CD102",
            entry.path[0],
            entry.location,
            f"`{entry.path[0]}` is documented, but the code reads it only into "
            f"`self.{attribute}`, which nothing reads: setting it does nothing",
            (Related(where.path, where.line, f"the value is kept in `self.{attribute}`"),),
        )


def _kept(analysis: Analysis) -> dict[str, list[tuple[str, Location, str | None]]]:
    """Each variable's reads: (module, where, the attribute of ``self`` its
    value is kept in, None where the read uses it otherwise)."""
    project = analysis.project
    calls = {
        (module, call.line): call
        for module, info in project.modules.items()
        for call in info.facts.registrations
        if call.method in ("env", "named_call")
    }
    out: dict[str, list[tuple[str, Location, str | None]]] = {}
    for variable, module, where, _ in variable_reads(project):
        call = calls.get((module, where.line))
        stored = call.kwargs.get("stored") if call is not None else None
        attribute = str(stored[1]) if stored is not None else None
        out.setdefault(variable, []).append((module, where, attribute))
    return out


def _unread(analysis: Analysis, attribute: str) -> bool:
    """Does nothing read ``self.<attribute>``: no file loads it through
    an object or ``self`` (a subclass's too), and no name ``getattr``
    builds may be it?"""
    loaded = loaded_names(analysis)
    if attribute in loaded or f"self.{attribute}" in loaded:
        return False
    return not any(built_name_matches(parts, attribute) for _, _, parts, _ in built_names(analysis))
