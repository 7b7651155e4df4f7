"""Rules on removed and deprecated keys (CD401, CD402, CD404).

A key is removed or deprecated where the project says so
(``resolve.lifecycle``): a registry in the code, the configuration, a
deprecated field. These rules find what a removal left behind and where the
docs still teach an old spelling.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.discover import in_tests
from configdrift.extract.text import NotText, decode
from configdrift.files import read_or_none
from configdrift.index.spellings import distinctive
from configdrift.model import (
    DEPRECATED,
    REMOVED,
    ConfigPath,
    DocEntry,
    Finding,
    LifecycleEntry,
    Location,
    Related,
    SchemaNode,
    format_path,
    resolve_path,
)
from configdrift.resolve.lifecycle import schema_deprecations
from configdrift.rules.doc_commands import doc_command_deprecations
from configdrift.rules.docstring_calls import deprecated_in_calls
from configdrift.rules.registry import describe, make, register
from configdrift.rules.removed_uses import code_uses
from configdrift.rules.warned import warned_deprecations

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: A line that tells of the removal is history, not a leftover.
HISTORY_WORDS = re.compile(r"\b(removed|deprecated|no longer|instead|renamed|obsolete)\b", re.I)


def _entries(analysis: Analysis, status: str) -> dict[ConfigPath, LifecycleEntry]:
    out: dict[ConfigPath, LifecycleEntry] = {}
    for entry in analysis.lifecycle:
        if entry.status == status:
            out.setdefault(entry.path, entry)
    return out


def _under(path: ConfigPath, marked: dict[ConfigPath, LifecycleEntry]) -> LifecycleEntry | None:
    """The entry for ``path`` or for a section holding it."""
    for n in range(len(path), 0, -1):
        found = marked.get(path[:n])
        if found is not None:
            return found
    return None


def _said(entry: LifecycleEntry) -> tuple[Related, ...]:
    if entry.location is None:
        return ()
    what = "the configuration" if entry.source == "configuration" else entry.source
    note = f"{what} marks `{format_path(entry.path)}` {entry.status}"
    if entry.reason:
        note += f": {entry.reason}"
    if entry.version:
        note += f" (in {entry.version})"
    return (Related(entry.location.path, entry.location.line, note),)


def _examples(
    analysis: Analysis, marked: dict[ConfigPath, LifecycleEntry]
) -> Iterator[tuple[str, int, ConfigPath, LifecycleEntry, str]]:
    """(file, line, path, entry, what) for keys of placed examples that are
    marked, once per block and marked path."""
    for rel, block, base in analysis.blocks:
        seen: set[ConfigPath] = set()
        for key in block.keys:
            path = (*base, *key.path)
            entry = _under(path, marked)
            if entry is None or entry.path in seen:
                continue
            seen.add(entry.path)
            yield rel, key.line, entry.path, entry, block.described()


def page_lines(
    analysis: Analysis,
    rel: str,
    cache: dict[str, list[str]],
    data: bytes | None = None,
    limit: int | None = None,
) -> list[str]:
    """A page's lines (of ``limit`` bytes at most), read once for all the
    rules' questions (from ``data`` when the caller has the bytes already)."""
    if rel not in cache:
        raw = data if data is not None else read_or_none(analysis.config.root, rel, limit)
        try:
            cache[rel] = decode(raw).splitlines() if raw is not None else []
        except NotText:
            cache[rel] = []
    return cache[rel]


def _history_line(analysis: Analysis, rel: str, line: int, cache: dict[str, list[str]]) -> bool:
    """Does the doc line (or the two after it) tell of a removal?"""
    lines = page_lines(analysis, rel, cache)
    return any(HISTORY_WORDS.search(text) for text in lines[max(0, line - 1) : line + 2])


#: The lines of an entry's description read for a word of its deprecation.
MAX_ENTRY_LINES = 30
#: The lines before a command line of the docs that may tell of a deprecation.
NOTE_LINES = 3


def _noted_before(analysis: Analysis, rel: str, line: int, cache: dict[str, list[str]]) -> bool:
    """Does a page tell of a deprecation on a line or the few before it (a
    page not read says what is not known: as if it did)?"""
    lines = page_lines(analysis, rel, cache)
    before = lines[max(0, line - 1 - NOTE_LINES) : line]
    return not lines or any("deprecat" in text.lower() for text in before)


def _entry_says(analysis: Analysis, where: Location, cache: dict[str, list[str]]) -> bool:
    """Does a doc entry tell of its key's removal or deprecation: its line
    and the two after it, or its description up to the page's next entry
    (a ``.. deprecated::`` note in a ``confval``'s body)?"""
    if _history_line(analysis, where.path, where.line, cache):
        return True
    after = [
        e.location.line
        for e in analysis.entries
        if e.location.path == where.path and e.location.line > where.line
    ]
    end = min([*after, where.line + MAX_ENTRY_LINES])
    lines = page_lines(analysis, where.path, cache)
    return any("deprecat" in text.lower() for text in lines[where.line - 1 : end - 1])


def _distinctive(marked: dict[ConfigPath, LifecycleEntry]) -> dict[str, LifecycleEntry]:
    """The marked keys worth looking for as words in code and text, by name."""
    return {path[-1]: entry for path, entry in marked.items() if distinctive(path[-1])}


@register("CD401")
def removed_key_leftover(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key the project marks removed (a registry such as
    ``REMOVED_CONFIG_KEYS``, or ``[tool.configdrift.removed]``)
    that is still documented, still set in an example config (a doc block, a
    config file, a dict a test hands to a call), still named by a constant
    in the code, or still mentioned on a page (a tutorial's sample output).
    A test that expects the rejection (``pytest.raises``) is not a leftover,
    and neither is a line that tells of the removal.

    Why it matters
    An incomplete removal is worse than none: readers keep setting a key
    that now fails to load, or that nothing reads.

    Example
    ``legacy_mode`` is in ``REMOVED_CONFIG_KEYS``, but the config page
    still documents it and a test config still sets it.

    How to fix
    Delete the leftover: the doc entry, the example key, the constant.
    ``configdrift sweep KEY`` lists every reference in removal order.
    """
    marked = _entries(analysis, REMOVED)
    if not marked:
        return
    registries = {e.source for e in marked.values() if e.source != "configuration"}
    uses = code_uses(analysis.project, analysis.config.root, registries, {p[-1] for p in marked})

    def effect(entry: LifecycleEntry) -> str:
        if resolve_path(analysis.schema, entry.path)[0] is not None:
            return "is still accepted, as the removal is half done"
        if entry.source == "configuration":
            return "no longer exists"
        if entry.source in uses.enforced:
            return f"is rejected on load ({entry.source} is checked)"
        return f"is silently ignored (nothing checks {entry.source} on load)"

    lines: dict[str, list[str]] = {}
    documented: set[tuple[str, ConfigPath]] = set()
    for doc in analysis.entries:
        entry = _under(doc.path, marked)
        if entry is None or _history_line(analysis, doc.location.path, doc.location.line, lines):
            continue
        documented.add((doc.location.path, entry.path))
        yield make(
            "CD401",
            format_path(doc.path),
            doc.location,
            f"`{format_path(doc.path)}` is documented, but "
            + ("it" if doc.path == entry.path else f"`{format_path(entry.path)}`")
            + f" was removed: a reader who follows the docs sets a key that {effect(entry)}",
            _said(entry),
        )
    for rel, line, path, entry, what in _examples(analysis, marked):
        yield make(
            "CD401",
            format_path(path),
            Location(rel, line),
            f"{what} sets `{format_path(path)}`, which was removed and {effect(entry)}",
            _said(entry),
        )
    leaves = {p[-1]: e for p, e in marked.items()}
    for rel, line, leaf in uses.writes:
        entry = leaves[leaf]
        yield make(
            "CD401",
            format_path(entry.path),
            Location(rel, line),
            f"the code still writes `{leaf}` into a dict (saved state, a default config), "
            f"but `{format_path(entry.path)}` was removed",
            _said(entry),
        )
    yield from _constants(analysis, marked)
    yield from _stale_reads(analysis, marked)
    yield from _mentions(analysis, marked, documented, lines)


def _derived(token: str, leaves: dict[str, LifecycleEntry]) -> LifecycleEntry | None:
    """The entry whose key ``token`` is or is made from (``key_enabled``)."""
    for leaf, entry in leaves.items():
        if token == leaf or token.startswith(leaf + "_"):
            return entry
    return None


def _stale_reads(analysis: Analysis, marked: dict[ConfigPath, LifecycleEntry]) -> Iterator[Finding]:
    """Attribute reads named after a removed key (``self._config.key_enabled``)
    that nothing assigns any more: accessors the removal left behind."""
    leaves = _distinctive(marked)
    if not leaves:
        return
    project = analysis.project
    assigned = {
        name for info in project.modules.values() for _, name, _, _, _ in info.facts.attr_assigns
    }
    for module in sorted(project.modules):
        info = project.modules[module]
        seen: set[tuple[str, str]] = set()
        for line, function, chain in sorted(info.facts.chains):
            attribute = chain.rsplit(".", 1)[-1]
            entry = _derived(attribute, leaves)
            if entry is None or attribute in assigned or (function, chain) in seen:
                continue
            seen.add((function, chain))
            yield make(
                "CD401",
                format_path(entry.path),
                Location(info.path, line),
                f"`{function}` still reads `{chain}`, which nothing assigns since "
                f"`{format_path(entry.path)}` was removed",
                _said(entry),
            )


def _registry_names(analysis: Analysis) -> set[str]:
    """Constants the registries themselves use (``{SPARSE_GRADIENTS}``)."""
    names = {e.source for e in analysis.lifecycle if e.source != "configuration"}
    used: set[str] = set()
    for info in analysis.project.modules.values():
        for name in names & set(info.facts.assigns):
            stack = [info.facts.assigns[name]]
            while stack:
                expr = stack.pop()
                if isinstance(expr, list):
                    if expr[:1] == ["n"] and isinstance(expr[1], str):
                        used.add(expr[1].rsplit(".", 1)[-1])
                    stack.extend(e for e in expr if isinstance(e, list))
    return used


def _constants(analysis: Analysis, marked: dict[ConfigPath, LifecycleEntry]) -> Iterator[Finding]:
    """Module-level string constants that spell a removed key."""
    leaves = {path[-1]: entry for path, entry in marked.items()}
    kept = _registry_names(analysis)
    registries = {e.source for e in analysis.lifecycle}
    project = analysis.project
    for module in sorted(project.modules):
        info = project.modules[module]
        for name, expr in info.facts.assigns.items():
            if not (expr[0] == "c" and isinstance(expr[1], str)) or name in kept:
                continue
            entry = leaves.get(expr[1])
            if entry is None or name in registries:
                continue
            line = info.facts.assign_lines.get(name, 1)
            yield make(
                "CD401",
                format_path(entry.path),
                Location(info.path, line),
                f"the constant `{name}` still spells `{format_path(entry.path)}`, which was removed",
                _said(entry),
            )


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _mentions(
    analysis: Analysis,
    marked: dict[ConfigPath, LifecycleEntry],
    documented: set[tuple[str, ConfigPath]],
    lines: dict[str, list[str]],
) -> Iterator[Finding]:
    """Pages that still name a removed key, or a name made from it
    (``legacy_mode_enabled`` in a sample output), outside its entry.
    Only distinctive keys are looked for: with an underscore or a hyphen."""
    leaves = _distinctive(marked)
    if not leaves:
        return
    encoded = [leaf.encode() for leaf in leaves]
    entry_lines = {(e.location.path, e.location.line) for e in analysis.entries}
    block_lines = {(rel, key.line) for rel, block, _ in analysis.blocks for key in block.keys}
    for rel in analysis.pages:
        data = read_or_none(analysis.config.root, rel)
        if data is None or not any(leaf in data for leaf in encoded):
            continue
        for number, text in enumerate(page_lines(analysis, rel, lines, data), start=1):
            if (rel, number) in entry_lines or (rel, number) in block_lines:
                continue
            for token in _IDENT.findall(text):
                entry = _derived(token, leaves)
                if entry is None:
                    continue
                if (rel, entry.path) in documented and token == entry.path[-1]:
                    break  # the entry's own prose
                if HISTORY_WORDS.search(text):
                    break
                yield make(
                    "CD401",
                    format_path(entry.path),
                    Location(rel, number),
                    f"the page still names `{token}`, from `{format_path(entry.path)}`, which was removed",
                    _said(entry),
                )
                break


@register("CD404")
def removed_key_accepted(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key the project marks removed that the schema still declares, or that
    the code still reads from the config.

    Why it matters
    The removal is half done: the registry says the key is gone (and may
    reject configs that hold it), while the schema or the code still acts
    on it.

    Example
    ``legacy_mode`` is in ``REMOVED_CONFIG_KEYS``, but
    ``get_legacy_mode()`` still reads it.

    How to fix
    Finish the removal (delete the field, the read and its constant), or
    take the key out of the registry if it stays.
    """
    marked = _entries(analysis, REMOVED)
    for path, entry in sorted(marked.items()):
        node, _, _ = resolve_path(analysis.schema, path)
        if node is not None and node.location is not None and node.origin.startswith("field of"):
            yield make(
                "CD404",
                format_path(path),
                node.location,
                f"`{format_path(path)}` is marked removed, but "
                f"{node.origin.removeprefix('field of ')} still declares it",
                _said(entry),
            )
        for site in analysis.reads:
            if site.path == path:
                yield make(
                    "CD404",
                    format_path(path),
                    site.location,
                    f"`{format_path(path)}` is marked removed, but {site.function} still reads it",
                    _said(entry),
                )


@register("CD402")
def deprecated_key_documented(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A doc entry or an example config that uses a key the project marks
    deprecated: a deprecated field (``Field(deprecated=...)``,
    ``json_schema_extra={"deprecated": True, "new_param": ...}``), a
    registry of deprecated keys, ``[tool.configdrift.deprecated]``, or a
    message in the code that opens with the key and says it is deprecated
    or no longer supported (``"The analytics_id option is deprecated, use
    ..."``). A doc entry
    that says it is deprecated (on its line, or in its description before
    the next entry) is not reported, nor are tests, which keep old
    spellings working on purpose. Also a call in the docs (or in
    the examples of a docstring a page renders) that passes the project's
    own function or class a keyword it deprecates: a default that says so
    (``margin="deprecated"``), a message that calls it deprecated. And a
    command line of the docs that gives the project's own program a flag
    its help calls deprecated (``[deprecated: use `app remove`]``), where
    the line and the three before it say nothing of a deprecation; and a
    doc entry of an option by an old spelling, where no entry names a
    current one: a spelling its declaration keeps out of ``--help`` beside
    a shown one (``help=argparse.SUPPRESS``), or a name the option class
    warns is deprecated where it is used (a luigi option's
    ``config_path``).

    Why it matters
    Readers copy what the docs show. A deprecated spelling works today and
    breaks when it is removed; the docs should teach the new one.

    Example
    The server page's example sets ``max_conn``, deprecated for
    ``max_connections``.

    How to fix
    Use the new spelling in the example and the entry, or mark the entry as
    deprecated in its text.
    """
    yield from deprecated_in_calls(analysis)
    lines: dict[str, list[str]] = {}
    yield from doc_command_deprecations(
        analysis, lambda rel, line: _noted_before(analysis, rel, line, lines)
    )
    # The project's lifecycle is the first surface's; the others mark their
    # own fields deprecated (a trait whose help says so).
    for surface in analysis.everything:
        marked = (
            _entries(analysis, DEPRECATED)
            if surface is analysis
            else {e.path: e for e in schema_deprecations(surface.schema)}
        )
        # A key the code warns is deprecated, where nothing else marks it.
        marked = {**warned_deprecations(surface), **marked}
        found = [*_deprecated_in(surface, marked, lines)] if marked else []
        for finding in [*found, *_old_spelling_entries(surface, lines)]:
            yield dataclasses.replace(finding, surface=surface.surface)


def _old_spelling_entries(analysis: Analysis, lines: dict[str, list[str]]) -> Iterator[Finding]:
    """CD402 on one surface: an entry that names an option by an old
    spelling (one its declaration keeps out of ``--help`` beside a shown
    one, or one the code warns is deprecated where it is used), where no
    entry names a current spelling and the entry says nothing of it."""
    current: set[int] = set()
    old: list[tuple[DocEntry, SchemaNode]] = []
    for doc in analysis.entries:
        node = resolve_path(analysis.schema, doc.path)[0]
        if node is None or not (node.hidden_spellings or node.deprecated_spellings):
            continue
        if doc.name in node.hidden_spellings or doc.name in node.deprecated_spellings:
            old.append((doc, node))
        else:
            current.add(id(node))
    for doc, node in old:
        if id(node) in current or _entry_says(analysis, doc.location, lines):
            continue
        # The shown spelling (``--color``), the option's own name.
        instead = [*node.current_spellings(), node.key][0]
        why = (
            "a spelling its declaration keeps out of `--help`"
            if doc.name in node.hidden_spellings
            else "a spelling the code warns is deprecated where it is used"
        )
        yield make(
            "CD402",
            format_path(doc.path),
            doc.location,
            f"`{doc.name}` is documented, {why} (`{instead}` is the current one)",
            (Related(node.location.path, node.location.line, "declared here"),)
            if node.location
            else (),
            f"use `{instead}`",
        )


def _deprecated_in(
    analysis: Analysis, marked: dict[ConfigPath, LifecycleEntry], lines: dict[str, list[str]]
) -> Iterator[Finding]:
    """CD402 on one surface: its entries and examples of marked keys."""
    for doc in analysis.entries:
        entry = marked.get(doc.path)
        if entry is None or _entry_says(analysis, doc.location, lines):
            continue
        yield make(
            "CD402",
            format_path(doc.path),
            doc.location,
            f"`{format_path(doc.path)}` is documented without a word that it is deprecated",
            _said(entry),
            f"use `{entry.replacement}`" if entry.replacement else None,
        )
    for rel, line, path, entry, what in _examples(analysis, marked):
        if in_tests(rel):
            continue  # tests keep old spellings working on purpose
        yield make(
            "CD402",
            format_path(path),
            Location(rel, line),
            f"{what} sets `{format_path(path)}`, which is deprecated",
            _said(entry),
            f"use `{entry.replacement}`" if entry.replacement else None,
        )


describe(
    "CD403",
    """What it finds
    Run by ``configdrift diff BASE [HEAD]``: a key the schema accepts (or the
    code reads) at BASE that HEAD no longer accepts, with no entry in a
    registry of removed keys, no ``[tool.configdrift.removed]`` entry and no
    deprecation at either ref.

    Why it matters
    A config that still sets the key is now silently ignored (or rejected
    with a generic error): its owner is never told that the setting stopped
    doing anything.

    Example
    ``legacy_mode`` loses its constant and its parse in one commit, and
    nothing registers it as removed.

    How to fix
    Add the key to the registry of removed keys, checked on load, so that a
    leftover fails with a clear message; or deprecate it for a release first.
    """,
)
