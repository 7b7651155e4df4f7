"""The pipeline: discover -> extract -> resolve -> rules -> filter.

``analyse`` builds the resolved model; ``run_rules`` turns it into findings.
Neither prints anything: reporters format what they return.
"""

from __future__ import annotations

import functools
import gc
from collections import Counter

from configdrift.analysis import Analysis, DocSource
from configdrift.config import Config, ConfigError
from configdrift.discover import Sources, discover, matches
from configdrift.extract.cache import FactCache
from configdrift.extract.docs.markdown import Block, DocFacts
from configdrift.extract.run import Extractor
from configdrift.model import (
    ConfigPath,
    DocEntry,
    Location,
    spellings_of,
)
from configdrift.place.config_files import config_files, defaults_files
from configdrift.place.entries import DocPlacer, place_entries
from configdrift.place.examples import broken_blocks, config_dicts, example_pages, placed_blocks
from configdrift.place.fit import mount_by_docs
from configdrift.place.pages import (
    EARLY_NEEDED,
    autodoc,
    dangling_references,
    generated_pages,
    is_config_doc,
    is_small_doc,
    listing_sections,
    lists_flags,
    needed_entries,
    only_listed,
    parents_by_spelling,
    relevant,
)
from configdrift.place.renames import doc_renames
from configdrift.resolve.build import build_schema
from configdrift.resolve.lifecycle import (
    lifecycle_entries,
)
from configdrift.resolve.registrations import CLI_KINDS
from configdrift.resolve.schema import Mount, Surface, Unresolved


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
        pending_md = extractor.docs(sources.docs, None if explicit else EARLY_NEEDED)
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

        schema, builder = build_schema(py_facts, sources.python, config, doc_names)
        spellings: set[str] = set()
        for node in schema.walk():
            if node is not schema:
                spellings.update(node.spellings or (node.key,))
        tops = {s for child in schema.children.values() for s in (child.spellings or (child.key,))}
        pending_dicts = extractor.py_examples(sources.py_examples, tops)
        md_facts = dict(pending_md())
        example_facts = pending_examples()
        needed = needed_entries(spellings)
        if not explicit and 0 < needed < EARLY_NEEDED:
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
            md_facts = relevant(root, md_facts, spellings, needed)
        parse_errors: list[tuple[Location, str]] = [
            (Location(rel, facts.error_line), facts.error)
            for rel, facts in sorted(py_facts.items())
            if facts.error is not None
        ]
        pages: list[tuple[str, DocFacts]] = []

        @functools.cache
        def parents() -> dict[str, frozenset[ConfigPath]]:
            return parents_by_spelling(schema)

        for rel in sources.docs:
            doc = md_facts.get(rel)
            if doc is None:
                continue
            if doc.error is not None:
                parse_errors.append((Location(rel, doc.error_line), doc.error))
                continue
            if (
                sources.docs_explicit
                or is_config_doc(doc, spellings)
                or (doc.generated and schema.model_kind in CLI_KINDS)
                or is_small_doc(doc, parents())
            ):
                pages.append((rel, doc))
        placer, entries = place_entries(schema, config, pages)
        if mount_by_docs(builder, schema, entries):
            placer, entries = place_entries(schema, config, pages)
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
        files = config_files(root, sources.configs, tops, sources.declared_configs)
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
    shown = example_pages({**md_facts, **example_facts}, pages)
    lifecycle, odd = lifecycle_entries(builder, config, schema)
    lifecycle += doc_renames(md_facts, schema)
    builder.unresolved.extend(Unresolved(where, what) for where, what in odd)
    # Keys the project removed are still its config's keys to an example
    # that holds them: such an example is placed, and its leftovers found.
    former = {e.path[0] for e in lifecycle if len(e.path) == 1}
    dicts = config_dicts(dict_facts, tops | former)
    if schema.model_kind in CLI_KINDS:
        # A command line is typed, not written as a JSON or YAML config:
        # example blocks and config files say nothing about it.
        blocks_of: list[tuple[str, Block, ConfigPath]] = []
        broken: list[tuple[str, Block]] = []
    else:
        blocks_of = (
            placed_blocks(schema, pages, placer, former)
            + placed_blocks(schema, shown, None, former)
            + [(rel, block, ()) for rel, block in files if block.error is None]
            + dicts
        )
        broken = [(rel, b) for rel, b in files if b.error is not None] + broken_blocks(
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
    analysis.references = dangling_references(candidates)
    if schema.model_kind in CLI_KINDS:
        analysis.generated = generated_pages(pages)
    # A page rendered from the code documents what the code describes; its
    # other lists (an enum's members) are no entries of the configuration.
    analysis.autodoc = {m for _, doc in candidates for m in autodoc(doc, schema)}
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
            builder.defaults_files = defaults_files(root, sources.configs)
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
    spellings = spellings_of(schema)
    cli = schema.model_kind in CLI_KINDS
    restricted: dict[str, frozenset[str]] = {}
    # A reference page of another surface documents this one too where its
    # entries name three of this one's keys (a table of options and their
    # variables).
    shared = {d.path for d in base.doc_sources} | {
        d.path for other in base.surfaces for d in other.doc_sources
    }
    needed = needed_entries(spellings)
    parents = parents_by_spelling(schema)
    if named:
        pages = [(rel, doc) for rel, doc in candidates if matches(rel, named)]
    else:
        pages = [
            (rel, doc)
            for rel, doc in candidates
            if is_config_doc(doc, spellings)
            or is_small_doc(doc, parents)
            or (cli and (doc.generated or lists_flags(doc, spellings, needed)))
            or (
                rel in shared
                and len({p for e in doc.entries for p in e.parts} & spellings) >= needed
            )
        ]
        taken = {rel for rel, _ in pages}
        for rel, doc in candidates:
            if rel not in taken and (listing := listing_sections(doc, spellings)):
                pages.append((rel, doc))
                restricted[rel] = listing
    placer = DocPlacer(schema, {})
    entries = only_listed([e for rel, doc in pages for e in placer.place(rel, doc)], restricted)
    blocks: list[tuple[str, Block, ConfigPath]] = []
    if schema.model_kind not in CLI_KINDS and schema.model_kind not in ("env", "mkdocs"):
        # A MkDocs plugin's options sit in ``mkdocs.yml`` under ``plugins: -
        # name:``, where the examples show them: not at a root of their own.
        own = {rel for rel, _ in pages}
        blocks = placed_blocks(schema, pages, placer, set()) + placed_blocks(
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
        generated=generated_pages(pages) if cli else [],
        autodoc={m for _, doc in candidates for m in autodoc(doc, schema)},
    )


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
