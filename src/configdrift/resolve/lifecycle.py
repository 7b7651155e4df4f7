"""Removed and deprecated keys: where the project says so.

Three sources, all static:

- registries in the code: module-level sets, lists, tuples or dicts of key
  strings whose names match the configured patterns (by default, names
  holding REMOVED or DEPRECATED, and KEYS), such as
  ``_REMOVED_TOP_LEVEL_CONFIG_KEYS = {"sparse_gradients"}`` or a dict of key
  to reason. An entry that is not a static string is recorded as unresolved,
  never guessed;
- deprecated fields of the schema (``Field(deprecated=...)``,
  ``json_schema_extra={"deprecated": True, "new_param": ...}``);
- ``[tool.configdrift.removed]`` and ``[tool.configdrift.deprecated]`` in the
  configuration.

A registry entry names a config path as the user writes it: ``a.b`` is ``b``
under ``a``.
"""

from __future__ import annotations

import fnmatch
import re

from configdrift.config import Config, config_lines, line_of
from configdrift.extract.python.exprs import unwrapped
from configdrift.index.spellings import split_key
from configdrift.model import DEPRECATED, REMOVED, LifecycleEntry, Location, SchemaNode
from configdrift.resolve.project import Project
from configdrift.resolve.schema import SchemaBuilder

_KEYLIKE = re.compile(r"^[A-Za-z_][\w.\-]*$")


def registry_entries(
    project: Project, patterns: dict[str, tuple[str, ...]]
) -> tuple[list[LifecycleEntry], list[tuple[Location, str]]]:
    """Entries of the registries in the code, and what could not be read."""
    entries: list[LifecycleEntry] = []
    unresolved: list[tuple[Location, str]] = []
    # A registry's status is the first whose patterns match its name.
    globs = [(status, glob) for status, names in patterns.items() for glob in names]
    for module in sorted(project.modules):
        info = project.modules[module]
        for name, expr in info.facts.assigns.items():
            status = next((s for s, glob in globs if fnmatch.fnmatchcase(name, glob)), None)
            if status is None:
                continue
            where = Location(info.path, info.facts.assign_lines.get(name, 1))
            literal = unwrapped(expr)
            if literal[0] == "seq":
                items = [(item, None) for item in literal[2]]
            elif literal[0] == "dict":
                items = [(key, value) for key, value in literal[1]]
            else:
                unresolved.append((where, f"registry {name} is not a literal set, list or dict"))
                continue
            for key_expr, value_expr in items:
                key = project.string(module, key_expr)
                if key is None:
                    unresolved.append((where, f"an entry of {name} is not a static string"))
                    continue
                note = project.string(module, value_expr) if value_expr is not None else None
                replacement = None
                if status == DEPRECATED and note is not None and _KEYLIKE.match(note):
                    replacement, note = note, None
                entries.append(
                    LifecycleEntry(split_key(key), status, name, where, note, None, replacement)
                )
    return entries, unresolved


def configured_entries(config: Config) -> list[LifecycleEntry]:
    out: list[LifecycleEntry] = []
    rel = config.source_rel
    lines = config_lines(config) if rel and (config.removed or config.deprecated) else []
    for status, table in ((REMOVED, config.removed), (DEPRECATED, config.deprecated)):
        for key, value in table.items():
            if isinstance(value, str):  # a reason alone
                value = {"reason": value} if value else {}
            where = Location(rel, line_of(lines, key)) if rel else None
            said = (value.get("reason"), value.get("version"), value.get("replacement"))
            out.append(LifecycleEntry(split_key(key), status, "configuration", where, *said))
    return out


def schema_deprecations(schema: SchemaNode) -> list[LifecycleEntry]:
    # A node's origin names its model ("field of Model"): only fields are deprecated.
    return [
        LifecycleEntry(
            node.path, DEPRECATED, node.origin, node.location, None, None, node.replacement
        )
        for node in schema.walk()
        if node.deprecated and node.path
    ]


def lifecycle_entries(
    builder: SchemaBuilder, config: Config, schema: SchemaNode
) -> tuple[list[LifecycleEntry], list[tuple[Location, str]]]:
    """Removed and deprecated keys, from every source, and the registry
    entries that could not be read statically."""
    patterns = {REMOVED: config.removed_registries, DEPRECATED: config.deprecated_registries}
    found, odd = registry_entries(builder.project, patterns)
    entries = configured_entries(config) + found + schema_deprecations(schema)
    # A registry that holds ``""`` names no key.
    return [e for e in entries if e.path], odd
