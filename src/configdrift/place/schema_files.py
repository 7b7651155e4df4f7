"""JSON Schemas shipped for a configuration (``docs/schema.json``, which an
editor validates ``mkdocs.yml`` with; ``config.schema.json``), found by
what they hold: the ``properties`` object, anywhere in a file named for a
schema, whose names are most of a surface's keys (``MIN_SHARED`` at
least) describes that surface. It is read as a page of entries, each
with the type and default the schema states; where an object forbids
other properties (``additionalProperties: false``), the names it lists
are all an editor accepts there (``ClosedObject``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from configdrift.extract.docs.block_model import VALUE, BlockKey
from configdrift.extract.docs.blocks import read_block
from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.docs.json_schema import property_path, schema_facts
from configdrift.files import read_or_none
from configdrift.model import ConfigPath, SchemaNode, top_spellings
from configdrift.place.config_files import config_text

#: The surface's keys a schema's object must name, at least, and half of
#: its names.
MIN_SHARED = 3
#: The languages a schema is written in, by the file's suffix.
_LANGS = {"json": "json", "yaml": "yaml", "yml": "yaml"}


@dataclass(frozen=True, slots=True)
class ClosedObject:
    """An object of a schema that forbids the properties it does not list:
    the file and line that says so, where in the config it is, and the
    names it lists."""

    rel: str
    line: int
    path: ConfigPath
    names: frozenset[str]


#: The most bytes of one code file searched for a schema's name.
MAX_CODE_BYTES = 1 << 20


#: A schema file read: its path, and its keys at their lines.
Schema = tuple[str, list[BlockKey]]


def schema_files(root: Path, rels: list[str], code: list[str]) -> list[Schema]:
    """The files of ``rels`` named for a schema that no code file names (one
    the code writes, a generator, or reads, its own declaration, is no page
    written by hand), each read once."""
    named = [
        rel for rel in rels if _lang(rel) is not None and "schema" in rel.rsplit("/", 1)[-1].lower()
    ]
    if not named:
        return []
    spelt: set[str] = set()
    for path in code:
        data = read_or_none(root, path, MAX_CODE_BYTES) or b""
        spelt |= {rel for rel in named if rel.rsplit("/", 1)[-1].encode() in data}
    out: list[Schema] = []
    for rel in named:
        text = config_text(root, rel) if rel not in spelt else None
        read = read_block(text, _lang(rel) or "") if text is not None else None
        if read is not None and read.error is None:
            out.append((rel, [k.at(1) for k in read.keys]))
    return out


def _lang(rel: str) -> str | None:
    return _LANGS.get(rel.rsplit(".", 1)[-1].lower())


def schema_pages(
    schemas: list[Schema], schema: SchemaNode
) -> list[tuple[str, DocFacts, list[ClosedObject]]]:
    """Each of the ``schemas`` (``schema_files``) that describes
    ``schema``'s keys, read as a page, with the objects of it that forbid
    other properties."""
    tops = top_spellings(schema)
    out: list[tuple[str, DocFacts, list[ClosedObject]]] = []
    for rel, all_keys in schemas if tops else ():
        holder = _holder(all_keys, tops)
        if holder is None:
            continue
        depth = len(holder)
        keys = [
            BlockKey(k.path[depth:], k.line, k.kind, k.value)
            for k in all_keys
            if k.path[:depth] == holder and len(k.path) > depth
        ]
        facts = schema_facts(keys)
        if facts is not None:
            out.append((rel, facts, _closed(rel, keys)))
    return out


def _properties(keys: list[BlockKey]) -> dict[tuple[str, ...], set[str]]:
    """The names each ``properties`` object of a schema lists, by where the
    object that holds it sits."""
    names: dict[tuple[str, ...], set[str]] = {}
    for key in keys:
        if len(key.path) >= 2 and key.path[-2] == "properties":
            names.setdefault(key.path[:-2], set()).add(key.path[-1])
    return names


def _holder(keys: list[BlockKey], tops: set[str]) -> tuple[str, ...] | None:
    """Where the ``properties`` object that names enough of ``tops`` sits
    in the file (``oneOf, [], properties, rss``): the shallowest."""
    # The shallowest that names enough (an override's item deeper down
    # takes every key and a selector besides), then the one naming most.
    best: tuple[tuple[int, int], tuple[str, ...]] | None = None
    for holder, listed in _properties(keys).items():
        shared = len(listed & tops)
        score = (-len(holder), shared)
        if shared >= MIN_SHARED and 2 * shared >= len(listed) and (best is None or score > best[0]):
            best = (score, holder)
    return best[1] if best is not None else None


def _closed(rel: str, keys: list[BlockKey]) -> list[ClosedObject]:
    """The objects of the (re-rooted) schema that forbid other properties,
    each at its config path with the names it lists."""
    listed = _properties(keys)
    out: list[ClosedObject] = []
    for key in keys:
        closes = key.path[-1:] == ("additionalProperties",) and key.kind == VALUE
        if not closes or key.value is not False:
            continue
        holder = key.path[:-1]
        path = property_path(holder) if holder else ()
        if path is not None and holder in listed:
            out.append(ClosedObject(rel, key.line, path, frozenset(listed[holder])))
    return out
