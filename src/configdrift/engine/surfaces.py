"""The project's surfaces beside the first: those the configuration
names, else those discovery finds that a page documents, each analysed
over the facts the first one read."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from configdrift.analysis import Analysis, fields_beside
from configdrift.config import Config, ConfigError
from configdrift.discover import in_tests, looks_like_reference, matches
from configdrift.extract.docs.facts import Block, DocFacts, claimed_names
from configdrift.files import read_or_none
from configdrift.index.pages import page_keys, spelt_whole
from configdrift.model import (
    CLASS_KINDS,
    CLI_KINDS,
    ConfigPath,
    DocSource,
    Location,
    Mount,
    SchemaNode,
    Surface,
    field_owner,
    format_path,
    spellings_of,
    top_spellings,
)
from configdrift.place.action_files import action_files
from configdrift.place.build_scripts import build_scripts, rendered_by_scripts
from configdrift.place.config_files import (
    config_files,
    defaults_files,
    file_tops,
    package_defaults_files,
    schema_beside,
)
from configdrift.place.entries import DocPlacer, configured_sections, section_names
from configdrift.place.examples import listed_blocks, placed_blocks
from configdrift.place.includes import SELECTORS, Include, code_shown, file_includes
from configdrift.place.pages import (
    autodoc,
    generated_pages,
    only_listed,
    rendered_by_bytes,
    surface_pages,
)
from configdrift.place.schema_files import Schema, schema_files, schema_pages
from configdrift.place.theme_files import theme_options
from configdrift.resolve.build import configured_openness, configured_surfaces
from configdrift.resolve.mechanisms import discover_surfaces
from configdrift.resolve.mechanisms.actions import set_with
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.schema import SchemaBuilder, placed_under
from configdrift.sources import Sources


def _as_named(config: Config, surface: Surface) -> None:
    """What the configuration says of a surface it names: whether unknown
    keys are an error (``open``), and the path it sits ``under``."""
    if surface.name in config.open_surfaces:
        open_ = config.open_surfaces[surface.name]
        configured_openness(surface.root, config, surface.name, open_)
    if surface.name in config.under:
        surface.root = placed_under(surface.root, config.under[surface.name])


def _surface(
    base: Analysis,
    surface: Surface,
    candidates: list[tuple[str, DocFacts]],
    shown: list[tuple[str, DocFacts]],
    named: tuple[str, ...] | None,
    among: list[tuple[str, DocFacts]] | None = None,
    built: Callable[[], list[Location]] = list,
) -> Analysis:
    """The analysis of one more surface: its own pages (chosen ``among``
    the candidates, when given), entries and examples, over the facts the
    first one read. Parse errors, lifecycle and source health are the
    project's, judged once, with the first."""
    schema = surface.root
    cli = schema.model_kind in CLI_KINDS
    # A reference page of another surface documents this one too where its
    # entries name three of this one's keys (a table of options and their
    # variables).
    shared = {d.path for d in base.doc_sources} | {
        d.path for other in base.surfaces for d in other.doc_sources
    }
    pages, restricted = surface_pages(schema, candidates if among is None else among, shared, named)
    # Sections the configuration gives this surface (``sections`` entries
    # naming it) are read wherever they are; those it gives another are not.
    mine, elsewhere = configured_sections(base.config, surface.name, first=False)
    taken = {rel for rel, _ in pages}
    extra = [
        (rel, doc)
        for rel, doc in candidates
        if mine
        and rel not in taken
        and any(n in mine for sid in range(len(doc.sections)) for n in section_names(rel, doc, sid))
    ]
    pages = [*pages, *extra]
    placer = DocPlacer(schema, mine, elsewhere, frozenset(rel for rel, _ in extra))
    placer.other_programs = base.other_programs
    entries = only_listed([e for rel, doc in pages for e in placer.place(rel, doc)], restricted)
    unused = sorted(set(mine) - placer.used)
    if unused:
        raise ConfigError(
            f"sections: {unused[0]!r} names no section of the {len(pages)} doc page(s) "
            f"read for the surface {surface.name!r} (write `page.md#Title`, "
            "`page.md#Parent/Title` or the heading's title)"
        )
    blocks: list[tuple[str, Block, ConfigPath]] = []
    unjudged: list[tuple[str, Block]] = []
    if schema.model_kind == "mkdocs":
        # A MkDocs plugin's options sit in ``mkdocs.yml`` under ``plugins: -
        # name:``, where the examples show them: not at a root of their own.
        blocks = listed_blocks(schema, list(dict([*shown, *pages]).items()))
    elif schema.model_kind not in CLI_KINDS and schema.model_kind != "env":
        own = {rel for rel, _ in pages}
        blocks = placed_blocks(schema, pages, placer, set()) + placed_blocks(
            schema, [(rel, doc) for rel, doc in shown if rel not in own], None, set()
        )
        blocks += _own_files(base, schema)
        if surface.exemplified:
            # Its keys are set below its path wherever an example sets them.
            seen = own | {rel for rel, _ in shown}
            blocks += placed_blocks(
                schema, [(rel, doc) for rel, doc in candidates if rel not in seen], None, set()
            )
            # The others set its keys too, beside keys of other
            # configurations: they document those keys, never judged.
            judged = {id(block) for _, block, _ in blocks}
            unjudged = [
                (rel, block)
                for rel, doc in sorted(dict([*candidates, *shown]).items())
                for block in doc.blocks
                if id(block) not in judged
            ]
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
        code=base.code,
        object_types=base.object_types,
        files=base.files,
        blocks=blocks,
        pages=base.pages,
        other_python=base.other_python,
        templates=base.templates,
        package_data=base.package_data,
        config_files=base.config_files,
        surface=surface.name,
        how=surface.how,
        target=surface.target,
        generated=generated_pages(pages) + built() if cli else [],
        autodoc={m for doc in base.pages_read.values() for m in autodoc(doc, schema)},
        admitted=surface.admitted,
        exemplified=surface.exemplified,
        file_linked=surface.file_linked,
        other_examples=unjudged,
        calls=surface.calls,
        unread=surface.unread,
    )


def other_surfaces(
    analysis: Analysis,
    builder: SchemaBuilder,
    sources: Sources,
    candidates: list[tuple[str, DocFacts]],
    shown: list[tuple[str, DocFacts]],
    doc_names: Callable[[], frozenset[str]],
    doc_words: Callable[[], frozenset[str]],
    calls: Callable[[], dict[tuple[str, str], frozenset[str]]] | None = None,
    built: Callable[[], list[Location]] = list,
) -> None:
    """The project's surfaces beside the first: those the configuration
    names, and (unless ``discover = false``) those discovery finds that a
    page documents, a surface named ``discovered`` with the configuration's
    pages."""
    config = analysis.config
    schema = analysis.schema
    generated = any(doc.generated for _, doc in candidates)
    # The scripts a site's build runs: read once, where a surface asks.
    scripts = functools.cache(lambda: build_scripts(config.root))
    targets = {name: target for name, (target, _) in config.surfaces.items()}
    claimed: set[str] = set()
    if config.surfaces:
        held = {node.model: node.path for node in schema.walk() if node.model}
        for surface in configured_surfaces(builder, config.surfaces):
            _as_named(config, surface)
            named = config.surfaces[surface.name][1]
            model = surface.root.model
            if model in held and surface.root.model_kind not in CLI_KINDS:
                where = format_path(held[model]) or "its root"
                raise ConfigError(
                    f"surfaces.{surface.name}: {model} is part of the configuration "
                    f"{analysis.surface!r} already (at {where}), whose pages document it; "
                    "a surface of its own would be judged twice: leave it out, or name "
                    "its pages with `sections`"
                )
            claimed |= spellings_of(surface.root)
            analysis.surfaces.append(
                _surface(analysis, surface, candidates, shown, named, built=built)
            )
            analysis.missing_docs.extend(
                p for p in named if not any(matches(rel, (p,)) for rel, _ in candidates)
            )
    if not config.discover:
        _know_first(analysis)
        return
    files = [*sources.configs, *sources.data_files]
    code = sorted({info.path for info in builder.project.modules.values()})
    if builder.imported("confuse"):
        builder.defaults_files = defaults_files(config.root, sources.configs)
    else:
        builder.data_files = package_defaults_files(config.root, files, code)
    if sources.themes:
        builder.themes = theme_options(config.root, sources.themes, sources.templates, code)
    builder.actions = action_files(config.root, sources.configs)

    def written() -> frozenset[str]:
        # ``c.Class.option = value`` in Python blocks: both names.
        return frozenset(
            part
            for _, doc in (*candidates, *shown)
            for block in doc.blocks
            if block.lang in ("python", "py")
            for key in block.keys
            if len(key.path) == 2 and key.path[0][:1].isupper()
            for part in key.path
        )

    @functools.cache
    def references() -> frozenset[str]:
        # The names the pages that look like configuration references
        # document: evidence for a model nothing else shows is one.
        return claimed_names(doc for rel, doc in candidates if looks_like_reference(rel))

    @functools.cache
    def hand_written() -> frozenset[str]:
        # The names documented on pages that render no code: an API
        # page (``.. automodule::``) lists a module's attributes.
        return claimed_names(doc for _, doc in candidates if not doc.autodoc)

    # The pages the configuration names for its surfaces are evidence too,
    # though ``docs`` does not list them; where it names a surface
    # discovery finds, every page is, as without a configuration.
    named_pages = tuple(p for _, pages in config.surfaces.values() for p in pages)
    naming_discovered = "discovered" in targets.values()
    if named_pages or naming_discovered:
        given_names, given_words = doc_names, doc_words
        evidence = [doc for rel, doc in candidates if matches(rel, named_pages)]
        if naming_discovered:
            evidence += analysis.example_facts.values()

        @functools.cache
        def doc_names() -> frozenset[str]:
            return given_names() | claimed_names(evidence)

        @functools.cache
        def doc_words() -> frozenset[str]:
            words = {e.name for doc in evidence for e in doc.entries if e.form == "word"}
            return given_words() | doc_names() | words

    found: set[str] = set()
    # Mounts name the whole configuration: nothing is discovered beside it.
    discovery = (
        None
        if config.mount
        else Discovery(
            builder,
            schema,
            doc_names(),
            generated=generated,
            doc_words=doc_words,
            written=written,
            calls=calls,
            references=references,
            hand_written=hand_written,
            pages=functools.cache(lambda: tuple(page_keys(r, d) for r, d in candidates)),
            spelt=lambda names: spelt_whole(config.root, sources.docs, names),
            files=functools.cache(
                lambda: file_tops(config.root, sources.configs, analysis.config_reads)
            ),
        )
    )
    discovered = discover_surfaces(discovery, frozenset(claimed)) if discovery else []
    for surface in discovered:
        target = targets.get(surface.name)
        if target is not None and target != "discovered":
            continue  # named by its own target: judged above
        if target is None and surface.target and surface.target in targets.values():
            continue  # named under another name
        named = config.surfaces[surface.name][1] if target is not None else ()
        # A surface named as discovered takes its pages as discovery does,
        # from those the configuration names for it.
        among = [c for c in candidates if matches(c[0], named)] if named else None
        if target is not None:
            _as_named(config, surface)
        other = _surface(analysis, surface, candidates, shown, None, among, built)
        other.target = surface.target or "discovered"
        if surface.exemplified and surface.root.model_kind in CLASS_KINDS:
            # A model the examples are written for is documented by them
            # wherever they are: a key some page spells whole is shown there.
            keys = frozenset(surface.root.children)
            # Shown by the repository's config files alone, a key they do
            # not set is not said to be undocumented.
            spelt = keys if surface.by_files else spelt_whole(config.root, sources.docs, keys)
            other.documented_elsewhere |= {(key,) for key in spelt}
        if surface.root.model_kind == "action" and discovery:
            # An input a step of the docs sets under ``with:`` is shown there.
            other.documented_elsewhere |= {
                (key,) for key in set_with(discovery) if key in surface.root.children
            }
        if other.admitted and surface.root.model_kind == "defaults":
            # A reference built from the file documents its keys: with
            # the schema beside it, as that schema describes them.
            model = surface.root.model or ""
            includes = file_includes(config.root, sources.docs, model.rsplit("/")[-1])
            rendering = [i.location for i in includes]
            page = schema_beside(config.root, model, files) if rendering else None
            parts = _shown(config.root, model, includes)
            if parts is not None:
                # Parts of the file (``:lines:``, ``:start-after:``): the
                # keys written there are documented, the others are not.
                other.documented_elsewhere |= {
                    n.path for n in surface.root.walk() if n.location and n.location.line in parts
                }
            elif page is None:
                other.generated = rendering
            else:
                other.rendering = rendering
                _add_page(other, *page)
        elif not other.autodoc and surface.root.model_kind not in CLI_KINDS:
            # A page that renders it documents its described keys, though
            # other pages name some by hand.
            other.rendering = _rendered(analysis, builder, sources, surface, scripts)
            if other.rendering and surface.root.model is not None:
                other.autodoc = {surface.root.model}
            if any(where.path.endswith(".py") for where in other.rendering):
                # A site's build script renders the model's whole tree,
                # every model of a Union too (each field names its own).
                nodes = list(surface.root.walk())
                other.autodoc |= {n.model for n in nodes if n.model}
                other.autodoc |= {owner for n in nodes if (owner := field_owner(n))}
        if (
            target is not None
            or other.doc_sources
            or other.generated
            or other.autodoc
            or other.admitted
            or other.calls
            or other.examples_document
        ):
            # Evidence that users write it: a page documents it, the code
            # shows it is a configuration (``Surface.admitted``), or the
            # configuration names it.
            found.add(surface.name)
            analysis.surfaces.append(other)
    schemas = schema_files(config.root, files, code)
    for each in analysis.everything if schemas else ():
        _add_schemas(each, schemas)
    _included_code(analysis, sources)
    lost = sorted(n for n, t in targets.items() if t == "discovered" and n not in found)
    if lost:
        seen = ", ".join(sorted(found)) or "none"
        raise ConfigError(
            f"surfaces.{lost[0]}: discovery finds no surface of that name "
            f"(it finds: {seen}; `configdrift map` lists them)"
        )
    _know_first(analysis)


#: The share of a config file's top-level keys a surface beside the first
#: must hold to take the file as its own, and the keys it must set: nearly
#: all of many (a file of another model's keys shares many of them).
OWN_FILE_SHARE = 0.95
OWN_FILE_KEYS = 10


def _included_code(analysis: Analysis, sources: Sources) -> None:
    """A key a page shows by including the code or the file that spells it
    (``.. literalinclude::``, a snippet ``--8<-- "pkg/envs.py:variables"``)
    is documented there: the reader sees it written."""
    files = [
        *(info.path for info in analysis.project.modules.values()),
        *sources.configs,
        *sources.data_files,
    ]
    shown = code_shown(analysis.config.root, sources.docs, files)
    if not shown:
        return
    words: set[str] = set()
    for lines, text in shown.values():
        split = text.splitlines()
        chosen = (
            split if lines is None else [split[n - 1] for n in sorted(lines) if n <= len(split)]
        )
        words.update(_WORD.findall("\n".join(chosen)))
    for each in analysis.everything:
        for node in each.schema.walk():
            if node.path and words.intersection((node.key, *node.spellings)):
                each.documented_elsewhere.add(node.path)


#: A name as code spells it: letters, digits, ``_`` and ``-`` (a flag's).
_WORD = re.compile(r"[A-Za-z_][\w-]{0,200}")


def _own_files(base: Analysis, schema: SchemaNode) -> list[tuple[str, Block, ConfigPath]]:
    """The config files of the project (JSON and YAML shaped like a
    config, not a test's) that set ``OWN_FILE_KEYS`` top-level keys or
    more, nearly all of them this surface's, and that no surface before
    took: its examples, counted among the example configs read. Only a
    lenient surface's: what it does with another key is not known for
    certain."""
    if schema.strict is not False:
        return []
    tops = top_spellings(schema)
    taken = {rel for other in base.everything for rel, _, _ in other.blocks}
    rels = [rel for rel in base.config_files if rel not in taken and not in_tests(rel)]
    # ``-`` and ``_`` alike: a loader may turn one into the other.
    known = {k.replace("-", "_") for k in tops}
    if schema.model_kind == "pydantic":
        # A key another model may bring when it is mixed in (``mixable``).
        known |= fields_beside(base.code, schema)
    out: list[tuple[str, Block, ConfigPath]] = []
    found = (
        config_files(base.config.root, rels, tops, [], dashes=True, reads=base.config_reads)
        if rels and tops
        else []
    )
    for rel, block in found:
        keys = {k.path[0].replace("-", "_") for k in block.keys if k.path}
        if (
            block.error is None
            and len(keys) >= OWN_FILE_KEYS
            and len(keys & known) >= OWN_FILE_SHARE * len(keys)
        ):
            out.append((rel, block, ()))
    base.examples_read += len(out)
    return out


def _know_first(analysis: Analysis) -> None:
    """Each other surface knows the first one."""
    for other in analysis.surfaces:
        other.first = analysis


def _add_schemas(analysis: Analysis, schemas: list[Schema]) -> None:
    """The JSON Schemas shipped for the surface (``place.schema_files``),
    each a page of its entries, and the objects of them that forbid other
    properties; a command line has none, and a file of defaults has the
    schema beside it read where a page renders both (``schema_beside``)."""
    if analysis.schema.model_kind in CLI_KINDS or analysis.schema.model_kind == "defaults":
        return
    read = {source.path for source in analysis.doc_sources}
    unread = [(rel, keys) for rel, keys in schemas if rel not in read]
    for rel, doc, closed in schema_pages(unread, analysis.schema):
        _add_page(analysis, rel, doc)
        analysis.closed_schemas.extend(closed)


def _add_page(analysis: Analysis, rel: str, doc: DocFacts) -> None:
    """The entries of one more page (a schema the reference is built
    from), placed on the surface."""
    placer = DocPlacer(analysis.schema, {})
    placed = placer.place(rel, doc)
    analysis.entries.extend(placed)
    analysis.sections.extend(placer.maps)
    analysis.doc_sources.append(DocSource(rel, len(placed), False))


def _rendered(
    analysis: Analysis,
    builder: SchemaBuilder,
    sources: Sources,
    surface: Surface,
    scripts: Callable[[], list[str]],
) -> list[Location]:
    """The model of a surface the code alone admitted, where a page renders
    its module or class from the code, or a script of the site's build
    (``scripts``) imports it: its described keys are documented there."""
    root = surface.root
    if root.model is None or root.model_location is None:
        return []
    path = root.model_location.path
    # The file's module by its longest names (a short alias as well).
    project = builder.project
    names = [name for name, info in project.modules.items() if info.path == path]
    modules = sorted(names, key=len, reverse=True)[:2]
    # The modules that import it: a command a page runs may describe the
    # configuration through one of them.
    importers = tuple(
        sorted(
            {
                name
                for name, info in project.modules.items()
                for imp in info.facts.imports
                if project.absolute(name, imp.module, imp.level) in names
            }
        )
    )
    found = rendered_by_bytes(analysis.config.root, sources.docs, modules, root.model, importers)
    return found + rendered_by_scripts(analysis.config.root, scripts(), modules, root.model)


def _shown(root: Path, model: str, includes: list[Include]) -> set[int] | None:
    """The lines of the file ``model`` the pages that include it show
    together; None where one shows it whole (or none includes it)."""
    if not includes or any(not SELECTORS & include.options.keys() for include in includes):
        return None  # none includes it, or one whole: the file is not read again
    data = read_or_none(root, model)
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    shown: set[int] = set()
    for include in includes:
        lines = include.shown(text)
        if lines is None:
            return None
        shown |= lines
    return shown
