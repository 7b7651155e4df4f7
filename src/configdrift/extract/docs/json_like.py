"""Key structure of JSON-like example blocks, read tolerantly.

Doc examples are rarely valid JSON: they hold comments, trailing commas,
``...`` ellipses, placeholders such as ``[true|false]`` and fragments such as
``"offload_param": {...}`` without the outer braces. The nesting of keys is
what the docs' structure needs, so this reader lexes strings, brackets, colons
and commas, and ignores everything else. Python blocks are read the same way,
keeping the keys inside braces.
"""

from __future__ import annotations

import re
from typing import Any

from configdrift.extract.docs.block_model import (
    DICT,
    LIST,
    PLACEHOLDER,
    VALUE,
    BlockKey,
    BlockRead,
    placeholder_text,
)
from configdrift.model import LIST_ITEM

_OPEN = {"{": "}", "[": "]"}


_CLOSE = {"}", "]"}


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}


def _scalar(tokens: list[tuple[str, str, int]]) -> tuple[str, Any]:
    """(kind, value) of the tokens that make up one value."""
    if len(tokens) != 1:
        return PLACEHOLDER, None
    kind, text, _ = tokens[0]
    if kind == "str":
        return (PLACEHOLDER, None) if placeholder_text(text) else (VALUE, text)
    if text in _WORDS:
        return VALUE, _WORDS[text]
    if _JSON_NUMBER.fullmatch(text):
        if len(text) > MAX_NUMBER_DIGITS:
            return PLACEHOLDER, None  # too long to be a setting's value
        number = float(text)
        if "." not in text and "e" not in text.lower():
            return VALUE, int(text)
        return VALUE, number
    return PLACEHOLDER, None


def _unescaped(raw: str, quote: str, python: bool) -> str:
    """A quoted string's value, its escapes read as the block's language
    reads them (``"st\\u0061ge"`` is ``stage``): JSON's, Python's in a
    Python block; where neither reads it (``"C:\\dir"`` in a doc), each
    backslash stands for the character after it."""
    import json

    try:
        if python:
            import ast

            value = ast.literal_eval(quote + raw + quote)
            if isinstance(value, str):
                return value
        elif quote == '"':
            return str(json.loads('"' + raw + '"'))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    return re.sub(r"\\(.)", r"\1", raw)


def _tokens(text: str, python: bool = False) -> list[tuple[str, str, int]]:
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
            escaped = False
            while j < n and text[j] != ch and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] != "\n":
                    escaped = True
                    j += 2
                    continue
                j += 1
            raw = text[i + 1 : min(j, n)]
            out.append(("str", _unescaped(raw, ch, python) if escaped else raw, line))
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


#: No config nests this deep; past it, a block is data or damaged.
MAX_DEPTH = 100


#: Digits of a number literal read as a value; longer ones are not compared.
MAX_NUMBER_DIGITS = 100


def block_keys(text: str) -> list[BlockKey]:
    """Every key in a JSON-like block with its path and 0-based line offset.

    A fragment (``"a": {...}``) is read as if it were wrapped in braces, so its
    first key is at the top. List items add a ``[]`` segment.
    """
    return read_json_like(text).keys


def read_json_like(text: str, python: bool = False) -> BlockRead:
    """The keys of a JSON-like block, and the first bracket that does not
    match (a ``}`` closing a ``[``, a closer with no opener, an opener never
    closed): past it, where a key sits in the config is a guess.

    In ``python`` code a key is one inside braces: outside them, ``name =``,
    ``config=`` and ``for x in y:`` are statements and arguments, and the
    keys of ``ds_config = {...}`` are the block's top-level keys."""
    tokens = _tokens(text, python)
    keys: list[BlockKey] = []
    error: tuple[str, int] | None = None
    # Stack of (container kind, key path of the container, line).
    stack: list[tuple[str, tuple[str, ...], int]] = [("{", (), 0)]
    pending: tuple[str, ...] | None = None
    i = 0
    while i < len(tokens):
        kind, value, line = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        container, base, _ = stack[-1]
        # ``"key": value``, or ``"key"=value`` as docs sometimes write it.
        if (
            kind in ("str", "word")
            and nxt is not None
            and nxt[0] == "punct"
            and nxt[1] in ":="
            and container == "{"
        ):
            if (python and len(stack) == 1) or (
                kind == "word" and not value.replace("_", "").replace("-", "").isalnum()
            ):
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
            if len(stack) > MAX_DEPTH:
                error = (f"nested deeper than {MAX_DEPTH} levels", line)
                break
            stack.append((value, path, line))
            pending = None
        elif kind == "punct" and value in _CLOSE:
            if len(stack) > 1:
                if _OPEN[stack[-1][0]] != value and error is None:
                    error = (f"`{value}` closes a `{stack[-1][0]}`", line)
                stack.pop()
            elif error is None:
                error = (f"`{value}` has no opening bracket", line)
            pending = None
        elif kind == "punct" and value == ",":
            pending = None
        i += 1
    if error is None and len(stack) > 1:
        error = (f"the `{stack[-1][0]}` opened here is never closed", stack[-1][2])
    if error is None:
        return BlockRead(keys)
    return BlockRead(keys, error[0], error[1])
