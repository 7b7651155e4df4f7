"""The options of the Sphinx HTML themes a project ships: the ``[options]``
section of a ``theme.conf`` (INI) or the ``[options]`` table of a
``theme.toml``, beside a ``[theme]`` that says what it inherits. Users set
them in ``html_theme_options``; Sphinx hands each to the templates as
``theme_<name>``. A MkDocs theme's ``mkdocs_theme.yml`` holds its options
at its top (``extends`` names the theme it inherits); users set them under
``theme:``, the templates read ``config.theme.<name>``. Each option comes with its default, and with whether a
template or the code spells it (read by nothing if none does).
"""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from pathlib import Path

from configdrift.discover import MKDOCS_THEME, PAGE_TEMPLATES
from configdrift.extract.docs.block_model import PLACEHOLDER, VALUE, BlockKey
from configdrift.extract.docs.blocks import read_block
from configdrift.extract.text import NotText, decode
from configdrift.files import Unreadable, read_file, read_or_none
from configdrift.index.spellings import alternation
from configdrift.resolve.schema import ThemeOptions

#: The keys of a ``mkdocs_theme.yml`` MkDocs takes for itself, not the
#: theme's options: the theme it ``extends`` and the ``static_templates``
#: it renders on their own.
MKDOCS_OWN = frozenset({"extends", "static_templates"})
#: What a theme that inherits no other inherits (Sphinx's ``none``).
NO_THEME = "none"
#: The largest options file, template or code file searched.
MAX_BYTES = 1 << 20
#: The longest value read as a Python literal (``{}``, ``[]``).
MAX_LITERAL = 10_000


def theme_options(
    root: Path, themes: list[str], templates: list[str], code: list[str]
) -> list[ThemeOptions]:
    """The options of each theme file (``theme.conf``, ``theme.toml``) that
    declares a theme and options."""
    found: list[tuple[str, str, list[BlockKey], frozenset[str]]] = []
    for rel in themes:
        read = _read(root, rel)
        if read is not None and read[1]:
            found.append((rel, *read))
    # A theme's templates may read the options of the themes that inherit it.
    names = {key.path[0] for _, _, options, _ in found for key in options}
    # The code is searched once, for every theme.
    in_code = _spelt(root, code, names) if found else frozenset()
    out: list[ThemeOptions] = []
    for rel, inherit, options, deprecated in found:
        folder = rel.rsplit("/", 1)[0] + "/"
        mine = [t for t in templates if t.startswith(folder)]
        own = _spelt(root, mine, names)
        if not any(t.endswith(PAGE_TEMPLATES) for t in mine):
            own = None  # its pages are built from elsewhere: what they read is not known
        spelt = None if own is None or in_code is None else own | in_code
        out.append(ThemeOptions(rel, inherit, options, spelt, deprecated))
    return out


def _read(root: Path, rel: str) -> tuple[str, list[BlockKey], frozenset[str]] | None:
    """What the theme inherits, its options and those a comment above
    marks deprecated; None for a file that is no theme's."""
    try:
        text = decode(read_file(root, rel, MAX_BYTES))
    except (FileNotFoundError, Unreadable, NotText):
        return None
    if rel.endswith(MKDOCS_THEME):
        # A MkDocs theme's options: every top-level key but what MkDocs
        # itself takes (read with the YAML reader of example blocks).
        keys = [key for key in read_block(text, "yaml").keys if len(key.path) == 1]
        extends = next((key.value for key in keys if key.path == ("extends",)), None)
        options = [key.at(1) for key in keys if key.path[0] not in MKDOCS_OWN]
        parent = extends if isinstance(extends, str) else NO_THEME
        return parent, options, _deprecated(text.splitlines(), options)
    lang = "toml" if rel.endswith(".toml") else "ini"
    lines = {
        key.path[1]: key.line + 1
        for key in read_block(text, lang).keys
        if len(key.path) == 2 and key.path[0] == "options"
    }
    if lang == "toml":
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            return None
        theme, options = data.get("theme"), data.get("options", {})
        if not isinstance(theme, dict) or not isinstance(options, dict):
            return None
        inherit = theme.get("inherit")
        values = {str(k): v for k, v in options.items()}
    else:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(text)
        except (configparser.Error, RecursionError):
            return None
        inherit = parser.get("theme", "inherit", fallback=None)
        options_section = parser["options"] if parser.has_section("options") else {}
        values = {k: _conf_value(v) for k, v in options_section.items()}
    if not isinstance(inherit, str):
        return None
    keys = [
        BlockKey((name,), lines.get(name, 1), PLACEHOLDER if value is None else VALUE, value)
        for name, value in values.items()
    ]
    return inherit, keys, _deprecated(text.splitlines(), keys)


def _deprecated(lines: list[str], keys: list[BlockKey]) -> frozenset[str]:
    """The options under a comment that calls them deprecated, in the run
    of lines it heads (``# DEPRECATED (remove after 1.0)`` above two
    options), up to a blank line."""
    out: set[str] = set()
    for key in keys:
        at = key.line - 2  # the line above, counted from 0
        while 0 <= at < len(lines) and lines[at].strip():
            line = lines[at].strip()
            if line.startswith(("#", ";")) and "deprecat" in line.lower():
                out.add(key.path[0])
                break
            at -= 1
    return frozenset(out)


def _conf_value(text: str) -> object:
    """An INI value as the theme means it: a boolean, a number, a literal
    dict or list; None for an empty one (unset), else the text."""
    text = text.strip()
    if not text:
        return None
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if re.fullmatch(r"-?\d{1,18}", text):
        return int(text)
    if text[0] in "{[" and len(text) <= MAX_LITERAL:
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError, RecursionError, MemoryError):
            return text
    return text


def _spelt(root: Path, rels: list[str], names: set[str]) -> frozenset[str] | None:
    """The ``names`` the files ``rels`` (templates, code) spell as
    ``theme_<name>`` or quote, or begin as a name they complete
    (``f"pygments_{mode}_style"``, ``"logo_" + part``); None when one of
    them cannot be read."""
    if not names:
        return frozenset()
    spelt = alternation(names)
    # Sphinx's templates read ``theme_<name>``, MkDocs's ``config.theme.<name>``.
    pattern = re.compile(
        rb"""(?<![\w-])(?:theme_(%b)|theme\.(%b)|["'](%b)["'])(?![\w-])""" % (spelt, spelt, spelt)
    )
    # The beginnings of the names, up to an ``_``, that code may complete.
    starts = {n[: i + 1] for n in names for i, c in enumerate(n) if c == "_" and i}
    begun = alternation(starts) or b"(?!)"
    started = re.compile(
        rb"""(?<![\w])(?:f["'](%b)\{|["'](%b)["']\s*\+|["'](%b)%%s)""" % (begun, begun, begun)
    )
    found: set[str] = set()
    for rel in rels:
        data = read_or_none(root, rel, MAX_BYTES)
        if data is None:
            return None
        found.update(next(g for g in m.groups() if g).decode() for m in pattern.finditer(data))
        for m in started.finditer(data):
            start = (m.group(1) or m.group(2) or m.group(3)).decode()
            found.update(n for n in names if n.startswith(start))
        if found >= names:
            break
    return frozenset(found)
