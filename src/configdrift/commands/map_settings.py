"""``configdrift map --settings`` in text: each setting with more than
one spelling, a row per spelling (``link.table`` makes the data)."""

from __future__ import annotations

from typing import Any, TextIO

from configdrift.wording import counted

#: How a spelling's kind reads in the table.
_KINDS = {"key": "config key", "env": "variable", "flag": "flag"}


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
