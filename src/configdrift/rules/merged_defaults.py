"""Defaults written a second time where the code merges what it is given
over them (CD106): ``self.config = {"linewrap": 80, ...}`` then
``self.config.update(kwargs)`` in a class, where the configuration's table
declares ``linewrap`` with ``79``. A configuration that leaves the key out
gets one default or the other by the code path.

A dict so merged is the configuration's where three of its keys at least
are the surface's top-level keys, and half of its keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Location, SchemaNode
from configdrift.rules.around_registry import fallback_differs

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The surface's keys a merged dict must hold to be its defaults.
MIN_SHARED = 3


def merged_defaults(analysis: Analysis) -> Iterator[tuple[SchemaNode, Location, str, str]]:
    """Each top-level key with a known default that a dict of defaults
    merged under given values sets to another literal (not ``None``, not
    both falsy, not a string against another type): (node, where, the
    value's text, the function)."""
    root = analysis.schema
    declared = {
        node.key: node
        for node in root.children.values()
        if not node.children and node.default is not None and node.default.value is not None
    }
    if len(declared) < MIN_SHARED:
        return
    project = analysis.project
    for module in sorted(project.modules):
        info = project.modules[module]
        for function, table, lines in info.facts.merged_defaults:
            keys = [(project.string(module, key), value) for key, value in table[1]]
            shared = {key for key, _ in keys if key in declared}
            if len(shared) < MIN_SHARED or 2 * len(shared) < len(keys):
                continue
            first = min(lines.values(), default=1)
            for key, expr in keys:
                if key is None or (node := declared.get(key)) is None:
                    continue
                value = project.evaluate(module, expr)
                assert node.default is not None
                if fallback_differs(value.value, node.default.value):
                    # A key named by a constant has no line of its own: the dict's.
                    where = Location(info.path, lines.get(key, first))
                    yield node, where, value.text, function
