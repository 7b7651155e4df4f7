"""Keys read around a registry (CD201, as warnings): a setting the code
reads by name that the registry of settings does not declare, so that
the registry's type, default and old names do not apply to it.

Two ways to know the key is a setting: the package reads it by name from
its settings object (``settings.getint("PER_IP")``) beside a defaults
module that declares the others; or the docs present it on the registry's
page (a heading, an entry) and the code reads it by its literal name
(``conf.get("redis_client_name")``). The same reads by name give CD106
the fallbacks of the settings the registry declares
(``fallbacks_around``).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from configdrift.index.framework_settings import DEFAULTS_MODULES
from configdrift.index.spellings import alternation, distinctive
from configdrift.model import (
    Finding,
    Location,
    Related,
    SchemaNode,
    Severity,
    format_path,
    same_value,
    top_spellings,
)
from configdrift.resolve.mechanisms.settings_module import MIN_DEFAULTS, SETTINGS_OBJECT
from configdrift.rules.doc_gaps import missing_entries
from configdrift.rules.evidence import (
    bounded_files,
    code_files,
    config_assigned,
    config_attributes,
    once,
    quoted_in,
)
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: Registries of settings: option tables and namespaces (each option with
#: its default and type), a defaults module's settings. The code reads
#: their keys by name, so a key read by name may bypass them.
_REGISTRIES = frozenset({"table", "setting"})
#: Surfaces whose keys are declared with their defaults where the code
#: reads them by name (``getattr(config, "k", True)``): registries, options
#: registered by name (Sphinx's ``add_config_value``), a theme's options
#: and a defaults file.
_DECLARING = _REGISTRIES | {"named", "theme", "defaults"}


def read_around(analysis: Analysis) -> Iterator[Finding]:
    yield from _read_around_defaults(analysis)
    yield from _documented_around(analysis)
    yield from _read_unregistered(analysis)


def _read_unregistered(analysis: Analysis) -> Iterator[Finding]:
    """A key the docs present beside options registered by name (Sphinx's
    ``add_config_value``), with their prefix, that the code reads as an
    attribute of the configuration (``app.config.foo_color``) but that no
    registration declares and no code quotes: Sphinx raises an
    ``AttributeError`` at the read and ignores the ``conf.py`` setting."""
    root = analysis.schema
    if root.model_kind != "named" or analysis.unresolved:
        return
    prefix = _shared_prefix(top_spellings(root))
    found = {
        rejected[-1]: entry
        for entry, rejected, parent in missing_entries(analysis, strict=None)
        if parent is root and len(rejected) == 1 and prefix and rejected[0].startswith(prefix)
    }
    if not found:
        return
    files = code_files(analysis)
    # A name the code quotes may be registered or guarded (``hasattr``);
    # one it assigns is set before it is read.
    taken = quoted_in(analysis, files, set(found)) | config_assigned(analysis, files, set(found))
    found = {k: e for k, e in found.items() if k not in taken}
    where: dict[str, Location] = {}
    read = config_attributes(analysis, files, set(found), where)
    for key in sorted(read):
        entry = found[key]
        related = [Related(entry.location.path, entry.location.line, "the docs present it here")]
        if root.model_location is not None:
            related.append(
                Related(
                    root.model_location.path,
                    root.model_location.line,
                    "the options are registered here, not this one",
                )
            )
        yield make(
            "CD201",
            key,
            where[key],
            f"`{key}` is read from the configuration and documented as an option, but nothing "
            "registers it: the read raises an AttributeError, and a value set for it is ignored",
            tuple(related),
        )


def _shared_prefix(keys: set[str]) -> str:
    """The first word (``foo_``) at least half of the keys, two or more,
    begin with; empty where there is none."""
    counts: dict[str, int] = {}
    for key in keys:
        head, sep, _ = key.partition("_")
        if sep and head:
            counts[head + sep] = counts.get(head + sep, 0) + 1
    best = max(counts.items(), key=lambda item: (item[1], item[0]), default=("", 0))
    return best[0] if best[1] >= 2 and 2 * best[1] >= len(keys) else ""


def _settings_around(root: SchemaNode) -> tuple[SchemaNode | None, list[SchemaNode]]:
    """The settings the package reads by name that its defaults module (the
    registry) does not declare, with a node of that module: none where no
    defaults module declares ``MIN_DEFAULTS`` settings. Only the package of
    the defaults module that declares most counts (a test project's
    ``global_settings.py`` is another program's)."""
    # Each setting with the module that declares or reads it (``option of <module>``).
    options = [
        (node, node.origin.removeprefix("option of "))
        for node in root.children.values()
        if node.origin.startswith("option of ")
    ]
    by_package: dict[str, list[SchemaNode]] = {}
    for node, module in options:
        if module.rsplit(".", 1)[-1] in DEFAULTS_MODULES:
            by_package.setdefault(module.split(".", 1)[0], []).append(node)
    if not by_package:
        return None, []
    package, own = max(by_package.items(), key=lambda item: (len(item[1]), item[0]))
    if len(own) < MIN_DEFAULTS:
        return None, []
    registry = {node.origin for node in own}
    first = min(own, key=lambda n: n.location.line if n.location else 0)
    around = [
        node
        for node, module in options
        if node.origin not in registry
        and module.split(".", 1)[0] == package
        and module.rsplit(".", 1)[-1] not in DEFAULTS_MODULES
    ]
    return first, around


def _read_around_defaults(analysis: Analysis) -> Iterator[Finding]:
    """A setting read by name from the settings object that the defaults
    module does not declare (``settings.getint("PER_IP")``): it bypasses the
    registry, its default the read's own. A warning: the object is lenient,
    the read gets its default."""
    root = analysis.schema
    if root.model != SETTINGS_OBJECT:
        return
    registry, around = _settings_around(root)
    if registry is None or registry.location is None:
        return
    module = registry.origin.removeprefix("option of ")
    for node in around:
        if node.location is None:
            continue
        default = (
            f" ({node.default.text})" if node.default is not None and node.default.known else ""
        )
        finding = make(
            "CD201",
            format_path(node.path),
            node.location,
            f"`{node.key}` is read by name from the settings object, but {module} does not declare "
            f"it: it bypasses the defaults module, with the read's own default{default}",
            (
                Related(
                    registry.location.path,
                    registry.location.line,
                    f"{module} declares the settings",
                ),
            ),
        )
        yield dataclasses.replace(finding, severity=Severity.WARNING)


def _documented_around(analysis: Analysis) -> Iterator[Finding]:
    """A key the docs present on a registry's page that the registry does
    not declare, which the code reads by its literal name through an
    accessor that reads the registry's own keys too, in the same file: the
    docs and the code agree on a setting the registry never heard of. Only
    a key spelt in parts (``redis_client_name``): a word read by name
    (``url``) is as likely any dict's."""
    found = [
        (entry, rejected, parent)
        for entry, rejected, parent in missing_entries(analysis, strict=False)
        if parent.model_kind in _REGISTRIES
        and _spelt_alike(rejected[-1], parent)
        # A word (``url``) read by name is as likely any dict's.
        and distinctive(rejected[-1])
    ]
    if not found:
        return
    reads = _registry_reads(analysis)
    accessors: dict[int, set[tuple[str, str]]] = {}
    for entry, rejected, parent in found:
        if id(parent) not in accessors:
            accessors[id(parent)] = _local_accessors(reads, top_spellings(parent))
        key = rejected[-1]
        site = next(
            (
                where
                for accessor, where, _ in reads.get(key, [])
                if (accessor, where.path) in accessors[id(parent)]
            ),
            None,
        )
        if site is None:
            continue
        registry = parent.model or "the registry"
        related = [
            Related(
                entry.location.path, entry.location.line, "the docs present it as a setting here"
            )
        ]
        if parent.model_location is not None:
            related.append(
                Related(
                    parent.model_location.path,
                    parent.model_location.line,
                    f"{registry} declares the settings, not this one",
                )
            )
        finding = make(
            "CD201",
            format_path(rejected),
            site,
            f"`{key}` is read by name, and documented as a setting, but {registry} does not "
            "declare it: the read bypasses the registry, its type, default and old names",
            tuple(related),
        )
        yield dataclasses.replace(finding, severity=Severity.WARNING)


#: The registry's own keys an accessor must read by name for it to be the
#: registry's object (``conf.get("cassandra_servers")``,
#: ``_get("redis_host")``).
_ACCESSOR_KEYS = 2
#: The surface's keys an accessor must read by name for its fallbacks to
#: be weighed against the declared defaults: a dict that reads two of them
#: may be any dict of the same names (two reads of one accessor that
#: disagree need no more).
_DECLARED_ACCESSOR_KEYS = 3


def _accessors(
    reads: dict[str, list[tuple[str, Location, str | None]]],
    own: set[str],
    least: int = _ACCESSOR_KEYS,
) -> set[str]:
    """The accessors that read ``least`` of the registry's own keys by
    name: the registry's object, as the code spells it."""
    return {accessor for accessor, _ in _reading(reads, own, least, lambda where: "")}


def _local_accessors(
    reads: dict[str, list[tuple[str, Location, str | None]]], own: set[str]
) -> set[tuple[str, str]]:
    """The accessors, each with a file, that read ``_ACCESSOR_KEYS`` of the
    registry's own keys by name in that file: the registry's object there
    (``conf`` of a backend that reads ``conf.get("redis_host")``), not a
    getter that reads the same names elsewhere from another dict (a JSON
    schema's ``validate.get("title")`` in one plugin and ``"url"`` in
    another)."""
    return _reading(reads, own, _ACCESSOR_KEYS, lambda where: where.path)


def _reading(
    reads: dict[str, list[tuple[str, Location, str | None]]],
    own: set[str],
    least: int,
    place: Callable[[Location], str],
) -> set[tuple[str, str]]:
    """Each accessor, with the ``place`` of its reads, that reads ``least``
    of the registry's own keys by name there."""
    keys_of: dict[tuple[str, str], set[str]] = {}
    for key in own & reads.keys():
        for accessor, where, _ in reads[key]:
            keys_of.setdefault((accessor, place(where)), set()).add(key)
    return {found for found, keys in keys_of.items() if len(keys) >= least}


def _registry_reads(analysis: Analysis) -> dict[str, list[tuple[str, Location, str | None]]]:
    """The reads by name of a registry's keys and of the keys its pages
    document that it lacks, searched once for the surface."""

    def search() -> dict[str, list[tuple[str, Location, str | None]]]:
        names = {
            key
            for node in analysis.schema.walk()
            if node.model_kind in _DECLARING
            for key in top_spellings(node)
        }
        names |= {
            rejected[-1]
            for _, rejected, parent in missing_entries(analysis, strict=False)
            if parent.model_kind in _REGISTRIES
        }
        return _reads_by_accessor(analysis, code_files(analysis), names) if names else {}

    return once(analysis, f"reads around the registry {id(analysis.schema)}", search)


def _reads_by_accessor(
    analysis: Analysis, files: list[str], names: set[str]
) -> dict[str, list[tuple[str, Location, str | None]]]:
    """Each of ``names`` the code reads by its literal name, with the
    accessor of each read: the receiver of ``conf.get("k")``,
    ``conf["k"]`` or ``getattr(conf, "k")`` (``conf``), the getter of
    ``_get("k")`` (``_get``); and the text of the fallback a one-line
    ``get`` or ``getattr`` gives (``conf.get("k", False)``), where it gives
    one. Bounded like the other searches."""
    pattern = re.compile(
        rb"""(?<!\w)(?:getattr\(\s*(\w{1,40})\s*,\s*|"""
        rb"""(\w{1,40}(?=\s*\[|\.get)|\w{0,20}get\w{0,20}(?=\())"""
        rb"""(?:\s*\[|\.get\w{0,20}\(|\())\s*["'](%b)["']"""
        rb"""(?:\s*,\s*([^(),\n]{1,40}?)\s*\))?""" % alternation(names)
    )
    out: dict[str, list[tuple[str, Location, str | None]]] = {}
    for rel, data in bounded_files(analysis, files):
        for match in pattern.finditer(data):
            line = data.count(b"\n", 0, match.start(3)) + 1
            fallback = match.group(4).decode() if match.group(4) else None
            accessor = match.group(1) or match.group(2)
            out.setdefault(match.group(3).decode(), []).append(
                (accessor.decode(), Location(rel, line), fallback)
            )
    return out


def fallbacks_around(
    analysis: Analysis,
) -> Iterator[tuple[str, list[tuple[Location, str, object]]]]:
    """For a registry of settings, each key it declares that the code reads
    by name with literal fallbacks that differ (``conf.get("k", False)``
    here, ``conf.get("k", True)`` there), through one accessor that reads
    the registry's keys: (key, [(where, fallback text, value)]). ``None``
    is no fallback (computed later, or not set)."""
    root = analysis.schema
    own = top_spellings(root)
    if root.model_kind not in _REGISTRIES or not own:
        return
    reads = _registry_reads(analysis)
    accessors = _accessors(reads, own)
    for key in sorted(own & reads.keys()):
        by_accessor: dict[str, list[tuple[Location, str, object]]] = {}
        for accessor, where, text, value in _literal_fallbacks(reads[key], accessors):
            if value is not None:
                by_accessor.setdefault(accessor, []).append((where, text, value))
        for sites in by_accessor.values():
            if any(not same_value(v, sites[0][2]) for _, _, v in sites[1:]):
                yield key, sites
                break


def fallbacks_against_declared(
    analysis: Analysis,
) -> Iterator[tuple[SchemaNode, Location, str]]:
    """For a surface that declares its keys with their defaults
    (``_DECLARING``), each key the code reads by name with a literal
    fallback other than its declared default, through an accessor that
    reads ``_DECLARED_ACCESSOR_KEYS`` of its keys (``getattr(config, "k", True)``
    where the key is declared ``False``): (node, where, fallback text),
    the first such read of each key. ``None`` on either side is not
    compared (absent, or computed later)."""
    root = analysis.schema
    own = top_spellings(root)
    if root.model_kind not in _DECLARING or not own:
        return
    reads = _registry_reads(analysis)
    accessors = _accessors(reads, own, _DECLARED_ACCESSOR_KEYS)
    for node in root.children.values():
        declared = node.default
        if declared is None or not declared.known or declared.value is None:
            continue
        for accessor, where, text, value in _literal_fallbacks(reads.get(node.key, []), accessors):
            if not fallback_differs(value, declared.value) or not _mostlytop_spellings(
                analysis, accessor, own
            ):
                continue
            yield node, where, text
            break


def _literal_fallbacks(
    reads: list[tuple[str, Location, str | None]], accessors: set[str]
) -> Iterator[tuple[str, Location, str, object]]:
    """The reads through ``accessors`` that give a literal fallback, with
    its value: (accessor, where, text, value). A computed one is not
    compared."""
    for accessor, where, text in reads:
        if text is None or accessor not in accessors:
            continue
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        yield accessor, where, text, value


def fallback_differs(fallback: object, declared: object) -> bool:
    """Does a read's fallback say another default than the declared one?
    Not where either is ``None``; not where both are falsy (``False`` and
    ``""`` both mean unset to a truth test); not a string against another
    type (an environment variable's ``"true"`` is parsed); not an empty
    sequence against a sequence (a read that tests whether one is given),
    nor an empty dict against a section's."""
    if fallback is None or same_value(fallback, declared):
        return False
    if not fallback and not declared:
        return False
    if fallback in ([], ()) and isinstance(declared, (list, tuple)):
        return False  # ``get("serialize", [])``: a sequence or none, the declared one later
    if fallback == {} and isinstance(declared, dict):
        return False  # ``get("colors", {})``: a section, each key read with its own fallback
    return not (isinstance(fallback, str) and not isinstance(declared, str))


#: The share of an accessor's reads by literal name that must be the
#: surface's keys for it to be the surface's object: a dict of other things
#: (a task's ``options``, a status reply's ``data``) reads a few names that
#: happen to be settings too.
_OWN_SHARE = 0.5


def _mostlytop_spellings(analysis: Analysis, accessor: str, own: set[str]) -> bool:
    """Are ``_OWN_SHARE`` of the names ``accessor`` reads by literal name
    (``accessor.get("k")``, ``accessor["k"]``, ``getattr(accessor, "k")``)
    the surface's keys?"""

    def search() -> bool:
        name = re.escape(accessor.encode())
        pattern = re.compile(
            rb"""(?<!\w)(?:getattr\(\s*%b\s*,\s*|%b(?:\s*\[|\.get\w{0,20}\())\s*["']"""
            rb"""([\w.-]{1,80})["']""" % (name, name)
        )
        names = [
            match.group(1).decode()
            for _, data in bounded_files(analysis, code_files(analysis))
            for match in pattern.finditer(data)
        ]
        return bool(names) and sum(n in own for n in names) >= _OWN_SHARE * len(names)

    return once(analysis, f"accessor {accessor} of {id(analysis.schema)}", search)


def _spelt_alike(key: str, parent: SchemaNode) -> bool:
    """Is ``key`` spelt as the registry spells its settings: in capitals
    beside capitals, in small letters beside small letters? A class's name
    documented beside lowercase settings (``Task``) is something else."""
    keys = [child.key for child in parent.children.values() if child.key.strip("_")]
    if not keys:
        return False
    if all(k.isupper() for k in keys):
        return key.isupper()
    if all(k.islower() for k in keys):
        return key.islower()
    return True
