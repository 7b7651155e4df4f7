"""The keys of TOML blocks (values from ``tomllib``) and of INI blocks
(configparser's syntax), each with the line it is written on."""

from __future__ import annotations

import re
from collections.abc import Iterator
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

#: ``[table]`` or ``[[array]]``, the name from its first character that is
#: no blank to its last (no lazy repetition before blanks).
_TOML_HEADER = re.compile(r"^\s*+\[\[?\s*+([^\]\s](?:[^\]]*[^\]\s])?)\s*+\]\]?\s*+(?:#.*)?$")


_TOML_KEY = re.compile(
    r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*="""
)


def _toml_parts(dotted: str) -> tuple[str, ...]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", dotted)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


#: configparser's syntax: ``setup.cfg``, ``tox.ini``, ``.coveragerc``.
INI_LANGS = frozenset({"ini", "cfg", "cfgparser", "dosini"})


def read_ini(text: str) -> BlockRead:
    """The keys of an INI block (``[section]`` and ``key = value``), read by
    configparser; lines from configparser's own section and option
    patterns. A key before any section, or a duplicate, is an error."""
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        line = getattr(exc, "lineno", 1) or 1
        return BlockRead([], f"invalid INI: {type(exc).__name__}", max(0, line - 1))
    keys: list[BlockKey] = []
    section = ""
    for number, line in enumerate(text.splitlines()[:100_000]):
        header = parser.SECTCRE.match(line)
        if header:
            section = header.group("header").strip()
            keys.append(BlockKey((section,), number))
            continue
        option = parser.OPTCRE.match(line) if not line[:1].isspace() else None
        if option and section and not line.lstrip().startswith(("#", ";")):
            keys.append(BlockKey((section, option.group("option").strip()), number))
    return BlockRead(keys)


def read_toml(text: str) -> BlockRead:
    """The keys of a TOML block: values from ``tomllib``, lines from the
    table headers and ``key =`` lines that start a statement."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        alternatives = _alternatives(text)
        if alternatives is not None:
            return BlockRead(alternatives)
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) - 1 if found else 0
        return BlockRead(_toml_keys(text, {}), f"invalid TOML: {exc}", line)
    return BlockRead(_toml_keys(text, data))


def _alternatives(text: str) -> list[BlockKey] | None:
    """The keys of a block that sets one key several times, each paragraph
    an alternative (``skip = "cp39-*"``, a blank line, ``skip = ["cp39-*",
    "cp310-*"]``): each paragraph read under the table it is in; None when
    a paragraph is no TOML of its own."""
    import tomllib

    keys: list[BlockKey] = []
    header = ""
    lines = text.splitlines()
    first = 0
    for end in [*_breaks(lines), len(lines)]:
        part = lines[first:end]
        statements = [line for line in part if line.strip() and not line.lstrip().startswith("#")]
        if statements:
            owned = _TOML_HEADER.match(statements[0]) is not None
            prefix = [] if owned or not header else [header]
            chunk = "\n".join([*prefix, *part])
            try:
                data = tomllib.loads(chunk)
            except tomllib.TOMLDecodeError:
                return None
            shift = first - len(prefix)
            keys.extend(k.at(shift) for k in _toml_keys(chunk, data) if k.line >= len(prefix))
            header = next((h for h in reversed(part) if _TOML_HEADER.match(h)), header)
        first = end
    return keys


def _breaks(lines: list[str]) -> Iterator[int]:
    """Where a block's alternatives begin: at a blank line, and at a
    comment that follows a statement."""
    for number in range(1, len(lines)):
        text = lines[number].strip()
        before = lines[number - 1].strip()
        if not text or (text[:1] == "#" and before and before[:1] != "#"):
            yield number


def _toml_keys(text: str, data: dict[str, Any]) -> list[BlockKey]:
    keys: list[BlockKey] = []
    table: tuple[str, ...] = ()
    items: dict[tuple[str, ...], int] = {}  # how many [[table]]s so far, by name
    open_value = ""  # inside a multi-line string or array
    for number, line in enumerate(text.splitlines()):
        if open_value:
            if open_value in ('"""', "'''"):
                if line.count(open_value) % 2:
                    open_value = ""
            elif line.count("[") < line.count("]") or line.rstrip().endswith("]"):
                open_value = ""
            continue
        header = _TOML_HEADER.match(line)
        if header:
            table = _toml_parts(header.group(1))
            keys.append(BlockKey(table, number, *_toml_value(_toml_lookup(data, table, items))))
            if "[[" in line.split("#", 1)[0]:
                items[table] = items.get(table, -1) + 1
                table = (*table, LIST_ITEM)
            continue
        found = _TOML_KEY.match(line)
        if not found:
            continue
        path = (*table, *_toml_parts(found.group(1)))
        keys.append(BlockKey(path, number, *_toml_value(_toml_lookup(data, path, items))))
        rest = line[found.end() :].split("#", 1)[0].strip()
        for quote in ('"""', "'''"):
            if rest.startswith(quote) and rest.count(quote) == 1:
                open_value = quote
        if rest.startswith("[") and rest.count("[") > rest.count("]"):
            open_value = "["
    return keys


_MISSING = object()


def _toml_lookup(data: Any, path: tuple[str, ...], items: dict[tuple[str, ...], int]) -> Any:
    """The value at ``path``; ``[]`` is the current item of an array of tables."""
    node = data
    for depth, part in enumerate(path):
        if part == LIST_ITEM:
            index = items.get(path[:depth], -1)
            node = (
                node[index]
                if isinstance(node, list) and -len(node) <= index < len(node)
                else _MISSING
            )
        elif isinstance(node, dict):
            node = node.get(part, _MISSING)
        else:
            return _MISSING
    return node


def _toml_value(value: Any) -> tuple[str, Any]:
    if isinstance(value, dict):
        return DICT, None
    if isinstance(value, list):
        if all(isinstance(v, bool | int | float | str) for v in value) and value:
            return LIST, list(value)
        return LIST, None
    if isinstance(value, bool | int | float):
        return VALUE, value
    if isinstance(value, str):
        return (PLACEHOLDER, None) if placeholder_text(value) else (VALUE, value)
    return PLACEHOLDER, None  # dates and times, or a key not found
