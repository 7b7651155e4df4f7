"""The text rules every markup shares: what spells a key, which table
headers name keys, which fence languages hold configs, a role's target, a
documented type or default written in prose (``Default: 5``, ``(int)``),
the headers of a table of renamed keys, and the tools that generate a
reference at build time."""

from __future__ import annotations

import re

from configdrift.extract.docs.blocks import STRICT_LANGS
from configdrift.extract.docs.facts import RawEntry
from configdrift.extract.docs.toml_block import INI_LANGS
from configdrift.model import LIST_ITEM

#: A key as docs write it: a command-line option (``--flag``, ``-f``,
#: ``--4o``, a group's ``--train.lr``), or a dotted path whose later parts may be ``*``, any key
#: (``extractor.*.username``). Applied to the text of one token (a key
#: already isolated by the parser), not to raw Markdown.
KEY = re.compile(
    r"^(?:--?[A-Za-z0-9][A-Za-z0-9_\-]*+(?:\.[A-Za-z_][A-Za-z0-9_\-]*+)*+"
    r"|[A-Za-z_][A-Za-z0-9_\-]*+(?:\[\])?(?:[.:](?:[A-Za-z_][A-Za-z0-9_\-]*+(?:\[\])?|\*))*)$"
)


STOP_WORDS = frozenset(
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
SPELLING_HEADERS = frozenset(
    ["env", "variable", "variables", "option", "flag", "flags", "argument", "setting", "key"]
)


#: Directives that render a class, a function or a module from the code
#: (Sphinx autodoc, autodoc_pydantic, and traitlets' ``autoconfigurable``).
AUTODOC_DIRECTIVES = frozenset(
    {
        "autofunction",
        "py:autofunction",
        "autopydantic_model",
        "autopydantic_settings",
        "autoclass",
        "autodataclass",
        "autoattrs",
        "autoconfigurable",
        "py:autoclass",
        "automodule",
        "py:automodule",
        "automethod",
        "py:automethod",
    }
)


KEY_HEADERS = frozenset(
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
        # An object's settings by the attribute they are: | Attribute | ... |
        "attribute",
        "attributes",
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


CONFIG_LANGS = frozenset(
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


MYST_ROLE = re.compile(r"\{(?:[a-z]+:)?([a-z]+)\}$")


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
    return text if text and " " not in text and KEY.match(text) else None


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


# (Linear in every use: a name begins where no word character precedes it,
# and its parts are taken possessively.)
DOTTED = re.compile(r"(?<!\w)[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)+")


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


#: Literals that name a file, not a key (``tox.ini``, ``setup.cfg``), or a
#: script library (``MicroModal.js``).
_FILE_SUFFIXES = frozenset(
    {"ini", "toml", "cfg", "py", "yaml", "yml", "json", "txt", "md", "rst", "env", "lock", "conf"}
    | {"js", "css", "html"}
)


def file_name(key: str) -> bool:
    return "." in key and key.rsplit(".", 1)[-1].lower() in _FILE_SUFFIXES


def spelt_as_key(word: str) -> bool:
    """One word spelt as a key (``max_retries``, ``site.url``), not prose
    nor a file's name."""
    return (
        " " not in word
        and bool(KEY.match(word))
        and ("_" in word or "." in word)
        and word[:1].isalpha()
        and not file_name(word)
    )


def key_ok(text: str, strict_case: bool) -> bool:
    # Stop words catch prose labels ("**Note**:"), which are capitalised; a
    # lowercase `type` or `default` is a real key.
    if not KEY.match(text) or (text[:1].isupper() and text.lower() in STOP_WORDS):
        return False
    return not (strict_case and text[:1].isupper() and "_" not in text)


def split_name(name: str) -> tuple[str, ...]:
    if name[:1] == "-":
        return (name,)  # a flag is one key, dots and all (``--train.lr``)
    sep = ":" if ":" in name else "."
    parts: list[str] = []
    for part in name.split(sep):
        if len(part) > 2 and part.endswith(LIST_ITEM):
            # ``generate[].path``: a key of each item of the list ``generate``.
            parts += (part[:-2], LIST_ITEM)
        elif part:
            parts.append(part)
    # ``generate[]`` alone names the list.
    return tuple(parts[:-1] if parts[-1:] == [LIST_ITEM] and len(parts) > 1 else parts)


def heading_rest(rest: str) -> bool:
    """Is the text after a heading's code span no prose of its own: nothing,
    a description after a colon or dash, or ``and`` another key?"""
    stripped = rest.strip()
    return not stripped or stripped[0] in ":-\u2013\u2014" or stripped in ("and", ",", "/")


def mentioned_key(key: str, rest: str) -> bool:
    """Does a list item that opens with ``key`` in code and goes on with
    ``rest`` in prose name a key (````tool.options.x`` is equivalent to
    ...``, ```max_retries` sets ...``, ```--log-level` is used to ...``)?
    The code is spelt as a key, with a ``_`` or a ``.`` inside and no call
    or path, or as a long flag, and prose follows."""
    words = rest.split()
    spelt = bool(KEY.fullmatch(key)) and (
        key.startswith("--")
        or (
            ("_" in key.strip("_") or "." in key.strip("."))
            and key[:1].isalpha()
            and not file_name(key)
        )
    )
    return spelt and bool(words) and words[0][:1].islower()


#: A dotted name in code in prose: ``c.Class.trait``, ``section.key``.
_DOTTED_MENTION = re.compile(r"(?<!\w)[A-Za-z_]\w*+(?:\.[A-Za-z_][\w-]*+){1,6}")
#: Mentions kept of one page at most.
MAX_MENTIONS = 2000


#: An INI file's section and key, as prose writes them: ``[run] branch``.
_INI_MENTION = re.compile(r"\[([A-Za-z_][\w.-]{0,80})\]\s?([A-Za-z_][\w-]{0,80})")


#: A name of words joined by ``_`` or ``-`` (``example_dirs``,
#: ``--in-place``, ``MAX_LOGS``), or a flag of one word (``--extras``).
_WORDS_MENTION = re.compile(r"(?:--)?[A-Za-z][A-Za-z0-9]*+(?:[_-][A-Za-z0-9]++){0,8}")


#: A long flag of any length (``--debug``), named as a flag is.
_LONG_FLAG = re.compile(r"--[A-Za-z][\w-]{1,60}")


def code_mention(code: str) -> str | None:
    """The dotted name a code span in prose spells, if it spells only one
    (``c.ServerApp.port``; ``[run] branch`` as ``run.branch``), not a call,
    a file or an assignment; the name of a class (``GroupConfig``); a
    name of words (``example_dirs``, quoted or not, ``--in-place``); or a
    long flag (``--debug``)."""
    text = code.strip()
    ini = _INI_MENTION.fullmatch(text)
    if ini is not None:
        return f"{ini.group(1)}.{ini.group(2)}"
    if class_name(text):
        return text
    words = text[1:-1] if len(text) > 2 and text[0] == text[-1] and text[0] in "'\"" else text
    if words_name(words) or _LONG_FLAG.fullmatch(text):
        return words
    if not _DOTTED_MENTION.fullmatch(text) or file_name(text):
        return None
    return text


def words_name(text: str) -> bool:
    """Is the text a name of words (``example_dirs``, ``--in-place``) or a
    flag (``--extras``), six letters or more: what a key is spelt as, not a
    word of prose?"""
    bare = text.lstrip("-")
    return (
        len(bare) >= 6
        and _WORDS_MENTION.fullmatch(text) is not None
        and (text.startswith("--") or "_" in bare or "-" in bare)
    )


def class_name(text: str) -> bool:
    """Is the text spelt as a class is, in capitalised words
    (``GroupConfig``), not as a constant (``MAX``) or a word (``True``)?"""
    return (
        len(text) <= MAX_CLASS_NAME
        and text.isidentifier()
        and text[:1].isupper()
        and "_" not in text
        and sum(1 for c in text if c.isupper()) >= 2
        and any(c.islower() for c in text)
    )


#: The longest class name a code span is taken for.
MAX_CLASS_NAME = 80


#: A label line: ``Default: 5``, ``**Default**: `5` ``, ``_Type_: int``,
#: ``Default value: none``, ``Default Inclusions: `['.pyi']` ``.
#: (The value runs from its first character that is no blank to its last:
#: no lazy repetition before trailing blanks, which made a long line of
#: blanks cost its square.)
LABEL = re.compile(
    r"^\s*+[*_]{0,2}(default(?: [a-z]{1,20})?|type|env[- ]?var(?:iable)?|environment variable)"
    r"[*_]{0,2}\s*+[:=]\s*+[*_]{0,2}+\s*+(\S(?:.*\S)?)\s*$",
    re.IGNORECASE,
)


#: Where a second label follows the first on its line: ``type=`bool`,
#: default=`False```.
_NEXT_LABEL = re.compile(
    r"[,;]\s*+(?=[*_]{0,2}(?:default(?: value)?|type)[*_]{0,2}\s*+[:=])", re.IGNORECASE
)


def label_segments(line: str) -> list[str]:
    """A line that opens with a label, cut before each label that follows
    it on the line; any other line whole."""
    line = line[:MAX_PROSE_LINE]
    if LABEL.match(line) is None:
        return [line]
    return _NEXT_LABEL.split(line)


#: The most characters of one line of prose a pattern reads: the patterns
#: are linear, and past this a line says nothing more of a default.
MAX_PROSE_LINE = 64 * 1024


#: A parenthesised lead-in that types an entry: "(boolean, default False)
#: Whether to ...", "(multi-string) The ...".
_LEAD_IN = re.compile(
    r"^\((?P<type>[A-Za-z][A-Za-z -]{0,30}?)(?:,\s*+default(?::\s*+|\s++)(?P<default>[^()]+?))?\)[:.,]?(?:\s|$)"
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
    match = _LEAD_IN.match(text[:MAX_PROSE_LINE])
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


def sentence_end(value: str) -> str:
    """A value without the period that ends its sentence (``Default: 5.``),
    but an ellipsis, which is the value's (``Loading...``, and before the
    sentence's own period, ``Loading....``)."""
    if value.endswith("...."):
        return value[:-1]
    return value if value.endswith("...") else value.rstrip(".")


def continued(value: str, after: list[str]) -> str:
    """A value whose brackets its line leaves open, with the lines that
    close them (five at most): ``Default: [`` then ``'*migrations*']``;
    nothing when they stay open (a value cut short is no value)."""
    out = value
    for line in after[:5]:
        if balanced(out):
            break
        out = f"{out} {line.strip()}"
    return sentence_end(out) if balanced(out) else ""


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


def default_column(header: list[str]) -> int | None:
    """The column of a key table that holds defaults: ``Default``,
    ``Default value``."""
    return next(
        (i for i, name in enumerate(header) if name in ("default", "default value", "defaults")),
        None,
    )


def label(line: str) -> tuple[str, str] | None:
    """A label line (``Default: 5.``): the label and its value, blanks
    around it left out; the full stop that ends its sentence is left to
    ``sentence_end`` (a string method: a lazy pattern before it cost a
    long line its square)."""
    match = LABEL.match(line[:MAX_PROSE_LINE])
    return None if match is None else (match.group(1), match.group(2))


#: A paragraph that only announces the block after it as the default
#: ("Default:", "**Default value:**" once emphasis is left out).
_DEFAULT_ALONE = re.compile(r"(?i)default(?: value)?\s*+:")
#: The longest block taken as a default.
MAX_BLOCK_DEFAULT = 4000


def announces_default(text: str) -> bool:
    """Is a paragraph "Default:" alone, the default in the block after it?"""
    plain = text.strip()[:64].replace("*", "").replace("_", "")
    return _DEFAULT_ALONE.fullmatch(plain) is not None


def block_default(entry: RawEntry, text: str) -> None:
    """The block after "Default:" alone is the entry's default (a dict of
    middlewares and their orders), on one line, when the entry has none."""
    flat = " ".join(text[: 4 * MAX_BLOCK_DEFAULT].split())
    if entry.default is None and flat and len(flat) <= MAX_BLOCK_DEFAULT and balanced(flat):
        entry.default = flat


#: What ends the text that announces a key's values: "Possible values:",
#: "must be one of", "One of"; not "at least one of" (keys, not values).
VALUES_LEAD = re.compile(
    r"(?i)(?:\b(?:possible|valid|allowed|accepted|supported)\s++values?(?:\s++are)?\s*+:?"
    r"|(?:\b(?:be|is|are)\s++|(?:^|[,.:;(])\s*+)one\s++of\s*+:?)\s*+$"
)
#: What stands between two values of a list of them.
#: (Both match text whose spaces are collapsed and trimmed.)
_VALUES_GLUE = re.compile(r",(?: (?:or|and))?|or|and|/")
#: Text after the last value that carries the list on in words.
_OPEN_END = re.compile(r"(?:, ?)?(?:(?:or|and)\b|etc\b|\.\.\.)")


def listed_values(pieces: list[tuple[bool, str]]) -> tuple[str, ...] | None:
    """The values a paragraph lists after a lead ("Possible values are
    ``a``, ``b`` or ``c``"): its code spans, quotes dropped, joined only by
    commas, "or" and "and". ``pieces`` are the paragraph's text, each
    (is a code span, text). None where no lead is followed by two values,
    or the list goes on in words ("``a``, ``b`` or a path")."""
    merged: list[tuple[bool, str]] = []
    for code, text in pieces:
        if merged and not code and not merged[-1][0]:
            merged[-1] = (False, merged[-1][1] + text)
        else:
            merged.append((code, text))
    for at, (code, text) in enumerate(merged):
        if code or not VALUES_LEAD.search(text):
            continue
        values: list[str] = []
        i = at + 1
        while i < len(merged) and merged[i][0]:
            values.append(merged[i][1].strip().strip("\"'"))
            i += 1
            after = " ".join(merged[i][1].split()) if i < len(merged) else ""
            if i + 1 < len(merged) and _VALUES_GLUE.fullmatch(after):
                i += 1  # the next value
            elif _OPEN_END.match(after):
                return None  # the list goes on in words
        if len(values) >= 2:
            return tuple(values)
    return None
