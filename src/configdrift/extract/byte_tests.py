"""Byte tests: whether a file is worth reading at all, from its bytes.

Each is a necessary condition, never a parser: a page that fails
``may_document`` cannot hold as many entries as a doc source needs, a test
file that fails ``may_hold_config`` quotes too few of the config's keys to
hold an example. They run over every file of a large tree, so each is a
few substring counts or one compiled pattern, and the extractor keeps
their answers with each file's digest (``Extractor._wanted``).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

# A relevance test, not a parser: which identifiers occur in a page at all.
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def doc_wanted(data: bytes, needed: int | None, words: AbstractSet[str] | None = None) -> bool:
    """Is the page worth parsing: it ``may_document`` ``needed`` entries
    (and names one of ``words``, when given) or ``may_show_example``
    (``needed`` 0: only the latter; None: every page)?"""
    if needed is None:
        return True
    if words is not None:
        return may_document(data, needed) and mentions(data, words, 1)
    return (needed > 0 and may_document(data, needed)) or may_show_example(data)


def may_hold_config(data: bytes, quoted: list[tuple[bytes, bytes]]) -> bool:
    """Does the file quote two top-level keys of the config, or more?"""
    hits = 0
    for double, single in quoted:
        if double in data or single in data:
            hits += 1
            if hits >= 2:
                return True
    return False


#: Bytes every typed entry or key heading holds one of (``: [type]``,
#: ``: (type)``, ``` `key` (type)``, ``### `key```), and those every
#: code-span list item or key-table row with a code-span key holds one of.
_TYPED_MARKERS = (
    b": [",
    b":[",
    b": (",
    b":(",
    b"` (",
    b"`(",
    b"# `",
    b"# <!-- md:",
    # A bold key and its type in parentheses: ``- **name** (`int`) — ...``.
    b"** (",
    # reStructuredText: object directives, literal section titles, key terms.
    b".. confval::",
    b".. option::",
    b".. envvar::",
    b".. setting::",
    b".. conf::",
    b".. describe::",
    b".. data::",
    b".. attribute::",
    b"``\n---",
    b"``\n===",
    b"``\n~~~",
    b"``\n^^^",
)
#: A table row whose first cell is one key-like word, bare or emphasised.
_KEY_ROW = re.compile(rb"\n\|[ \t]*\**[A-Za-z_][\w.-]*\**[ \t]*\|")
_LIST_MARKERS = (b"- `", b"* `", b"+ `", b". `", b") `", b"| `", b"|`")
#: A long flag given on a command line (`` --train.lr``).
_SHELL_FLAG = re.compile(rb" --[A-Za-z]")
#: An option with its description a column to its right, two spaces or
#: more away (``  -r, --recursive   walk``), not a shell line's flag.
_OPTION_LINE = re.compile(rb"\n[ \t]*(?:-[A-Za-z], )?--[a-z][\w-]*(?:[ =][^\s]+)?  +\S")


#: What a page that generates a command line's reference holds.
_GENERATOR_MARKERS = (
    b".. argparse::",
    b".. autoprogram::",
    b".. click::",
    b".. typer::",
    b"{argparse}",
    b"{click}",
    b"{typer}",
    b"{autoprogram}",
    b"::: mkdocs-click",
    b"::: mkdocs-typer",
    # A command's ``--help`` output pasted into a page.
    b"-h, --help",
    b"\n::: ",
    b"[[autodoc]] ",
    # Pages rendered from the code: a class from its docstring (judged
    # against its constructor), a model (autodoc_pydantic).
    b".. autoclass::",
    b".. autopydantic_model::",
    b".. autopydantic_settings::",
    # traitlets' configurable classes rendered with their traits.
    b".. autoconfigurable::",
    b"{autoconfigurable}",
)


_INI_TITLE = re.compile(
    rb"^(?:#+ )?\[[A-Za-z_][\w.-]*\](?: [A-Za-z_][\w-]*)?\r?\n(?:[-=~^.'`#*+]{3}|\r?\n)",
    re.MULTILINE,
)


_WORD_TITLE = re.compile(
    rb"^(?:[a-z][a-z0-9_]*\r?\n[-=~^.'`#*+\"]{3}|#+ [*_]{0,2}[a-z][a-z0-9_]*[*_]{0,2}\r?$|#+ --[a-z]"
    # ``--dry-run`` underlined; ``max_retries (optional)``, underlined or ``###``.
    rb"|--[a-z][a-z0-9-]*\r?\n[-=~^.'`#*+\"]{3}|#+ [a-z][a-z0-9]*[_.][a-z0-9_.]* \([^()\n]{1,60}\)\r?$"
    rb"|[a-z][a-z0-9]*[_.][a-z0-9_.]* \([^()\n]{1,60}\)\r?\n[-=~^.'`#*+\"]{3}"
    # A setting's name in capitals (``#### DEFAULT_PARSER_CLASSES``).
    rb"|#+ [A-Z][A-Z0-9]*_[A-Z0-9_]*\r?$)",
    re.MULTILINE,
)


_SIGNATURE = re.compile(rb"^\.\. (?:py:)?(?:function|method|class):: [^\n]*", re.MULTILINE)
#: The signatures of a page counted for the byte test.
MAX_SIGNATURES = 50

_BARE_TERM = re.compile(
    rb"^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*(?:[ \t]+:[ \t]+[^\n]{1,80})?\r?\n[ \t]+\S", re.MULTILINE
)
#: A row of a reStructuredText simple table whose first cell is one key-like
#: word, its next cell two spaces or more away (``backlog   100``).
_SIMPLE_ROW = re.compile(rb"^[A-Za-z_][\w.-]*  +\S", re.MULTILINE)


def may_document(data: bytes, needed: int) -> bool:
    """Could the page qualify as a doc source? A page with fewer typed-entry
    markers and fewer list markers than the entries it would need cannot,
    unless it generates a command line's reference."""
    if any(m in data for m in _GENERATOR_MARKERS):
        return True
    typed = sum(data.count(m) for m in _TYPED_MARKERS)
    # reStructuredText's key terms open a line with a literal (not a fence).
    typed += data.count(b"\n``") - data.count(b"\n```")
    if typed < needed and b"\n[" in data:
        # Configparser-style titles: ``[run] branch`` underlined, ``### [run] branch``.
        typed += len(_INI_TITLE.findall(data))
    if typed < needed:
        # Titles of one key-like word: ``timeout`` underlined, ``## timeout``,
        # ``### --dry-run``.
        typed += len(_WORD_TITLE.findall(data))
    if typed < needed and b":: " in data:
        # A hand-written signature's keyword arguments with their defaults
        # (``.. function:: serve(app, port=8080)``).
        typed += sum(m.count(b"=") for m in _SIGNATURE.findall(data)[:MAX_SIGNATURES])
    if typed < needed and b"\n " in data:
        # reStructuredText's bare key terms: ``timeout``, its description
        # indented on the next line.
        typed += len(_BARE_TERM.findall(data))
    listed = sum(data.count(m) for m in _LIST_MARKERS)
    if listed < needed and b"\n===" in data:
        # Rows of a simple table (its borders are runs of ``=``).
        listed += len(_SIMPLE_ROW.findall(data))
    if listed < needed and b"\n|" in data:
        # Rows of a key table whose first cell is a bare key: | ACCESS_LOG | True |
        listed += len(_KEY_ROW.findall(data))
    if listed < needed and b"\n" in data:
        # A command's options, one a line with its description (a man page's
        # option list, a pasted ``--help``): ``  -r, --recursive   walk``.
        listed += len(_OPTION_LINE.findall(data))
    if listed < needed and b" --" in data:
        # A guide that runs the program with its flags (``app train
        # --train.lr 3e-4``): its command lines document them by example.
        listed += len(_SHELL_FLAG.findall(data))
    return typed >= needed or listed >= needed


#: Opening fences of the code blocks an example config can sit in: JSON and
#: its relatives, JavaScript, Python, YAML, TOML, and an untagged block that
#: opens a dict.
_EXAMPLE_FENCES = (
    b"```js",
    b"```hjson",
    b"```py",
    b"```yaml",
    b"```yml",
    b"```toml",
    b"~~~js",
    b"~~~yaml",
    # reStructuredText blocks in a config language (its ``python`` blocks
    # show API use far more often than a config, and docutils is slow).
    *(
        f"{directive}:: {lang}".encode()
        for directive in ("code-block", "sourcecode", "code")
        for lang in ("json", "yaml", "yml", "toml", "ini", "cfg", "javascript", "js")
    ),
    b"```\n{",
    b"```\r\n{",
    b'```\n"',
)


#: reStructuredText's Python blocks, read where the page also assigns a
#: dict literal (``html_theme_options = {`` of a ``conf.py``).
_PYTHON_FENCES = tuple(
    f"{directive}::{lang}".encode()
    for directive in ("code-block", "sourcecode", "code")
    for lang in (" python", " py", "\n")
)


#: A config file's statement on a configurable class (traitlets'
#: ``c.ServerApp.port = 8888``), indented in a reStructuredText block.
_CONFIG_STATEMENT = re.compile(rb"^[ \t]+c\.[A-Z]\w*\.\w+[ \t]*=", re.MULTILINE)


#: What a page that renders objects from their docstrings holds: an autodoc
#: directive (``.. autoclass::``, ``.. py:automodule::``, MyST's
#: ``{autoclass}``), mkdocstrings' ``::: pkg.Class``, ``[[autodoc]]``.
_RENDER_MARKERS = (b".. auto", b".. py:auto", b"{auto", b"\n::: ", b"[[autodoc]]")


def may_render_docstrings(data: bytes) -> bool:
    """Could the page render a class from its docstring?"""
    return any(m in data for m in _RENDER_MARKERS) or data.startswith(b"::: ")


def may_show_example(data: bytes) -> bool:
    """Could the page hold an example config block at all?"""
    if any(fence in data for fence in _EXAMPLE_FENCES):
        return True
    if not any(fence in data for fence in _PYTHON_FENCES):
        return False
    return b"= {" in data or (b"c." in data and _CONFIG_STATEMENT.search(data) is not None)


def mentions(data: bytes, words: AbstractSet[str], at_least: int) -> bool:
    """Does the text hold ``at_least`` distinct identifiers from ``words``?

    An escaped underscore (``weight\\_decay``) counts as an underscore.
    """
    found: set[bytes] = set()
    encoded = {w.encode() for w in words}
    for match in _WORD.finditer(data.replace(b"\\_", b"_")):
        token = match.group()
        if token in encoded and token not in found:
            found.add(token)
            if len(found) >= at_least:
                return True
    return False
