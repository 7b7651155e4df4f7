"""Rules about the sources themselves (CD501, CD503)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Finding, Location, Related
from configdrift.rules.doc_gaps import prose_commands
from configdrift.rules.registry import make, register

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


@register("CD501")
def source_empty(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A configured doc source (a file or pattern in ``docs``) that yields no
    key entries; no doc page documenting the schema's keys at all; or
    a code tree in which no model is mounted under any config path and
    no dict read key by key is the config (the docs decide which).

    Why it matters
    A check that reads nothing passes whatever the docs say. A guard that
    silently finds zero keys (a changed doc format, a moved file) is worse
    than no guard.

    Example
    ``docs = ["docs/config.md"]`` is configured, but the page was rewritten
    with a layout that has no recognised key entries.

    How to fix
    Point ``docs`` and ``code`` at the real sources, or write entries in a
    recognised form (``**key**: [type]``, a key table, a `` `key` `` list item).
    """
    config = analysis.config
    unmatched = [(p, "the doc source", "Markdown file") for p in analysis.missing_docs]
    unmatched += [(p, "the config-files pattern", "file") for p in analysis.missing_configs]
    for pattern, what, kind in unmatched:
        yield make("CD501", "", Location(pattern, 1), f"{what} `{pattern}` matches no {kind}")
    yield from _unread_sources(analysis)
    anchor = Location(_anchor(analysis), 1)
    documented = any(
        surface.doc_sources or surface.autodoc or prose_commands(surface)
        for surface in analysis.everything
    )
    if not documented and not analysis.missing_docs and analysis.schema.children:
        yield make(
            "CD501",
            "",
            anchor,
            # The wording is part of the fingerprint of a finding with no key:
            # kept as baselines have it (pages may be reStructuredText too).
            "no Markdown page documents this project's config keys; set `docs` to the config pages",
        )
    if not analysis.schema.children and not config.mount and not analysis.surfaces:
        yield make(
            "CD501",
            "",
            anchor,
            "no config model is mounted under a config path and no dict read key by key fits the docs; "
            "set `mount` to a model or to the dict parameter that holds the config",
        )


def _unread_sources(analysis: Analysis) -> Iterator[Finding]:
    """One finding for every configured page that yields no key, with the
    others as its related places: pages of one layout the markups do not
    read are one problem, not one error each."""
    # A page yields for the project when it feeds any surface (its entries,
    # or the reference a build renders there from the code), not for each
    # surface apart.
    from configdrift.place.pages import autodoc

    surfaces = analysis.everything
    yielding = {page for surface in surfaces for page in surface.pages_compared}
    yielding |= {
        rel
        for rel, doc in analysis.doc_facts.items()
        if any(autodoc(doc, surface.schema) for surface in surfaces)
    }
    empty = sorted(
        {
            s.path
            for surface in analysis.everything
            for s in surface.doc_sources
            if s.explicit and s.entries == 0 and s.path not in yielding
        }
    )
    if len(empty) == 1:
        yield make(
            "CD501",
            "",
            Location(empty[0], 1),
            f"the doc source `{empty[0]}` yields no config keys: no entry in a recognised form",
        )
    elif empty:
        related = tuple(Related(path, 1, "yields no config keys either") for path in empty[1:])
        yield make(
            "CD501",
            "",
            Location(empty[0], 1),
            f"{len(empty)} doc sources yield no config keys: no entry in a recognised form "
            f"(`{empty[0]}` and the {len(empty) - 1} listed below)",
            related,
        )


def _anchor(analysis: Analysis) -> str:
    source = analysis.config.source
    if source is not None:
        try:
            return source.resolve().relative_to(analysis.config.root.resolve()).as_posix()
        except ValueError:
            return source.name
    return "."


@register("CD503")
def parse_error(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A Python or Markdown file that could not be read: invalid syntax (Python
    2, a template), bytes that are not UTF-8, a file that cannot be opened.
    The rest of the project is still analysed.

    Why it matters
    Keys declared or documented in that file are invisible to every other
    rule, so its findings may be missing.

    Example
    ``setup_py2.py`` uses ``print "x"``: invalid Python 3 syntax.

    How to fix
    Fix the file, or exclude it with ``exclude`` in the configuration.
    """
    for location, message in analysis.parse_errors:
        yield make("CD503", "", location, f"{location.path} could not be parsed: {message}")
