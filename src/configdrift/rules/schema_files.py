"""A JSON Schema shipped for a configuration that forbids the properties it
does not list (``additionalProperties: false``; ``place.schema_files``)
against the keys the code accepts there (CD103): an editor that validates
the config with the schema flags a key the code takes, and its users read
the schema as the list of keys there are."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import ANY_KEY, LIST_ITEM, Finding, Related, format_path, resolve_path
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def closed_schema_gaps(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each key the code accepts under an object of a shipped
    schema that forbids what it does not list, which it leaves out (a
    key the code hides or deprecates is not expected there)."""
    for closed in analysis.closed_schemas:
        node = resolve_path(analysis.schema, closed.path)[0]
        if node is None or ANY_KEY in node.children:
            continue
        for child in node.children.values():
            if child.key == LIST_ITEM or child.location is None:
                continue
            if child.deprecated or child.hidden:
                continue
            if closed.names & {child.key, *child.spellings}:
                continue
            key = format_path(child.path)
            yield make(
                "CD103",
                key,
                child.location,
                f"`{key}` is accepted by {node.model or 'the code'}, but {closed.rel}, which "
                "forbids the properties it does not list (additionalProperties: false), leaves "
                "it out: an editor that validates the config with the schema flags a valid key",
                (Related(closed.rel, closed.line, "the schema forbids other properties here"),),
            )
