"""Short flags the docs leave out where they name the others and flags
declared apart from the documented one (CD103), and those an entry gives
an option that the parser gives another (CD101), and documented flags that
differ from an open parser's by a separator alone (CD102).

A page that gives most options' short forms (``-s``/``--sessions``,
``-k``/``--keywords``) has a convention: an option whose short form no
page names, though its long form is described, is a spelling users do
not learn of. The convention is the docs' own: three quarters at least of
the options that have a short form have it named; a command line whose
docs name few short forms says nothing of the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.index.spellings import separated
from configdrift.model import (
    BUILTIN,
    CLI_KINDS,
    DocEntry,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
)
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The share of the options with a short form whose short form the docs
#: must name for one never named to be left out.
NAMED_SHARE = 0.75


def is_short(spelling: str) -> bool:
    """Is it a short flag (``-x``, ``-db``), not a long one?"""
    return spelling.startswith("-") and not spelling.startswith("--") and len(spelling) > 1


def sole_owners(root: SchemaNode) -> dict[str, SchemaNode]:
    """Each spelling of the options of ``root`` that one option alone has:
    a flag two options have (two commands' ``-l``) names neither for
    certain."""
    owners: dict[str, list[SchemaNode]] = {}
    for child in root.children.values():
        for spelling in child.spellings:
            owners.setdefault(spelling, []).append(child)
    return {s: nodes[0] for s, nodes in owners.items() if len(nodes) == 1}


def unnamed_shorts(analysis: Analysis, entries: set[int]) -> Iterator[Finding]:
    """CD103 for the short flags no page names, of the options the docs
    describe (an entry, ``entries`` by node id, or a long form a page
    names), where the pages name the short forms of most options that
    have one."""
    from configdrift.rules.evidence import named_in_pages

    root = analysis.schema
    if root.model_kind not in CLI_KINDS or analysis.generated:
        return
    options: list[SchemaNode] = [
        node
        for node in root.children.values()
        if node.origin != BUILTIN
        and not (node.hidden or node.deprecated)
        and any(is_short(s) for s in node.current_spellings())
        and any(s.startswith("--") for s in node.spellings)
    ]
    named = named_in_pages(analysis, {s for n in options for s in n.spellings if is_short(s)})
    known = [n for n in options if named & set(n.spellings)]
    if len(known) < NAMED_SHARE * len(options):
        return
    unnamed = [n for n in options if n not in known and n.location is not None]
    longs = named_in_pages(analysis, {s for n in unnamed for s in n.spellings if s[:2] == "--"})
    owners = sole_owners(root)
    unnamed_ids = {id(n) for n in unnamed}
    for node in options:
        if node.location is None:
            continue
        if id(node) in unnamed_ids and id(node) not in entries and not longs & set(node.spellings):
            continue  # the option itself is undocumented: said of the option
        if id(node) not in unnamed_ids and not any(
            owners.get(s) is node for s in named & set(node.spellings)
        ):
            continue  # named by a short flag other options have too: not this one for certain
        # Each short form no page names (``-N`` of ``--no-reuse`` beside a
        # named ``-r``), the option's other spellings named or not; one its
        # declaration keeps out of the help (``-i`` beside
        # ``--no-incremental``) no page owes.
        long = "` or `".join(s for s in node.spellings if s.startswith("--"))
        for short in (s for s in node.current_spellings() if is_short(s) and s not in named):
            yield make(
                "CD103",
                short,
                node.location,
                f"`{short}` is accepted by {root.model or 'the parser'} as `{long}`, and the "
                f"docs name the short forms of {len(known)} of the {len(options)} options that "
                "have one, but no doc names this one",
                (),
            )


def misgiven_shorts(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for an entry that gives an option a short flag the parser
    gives another option (``-l, --confidence-level`` where ``-l`` is
    ``--level``'s): the short flag the docs teach sets something else."""
    root = analysis.schema
    if root.model_kind not in CLI_KINDS:
        return
    owner = sole_owners(root)
    groups: dict[tuple[str, int], list[str]] = {}
    for entry in analysis.entries:
        if entry.form == "help":
            groups.setdefault((entry.location.path, entry.location.line), []).append(entry.name)
    for (path, line), flags in sorted(groups.items()):
        longs = [f for f in flags if f.startswith("--")]
        node = owner.get(longs[0]) if len(longs) == 1 else None
        if node is None:
            continue
        for short in (f for f in flags if is_short(f) and f not in node.spellings):
            other = owner.get(short)
            if other is None:
                continue
            said = next((s for s in other.spellings if s.startswith("--")), short)
            at = other.location
            yield make(
                "CD101",
                longs[0],
                Location(path, line),
                f"the docs give `{longs[0]}` the short flag `{short}`, but the parser gives "
                f"`{short}` to `{said}`: `{short}` does not set `{longs[0]}`",
                (Related(at.path, at.line, f"`{short}` is declared here"),) if at else (),
            )


def flags_apart(analysis: Analysis, undocumented: set[str]) -> Iterator[Finding]:
    """A flag declared apart from the option's documented flag, with one
    destination (``--no-show-source`` beside ``--show-source``), that no
    page names: users can write it, and nothing tells them of it; so is
    one apart from an option ``undocumented`` (their keys) reports."""
    from configdrift.rules.evidence import named_in_pages

    root = analysis.schema
    if root.model_kind not in CLI_KINDS or analysis.generated:
        return
    entries = {e.name: e for e in analysis.entries}
    apart: dict[str, tuple[Location, DocEntry | None, SchemaNode]] = {}
    for node in root.children.values():
        sibling = next((entries[s] for s in node.spellings if s in entries), None)
        if sibling is None and format_path(node.path) not in undocumented:
            continue  # described some other way, or not judged
        for spelling, location in node.apart:
            if spelling not in entries:
                apart[spelling] = (location, sibling, node)
    named = named_in_pages(analysis, set(apart))
    for spelling, (location, sibling, node) in sorted(apart.items()):
        if spelling in named:
            continue
        if sibling is None:
            said = (
                f"declared apart from `{format_path(node.path)}` (one destination), which no "
                "doc describes either"
            )
        elif separated(spelling) == separated(sibling.name):
            said = (
                f"the docs name `{sibling.name}`, another flag to the parser though it differs "
                f"only by a separator, but no doc names `{spelling}`"
            )
        else:
            said = f"declared apart from `{sibling.name}` (one destination), but no doc names it"
        related = (
            ()
            if sibling is None
            else (
                Related(
                    sibling.location.path,
                    sibling.location.line,
                    f"`{sibling.name}` is documented here",
                ),
            )
        )
        yield make(
            "CD103",
            spelling,
            location,
            f"`{spelling}` is accepted by {root.model or 'the parser'}, {said}",
            related,
        )


def misseparated_flags(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for a documented long flag that differs from a flag of an
    open parser (one that leaves unknown arguments to others,
    ``parse_known_args``) by its separators alone (``--tab_width`` where it
    takes ``--tab-width``): argparse and click match a flag as written, so
    the documented one sets nothing. A strict parser's is CD101, as any
    unknown flag is."""
    root = analysis.schema
    if root.strict:
        return
    owner = sole_owners(root)
    declared = {separated(s): s for s in owner}
    for entry in analysis.entries:
        if not entry.name.startswith("--") or entry.name in owner:
            continue  # a short flag, a word (``bpm``), or the parser's own flag
        taken = declared.get(separated(entry.name))
        if taken is None:
            continue
        at = owner[taken].location
        yield make(
            "CD102",
            entry.name,
            entry.location,
            f"`{entry.name}` is documented, but the parser takes `{taken}`: a flag is matched "
            "as written, and following the docs sets nothing (or fails where the arguments "
            "are parsed strictly)",
            (Related(at.path, at.line, f"`{taken}` is declared here"),) if at else (),
        )
