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


@dataclass(frozen=True, slots=True)
class BlockRead:
    """What a reader made of a block: its keys, and why it could not be read
    whole (``error``, at 0-based ``error_line``), if it could not."""

    keys: list[BlockKey]
    error: str | None = None
    error_line: int = 0


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


#: Languages whose blocks are configs by declaration: a block in one of them
#: that cannot be read whole is reported (CD304), not skipped silently.
STRICT_LANGS = frozenset({"json", "jsonc", "json5", "hjson", "yaml", "yml", "toml"})


def read_block(text: str, lang: str) -> BlockRead:
    """Read an example block by its fence language (JSON-like by default);
    a block no reader can take (nested past the interpreter's depth, a
    value too large) is an unreadable block, never an exception."""
    try:
        return _read_block(text, lang)
    except (RecursionError, MemoryError, ValueError) as exc:
        return BlockRead([], f"cannot be read: {_why(exc)}", 0)


def _why(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError):
        return "too large"
    return "a value out of range"


#: The largest YAML block or file read: composing YAML takes about two
#: hundred times its size and a second a hundred kilobytes.
MAX_YAML_BYTES = 256 * 1024


def _read_block(text: str, lang: str) -> BlockRead:
    if lang in ("yaml", "yml"):
        if len(text) > MAX_YAML_BYTES:
            return BlockRead([], f"cannot be read: larger than {MAX_YAML_BYTES >> 10} KiB", 0)
        return read_yaml(text)
    if lang == "toml":
        return read_toml(text)
    if lang in INI_LANGS:
        return read_ini(text)
    return read_json_like(text, python=lang in ("python", "py"))


def top_keys(keys: list[BlockKey]) -> list[str]:
    """The distinct keys at the top of a block, in order."""
    seen: list[str] = []
    for key in keys:
        if len(key.path) == 1 and key.path[0] not in seen:
            seen.append(key.path[0])
    return seen


# -- YAML ---------------------------------------------------------------------

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
    if isinstance(value, str) and _placeholder_text(value):
        return PLACEHOLDER, None
    return VALUE, value


# -- TOML ---------------------------------------------------------------------

_TOML_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
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
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) - 1 if found else 0
        return BlockRead(_toml_keys(text, {}), f"invalid TOML: {exc}", line)
    return BlockRead(_toml_keys(text, data))


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
        return (PLACEHOLDER, None) if _placeholder_text(value) else (VALUE, value)
    return PLACEHOLDER, None  # dates and times, or a key not found
