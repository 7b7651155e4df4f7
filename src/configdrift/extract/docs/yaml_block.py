"""The keys of YAML example blocks (and YAML config files), read safely:
composed into nodes by PyYAML's safe loader, never constructed into objects."""

from __future__ import annotations

import re
from typing import Any

from configdrift.extract.docs.block_model import (
    DICT,
    LIST,
    MAX_LIST_ITEMS,
    PLACEHOLDER,
    VALUE,
    BlockKey,
    BlockRead,
    placeholder_text,
)
from configdrift.model import LIST_ITEM

_YAML_SCALARS = {
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:str",
}


_YAML_CONTAINERS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


#: A YAML document with more nodes than this is data, not an example.
MAX_YAML_NODES = 100_000


_ELLIPSIS_LINE = re.compile(r"^[ \t]*(?:\.\.\.|\u2026)[ \t]*$", re.MULTILINE)


def read_yaml(text: str) -> BlockRead:
    """The keys of a YAML block, with lines and values, read safely.

    The block is composed into nodes, never constructed into objects: a
    custom tag (``!!python/object``, ``!Ref``) stays a tag, and its value is a
    placeholder. An alias is walked once, at its anchor, so an alias bomb
    costs no more than its text. Keys merged in with ``<<`` are not placed.
    """
    import yaml

    # A line that is only an ellipsis elides part of the example (and would
    # end the YAML document): it is blanked, keeping the lines in place.
    text = _ELLIPSIS_LINE.sub("", text)
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return BlockRead(
            _yaml_scanned_keys(text), f"invalid YAML: {problem}", mark.line if mark else 0
        )
    except (RecursionError, MemoryError):
        return BlockRead([], "invalid YAML: nested too deeply", 0)
    keys: list[BlockKey] = []
    seen: set[int] = set()
    for root in documents:
        if isinstance(root, yaml.MappingNode):
            _yaml_mapping(root, (), keys, seen, yaml.SafeLoader(""))
        elif isinstance(root, yaml.SequenceNode):
            # A list of mappings (a workflow's steps, ``- uses: ...``): their
            # keys under ``[]``.
            _yaml_mapping(root, (), keys, seen, yaml.SafeLoader(""))
    keys.sort(key=lambda k: k.line)
    return BlockRead(keys)


def _yaml_scanned_keys(text: str) -> list[BlockKey]:
    """The keys the scanner met before a YAML error, each as if at the top:
    enough to tell whether a broken block was meant as a config."""
    import yaml

    keys: list[BlockKey] = []
    expect_key = False
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, yaml.KeyToken):
                expect_key = True
            elif expect_key and isinstance(token, yaml.ScalarToken):
                keys.append(BlockKey((str(token.value),), token.start_mark.line))
                expect_key = False
            else:
                expect_key = False
    except (yaml.YAMLError, RecursionError, MemoryError):
        pass
    return keys


def _yaml_mapping(
    node: Any, base: tuple[str, ...], keys: list[BlockKey], seen: set[int], loader: Any
) -> None:
    import yaml

    # An explicit stack: nesting depth is the document's, not Python's.
    stack = [(node, base)]
    while stack and len(keys) < MAX_YAML_NODES:
        current, path = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        items: list[tuple[tuple[str, ...], Any, int]] = []
        if isinstance(current, yaml.MappingNode):
            for key_node, value_node in current.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                    continue
                items.append(((*path, str(key_node.value)), value_node, key_node.start_mark.line))
        else:  # a sequence: its mappings' keys sit under ``[]``
            for value_node in reversed(current.value):
                if value_node.tag in _YAML_CONTAINERS:
                    stack.append((value_node, (*path, LIST_ITEM)))
            continue
        for key_path, value_node, line in items:
            kind, value = _yaml_value(value_node, loader)
            keys.append(BlockKey(key_path, line, kind, value))
        # Depth first in document order: an anchor is walked where it is
        # defined, before any alias to it.
        for key_path, value_node, _ in reversed(items):
            if value_node.tag in _YAML_CONTAINERS:
                stack.append((value_node, key_path))


def _yaml_value(node: Any, loader: Any) -> tuple[str, Any]:
    import yaml

    if node.tag not in _YAML_SCALARS and node.tag not in _YAML_CONTAINERS:
        return PLACEHOLDER, None  # a custom tag: never constructed
    if isinstance(node, yaml.MappingNode):
        return DICT, None
    if isinstance(node, yaml.SequenceNode):
        items = node.value
        if len(items) == 1 and isinstance(items[0], yaml.ScalarNode) and "|" in items[0].value:
            return PLACEHOLDER, None  # [true|false]
        if not items or not all(
            isinstance(item, yaml.ScalarNode) for item in items[:MAX_LIST_ITEMS]
        ):
            return LIST, None
        scalars = [_yaml_value(item, loader) for item in items[:MAX_LIST_ITEMS]]
        if len(items) <= MAX_LIST_ITEMS and all(kind == VALUE for kind, _ in scalars):
            return LIST, [value for _, value in scalars]
        return LIST, None
    try:
        value = loader.construct_object(node)
    except (yaml.YAMLError, ValueError, OverflowError):
        return PLACEHOLDER, None
    if isinstance(value, str) and placeholder_text(value):
        return PLACEHOLDER, None
    return VALUE, value
