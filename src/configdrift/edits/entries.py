"""Where a doc entry sits on its page, and how a value is written there:
the block of lines an entry owns (a table row, a list item, paragraphs up
to the next entry, a reStructuredText directive), found with the page's
own parser, and a value in the notation of the default it replaces."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from configdrift.edits.pages import UNREAD, Edit, names_alone, page

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import DocEntry

_SCIENTIFIC = re.compile(r"^[+-]?\d+(?:\.\d+)?[eE][+-]?\d+$")


def render_like(written: str, value: object) -> str | None:
    """``value`` written in the notation of ``written`` (a documented
    default's core text, without backticks), or None when there is no safe
    way to write it."""
    quote = written[0] if len(written) >= 2 and written[0] == written[-1] in "\"'" else ""
    if isinstance(value, bool):
        word = "true" if value else "false"
        if written[:1].isupper() and written[1:].islower():
            return word.capitalize()
        return word if written.islower() else word.capitalize()
    if value is None:
        return "null" if written.lower() == "null" else "None"
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if _SCIENTIFIC.match(written) and value:
            exponent = math.floor(math.log10(abs(value)))
            mantissa = f"{value / 10**exponent:.6g}"
            text = f"{mantissa}e{exponent}"
            return text if float(text) == value else repr(value)
        if "_" in written and isinstance(value, int):
            return f"{value:_}"
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        if not value.isprintable() or any(c in value for c in "`|*<>"):
            return None  # it would end the code span, the cell or the emphasis
        if quote:
            if quote in value or "\\" in value:
                return None
            return f"{quote}{value}{quote}"
        return value if value.strip() == value and value else None
    return None


def entry_lines(analysis: Analysis, rel: str) -> list[int]:
    """The lines of a page that hold an entry, of any surface: the bounds of
    each entry's block."""
    return sorted(
        {e.location.line for s in analysis.everything for e in s.entries if e.location.path == rel}
    )


def entry_span(analysis: Analysis, entry: DocEntry, lines: int) -> range:
    """The lines from the entry to the next entry of the same page."""
    later = [n for n in entry_lines(analysis, entry.location.path) if n > entry.location.line]
    return range(entry.location.line, min([*later, lines + 1]))


#: Entry forms that title a section, and why such an entry is not deleted.
#: Entries that are a section's title, or its field line (``**Config File
#: Name:** `key` ``): the section is the entry.
TITLES = ("heading", "word", "section", "field")


TITLE = "the entry is a section's title: remove the section by hand"


def entry_removal(
    analysis: Analysis,
    entry: DocEntry,
    pages: dict[str, list[str] | None],
    code: str,
    key: str,
) -> Edit | str:
    """The deletion of a doc entry's block (its row, item, paragraphs or
    directive), or why there is none."""
    path = entry.location.path
    lines = page(analysis, pages, path)
    if lines is None:
        return UNREAD
    span = entry_block(analysis, entry, lines)
    if isinstance(span, str):
        return span
    first, end = span
    text = "".join(lines[first - 1 : end - 1])
    return Edit(path, first, text, "", code, key, count=end - first)


def entry_block(analysis: Analysis, entry: DocEntry, lines: list[str]) -> tuple[int, int] | str:
    """The lines [first, end) of a doc entry's block (its row, item,
    paragraphs or directive), or why it cannot be told from its neighbours."""
    path = entry.location.path
    if entry.form in TITLES:
        section = (
            markdown_block(lines, entry.location.line, entry.form, [], path)
            if entry.form == "heading" and not path.endswith(".rst")
            else None
        )
        if section is None:
            return TITLE
        # ``### `key` `` and what it holds, up to the next heading of its
        # level or above: the section is the entry.
        first, end = section
        others = [n for n in entry_lines(analysis, path) if n != entry.location.line]
        if any(first <= line < end for line in others):
            return "the entry's section holds another entry: remove it by hand"
        return first, end
    if not names_alone(lines[entry.location.line - 1], entry.name):
        # ``--ctr 0.25 --rcfg 1.0``: a command or a value, not the key's entry.
        return "the key is not written alone on the entry's line"
    others = [n for n in entry_lines(analysis, path) if n != entry.location.line]
    span: tuple[int, int] | None
    if path.endswith(".rst"):
        span = rst_block(lines, entry.location.line)
    else:
        span = markdown_block(lines, entry.location.line, entry.form, others, path)
    if span is None:
        return "the entry's block could not be told from its neighbours"
    first, end = span
    if any(first <= line < end for line in others):
        return "the entry's block holds another entry"
    return first, end


def markdown_block(
    lines: list[str], line: int, form: str, others: list[int], path: str
) -> tuple[int, int] | None:
    """The lines [first, end) of a Markdown entry's block (1-based)."""
    from configdrift.extract.docs.markdown_tokens import parser
    from configdrift.extract.docs.mdx import mdx_markdown

    text = "".join(lines)
    if path.endswith(".mdx"):
        text = mdx_markdown(text)
    tokens = parser().parse(text)
    if form == "heading":
        # A section: up to the next heading of its level or above.
        opening = [t for t in tokens if t.type == "heading_open" and t.map and t.map[0] == line - 1]
        if not opening or not lines[line - 1].lstrip(" ").startswith("#"):
            return None  # a setext heading (underlined) is left alone
        level = int(opening[0].tag[1:])
        later = [
            t.map[0] + 1
            for t in tokens
            if t.type == "heading_open"
            and t.map
            and t.map[0] + 1 > line
            and int(t.tag[1:]) <= level
        ]
        return line, min([*later, len(lines) + 1])
    if form == "table":
        rows = [t for t in tokens if t.type == "tr_open" and t.map and t.map[0] == line - 1]
        in_body = any(
            t.type == "tbody_open" and t.map and t.map[0] <= line - 1 < t.map[1] for t in tokens
        )
        return (line, line + 1) if rows and in_body else None
    items = [
        t
        for t in tokens
        if t.type == "list_item_open" and t.map and t.map[0] <= line - 1 < t.map[1]
    ]
    if items:
        item = items[-1]  # the innermost
        assert item.map is not None
        first, end = item.map[0] + 1, item.map[1] + 1
        # The blank lines after the item stay: after a list's last item they
        # keep what follows the list out of it.
        while end - 1 > first and not lines[end - 2].strip():
            end -= 1
        return first, end
    paragraphs = [
        t for t in tokens if t.type == "paragraph_open" and t.map and t.map[0] == line - 1
    ]
    if not paragraphs:
        return None
    # The entry's paragraph and what follows it up to the next entry, the
    # next heading or the end of the enclosing container.
    headings = [t.map[0] + 1 for t in tokens if t.type == "heading_open" and t.map]
    level = paragraphs[0].level
    closers = [t.map[0] + 1 for t in tokens if t.map and t.level < level and t.map[0] + 1 > line]
    bounds = [b for b in (*others, *headings, *closers) if b > line]
    end = min([*bounds, len(lines) + 1])
    return line, end


def rst_block(lines: list[str], line: int) -> tuple[int, int]:
    """The lines [first, end) of a reStructuredText directive or definition
    list item: its first line, its indented body and the blank lines after
    it (the language's own rule for where a body ends)."""
    head = lines[line - 1]
    indent = len(head) - len(head.lstrip(" "))
    end = line
    while end < len(lines):
        text = lines[end]
        if text.strip() and len(text) - len(text.lstrip(" ")) <= indent:
            break
        end += 1
    return line, end + 1
