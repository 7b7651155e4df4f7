"""The table of a project's settings as data (``map --settings``, the HTML
report's settings view): each setting with every spelling it has (config
key, environment variable, flag), its declaration, default, type and doc
entry, and the evidence that links them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from configdrift.escape import printable
from configdrift.link import settings_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from configdrift.analysis import Analysis
    from configdrift.model import Location, Setting, Spelling


def settings_map(
    analysis: Analysis, where: Callable[[Location | None], str | None]
) -> list[dict[str, Any]]:
    """The settings with more than one spelling, as data (places as
    ``where`` writes them)."""
    return [_setting(setting, where) for setting in settings_of(analysis)]


def _setting(setting: Setting, where: Callable[[Location | None], str | None]) -> dict[str, Any]:
    index = {id(s): i for i, s in enumerate(setting.spellings)}
    return {
        "name": printable(setting.name),
        "spellings": [_spelling(s, where) for s in setting.spellings],
        "links": [
            {
                "how": link.how,
                "why": printable(link.why),
                "spellings": [index[id(link.a)], index[id(link.b)]],
                "location": where(link.location),
            }
            for link in setting.links
        ],
    }


def _spelling(spelling: Spelling, where: Callable[[Location | None], str | None]) -> dict[str, Any]:
    default = spelling.default
    choices = spelling.type.choices
    return {
        "kind": spelling.kind,
        "name": printable(spelling.name),
        "surface": printable(spelling.surface),
        "declared": where(spelling.location),
        "declared_by": printable(spelling.declared_by),
        "default": printable(default.text) if default is not None else None,
        "type": printable(spelling.type.text) or None,
        "choices": [printable(repr(c)) for c in choices] if choices is not None else None,
        "doc": where(spelling.doc),
        "doc_default": printable(spelling.doc_default) if spelling.doc_default else None,
    }
