"""Doc coverage: how much of each configuration surface the docs describe.

Two shares per surface, and per section of it (a top-level key with keys of
its own):

- *documented*: of the keys the schema accepts (the summary's "accepted"),
  those with a doc entry: every key but those CD103 reports and the keys
  under them (a section reported as undocumented leaves its fields
  undocumented too);
- *accepted*: of the doc entries (the summary's "documented"), those the
  code takes: every entry but those CD101 reports (a strict model rejects
  them) and those CD102 reports (the code never reads them; a key handed
  on where reads cannot be followed is not reported, so not counted).

The shares come from the rules' own judgement, whatever rules a
configuration selects, so that the figure and ``check`` agree on what is
missing. ``--fail-under`` holds a project to the documented share, as
interrogate does for docstrings; ``--badge`` writes it as an SVG badge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from configdrift.model import (
    COMPARED,
    EXEMPT,
    RENDERED,
    UNDOCUMENTED,
    Census,
    ConfigPath,
    Location,
    format_path,
)

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The section of a surface's keys that sit at its top level.
TOP_LEVEL = "(top level)"


@dataclass(slots=True)
class SectionCoverage:
    name: str
    accepted: int = 0
    documented: int = 0


@dataclass(slots=True)
class SurfaceCoverage:
    """One surface's coverage; ``undocumented`` and ``unaccepted`` name the
    keys that cost it."""

    name: str
    accepted: int
    documented: int
    entries: int
    #: Of ``documented``: keys a doc entry of their own describes, and keys
    #: a page renders from the code (the rest need no entry).
    compared: int = 0
    rendered: int = 0
    undocumented: list[str] = field(default_factory=list)
    #: What CD103 reports of ``undocumented`` (a section for its keys).
    reported: list[str] = field(default_factory=list)
    unaccepted: list[str] = field(default_factory=list)
    sections: list[SectionCoverage] = field(default_factory=list)

    @property
    def entries_accepted(self) -> int:
        return self.entries - len(self.unaccepted)


def share(part: int, whole: int) -> float:
    """``part`` of ``whole`` in percent; nothing to cover is fully covered."""
    return 100.0 * part / whole if whole else 100.0


def shown_share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as the text says it: a percentage, or ``n/a``
    when there is nothing to cover (never a 100% that reads as a pass)."""
    return f"{share(part, whole):.1f}%" if whole else "n/a"


def census(analysis: Analysis) -> Census:
    """The surface's census (``model.Census``), taken on first use."""
    if analysis.census is None:
        analysis.census = _take_census(analysis)
    return analysis.census


def _take_census(analysis: Analysis) -> Census:
    from configdrift.analysis import accepted_nodes, rendered_nodes
    from configdrift.rules.doc_gaps import prose_commands
    from configdrift.rules.docs_schema import documented_nodes, undocumented

    accepted = accepted_nodes(analysis)
    own, within = documented_nodes(analysis)
    rendered = {node.path for node in rendered_nodes(analysis)}
    by_key = {format_path(node.path): node for node in accepted}
    reported = tuple(f.key for f in undocumented(analysis))
    if analysis.entries or analysis.autodoc or analysis.generated or prose_commands(analysis):
        # A section reported whole stands for the keys under it; one the
        # docs describe keys under has those reported one by one.
        gaps = [by_key[key] for key in reported if key in by_key]
        whole = [gap.path for gap in gaps if id(gap) not in within]
        missing = {gap.path for gap in gaps} | {
            node.path for node in accepted if any(node.path[: len(w)] == w for w in whole)
        }
    else:
        missing = {node.path for node in accepted}  # no page documents the surface
    states: list[tuple[ConfigPath, str]] = []
    for node in accepted:
        if id(node) in own:
            state = COMPARED
        elif node.path in missing:
            state = UNDOCUMENTED
        elif node.path in rendered:
            state = RENDERED
        else:
            state = EXEMPT
        states.append((node.path, state))
    return Census(tuple(states), reported)


def surface_coverage(analysis: Analysis) -> SurfaceCoverage:
    """The coverage of one analysed surface."""
    from configdrift.analysis import accepted_nodes
    from configdrift.rules.code_view import documented_not_read
    from configdrift.rules.docs_schema import documented_not_accepted

    taken = census(analysis)
    accepted = accepted_nodes(analysis)
    missing = taken.paths(UNDOCUMENTED)
    gaps = set(missing)
    rejected = {
        f.key for rule in (documented_not_accepted, documented_not_read) for f in rule(analysis)
    }
    sections: dict[str, SectionCoverage] = {}
    if any(child.children for child in analysis.schema.children.values()):
        for node in accepted:
            top = node.path[0] if len(node.path) > 1 or node.children else TOP_LEVEL
            section = sections.setdefault(top, SectionCoverage(top))
            section.accepted += 1
            section.documented += node.path not in gaps
    return SurfaceCoverage(
        name=analysis.surface,
        accepted=len(taken.states),
        documented=taken.documented,
        entries=len(analysis.entries),
        compared=taken.count(COMPARED),
        rendered=taken.count(RENDERED),
        undocumented=sorted(format_path(path) for path in missing),
        reported=sorted(taken.reported),
        unaccepted=sorted(rejected),
        sections=sorted(sections.values(), key=lambda s: (s.name == TOP_LEVEL, s.name)),
    )


#: The reads shown per key in the key table.
READS_SHOWN = 5


def key_table(
    analysis: Analysis, coverage: SurfaceCoverage, where: Callable[[Location], str]
) -> list[dict[str, Any]]:
    """One surface's keys, documented, accepted and read, by section (as
    ``coverage`` groups them): for each key its doc entries, its
    declaration and its reads, each as ``where`` writes a place
    (``file:line``). A key the schema accepts with no place of its own is
    accepted without one (``""``); a key read through an attribute is read
    without one (``""``); ``None`` is no."""
    from configdrift.analysis import accepted_nodes
    from configdrift.rules.evidence import read_test

    seen = read_test(analysis)
    undocumented = set(coverage.undocumented)
    rejected = set(coverage.unaccepted)
    sectioned = bool(coverage.sections)
    rows: dict[str, dict[str, Any]] = {}

    def section(path: tuple[str, ...], has_children: bool) -> str:
        if not sectioned:
            return TOP_LEVEL
        return path[0] if len(path) > 1 or has_children else TOP_LEVEL

    for node in accepted_nodes(analysis):
        key = format_path(node.path)
        reads = list(dict.fromkeys(where(site.location) for site in node.reads))[:READS_SHOWN]
        rows[key] = {
            "key": key,
            "section": section(node.path, bool(node.children)),
            "documented": [],
            "described": key not in undocumented,
            "accepted": where(node.location) if node.location is not None else "",
            "read": reads or ([""] if seen(node) else []),
        }
    for entry in analysis.entries:
        key = format_path(entry.path)
        row = rows.get(key)
        if row is None:
            row = rows[key] = {
                "key": key,
                "section": section(entry.path, False),
                "documented": [],
                "described": True,
                "accepted": None if key in rejected else "",
                "read": [],
            }
        row["documented"].append(where(entry.location))
    return sorted(rows.values(), key=lambda r: (r["section"] == TOP_LEVEL, r["section"], r["key"]))


def project_coverage(analysis: Analysis) -> list[SurfaceCoverage]:
    """Each surface of a project that ``check``'s summary counts, unless it
    has neither keys nor entries (a tree with no configuration)."""
    from configdrift.analysis import summarised

    found = [surface_coverage(surface) for surface in summarised(analysis)]
    return [s for s in found if s.accepted or s.entries]


def total(surfaces: list[SurfaceCoverage]) -> float:
    """The documented share over every surface's accepted keys."""
    return share(sum(s.documented for s in surfaces), sum(s.accepted for s in surfaces))


def as_json(surface: SurfaceCoverage) -> dict[str, Any]:
    return {
        "name": surface.name,
        "accepted": surface.accepted,
        "documented": surface.documented,
        "documented_share": round(share(surface.documented, surface.accepted), 1),
        "compared": surface.compared,
        "rendered": surface.rendered,
        "entries": surface.entries,
        "entries_accepted": surface.entries_accepted,
        "accepted_share": round(share(surface.entries_accepted, surface.entries), 1),
        "undocumented": surface.undocumented,
        "reported": surface.reported,
        "unaccepted": surface.unaccepted,
        "sections": [
            {
                "name": s.name,
                "accepted": s.accepted,
                "documented": s.documented,
                "documented_share": round(share(s.documented, s.accepted), 1),
            }
            for s in surface.sections
        ],
    }


def text(surfaces: list[SurfaceCoverage], verbose: bool) -> str:
    """The coverage table of one project's surfaces."""
    lines: list[str] = []
    for surface in surfaces:
        spare = surface.documented - surface.compared - surface.rendered
        parts = [
            f"{surface.compared} compared",
            *([f"{surface.rendered} rendered at build time"] if surface.rendered else []),
            *([f"{spare} needing no entry"] if spare else []),
        ]
        breakdown = f": {', '.join(parts)}" if surface.documented else ""
        lines.append(
            f"{surface.name}: {surface.documented} of {surface.accepted} accepted keys documented "
            f"({shown_share(surface.documented, surface.accepted)}{breakdown}), "
            f"{surface.entries_accepted} of {surface.entries} doc entries accepted "
            f"({shown_share(surface.entries_accepted, surface.entries)})"
        )
        if surface.sections:
            width = max(len("section"), *(len(s.name) for s in surface.sections))
            lines.append(f"  {'section':<{width}}  accepted  documented   share")
            for s in surface.sections:
                lines.append(
                    f"  {s.name:<{width}}  {s.accepted:>8}  {s.documented:>10}  "
                    f"{shown_share(s.documented, s.accepted):>6}"
                )
        if verbose:
            reported = set(surface.reported)
            lines += [
                f"  undocumented: {key}"
                + ("" if key in reported else " (in a section reported whole)")
                for key in surface.undocumented
            ]
            lines += [f"  not accepted: {key}" for key in surface.unaccepted]
    return "\n".join(lines) + ("\n" if lines else "")


def badge(percent: float, label: str = "config docs") -> str:
    """An SVG badge of the documented share, in the flat style of
    shields.io (as interrogate's): green from 90%, yellow-green from 75%,
    yellow from 50%, red below."""
    value = f"{percent:.0f}%" if percent == int(percent) else f"{percent:.1f}%"
    colour = (
        "#4c1"
        if percent >= 90
        else "#a4a61d"
        if percent >= 75
        else "#dfb317"
        if percent >= 50
        else "#e05d44"
    )
    # About 6.5 pixels per character of Verdana 11, with 10 of padding.
    left = int(len(label) * 6.5) + 10
    right = int(len(value) * 6.5) + 10
    width = left + right
    label, value = escape(label), escape(value)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{label}: {value}">\n'
        f"  <title>{label}: {value}</title>\n"
        f'  <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" '
        f'stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>\n'
        f'  <clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>\n'
        f'  <g clip-path="url(#r)">\n'
        f'    <rect width="{left}" height="20" fill="#555"/>\n'
        f'    <rect x="{left}" width="{right}" height="20" fill="{colour}"/>\n'
        f'    <rect width="{width}" height="20" fill="url(#s)"/>\n'
        f"  </g>\n"
        f'  <g fill="#fff" text-anchor="middle" '
        f'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">\n'
        f'    <text x="{left / 2}" y="14">{label}</text>\n'
        f'    <text x="{left + right / 2}" y="14">{value}</text>\n'
        f"  </g>\n"
        f"</svg>\n"
    )
