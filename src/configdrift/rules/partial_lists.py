"""Lists of a configuration's keys that leave some out: a page whose
entries name nearly all of a surface's top-level keys (``LIST_SHARE``,
``LIST_LEAST`` at least) is a full list, meant to hold them all; a key
another page documents that this one lacks is undocumented there (a copy
of the settings list on a second page that was never updated). Shared by
CD103; a key no page documents is said by CD103 itself, once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import CLI_KINDS, Finding, Location, Related
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The share of a surface's top-level keys a page's entries must name to
#: be a full list of them, and the fewest.
LIST_SHARE = 0.9
LIST_LEAST = 10


def partial_lists(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each key a full list of a surface's keys leaves out that
    another page documents."""
    root = analysis.schema
    if root.model_kind in (*CLI_KINDS, "env"):
        return  # a command line's flags are spread over a page per command
    keys = [
        child
        for child in root.children.values()
        if child.location is not None and not (child.deprecated or child.hidden)
    ]
    if len(keys) < LIST_LEAST:
        return
    # By the path users write (a flag's ``--opt``, a field's name).
    paths = {child.path[-1] for child in keys}
    listed: dict[str, dict[str, int]] = {}
    for entry in analysis.entries:
        if len(entry.path) == 1 and entry.path[0] in paths:
            listed.setdefault(entry.location.path, {}).setdefault(
                entry.path[0], entry.location.line
            )
    where = {key: (page, line) for page, found in listed.items() for key, line in found.items()}
    # A schema that forbids what it does not list is judged as such.
    closed = {c.rel for c in analysis.closed_schemas if not c.path}
    for page, found in sorted(listed.items()):
        if len(found) < max(LIST_LEAST, LIST_SHARE * len(keys)) or page in closed:
            continue
        # Where a key belongs: after the key declared before it that the page lists.
        line = min(found.values())
        for child in keys:
            key = child.path[-1]
            if key in found:
                line = found[key]
                continue
            if key not in where:
                continue  # documented nowhere: CD103 says so itself
            other, other_line = where[key]
            assert child.location is not None
            yield make(
                "CD103",
                key,
                Location(page, line),
                f"`{key}` is accepted by {root.model or 'the code'} and documented at "
                f"{other}:{other_line}, but the list on {page}, which names {len(found)} of its "
                f"{len(keys)} keys, leaves it out",
                (
                    Related(child.location.path, child.location.line, "the code declares it"),
                    Related(other, other_line, "documented here"),
                ),
            )
