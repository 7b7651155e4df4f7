"""The pipeline: discover -> extract -> resolve -> rules -> filter.

``analyse`` builds the resolved model; ``run_rules`` turns it into findings.
Neither prints anything: reporters format what they return.
"""

from __future__ import annotations

import functools
import gc
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from configdrift.analysis import Analysis, DocSource
from configdrift.config import Config, ConfigError
from configdrift.discover import HISTORY_PAGES, Sources, discover, matches
from configdrift.extract.cache import FactCache
from configdrift.extract.docs.blocks import BlockKey, BlockRead, read_block
from configdrift.extract.docs.markdown import Block, DocFacts
from configdrift.extract.python.examples import PyExample
from configdrift.extract.python.facts import ModuleFacts
from configdrift.extract.run import Extractor, mentions
from configdrift.extract.text import NotText, decode
from configdrift.files import CANNOT_READ, Unreadable, read_file, read_or_none
from configdrift.model import (
    ConfigPath,
    DocEntry,
    Location,
    SchemaNode,
)
from configdrift.resolve.defaults import DEFAULTS_FILES
from configdrift.resolve.docs import DocPlacer
from configdrift.resolve.fit import mount_by_docs
from configdrift.resolve.lifecycle import (
    DEPRECATED,
    REMOVED,
    LifecycleEntry,
    configured_entries,
    registry_entries,
    schema_deprecations,
    split_key,
)
from configdrift.resolve.project import ModuleInfo, Project, module_name
from configdrift.resolve.registrations import CLI_KINDS
from configdrift.resolve.schema import Mount, SchemaBuilder, Surface, Unresolved

#: The entries a page needs when the schema has three keys or more.
_EARLY_NEEDED = 3


def _needed(spellings: set[str]) -> int:
    """How many schema keys a page's entries must name to be a doc source."""
    return min(_EARLY_NEEDED, len(spellings))


def _is_config_doc(facts: DocFacts, spellings: set[str]) -> bool:
    """Does a page document configuration keys of this schema?

    A reference page names at least three schema keys in typed entries
    (``**key**: [type]``) or key headings (fewer only when the schema has
    fewer). A page that lists keys as code-span list items or key-table rows
    qualifies when nearly all of them are schema keys, when half the rows of
    its key tables (headed Key, Option, Variable ...) are, or when ten
    key-table rows and two fifths of them are (a reference table that also
    lists keys other code reads): a tutorial's list of functions or classes,
    with a key or two among them, is not a doc source.
    ``extract.run.may_document`` is the byte-level necessary condition.
    """
    if not spellings:
        return False
    needed = _needed(spellings)
    typed = {
        p
        for e in facts.entries
        if (e.doc_type and e.form != "table") or e.form in ("heading", "directive", "word")
        for p in e.parts
    }
    if len(typed & spellings) >= needed:
        return True
    listed = {part for e in facts.entries if e.form in ("list", "table") for part in e.parts}
    hits = len(listed & spellings)
    rows = {part for e in facts.entries if e.form == "table" for part in e.parts}
    row_hits = len(rows & spellings)
    if row_hits >= _LARGE_TABLE and 5 * row_hits >= 2 * len(rows):
        return True  # a reference table of many keys, part of them for other code
    if row_hits >= needed and 2 * row_hits >= len(rows):
        return True  # a key table (Key, Option, Variable ...) half of whose rows are keys
    return hits >= needed and hits >= 0.8 * len(listed)


def _parents_by_spelling(root: SchemaNode) -> dict[str, frozenset[ConfigPath]]:
    """Where each spelling of a key sits: the paths of the nodes holding it."""
    out: dict[str, set[ConfigPath]] = {}
    for node in root.walk():
        if node is not root:
            for spelling in node.spellings or (node.key,):
                out.setdefault(spelling, set()).add(node.path[:-1])
    return {k: frozenset(v) for k, v in out.items()}


def _is_small_doc(facts: DocFacts, parents: dict[str, frozenset[ConfigPath]]) -> bool:
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


def _listing_sections(facts: DocFacts, spellings: set[str]) -> frozenset[str]:
    """Sections that list the options (``## Global options``: nearly all of
    their list items name keys, three at least) on a page that lists other
    things too: only their list items are the page's entries. For the
    surfaces beside the first only: a tutorial's list of a config tree's
    keys (DeepSpeed's sparse attention) is no reference page."""
    needed = _needed(spellings)
    by_section: dict[int, set[str]] = {}
    for e in facts.entries:
        if e.form == "list":
            by_section.setdefault(e.section, set()).update(e.parts)
    return frozenset(
        facts.sections[sid].title
        for sid, names in by_section.items()
        if needed
        and len(names & spellings) >= needed
        and len(names & spellings) >= 0.8 * len(names)
    )


def _only_listed(entries: list[DocEntry], restricted: dict[str, frozenset[str]]) -> list[DocEntry]:
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


def _relevant(
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
        if doc.error is not None and not doc.error.startswith(CANNOT_READ):
            # (A page the tree forbids reading is reported: what it holds
            # cannot be told.)
            data = read_or_none(root, rel) or b""
            if not mentions(data, spellings, needed):
                continue
        out[rel] = doc
    return out


def analyse(
    config: Config, *, jobs: int | None = None, cache: bool = True, sources: Sources | None = None
) -> Analysis:
    """Discover (unless ``sources`` says what was found), extract and
    resolve the project under ``config.root``."""
    sources = sources if sources is not None else discover(config)
    try:
        return _analyse(config, sources, jobs, cache)
    finally:
        gc.unfreeze()


def _analyse(config: Config, sources: Sources, jobs: int | None, cache: bool) -> Analysis:
    root = config.root
    declaring = frozenset(name.rsplit(".", 1)[-1] for name in config.registrations)
    store = FactCache(root, salt=",".join(sorted(declaring))) if cache else None
    explicit = sources.docs_explicit
    with Extractor(
        str(root), jobs, len(sources.python) + len(sources.docs), store, declaring
    ) as extractor:
        pending_py = extractor.python(sources.python)
        # Doc pages are extracted while the schema is built: before the
        # schema is known, only the byte test that needs no keys applies.
        pending_md = extractor.docs(sources.docs, None if explicit else _EARLY_NEEDED)
        # Pages outside configured docs count only for their example blocks.
        pending_examples = extractor.docs(sources.examples, 0)
        py_facts = pending_py()
        # The facts live until the end: the collector need not walk them
        # again in every pass while the project is resolved.
        gc.freeze()
        pending_md = functools.cache(pending_md)

        @functools.cache
        def doc_names() -> frozenset[str]:
            # The docs decide which dict read key by key (if any) holds the
            # config where no model does; the pages are extracted meanwhile.
            return frozenset(
                p
                for doc in pending_md().values()
                for e in doc.entries
                if e.form != "word"
                for p in e.parts
            )

        @functools.cache
        def doc_words() -> frozenset[str]:
            # Beside the names, the titles of one word: evidence for a
            # surface that has such keys (``timeout`` underlined).
            words = {
                e.name for doc in pending_md().values() for e in doc.entries if e.form == "word"
            }
            return doc_names() | words

        schema, builder = _schema(py_facts, sources.python, config, doc_names)
        spellings: set[str] = set()
        for node in schema.walk():
            if node is not schema:
                spellings.update(node.spellings or (node.key,))
        tops = {s for child in schema.children.values() for s in (child.spellings or (child.key,))}
        pending_dicts = extractor.py_examples(sources.py_examples, tops)
        md_facts = dict(pending_md())
        example_facts = pending_examples()
        needed = _needed(spellings)
        if not explicit and 0 < needed < _EARLY_NEEDED:
            # A schema of one or two keys: pages with fewer entries count too.
            later = [rel for rel in sources.docs if rel not in md_facts]
            md_facts.update(extractor.docs(later, needed)())
        elif not explicit and needed:
            # Pages of one or two entries that name schema keys (``_is_small_doc``).
            later = [rel for rel in sources.docs if rel not in md_facts]
            md_facts.update(extractor.docs(later, 1, frozenset(spellings))())
        # The test dicts are read while the docs are placed and the config
        # files read.
        if not explicit:
            md_facts = _relevant(root, md_facts, spellings, needed)
        parse_errors: list[tuple[Location, str]] = [
            (Location(rel, facts.error_line), facts.error)
            for rel, facts in sorted(py_facts.items())
            if facts.error is not None
        ]
        pages: list[tuple[str, DocFacts]] = []

        @functools.cache
        def parents() -> dict[str, frozenset[ConfigPath]]:
            return _parents_by_spelling(schema)

        for rel in sources.docs:
            doc = md_facts.get(rel)
            if doc is None:
                continue
            if doc.error is not None:
                parse_errors.append((Location(rel, doc.error_line), doc.error))
                continue
            if (
                sources.docs_explicit
                or _is_config_doc(doc, spellings)
                or (doc.generated and schema.model_kind in CLI_KINDS)
                or _is_small_doc(doc, parents())
            ):
                pages.append((rel, doc))
        placer, entries = _place(schema, config, pages)
        if mount_by_docs(builder, schema, entries):
            placer, entries = _place(schema, config, pages)
        unused = sorted(set(config.sections) - placer.used)
        if unused:
            raise ConfigError(
                f"sections: {unused[0]!r} names no section of the {len(pages)} doc page(s) read "
                "(write `page.md#Title` or the heading's title)"
            )
        doc_sources = [
            DocSource(rel, sum(1 for e in entries if e.location.path == rel), sources.docs_explicit)
            for rel, _ in pages
        ]
        files = _config_files(root, sources.configs, tops, sources.declared_configs)
        # The pages configured surfaces name are read whatever they hold.
        named = tuple(p for _, docs in config.surfaces.values() for p in docs)
        unread = [
            rel
            for rel in (*sources.docs, *sources.examples)
            if named and rel not in md_facts and matches(rel, named)
        ]
        if unread:
            md_facts.update(extractor.docs(unread, None)())
        dict_facts = pending_dicts()
    shown = _example_pages({**md_facts, **example_facts}, pages)
    lifecycle, odd = _lifecycle(builder, config, schema)
    lifecycle += _doc_renames(md_facts, schema)
    builder.unresolved.extend(Unresolved(where, what) for where, what in odd)
    # Keys the project removed are still its config's keys to an example
    # that holds them: such an example is placed, and its leftovers found.
    former = {e.path[0] for e in lifecycle if len(e.path) == 1}
    dicts = _config_dicts(dict_facts, tops | former)
    if schema.model_kind in CLI_KINDS:
        # A command line is typed, not written as a JSON or YAML config:
        # example blocks and config files say nothing about it.
        blocks_of: list[tuple[str, Block, ConfigPath]] = []
        broken: list[tuple[str, Block]] = []
    else:
        blocks_of = (
            _placed_blocks(schema, pages, placer, former)
            + _placed_blocks(schema, shown, None, former)
            + [(rel, block, ()) for rel, block in files if block.error is None]
            + dicts
        )
        broken = [(rel, b) for rel, b in files if b.error is not None] + _broken(
            pages + shown, spellings
        )
    analysis = Analysis(
        config=config,
        schema=schema,
        entries=entries,
        doc_sources=doc_sources,
        missing_docs=sources.missing_docs,
        missing_configs=sources.missing_configs,
        parse_errors=parse_errors,
        mounts=builder.mounts,
        root_candidates=builder.root_candidates,
        unresolved=builder.unresolved,
        sections=placer.maps,
        reads=builder.reads,
        unknown_reads=builder.unknown_reads,
        dead_reads=builder.dead_reads,
        builder=builder,
        # Every Python file read, every page considered and every config file
        # read: the same count whether facts came from the cache or not.
        files=len(py_facts)
        + len(sources.docs)
        + len(sources.examples)
        + len(files)
        + len(dict_facts),
        blocks=blocks_of,
        examples_read=sum(len(doc.blocks) for _, doc in pages + shown) + len(files) + len(dicts),
        lifecycle=lifecycle,
        pages=sorted({*sources.docs, *sources.examples}),
        other_python=sources.py_examples,
        env_examples=sources.env_examples,
        config_files=[*sources.declared_configs, *sources.configs],
        unparseable=sorted(broken, key=lambda item: (item[0], item[1].error_line)),
        surface=builder.primary,
        how=builder.mounts[0].how if builder.mounts else "",
    )
    candidates = [(rel, doc) for rel, doc in md_facts.items() if doc.error is None]
    analysis.references = _dangling_candidates(candidates)
    if schema.model_kind in CLI_KINDS:
        analysis.generated = _generated(pages)
    # A page rendered from the code documents what the code describes; its
    # other lists (an enum's members) are no entries of the configuration.
    analysis.autodoc = {m for _, doc in candidates for m in _autodoc(doc, schema)}
    generated = any(doc.generated for _, doc in candidates)
    if config.surfaces:
        for surface in builder.configured(config.surfaces):
            named = config.surfaces[surface.name][1]
            analysis.surfaces.append(_surface(analysis, surface, candidates, shown, named))
            analysis.missing_docs.extend(
                p for p in named if not any(matches(rel, (p,)) for rel, _ in candidates)
            )
    else:
        if builder.imported("confuse"):
            builder.defaults_files = _defaults_files(root, sources.configs)
        for surface in builder.surfaces(
            schema, None if config.mount else doc_names, generated, doc_words
        ):
            other = _surface(analysis, surface, candidates, shown, None)
            if other.doc_sources or other.generated or other.autodoc:
                # Evidence that users write it: a page documents it.
                analysis.surfaces.append(other)
    for other in analysis.surfaces:
        other.first = analysis
    _share(analysis.everything)
    if not config.surfaces:
        # A surface none of whose entries a page keeps after sharing has no
        # evidence left that users write it.
        analysis.surfaces = [s for s in analysis.surfaces if s.entries or s.generated or s.autodoc]
    return analysis


def _dangling_candidates(
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


def _defaults_files(root: Path, rels: list[str]) -> list[tuple[str, list[BlockKey]]]:
    """The keys of confuse's defaults files (``config_default.yaml``)."""
    out: list[tuple[str, list[BlockKey]]] = []
    for rel in rels:
        if rel.rsplit("/", 1)[-1] not in DEFAULTS_FILES:
            continue
        try:
            text = decode(read_file(root, rel, MAX_CONFIG_BYTES))
        except (FileNotFoundError, Unreadable, NotText):
            continue
        read = read_block(text, "yaml")
        if read.error is None:
            out.append((rel, read.keys))
    return out


def _spellings(schema: SchemaNode) -> set[str]:
    return {
        s for node in schema.walk() if node is not schema for s in node.spellings or (node.key,)
    }


def _surface(
    base: Analysis,
    surface: Surface,
    candidates: list[tuple[str, DocFacts]],
    shown: list[tuple[str, DocFacts]],
    named: tuple[str, ...] | None,
) -> Analysis:
    """The analysis of one more surface: its own pages, entries and
    examples, over the facts the first one read. Parse errors, lifecycle
    and source health are the project's, judged once, with the first."""
    schema = surface.root
    spellings = _spellings(schema)
    cli = schema.model_kind in CLI_KINDS
    restricted: dict[str, frozenset[str]] = {}
    # A reference page of another surface documents this one too where its
    # entries name three of this one's keys (a table of options and their
    # variables).
    shared = {d.path for d in base.doc_sources} | {
        d.path for other in base.surfaces for d in other.doc_sources
    }
    needed = _needed(spellings)
    parents = _parents_by_spelling(schema)
    if named:
        pages = [(rel, doc) for rel, doc in candidates if matches(rel, named)]
    else:
        pages = [
            (rel, doc)
            for rel, doc in candidates
            if _is_config_doc(doc, spellings)
            or _is_small_doc(doc, parents)
            or (cli and (doc.generated or _lists_flags(doc, spellings, needed)))
            or (
                rel in shared
                and len({p for e in doc.entries for p in e.parts} & spellings) >= needed
            )
        ]
        taken = {rel for rel, _ in pages}
        for rel, doc in candidates:
            if rel not in taken and (listing := _listing_sections(doc, spellings)):
                pages.append((rel, doc))
                restricted[rel] = listing
    placer = DocPlacer(schema, {})
    entries = _only_listed([e for rel, doc in pages for e in placer.place(rel, doc)], restricted)
    blocks: list[tuple[str, Block, ConfigPath]] = []
    if schema.model_kind not in CLI_KINDS and schema.model_kind not in ("env", "mkdocs"):
        # A MkDocs plugin's options sit in ``mkdocs.yml`` under ``plugins: -
        # name:``, where the examples show them: not at a root of their own.
        own = {rel for rel, _ in pages}
        blocks = _placed_blocks(schema, pages, placer, set()) + _placed_blocks(
            schema, [(rel, doc) for rel, doc in shown if rel not in own], None, set()
        )
    assert schema.model_location is not None
    return Analysis(
        config=base.config,
        schema=schema,
        entries=entries,
        doc_sources=[
            DocSource(rel, sum(1 for e in entries if e.location.path == rel), bool(named))
            for rel, _ in pages
        ],
        missing_docs=[],
        parse_errors=[],
        mounts=[Mount((), schema.model or surface.name, schema.model_location, surface.how)],
        root_candidates=[],
        unresolved=surface.unresolved,
        sections=placer.maps,
        reads=[],
        unknown_reads=[],
        dead_reads=[],
        builder=base.builder,
        files=base.files,
        blocks=blocks,
        pages=base.pages,
        other_python=base.other_python,
        config_files=base.config_files,
        surface=surface.name,
        how=surface.how,
        target=surface.target,
        generated=_generated(pages) if cli else [],
        autodoc={m for _, doc in candidates for m in _autodoc(doc, schema)},
    )


def _lists_flags(doc: DocFacts, spellings: set[str], needed: int) -> bool:
    """Does a page list a command line's options: ``needed`` entries spelt
    as flags (``--port``) name options, and half of its flags at least?"""
    flags = {e.name for e in doc.entries if e.name.startswith("-")}
    hits = len(flags & spellings)
    return hits >= needed and 2 * hits >= len(flags)


def _autodoc(doc: DocFacts, schema: SchemaNode) -> set[str]:
    """The models of ``schema`` a page renders from the code."""
    if not doc.autodoc:
        return set()
    names = {target.rsplit(".", 1)[-1] for target, _ in doc.autodoc}
    return {n.model for n in schema.walk() if n.model in names}


def _generated(pages: list[tuple[str, DocFacts]]) -> list[Location]:
    return [Location(rel, line) for rel, doc in pages for _, line in doc.generated]


def _share(analyses: list[Analysis]) -> None:
    """Give each doc entry and example block to one surface.

    An entry belongs to the surface that accepts its key, of several the
    one that accepts most of its section's entries; one that none accepts,
    to the surface that accepts most of its section's entries (an option
    spelt ``--flag`` to the command line first), the first on a tie. An example block belongs to the
    surface that accepts most of its top-level keys."""
    if len(analyses) < 2:
        return
    from configdrift.model import resolve_path

    def ident(entry: DocEntry) -> tuple[str, int, str]:
        return (entry.location.path, entry.location.line, entry.name)

    accepts: list[set[tuple[str, int, str]]] = []
    tally: dict[tuple[str, str], list[int]] = {}
    by_page: dict[str, list[int]] = {}
    for index, analysis in enumerate(analyses):
        known = {
            ident(e)
            for e in analysis.entries
            if resolve_path(analysis.schema, e.path)[0] is not None
        }
        accepts.append(known)
        for entry in analysis.entries:
            if ident(entry) in known:
                counts = tally.setdefault((entry.location.path, entry.section), [0] * len(analyses))
                counts[index] += 1
                by_page.setdefault(entry.location.path, [0] * len(analyses))[index] += 1
    cli = next((i for i, a in enumerate(analyses) if a.schema.model_kind in CLI_KINDS), None)

    def owner(entry: DocEntry) -> int:
        if cli is not None and entry.name.startswith("-"):
            return cli
        counts = tally.get((entry.location.path, entry.section))
        page = by_page.get(entry.location.path)
        if counts is None or page is None or max(counts) == 0:
            return -1
        return max(range(len(analyses)), key=lambda i: (counts[i], page[i], -i))

    placed: dict[tuple[str, int, str], list[int]] = {}
    for index, analysis in enumerate(analyses):
        for entry in analysis.entries:
            placed.setdefault(ident(entry), []).append(index)
    for index, analysis in enumerate(analyses):
        kept = []
        for entry in analysis.entries:
            key = ident(entry)
            if key in accepts[index]:
                # Several surfaces accept it: the one its section documents.
                counts = tally[(entry.location.path, entry.section)]
                page = by_page[entry.location.path]
                takers = [i for i in placed[key] if key in accepts[i]]
                if index == max(takers, key=lambda i: (counts[i], page[i], -i)):
                    kept.append(entry)
                else:
                    analysis.documented_elsewhere.add(entry.path)
                continue
            if any(key in accepts[i] for i in placed[key]):
                continue  # another surface accepts it
            chosen = owner(entry)
            if chosen == index or (chosen == -1 and placed[key][0] == index):
                kept.append(entry)
        analysis.entries = kept
    for analysis in analyses:
        # A page is a doc source of the surfaces it documents entries of.
        per_page = Counter(e.location.path for e in analysis.entries)
        analysis.doc_sources = [
            DocSource(d.path, per_page[d.path], d.explicit)
            for d in analysis.doc_sources
            if per_page[d.path] or d.explicit
        ]
    fits: dict[tuple[str, int], list[int]] = {}
    for index, analysis in enumerate(analyses):
        for rel, block, base in analysis.blocks:
            fit = sum(
                1
                for k in block.keys
                if resolve_path(analysis.schema, (*base, *k.path))[0] is not None
            )
            fits.setdefault((rel, block.line), [-1] * len(analyses))[index] = fit
    for index, analysis in enumerate(analyses):
        analysis.blocks = [
            (rel, block, base)
            for rel, block, base in analysis.blocks
            if fits[(rel, block.line)].index(max(fits[(rel, block.line)])) == index
        ]


#: Larger JSON files are data, not configs: they are not read.
MAX_CONFIG_BYTES = 1024 * 1024


def _config_files(
    root: Path, rels: list[str], spellings: set[str], declared: list[str]
) -> list[tuple[str, Block]]:
    """Config files of this project, each as one block (language ``file``)
    whose keys sit at the top of the config: the files the configuration
    declares (``config-files``), and the JSON and YAML files shaped like a
    config: two top-level keys or more, at least half of them top-level keys
    of the schema. A file that cannot be read whole keeps its error.

    Most JSON and YAML files are data: byte searches for top-level keys and
    the C JSON parser turn them away before a reader that keeps every key's
    line looks at a config. ``spellings`` are the config's top-level keys."""
    out: list[tuple[str, Block]] = []
    for rel in declared:
        block = _config_file(root, rel, spellings, shaped=False)
        if block is not None:
            out.append((rel, block))
    if len(spellings) < 2:
        return out
    quoted = [f'"{s}"'.encode() for s in spellings]
    for rel in rels:
        block = _config_file(root, rel, spellings, shaped=True, quoted=quoted)
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
    if yaml:
        read = read_block(text, "yaml")
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


def _lifecycle(
    builder: SchemaBuilder, config: Config, schema: SchemaNode
) -> tuple[list[LifecycleEntry], list[tuple[Location, str]]]:
    """Removed and deprecated keys, from every source, and the registry
    entries that could not be read statically."""
    patterns = {REMOVED: config.removed_registries, DEPRECATED: config.deprecated_registries}
    found, odd = registry_entries(builder.project, patterns)
    entries = configured_entries(config) + found + schema_deprecations(schema)
    # A registry that holds ``""`` names no key.
    return [e for e in entries if e.path], odd


def _doc_renames(facts: dict[str, DocFacts], schema: SchemaNode) -> list[LifecycleEntry]:
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


def _misspelt(top: str, block: Block, schema: SchemaNode) -> bool:
    """Is an unknown top-level key of an example a misspelling of one of
    the config's: a near spelling whose value has the same shape (a list
    under ``models`` is no misspelt ``model`` string)?"""
    from configdrift.extract.docs.blocks import DICT, LIST, PLACEHOLDER
    from configdrift.model import near_spelling

    if schema.child(top) is not None:
        return False
    close = near_spelling(top, schema)
    node = schema.child(close) if close is not None else None
    if node is None:
        return False
    own = next((k for k in block.keys if k.path == (top,)), None)
    nested = any(len(k.path) > 1 and k.path[0] == top for k in block.keys)
    kind = DICT if nested else own.kind if own is not None else PLACEHOLDER
    if kind == PLACEHOLDER:
        return True
    if node.children:
        return kind == DICT
    wanted = {DICT: {"dict"}, LIST: {"list"}}.get(kind, {"str", "int", "float", "bool", "null"})
    return not node.type.kinds or bool(node.type.kinds & wanted)


def _config_shaped(tops: int, known: int) -> bool:
    """Is a mapping with ``tops`` top-level keys, ``known`` of them the
    config's, a whole config with a few wrong keys? Two known keys or more,
    and at least three quarters: an inference config that shares a couple
    of section names with the training one is not taken for it."""
    return known >= 2 and 4 * known >= 3 * tops


def _config_dicts(
    facts: dict[str, list[PyExample]], tops: set[str]
) -> list[tuple[str, Block, ConfigPath]]:
    """Dicts of tests and examples shaped like a whole config
    (``_config_shaped``), each a block whose keys sit at the top of the
    config."""
    out: list[tuple[str, Block, ConfigPath]] = []
    for rel, examples in facts.items():
        for example in examples:
            keys = {k.path[0] for k in example.keys if len(k.path) == 1}
            if _config_shaped(len(keys), len(keys & tops)):
                what = f"the config passed to `{example.callee}`"
                out.append((rel, Block(0, example.line, "python", example.keys, what=what), ()))
    return out


def _example_pages(
    facts: dict[str, DocFacts], sources: list[tuple[str, DocFacts]]
) -> list[tuple[str, DocFacts]]:
    """Pages that are not doc sources but show example blocks (tutorials)."""
    taken = {rel for rel, _ in sources}
    return [
        (rel, doc)
        for rel, doc in facts.items()
        if rel not in taken and doc.error is None and doc.blocks
    ]


def _broken(pages: list[tuple[str, DocFacts]], spellings: set[str]) -> list[tuple[str, Block]]:
    """Blocks in a config language that could not be read whole, and that
    name a key of the schema: meant as configs."""
    return [
        (rel, block)
        for rel, doc in pages
        for block in doc.blocks
        if block.error is not None and any(k.path[-1] in spellings for k in block.keys)
    ]


def _placed_blocks(
    schema: SchemaNode,
    pages: list[tuple[str, DocFacts]],
    placer: DocPlacer | None,
    former: set[str],
) -> list[tuple[str, Block, ConfigPath]]:
    """Example blocks placed with certainty: a block all of whose top-level
    keys are top-level keys of the config (a whole config, or
    ``{"zero_optimization": {...}}``), a whole config with a few wrong
    top-level keys (``_config_shaped``), or a one-key fragment
    (``"offload_param": {...}``) whose key the schema places under its
    section (on doc sources, which ``placer`` has placed). Other fragments
    are not judged. ``former`` top-level keys (removed or deprecated) count
    as the config's."""
    decided = {(rel, bid): base for rel, bid, base in placer.blocks} if placer else {}
    out: list[tuple[str, Block, ConfigPath]] = []
    for rel, doc in pages:
        for bid, block in enumerate(doc.blocks):
            if block.error is not None:
                continue  # past a broken bracket, where a key sits is a guess
            tops = {key.path[0] for key in block.keys}
            known = sum(1 for top in tops if top in former or schema.child(top) is not None)
            # A misspelling of a top-level key is evidence of the config
            # too (``show_out_of_stok`` beside ``currency``, ``page_size``).
            near = sum(1 for top in tops if top not in former and _misspelt(top, block, schema))
            if tops and (
                known == len(tops) or (known >= 2 and _config_shaped(len(tops), known + near))
            ):
                out.append((rel, block, ()))
            elif (rel, bid) in decided:
                out.append((rel, block, decided[(rel, bid)]))
    return out


def _place(
    schema: SchemaNode, config: Config, pages: list[tuple[str, DocFacts]]
) -> tuple[DocPlacer, list[DocEntry]]:
    placer = DocPlacer(schema, config.sections)
    entries: list[DocEntry] = []
    for rel, doc in pages:
        entries.extend(placer.place(rel, doc))
    return placer, entries


def _schema(
    py_facts: dict[str, ModuleFacts],
    python: list[str],
    config: Config,
    doc_names: Callable[[], frozenset[str]] | None = None,
) -> tuple[SchemaNode, SchemaBuilder]:
    package_dirs = {p.rsplit("/", 1)[0] for p in python if p.endswith("/__init__.py")}
    modules: list[ModuleInfo] = []
    for rel in python:
        facts = py_facts.get(rel)
        if facts is None or facts.error is not None:
            continue
        name, is_package = module_name(rel, package_dirs)
        modules.append(ModuleInfo(name, rel, facts, is_package))
    builder = SchemaBuilder(Project(modules), config.registrations)
    root = builder.build(config.mount, doc_names)
    builder.apply_reads(root)
    return root, builder
