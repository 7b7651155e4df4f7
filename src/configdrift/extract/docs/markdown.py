"""Key entries, sections and example blocks of a Markdown page.

The page is read as a CommonMark token stream (markdown-it-py, with GFM
tables). Recognised entry forms:

- a paragraph that opens with an emphasised key and a colon, as DeepSpeed
  writes them: ``<i>**key**</i>: [type]``, ``***key***: [type]``, ``**key**:``;
  ``a:b`` and ``a.b`` spell nested keys;
- a list item that opens with a code span: ``- `key` (int): ...``;
- a heading that is only a code span: ``### `key```;
- a table whose first header cell names keys (``Key``, ``Field``, ``Option``,
  ``Parameter`` ...): each row whose first cell is a key.

A Description/Default table right after an entry gives its default; example
blocks (fenced code) are kept with their key structure for the section
mapping.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Imported when the first page is parsed: a run whose pages are parsed
    # by worker processes never pays for it in the main one.
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

from configdrift.extract.docs.blocks import INI_LANGS, STRICT_LANGS, BlockKey, read_block
from configdrift.extract.text import NotText, decode

# Applied to the text of one token (a key already isolated by the parser), not
# to raw Markdown.
# A command-line option (``--flag``, ``-f``, ``--4o``) is a key too.
_KEY = re.compile(
    r"^(?:--?[A-Za-z0-9][A-Za-z0-9_\-]*|[A-Za-z_][A-Za-z0-9_\-]*(?:[.:][A-Za-z_][A-Za-z0-9_\-]*)*)$"
)
# What may stand between the option spellings of one entry: `-u`, `--user`.
_ALIAS_GLUE = re.compile(r"^\s*(?:,|/|\bor\b)?\s*$")
_WRAPPER_TAGS = re.compile(r"^</?(i|em|b|strong|code|span)\b[^>]*>$", re.IGNORECASE)
_STOP_WORDS = frozenset(
    [
        "note",
        "notes",
        "warning",
        "important",
        "example",
        "examples",
        "default",
        "deprecated",
        "tip",
        "caution",
        "info",
        "description",
        "type",
        "required",
        "optional",
        "usage",
        "returns",
        "parameters",
        "options",
        "see",
        "todo",
    ]
)
#: Headers of a second key column: the same key as a variable or a flag.
_SPELLING_HEADERS = frozenset(
    ["env", "variable", "variables", "option", "flag", "flags", "argument", "setting", "key"]
)
_KEY_HEADERS = frozenset(
    [
        "key",
        "keys",
        "field",
        "fields",
        "name",
        "option",
        "options",
        "parameter",
        "parameters",
        "param",
        "params",
        "setting",
        "settings",
        "property",
        "properties",
        # Command-line references: | Argument | Description | Default |
        "argument",
        "arguments",
        "flag",
        "flags",
        # Environment references: | Variable | Default | Description |
        "variable",
        "variables",
        "env",
    ]
)
_CONFIG_LANGS = frozenset(
    {
        "json",
        "jsonc",
        "json5",
        "hjson",
        "javascript",
        "js",
        "python",
        "py",
        "",
        *STRICT_LANGS,
        *INI_LANGS,
    }
)


@dataclass(slots=True)
class Section:
    title: str
    level: int
    line: int
    parent: int | None
    heading_key: str | None = None


@dataclass(slots=True)
class RawEntry:
    name: str
    parts: tuple[str, ...]
    line: int
    section: int
    form: str
    doc_type: str | None = None
    default: str | None = None
    parent_entry: int | None = None


@dataclass(slots=True)
class Block:
    section: int
    line: int
    lang: str
    keys: list[BlockKey]
    #: Why a block in a config language could not be read whole, and where.
    error: str | None = None
    error_line: int = 0
    #: How findings name it, when not by its language (a dict in a test).
    what: str = ""

    def described(self) -> str:
        if self.what:
            return self.what
        if self.lang == "file":
            return "the config file"
        return "the example"


@dataclass(slots=True)
class DocFacts:
    sections: list[Section] = field(default_factory=list)
    entries: list[RawEntry] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    error: str | None = None
    error_line: int = 0
    #: Reference pages generated from the code's own option declarations
    #: (sphinx-argparse, sphinx-click, mkdocs-click ...): (tool, line).
    generated: list[tuple[str, int]] = field(default_factory=list)
    #: Reference pages rendered from code objects (mkdocstrings' ``:::
    #: package.module.Class``): (the object's dotted name, line).
    autodoc: list[tuple[str, int]] = field(default_factory=list)
    #: Roles that point at a key (``:confval:`name```, MyST's
    #: ``{confval}`name```): (role, key, line). ``:confval:`!name``` (no
    #: link wanted) and names of other projects (``other:name``) are not kept.
    references: list[tuple[str, str, int]] = field(default_factory=list)
    #: Tables of renamed keys (| Old name | New name |): (old, new, line).
    renames: list[tuple[str, str, int]] = field(default_factory=list)


_MYST_ROLE = re.compile(r"\{(?:[a-z]+:)?([a-z]+)\}$")
#: Headers of a table of renamed keys: the old spelling's column ...
_OLD_HEADERS = frozenset(
    {"old", "before", "previous", "deprecated", "removed", "legacy", "former", "was"}
)
#: ... and the new one's.
_NEW_HEADERS = frozenset(
    {
        "new",
        "after",
        "current",
        "replacement",
        "replaced by",
        "use",
        "use instead",
        "now",
        "renamed to",
    }
)
_RENAME_NOUNS = frozenset(
    {"", "name", "names", "key", "keys", "option", "options", "setting", "settings", "spelling"}
)


def rename_columns(header: list[str]) -> tuple[int, int] | None:
    """The (old, new) columns of a table of renamed keys, by its header
    (``Old name | New name``, ``Deprecated | Replacement``)."""

    def kind(cell: str) -> str | None:
        words = cell.strip().strip("*_`").lower().split()
        for size in (2, 1):
            head, rest = " ".join(words[:size]), " ".join(words[size:])
            if rest in _RENAME_NOUNS:
                if head in _OLD_HEADERS:
                    return "old"
                if head in _NEW_HEADERS:
                    return "new"
        return None

    kinds = [kind(cell) for cell in header]
    if "old" not in kinds or "new" not in kinds:
        return None
    return kinds.index("old"), kinds.index("new")


def rename_cell(text: str) -> str | None:
    """The key a cell of a table of renamed keys names."""
    text = text.strip().strip("`*_").strip()
    return text if text and " " not in text and _KEY.match(text) else None


#: The roles whose target is a configuration key, a flag or a variable.
KEY_ROLES = frozenset({"confval", "setting", "envvar", "option"})


def role_target(text: str) -> str | None:
    """The key a role's text points at: ``title <target>`` gives
    ``target``, ``~name`` gives ``name``; None for ``!name`` and for a
    name of another project (``other:name``, ``plugins.x:key``)."""
    text = text.strip()
    if text.startswith("!"):
        return None
    if text.endswith(">") and "<" in text:
        text = text[text.rindex("<") + 1 : -1].strip()
    text = text.lstrip("~")
    if not text or ":" in text or " " in text:
        return None
    return text


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
#: Directives that document a command line from its parser, by the tool
#: that renders them: reStructuredText (in a MyST ``{eval-rst}`` block) or
#: MyST fences, and MkDocs blocks (``::: mkdocs-click``).
GENERATORS = {
    "argparse": "sphinx-argparse",
    "autoprogram": "sphinxcontrib-autoprogram",
    "click": "sphinx-click",
    "typer": "sphinxcontrib-typer",
    "mkdocs-click": "mkdocs-click",
    "mkdocs-typer": "mkdocs-typer",
}


_PARSER: MarkdownIt | None = None


def _parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.admon import admon_plugin

        # MkDocs admonitions (``!!! note``, ``??? info``) hold Markdown,
        # indented: without the plugin, entries in them read as code.
        _PARSER = MarkdownIt("commonmark").enable("table").use(admon_plugin)
    return _PARSER


def _strip_front_matter(text: str) -> str:
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


#: Literals that name a file, not a key (``tox.ini``, ``setup.cfg``).
_FILE_SUFFIXES = frozenset(
    {"ini", "toml", "cfg", "py", "yaml", "yml", "json", "txt", "md", "rst", "env", "lock", "conf"}
)


def _file_name(key: str) -> bool:
    return "." in key and key.rsplit(".", 1)[-1].lower() in _FILE_SUFFIXES


def _key_ok(text: str, strict_case: bool) -> bool:
    # Stop words catch prose labels ("**Note**:"), which are capitalised; a
    # lowercase `type` or `default` is a real key.
    if not _KEY.match(text) or (text[:1].isupper() and text.lower() in _STOP_WORDS):
        return False
    return not (strict_case and text[:1].isupper() and "_" not in text)


def _split(name: str) -> tuple[str, ...]:
    sep = ":" if ":" in name else "."
    return tuple(p for p in name.split(sep) if p)


def _type_from_rest(rest: str) -> str | None:
    rest = rest.strip()
    if rest.startswith(":"):
        rest = rest[1:].strip()
    if rest.startswith("["):
        end = rest.find("]", 1)
        # Nested brackets such as ["a"|"b"] close at the last bracket of the run.
        depth = 0
        for k, ch in enumerate(rest):
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    end = k
                    break
        if end > 0:
            return rest[1:end].strip() or None
    if rest.startswith("("):
        end = rest.find(")")
        if end > 0:
            inner = rest[1:end].split(",")[0].strip()
            return inner or None
    return None


#: ``**key** (type): ...``: a type in parentheses before the colon or dash.
_TYPED_REST = re.compile(r"^\s*\([^()]{1,40}\)\s*[:\-\u2013\u2014]")


def _emphasised_key(children: list[Token], colon: bool = True) -> tuple[str, str, str] | None:
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
        elif tok.type == "html_inline" and _WRAPPER_TAGS.match(tok.content.strip()):
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
        or (children[i].type == "html_inline" and _WRAPPER_TAGS.match(children[i].content.strip()))
    ):
        i += 1
    rest = ""
    if i < n and children[i].type == "text":
        rest = children[i].content
    if not wrapped:
        return None
    opens = rest.lstrip().startswith(":") or bool(colon and _TYPED_REST.match(rest))
    if colon != opens or (not colon and not rest[:1].isspace()):
        return None
    form = "html-bold" if html else ("bold-italic" if wrapped >= 2 else "bold")
    return key, rest, form


def _flag(text: str) -> str:
    """An option spelt with its value (``--model MODEL``, ``--out=PATH``)
    is the option alone; a command line of several options (``--ctr 0.25
    --rcfg 1.0``) and any other text are kept as they are."""
    words = text.split()
    if text.startswith("-") and words:
        if sum(1 for w in words if _OPTION_WORD.match(w)) > 1:
            return text
        return words[0].split("=", 1)[0]
    return text


_OPTION_WORD = re.compile(r"^--?[A-Za-z]")


def _code_key(children: list[Token]) -> tuple[str, str] | None:
    """(key, rest) for inline content that opens with a code span."""
    found = _code_keys(children)
    return (found[0][0], found[1]) if found else None


def _code_keys(children: list[Token]) -> tuple[list[str], str] | None:
    """(keys, rest) for inline content that opens with one code span, or
    with option spellings joined by commas or slashes (`` `-u`, `--user` ``)."""
    items = [c for c in children if not (c.type == "text" and not c.content.strip())]
    if not items or items[0].type != "code_inline":
        return None
    keys = [_flag(items[0].content.strip())]
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
            and _ALIAS_GLUE.match(rest)
            and after is not None
            and after.type == "code_inline"
            and after.content.strip().startswith("-")
        ):
            keys.append(_flag(after.content.strip()))
            idx += 2
            rest = ""
            continue
        break
    return keys, rest


def _cells(tokens: list[Token], start: int) -> tuple[list[list[Token]], list[int], int]:
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


def _plain(tok: Token) -> str:
    return tok.content.strip()


def _indent(children: list[Token]) -> int:
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


def _cell_key(tok: Token) -> tuple[str, str | None, int] | None:
    """(key, documented type, indent) for a key table's first cell."""
    raw = tok.children or []
    found = _emphasised_key(raw)
    if found is not None:
        key = found[0].replace("\\_", "_")
        if _key_ok(key, strict_case=False):
            return key, _type_from_rest(found[1]), _indent(raw)
    children = [c for c in raw if not (c.type == "text" and not c.content.strip())]
    if len(children) == 1 and children[0].type in ("code_inline", "text"):
        text = _flag(children[0].content.strip())
        text = text.replace("\\_", "_")
        if _key_ok(text, strict_case=children[0].type == "text"):
            return text, None, 0
    return None


#: Leading icon shortcodes of a heading (``:material-toggle-switch:``).
_SHORTCODES = re.compile(r"^(?:\s*:[\w+-]+:)*\s*$")
#: A trailing attribute list (``{ #enabled }``, ``{: #ADMINS }``).
_ATTR_LIST = re.compile(r"\s*\{:?\s*[#.][^{}]*\}\s*$")


def _anchor_only(tokens: list[Token]) -> bool:
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


def _heading_core(children: list[Token]) -> list[Token]:
    """A heading's inline tokens without leading icons or HTML comments and
    without a trailing attribute list."""
    items = list(children)
    while items and (
        (items[0].type == "text" and _SHORTCODES.match(items[0].content))
        or (items[0].type == "html_inline" and items[0].content.startswith("<!--"))
    ):
        items.pop(0)
    if items and items[-1].type == "text":
        trimmed = _ATTR_LIST.sub("", items[-1].content)
        if trimmed != items[-1].content:
            last = items[-1].copy()
            last.content = trimmed
            items[-1] = last
    return items


def _heading_rest(rest: str) -> bool:
    """Is the text after a heading's code span no prose of its own: nothing,
    a description after a colon or dash, or ``and`` another key?"""
    stripped = rest.strip()
    return not stripped or stripped[0] in ":-\u2013\u2014" or stripped in ("and", ",", "/")


def _joined_keys(children: list[Token], rest: str) -> list[str]:
    """``### `opening_tag` and `closing_tag` ``: the keys after the first."""
    if rest.strip() not in ("and", ",", "/"):
        return []
    codes = [c.content.strip() for c in children if c.type == "code_inline"]
    texts = [c.content.strip() for c in children if c.type == "text" and c.content.strip()]
    if len(codes) < 2 or any(t not in ("and", ",", "/", ", and") for t in texts):
        return []
    return [k for k in codes[1:] if _key_ok(k, strict_case=False)]


def _ini_heading(children: list[Token]) -> str | None:
    if not children or any(c.type != "text" for c in children):
        return None
    return ini_heading("".join(c.content for c in children))


#: A long option spelt alone: ``--dry-run``, ``--config-file``.
_LONG_OPTION = re.compile(r"--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: What follows an option in its heading: ``PATH``, ``CONFIG_KEY``, ``[N]``, ``<file>``.
_METAVAR = re.compile(r"[A-Z][A-Z0-9_]*|\[[^\]\s]+\]|<[^>\s]+>")


def _plain_heading(children: list[Token]) -> tuple[str, bool] | None:
    """A heading that is one plain word: (the word, is it spelt as a key
    for sure?). ``max_retries``, ``site.url``, ``API_KEY`` are; a lowercase
    word (``parse``) may be; a capitalised word (``Usage``) is not."""
    if not children or any(c.type not in ("text",) for c in children):
        return None
    words = "".join(c.content for c in children).split()
    if (
        words
        and _LONG_OPTION.fullmatch(words[0])
        and all(_METAVAR.fullmatch(w) for w in words[1:4])
        and len(words) <= 4
    ):
        # ``### --dry-run``, ``### --config-file PATH``: an option's entry.
        return words[0], True
    if len(words) != 1 or not _KEY.match(words[0]) or words[0].startswith("-"):
        return None
    word = words[0]
    if any(ch in word for ch in "_.") and word[:1].isalpha():
        return word, True
    if word.islower() and word.isalpha():
        return word, False
    return None


#: A label line: ``Default: 5``, ``**Default**: `5` ``, ``_Type_: int``,
#: ``Default value: none``.
_LABEL = re.compile(
    r"^\s*[*_]{0,2}(default(?: value)?|type)[*_]{0,2}\s*[:=]\s*[*_]{0,2}\s*(.+?)\s*$",
    re.IGNORECASE,
)
#: "Defaults to `5`.", "The default is `5`.", "(default: `5`)", and a
#: label that opens a sentence: "Products per page. Default: `25`.".
_DEFAULT_PROSE = re.compile(
    r"\b(?:defaults? (?:to|is)|default value is)\s+(`[^`]+`)"
    r"|(?:[.;:]\s+|\(\s*)[*_]{0,2}default(?: value)?[*_]{0,2}\s*[:=]\s*(`[^`]+`)",
    re.IGNORECASE,
)


#: A parenthesised lead-in that types an entry: "(boolean, default False)
#: Whether to ...", "(multi-string) The ...".
_LEAD_IN = re.compile(
    r"^\((?P<type>[A-Za-z][A-Za-z -]{0,30}?)(?:,\s*default(?::\s*|\s+)(?P<default>[^()]+?))?\)(?:\s|$)"
)
#: The last word of a lead-in's type, so that "(optional) ..." is no type.
_LEAD_TYPES = frozenset(
    {
        "boolean",
        "bool",
        "string",
        "str",
        "integer",
        "int",
        "float",
        "number",
        "list",
        "dict",
        "dictionary",
        "mapping",
        "path",
        "file",
        "directory",
        "regex",
        "tuple",
        "object",
        "array",
    }
)


def lead_in(text: str) -> tuple[str, str | None] | None:
    """(type, default or None) of a paragraph that opens with
    ``(boolean, default False)`` or ``(string)``."""
    match = _LEAD_IN.match(text)
    if match is None:
        return None
    kind = match.group("type").strip()
    last = re.split(r"[\s-]+", kind.lower())[-1]
    if last.rstrip("s") not in _LEAD_TYPES and last not in _LEAD_TYPES:
        return None
    default = match.group("default")
    return kind, default.strip() if default else None


_INI_HEADING = re.compile(r"^\[([A-Za-z_][\w.-]*)\](?:\s+([A-Za-z_][\w-]*))?$")


def ini_heading(title: str) -> str | None:
    """The key a configparser-style heading names: ``[run] branch`` is the
    option ``run.branch``, ``[run]`` the section ``run``."""
    match = _INI_HEADING.match(title.strip())
    if match is None:
        return None
    section, option = match.groups()
    return f"{section}.{option}" if option else section


def continued(value: str, after: list[str]) -> str:
    """A value whose brackets its line leaves open, with the lines that
    close them (five at most): ``Default: [`` then ``'*migrations*']``;
    nothing when they stay open (a value cut short is no value)."""
    out = value
    for line in after[:5]:
        if balanced(out):
            break
        out = f"{out} {line.strip()}"
    return out.rstrip(".") if balanced(out) else ""


def balanced(text: str) -> bool:
    """Are the brackets of a value closed (a default continued on the next
    lines is read from its first line alone)?"""
    depth = 0
    for char in text:
        depth += char in "[{("
        depth -= char in "]})"
        if depth < 0:
            return False
    return depth == 0


def _line_texts(inline: Token) -> list[str]:
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


def _labels(inline: Token) -> list[tuple[str, str]]:
    """(``default`` or ``type``, its value) of each label line, and a
    default given in prose ("Defaults to `5`")."""
    out: list[tuple[str, str]] = []
    lines = _line_texts(inline)
    typed = lead_in(lines[0])
    if typed is not None:
        out.append(("type", typed[0]))
        if typed[1] is not None:
            out.append(("default", typed[1]))
    for index, line in enumerate(lines[:20]):
        match = _LABEL.match(line)
        if match:
            label = "type" if match.group(1).lower() == "type" else "default"
            value = continued(match.group(2), lines[index + 1 : 20]).rstrip(".")
            if value:
                out.append((label, value))
            continue
        prose = _DEFAULT_PROSE.search(line)
        if prose:
            out.append(("default", prose.group(1) or prose.group(2)))
    return out


def _macro(inline: Token, kinds: tuple[str, ...]) -> tuple[str, str] | None:
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


#: Opening brackets a page may hold before those of bracket-heavy lines are
#: escaped: markdown-it looks for a link's end from each ``[``, so a page of
#: many takes time that grows with their square.
MAX_BRACKETS = 5_000
#: A line outside code with more ``[`` than this is no prose with links.
_BRACKETS_PER_LINE = 8


#: The largest doc page parsed (a parser's time grows with the page: a page
#: this large is generated data, not prose).
MAX_PAGE_BYTES = 2 * 1024 * 1024
#: The most lines of a doc page parsed: the parsers' trees take a few
#: kilobytes a line at worst (a table row, a reStructuredText definition),
#: so a page stays near 150 MB.
MAX_PAGE_LINES = 40_000
#: Pages larger than this are tested for their share of markup characters.
_DENSE_PAGE = 200_000


def _markup_share(text: str) -> float:
    return sum(text.count(c) for c in "<&\\[]!*_`") / max(1, len(text))


def _inert_brackets(text: str) -> str:
    """The page with the ``[`` of bracket-heavy lines outside code blocks
    blanked: no link can start there, and parsing stays linear (an escaped
    bracket would still cost a token each)."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        marker = stripped[:3]
        if marker in ("```", "~~~"):
            fence = "" if fence and marker == fence else fence or marker
        elif not fence and line.count("[") > _BRACKETS_PER_LINE:
            line = line.replace("[", " ")
        out.append(line)
    return "\n".join(out)


def extract_mdx(data: bytes) -> DocFacts:
    """An MDX page: its Markdown, read as ``extract_markdown`` reads a page,
    with the JSX around it set aside (``mdx_markdown``)."""
    return extract_markdown(data, mdx=True)


#: A JSX element's tag at the start of a line: a component (capitalised) or
#: a fragment.
_JSX_OPEN = re.compile(r"<([A-Z][\w.]*)\b|<>")
_JSX_CLOSE = re.compile(r"</([A-Z][\w.]*)?\s*>\s*$")
_MDX_STATEMENT = re.compile(r"(?:import|export)\s")
_FENCE = re.compile(r"(`{3,}|~{3,})")


def mdx_markdown(text: str) -> str:
    """The Markdown of an MDX page, line for line: ``import``/``export``
    statements and the lines of JSX component tags are blanked, and the
    content of a component (``<Tab title="Python">`` then an indented
    table) loses the indentation its component gave it, so that it reads
    as Markdown rather than as a code block."""
    out: list[str] = []
    #: The indentation each open component's content has (None until its
    #: first line), innermost last.
    stack: list[int | None] = []
    fence: str | None = None
    in_tag = False
    for line in text.split("\n"):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if in_tag:
            # The attributes of a tag spread over lines, up to its ``>``.
            in_tag = ">" not in stripped
            if not in_tag and not stripped.rstrip().endswith("/>"):
                stack.append(None)
            out.append("")
            continue
        if fence is None:
            if not stack and _MDX_STATEMENT.match(line):
                out.append("")
                continue
            if _JSX_CLOSE.match(stripped) and stack and stripped.startswith("</"):
                stack.pop()
                out.append("")
                continue
            opened = _JSX_OPEN.match(stripped)
            if opened is not None:
                name = opened.group(1) or ""
                rest = stripped[opened.end() :]
                if ">" not in rest:
                    in_tag = True
                elif not (rest.rstrip().endswith("/>") or (name and f"</{name}>" in rest)):
                    stack.append(None)
                out.append("")
                continue
        if stack and stripped and stack[-1] is None:
            stack[-1] = indent
        cut = min(indent, stack[-1] or 0) if stack else 0
        line = line[cut:]
        found = _FENCE.match(line.lstrip())
        if found is not None:
            if fence is None:
                fence = found.group(1)
            elif found.group(1).startswith(fence) and not line.strip()[len(found.group(1)) :]:
                fence = None
        out.append(line)
        if len(stack) > _MAX_JSX_DEPTH:
            stack = stack[-_MAX_JSX_DEPTH:]
    return "\n".join(out)


#: Components nested deeper than this are not followed (their content keeps
#: the indentation of the deepest one followed).
_MAX_JSX_DEPTH = 64


def page_text(data: bytes, facts: DocFacts) -> str | None:
    """A page's text, or None with ``facts``' error set: a page over
    ``MAX_PAGE_BYTES`` or ``MAX_PAGE_LINES``, or one that is not text."""
    if len(data) > MAX_PAGE_BYTES:
        facts.error = f"larger than {MAX_PAGE_BYTES >> 20} MiB: not read as a page"
        facts.error_line = 1
        return None
    if (lines := data.count(b"\n")) > MAX_PAGE_LINES:
        facts.error = f"{lines:,} lines, more than {MAX_PAGE_LINES:,}: not read as a page"
        facts.error_line = 1
        return None
    try:
        return decode(data)
    except NotText as exc:
        facts.error, facts.error_line = str(exc), exc.line
        return None


def extract_markdown(data: bytes, mdx: bool = False) -> DocFacts:
    """Sections, key entries and example blocks of one Markdown page."""
    facts = DocFacts()
    text = page_text(data, facts)
    if text is None:
        return facts
    text = _strip_front_matter(text)
    if mdx:
        text = mdx_markdown(text)
    if len(text) > _DENSE_PAGE and _markup_share(text) > 0.2:
        # Mostly markup characters (``<``, ``&``, ``\\``, ``[``): the parser
        # spends a token on each, for a page that is data, not prose.
        facts.error, facts.error_line = "mostly markup characters: not read as a page", 1
        return facts
    if text.count("[") > MAX_BRACKETS:
        text = _inert_brackets(text)
    try:
        tokens = _parser().parse(text)
    except Exception as exc:  # markdown-it is total on str input; guard anyway
        facts.error = f"Markdown could not be read: {exc}"
        facts.error_line = 1
        return facts
    _Walker(facts, tokens).run()
    return facts


class _Walker:
    def __init__(self, facts: DocFacts, tokens: list[Token]) -> None:
        self.facts = facts
        self.tokens = tokens
        facts.sections.append(Section("", 0, 1, None))
        self.section = 0
        self.last_entry: int | None = None
        self.last_entry_token = -1
        #: A heading that is a plain word (``## parse``): an entry once a
        #: ``Default:`` or ``Type:`` line under it says it is a key.
        self.pending: int | None = None

    def run(self) -> None:
        tokens = self.tokens
        i = 0
        in_list = 0
        while i < len(tokens):
            tok = tokens[i]
            kind = tok.type
            if kind == "heading_open":
                self._heading(tok, tokens[i + 1])
                i += 3
                continue
            if kind in ("bullet_list_open", "ordered_list_open"):
                in_list += 1
            elif kind in ("bullet_list_close", "ordered_list_close"):
                in_list -= 1
            elif kind == "paragraph_open" and i + 1 < len(tokens):
                self._paragraph(tokens[i + 1], in_list > 0, i)
            elif kind == "table_open":
                i = self._table(i)
                continue
            elif kind in ("fence", "code_block"):
                self._block(tok)
            elif kind == "html_block":
                self._comments(tok.content)
            i += 1

    def _line(self, tok: Token) -> int:
        return (tok.map[0] + 1) if tok.map else 0

    def _heading(self, open_tok: Token, inline: Token) -> None:
        level = int(open_tok.tag[1:]) if open_tok.tag[1:].isdigit() else 1
        parent: int | None = self.section
        while parent is not None and self.facts.sections[parent].level >= level:
            parent = self.facts.sections[parent].parent
        section = Section(inline.content.strip(), level, self._line(open_tok), parent)
        children = _heading_core(inline.children or [])
        codes = _code_keys(children)
        aliases: list[str] = []
        word: str | None = None
        self.pending = None
        if codes is not None and _heading_rest(codes[1]):
            keys = [k for k in codes[0] if _key_ok(k, strict_case=False) and not _file_name(k)]
            keys += _joined_keys(children, codes[1])
            if keys and len(keys) >= len(codes[0]):
                section.heading_key, aliases = keys[0], keys[1:]
        elif codes is None and (ini := _ini_heading(children)) is not None:
            section.heading_key = ini
        elif codes is None and (plain := _plain_heading(children)) is not None:
            name, certain = plain
            if certain:
                # ``### max_retries``: spelt like a key, not a word.
                section.heading_key = name
            else:
                # ``## parse``: a key if the schema has it there (form
                # ``word``), or if a Default or Type line says so.
                word = name
        elif (macro := _macro(inline, ("md:setting",))) is not None:
            # Material for MkDocs' setting headings: ``#### <!-- md:setting
            # config.enabled -->`` names a plugin's own option; ``meta.`` (a
            # page's front matter) and ``option.`` (a layout's) are not.
            name = macro[1]
            if name.startswith("config.") and _key_ok(name[7:], strict_case=False):
                section.heading_key = name[7:]
        self.facts.sections.append(section)
        self.section = len(self.facts.sections) - 1
        self.last_entry = None
        for alias in aliases:
            self._add(alias, self._line(open_tok), "heading", None)
        if section.heading_key is not None:
            self._add(section.heading_key, self._line(open_tok), "heading", None)
        elif word is not None:
            self.pending = self._add(word, self._line(open_tok), "word", None)

    def _add(
        self, name: str, line: int, form: str, doc_type: str | None, parent: int | None = None
    ) -> int:
        self.facts.entries.append(
            RawEntry(name, _split(name), line, self.section, form, doc_type, None, parent)
        )
        return len(self.facts.entries) - 1

    def _comments(self, content: str) -> None:
        """Documentation macros in an HTML block: ``<!-- md:default `true`
        -->`` under a setting's heading gives its default."""
        for line in content.splitlines()[:20]:
            line = line.strip()
            if not (line.startswith("<!--") and line.endswith("-->")):
                continue
            words = line[4:-3].split(None, 1)
            if len(words) == 2 and words[0] == "md:default":
                entry = self.facts.entries[-1] if self.facts.entries else None
                if entry is not None and entry.form == "heading" and entry.section == self.section:
                    entry.default = words[1].strip()

    def _labelled(self, inline: Token) -> bool:
        """``Default: 5``, ``**Type**: int``, "Defaults to `5`." lines under
        an entry give its default and type; a plain-word heading they
        follow is a key. True when the paragraph was such lines only."""
        found = _labels(inline)
        if not found:
            return False
        entry: RawEntry | None = None
        if self.last_entry is not None:
            entry = self.facts.entries[self.last_entry]
        else:
            heading = self.facts.sections[self.section].heading_key
            for candidate in reversed(self.facts.entries):
                if candidate.section != self.section:
                    break
                if candidate.form == "heading" and candidate.name == heading:
                    entry = candidate
                    break
        if entry is None and self.pending is not None:
            entry = self.facts.entries[self.pending]
            self.pending = None
            entry.form = "heading"
            self.facts.sections[self.section].heading_key = entry.name
        if entry is None or entry.section != self.section:
            return False
        for label, value in found:
            if label == "default" and entry.default is None:
                entry.default = value
            elif label == "type" and entry.doc_type is None:
                entry.doc_type = value
        return True

    def _roles(self, inline: Token) -> None:
        """MyST roles that point at keys: ``{confval}`name```."""
        children = inline.children or []
        for before, child in itertools.pairwise(children):
            if child.type != "code_inline" or before.type != "text":
                continue
            match = _MYST_ROLE.search(before.content)
            target = role_target(child.content) if match else None
            if (
                match
                and match.group(1) in KEY_ROLES
                and target
                and len(self.facts.references) < 2000
            ):
                self.facts.references.append((match.group(1), target, self._line(inline)))

    def _paragraph(self, inline: Token, in_list: bool, index: int) -> None:
        self._roles(inline)
        before = len(self.facts.entries)
        self._entries(inline, in_list, index)
        if len(self.facts.entries) > before:
            # ``- `key` (int): ... Defaults to `5`.``: the entry's own line.
            entry = self.facts.entries[-1]
            for label, value in _labels(inline):
                if label == "default" and entry.default is None:
                    entry.default = value
                elif label == "type" and entry.doc_type is None:
                    entry.doc_type = value
        else:
            self._labelled(inline)

    def _entries(self, inline: Token, in_list: bool, index: int) -> None:
        words = inline.content[:200].split()
        if len(words) >= 2 and words[0] == ":::" and words[1] in GENERATORS:
            self.facts.generated.append((GENERATORS[words[1]], self._line(inline)))
            return
        if len(words) >= 2 and words[0] == ":::" and _DOTTED.fullmatch(words[1]):
            self.facts.autodoc.append((words[1], self._line(inline)))
            return
        children = inline.children or []
        # Only the first line of a paragraph can introduce an entry; a line
        # that is only an anchor (``<a name="x" href="#x">#</a>``) does not
        # count as one.
        first_line: list[Token] = []
        for child in children:
            if child.type in ("softbreak", "hardbreak"):
                if _anchor_only(first_line):
                    first_line = []
                    continue
                break
            if child.type == "text" and not child.content and not first_line:
                continue
            first_line.append(child)
        found = _emphasised_key(first_line)
        if found is not None:
            key, rest, form = found
            if _key_ok(key, strict_case=form == "bold"):
                self.last_entry = self._add(key, self._line(inline), form, _type_from_rest(rest))
                self.last_entry_token = index
                return
        if in_list:
            codes = _code_keys(first_line)
            if codes is not None:
                keys, rest = codes
                stripped = rest.lstrip()
                if all(_key_ok(k, strict_case=False) for k in keys) and (
                    not stripped or stripped[0] in ":(-\u2013\u2014"
                ):
                    for key in keys:
                        self.last_entry = self._add(
                            key, self._line(inline), "list", _type_from_rest(rest)
                        )
                    self.last_entry_token = index
                    return
        # A prose paragraph (a note, a description) does not end the entry:
        # its table may still follow.

    def _table(self, start: int) -> int:
        rows, row_lines, end = _cells(self.tokens, start)
        if not rows:
            return end
        header = [_plain(c).lower() for c in rows[0]]
        renamed = rename_columns(header)
        if renamed is not None:
            # | Old name | New name |: a renaming, not the keys' entries.
            for row, line in zip(rows[1:], row_lines[1:], strict=False):
                if max(renamed) < len(row):
                    old, new = (rename_cell(_plain(row[i])) for i in renamed)
                    if old and new and old != new:
                        self.facts.renames.append((old, new, line))
            return end
        # A table after an entry, with only prose between, belongs to it.
        owner = self.last_entry
        if owner is not None and "default" in header and len(rows) > 1:
            column = header.index("default")
            if column < len(rows[1]):
                entry = self.facts.entries[owner]
                entry.default = _plain(rows[1][column]) or None
        first = header[0].replace("`", '"').split() if header else []
        if owner is not None and (
            self.facts.entries[owner].doc_type or "dictionary"
        ).lower() not in (
            "dictionary",
            "dict",
            "object",
            "mapping",
        ):
            owner = None  # only a dictionary has keys of its own
        if (
            self.last_entry is None
            and "default" in header
            and header[0] in ("description", "value")
        ):
            self._described_rows(rows, row_lines, header.index("default"))
        elif first and first[-1] in _KEY_HEADERS:
            # A header such as `"params" key` names the section the rows sit in.
            prefix = tuple(
                w.strip('"') for w in first[:-1] if w.startswith('"') and w.endswith('"')
            )
            type_col = header.index("type") if "type" in header else None
            default_col = header.index("default") if "default" in header else None
            # Rows indented with em-spaces nest under the row above them.
            parents: dict[int, int | None] = {0: owner}
            # Other columns that spell the row's key another way: | CLI
            # option | ENV | Default |.
            spelt = [
                i
                for i, cell in enumerate(header[1:], 1)
                if cell.split() and cell.split()[-1] in _SPELLING_HEADERS
            ]
            for row, line in zip(rows[1:], row_lines[1:], strict=False):
                if not row:
                    continue
                for column in spelt:
                    other = _cell_key(row[column]) if column < len(row) else None
                    if other is not None:
                        alt = self._add(other[0], line, "table", other[1], parent=None)
                        if default_col is not None and default_col < len(row):
                            self.facts.entries[alt].default = _plain(row[default_col]) or None
                found = _cell_key(row[0])
                if found is None:
                    continue
                key, cell_type, indent = found
                doc_type = (
                    _plain(row[type_col]).strip("`[]")
                    if type_col is not None and type_col < len(row)
                    else cell_type
                )
                parent = parents.get(indent, parents.get(max(k for k in parents if k <= indent)))
                idx = self._add(key, line, "table", doc_type or None, parent=parent)
                parents[indent + 1] = idx
                for deeper in [k for k in parents if k > indent + 1]:
                    del parents[deeper]
                if prefix and parent is None:
                    entry = self.facts.entries[idx]
                    entry.parts = (*prefix, *entry.parts)
                if default_col is not None and default_col < len(row):
                    self.facts.entries[idx].default = _plain(row[default_col]) or None
        self.last_entry = None
        return end

    def _described_rows(self, rows: list[list[Token]], lines: list[int], default: int) -> None:
        """A Description/Default table with no entry before it: each row whose
        description opens with an emphasised key and prose documents that
        key (``| <i>**min_loss_scale**</i> is a **fp16** parameter ... | `1` |``).
        A key further on in a cell is a mention, not an entry."""
        for row, line in zip(rows[1:], lines[1:], strict=False):
            if not row:
                continue
            found = _emphasised_key(row[0].children or [], colon=False)
            if found is None:
                continue
            key = found[0].replace("\\_", "_")
            if not _key_ok(key, strict_case=found[2] == "bold"):
                continue
            idx = self._add(key, line, "table", None)
            if default < len(row):
                self.facts.entries[idx].default = _plain(row[default]) or None

    def _generator(self, tok: Token) -> None:
        """A MyST fence ``{argparse}`` or an ``{eval-rst}`` block holding
        ``.. argparse::`` (or another generator's directive)."""
        info = (tok.info or "").strip().split(" ")[0].lower()
        name = info.strip("{}")
        if info.startswith("{") and name in GENERATORS:
            self.facts.generated.append((GENERATORS[name], self._line(tok)))
        elif info in ("{eval-rst}", "{rst}"):
            for offset, line in enumerate(tok.content.splitlines()[:10_000]):
                words = line.split()
                if len(words) >= 2 and words[0] == ".." and words[1].endswith("::"):
                    name = words[1][:-2]
                    if name in GENERATORS:
                        self.facts.generated.append(
                            (GENERATORS[name], self._line(tok) + 1 + offset)
                        )

    def _block(self, tok: Token) -> None:
        self.last_entry = None  # an example ends the entry before it
        if tok.type == "fence" and (tok.info or "").lstrip().startswith("{"):
            self._generator(tok)
            return
        lang = (tok.info or "").strip().split(" ")[0].lower() if tok.type == "fence" else ""
        if lang not in _CONFIG_LANGS:
            return
        content = tok.content
        if len(content) > 1_000_000:
            return
        if not lang and content.lstrip()[:1] not in ("{", '"', "'"):
            # An untagged block is read as a config only when it opens like
            # JSON: ``KEY=https://...`` lines (a .env file, a shell session)
            # are not ``https:`` keys.
            return
        read = read_block(content, lang)
        if not read.keys and (read.error is None or lang not in STRICT_LANGS):
            return
        first = self._line(tok) + (1 if tok.type == "fence" else 0)
        shifted = [k.at(first) for k in read.keys]
        block = Block(self.section, first, lang, shifted)
        if read.error is not None and lang in STRICT_LANGS:
            block.error, block.error_line = read.error, read.error_line + first
        self.facts.blocks.append(block)
