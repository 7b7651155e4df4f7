"""The inputs of the GitHub Actions a project ships: ``action.yml`` (or
``action.yaml``) with ``runs:`` and ``inputs:``. Users set each input under
``with:`` in a workflow; the file gives its default (a string), whether it
is required and a deprecation message.
"""

from __future__ import annotations

import re
from pathlib import Path

from configdrift.extract.docs.block_model import PLACEHOLDER, VALUE, BlockKey
from configdrift.place.config_files import named_yaml
from configdrift.resolve.schema import ActionInputs

#: The names GitHub gives an action's metadata file.
NAMES = ("action.yml", "action.yaml")


def action_files(root: Path, configs: list[str]) -> list[ActionInputs]:
    """The inputs of each action file among the config candidates."""
    out: list[ActionInputs] = []
    for rel, text, read in named_yaml(root, configs, NAMES):
        if "runs" not in {key.path[0] for key in read.keys}:
            continue  # no action's metadata
        fields = {key.path[1:]: key for key in read.keys if len(key.path) == 3}
        # An input its description keeps for the action's own tests ("(Internal
        # use only)") is no setting of the users' (the reader keeps no prose:
        # the description's line is looked at).
        lines = text.splitlines()
        inputs = [
            key
            for key in read.keys
            if len(key.path) == 2
            and key.path[0] == "inputs"
            and not _internal(lines, fields.get((key.path[1], "description")))
        ]
        out.append(
            ActionInputs(
                rel,
                [_input(key, fields.get((key.path[1], "default"))) for key in inputs],
                frozenset(
                    key.path[1] for key in inputs if (key.path[1], "deprecationMessage") in fields
                ),
                # ``runs.env`` (a container's) or a composite step's ``env``.
                frozenset(
                    key.path[-1]
                    for key in read.keys
                    if key.path[0] == "runs" and len(key.path) >= 3 and key.path[-2] == "env"
                ),
            )
        )
    return out


#: A description that keeps an input for the action's own use.
_INTERNAL = re.compile(r"\binternal use\b|\binternal only\b", re.IGNORECASE)


def _internal(lines: list[str], description: BlockKey | None) -> bool:
    """Does an input's description (its first line) keep it for internal use?"""
    if description is None or not 0 <= description.line < len(lines):
        return False
    return _INTERNAL.search(lines[description.line]) is not None


def _input(key: BlockKey, default: BlockKey | None) -> BlockKey:
    """An input as a key of one part, at its line (1-based, as the file
    shows it), with its default where the file gives one as a string."""
    if default is not None and default.kind == VALUE:
        return BlockKey(key.path[1:], key.line + 1, VALUE, str(default.value))
    return BlockKey(key.path[1:], key.line + 1, PLACEHOLDER)
