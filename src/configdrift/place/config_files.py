"""The repository's config files, each as one example block whose keys sit
at the top of the config: those the configuration declares, and the JSON
and YAML files shaped like a config; and the files of defaults a package
ships (confuse's, and those its code loads by name). Python config files
outside the code are read by the extractor
(``python_config.config_file_facts``)."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from pathlib import Path

from configdrift.discover import in_tests
from configdrift.extract.docs.block_model import PLACEHOLDER, VALUE, BlockKey, BlockRead
from configdrift.extract.docs.blocks import read_block
from configdrift.extract.docs.facts import Block, DocFacts
from configdrift.extract.docs.json_schema import schema_facts
from configdrift.extract.text import NotText, decode
from configdrift.files import Unreadable, read_file, read_or_none
from configdrift.index.spellings import normal
from configdrift.resolve.mechanisms.confuse import DEFAULTS_FILES


def config_text(root: Path, rel: str, limit: int | None = None) -> str | None:
    """A config file's text (of ``MAX_CONFIG_BYTES`` at most, unless
    ``limit`` says), or None when it cannot be read as text."""
    try:
        return decode(read_file(root, rel, MAX_CONFIG_BYTES if limit is None else limit))
    except (FileNotFoundError, Unreadable, NotText):
        return None


def named_yaml(
    root: Path, rels: list[str], names: Collection[str]
) -> Iterator[tuple[str, str, BlockRead]]:
    """Each file of ``rels`` whose name is one of ``names``, with its text,
    read whole as YAML (a file that cannot be read, or not whole, is none)."""
    for rel in rels:
        if rel.rsplit("/", 1)[-1] not in names:
            continue
        text = config_text(root, rel)
        if text is None:
            continue
        read = read_block(text, "yaml")
        if read.error is None:
            yield rel, text, read


def defaults_files(root: Path, rels: list[str]) -> list[tuple[str, list[BlockKey]]]:
    """The keys of confuse's defaults files (``config_default.yaml``)."""
    return [(rel, read.keys) for rel, _, read in named_yaml(root, rels, DEFAULTS_FILES)]


#: How many Python files beside a defaults file are searched for its name.
MAX_LOADERS = 50
#: The most places one file's name is looked at in one module.
MAX_NAMINGS = 20
#: A defaults file gives this many values at least.
MIN_DEFAULTS = 5


def package_defaults_files(
    root: Path, rels: list[str], code_paths: list[str]
) -> list[tuple[str, list[BlockKey], frozenset[str], frozenset[str]]]:
    """Files of defaults (YAML, JSON, TOML, INI) shipped in a package (a
    folder with an ``__init__.py``) and loaded by its code (``dask.yaml``
    beside ``config.py``, which names it, ``default_config.cfg``): a
    mapping of five
    values or more, not a JSON Schema, whose name a Python file of its
    folder quotes. Each with its keys, the dotted paths of its values the
    code quotes (``config.get("array.chunk-size")``), and the dotted paths
    of its keys the code may read at all: quoted, under a quoted path (a
    section read whole), or after a quoted beginning the code completes
    (``"parquet.task-size-" + kind``, ``f"array.{name}"``)."""
    by_folder: dict[str, list[str]] = {}
    for path in code_paths:
        by_folder.setdefault(path.rsplit("/", 1)[0] if "/" in path else "", []).append(path)
    # Shipped in a package: a folder with its ``__init__.py`` (a script at
    # the root that reads ``mkdocs.yml`` reads the site's configuration).
    packages = {
        folder
        for folder, paths in by_folder.items()
        if any(path.rsplit("/", 1)[-1] == "__init__.py" for path in paths)
    }
    loaded: dict[str, list[bytes]] = {}
    found: list[tuple[str, list[BlockKey]]] = []
    for rel in rels:
        folder, _, name = rel.rpartition("/")
        lang = _DATA_LANGS.get(name.rsplit(".", 1)[-1])
        if lang is None or "schema" in name.lower():
            continue
        if folder not in packages:
            continue
        if folder not in loaded:
            # Each folder's modules are read once, for all its files.
            loaded[folder] = [
                data
                for path in by_folder[folder][:MAX_LOADERS]
                if (data := read_or_none(root, path)) is not None
            ]
        quoted = (f'"{name}"'.encode(), f"'{name}'".encode())
        if not any(_reads(data, q) for data in loaded[folder] for q in quoted):
            continue
        text = config_text(root, rel)
        if text is None:
            continue
        read = read_block(text, lang)
        tops = {k.path[0] for k in read.keys if len(k.path) == 1}
        # An INI file's values are strings the code converts: its options
        # count, with no default known.
        counted = (VALUE, PLACEHOLDER) if lang == "ini" else (VALUE,)
        values = sum(1 for k in read.keys if k.kind in counted)
        if tops <= _LOGGING_KEYS and {"version", "handlers"} <= tops:
            continue  # ``logging.config.dictConfig``'s keys: the standard library's configuration
        if read.error is None and values >= MIN_DEFAULTS and not tops & _SCHEMA_KEYS:
            found.append((rel, [k.at(1) for k in read.keys]))
    strings, starts = quoted_dotted(root, code_paths) if found else (frozenset(), frozenset())
    return [
        (rel, keys, _read_paths(keys, strings), _covered(keys, strings, starts))
        for rel, keys in found
    ]


#: A file opened for writing: a mode of ``w``, ``a`` or ``x``.
_WRITTEN = re.compile(rb"""(?<![\w'"])['"][wax][bt]?\+?['"]""")


def _reads(code: bytes, quoted: bytes) -> bool:
    """Does the code name the file other than on a line that opens it for
    writing (a script that generates it: ``open(HERE / "x.yaml", "w")``)?"""
    start = code.find(quoted)
    for _ in range(MAX_NAMINGS):
        if start < 0:
            return False
        end = code.find(b"\n", start)
        line = code[code.rfind(b"\n", 0, start) + 1 : len(code) if end < 0 else end]
        if _WRITTEN.search(line) is None:
            return True
        start = code.find(quoted, start + 1)
    return start >= 0  # named more often than is read: named


#: The reader of each kind of defaults file.
_DATA_LANGS = {
    "yaml": "yaml",
    "yml": "yaml",
    "json": "json",
    "toml": "toml",
    "cfg": "ini",
    "ini": "ini",
}


#: A quoted dotted name: ``"array.chunk-size"``.
_DOTTED = re.compile(rb"""["']([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)["']""")
#: The quoted beginning of a dotted name the code completes: a string
#: that a ``+`` follows, or an f-string's text before its first field.
_STARTED = re.compile(
    rb"""(?:["']([A-Za-z_][\w-]*\.[\w.-]*)["']\s*\+|f["']([A-Za-z_][\w-]*\.[\w.-]*)\{)"""
)


def quoted_dotted(root: Path, code_paths: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Every quoted dotted name of the code, and every quoted beginning of
    one it completes, ``-`` spelt ``_``."""
    out: set[str] = set()
    starts: set[str] = set()
    for path in code_paths[:MAX_CODE_FILES]:
        data = read_or_none(root, path)
        if data is not None:
            out.update(m.decode().replace("-", "_") for m in _DOTTED.findall(data))
            for plain, formatted in _STARTED.findall(data):
                starts.add((plain or formatted).decode().replace("-", "_"))
    return frozenset(out), frozenset(starts)


def _covered(
    keys: list[BlockKey], strings: frozenset[str], starts: frozenset[str]
) -> frozenset[str]:
    """The dotted paths of ``keys`` the code may read: quoted whole, under
    a quoted path, or beginning with a quoted beginning."""
    out: set[str] = set()
    for key in keys:
        if not all(isinstance(p, str) for p in key.path):
            continue
        dotted = ".".join(key.path)
        spelt = dotted.replace("-", "_")
        parts = spelt.split(".")
        if any(".".join(parts[:i]) in strings for i in range(1, len(parts) + 1)) or any(
            spelt.startswith(start) for start in starts
        ):
            out.add(dotted)
    return frozenset(out)


def _read_paths(keys: list[BlockKey], strings: frozenset[str]) -> frozenset[str]:
    """The dotted paths of ``keys`` (two parts or more) among ``strings``,
    ``-`` and ``_`` taken as one."""
    out: set[str] = set()
    for key in keys:
        if len(key.path) >= 2 and all(isinstance(p, str) for p in key.path):
            dotted = ".".join(key.path)
            if dotted.replace("-", "_") in strings:
                out.add(dotted)
    return frozenset(out)


#: How many code files are searched for the keys of a defaults file.
MAX_CODE_FILES = 5000


#: Top-level keys of a JSON Schema: a file that describes a config, not one.
_SCHEMA_KEYS = frozenset({"$schema", "properties", "definitions", "$defs"})

#: The keys of a logging configuration (``logging.config.dictConfig``).
_LOGGING_KEYS = frozenset(
    {"version", "formatters", "filters", "handlers", "loggers", "root", "incremental"}
    | {"disable_existing_loggers"}
)


#: Larger JSON files are data, not configs: they are not read.
MAX_CONFIG_BYTES = 1024 * 1024


def config_files(
    root: Path,
    rels: list[str],
    spellings: set[str],
    declared: list[str],
    dashes: bool = False,
    reads: dict[str, BlockRead] | None = None,
) -> list[tuple[str, Block]]:
    """Config files of this project, each as one block (language ``file``)
    whose keys sit at the top of the config: the files the configuration
    declares (``config-files``: JSON, YAML, TOML or INI), and the JSON and
    YAML files shaped like a
    config: two top-level keys or more, at least half of them top-level keys
    of the schema. A file that cannot be read whole keeps its error.

    Most JSON and YAML files are data: byte searches for top-level keys and
    the C JSON parser turn them away before a reader that keeps every key's
    line looks at a config. ``spellings`` are the config's top-level keys;
    with ``dashes``, a file may write them with ``-`` for ``_``
    (``"save-interval"``), as a loader that turns one into the other reads
    them (a lenient configuration's: what a strict one makes of them is
    not known). Each YAML file is parsed once: ``reads`` keeps what was
    read (by ``file_tops`` too)."""
    out: list[tuple[str, Block]] = []
    for rel in declared:
        block = _config_file(root, rel, spellings, shaped=False)
        if block is not None:
            out.append((rel, block))
    if len(spellings) < 2:
        return out
    if dashes:
        spellings = spellings | {s.replace("_", "-") for s in spellings}
    quoted = [f'"{s}"'.encode() for s in spellings]
    for rel in rels:
        block = _config_file(root, rel, spellings, shaped=True, quoted=quoted, reads=reads)
        if block is not None:
            out.append((rel, block))
    return out


def _config_file(
    root: Path,
    rel: str,
    spellings: set[str],
    *,
    shaped: bool,
    quoted: list[bytes] | None = None,
    reads: dict[str, BlockRead] | None = None,
) -> Block | None:
    """One config file as a block; with ``shaped``, only if shaped like one."""
    try:
        data = read_file(root, rel, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return None if shaped else Block(0, 1, "file", [], "cannot read: no such file", 1)
    except Unreadable as exc:
        return None if shaped else Block(0, 1, "file", [], str(exc), 1)
    yaml = rel.endswith((".yaml", ".yml"))
    if shaped and quoted is not None:
        if yaml:
            hits = sum(
                1
                for s in spellings
                if data.startswith(s.encode() + b":") or b"\n" + s.encode() + b":" in data
            )
            if hits < 2 and data.lstrip()[:1] == b"{":
                # YAML written as JSON (``{"pipe_parallel_size": 1, ...}``).
                hits = sum(1 for q in quoted if q in data)
        else:
            hits = sum(1 for q in quoted if q in data)
        if hits < 2:
            return None
    try:
        text = decode(data)
    except NotText as exc:
        return None if shaped else Block(0, 1, "file", [], str(exc), 1)
    read: BlockRead | None = None
    tops: set[str]
    lang = _DATA_LANGS.get(rel.rsplit(".", 1)[-1].lower(), "json")
    if lang in ("yaml", "toml", "ini"):
        # TOML and INI files are read where the configuration declares
        # them (``config-files``); ``[section] key`` is ``section.key``.
        read = reads.get(rel) if reads is not None else None
        if read is None:
            read = read_block(text, lang)
            if reads is not None:
                reads[rel] = read
        tops = {k.path[0] for k in read.keys if len(k.path) == 1}
    else:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError, MemoryError):
            # Comments, trailing commas: the tolerant reader decides.
            read = read_block(text, "json")
            tops = {k.path[0] for k in read.keys if len(k.path) == 1}
        else:
            if not isinstance(value, dict):
                if shaped:
                    return None
                return Block(0, 1, "file", [], "not a mapping of config keys", 1)
            tops = set(value)
    if shaped:
        known = len(tops & spellings)
        if not (len(tops) >= 2 and known >= 2 and 2 * known >= len(tops)):
            return None
    if read is None:
        read = read_block(text, "json")
    keys = [k.at(1) for k in read.keys]
    error_line = read.error_line + 1 if read.error is not None else 0
    return Block(0, 1, "file", keys, read.error, error_line)


#: The YAML files read for the keys they set at their top, and the bytes
#: of each: a project's recipes are small files.
MAX_TOP_FILES = 300
MAX_TOP_BYTES = 32 * 1024


def file_tops(root: Path, rels: list[str], reads: dict[str, BlockRead]) -> list[frozenset[str]]:
    """The keys each YAML file of the repository (not a test's) sets at
    its top, in ``normal`` form (``max_duration``, ``global_seed``),
    those that set some: evidence of the model a
    trainer's recipes are written for, where no page shows one. Each file
    is parsed once: ``reads`` keeps what was read (by ``config_files``
    too)."""
    out: list[frozenset[str]] = []
    yaml = [rel for rel in rels if rel.endswith((".yaml", ".yml")) and not in_tests(rel)]
    for rel in yaml[:MAX_TOP_FILES]:
        read = reads.get(rel)
        if read is None:
            text = config_text(root, rel, MAX_TOP_BYTES)
            if text is None:
                continue
            reads[rel] = read = read_block(text, "yaml")
        if top := frozenset(normal(k.path[0]) for k in read.keys if len(k.path) == 1):
            out.append(top)
    return out


def schema_beside(root: Path, defaults: str, rels: list[str]) -> tuple[str, DocFacts] | None:
    """The JSON Schema shipped beside a defaults file (``dask-schema.yaml``
    beside ``dask.yaml``, ``config.schema.json`` beside ``config.json``),
    read as the page a reference built from both renders: its properties
    are the documented keys."""
    folder, _, name = defaults.rpartition("/")
    stem = name.rsplit(".", 1)[0].lower()
    for rel in sorted(rels):
        other_folder, _, other = rel.rpartition("/")
        lower = other.lower()
        lang = _DATA_LANGS.get(lower.rsplit(".", 1)[-1])
        if other_folder != folder or lang not in ("yaml", "json") or "schema" not in lower:
            continue
        if not lower.startswith(stem):
            continue
        text = config_text(root, rel)
        if text is None:
            continue
        read = read_block(text, lang)
        facts = schema_facts([k.at(1) for k in read.keys]) if read.error is None else None
        if facts is not None:
            return rel, facts
    return None
