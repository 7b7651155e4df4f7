"""A GitHub Action's inputs: the ``inputs:`` of the ``action.yml`` a project
ships, each with its default. Users set them under ``with:`` in a workflow.

GitHub warns of an input the file lacks and goes on, and a step may read
anything it is handed: nothing is said of a key the file lacks.
"""

from __future__ import annotations

from configdrift.model import Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.data_files import file_root

#: What users set an action's inputs as, in a workflow's step.
SET_AS = "the action's inputs (`with:`)"
#: The inputs the docs must name of an action, and half of them: a step
#: that sets two under ``with:`` shows users set them.
LEAST = 2


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each action the project publishes (not one of its own workflows',
    under ``.github/``) whose inputs the docs name or set in a step's
    ``with:`` (two, and half of them)."""
    found: list[Surface] = []
    words = discovery.words() | set_with(discovery)
    for action in discovery.builder.actions:
        if action.rel.startswith(".github/"):
            continue  # the project's own CI, no user sets it
        root = file_root(action.rel, action.inputs)
        root.model, root.model_kind = SET_AS, "action"
        for key in action.deprecated & root.children.keys():
            root.children[key].deprecated = True
        named = frozenset(key for key in root.children if key in words)
        if not discovery.claim(root, named, LEAST):
            continue
        how = f"the inputs of the GitHub Action {action.rel}"
        surface = Surface(f"{action.rel} inputs", root, how, [], "")
        surface.admitted = "the docs name its inputs"
        found.append(surface)
    return found


def set_with(discovery: Discovery) -> frozenset[str]:
    """The keys the docs' examples set under a step's ``with:``: an
    action's inputs, as users write them."""
    return frozenset(key for page in discovery.page_keys() for key in page.set_under("with"))
