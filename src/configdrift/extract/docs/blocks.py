"""Key structure of JSON-like example blocks, read tolerantly.

Doc examples are rarely valid JSON: they hold comments, trailing commas,
``...`` ellipses, placeholders such as ``[true|false]`` and fragments such as
``"offload_param": {...}`` without the outer braces. The nesting of keys is
what the docs' structure needs, so this reader lexes strings, brackets, colons
and commas, and ignores everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from configdrift.model import LIST_ITEM

_OPEN = {"{": "}", "[": "]"}
_CLOSE = {"}", "]"}


#: What an example gives a key: a mapping, a list, a literal value, or a
#: placeholder (``[true|false]``, ``<int>``, ``"auto"``, ``...``) that stands
#: for a value and is never judged as one.
DICT, LIST, VALUE, PLACEHOLDER = "dict", "list", "value", "placeholder"


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


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
_CAPS_NAME = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+")


def _placeholder_text(text: str) -> bool:
    """Is a quoted string a stand-in rather than a value: ``"[cpu|nvme]"``,
    ``"<path>"``, ``"auto"``, ``"..."``, ``"$HOME"``, ``"YOUR_DIR"``, prose?"""
    t = text.strip()
    if not t or t.lower() == "auto" or t.startswith("$"):
        return True
    if "|" in t or "..." in t or "\u2026" in t or any(c.isspace() for c in t):
        return True
    return t[0] + t[-1] in ("<>", "[]", "{}") or bool(_CAPS_NAME.fullmatch(t))


def _scalar(tokens: list[tuple[str, str, int]]) -> tuple[str, Any]:
    """(kind, value) of the tokens that make up one value."""
    if len(tokens) != 1:
        return PLACEHOLDER, None
    kind, text, _ = tokens[0]
    if kind == "str":
        return (PLACEHOLDER, None) if _placeholder_text(text) else (VALUE, text)
    if text in _WORDS:
        return VALUE, _WORDS[text]
    if _JSON_NUMBER.fullmatch(text):
        number = float(text)
        if "." not in text and "e" not in text.lower():
            return VALUE, int(text)
        return VALUE, number
    return PLACEHOLDER, None


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, value, line offset) tokens: str, punct, word."""
    out: list[tuple[str, str, int]] = []
    i = 0
    line = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r":
            i += 1
        elif ch in "\"'":
            j = i + 1
            buf: list[str] = []
            while j < n and text[j] != ch and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n:
                    buf.append(text[j + 1])
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            out.append(("str", "".join(buf), line))
            i = j + 1
        elif (ch == "/" and text.startswith("//", i)) or ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif ch == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            end = n if j < 0 else j + 2
            line += text.count("\n", i, end)
            i = end
        elif ch in "{}[]:,=":
            out.append(("punct", ch, line))
            i += 1
        else:
            j = i
            while j < n and text[j] not in " \t\r\n\"'{}[]:,=":
                j += 1
            out.append(("word", text[i:j], line))
            i = j
    return out


def _is_placeholder_list(tokens: list[tuple[str, str, int]], start: int) -> int:
    """End index of a ``[a|b]`` placeholder starting at ``start``, or -1."""
    depth = 0
    for k in range(start, min(len(tokens), start + 64)):
        kind, value, _ = tokens[k]
        if kind == "punct" and value == "[":
            depth += 1
        elif kind == "punct" and value == "]":
            depth -= 1
            if depth == 0:
                inner = tokens[start + 1 : k]
                if any(t[0] == "word" and "|" in t[1] for t in inner) and not any(
                    t[0] == "punct" and t[1] in "{:" for t in inner
                ):
                    return k
                return -1
        elif kind == "punct" and value in "{:":
            return -1
    return -1


def _scalar_items(tokens: list[tuple[str, str, int]], start: int) -> list[Any] | None:
    """The items of a short list of literals (``[2, 3]``), or None."""
    items: list[Any] = []
    for k in range(start + 1, min(len(tokens), start + 66), 2):
        kind, value = _scalar(tokens[k : k + 1])
        if kind != VALUE:
            return None
        items.append(value)
        sep = tokens[k + 1] if k + 1 < len(tokens) else None
        if sep is None or sep[0] != "punct" or sep[1] not in ",]":
            return None
        if sep[1] == "]":
            return items
    return None


def _value_of(tokens: list[tuple[str, str, int]], start: int) -> tuple[str, Any]:
    """(kind, value) of the value that starts at ``tokens[start]``."""
    if start >= len(tokens):
        return PLACEHOLDER, None
    kind, text, _ = tokens[start]
    if kind == "punct" and text == "{":
        return DICT, None
    if kind == "punct" and text == "[":
        if _is_placeholder_list(tokens, start) >= 0:
            return PLACEHOLDER, None
        return LIST, _scalar_items(tokens, start)
    end = start
    while end < len(tokens) and end - start < 8:
        k, t, _ = tokens[end]
        if k == "punct" and t in ",}]":
            break
        if end > start and k in ("str", "word") and end + 1 < len(tokens):
            after = tokens[end + 1]
            if after[0] == "punct" and after[1] in ":=":
                break  # the next key, after a missing comma
        end += 1
    return _scalar(tokens[start:end])


def block_keys(text: str) -> list[BlockKey]:
    """Every key in a JSON-like block with its path and 0-based line offset.

    A fragment (``"a": {...}``) is read as if it were wrapped in braces, so its
    first key is at the top. List items add a ``[]`` segment.
    """
    tokens = _tokens(text)
    keys: list[BlockKey] = []
    # Stack of (container kind, key path of the container).
    stack: list[tuple[str, tuple[str, ...]]] = [("{", ())]
    pending: tuple[str, ...] | None = None
    i = 0
    while i < len(tokens):
        kind, value, line = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        container, base = stack[-1]
        # ``"key": value``, or ``"key"=value`` as docs sometimes write it.
        if (
            kind in ("str", "word")
            and nxt is not None
            and nxt[0] == "punct"
            and nxt[1] in ":="
            and container == "{"
        ):
            if kind == "word" and not value.replace("_", "").replace("-", "").isalnum():
                i += 2
                continue
            path = (*base, value)
            keys.append(BlockKey(path, line, *_value_of(tokens, i + 2)))
            pending = path
            i += 2
            continue
        if kind == "punct" and value == "[" and _is_placeholder_list(tokens, i) >= 0:
            i = _is_placeholder_list(tokens, i) + 1
            pending = None
            continue
        if kind == "punct" and value in _OPEN:
            if pending is not None and container == "{":
                path = pending
            else:
                path = (*base, LIST_ITEM) if container == "[" else base
            stack.append((value, path))
            pending = None
        elif kind == "punct" and value in _CLOSE:
            if len(stack) > 1:
                stack.pop()
            pending = None
        elif kind == "punct" and value == ",":
            pending = None
        i += 1
    return keys


def top_keys(keys: list[BlockKey]) -> list[str]:
    """The distinct keys at the top of a block, in order."""
    seen: list[str] = []
    for key in keys:
        if len(key.path) == 1 and key.path[0] not in seen:
            seen.append(key.path[0])
    return seen


def looks_like_config(text: str) -> bool:
    """True for a block that holds at least one ``"key":`` pair."""
    return bool(block_keys(text))
