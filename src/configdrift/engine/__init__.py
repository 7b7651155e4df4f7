"""The engine: it sequences the stages and prints nothing.

discover -> extract (per file, pure, cached) -> resolve (the schema from
the mechanisms) -> place (doc pages, entries, examples, config files onto
the surface) -> ``analysis.Analysis``, the first surface with the others
(``surfaces``). The rules (``rules.run.run_rules``) turn it into findings.
"""

from __future__ import annotations

import functools
import gc

from configdrift.analysis import Analysis, top_packages
from configdrift.config import Config, ConfigError
from configdrift.discover import HISTORY_PAGES, discover, in_tests, matches
from configdrift.engine.calls import call_pages, calls_made, place_calls
from configdrift.engine.surfaces import other_surfaces
from configdrift.extract.cache import FactCache
from configdrift.extract.docs.block_model import BlockRead
from configdrift.extract.docs.facts import claimed_names
from configdrift.extract.docs.python_config import CONFIG_FILE_SUFFIX, SPHINX_CONF
from configdrift.extract.run import Extractor
from configdrift.index.pages import (
    example_scripts,
    pages_running,
    pages_worth_reading,
    scripts_running,
    spelt_whole,
)
from configdrift.index.platform_variables import package_named
from configdrift.index.programs import installed_programs, other_programs, scripts_run
from configdrift.model import (
    CLI_KINDS,
    DocSource,
    Location,
    Unresolved,
    spellings_of,
    top_spellings,
)
from configdrift.place.config_files import config_files
from configdrift.place.entries import place_entries
from configdrift.place.examples import (
    config_dicts,
    example_pages,
    placed_examples,
)
from configdrift.place.fit import mount_by_docs
from configdrift.place.pages import (
    EARLY_NEEDED,
    autodoc,
    config_pages,
    dangling_references,
    generated_pages,
    needed_entries,
    relevant,
)
from configdrift.place.renames import doc_renames
from configdrift.place.sharing import share
from configdrift.progress import stage
from configdrift.resolve.build import build_schema
from configdrift.resolve.lifecycle import lifecycle_entries
from configdrift.resolve.mechanisms.environment import IN_PROSE, variable_reads
from configdrift.resolve.mechanisms.keyword_calls import keyword_functions
from configdrift.resolve.objects import ObjectTypes
from configdrift.resolve.schema import MIN_OPTIONS
from configdrift.site_pages import built_commands
from configdrift.sources import Sources
from configdrift.wording import counted


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
    extracted = len(sources.python) + len(sources.docs)
    stage(f"reading {counted(extracted, 'file')}")
    with Extractor(str(root), jobs, extracted, store, declaring) as extractor:
        pending_py = extractor.python(sources.python)
        # Doc pages are extracted while the schema is built: before the
        # schema is known, only the byte test that needs no keys applies.
        pending_md = extractor.docs(sources.docs, None if explicit else EARLY_NEEDED)
        # Pages outside configured docs count only for their example blocks;
        # beside configured docs, a page that may document keys is read too:
        # evidence of which code holds the configuration (``doc_names``).
        pending_examples = extractor.docs(sources.examples, EARLY_NEEDED if explicit else 0)
        # Python config files outside the code (``jupyterhub_config.py``),
        # and Sphinx's ``conf.py`` files, for the names they assign alone.
        confs = [
            rel
            for rel in sources.py_examples
            if rel.rsplit("/", 1)[-1] == SPHINX_CONF and not in_tests(rel)
        ]
        pending_config_files = extractor.config_files(
            [rel for rel in sources.py_examples if rel.endswith(CONFIG_FILE_SUFFIX)] + confs
        )
        py_facts = pending_py()
        # The facts live until the end: the collector need not walk them
        # again in every pass while the project is resolved.
        gc.freeze()
        pending_md = functools.cache(pending_md)
        pending_examples = functools.cache(pending_examples)

        @functools.cache
        def doc_names() -> frozenset[str]:
            # The docs decide which dict read key by key (if any) holds the
            # config where no model does; the pages are extracted meanwhile.
            # Configured pages say what is compared; which code holds the
            # configuration, every page tells, as without a configuration.
            pages = list(pending_md().values())
            if explicit:
                pages += [
                    doc
                    for rel, doc in pending_examples().items()
                    if not HISTORY_PAGES.search(rel) and len(doc.entries) >= EARLY_NEEDED
                ]
            return claimed_names(pages)

        @functools.cache
        def doc_words() -> frozenset[str]:
            # Beside the names, the titles of one word: evidence for a
            # surface that has such keys (``timeout`` underlined).
            words = {
                e.name for doc in pending_md().values() for e in doc.entries if e.form == "word"
            }
            return doc_names() | words

        stage("resolving the code")
        schema, builder = build_schema(py_facts, sources.python, config, doc_names)
        spellings = spellings_of(schema)
        tops = top_spellings(schema)
        pending_dicts = extractor.py_examples(sources.py_examples, tops)
        md_facts = dict(pending_md())
        example_facts = pending_examples()
        # Calls in the docs of a function that builds a model from its
        # keyword arguments: examples of that model, on any page.
        targets = keyword_functions(builder)
        calls_of = call_pages(
            root,
            [*sources.docs, *sources.examples],
            {**md_facts, **example_facts},
            lambda rels: extractor.docs(rels, None)(),
            targets,
        )
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
        # Pages no surface reads that may misspell a key (of this surface,
        # or one the read pages document): read for the names their prose
        # spells in code, and only for those.
        unread_pages = [rel for rel in sources.docs if rel not in md_facts]
        # Those that render classes from their docstrings are read for what
        # they render alone (the docstrings' ``Args:`` are a reference).
        # And those that run the project's own program with a flag are read
        # for their command lines alone.
        setup_py = py_facts["setup.py"].registrations if "setup.py" in py_facts else []
        programs = installed_programs(root, builder.project.modules, setup_py)
        others = other_programs(root, builder.project.modules, setup_py)
        # And those that import the project's packages, for the calls of
        # its own functions and classes their Python makes.
        packages = top_packages(builder.project)
        # The scripts a page may run by name (``python train.py``), and the
        # pages beside the examples that run them, for their command lines.
        scripts = frozenset(
            rel.rsplit("/", 1)[-1] for rel in (*sources.python, *sources.py_examples)
        )
        unshown = [rel for rel in sources.examples if rel not in example_facts]
        spelt, rendering, running, calling = pages_worth_reading(
            root, unread_pages, spellings | doc_names(), programs, packages, scripts
        )
        running += pages_running(root, unshown, scripts)
        calling += example_scripts(root, sources.py_examples, packages)
        # And the shell scripts that run the program, or a module run as a
        # script (``python -m app.train``), for their command lines.
        run_as_scripts = [
            f"-m {name}" for name, info in builder.project.modules.items() if info.facts.main_guard
        ]
        running += scripts_running(root, sources.scripts, [*programs, *run_as_scripts])
        extra = extractor.docs(sorted({*spelt, *rendering, *running, *calling}), None)()
        mention_facts = {rel: extra[rel] for rel in spelt if rel in extra}
        parse_errors: list[tuple[Location, str]] = [
            (Location(rel, facts.error_line), facts.error)
            for rel, facts in sorted(py_facts.items())
            if facts.error is not None
        ]
        pages = config_pages(sources, md_facts, schema, spellings, parse_errors)
        placer, entries = place_entries(schema, config, pages, others)
        if mount_by_docs(builder, schema, entries):
            placer, entries = place_entries(schema, config, pages, others)
        unused = sorted(set(config.sections_of(None)) - placer.used)
        if unused:
            raise ConfigError(
                f"sections: {unused[0]!r} names no section of the {len(pages)} doc page(s) read "
                "(write `page.md#Title`, `page.md#Parent/Title` or the heading's title)"
            )
        doc_sources = [
            DocSource(rel, sum(1 for e in entries if e.location.path == rel), sources.docs_explicit)
            for rel, _ in pages
        ]
        reads: dict[str, BlockRead] = {}  # each YAML file parsed once
        files = config_files(root, sources.configs, tops, sources.declared_configs, reads=reads)
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
        # Collected while the workers are still there.
        read_configs = pending_config_files()
        python_configs = [
            (rel, doc) for rel, doc in read_configs.items() if doc.blocks and rel not in confs
        ]
    shown = example_pages({**md_facts, **example_facts}, pages) + python_configs
    lifecycle, odd = lifecycle_entries(builder, config, schema)
    lifecycle += doc_renames(md_facts, schema)
    builder.unresolved.extend(Unresolved(where, what) for where, what in odd)
    # Keys the project removed are still its config's keys to an example
    # that holds them: such an example is placed, and its leftovers found.
    former = {e.path[0] for e in lifecycle if len(e.path) == 1}
    dicts = config_dicts(dict_facts, tops | former)
    blocks_of, broken = placed_examples(schema, pages, shown, placer, former, files, dicts)
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
        code=builder,
        object_types=functools.cache(lambda: ObjectTypes(builder.project, builder)),
        # Every Python file read, every page considered and every config file
        # read: the same count whether facts came from the cache or not.
        files=len(py_facts)
        + len(sources.docs)
        + len(sources.examples)
        + len(files)
        + len(dict_facts),
        blocks=blocks_of,
        examples_read=sum(len(doc.blocks) + len(doc.loose_settings) for _, doc in pages + shown)
        + len(files)
        + len(dicts),
        lifecycle=lifecycle,
        pages=sorted({*sources.docs, *sources.examples}),
        other_python=sources.py_examples,
        templates=sources.rendered,
        package_data=sources.package_data,
        env_examples=sources.env_examples,
        config_files=[*sources.declared_configs, *sources.configs],
        config_reads=reads,
        unparseable=sorted(broken, key=lambda item: (item[0], item[1].error_line)),
        surface=builder.primary,
        how=builder.mounts[0].how if builder.mounts else "",
    )
    if builder.primary == "env" and not entries:
        # The environment no page lists, whose variables the pages write in
        # prose and command lines, half of them (two at least: it holds
        # three or more) or one named for the package, is admitted, as a
        # secondary one is (only the package's own are judged then).
        prose = spelt_whole(config.root, sources.docs, frozenset(schema.children))
        half = 2 * len(prose) >= min(len(schema.children), 2 * MIN_OPTIONS)
        if half or prose & package_named(variable_reads(builder.project)):
            analysis.admitted = IN_PROSE
    candidates = [(rel, doc) for rel, doc in md_facts.items() if doc.error is None]
    analysis.page_entries = {rel: len(doc.entries) for rel, doc in candidates}
    analysis.doc_facts = dict(candidates)
    # A gallery example's docstring renders what it names, as a page does.
    rendered = [*rendering, *(rel for rel in calling if rel in extra and extra[rel].autodoc)]
    analysis.rendered_pages = {
        rel: extra[rel] for rel in rendered if rel in extra and extra[rel].error is None
    }
    analysis.command_pages = {
        rel: extra[rel] for rel in running if rel in extra and extra[rel].error is None
    }
    analysis.calling_pages = {rel: extra[rel] for rel in calling if rel in extra}
    analysis.programs = programs
    analysis.other_programs = others
    analysis.example_facts = {
        rel: doc
        for rel, doc in example_facts.items()
        if doc.error is None and rel not in analysis.doc_facts and not HISTORY_PAGES.search(rel)
    }
    # The scripts the pages run, read for the flags their parser declares.
    pythons = {*sources.python, *sources.py_examples}
    run = scripts_run({**analysis.command_pages, **analysis.pages_read}, pythons)
    ran = extractor.docs(run, None)() if run else {}
    analysis.scripts_run = {rel: doc.parser for rel, doc in ran.items() if doc.parser is not None}
    analysis.conf_files = {rel: read_configs[rel].assigned for rel in confs if rel in read_configs}
    analysis.mentions = [
        (rel, name, line)
        for rel, doc in candidates + list(mention_facts.items())
        if doc.error is None
        for name, line in doc.mentions
    ]
    analysis.references = dangling_references(candidates)
    # A command line's reference built with the site is generated too:
    # read once, where a surface is a command line.
    built = functools.cache(lambda: [Location(page, 1) for page in built_commands(config.root)])
    if schema.model_kind in CLI_KINDS:
        analysis.generated = generated_pages(pages) + built()
    # A page rendered from the code documents what the code describes; its
    # other lists (an enum's members) are no entries of the configuration.
    # Pages outside configured docs render models too: what they render
    # is documented, though they are not compared.
    analysis.autodoc = {m for doc in analysis.pages_read.values() for m in autodoc(doc, schema)}
    other_surfaces(
        analysis,
        builder,
        sources,
        candidates,
        shown,
        doc_names,
        doc_words,
        functools.cache(lambda: calls_made(calls_of)),
        built,
    )
    share(analysis.everything)
    # A surface none of whose entries a page keeps after sharing has no
    # evidence left that users write it, unless the configuration names it.
    analysis.surfaces = [
        s
        for s in analysis.surfaces
        if s.surface in config.surfaces
        or s.entries
        or s.generated
        or s.autodoc
        or s.admitted
        or s.calls
        or s.examples_document
    ]
    place_calls(analysis, builder.project, targets, calls_of)
    return analysis
