"""What to tell a user when discovery found nothing to compare: what the
code holds (each surface, the models built from a whole dict), the pages
that name its keys, and the line of configuration that would compare them.
``configdrift init`` writes the same suggestions into pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from configdrift.discover import looks_like_reference
from configdrift.model import Finding
from configdrift.site_pages import built_pages
from configdrift.wording import counted, listed

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


#: What the setup message says when no page documents the configuration
#: (``check`` then says nothing more of what was compared).
NOTHING_COMPARED = "nothing was compared"


def shown(path: Path) -> str:
    """A path the user gave, printable whatever its bytes."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def where(root: Path) -> str:
    """A project's root as seen from the current directory."""
    from configdrift.output.display import prefix_for

    return shown(Path(prefix_for(root) or "."))


#: The source-empty findings that only say discovery found nothing to compare.
_SETUP_MESSAGES = ("no Markdown page documents", "no config model is mounted")


def setup_finding(finding: Finding) -> bool:
    return finding.code == "CD501" and finding.message.startswith(_SETUP_MESSAGES)


def unconfigured(analysis: Analysis) -> bool:
    """Did the user leave discovery to find the sources (no ``docs``,
    ``mount`` or ``surfaces``)? Configured sources that yield nothing stay
    CD501."""
    config = analysis.config
    return not (config.docs or config.mount or config.surfaces)


def setup_message(analysis: Analysis, path: Path) -> str:
    """What discovery found and did not, and how to go on: for each
    surface of the code, the pages that name its keys and the line of
    configuration that would compare them; the models built from a whole
    dict that ``mount`` could place."""
    shown = where(path)
    lines = [f"configdrift: found no documented configuration in {shown}: {NOTHING_COMPARED}."]
    found = [s for s in analysis.everything if s.schema.children]
    for surface in found:
        keys = len(surface.schema.children)
        what = surface.schema.model or surface.surface
        how = f"{surface.how}; " if surface.how and surface.how != what else ""
        lines.append(
            f"  in the code: {what} ({how}{counted(keys, 'top-level key')}), documented by no page read"
        )
        pages = naming_pages(analysis, surface)
        if not pages:
            lines.append(
                "    no page names three of its keys or more: document them, then name the page"
            )
            continue
        named = ", ".join(f"{page} ({hits} keys)" for page, hits in pages)
        lines.append(f"    pages that name its keys: {named}")
        best = toml_list([page for page, _ in pages[:1]])
        if surface is analysis:
            lines.append(f"    to compare them, in [tool.configdrift]: docs = {best}")
        elif surface.target:
            lines.append(
                "    to compare them, in [tool.configdrift]: "
                f'surfaces.{surface.surface} = {{mount = "{surface.target}", docs = {best}}}'
            )
    surfaced = {s.schema.model for s in analysis.everything}
    candidates = [c for c in analysis.root_candidates if c.model not in surfaced and c.target]
    if candidates:
        lines.append("  models built from a whole dict, not placed in the config tree:")
        for cand in candidates[:5]:
            lines.append(
                f'    [tool.configdrift.mount] "" = "{cand.target}"  '
                f"({cand.model} at {cand.location}, {cand.how})"
            )
    if not found and not candidates:
        lines.append(
            "  in the code: no model, dict read key by key, command-line option, "
            "settings class or environment variable"
        )
    lines.append(
        f"  next: `configdrift map {shown}` shows what was found; `configdrift init {shown}` "
        "writes it into pyproject.toml"
    )
    return "\n".join(lines) + "\n"


#: The most pages suggested for one surface, and the fewest keys a page
#: must name to be suggested.
_MAX_SUGGESTED, _MIN_NAMED = 3, 3


def naming_pages(
    analysis: Analysis, surface: Analysis, relative: bool = True
) -> list[tuple[str, int]]:
    """The doc pages that name most of the surface's distinctive keys
    (``max_retries``, ``--dry-run``, ``timeout_seconds``), best first;
    paths from the current directory, or from the root (``relative``
    False)."""
    import re

    from configdrift.discover import HISTORY_PAGES
    from configdrift.files import read_or_none
    from configdrift.output.display import prefix_for, rebase

    keys = {
        spelling
        for node in surface.schema.walk()
        if node.path
        for spelling in (node.spellings or (node.key,))
        if "_" in spelling.strip("_-") or "-" in spelling.strip("_-") or len(spelling) >= 8
    }
    if not keys:
        return []
    token = re.compile(r"[-\w]+")
    counted = []
    for rel in analysis.pages:
        if HISTORY_PAGES.search(rel) or rel.rsplit("/", 1)[-1] in _AGENT_PAGES:
            continue  # the record of changes, or instructions to a coding agent
        data = read_or_none(analysis.config.root, rel, 2 * 1024 * 1024)
        if data is None:
            continue
        words = set(token.findall(data.decode("utf-8", "replace")))
        hits = len(keys & words)
        if hits >= _MIN_NAMED:
            shown = rebase(rel, prefix_for(analysis.config.root)) if relative else rel
            counted.append((shown, hits))
    counted.sort(key=lambda item: (-item[1], item[0]))
    return counted[:_MAX_SUGGESTED]


#: Pages written for coding agents, not for the project's users.
_AGENT_PAGES = frozenset({"AGENTS.md", "CLAUDE.md", "GEMINI.md", "CONVENTIONS.md"})


def toml_list(items: list[str]) -> str:
    import json

    return "[" + ", ".join(json.dumps(item) for item in items) + "]"


def unread_pages(analysis: Analysis) -> list[tuple[str, str]]:
    """The doc pages that look like configuration references (by their
    path) and that no surface reads, each with the reason (the pages are
    doc pages, by their suffix, whatever their folder)."""
    placed = {
        location.path
        for surface in analysis.everything
        for location in (*surface.rendering, *surface.generated)
    } | {
        source.path
        for surface in analysis.everything
        for source in surface.doc_sources
        if source.entries
    }
    broken = {location.path: message for location, message in analysis.parse_errors}
    out: list[tuple[str, str]] = []
    for rel in analysis.pages:
        if rel in placed or not looks_like_reference(rel):
            continue
        count = analysis.page_entries.get(rel)
        if rel in broken:
            reason = f"could not be parsed: {broken[rel]}"
        elif count is None:
            reason = "not parsed: it names too few keys of any configuration"
        elif count == 0:
            reason = "no entry in a recognised form"
        else:
            entries = "1 entry, not" if count == 1 else f"{count} entries, none of them"
            reason = f"{entries} a key of a configuration found"
        out.append((rel, reason))
    return out


#: Unread reference pages holding this many entries in all make ``check``
#: say that their configuration was not compared.
UNREAD_ENTRIES = 5


def unread_note(analysis: Analysis) -> str | None:
    """What standard error says when pages that look like configuration
    references hold entries in a recognised form that name no key of any
    configuration found: a configuration the code holds in a way not
    followed, left uncompared."""
    unread = [
        (rel, count)
        for rel, _ in unread_pages(analysis)
        if (count := analysis.page_entries.get(rel, 0))
    ]
    total = sum(count for _, count in unread)
    if total < UNREAD_ENTRIES:
        return None
    named = listed([f"{rel} ({counted(count, 'entry', 'entries')})" for rel, count in unread])
    return (
        f"configdrift: {counted(total, 'entry', 'entries')} of pages that look like "
        f"configuration references name no key of a configuration found in the code: "
        f"{named}. Their configuration was not compared; "
        "`configdrift map --unread` lists the pages, and `mount` or `surfaces` in the "
        "configuration names what reads it."
    )


def built_note(root: Path) -> str | None:
    """What standard error says of reference pages built with the site."""
    pages = built_pages(root)
    if not pages:
        return None
    return (
        f"configdrift: {listed(pages)} {'is' if len(pages) == 1 else 'are'} in mkdocs.yml's nav but "
        "not in the tree: a page generated when the site is built is not compared."
    )
