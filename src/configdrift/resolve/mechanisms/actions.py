"""A GitHub Action's inputs: the ``inputs:`` of the ``action.yml`` a project
ships, each with its default. Users set them under ``with:`` in a workflow.

GitHub warns of an input the file lacks and goes on, and a step may read
anything it is handed: nothing is said of a key the file lacks.
"""

from __future__ import annotations

from configdrift.model import Location, SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.confuse import add_file_keys

#: What users set an action's inputs as, in a workflow's step.
SET_AS = "the action's inputs (`with:`)"


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each action whose inputs the docs name (three, and half of them)."""
    found: list[Surface] = []
    words = discovery.words()
    for action in discovery.builder.actions:
        root = SchemaNode(key="", path=(), strict=None, origin="root")
        root.model = SET_AS
        root.model_kind = "action"
        add_file_keys(root, action.rel, action.inputs)
        root.model_location = Location(action.rel, 1)
        for key in action.deprecated & root.children.keys():
            root.children[key].deprecated = True
        named = frozenset(key for key in root.children if key in words)
        if not discovery.claim(root, named):
            continue
        how = f"the inputs of the GitHub Action {action.rel}"
        surface = Surface(f"{action.rel} inputs", root, how, [], "")
        surface.admitted = "the docs name its inputs"
        found.append(surface)
    return found
