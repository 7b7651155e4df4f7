"""A key deleted from an example config, with its value and its separator,
so that the example still reads as the same config without it: doc blocks
(JSON and its relatives, Python dicts, YAML, TOML, INI), config files, and
the dicts tests hand to a call. Every edited block is read again, as the
example rules read it, before the edit is kept.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections import Counter
from typing import TYPE_CHECKING

from configdrift.edits.entries import rst_block
from configdrift.edits.pages import UNREAD, Edit, page
from configdrift.model import ConfigPath

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.block_model import BlockKey
    from configdrift.extract.docs.facts import Block


_CONFIG_EXTENSIONS = {
    ".json": "json",
    ".jsonc": "json",
    ".json5": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
}


def _format(rel: str, lang: str) -> str | None:
    """How a block is written: json (and its relatives, JavaScript objects),
    python, yaml, toml or ini."""
    if rel.endswith(".py"):
        return "python"
    if lang == "file":
        suffix = rel[rel.rfind(".") :].lower() if "." in rel else ""
        return _CONFIG_EXTENSIONS.get(suffix)
    if lang in ("yaml", "yml"):
        return "yaml"
    if lang in ("toml", "ini", "cfg"):
        return "ini" if lang == "cfg" else lang
    if lang in ("python", "py"):
        return "python"
    return "json"


def example_removal(
    analysis: Analysis,
    pages: dict[str, list[str] | None],
    fences: Fences,
    rel: str,
    block: Block,
    bkey: BlockKey,
    key: str,
) -> Edit | str:
    """The deletion of a key, its value and its separator from an example."""
    lines = page(analysis, pages, rel)
    if lines is None:
        return UNREAD
    name = bkey.path[-1] if bkey.path else None
    form = _format(rel, block.lang)
    if not isinstance(name, str) or form is None:
        return "not a key this example's format can lose"
    region = _region(analysis, fences, rel, lines, bkey.line)
    if region is None:
        return "the example's block could not be found again"
    first, end = region
    text = "".join(lines[first - 1 : end - 1])
    index = bkey.line - first
    if form == "yaml":
        siblings = [k for k in block.keys if k.path[:-1] == bkey.path[:-1] and k.path != bkey.path]
        if len(bkey.path) > 1 and not siblings:
            # Without it, its parent would hold null rather than an empty table.
            return f"the only key of `{bkey.path[-2]}`: edit the example by hand"
        span = _yaml_removal(text, index, name)
    elif form in ("toml", "ini"):
        span = _assignment_removal(text, index, name, form)
    else:
        span = _json_removal(text, index, name, python=form == "python")
    if isinstance(span, str):
        return span
    start, stop, put = span
    after = text[:start] + put + text[stop:]
    why = _same_but(text, after, form, block.lang, bkey.path)
    if why is not None:
        return why
    # The lines the change spans, as one edit.
    top = text.count("\n", 0, start)
    bottom = text.count("\n", 0, max(start, stop - 1)) + 1
    old = "".join(lines[first - 1 + top : first - 1 + bottom])
    offset = sum(len(line) for line in lines[first - 1 : first - 1 + top])
    new = old[: start - offset] + put + old[stop - offset :]
    return Edit(rel, first + top, old, new, "sweep", key, count=bottom - top)


def _region(
    analysis: Analysis, fences: Fences, rel: str, lines: list[str], line: int
) -> tuple[int, int] | None:
    """The lines [first, end) of the block holding ``line``: a Markdown
    fence's content, a reStructuredText code block's body, or a whole file
    (a config file, a Python module)."""
    if rel not in analysis.pages:
        return 1, len(lines) + 1
    if rel.endswith((".rst", ".txt")):
        return _rst_region(lines, line)
    for start, close, _ in fences_of(fences, rel, lines):
        if start < line - 1 < close:
            closed = close - 1 > start and lines[close - 1].strip().startswith(
                lines[start].strip()[:3]
            )
            return start + 2, close if closed else close + 1
    return None


#: A Markdown page's fenced blocks, by page: (the fence's 0-based line, the
#: line after the block, its language).
Fences = dict[str, list[tuple[int, int, str]]]


def fences_of(fences: Fences, rel: str, lines: list[str]) -> list[tuple[int, int, str]]:
    """A Markdown page's fenced blocks, parsed once per page."""
    from configdrift.extract.docs.markdown_tokens import parser
    from configdrift.extract.docs.mdx import mdx_markdown

    if rel in fences:
        return fences[rel]
    text = "".join(lines)
    if rel.endswith(".mdx"):
        text = mdx_markdown(text)
    found = [
        (token.map[0], token.map[1], token.info.strip().split(" ")[0].lower())
        for token in parser().parse(text)
        if token.type == "fence" and token.map
    ]
    fences[rel] = found
    return found


_CODE_DIRECTIVE = re.compile(r"(?<!\s)\s*+\.\.\s++(?:code-block|sourcecode|code)::")


def _rst_region(lines: list[str], line: int) -> tuple[int, int] | None:
    """The content of the code block directive whose body holds ``line``."""
    indent = _indent(lines[line - 1])
    for number in range(line - 1, 0, -1):
        text = lines[number - 1]
        if not (text.strip() and _indent(text) < indent):
            continue
        if not _CODE_DIRECTIVE.match(text):
            if _indent(text) == 0:
                return None  # out of any directive
            continue
        _, end = rst_block(lines, number)
        if end <= line:
            return None
        start = number + 1
        while start < line and lines[start - 1].strip():  # the directive's options
            start += 1
        while end - 1 > start and not lines[end - 2].strip():
            end -= 1
        return start, end
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _same_but(before: str, after: str, form: str, lang: str, path: ConfigPath) -> str | None:
    """Why ``after`` is not ``before`` without the key at ``path`` and what
    sits under it, or None when it is exactly that."""
    from configdrift.extract.docs.blocks import read_block

    old_tree = python_module(before) if form == "python" else None
    if old_tree is not None:
        new_tree = python_module(after)
        if new_tree is None:
            return "the code would no longer parse"
        if not _one_key_less(old_tree, new_tree, path[-1]):
            return "the code would not read the same"
        return None
    # A config block or file, or a fragment of Python: read as the example
    # rules read it.
    reader = {"json": "json" if lang == "file" else lang, "python": "python"}.get(form, form)
    old = read_block(textwrap.dedent(before), reader)
    new = read_block(textwrap.dedent(after), reader)
    if new.error is not None and old.error is None:
        return "the example would no longer read whole"
    lost = Counter(k.path for k in old.keys) - Counter(k.path for k in new.keys)
    gained = Counter(k.path for k in new.keys) - Counter(k.path for k in old.keys)
    if gained or lost.get(path) != 1 or any(p[: len(path)] != path for p in lost):
        return "the example would not read the same without the key"
    return None


def python_module(text: str) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _one_key_less(before: ast.Module, after: ast.Module, name: str) -> bool:
    """Has exactly one ``name`` key of a dict literal gone from the module
    (with the keys of its value), and nothing come?"""

    def keys(tree: ast.Module) -> Counter[str]:
        found: Counter[str] = Counter()
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for k in node.keys:
                    if isinstance(k, ast.Constant) and isinstance(k.value, str):
                        found[k.value] += 1
        return found

    old, new = keys(before), keys(after)
    return not (new - old) and (old - new)[name] == 1


def _string_end(text: str, i: int, python: bool) -> int | None:
    """The offset after the string that opens at ``i``."""
    quote = text[i]
    if python and text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        return None if end < 0 else end + 3
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            return None
        j += 1
    return None


def _value_end(text: str, i: int, python: bool) -> int | None:
    """The offset after the value that starts at or after ``i``: a string,
    a bracketed value with its nesting, or a scalar up to its separator."""
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    start, depth = i, 0
    while i < n:
        c = text[i]
        if c in "\"'":
            end = _string_end(text, i, python)
            if end is None:
                return None
            i = end
            continue
        if (python and c == "#") or (not python and text.startswith("//", i)):
            if depth == 0:
                break
            i = text.find("\n", i)
            if i < 0:
                return None
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and c in ",\n":
            break
        i += 1
    if depth:
        return None
    while i > start and text[i - 1] in " \t\r":
        i -= 1
    return i if i > start else None


def _line_bounds(text: str, index: int) -> tuple[int, int] | None:
    """The offsets [start, end) of line ``index`` (0-based), end before its
    line break."""
    start = 0
    for _ in range(index):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    return start, len(text) if end < 0 else end


def _json_removal(text: str, index: int, name: str, python: bool) -> tuple[int, int, str] | str:
    """The span of ``"name": value`` and its separator on line ``index`` of a
    JSON-like or Python block: [start, stop) and what replaces it."""
    bounds = _line_bounds(text, index)
    if bounds is None:
        return "the key's line was not found again"
    line_start, line_end = bounds
    line = text[line_start:line_end]
    quoted = re.compile(rf"""(["']){re.escape(name)}\1\s*:""")
    found = list(quoted.finditer(line))
    if not found and not python:  # JavaScript, JSON5: a bare key
        found = list(re.finditer(rf"(?<![\w$.\"'-]){re.escape(name)}\s*:", line))
    if len(found) != 1:
        return "the key is not written once on its line"
    key_start = line_start + found[0].start()
    value_end = _value_end(text, line_start + found[0].end(), python)
    if value_end is None:
        return "the key's value could not be told from what follows"
    k = value_end
    while k < len(text) and text[k] in " \t":
        k += 1
    comma = k < len(text) and text[k] == ","
    if comma:
        k += 1
    j = k
    while j < len(text) and text[j] in " \t":
        j += 1
    comment = "#" if python else "//"
    at_end = j >= len(text) or text[j] in "\r\n" or text.startswith(comment, j)
    if not text[line_start:key_start].strip() and at_end:
        # The key has its own lines: they go whole.
        stop = text.find("\n", j)
        stop = len(text) if stop < 0 else stop + 1
        if comma:
            return line_start, stop, ""
        following = text[stop:].lstrip()
        if following[:1] not in ("}", ")", "]", ""):
            return "the key's value could not be told from what follows"
        p = line_start - 1
        while p >= 0 and text[p] in " \t\r\n":
            p -= 1
        if p >= 0 and text[p] == ",":
            # The last member: the one before it loses its comma.
            return p, stop, text[p + 1 : line_start]
        if p < 0 or text[p] in "{[(":
            return line_start, stop, ""
        return "the member before the key could not be told"
    if comma:
        if at_end:  # ``..., "key": 1,`` ending the line: its spaces go too
            while key_start > line_start and text[key_start - 1] in " \t":
                key_start -= 1
            return key_start, j, ""
        return key_start, j, ""
    p = key_start - 1
    while p >= 0 and text[p] in " \t\r\n":
        p -= 1
    if p >= 0 and text[p] == ",":
        return p, value_end, ""
    if p >= 0 and text[p] in "{[(":
        return key_start, value_end, ""
    return "the member before the key could not be told"


def _yaml_removal(text: str, index: int, name: str) -> tuple[int, int, str] | str:
    """The span of a YAML key's line and the lines indented under it."""
    bounds = _line_bounds(text, index)
    if bounds is None:
        return "the key's line was not found again"
    line_start, line_end = bounds
    line = text[line_start:line_end].rstrip("\r")
    head = re.match(rf"""^([ \t]*)(["']?){re.escape(name)}\2[ \t]*:(?:[ \t]|$)""", line)
    if head is None:
        if "{" in line:
            return _json_removal(text, index, name, python=False)
        return "the key is not a block mapping's key (a list item): edit it by hand"
    indent = len(head.group(1))
    lines = text[line_end:].split("\n")[1:] if line_end < len(text) else []
    stop = line_end + 1 if line_end < len(text) else line_end
    kept_blank = 0
    for more in lines:
        if more.strip() and _indent(more) <= indent:
            break
        if not more.strip():
            kept_blank += len(more) + 1
            continue
        stop += kept_blank + len(more) + 1
        kept_blank = 0
    return line_start, min(stop, len(text)), ""


def _assignment_removal(text: str, index: int, name: str, form: str) -> tuple[int, int, str] | str:
    """The span of a TOML or INI ``name = value`` and its continuation."""
    bounds = _line_bounds(text, index)
    if bounds is None:
        return "the key's line was not found again"
    line_start, line_end = bounds
    line = text[line_start:line_end]
    separators = "=" if form == "toml" else "=:"
    head = re.match(rf"""^[ \t]*(["']?){re.escape(name)}\1[ \t]*[{separators}]""", line)
    if head is None:
        return "the key is a table or a dotted key: edit it by hand"
    if form == "toml":
        end = _value_end(text, line_start + head.end(), python=True)
        if end is None:
            return "the key's value could not be told from what follows"
        stop = text.find("\n", end)
        return line_start, len(text) if stop < 0 else stop + 1, ""
    indent = _indent(line)
    stop = line_end + 1
    for more in text[stop:].split("\n"):
        if not more.strip() or _indent(more) <= indent:
            break
        stop += len(more) + 1
    return line_start, min(stop, len(text)), ""
