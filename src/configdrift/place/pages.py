"""Which pages document a surface: a reference page names several of its
keys in entries (typed entries, key headings, key tables, lists of keys),
a plugin's page its one option; a command line's pages list its flags or
are generated from its parser. Also the pages rendered from the code, and
references to keys no page documents."""

from __future__ import annotations

import functools
from pathlib import Path

from configdrift.discover import HISTORY_PAGES, matches
from configdrift.extract.byte_tests import mentions
from configdrift.extract.docs.entry_text import words_name
from configdrift.extract.docs.facts import NO_EVIDENCE_FORMS, DocFacts
from configdrift.extract.run import OWN_FAULT
from configdrift.files import CANNOT_READ, read_or_none
from configdrift.index.spellings import one_edit
from configdrift.model import CLI_KINDS, ConfigPath, DocEntry, Location, SchemaNode, spellings_of
from configdrift.sources import Sources

#: The entries a page needs when the schema has three keys or more.
EARLY_NEEDED = 3


def needed_entries(spellings: set[str]) -> int:
    """How many schema keys a page's entries must name to be a doc source."""
    return min(EARLY_NEEDED, len(spellings))


def is_config_doc(facts: DocFacts, spellings: set[str]) -> bool:
    """Does a page document configuration keys of this schema?

    A reference page names at least three schema keys in typed entries
    (``**key**: [type]``), entries that give their default (``- **key**``
    then ``Default = 0``) or key headings (fewer only when the schema has
    fewer). A page that lists keys as code-span list items or key-table rows
    qualifies when nearly all of them are schema keys, when half the rows of
    its key tables (headed Key, Option, Variable ...) are, or when ten
    key-table rows and two fifths of them are (a reference table that also
    lists keys other code reads): a tutorial's list of functions or classes,
    with a key or two among them, is not a doc source. A configuration of
    fewer than six keys is listed by a page whose list names two of them,
    half of the list and half of the configuration. Typed entries two of
    which are keys and the others keys misspelt a letter off
    (``target_versions``) name the keys too.
    ``extract.byte_tests.may_document`` is the byte-level necessary condition.
    """
    if not spellings:
        return False
    needed = needed_entries(spellings)
    typed = {
        p
        for e in facts.entries
        if ((e.doc_type or e.default) and e.form != "table")
        or e.form in ("heading", "directive", "word", "field")
        for p in e.parts
    }
    exact = typed & spellings
    if len(exact) >= needed:
        return True
    if (
        len(exact) >= _SMALL_LEAST
        and len(typed) >= needed
        and len(near_keys(typed - exact, spellings)) == len(typed - exact)
    ):
        # A key misspelt one letter off (``target_versions``) names it too,
        # where every other key the page documents is the configuration's.
        return True
    # A signature's keyword arguments list keys as a list does.
    listed = {
        part for e in facts.entries if e.form in ("list", "table", "signature") for part in e.parts
    }
    # Keys named in list items' prose count where they are keys; the other
    # names there are prose, not a list of something else.
    listed |= {p for e in facts.entries if e.form == "mention" for p in e.parts} & spellings
    hits = len(listed & spellings)
    rows = {part for e in facts.entries if e.form == "table" for part in e.parts}
    row_hits = len(rows & spellings)
    if row_hits >= _LARGE_TABLE and 5 * row_hits >= 2 * len(rows):
        return True  # a reference table of many keys, part of them for other code
    if row_hits >= needed and 2 * row_hits >= len(rows):
        return True  # a key table (Key, Option, Variable ...) half of whose rows are keys
    if hits >= needed and hits >= 0.8 * len(listed):
        return True
    # A small configuration (a model of three keys) and a short list that
    # overlap by half of each, two keys at least: the page lists it.
    return (
        len(spellings) < 2 * EARLY_NEEDED
        and hits >= _SMALL_LEAST
        and 2 * hits >= len(listed)
        and 2 * hits >= len(spellings)
    )


#: The keys a short list must name of a small configuration.
_SMALL_LEAST = 2


def near_keys(names: set[str], spellings: set[str]) -> set[str]:
    """The names one letter from a key (``index.spellings.one_edit``:
    ``time_zone`` of ``timezone``), each of several words or of
    ``NEAR_LEAST`` letters at least, as the key is."""
    keys = [key for key in spellings if _long(key)]
    return {name for name in names if _long(name) and any(one_edit(name, k) for k in keys)}


#: The fewest letters of a word one letter from a key that misspells it.
NEAR_LEAST = 6


def _long(name: str) -> bool:
    return words_name(name) or len(name) >= NEAR_LEAST


def parents_by_spelling(root: SchemaNode) -> dict[str, frozenset[ConfigPath]]:
    """Where each spelling of a key sits: the paths of the nodes holding it."""
    out: dict[str, set[ConfigPath]] = {}
    for node in root.walk():
        if node is not root:
            for spelling in node.spellings or (node.key,):
                out.setdefault(spelling, set()).add(node.path[:-1])
    return {k: frozenset(v) for k, v in out.items()}


def is_small_doc(facts: DocFacts, parents: dict[str, frozenset[ConfigPath]]) -> bool:
    """A page of one or two entries, each a key heading or an object
    directive, that all name keys of one schema node: a plugin's page for
    its one option. Lists and tables this short prove nothing."""
    entries = facts.entries
    if not 1 <= len(entries) <= 2 or any(
        e.form not in ("heading", "directive", "word") for e in entries
    ):
        return False
    common: frozenset[ConfigPath] | None = None
    for entry in entries:
        found = parents.get(entry.parts[-1], frozenset())
        if len(entry.parts) > 1:
            found = frozenset(p for p in found if p[-len(entry.parts) + 1 :] == entry.parts[:-1])
        common = found if common is None else common & found
    return bool(common)


def listing_sections(facts: DocFacts, spellings: set[str]) -> frozenset[str]:
    """Sections that list the options (``## Global options``: nearly all of
    their list items name keys, three at least, or they name nine tenths of
    the keys and other names no more than those) on a page that lists other
    things too: only their list items are the page's entries. For the
    surfaces beside the first only: a tutorial's list of a config tree's
    keys (DeepSpeed's sparse attention) is no reference page."""
    needed = needed_entries(spellings)
    by_section: dict[int, set[str]] = {}
    for e in facts.entries:
        if e.form == "list":
            by_section.setdefault(e.section, set()).update(e.parts)
    return frozenset(
        facts.sections[sid].title
        for sid, names in by_section.items()
        if needed and _lists_keys(len(names & spellings), len(names), len(spellings), needed)
    )


def _lists_keys(hits: int, names: int, keys: int, needed: int) -> bool:
    """Do ``names`` list items, ``hits`` of them keys of a configuration of
    ``keys``, list its options? ``needed`` of them at least, and nearly all
    of the items; or nine tenths of the keys, beside other names no more
    than them (the values a key takes, in items under it)."""
    return hits >= needed and (hits >= 0.8 * names or (10 * hits >= 9 * keys and 2 * hits >= names))


#: The variables a section on the environment must document as entries.
VARIABLES_NEEDED = 2


def lists_variables(facts: DocFacts, spellings: set[str]) -> bool:
    """Does a section about the environment (its title, or an enclosing
    section's, says so: "Environment variables") document two of these
    variables as entries (headings, list items, table rows), none of its
    entries another name? A small tool's page of its two variables."""
    sections = facts.sections

    @functools.cache
    def about_environment(sid: int | None) -> bool:
        for _ in range(len(sections)):
            if sid is None:
                return False
            if "environment" in sections[sid].title.lower():
                return True
            sid = sections[sid].parent
        return False

    named = [
        e for e in facts.entries if e.form not in NO_EVIDENCE_FORMS and about_environment(e.section)
    ]
    return len({p for e in named for p in e.parts} & spellings) >= VARIABLES_NEEDED and all(
        e.parts[-1] in spellings or e.parts[-1].isupper() for e in named
    )


def only_listed(entries: list[DocEntry], restricted: dict[str, frozenset[str]]) -> list[DocEntry]:
    """The entries of pages taken for a few sections: their list items
    only in those sections."""
    return [
        e
        for e in entries
        if e.form != "list"
        or e.location.path not in restricted
        or e.section in restricted[e.location.path]
    ]


#: A page whose key-table rows name this many schema keys, and two fifths
#: of its rows, is a reference page.
_LARGE_TABLE = 10


def relevant(
    root: Path, facts: dict[str, DocFacts], spellings: set[str], needed: int
) -> dict[str, DocFacts]:
    """Auto-discovered pages worth a look: a page that could not be read is
    reported only when its bytes name ``needed`` schema keys (a broken page
    about something else is not this tool's business); the others are judged
    by ``_is_config_doc`` on their entries."""
    if not spellings:
        # No keys to look for: the pages other surfaces may take.
        return {
            rel: doc
            for rel, doc in facts.items()
            if doc.error is None or doc.error.startswith(CANNOT_READ)
        }
    out: dict[str, DocFacts] = {}
    for rel, doc in facts.items():
        if (
            doc.error is not None
            and not doc.error.startswith(CANNOT_READ)
            and OWN_FAULT not in doc.error
        ):
            # (A page the tree forbids reading is reported: what it holds
            # cannot be told; so is a page configdrift itself failed on,
            # whatever it holds: never silently left out.)
            data = read_or_none(root, rel) or b""
            if not mentions(data, spellings, needed):
                continue
        out[rel] = doc
    return out


def dangling_references(
    candidates: list[tuple[str, DocFacts]],
) -> list[tuple[str, str, Location]]:
    """References (``:confval:`name```) to keys no page documents, the
    first on each page; history pages (changelogs) are left out."""
    documented = {
        p.replace("-", "_") for _, doc in candidates for e in doc.entries for p in e.parts
    }
    out: list[tuple[str, str, Location]] = []
    for rel, doc in candidates:
        if HISTORY_PAGES.search(rel):
            continue
        seen: set[str] = set()
        for role, name, line in doc.references:
            if name.replace("-", "_") in documented or name in seen:
                continue
            seen.add(name)
            out.append((role, name, Location(rel, line)))
    return out


def lists_flags(doc: DocFacts, spellings: set[str], needed: int) -> bool:
    """Does a page list a command line's options: ``needed`` entries spelt
    as flags (``--port``) name options, and half of its flags at least?"""
    flags = {e.name for e in doc.entries if e.name.startswith("-")}
    hits = len(flags & spellings)
    return hits >= needed and 2 * hits >= len(flags)


def autodoc(doc: DocFacts, schema: SchemaNode) -> set[str]:
    """The models of ``schema`` a page renders from the code."""
    if not doc.autodoc:
        return set()
    names = {target.rsplit(".", 1)[-1] for target, _ in doc.autodoc}
    # ``.. automodule:: pkg.settings`` renders the models of that module.
    modules = {"/" + target.replace(".", "/") for target, _ in doc.autodoc}
    return {
        n.model
        for n in schema.walk()
        if n.model in names
        or (
            n.model is not None
            and n.model_location is not None
            and _module_path(n.model_location.path).endswith(tuple(modules))
        )
    }


def _module_path(rel: str) -> str:
    """``/src/pkg/settings`` for ``src/pkg/settings.py``, to be matched by
    its end against a module's dotted name (``pkg.settings``)."""
    return "/" + rel.removesuffix(".py").removesuffix("/__init__")


#: Directives whose argument names the module a page is about without
#: rendering anything of it.
_NOT_RENDERING = frozenset(
    {b"module", b"currentmodule", b"py:module", b"py:currentmodule", b"automodapi"}
)


def rendered_by_bytes(
    root: Path, rels: list[str], modules: list[str], qualname: str, importers: tuple[str, ...] = ()
) -> list[Location]:
    """The pages that render a module of ``modules`` (the names of one
    file) or its class ``qualname`` from the code (``.. automodule::
    pkg.settings``, mkdocstrings' ``::: pkg.settings.Settings``, a
    project's own ``.. x-settings:: pkg.settings``, ``.. program-output::``
    of Python that imports it, or that calls a describing function of a
    module of ``importers``, the modules that import it), at the
    directive's line: a byte search, one pass over the pages, for a
    configuration the code alone admitted, whose keys no page names (such
    pages are not parsed)."""
    targets = [target.encode() for module in modules for target in (module, f"{module}.{qualname}")]
    names = [*targets, *(m.encode() for m in importers)]
    out: list[Location] = []
    for rel in rels:
        data = read_or_none(root, rel)
        if data is None or not any(t in data for t in names):
            continue
        for number, line in enumerate(data.splitlines(), start=1):
            if _renders(line, targets, importers):
                out.append(Location(rel, number))
                break
    return out


def _renders(line: bytes, targets: list[bytes], importers: tuple[str, ...] = ()) -> bool:
    """Is ``line`` a directive whose argument is one of ``targets``:
    ``.. automodule:: pkg.settings``, ``.. x-settings:: pkg.settings``,
    MyST's ``{x-settings} pkg.settings`` fence, mkdocstrings' ``:::
    pkg.settings.Settings``?"""
    stripped = line.strip()
    if stripped.startswith(b":::"):
        name, rest = b":::", stripped[3:]
    elif stripped.startswith(b".."):
        name, sep, rest = stripped[2:].partition(b"::")
        if not sep:
            return False
    elif stripped.startswith((b"```{", b"~~~{")):
        name, sep, rest = stripped.lstrip(b"`~")[1:].partition(b"}")
        if not sep:
            return False
    else:
        return False
    if name.strip() in _RUNNING:
        return _runs(rest.strip(), targets, importers)
    argument = rest.split()[:1]
    return bool(argument) and argument[0] in targets and name.strip() not in _NOT_RENDERING


#: Directives that run a command at build time and show its output
#: (sphinxcontrib-programoutput).
_RUNNING = frozenset({b"program-output", b"command-output"})


#: Words of a function that prints a configuration's description
#: (``describe_all_parameters()``, ``printDefaultOptions()``).
_DESCRIBING = ("describe", "config", "option", "param", "setting")


def _runs(command: bytes, targets: list[bytes], importers: tuple[str, ...]) -> bool:
    """Does a command run Python (``python -c "..."``) that imports a
    target (``from pkg.solvers import Solver; Solver.printDefaultOptions()``),
    or that calls a describing function of a module importing it
    (``from pkg.cli.config import describe_all_parameters``)? The Python is
    parsed, never run."""
    import ast
    import shlex

    try:
        words = shlex.split(command.decode("utf-8", "replace")[:4000])
    except ValueError:
        return False
    code = next((words[i + 1] for i, w in enumerate(words[:-1]) if w == "-c"), None)
    if code is None:
        return False
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    imported: set[str] = set()
    called: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            called.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    if any(name.encode() in targets for name in imported):
        return True
    describing = any(word in name.lower() for name in called for word in _DESCRIBING)
    return describing and any(name in importers for name in imported)


def generated_pages(pages: list[tuple[str, DocFacts]]) -> list[Location]:
    return [Location(rel, line) for rel, doc in pages for _, line in doc.generated]


def surface_pages(
    schema: SchemaNode,
    candidates: list[tuple[str, DocFacts]],
    shared: set[str],
    named: tuple[str, ...] | None,
) -> tuple[list[tuple[str, DocFacts]], dict[str, frozenset[str]]]:
    """The pages of a surface beside the first, and those taken for a few
    sections only (``listing_sections``): the pages ``named`` in the
    configuration, else those that document it (a reference page, a small
    page of one option, a command line's generated or flag pages, a page
    of ``shared`` reference pages that names enough of its keys)."""
    spellings = spellings_of(schema)
    cli = schema.model_kind in CLI_KINDS
    restricted: dict[str, frozenset[str]] = {}
    if named:
        return [(rel, doc) for rel, doc in candidates if matches(rel, named)], restricted
    needed = needed_entries(spellings)
    parents = parents_by_spelling(schema)
    pages = [
        (rel, doc)
        for rel, doc in candidates
        if is_config_doc(doc, spellings)
        or is_small_doc(doc, parents)
        or (cli and (doc.generated or lists_flags(doc, spellings, needed)))
        or (schema.model_kind == "env" and lists_variables(doc, spellings))
        or (rel in shared and len({p for e in doc.entries for p in e.parts} & spellings) >= needed)
    ]
    taken = {rel for rel, _ in pages}
    for rel, doc in candidates:
        if rel not in taken and (listing := listing_sections(doc, spellings)):
            pages.append((rel, doc))
            restricted[rel] = listing
    return pages, restricted


def config_pages(
    sources: Sources,
    facts: dict[str, DocFacts],
    schema: SchemaNode,
    spellings: set[str],
    parse_errors: list[tuple[Location, str]],
) -> list[tuple[str, DocFacts]]:
    """The doc pages of the first surface (those configured, else those
    that document it); a page that could not be read is a parse error."""

    @functools.cache
    def parents() -> dict[str, frozenset[ConfigPath]]:
        return parents_by_spelling(schema)

    pages: list[tuple[str, DocFacts]] = []
    for rel in sources.docs:
        doc = facts.get(rel)
        if doc is None:
            continue
        if doc.error is not None:
            parse_errors.append((Location(rel, doc.error_line), doc.error))
            continue
        if (
            sources.docs_explicit
            or is_config_doc(doc, spellings)
            or (doc.generated and schema.model_kind in CLI_KINDS)
            or (
                schema.model_kind in CLI_KINDS
                and lists_flags(doc, spellings, needed_entries(spellings))
            )
            or is_small_doc(doc, parents())
        ):
            pages.append((rel, doc))
    return pages
