"""Python blocks and config files read as example configs, parsed with
``ast`` and never run: those that set options on a config object, as
traitlets' config files do (``c.ServerApp.port = 8888``,
``c.Spawner.env_keep.append("X")``), each statement a key ``(Class,
option)`` with the value it is given; and those that assign settings as a
module does (``CORS_ALLOW_CREDENTIALS = True``, gunicorn's ``workers =
4``), each name a key.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable
from itertools import islice

from configdrift.extract.docs.block_model import (
    DICT,
    LIST,
    MAX_LIST_ITEMS,
    PLACEHOLDER,
    VALUE,
    BlockKey,
    BlockRead,
    literal_value,
)
from configdrift.extract.docs.class_fields import shown_fields
from configdrift.extract.docs.facts import Block, DocFacts
from configdrift.extract.docs.script_parsers import closed_parser
from configdrift.extract.docs.yaml_block import read_yaml
from configdrift.extract.text import NotText, decode

#: The name a config file's statements set options on.
CONFIG_OBJECT = "c"
#: The largest block parsed (a config file of a few thousand lines).
MAX_BYTES = 512 * 1024


def _option(target: ast.expr) -> tuple[str, str] | None:
    """``(Class, option)`` for ``c.Class.option``, else None."""
    if not isinstance(target, ast.Attribute):
        return None
    owner = target.value
    if (
        isinstance(owner, ast.Attribute)
        and isinstance(owner.value, ast.Name)
        and owner.value.id == CONFIG_OBJECT
        and owner.attr[:1].isupper()
    ):
        return owner.attr, target.attr
    return None


def _given(value: ast.expr) -> tuple[str, object]:
    """What the statement gives the option, as a dict in Python code gives
    it (``literal_value``); a set is a list, in a stable order."""
    if isinstance(value, ast.Set):
        items = [literal_value(item) for item in value.elts[:MAX_LIST_ITEMS]]
        if 0 < len(value.elts) <= MAX_LIST_ITEMS and all(kind == VALUE for kind, _ in items):
            return LIST, sorted((v for _, v in items), key=repr)  # not the hash's order
        return LIST, None
    return literal_value(value)


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def read_config_statements(text: str, tree: ast.Module | None = None) -> BlockRead | None:
    """The options a block of Python sets on ``c``, or None when it sets
    none (it is then read as any other Python block). ``tree`` is the
    block already parsed."""
    if f"{CONFIG_OBJECT}." not in text or len(text) > MAX_BYTES:
        return None
    tree = tree or _parse(text)
    if tree is None:
        return None
    keys: list[BlockKey] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                found = _option(target)
                if found is not None:
                    kind, value = _given(node.value)
                    keys.append(BlockKey(found, node.lineno - 1, kind, value))
        elif isinstance(node, ast.AugAssign):
            found = _option(node.target)
            if found is not None:
                keys.append(BlockKey(found, node.lineno - 1, PLACEHOLDER))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # ``c.Spawner.env_keep.append("X")``, ``c.X.y.update({...})``.
            found = _option(node.func.value)
            if found is not None:
                keys.append(BlockKey(found, node.lineno - 1, PLACEHOLDER))
    if not keys:
        return None
    keys.sort(key=lambda k: k.line)
    # The block's tree: each class once, above its options.
    tops: list[BlockKey] = []
    seen: set[str] = set()
    for key in keys:
        if key.path[0] not in seen:
            seen.add(key.path[0])
            tops.append(BlockKey(key.path[:1], key.line, DICT))
    return BlockRead(sorted(tops + keys, key=lambda k: (k.line, len(k.path))))


#: A line that assigns a name in capitals: ``CORS_ALLOW_ALL = True``.
_CAPS_ASSIGNMENT = re.compile(r"(?m)^([A-Z][A-Z0-9_]*)[ \t]*=[^=]")
#: The list a Sphinx ``conf.py`` names its extensions in.
_EXTENSIONS = "extensions"
#: A block that is a fragment of a Sphinx ``conf.py``: it names the file in
#: a comment, or sets or extends ``extensions``. Its settings are written
#: in small letters (``copybutton_prompt_text = "$ "``).
_CONF_FRAGMENT = re.compile(
    r"(?m)^[ \t]*#.*\bconf\.py\b|^extensions[ \t]*(?:\+?=|\.(?:append|extend)\()"
)


def _extends(statement: ast.stmt) -> bool:
    """``extensions += [...]``, ``extensions.append("x")``."""
    if isinstance(statement, ast.AugAssign):
        return isinstance(statement.target, ast.Name) and statement.target.id == _EXTENSIONS
    call = statement.value if isinstance(statement, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == _EXTENSIONS
    )


#: Statements a settings module may hold besides its assignments.
_QUIET = (ast.Import, ast.ImportFrom, ast.Pass)


def read_settings_module(
    text: str, *, config_file: bool = False, tree: ast.Module | None = None, conf: bool = False
) -> BlockRead | None:
    """The settings a block of Python assigns, as a settings module does
    (``CORS_ALLOW_CREDENTIALS = True``, gunicorn's ``workers = 4``): each
    top-level name is a key with its value. None unless the block is only
    that: two assignments or more, to single names, with imports and a
    docstring beside them. In a page the names must be spelt in capitals
    and a dict is left to the dict reader (``REST_FRAMEWORK = {...}``
    gives the dict's keys); a config file (``config_file``) may name its
    settings in any case and define hooks (functions) too. ``tree`` is the
    block already parsed."""
    if "=" not in text or len(text) > MAX_BYTES:
        return None
    fragment = not config_file and (conf or _CONF_FRAGMENT.search(text) is not None)
    found = [] if config_file else list(islice(_CAPS_ASSIGNMENT.finditer(text), 2))
    if not (config_file or fragment) and not (
        len(found) == 2 or (found and "_" in found[0].group(1))
    ):
        return None  # no two settings in capitals (or one named in parts): not parsed
    tree = tree or _parse(text)
    if tree is None:
        return None
    keys: list[BlockKey] = []
    for statement in tree.body:
        if isinstance(statement, _QUIET) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            continue
        if fragment and _extends(statement):
            continue  # ``extensions.append("x")``: the documentation tool's, not a setting
        if config_file and isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            continue  # a hook, not a value
        assigned = _assignment(statement)
        if assigned is None:
            return None  # code, not settings
        name, given = assigned
        if name.startswith("_") or not (config_file or fragment or name.isupper()):
            return None
        if fragment and name == _EXTENSIONS:
            continue
        kind, value = literal_value(given)
        if kind == DICT and not config_file:
            continue  # the dict reader gives its keys
        keys.append(BlockKey((name,), statement.lineno - 1, kind, value))
    if len(keys) < 2 and not (keys and not config_file and "_" in keys[0].path[0]):
        # One setting is a block of its own where its name is in parts
        # (``SILKY_META = True``), as a setting's is.
        return None
    return BlockRead(keys)


def _assignment(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    """The one name a statement assigns and its value (``workers = 4``),
    else None."""
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        return statement.targets[0].id, statement.value
    return None


def loose_settings(text: str, tree: ast.Module | None) -> list[BlockKey] | None:
    """The settings of a block that only assigns literals to names in
    small letters, one of them at least in parts (``mermaid_cmd = "npx
    mmdc"``), with no page leading into it as a ``conf.py``: settings of
    such a file perhaps, or a script's variables. ``tree`` is the block
    parsed, where it was."""
    if "_" not in text or "=" not in text or len(text) > MAX_BYTES:
        return None
    tree = tree or _parse(text)
    if tree is None or not tree.body:
        return None
    keys: list[BlockKey] = []
    for statement in tree.body:
        assigned = _assignment(statement)
        if assigned is None:
            return None  # code, not settings
        name, given = assigned
        kind, value = literal_value(given)
        if name.startswith("_") or kind == PLACEHOLDER:
            return None  # a private name, or a value computed: a script's
        keys.append(BlockKey((name,), statement.lineno - 1, kind, value))
    return keys if any("_" in key.path[0] for key in keys) else None


#: The languages a block of a settings module is mislabelled with
#: (``console``, ``text``) or given none.
_PLAIN_LANGS = frozenset({"", "console", "shell", "sh", "bash", "text", "txt", "none"})
#: ``NAME = value``: an assignment spaced as Python writes it, which no
#: shell line is (``NAME=value`` sets a variable; ``NAME = value`` runs ``NAME``).
_SPACED_ASSIGNMENT = re.compile(r"^[A-Z][A-Z0-9_]* = \S", re.M)
#: ``name = {``: a dict assigned to a name, as a ``conf.py`` does.
_DICT_ASSIGNMENT = re.compile(r"(?<!\w)[A-Za-z_]\w* = \{")


#: A line at the left of a YAML mapping: a key, its colon, a space or the end.
_TOP_KEY = re.compile(r"[A-Za-z_][\w.-]{0,80}:(?:[ \t]|$)")


def yaml_config(text: str) -> bool:
    """Is an untagged block a YAML config: every line at its left a key
    (``port: 8080``; a comment or a list's item aside), two lines at
    least, one of its keys given a mapping, a list, a number or a boolean?
    A ``--help`` output (``Usage: ...``, ``Options:``) or a list of commit
    messages (``fix: ...``) gives its keys prose alone."""
    tops = [
        line
        for line in text.splitlines()
        if line.strip() and not line[0].isspace() and not line.startswith(("#", "- "))
    ]
    if len(tops) < 2 or not all(_TOP_KEY.match(line) for line in tops):
        return False
    # A block that does not parse gives keys with no value: no structure.
    return any(
        key.kind in (DICT, LIST)
        or (key.kind == VALUE and key.value is not None and not isinstance(key.value, str))
        for key in read_yaml(text).keys
    )


def _dict_assignment(text: str) -> bool:
    """Is the block one assignment of a dict literal to a name? A line that
    is only ``...`` elides the keys the example leaves out."""
    shown = "\n".join("" if line.strip() in ("...", "...,") else line for line in text.splitlines())
    tree = _parse(shown)
    return (
        tree is not None
        and len(tree.body) == 1
        and isinstance(tree.body[0], ast.Assign)
        and isinstance(tree.body[0].value, ast.Dict)
    )


def block_language(lang: str, text: str) -> str:
    """The language a code block is read in: ``python`` for a settings
    module mislabelled as a shell session or plain text (every statement a
    ``NAME = value`` spaced as Python writes it, two at least), or an
    untagged block that assigns one dict literal to a name; ``yaml`` for
    an untagged block that is a YAML config (``yaml_config``); else
    ``lang``. A ``.env`` file or a shell session (``NAME=value``) stays
    what it is labelled."""
    if not lang and len(text) <= MAX_BYTES and yaml_config(text):
        return "yaml"  # reST's ``Example::``, a fence with no language
    if lang not in _PLAIN_LANGS or len(text) > MAX_BYTES or "=" not in text:
        return lang
    if not lang and _DICT_ASSIGNMENT.match(text.lstrip()) and _dict_assignment(text):
        return "python"  # an untagged ``conf.py`` fragment: ``options = {...}``
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    spaced = len(_SPACED_ASSIGNMENT.findall(text))
    if spaced < 2 or spaced != len(lines) or read_settings_module(text) is None:
        return lang
    return "python"


#: The name a Python config file outside the code ends with
#: (``jupyterhub_config.py``, ``example_config.py``).
CONFIG_FILE_SUFFIX = "config.py"
#: Sphinx's config file, read for the names it assigns alone (its code
#: beside them is no settings module's).
SPHINX_CONF = "conf.py"


def config_file_facts(data: bytes) -> DocFacts:
    """A Python config file outside the code as a page whose one block is
    the file: the options it sets on ``c``, else the settings it assigns as
    a module (hooks beside them); no block when it is neither. And the
    names it assigns at its top level, whatever code is beside them
    (``DocFacts.assigned``). Read with ``ast``, never run."""
    try:
        text = decode(data)
    except NotText:
        return DocFacts()
    tree = _parse(text) if len(text) <= MAX_BYTES else None
    if tree is None:
        return DocFacts()
    # Parsed once for both readings.
    read = read_config_statements(text, tree) or read_settings_module(
        text, config_file=True, tree=tree
    )
    # A name the file reads itself is its variable (``year`` of
    # ``copyright = f"{year} ..."``), not a setting for certain.
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    assigned = [
        (name, statement.lineno)
        for statement in tree.body
        if (found := _assignment(statement)) is not None
        and not (name := found[0]).startswith("_")
        and name not in loaded
    ]
    if read is None:
        return DocFacts(assigned=assigned)
    keys = [k.at(1) for k in read.keys]
    blocks = [Block(0, 1, "python", keys, what="the config file")]
    return DocFacts(blocks=blocks, assigned=assigned)


#: Calls read from one Python block at most, and how deep a keyword's dict
#: value is followed.
MAX_CALLS = 50
_MAX_NESTING = 4


def read_calls(
    text: str, tree: ast.Module | None = None
) -> list[tuple[str, int, list[BlockKey], str]]:
    """The calls of a Python block that pass keyword arguments by name
    (``deepspeed.init_inference(model, mp_size=2, dtype=torch.half)``): the
    callee's dotted name, the call's line in the block (0-based) and each
    keyword as a key with its value, a dict's keys under it. Whether the
    callee builds a configuration from them is decided with the code; the
    module the block imports the callee's first name from comes last."""
    if "=" not in text or "(" not in text or len(text) > MAX_BYTES:
        return []
    tree = tree or _parse(text)
    if tree is None:
        return []
    origins = _imported_from(tree)
    out: list[tuple[str, int, list[BlockKey], str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _callee(node.func)
        named = [k for k in node.keywords if k.arg is not None]
        if callee is None or not named:
            continue
        keys: list[BlockKey] = []
        for keyword in named:
            assert keyword.arg is not None
            _value_keys((keyword.arg,), keyword.value, keyword.value.lineno - 1, keys, 0)
        out.append((callee, node.lineno - 1, keys, origins.get(callee.split(".", 1)[0], "")))
        if len(out) >= MAX_CALLS:
            break
    out.sort(key=lambda call: call[1])
    return out


#: The longest code span read as a call, and the most read on a page.
MAX_INLINE_CALL = 300
MAX_INLINE_CALLS = 200


#: Words of prose that tells of a call no longer to write: "`Trainer(...,
#: tokenizer=t)`: use `processing_class=` instead".
_RETIRED = frozenset(
    {"deprecated", "deprecates", "removed", "renamed", "replaced", "instead", "obsolete", "legacy"}
)
_WORD = re.compile(r"[a-z]+")


def inline_call(code: str, line: int, section: int, calls: list[Block], prose: str) -> None:
    """A code span in prose that is one call with keyword arguments
    (``StaticErrorEvaluator(const=0)``), into ``calls`` as a call block at
    its line, as a Python block's calls are; not where the ``prose`` around
    it tells of a call retired."""
    code = code.strip()
    if (
        len(code) > MAX_INLINE_CALL
        or "=" not in code
        or len(calls) >= MAX_INLINE_CALLS
        or not _RETIRED.isdisjoint(_WORD.findall(prose.lower()))
    ):
        return
    try:
        node = ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    if not isinstance(node, ast.Call):
        return
    for callee, _, keys, _ in read_calls(code, ast.Module([ast.Expr(node)], [])):
        if callee == _callee(node.func):
            what = f"the call of `{callee}`"
            shifted = [k.at(line) for k in keys]
            calls.append(Block(section, line, "python", shifted, what=what, call=callee))
            return


def _imported_from(tree: ast.Module) -> dict[str, str]:
    """The module each name a block imports comes from: ``from m import
    Name`` (``Name``: ``m``), ``import m.sub as n`` (``n``: ``m.sub``)."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                out[alias.asname or alias.name] = node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".", 1)[0]] = alias.name
    return out


def _callee(func: ast.expr) -> str | None:
    """``a.b.c`` for a call of a dotted name, else None."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    parts.append(func.id)
    return ".".join(reversed(parts))


def _value_keys(
    path: tuple[str, ...], value: ast.expr, line: int, out: list[BlockKey], depth: int
) -> None:
    kind, given = literal_value(value)
    out.append(BlockKey(path, line, kind, given))
    if not isinstance(value, ast.Dict) or depth >= _MAX_NESTING:
        return
    for key, item in islice(zip(value.keys, value.values, strict=True), MAX_LIST_ITEMS):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            _value_keys((*path, key.value), item, item.lineno - 1, out, depth + 1)


def python_blocks(
    content: str,
    first: int,
    section: int,
    lang: str,
    into: DocFacts | None = None,
    conf: bool = False,
) -> tuple[list[Block], list[Block]]:
    """What a Python block of a page gives besides its dicts: the settings
    it assigns as a settings module does (a block; in small letters too
    where the page leads into it as a ``conf.py``), and its calls with
    keyword arguments (call blocks, ``Block.call``), at the page's lines."""
    blocks: list[Block] = []
    # Parsed once for both readings, where a call with keywords may be.
    calls_possible = "=" in content and "(" in content and len(content) <= MAX_BYTES
    tree = _parse(content) if calls_possible else None
    settings = read_settings_module(content, tree=tree, conf=conf)
    if settings is not None:
        blocks.append(Block(section, first, lang, [k.at(first) for k in settings.keys]))
    calls = [
        Block(
            section,
            first + line,
            lang,
            [k.at(first) for k in keys],
            what=f"the call of `{callee}`",
            call=callee,
            origin=origin,
        )
        for callee, line, keys, origin in (read_calls(content, tree) if tree is not None else [])
    ]
    if into is not None:
        # A page's block: its blocks and calls, and the fields it shows.
        if settings is None and (loose := loose_settings(content, tree)) is not None:
            into.loose_settings.append(Block(section, first, lang, [k.at(first) for k in loose]))
        into.blocks.extend(blocks)
        into.calls.extend(calls)
        into.entries.extend(shown_fields(content, first, section, tree))
    return blocks, calls


def script_facts(data: bytes, page: Callable[[bytes], DocFacts] | None = None) -> DocFacts:
    """An example script's calls with keyword arguments of what it imports
    (``from pkg import Storage`` then ``Storage(url=...)``; ``import pkg``
    then ``pkg.storages.Storage(...)``), at its lines: a name it defines
    itself is its own; and, of a script the docs run, its one parser's
    flags where they are all known (``script_parsers``). Where its
    docstring is a page (a sphinx-gallery
    example's reST, read by ``page``), the classes and functions that
    page renders from their docstrings (``.. autofunction:: pkg.plot``)."""
    text = data.decode("utf-8", "replace")
    gallery = page is not None and b".. auto" in data
    tree = _parse(text) if len(text) <= MAX_BYTES and (gallery or "=" in text) else None
    calls = [
        Block(
            0,
            1 + line,
            "python",
            [k.at(1) for k in keys],
            what=f"the call of `{callee}`",
            call=callee,
            origin=origin,
        )
        for callee, line, keys, origin in (read_calls(text, tree) if tree else [])
        if origin
    ]
    facts = DocFacts(calls=calls, parser=closed_parser(tree) if tree is not None else None)
    docstring = _module_docstring(tree) if gallery and tree is not None else None
    if page is not None and docstring is not None:
        rendered, first = page(docstring[0].encode()), docstring[1]
        facts.autodoc = [(target, first + line - 1) for target, line in rendered.autodoc]
        facts.module_members = [(m, first + line - 1) for m, line in rendered.module_members]
        facts.summarised = [(name, first + line - 1) for name, line in rendered.summarised]
        facts.members = [(name, first + line - 1) for name, line in rendered.members]
        facts.templated = [(n, t, first + line - 1) for n, t, line in rendered.templated]
    return facts


def _module_docstring(tree: ast.Module) -> tuple[str, int] | None:
    """A module's docstring as written, with the line it opens on."""
    first = tree.body[0] if tree.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return textwrap.dedent(first.value.value), first.lineno
    return None
