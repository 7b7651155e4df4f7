"""What the pages and the code share that no surface compares: for each
page whose entries no surface reads, the code container (a model, a
module-level dict) that holds most of the keys it documents, with the line
of configuration that would compare them (``map --unread``).

A maintainer sees in one screen what discovery could not decide: the
evidence (how many of the page's keys the container holds, of how many)
and the ``surfaces`` line to write. Nothing here is judged: a pair is a
suggestion, made where the page and the container share three keys or
more and half of the page's, or five and half of the container's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.discover import HISTORY_PAGES
from configdrift.extract.docs.facts import NO_EVIDENCE_FORMS
from configdrift.index.spellings import normal
from configdrift.model import Location
from configdrift.resolve.project import Symbol

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The fewest keys a page and a container share to be paired.
MIN_SHARED = 3
#: The keys shared that pair a container half documented on a page that
#: documents more besides.
MANY_SHARED = 5
#: The most pairs shown.
MAX_PAIRS = 20


@dataclass(frozen=True, slots=True)
class Pair:
    """A page no surface reads and the container that holds its keys."""

    page: str
    entries: int
    container: str
    kind: str
    location: Location
    keys: int
    shared: int

    def configuration(self) -> str:
        """The line of ``[tool.configdrift]`` that would compare them."""
        name = self.container.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
        return f'surfaces.{name} = {{mount = "{self.container}", docs = ["{self.page}"]}}'


def _containers(analysis: Analysis) -> list[tuple[str, str, Location, frozenset[str]]]:
    """Every model and module-level dict of the project with the keys it
    holds, normalised, but those a surface already compares."""
    taken = {s.schema.model for s in analysis.everything if s.schema.model}
    taken |= {s.target for s in analysis.everything if s.target}
    out: list[tuple[str, str, Location, frozenset[str]]] = []
    project = analysis.project
    for module in sorted(project.modules):
        info = project.modules[module]
        for qualname in info.classes:
            model = analysis.code.model(Symbol("class", module, qualname))
            target = f"{module}:{qualname}"
            if model is None or qualname in taken or target in taken:
                continue
            keys = frozenset(normal(fact.name) for _, fact in model.fields)
            out.append((target, "model", model.location, keys))
        for name, lines in info.facts.dict_key_lines.items():
            target = f"{module}:{name}"
            if "." in name or name in taken or target in taken or not lines:
                continue
            keys = frozenset(normal(key) for key in lines)
            line = info.facts.assign_lines.get(name, min(lines.values()))
            out.append((target, "dict", Location(info.path, line), keys))
    return out


def unread_pairs(analysis: Analysis) -> list[Pair]:
    """The pages no surface reads, each with the container that holds most
    of its keys, best evidence first; a page two containers hold alike is
    left out (never guessed)."""
    read = {
        source.path
        for surface in analysis.everything
        for source in surface.doc_sources
        if source.entries
    }
    containers = _containers(analysis)
    if not containers:
        return []
    pairs: list[Pair] = []
    for rel in sorted(analysis.doc_facts):
        if rel in read or HISTORY_PAGES.search(rel):
            continue
        facts = analysis.doc_facts[rel]
        names = {
            normal(entry.parts[-1] if entry.parts else entry.name)
            for entry in facts.entries
            if entry.form not in NO_EVIDENCE_FORMS
        }
        if len(names) < MIN_SHARED:
            continue
        scored = sorted(
            (
                (len(names & keys), target, kind, location, len(keys))
                for target, kind, location, keys in containers
            ),
            key=lambda item: (-item[0], item[1]),
        )
        shared, target, kind, location, size = scored[0]
        tied = len(scored) > 1 and scored[1][0] == shared
        # Most of the page is the container's; or a container of many keys
        # is half documented there, in a page of other things besides.
        mostly = 2 * shared >= len(names) or (shared >= MANY_SHARED and 2 * shared >= size)
        if shared < MIN_SHARED or tied or not mostly:
            continue
        pairs.append(Pair(rel, len(names), target, kind, location, size, shared))
    pairs.sort(key=lambda p: (-p.shared, p.page))
    return pairs[:MAX_PAIRS]
