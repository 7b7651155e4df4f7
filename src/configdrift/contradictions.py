"""Where the user's configuration contradicts what discovery finds.

An explicit ``mount`` or ``sections`` entry wins over discovery, as it
should; but one written from a guess (the quick start steers a user to
write one) can make results worse with no word: a model mounted at the
top of a configuration that the code builds from another file, a section
sent to a path the docs' own structure contradicts, example blocks left
unplaced. The project is resolved a second time without those entries
(its facts come from the cache) and each contradiction becomes a note
that names the entry and its consequence. The configuration still wins.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from configdrift.model import Mount, format_path
from configdrift.place.entries import FOREIGN
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: How an explicit mount is told from discovery's (``Mount.how``).
CONFIGURED = "configuration"


def contradictions(analysis: Analysis, jobs: int | None = None, cache: bool = True) -> list[str]:
    """Notes for the explicit ``mount`` and ``sections`` entries that
    contradict what discovery finds without them."""
    config = analysis.config
    if not (config.mount or config.sections):
        return []
    from configdrift.engine import analyse

    plain = analyse(
        replace(config, mount={}, open_mounts={}, sections={}, surfaces={}),
        jobs=jobs,
        cache=cache,
    )
    notes = [*_mount_notes(analysis, plain), *_section_notes(analysis, plain)]
    placed = _placed(analysis)
    found = _placed(plain)
    if notes and found > placed:
        lost = found - placed
        blocks = counted(lost, "example block")
        verb = "is" if lost == 1 else "are"
        notes.append(
            f"configdrift: note: {blocks} that discovery places {verb} left unplaced "
            "with the configuration's entries above."
        )
    return notes


def _mounts(analysis: Analysis) -> list[tuple[str, Mount]]:
    return [(surface.surface, mount) for surface in analysis.everything for mount in surface.mounts]


def _where(surface: str, path: tuple[str, ...]) -> str:
    spot = f"`{format_path(path)}`" if path else "the top"
    return f"{spot} of the {surface} configuration"


def _mount_notes(analysis: Analysis, plain: Analysis) -> list[str]:
    config = analysis.config
    found = _mounts(plain)
    notes: list[str] = []
    for path_text, target in sorted(config.mount.items()):
        path = tuple(p for p in path_text.split(".") if p)
        mine = [
            (surface, m)
            for surface, m in _mounts(analysis)
            if m.how == CONFIGURED and m.path == path
        ]
        if not mine:
            continue
        surface, mount = mine[0]
        entry = f'mount "{path_text}" = "{target}"'
        elsewhere = [(s, m) for s, m in found if m.model == mount.model and m.path != path]
        if elsewhere:
            s, m = elsewhere[0]
            notes.append(
                f"configdrift: note: {entry} places {mount.model} at {_where(surface, path)}; "
                f"without it, discovery places it at {_where(s, m.path)}: {m.how}."
            )
            continue
        other = [
            (s, m) for s, m in found if s == surface and m.path == path and m.model != mount.model
        ]
        if other:
            s, m = other[0]
            notes.append(
                f"configdrift: note: {entry} replaces what discovery places at "
                f"{_where(s, path)}: {m.model} ({m.how}, {m.location.path}:{m.location.line})."
            )
    return notes


def _section_notes(analysis: Analysis, plain: Analysis) -> list[str]:
    config = analysis.config
    notes: list[str] = []
    for name, path_text in sorted(config.sections_of(None).items()):
        page, _, heading = name.rpartition("#")
        path = tuple(p for p in path_text.split(".") if p)
        for section in (s for surface in plain.everything for s in surface.sections):
            if section.title != heading or (page and section.location.path != page):
                continue
            if section.how == FOREIGN:
                continue  # another configuration's section there: judged elsewhere
            if section.path != path and section.model is not None:
                spot = f"`{format_path(section.path)}`" if section.path else "the top"
                why = f" ({section.how})" if section.how != "top level" else ""
                notes.append(
                    f'configdrift: note: sections "{name}" = "{path_text}" sends the section at '
                    f"{section.location.path}:{section.location.line} to "
                    f"`{format_path(path) or '(top level)'}`; discovery maps it to {spot} "
                    f"of {section.model}{why}."
                )
            break
    return notes


def _placed(analysis: Analysis) -> int:
    return sum(len(surface.blocks) for surface in analysis.everything)
