"""What an example block yields, whatever its language: its keys, each with
a path from the block's top, a line, and what the block gives it.

The readers (``json_like``, ``yaml_block``, ``toml_block``) each return a
:class:`BlockRead`; ``blocks.read_block`` picks one by the fence language.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

#: What an example gives a key: a mapping, a list, a literal value, or a
#: placeholder (``[true|false]``, ``<int>``, ``"auto"``, ``...``) that stands
#: for a value and is never judged as one.
DICT, LIST, VALUE, PLACEHOLDER = "dict", "list", "value", "placeholder"

#: A list of literals longer than this is data: its values are not kept.
MAX_LIST_ITEMS = 64


@dataclass(frozen=True, slots=True)
class BlockKey:
    """A key of an example block: its path from the block's top, its line,
    and what the block gives it (``kind``, with ``value`` for a literal)."""

    path: tuple[str, ...]
    line: int
    kind: str = PLACEHOLDER
    value: Any = None

    def at(self, offset: int) -> BlockKey:
        """The same key with its line moved by ``offset``."""
        return BlockKey(self.path, self.line + offset, self.kind, self.value)

    def under(self, depth: int) -> BlockKey:
        """The same key seen from ``depth`` sections down its path."""
        return BlockKey(self.path[depth:], self.line, self.kind, self.value)


_CAPS_NAME = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+")


def placeholder_text(text: str) -> bool:
    """Is a quoted string a stand-in rather than a value: ``"[cpu|nvme]"``,
    ``"<path>"``, ``"auto"``, ``"..."``, ``"$HOME"``, ``"YOUR_DIR"``, prose,
    or the first word of one a command line's reader cut at a space or a
    pipe (``[fp8`` of ``[fp8 | bf16]``, ``<output``)?"""
    t = text.strip()
    if not t or t.lower() == "auto" or t.startswith("$"):
        return True
    if "|" in t or "..." in t or "\u2026" in t or any(c.isspace() for c in t):
        return True
    return t[0] in "<[{" or bool(_CAPS_NAME.fullmatch(t))


@dataclass(frozen=True, slots=True)
class BlockRead:
    """What a reader made of a block: its keys, and why it could not be read
    whole (``error``, at 0-based ``error_line``), if it could not."""

    keys: list[BlockKey]
    error: str | None = None
    error_line: int = 0


def top_keys(keys: list[BlockKey]) -> list[str]:
    """The distinct keys at the top of a block, in order."""
    seen: list[str] = []
    for key in keys:
        if len(key.path) == 1 and key.path[0] not in seen:
            seen.append(key.path[0])
    return seen


def literal_value(node: ast.expr) -> tuple[str, object]:
    """What a Python expression gives a key: a dict, a list (with its
    values when they are all literals), a literal, or a placeholder for
    what is not known statically."""
    if isinstance(node, ast.Dict):
        return DICT, None
    if isinstance(node, ast.List | ast.Tuple):
        items = [literal_value(item) for item in node.elts[:MAX_LIST_ITEMS]]
        if (
            node.elts
            and len(node.elts) <= MAX_LIST_ITEMS
            and all(kind == VALUE for kind, _ in items)
        ):
            return LIST, [value for _, value in items]
        return LIST, None
    if isinstance(node, ast.Constant) and isinstance(node.value, bool | int | float | str):
        return VALUE, node.value
    if isinstance(node, ast.Constant) and node.value is None:
        return VALUE, None
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int | float)
        and not isinstance(node.operand.value, bool)
    ):
        return VALUE, -node.operand.value
    return PLACEHOLDER, None  # a name, a call, an f-string: not known statically
