"""Markdown's token stream (markdown-it-py, with GFM tables and MkDocs
admonitions) and what the walker asks of its tokens: a key emphasised or in
a code span, a table's cells, a heading's key, labels and macros, and the
guards that keep the parser linear on pages of markup characters."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

import re

from configdrift.extract.docs.entry_text import (
    KEY,
    LABEL,
    continued,
    ini_heading,
    key_ok,
    label_segments,
    lead_in,
    sentence_end,
    spelt_as_key,
)
from configdrift.extract.docs.entry_types import TYPED_REST, annotated_key, type_from_rest
from configdrift.extract.docs.heading_words import flag_title, noted_key
from configdrift.extract.docs.label_values import joined_terms, label_kind
from configdrift.extract.docs.prose_defaults import prose_default

# What may stand between the option spellings of one entry: `-u`, `--user`.
ALIAS_GLUE = re.compile(r"^\s*+(?:(?:,|/|\bor\b)\s*+)?$")


WRAPPER_TAGS = re.compile(r"^</?(i|em|b|strong|code|span)\b[^>]*>$", re.IGNORECASE)


_PARSER: MarkdownIt | None = None


def parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.admon import admon_plugin

        # MkDocs admonitions (``!!! note``, ``??? info``) hold Markdown,
        # indented: without the plugin, entries in them read as code.
        _PARSER = MarkdownIt("commonmark").enable("table").use(admon_plugin)
        # No link's address is read: they are kept as written, without the
        # percent-encoding and punycode normalisation (a tenth of a parse).
        # ``validateLink`` still refuses what it refuses in a browser.
        _PARSER.normalizeLink = _as_written  # type: ignore[method-assign]
    return _PARSER


def _as_written(url: str) -> str:
    return url


def strip_front_matter(text: str) -> str:
    """Blank out a YAML front matter block, keeping line numbers."""
    if not text.startswith("---"):
        return text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return text
    for i in range(1, min(len(lines), 200)):
        if lines[i].strip() in ("---", "..."):
            return "\n" * (i + 1) + "\n".join(lines[i + 1 :])
    return text


#: Words of a field label that names a configuration key: ``**Config File
#: Name:**``, ``**Option:**``, ``**Setting name:**``, ``**TOML key:**``.
_NAMING_WORDS = frozenset(
    {
        "config",
        "configuration",
        "file",
        "setting",
        "settings",
        "option",
        "key",
        "toml",
        "yaml",
        "ini",
        # ``**Python & Config File Name:**``: the name in code and in files.
        "python",
        "&",
        "and",
    }
)
_NAMED_BY = frozenset({"name", "key", "option", "setting"})


def field_label_key(children: list[Token]) -> str | None:
    """The key a field line names: ``**Config File Name:** `python-sources` ``
    (a strong label of naming words ending in a colon, then one code span,
    or one bare lowercase key, and nothing else: ``**Python & Config File
    Name:** virtual_env``). ``**Package name:** `x` `` and ``**Command
    line:** `--x` `` name no configuration key."""
    parts = [c for c in children if not (c.type == "text" and not c.content.strip())]
    if len(parts) != 4 or [c.type for c in parts[:3]] != ["strong_open", "text", "strong_close"]:
        return None
    label = parts[1].content.strip()
    if not label.endswith(":"):
        return None
    words = label[:-1].lower().split()
    if not words or len(words) > _LABEL_WORDS or words[-1] not in _NAMED_BY:
        return None
    if not set(words) <= _NAMING_WORDS | _NAMED_BY:
        return None
    key = parts[3].content.strip()
    if parts[3].type == "text" and _BARE_KEY.fullmatch(key) is None:
        return None
    if parts[3].type not in ("code_inline", "text"):
        return None
    return key if key_ok(key, strict_case=False) else None


def field_line(children: list[Token], first: list[Token]) -> tuple[str | None, int]:
    """The key a field line of the paragraph names (``field_label_key``),
    its first line (``first``) or one of its label lines after it (``**Type:**
    String``, then ``**Python & Config File Name:** virtual_env``), with
    the line's offset in the paragraph."""
    key = field_label_key(first)
    if key is not None:
        return key, 0
    line: list[Token] = []
    offset = 0
    for child in [*children, None][:MAX_FIELD_TOKENS]:
        if child is None or child.type in ("softbreak", "hardbreak"):
            if offset and (key := field_label_key(line)) is not None:
                return key, offset
            line = []
            offset += 1
        else:
            line.append(child)
    return None, 0


#: The tokens of a paragraph searched for a field line.
MAX_FIELD_TOKENS = 200


#: The most words of a field label that names a key.
_LABEL_WORDS = 5

#: A key written bare after a naming label: lowercase, ``_`` or ``-`` joined.
_BARE_KEY = re.compile(r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*")


def emphasised_key(children: list[Token], colon: bool = True) -> tuple[str, str, str] | None:
    """(key, rest of the first line, form) for a paragraph that opens with a
    key and a colon; without ``colon``, with a key and then prose (a table
    cell: ``<i>**min_loss_scale**</i> is a **fp16** parameter ...``)."""
    i = 0
    wrapped = 0
    html = False
    n = len(children)
    while i < n:
        tok = children[i]
        if tok.type in ("strong_open", "em_open"):
            wrapped += 1
        elif tok.type == "html_inline" and WRAPPER_TAGS.match(tok.content.strip()):
            html = True
        elif tok.type == "text" and not tok.content.strip():
            pass  # empty, or the em-spaces (&emsp;) that indent a nested row
        else:
            break
        i += 1
    if i >= n or (wrapped == 0 and not html):
        return None
    tok = children[i]
    if tok.type not in ("text", "code_inline"):
        return None
    key = tok.content.strip()
    i += 1
    while i < n and (
        children[i].type in ("strong_close", "em_close")
        or (children[i].type == "text" and not children[i].content)
        or (children[i].type == "html_inline" and WRAPPER_TAGS.match(children[i].content.strip()))
    ):
        i += 1
    rest = ""
    if i < n and children[i].type == "text":
        rest = children[i].content
    if not wrapped:
        return None
    # The type in parentheses may hold code and emphasis: ``**n** (`int`,
    # *optional*, defaults to 0) — ...`` (Hugging Face's docstrings).
    typed = "".join(c.content for c in children[i:] if c.type in ("text", "code_inline"))
    opens = rest.lstrip().startswith(":") or bool(colon and TYPED_REST.match(typed))
    rest = typed if opens and not rest.lstrip().startswith(":") else rest
    if colon != opens or (not colon and not rest[:1].isspace()):
        return None
    form = "html-bold" if html else ("bold-italic" if wrapped >= 2 else "bold")
    return key, rest, form


def flag_name(text: str) -> str:
    """An option spelt with its value (``--model MODEL``, ``--out=PATH``)
    is the option alone; a command line of several options (``--ctr 0.25
    --rcfg 1.0``) and any other text are kept as they are."""
    words = text.split()
    if text.startswith("-") and words:
        if sum(1 for w in words if OPTION_WORD.match(w)) > 1:
            return text
        return words[0].split("=", 1)[0]
    return text


OPTION_WORD = re.compile(r"^--?[A-Za-z]")


def code_keys(children: list[Token], annotated: bool = False) -> tuple[list[str], str] | None:
    """(keys, rest) for inline content that opens with one code span, or
    with option spellings joined by commas or slashes (`` `-u`, `--user` ``)."""
    items = [c for c in children if not (c.type == "text" and not c.content.strip())]
    if not items or items[0].type != "code_inline":
        return None
    # ``metric: str``: a key and its type, as Python annotates one.
    found = annotated_key(items[0].content) if annotated else None
    key, typed = found or (flag_name(items[0].content.strip()), "")
    keys = [key]
    idx = children.index(items[0])
    rest = ""
    while idx + 1 < len(children):
        nxt = children[idx + 1]
        if nxt.type != "text":
            break
        rest = nxt.content
        after = children[idx + 2] if idx + 2 < len(children) else None
        if (
            keys[0].startswith("-")
            and ALIAS_GLUE.match(rest)
            and after is not None
            and after.type == "code_inline"
            and after.content.strip().startswith("-")
        ):
            keys.append(flag_name(after.content.strip()))
            idx += 2
            rest = ""
            continue
        break
    return keys, (typed + rest.lstrip(" :") if typed else rest)


def table_cells(tokens: list[Token], start: int) -> tuple[list[list[Token]], list[int], int]:
    """Rows of a table as lists of inline tokens, their lines, and the index after it."""
    rows: list[list[Token]] = []
    lines: list[int] = []
    i = start + 1
    current: list[Token] | None = None
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            current = []
            lines.append((tok.map[0] + 1) if tok.map else 0)
        elif tok.type == "inline" and current is not None:
            current.append(tok)
        elif tok.type == "tr_close" and current is not None:
            rows.append(current)
            current = None
        i += 1
    return rows, lines, i + 1


def list_table_cells(content: str, first: int) -> tuple[list[list[Token]], list[int]]:
    """The rows of a MyST ``{list-table}`` (its body a list of rows, each a
    list of cells) as inline tokens with their lines, its (last) header
    row first; without ``:header-rows:``, the first row, which names the
    columns if any row does."""
    lines = content.splitlines()
    header_rows = 1
    start = 0
    while start < len(lines) and (lines[start].startswith(":") or not lines[start].strip()):
        option, _, value = lines[start].strip().partition(": ")
        if option == ":header-rows" and value.strip().isdigit():
            header_rows = int(value.strip())
        start += 1
    from markdown_it.token import Token as Cell

    tokens = parser().parse("\n".join(lines[start:]))
    rows: list[list[Token]] = []
    at: list[int] = []
    depth = 0
    cell: Token | None = None
    for tok in tokens:
        if tok.type == "bullet_list_open":
            depth += 1
        elif tok.type == "bullet_list_close":
            depth -= 1
        elif tok.type == "list_item_open" and depth == 1:
            rows.append([])
            at.append(first + start + (tok.map[0] if tok.map else 0))
        elif tok.type == "list_item_open" and depth == 2 and rows:
            cell = Cell("inline", "", 0, content="", children=[])
            rows[-1].append(cell)
        elif tok.type == "inline" and depth == 2 and rows and rows[-1] and cell is not None:
            # A cell's first paragraph is its text.
            rows[-1][-1] = tok
            cell = None
    skip = max(header_rows, 1) - 1
    return rows[skip:], at[skip:]


def plain_text(tok: Token) -> str:
    return tok.content.strip()


def header_text(tok: Token) -> str:
    """A header cell's words, without their emphasis (``**Variable**``)."""
    if not tok.children:
        return plain_text(tok)
    return "".join(c.content for c in tok.children if c.type in ("text", "code_inline")).strip()


def indent_of(children: list[Token]) -> int:
    """Nesting of a table row: em-spaces (``&emsp;``) before its key."""
    count = 0
    for child in children:
        if child.type == "text":
            if child.content.strip():
                break
            count += child.content.count("\u2003")
        elif child.type not in ("html_inline", "strong_open", "em_open"):
            break
    return count


def cell_key(tok: Token) -> tuple[str, str | None, int] | None:
    """(key, documented type, indent) for a key table's first cell."""
    raw = tok.children or []
    found = emphasised_key(raw)
    if found is not None:
        key = found[0].replace("\\_", "_")
        if key_ok(key, strict_case=False):
            return key, type_from_rest(found[1]), indent_of(raw)
    children = [c for c in raw if not (c.type == "text" and not c.content.strip())]
    if len(children) == 1 and children[0].type in ("code_inline", "text"):
        text = flag_name(children[0].content.strip())
        text = text.replace("\\_", "_")
        # A capitalised word in a key table is prose, unless it is spelt as
        # a constant (``MOTD``, ``TIMEOUT``).
        plain = children[0].type == "text" and not (text.isupper() and len(text) > 1)
        if key_ok(text, strict_case=plain):
            return text, None, 0
    codes = code_keys(raw)
    if codes is not None and len(codes[0]) > 1 and not codes[1].strip():
        # ``--jobs``, ``-j``: an option's spellings, the long one names it.
        longs = [key for key in codes[0] if key.startswith("--")]
        return (longs or codes[0])[0], None, 0
    return None


#: Leading icon shortcodes of a heading (``:material-toggle-switch:``).
SHORTCODES = re.compile(r"^(?:\s*:[\w+-]+:)*\s*$")


#: A trailing attribute list (``{ #enabled }``, ``{: #ADMINS }``).
ATTR_LIST = re.compile(r"(?<!\s)\s*+\{:?\s*+[#.][^{}]*+\}\s*+$")


def anchor_only(tokens: list[Token]) -> bool:
    """Is a line only HTML tags and an anchor's ``#`` or ``¶``?"""
    return (
        bool(tokens)
        and all(
            t.type == "html_inline"
            or (t.type == "text" and t.content.strip() in ("", "#", "\u00b6"))
            for t in tokens
        )
        and any(t.type == "html_inline" for t in tokens)
    )


def heading_core(children: list[Token]) -> list[Token]:
    """A heading's inline tokens without leading icons or HTML comments,
    without a trailing attribute list, and out of the emphasis that wraps
    it whole (``### **auto_cast**``)."""
    items = list(children)
    while items and (
        (items[0].type == "text" and SHORTCODES.match(items[0].content))
        or (items[0].type == "html_inline" and items[0].content.startswith("<!--"))
    ):
        items.pop(0)
    while items and items[0].type == "text" and not items[0].content.strip():
        items.pop(0)
    while items and items[-1].type == "text" and not items[-1].content.strip():
        items.pop()
    while (
        len(items) > 2
        and items[0].type in ("strong_open", "em_open")
        and items[-1].type == items[0].type.replace("_open", "_close")
        and not any(t.type == items[0].type for t in items[1:-1])
    ):
        items = items[1:-1]
    if items and items[-1].type == "text":
        trimmed = ATTR_LIST.sub("", items[-1].content)
        if trimmed != items[-1].content:
            last = items[-1].copy()
            last.content = trimmed
            items[-1] = last
    return items


def joined_keys(children: list[Token], rest: str) -> list[str]:
    """``### `opening_tag` and `closing_tag` ``: the keys after the first."""
    if rest.strip() not in ("and", ",", "/"):
        return []
    codes = [c.content.strip() for c in children if c.type == "code_inline"]
    texts = [c.content.strip() for c in children if c.type == "text" and c.content.strip()]
    if len(codes) < 2 or any(t not in ("and", ",", "/", ", and") for t in texts):
        return []
    return [k for k in codes[1:] if key_ok(k, strict_case=False)]


def ini_heading_key(children: list[Token]) -> str | None:
    if not children or any(c.type not in ("text", "code_inline") for c in children):
        return None
    return ini_heading("".join(c.content for c in children))


HEADING_JOINERS = frozenset({"and", "or", ",", "/"})  # ``default_hour and default_minute``


def plain_heading(children: list[Token]) -> tuple[list[str], bool] | None:
    """A heading that is one plain word: ([the word], is it spelt as a key
    for sure?). ``max_retries``, ``site.url``, ``API_KEY`` are; a lowercase
    word (``parse``) may be; a capitalised word (``Usage``) is not. Sure
    keys joined (``default_hour and default_minute``) are each its own; a
    sure key may be followed by a note in brackets (``(deprecated)``)."""
    if not children or any(c.type not in ("text",) for c in children):
        return None
    words = "".join(c.content for c in children).split()
    if (flag := flag_title(words)) is not None:
        return [flag], True  # ``### --dry-run``, ``### --config-file PATH``
    if (noted := noted_key(words)) is not None:
        return [noted], True  # ``### allow_shell_hooks (compatibility opt-in)``
    if len(words) != 1:
        joined = _joined_words(words)
        return (joined, True) if joined else None
    word = words[0]
    if not KEY.match(word) or word.startswith("-"):
        return None
    if spelt_as_key(word) or (word.islower() and word.isalpha()):
        return [word], spelt_as_key(word)
    return None


def _joined_words(words: list[str]) -> list[str]:
    """The keys of ``a_b and c_d``, ``a_b, c_d / e_f`` (joiners between); else none."""
    tokens = " ".join(words).replace(",", " , ").replace("/", " / ").split()
    keys: list[str] = []
    joined = True
    for token in tokens:
        if token in HEADING_JOINERS:
            if not keys:
                return []
            joined = True
        elif joined and spelt_as_key(token):
            keys.append(token)
            joined = False
        else:
            return []
    return keys if len(keys) > 1 and not joined else []


def line_texts(inline: Token) -> list[str]:
    """The paragraph's lines as text, code spans kept in backticks."""
    lines = [""]
    for child in inline.children or []:
        if child.type in ("softbreak", "hardbreak"):
            lines.append("")
        elif child.type == "code_inline":
            lines[-1] += f"`{child.content}`"
        elif child.type == "text":
            lines[-1] += child.content
    return lines


def labels_of(inline: Token, own: bool = False) -> list[tuple[str, str]]:
    """(``default`` or ``type``, its value) of each label line, and a
    default given in prose ("Defaults to `5`"); of an entry's ``own``
    paragraph, a lead-in after its key too (``**port** (int, default
    `8080`): ...``)."""
    out: list[tuple[str, str]] = []
    lines = joined_terms(line_texts(inline))
    typed = lead_in(lines[0])
    if typed is None and own:
        typed = lead_in(lines[0].split(None, 1)[-1])
    if typed is not None:
        out.append(("type", typed[0]))
        if typed[1] is not None:
            out.append(("default", typed[1]))
    for index, line in enumerate(lines[:20]):
        segments = label_segments(line)
        labelled = False
        for segment in segments:
            match = LABEL.match(segment)
            if match is None:
                continue
            labelled = True
            label = label_kind(match.group(1))
            value = match.group(2)
            if segment is segments[-1]:
                value = continued(value, lines[index + 1 : 20])
            value = sentence_end(value)
            if value:
                out.append((label, value))
        if labelled:
            continue
        prose = prose_default(line)
        if prose:
            out.append(("default", prose))
    out += [("default", value) for value in _titled_defaults(inline)]
    return out


def _titled_defaults(inline: Token) -> list[str]:
    """Code titled as a default by an attribute list (Material for MkDocs'
    ``equal`` icon then `` `None`{ title="default value" } ``)."""
    children = inline.children or []
    return [
        code.content
        for code, after in itertools.pairwise(children)
        if code.type == "code_inline"
        and after.type == "text"
        and after.content.lstrip().startswith("{")
        and _DEFAULT_TITLE in after.content[:80].lower()
    ]


#: The attribute that titles a code span as a default value.
_DEFAULT_TITLE = 'title="default value"'


def find_macro(inline: Token, kinds: tuple[str, ...]) -> tuple[str, str] | None:
    """An inline made of one HTML comment ``<!-- kind argument -->`` (a
    documentation macro): (kind, argument)."""
    children = [c for c in inline.children or [] if c.type != "text" or c.content.strip()]
    if len(children) != 1 or children[0].type != "html_inline":
        return None
    body = children[0].content.strip()
    if not (body.startswith("<!--") and body.endswith("-->")):
        return None
    words = body[4:-3].split(None, 1)
    if len(words) != 2 or words[0] not in kinds:
        return None
    return words[0], words[1].strip()


def listed_choices(tokens: list[Token], start: int) -> tuple[str, ...] | None:
    """The values a bullet list opening at ``start`` lists, each item's
    first word a code span (``- `"google"`: ...``), quotes dropped; None
    where an item starts otherwise, or the list nests another."""
    if start >= len(tokens) or tokens[start].type != "bullet_list_open":
        return None
    level = tokens[start].level
    values: list[str] = []
    for tok in tokens[start + 1 :]:
        if tok.type == "bullet_list_close" and tok.level == level:
            return tuple(values) if len(values) >= 2 else None
        if tok.type == "bullet_list_open":
            return None
        if tok.type == "inline" and tok.level == level + 3:
            first = next((c for c in tok.children or () if c.content.strip()), None)
            if first is None or first.type != "code_inline":
                return None
            values.append(first.content.strip().strip("\"'"))
    return None


def code_pieces(inline: Token) -> list[tuple[bool, str]]:
    """An inline's text as ``entry_text.listed_values`` reads it: each
    piece a code span or text (markup dropped, a line break a space)."""
    return [
        (child.type == "code_inline", child.content if child.type != "softbreak" else " ")
        for child in inline.children or ()
        if child.type in ("text", "code_inline", "softbreak")
    ]
