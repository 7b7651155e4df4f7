"""A JSON Schema of a configuration (``dask-schema.yaml``, ``config.schema.json``)
read as a doc page: each property is an entry at its path, with the type
and default the schema states. A reference built at documentation time
from a defaults file and its schema shows what the schema says, so the
schema is what users read."""

from __future__ import annotations

from configdrift.extract.docs.block_model import VALUE, BlockKey
from configdrift.extract.docs.facts import DocFacts, RawEntry, Section

#: A schema nests its properties at most this deep.
MAX_DEPTH = 12


def property_path(path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The config path of a schema key's path, when the key is a property
    (``properties, array, properties, chunk-size`` is ``array.chunk-size``)."""
    if not path or len(path) % 2 or len(path) > 2 * MAX_DEPTH:
        return None
    if any(part != "properties" for part in path[::2]):
        return None
    names = path[1::2]
    return names if all(isinstance(n, str) and n for n in names) else None


def schema_facts(keys: list[BlockKey]) -> DocFacts | None:
    """The entries of a JSON Schema's properties, or None when the keys
    are no schema of properties (fewer than three)."""
    facts = DocFacts(sections=[Section("", 0, 1, None)])
    stated: dict[tuple[str, ...], dict[str, object]] = {}
    lines: dict[tuple[str, ...], int] = {}
    for key in keys:
        path = property_path(key.path)
        if path is not None:
            lines.setdefault(path, key.line)
            continue
        holder = property_path(key.path[:-1])
        if holder is not None and key.kind == VALUE and key.path[-1] in ("type", "default"):
            stated.setdefault(holder, {})[key.path[-1]] = key.value
    if len(lines) < 3:
        return None
    for path, line in sorted(lines.items(), key=lambda item: item[1]):
        said = stated.get(path, {})
        kind = said.get("type")
        entry = RawEntry(".".join(path), path, line, 0, "schema")
        entry.doc_type = kind if isinstance(kind, str) else None
        if "default" in said:
            entry.default = _spelt(said["default"])
        facts.entries.append(entry)
    return facts


def _spelt(value: object) -> str:
    """A stated default as the docs would write it (JSON's spelling)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
