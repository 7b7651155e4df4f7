"""``configdrift map --settings``: the project's settings, each with every
spelling it has (config key, environment variable, flag), its declaration,
default, type and doc entry, and the evidence that links them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from configdrift.wording import counted

if TYPE_CHECKING:
    from collections.abc import Callable

    from configdrift.analysis import Analysis
    from configdrift.model import Location, Setting, Spelling

#: How a spelling's kind reads in the table.
_KINDS = {"key": "config key", "env": "variable", "flag": "flag"}


def settings_map(
    analysis: Analysis, where: Callable[[Location | None], str | None]
) -> list[dict[str, Any]]:
    """The settings with more than one spelling, as data."""
    from configdrift.link import settings_of

    return [_setting(setting, where) for setting in settings_of(analysis)]


def _setting(setting: Setting, where: Callable[[Location | None], str | None]) -> dict[str, Any]:
    from configdrift.escape import printable

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
    from configdrift.escape import printable

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


def settings_text(settings: list[dict[str, Any]], out: TextIO) -> None:
    """The settings as a table per setting: one row per spelling."""
    out.write(
        f"Settings (one setting, every spelling): {counted(len(settings), 'setting')} "
        "with more than one spelling\n"
    )
    for setting in settings:
        out.write(f"\n  {setting['name']}\n")
        rows = [
            (
                s["name"],
                f"{_KINDS[s['kind']]} ({s['surface']})",
                f"default {s['default']}" if s["default"] is not None else "no default",
                s["type"] or "",
                s["declared"] or "",
                f"documented at {s['doc']}" if s["doc"] else "undocumented",
            )
            for s in setting["spellings"]
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [cell.ljust(widths[i]) for i, cell in enumerate(row)]
            out.write("    " + "  ".join(cells).rstrip() + "\n")
        for link in setting["links"]:
            at = f" at {link['location']}" if link["location"] else ""
            out.write(f"    linked ({link['how']}): {link['why']}{at}\n")
