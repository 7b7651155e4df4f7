"""Example blocks read by their fence language: YAML, TOML and INI by their
own readers, Python that sets options on a config object by
``python_config``, everything else (JSON, JSONC, JSON5, Python's dicts,
unlabelled) by the tolerant JSON-like reader. What a reader yields is in ``block_model``."""

from __future__ import annotations

import re

from configdrift.extract.docs.block_model import BlockRead
from configdrift.extract.docs.json_like import read_json_like
from configdrift.extract.docs.python_config import read_config_statements
from configdrift.extract.docs.toml_block import INI_LANGS, read_ini, read_toml
from configdrift.extract.docs.yaml_block import read_yaml

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
    if lang in ("python", "py"):
        # A config file's statements (``c.ServerApp.port = 8888``), else the
        # dicts the code writes.
        return read_config_statements(text) or read_json_like(text, python=True)
    return read_json_like(text)


#: A fence's opening line: three backticks or tildes and its language.
_FENCE_OPEN = re.compile(r"(`{3,}+|~{3,}+)[ \t]*+([\w+.-]*+)[^`]*+")


def indented_fence(content: str) -> tuple[str, str] | None:
    """The language and the text of a fence that an indented code block
    holds whole (its first line opens it, its last closes it), as a
    container CommonMark does not know leaves it; None otherwise."""
    lines = content.rstrip("\n").split("\n")
    if len(lines) < 2:
        return None
    opening = _FENCE_OPEN.fullmatch(lines[0].strip())
    if opening is None or lines[-1].strip() != opening.group(1):
        return None
    return opening.group(2).lower(), "\n".join(lines[1:-1]) + "\n"


#: MyST's directives that show code in the language their argument names
#: (```` ```{code-block} python ````); a notebook cell's ``ipython`` is Python.
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell"})
#: A fence named by its language in braces, as Quarto and Jupyter Book
#: write an executable cell (```` ```{python} ````).
_BRACED_LANGUAGES = {"python": "python", "py": "python", "ipython": "python", "ipython3": "python"}


def directive_code(info: str, content: str) -> tuple[str, str, int] | None:
    """The language, the text and the lines set aside before it (the
    directive's ``:caption:`` options) of a fence that shows code through
    a MyST directive or a braced language; None for any other directive."""
    words = info.split()
    if not words:
        return None
    name = words[0].strip("{}").lower()
    if name in _CODE_DIRECTIVES:
        lang = words[1].lower() if len(words) > 1 else ""
    elif name in _BRACED_LANGUAGES:
        lang = name
    else:
        return None
    lang = _BRACED_LANGUAGES.get(lang, lang)
    lines = content.split("\n")
    skipped = 0
    while skipped < len(lines) and lines[skipped].startswith(":"):
        skipped += 1  # ``:caption: The settings`` and ``:linenos:``
    return lang, "\n".join(lines[skipped:]), skipped
