"""A cache of per-file facts, keyed by the file's content.

Extraction is a pure function of a file's bytes, so its result can be reused
whenever the bytes are the same. The cache is:

- JSON (compressed), never pickle: reading it cannot run code, whoever
  wrote it; a file's entry is decoded only when the file asks for it;
- kept in the user's cache directory (``$XDG_CACHE_HOME/configdrift`` or
  ``~/.cache/configdrift``), and never used when that directory lies inside
  the analysed tree (``files.cache_for``), so a pull request cannot plant
  facts;
- bounded: a cache file larger than ``MAX_CACHE_BYTES`` is not read, and an
  entry that would decompress past ``MAX_ENTRY_BYTES`` is a miss;
- keyed by a hash of the extractors' own source as well, so a new version of
  configdrift never reads facts an older one wrote;
- best effort: a missing, unreadable or corrupt cache is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import zlib
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from configdrift.extract.docs.api_docs import ApiDoc
from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.docs.facts import Block, DocFacts, RawEntry, Section
from configdrift.extract.python.examples import PyExample
from configdrift.extract.python.facts import (
    ClassFact,
    DictArg,
    DictRead,
    DictSource,
    DictStore,
    DocParam,
    FieldFact,
    ImportFact,
    ModuleFacts,
    ParserUses,
    Placement,
    RegistrationCall,
)
from configdrift.files import cache_for, code_digest, inflate, read_cache, write_cache

#: The largest cache file read, and the most bytes one entry decompresses to.
MAX_CACHE_BYTES = 512 * 1024 * 1024
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def _extractor_version() -> str:
    """A digest of the extractors' source: any change invalidates the cache."""
    return code_digest(Path(__file__).parent)[:16]


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- (de)serialisation ---------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(value: Any) -> dict[str, Any]:
    """A dataclass instance as the dict of its fields, one level deep: the
    JSON encoder calls this for each instance it meets and walks the
    values itself."""
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        if not is_dataclass(value) or isinstance(value, type):
            raise TypeError(f"{kind.__name__} is not a fact")
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    return {name: getattr(value, name) for name in names}


def encoded(facts: object) -> str:
    """Facts as JSON, as ``json.dumps(dataclasses.asdict(facts))`` writes
    them (tuples as lists), without building the dicts first: the encoder
    walks lists, tuples and dicts in C and asks ``_fields_of`` only for the
    dataclasses."""
    return json.dumps(facts, separators=(",", ":"), default=_fields_of, check_circular=False)


def _source(d: dict[str, Any]) -> DictSource:
    return DictSource(d["base"], d["keys"], d["is_param"])


def _parsers(d: dict[str, Any] | None) -> ParserUses | None:
    if d is None:
        return None
    return ParserUses(
        d["subcommands"],
        {int(line): token for line, token in d["options"].items()},
        [(token, callee, line) for token, callee, line in d["handed"]],
        d["escaped"],
        d["functions"],
    )


def module_from_json(data: dict[str, Any]) -> ModuleFacts:
    return ModuleFacts(
        imports=[ImportFact(**i) for i in data["imports"]],
        star_imports=[(m, line) for m, line in data["star_imports"]],
        assigns=data["assigns"],
        assign_lines=data["assign_lines"],
        dict_key_lines=data["dict_key_lines"],
        returned_dicts=data["returned_dicts"],
        merged_defaults=[(f, e, lines) for f, e, lines in data["merged_defaults"]],
        attribute_trees=[
            (scope, root, call, at, [(path, line, value) for path, line, value in entries])
            for scope, root, call, at, entries in data["attribute_trees"]
        ],
        all_names=data["all_names"],
        classes=[
            ClassFact(
                name=c["name"],
                line=c["line"],
                bases=c["bases"],
                decorators=c["decorators"],
                fields=[FieldFact(**f) for f in c["fields"]],
                assigns=c["assigns"],
                config_class=c["config_class"],
                docstring=c["docstring"],
                before_validated=c["before_validated"],
                rewritten=c["rewritten"],
                doc_params=[DocParam(**p) for p in c["doc_params"]],
                doc_calls=[_block(b) for b in c["doc_calls"]],
                init_defaults=c["init_defaults"],
                init_values=c["init_values"],
                init_annotations=c["init_annotations"],
                doc_mentions=c["doc_mentions"],
                doc_spelt=c["doc_spelt"],
                doc_misspelt=[(w, k, line) for w, k, line in c["doc_misspelt"]],
                warned_keywords=c["warned_keywords"],
            )
            for c in data["classes"]
        ],
        functions=data["functions"],
        optional_params=data["optional_params"],
        described_params=data["described_params"],
        doc_untaken={
            k: (n, [(w, line) for w, line in u]) for k, (n, u) in data["doc_untaken"].items()
        },
        doc_misspelt={
            k: [(w, kw, line) for w, kw, line in m] for k, m in data["doc_misspelt"].items()
        },
        doc_calls={k: [_block(b) for b in calls] for k, calls in data["doc_calls"].items()},
        deprecated_params=data["deprecated_params"],
        attr_loads=data["attr_loads"],
        attr_counts=data["attr_counts"],
        attr_stores=data["attr_stores"],
        chains=[tuple(c) for c in data["chains"]],
        narrowed=[(f, e) for f, e in data["narrowed"]],
        local_types=[tuple(t) for t in data["local_types"]],
        attr_assigns=[tuple(a) for a in data["attr_assigns"]],
        return_calls=[tuple(r) for r in data["return_calls"]],
        attribute_fills=[tuple(r) for r in data["attribute_fills"]],
        module_returns=data["module_returns"],
        ctor_args=[(c, p, list(v)) for c, p, v in data["ctor_args"]],
        keyword_models=[(f, m, line, list(p)) for f, m, line, p in data["keyword_models"]],
        function_lines={k: (v[0], v[1]) for k, v in data["function_lines"].items()},
        dynamic_getattr=[
            (line, fn, tuple(parts), receiver)
            for line, fn, parts, receiver in data["dynamic_getattr"]
        ],
        dynamic_setattr=data["dynamic_setattr"],
        fallbacks=[(attr, expr, line) for attr, expr, line in data["fallbacks"]],
        copies=[tuple(c) for c in data["copies"]],
        env_prefix_loops=[(f, line, e) for f, line, e in data["env_prefix_loops"]],
        variables_named=data["variables_named"],
        typed_dicts=[
            (expr, line, [(key, at) for key, at in keys], None if up is None else (up[0], up[1]))
            for expr, line, keys, up in data["typed_dicts"]
        ],
        main_guard=bool(data["main_guard"]),
        param_defaults=data["param_defaults"],
        signatures={
            name: [(p, line, a, d) for p, line, a, d in params]
            for name, params in data["signatures"].items()
        },
        open_signatures=data["open_signatures"],
        placements=[
            Placement(
                p["model"], [_source(s) for s in p["sources"]], p["line"], p["function"], p["via"]
            )
            for p in data["placements"]
        ],
        dict_args=[
            DictArg(
                a["callee"],
                a["position"],
                _source(a["source"]),
                a["line"],
                a["function"],
                a["key_args"],
                a["consumed"],
                a["values"],
                a["kind"],
            )
            for a in data["dict_args"]
        ],
        dict_stores=[
            DictStore(d["target"], _source(d["source"]), d["line"], d["function"])
            for d in data["dict_stores"]
        ],
        registrations=[RegistrationCall(**r) for r in data["registrations"]],
        parsers=_parsers(data["parsers"]),
        dict_reads=[_read(r) for r in data["dict_reads"]],
        held_reads=[_read(r) for r in data["held_reads"]],
        call_reads=[_read(r) for r in data["call_reads"]],
        error=data["error"],
        error_line=data["error_line"],
    )


def _read(r: dict[str, Any]) -> DictRead:
    return DictRead(
        _source(r["source"]), r["line"], r["function"], r["how"], r["default"], r["kind"]
    )


def doc_from_json(data: dict[str, Any]) -> DocFacts:
    return DocFacts(
        sections=[Section(**s) for s in data["sections"]],
        entries=[RawEntry(**{**e, "parts": tuple(e["parts"])}) for e in data["entries"]],
        blocks=[_block(b) for b in data["blocks"]],
        calls=[_block(b) for b in data["calls"]],
        loose_settings=[_block(b) for b in data["loose_settings"]],
        error=data["error"],
        error_line=data["error_line"],
        generated=[(tool, line) for tool, line in data["generated"]],
        autodoc=[(name, line) for name, line in data["autodoc"]],
        module_members=[(name, line) for name, line in data["module_members"]],
        summarised=[(name, line) for name, line in data["summarised"]],
        members=[(name, line) for name, line in data["members"]],
        templated=[(name, template, line) for name, template, line in data["templated"]],
        references=[(role, name, line) for role, name, line in data["references"]],
        code_links=[(target, line) for target, line in data["code_links"]],
        renames=[(old, new, line) for old, new, line in data["renames"]],
        mentions=[(name, line) for name, line in data["mentions"]],
        commands=[
            (line, program, tuple(args), tuple(lines))
            for line, program, args, lines in data["commands"]
        ],
        api=[
            ApiDoc(
                a["name"],
                a["line"],
                tuple((p, d) for p, d in a["params"]),
                a["open"],
                tuple(a["fields"]),
                a["method"],
            )
            for a in data["api"]
        ],
        parser=(
            (
                data["parser"][0],
                tuple(data["parser"][1]),
                tuple((flag, tuple(taken)) for flag, taken in data["parser"][2]),
            )
            if data["parser"]
            else None
        ),
        assigned=[(name, line) for name, line in data["assigned"]],
    )


def _block(b: dict[str, Any]) -> Block:
    return Block(
        b["section"],
        b["line"],
        b["lang"],
        [_block_key(k) for k in b["keys"]],
        b["error"],
        b["error_line"],
        b["what"],
        b["call"],
        b["origin"],
        b["defaults"],
    )


def _block_key(k: dict[str, Any]) -> BlockKey:
    return BlockKey(tuple(k["path"]), k["line"], k["kind"], k["value"])


def py_examples_to_json(examples: list[PyExample]) -> dict[str, Any]:
    return {"examples": examples}


def py_examples_from_json(data: dict[str, Any]) -> list[PyExample]:
    return [
        PyExample(e["line"], e["callee"], [_block_key(k) for k in e["keys"]])
        for e in data["examples"]
    ]


# -- the store -------------------------------------------------------------

#: What an entry is kept as until it is used: the facts' digest of the
#: file's bytes and their JSON, undecoded.
Entry = tuple[str, bytes]


def entry_json(facts: object) -> bytes:
    """One entry's facts as the store keeps them: compact JSON, compressed
    (a fifth of the size, so that a large tree's cache costs little memory
    while it waits to be saved)."""
    return zlib.compress(encoded(facts).encode(), 1)


class FactCache:
    """Facts of one project's files, loaded once and saved once.

    The file is a first line with the version, then one record per file:
    a line ``digest<TAB>"path"<TAB>size`` and ``size`` bytes of compressed
    JSON. Loading keeps each entry's bytes; an entry is decompressed and
    decoded when a file with the same digest asks for it, so a run decodes
    only what it uses and holds the rest compactly. Entries are encoded
    where the facts are extracted (in the worker processes), so saving
    only writes bytes.
    """

    def __init__(self, root: Path, directory: Path | None = None, salt: str = "") -> None:
        key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
        directory = directory or cache_for(root)
        #: None when the cache directory lies in the tree: nothing is read or written.
        self.path = directory / f"{key}.facts" if directory is not None else None
        # Facts depend on a file's bytes, the extractors' code and the calls
        # the configuration declares as registrations (``salt``).
        self.version = _extractor_version() + (f":{salt}" if salt else "")
        self.entries: dict[str, Entry] = {}
        self.changed = False
        self._load()

    def _load(self) -> None:
        data = read_cache(self.path, MAX_CACHE_BYTES) if self.path is not None else None
        if data is None:
            return
        end = data.find(b"\n")
        if end < 0 or data[:end] != json.dumps(self.version).encode():
            return
        entries: dict[str, Entry] = {}
        position = end + 1
        while position < len(data):
            # A record cut short or garbled ends the reading: the files it
            # and those after it held are extracted again.
            end = data.find(b"\n", position)
            if end < 0:
                break
            digest, _, rest = data[position:end].partition(b"\t")
            name, _, size = rest.partition(b"\t")
            try:
                rel = json.loads(name)
                length = int(size)
            except ValueError:
                break
            position = end + 1 + length
            if not isinstance(rel, str) or length < 0 or position > len(data):
                break
            entries[rel] = (digest.decode("ascii", "replace"), data[end + 1 : position])
        self.entries = entries

    def get(self, rel: str, digest: str) -> dict[str, Any] | None:
        """The facts stored for ``rel`` if its bytes are those stored."""
        hit = self.entries.get(rel)
        if hit is None or hit[0] != digest:
            return None
        text = inflate(hit[1], MAX_ENTRY_BYTES)
        try:
            facts = json.loads(text) if text is not None else None
        except (ValueError, RecursionError):
            return None
        return facts if isinstance(facts, dict) else None

    def verdict(self, name: str, digest: str) -> bool | None:
        """A byte test's answer stored as ``name`` for the same bytes."""
        hit = self.entries.get(name)
        if hit is None or hit[0] != digest or hit[1] not in (b"0", b"1"):
            return None
        return hit[1] == b"1"

    def put(self, rel: str, digest: str, facts: bytes) -> None:
        """Keep ``facts`` (from ``entry_json``) for ``rel`` with its bytes' digest."""
        self.entries[rel] = (digest, facts)
        self.changed = True

    def keep_only(self, rels: set[str]) -> None:
        """Drop files that are gone, so the cache does not grow forever."""
        stale = set(self.entries) - rels
        for rel in stale:
            del self.entries[rel]
        self.changed = self.changed or bool(stale)

    def _parts(self) -> Iterator[bytes]:
        yield json.dumps(self.version).encode() + b"\n"
        for rel, (digest, facts) in self.entries.items():
            yield b"%s\t%s\t%d\n" % (digest.encode(), json.dumps(rel).encode(), len(facts))
            yield facts

    def save(self) -> None:
        if not self.changed or self.path is None or not write_cache(self.path, self._parts()):
            return
        # The whole-JSON cache of earlier versions, never read again.
        with contextlib.suppress(OSError):
            self.path.with_suffix(".json").unlink(missing_ok=True)
