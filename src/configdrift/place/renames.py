"""Keys a doc table says were renamed (| Old name | New name |): deprecated
spellings of keys of the schema."""

from __future__ import annotations

from configdrift.extract.docs.facts import DocFacts
from configdrift.index.spellings import split_key
from configdrift.model import DEPRECATED, ConfigPath, LifecycleEntry, Location, SchemaNode


def doc_renames(facts: dict[str, DocFacts], schema: SchemaNode) -> list[LifecycleEntry]:
    """Keys a doc table says were renamed (| Old name | New name |), as
    deprecated for their new spelling: only where the new spelling is a key
    of the schema, the old one placed beside it."""
    where: dict[str, set[ConfigPath]] = {}
    for node in schema.walk():
        if node is not schema:
            for spelling in node.spellings or (node.key,):
                where.setdefault(spelling, set()).add(node.path)
    out: list[LifecycleEntry] = []
    for rel, doc in sorted(facts.items()):
        for old, new, line in doc.renames:
            new_path = split_key(new)
            paths = where.get(new_path[-1], set())
            if len(new_path) > 1:
                paths = {p for p in paths if p[-len(new_path) :] == new_path}
            if len(paths) != 1:
                continue  # not a key of this configuration, or not one place
            old_path = split_key(old)
            if len(old_path) == 1:
                old_path = (*next(iter(paths))[:-1], old_path[0])
            out.append(
                LifecycleEntry(
                    old_path,
                    DEPRECATED,
                    "a doc table of renamed keys",
                    Location(rel, line),
                    replacement=new,
                )
            )
    return out
