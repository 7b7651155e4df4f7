"""Key structure of JSON-like example blocks, read tolerantly.

Doc examples are rarely valid JSON: they hold comments, trailing commas,
``...`` ellipses, placeholders such as ``[true|false]`` and fragments such as
``"offload_param": {...}`` without the outer braces. The nesting of keys is
what the docs' structure needs, so this reader lexes strings, brackets, colons
and commas, and ignores everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

from configdrift.model import LIST_ITEM

_OPEN = {"{": "}", "[": "]"}
_CLOSE = {"}", "]"}


@dataclass(frozen=True, slots=True)
class BlockKey:
    """A key of an example block: its path from the block's top and its line."""

    path: tuple[str, ...]
    line: int


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
            keys.append(BlockKey(path, line))
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
