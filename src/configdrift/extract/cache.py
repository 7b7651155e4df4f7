"""A cache of per-file facts, keyed by the file's content.

Extraction is a pure function of a file's bytes, so its result can be reused
whenever the bytes are the same. The cache is:

- JSON, never pickle: reading it cannot run code, whoever wrote it;
- kept in the user's cache directory (``$XDG_CACHE_HOME/configdrift`` or
  ``~/.cache/configdrift``), never inside the analysed repository, so a pull
  request cannot plant one;
- keyed by a hash of the extractors' own source as well, so a new version of
  configdrift never reads facts an older one wrote;
- best effort: a missing, unreadable or corrupt cache is ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from configdrift.extract.docs.blocks import BlockKey
from configdrift.extract.docs.markdown import Block, DocFacts, RawEntry, Section
from configdrift.extract.python.examples import PyExample
from configdrift.extract.python.facts import (
    ClassFact,
    DictArg,
    DictRead,
    DictSource,
    DictStore,
    FieldFact,
    ImportFact,
    ModuleFacts,
    Placement,
    RegistrationCall,
)
from configdrift.files import cache_dir, code_digest, write_atomic


def _extractor_version() -> str:
    """A digest of the extractors' source: any change invalidates the cache."""
    return code_digest(Path(__file__).parent)[:16]


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- (de)serialisation ---------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALARS = (str, int, float, bool, type(None))


def plain(value: Any) -> Any:
    """``dataclasses.asdict`` for facts, without its deep copies: dataclass
    instances as dicts of their fields, tuples and lists as lists, dicts
    with their values converted (the JSON is the same, at a fraction of
    the cost)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def module_to_json(facts: ModuleFacts) -> dict[str, Any]:
    return plain(facts)  # type: ignore[no-any-return]


def module_from_json(data: dict[str, Any]) -> ModuleFacts:
    def source(d: dict[str, Any]) -> DictSource:
        return DictSource(d["base"], d["keys"], d["is_param"])

    return ModuleFacts(
        imports=[ImportFact(**i) for i in data["imports"]],
        star_imports=[(m, line) for m, line in data["star_imports"]],
        assigns=data["assigns"],
        assign_lines=data["assign_lines"],
        dict_key_lines=data["dict_key_lines"],
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
            )
            for c in data["classes"]
        ],
        functions=data["functions"],
        attr_loads=data["attr_loads"],
        attr_counts=data["attr_counts"],
        attr_stores=data["attr_stores"],
        chains=[tuple(c) for c in data["chains"]],
        local_types=[tuple(t) for t in data["local_types"]],
        attr_assigns=[tuple(a) for a in data["attr_assigns"]],
        return_calls=[tuple(r) for r in data["return_calls"]],
        ctor_args=[(c, p, list(v)) for c, p, v in data["ctor_args"]],
        function_lines={k: (v[0], v[1]) for k, v in data["function_lines"].items()},
        dynamic_getattr=[(line, fn, pattern) for line, fn, pattern in data["dynamic_getattr"]],
        dynamic_setattr=data["dynamic_setattr"],
        fallbacks=[(attr, expr, line) for attr, expr, line in data["fallbacks"]],
        param_defaults=data["param_defaults"],
        placements=[
            Placement(
                p["model"], [source(s) for s in p["sources"]], p["line"], p["function"], p["via"]
            )
            for p in data["placements"]
        ],
        dict_args=[
            DictArg(
                a["callee"],
                a["position"],
                source(a["source"]),
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
            DictStore(d["target"], source(d["source"]), d["line"], d["function"])
            for d in data["dict_stores"]
        ],
        registrations=[RegistrationCall(**r) for r in data["registrations"]],
        dict_reads=[
            DictRead(
                source(r["source"]), r["line"], r["function"], r["how"], r["default"], r["kind"]
            )
            for r in data["dict_reads"]
        ],
        error=data["error"],
        error_line=data["error_line"],
    )


def doc_to_json(facts: DocFacts) -> dict[str, Any]:
    return plain(facts)  # type: ignore[no-any-return]


def doc_from_json(data: dict[str, Any]) -> DocFacts:
    return DocFacts(
        sections=[Section(**s) for s in data["sections"]],
        entries=[RawEntry(**{**e, "parts": tuple(e["parts"])}) for e in data["entries"]],
        blocks=[
            Block(
                b["section"],
                b["line"],
                b["lang"],
                [_block_key(k) for k in b["keys"]],
                b["error"],
                b["error_line"],
                b["what"],
            )
            for b in data["blocks"]
        ],
        error=data["error"],
        error_line=data["error_line"],
        generated=[(tool, line) for tool, line in data["generated"]],
        autodoc=[(name, line) for name, line in data["autodoc"]],
        references=[(role, name, line) for role, name, line in data["references"]],
        renames=[(old, new, line) for old, new, line in data["renames"]],
    )


def _block_key(k: dict[str, Any]) -> BlockKey:
    return BlockKey(tuple(k["path"]), k["line"], k["kind"], k["value"])


def py_examples_to_json(examples: list[PyExample]) -> dict[str, Any]:
    return {"examples": [plain(e) for e in examples]}


def py_examples_from_json(data: dict[str, Any]) -> list[PyExample]:
    return [
        PyExample(e["line"], e["callee"], [_block_key(k) for k in e["keys"]])
        for e in data["examples"]
    ]


# -- the store -------------------------------------------------------------


class FactCache:
    """Facts of one project's files, loaded once and saved once."""

    def __init__(self, root: Path, directory: Path | None = None, salt: str = "") -> None:
        key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
        self.path = (directory or cache_dir()) / f"{key}.json"
        # Facts depend on a file's bytes, the extractors' code and the calls
        # the configuration declares as registrations (``salt``).
        self.version = _extractor_version() + (f":{salt}" if salt else "")
        self.entries: dict[str, list[Any]] = {}
        self.changed = False
        self._load()

    def _load(self) -> None:
        try:
            with self.path.open(encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            return
        if (
            isinstance(data, dict)
            and data.get("version") == self.version
            and isinstance(data.get("files"), dict)
        ):
            self.entries = data["files"]

    def get(self, rel: str, digest: str) -> dict[str, Any] | None:
        hit = self.entries.get(rel)
        if (
            isinstance(hit, list)
            and len(hit) == 2
            and hit[0] == digest
            and isinstance(hit[1], dict)
        ):
            return hit[1]
        return None

    def put(self, rel: str, digest: str, facts: dict[str, Any]) -> None:
        self.entries[rel] = [digest, facts]
        self.changed = True

    def keep_only(self, rels: set[str]) -> None:
        """Drop files that are gone, so the cache does not grow forever."""
        stale = set(self.entries) - rels
        for rel in stale:
            del self.entries[rel]
        self.changed = self.changed or bool(stale)

    def _json_parts(self) -> Iterator[bytes]:
        """The cache as JSON, entry by entry, each with ``dumps`` (only the
        one-shot encoder is the C one): fast, and never the whole file in
        memory."""
        yield b'{"version":' + json.dumps(self.version).encode() + b',"files":{'
        for index, (rel, entry) in enumerate(self.entries.items()):
            yield (("," if index else "") + json.dumps(rel) + ":").encode()
            yield json.dumps(entry, separators=(",", ":")).encode()
        yield b"}}"

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, self._json_parts(), mode=0o600)
        except OSError:
            pass  # a cache that cannot be written is only slower
