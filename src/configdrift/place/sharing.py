"""Sharing the docs between a project's surfaces: each doc entry and each
example block belongs to one surface, the one that accepts it (of several,
the one its section documents most)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from configdrift.extract.docs.facts import Block
from configdrift.model import CLI_KINDS, ConfigPath, DocEntry, DocSource, SchemaNode, resolve_path


class Placed(Protocol):
    """A surface with its docs placed (``analysis.Analysis``)."""

    schema: SchemaNode
    entries: list[DocEntry]
    doc_sources: list[DocSource]
    blocks: list[tuple[str, Block, ConfigPath]]
    documented_elsewhere: set[ConfigPath]
    pages_elsewhere: set[str]
    exemplified: bool
    other_examples: list[tuple[str, Block]]


def share(analyses: Sequence[Placed]) -> None:
    """Give each doc entry and example block to one surface.

    An entry belongs to the surface that accepts its key, of several the
    one that accepts most of its section's entries; one that none accepts,
    to the surface that accepts most of its section's entries (an option
    spelt ``--flag`` to the command line first), the first on a tie. An example block belongs to the
    surface that accepts most of its top-level keys."""
    if len(analyses) < 2:
        return

    def ident(entry: DocEntry) -> tuple[str, int, str]:
        return (entry.location.path, entry.location.line, entry.name)

    accepts: list[set[tuple[str, int, str]]] = []
    tally: dict[tuple[str, str], list[int]] = {}
    by_page: dict[str, list[int]] = {}
    for index, analysis in enumerate(analyses):
        known = {
            ident(e)
            for e in analysis.entries
            if resolve_path(analysis.schema, e.path)[0] is not None
        }
        accepts.append(known)
        for entry in analysis.entries:
            if ident(entry) in known:
                counts = tally.setdefault((entry.location.path, entry.section), [0] * len(analyses))
                counts[index] += 1
                by_page.setdefault(entry.location.path, [0] * len(analyses))[index] += 1
    cli = next((i for i, a in enumerate(analyses) if a.schema.model_kind in CLI_KINDS), None)

    def owner(entry: DocEntry) -> int:
        if cli is not None and entry.name.startswith("-"):
            return cli
        counts = tally.get((entry.location.path, entry.section))
        page = by_page.get(entry.location.path)
        if counts is None or page is None or max(counts) == 0:
            return -1
        return max(range(len(analyses)), key=lambda i: (counts[i], page[i], -i))

    placed: dict[tuple[str, int, str], list[int]] = {}
    for index, analysis in enumerate(analyses):
        for entry in analysis.entries:
            placed.setdefault(ident(entry), []).append(index)
    for index, analysis in enumerate(analyses):
        kept = []
        for entry in analysis.entries:
            key = ident(entry)
            if key in accepts[index]:
                # Several surfaces accept it: the one its section documents.
                counts = tally[(entry.location.path, entry.section)]
                page = by_page[entry.location.path]
                takers = [i for i in placed[key] if key in accepts[i]]
                if index == max(takers, key=lambda i: (counts[i], page[i], -i)):
                    kept.append(entry)
                else:
                    analysis.documented_elsewhere.add(entry.path)
                    analysis.pages_elsewhere.add(entry.location.path)
                continue
            if any(key in accepts[i] for i in placed[key]):
                continue  # another surface accepts it
            chosen = owner(entry)
            if chosen == index or (chosen == -1 and placed[key][0] == index):
                kept.append(entry)
        analysis.entries = kept
    for analysis in analyses:
        # A page is a doc source of the surfaces it documents entries of.
        per_page = Counter(e.location.path for e in analysis.entries)
        analysis.doc_sources = [
            DocSource(d.path, per_page[d.path], d.explicit)
            for d in analysis.doc_sources
            if per_page[d.path] or d.explicit
        ]
    fits: dict[tuple[str, int], list[int]] = {}
    for index, analysis in enumerate(analyses):
        for rel, block, base in analysis.blocks:
            fit = sum(
                1
                for k in block.keys
                if resolve_path(analysis.schema, (*base, *k.path))[0] is not None
            )
            fits.setdefault((rel, block.line), [-1] * len(analyses))[index] = fit
    for index, analysis in enumerate(analyses):
        kept_blocks: list[tuple[str, Block, ConfigPath]] = []
        for rel, block, base in analysis.blocks:
            scores = fits[(rel, block.line)]
            if scores.index(max(scores)) == index:
                kept_blocks.append((rel, block, base))
            elif analysis.exemplified and not base:
                # Another surface's to judge; for one its examples document,
                # it still sets the keys it sets.
                analysis.other_examples.append((rel, block))
        analysis.blocks = kept_blocks
