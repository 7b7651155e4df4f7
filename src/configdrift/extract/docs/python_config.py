"""Python blocks that set options on a config object, as traitlets' config
files do (``c.ServerApp.port = 8888``, ``c.Spawner.env_keep.append("X")``):
each statement is a key ``(Class, option)`` of the block, with the value it
is given. The block is parsed with ``ast``, never run.
"""

from __future__ import annotations

import ast

from configdrift.extract.docs.block_model import (
    DICT,
    LIST,
    MAX_LIST_ITEMS,
    PLACEHOLDER,
    VALUE,
    BlockKey,
    BlockRead,
)

#: The name a config file's statements set options on.
CONFIG_OBJECT = "c"
#: The largest block parsed (a config file of a few thousand lines).
MAX_BYTES = 512 * 1024


def _option(target: ast.expr) -> tuple[str, str] | None:
    """``(Class, option)`` for ``c.Class.option``, else None."""
    if not isinstance(target, ast.Attribute):
        return None
    owner = target.value
    if (
        isinstance(owner, ast.Attribute)
        and isinstance(owner.value, ast.Name)
        and owner.value.id == CONFIG_OBJECT
        and owner.attr[:1].isupper()
    ):
        return owner.attr, target.attr
    return None


def _given(value: ast.expr) -> tuple[str, object]:
    """What the statement gives the option: its kind, and a literal's value."""
    if isinstance(value, ast.Dict):
        return DICT, None
    if isinstance(value, ast.List | ast.Tuple | ast.Set) and len(value.elts) > MAX_LIST_ITEMS:
        return LIST, None
    try:
        literal = ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return PLACEHOLDER, None
    if isinstance(literal, set):
        literal = sorted(literal, key=repr)  # a set's order is the hash's
    if isinstance(literal, list | tuple):
        items = list(literal)
        return (LIST, items) if all(_plain(i) for i in items) else (LIST, None)
    return (VALUE, literal) if _plain(literal) else (PLACEHOLDER, None)


def _plain(value: object) -> bool:
    """Is a literal one a config file can hold (and the cache can store)?
    ``...``, bytes and complex numbers stand for something else."""
    return value is None or isinstance(value, str | int | float | bool)


def read_config_statements(text: str) -> BlockRead | None:
    """The options a block of Python sets on ``c``, or None when it sets
    none (it is then read as any other Python block)."""
    if f"{CONFIG_OBJECT}." not in text or len(text) > MAX_BYTES:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    keys: list[BlockKey] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                found = _option(target)
                if found is not None:
                    kind, value = _given(node.value)
                    keys.append(BlockKey(found, node.lineno - 1, kind, value))
        elif isinstance(node, ast.AugAssign):
            found = _option(node.target)
            if found is not None:
                keys.append(BlockKey(found, node.lineno - 1, PLACEHOLDER))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # ``c.Spawner.env_keep.append("X")``, ``c.X.y.update({...})``.
            found = _option(node.func.value)
            if found is not None:
                keys.append(BlockKey(found, node.lineno - 1, PLACEHOLDER))
    if not keys:
        return None
    keys.sort(key=lambda k: k.line)
    # The block's tree: each class once, above its options.
    tops: list[BlockKey] = []
    seen: set[str] = set()
    for key in keys:
        if key.path[0] not in seen:
            seen.add(key.path[0])
            tops.append(BlockKey(key.path[:1], key.line, DICT))
    return BlockRead(sorted(tops + keys, key=lambda k: (k.line, len(k.path))))
