"""What the rules read: one configuration surface of a project, resolved.

The engine builds an ``Analysis`` per surface (``engine.analyse``); the rules
(``rules/``) read it and yield findings. Besides the model's data (the
schema tree, doc entries, reads, example blocks), it holds what some rules
ask of the project's code (``code``: its index of modules and the models
it declares) and what config objects hold (``objects``), as queries: the
rules never see the builder that made the schema.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from configdrift.config import Config
from configdrift.extract.docs.block_model import BlockRead
from configdrift.extract.docs.facts import Block, DocFacts, ScriptParser
from configdrift.extract.python.facts import Expr, FieldFact
from configdrift.model import (
    Census,
    ConfigPath,
    DocEntry,
    DocSource,
    LifecycleEntry,
    Location,
    Mount,
    ReadSite,
    SchemaNode,
    SectionMap,
    Setting,
    Unresolved,
    Value,
)
from configdrift.place.schema_files import ClosedObject
from configdrift.resolve.model_types import ModelInfo, TypeFacts
from configdrift.resolve.objects import ObjectTypes
from configdrift.resolve.project import Project, Symbol


class CodeQueries(Protocol):
    """What the rules may ask of the project's code once it is resolved:
    its index of modules and the models it declares."""

    @property
    def project(self) -> Project: ...

    def model(self, symbol: Symbol) -> ModelInfo | None: ...

    def known_models(self) -> list[ModelInfo]: ...

    def inherits_unknown_fields(self, symbol: Symbol) -> bool: ...

    def type_facts(self, module: str, annotation: Expr | None) -> TypeFacts: ...

    def field_default(self, module: str, fact: FieldFact) -> Value | None: ...


@dataclass(slots=True)
class Analysis:
    """Everything the rules need, resolved over the whole project."""

    config: Config
    schema: SchemaNode
    entries: list[DocEntry]
    doc_sources: list[DocSource]
    missing_docs: list[str]
    parse_errors: list[tuple[Location, str]]
    mounts: list[Mount]
    root_candidates: list[Mount]
    unresolved: list[Unresolved]
    sections: list[SectionMap]
    reads: list[ReadSite]
    #: Config paths under which keys may be read that static analysis cannot
    #: name: a key that is not static, a dict handed to unseen code.
    unknown_reads: list[tuple[ConfigPath, Location, str]]
    dead_reads: list[tuple[ReadSite, SchemaNode]]
    code: CodeQueries
    #: What config objects hold, built on first use (CD201, CD202) and
    #: shared by the surfaces of one project: the code is the same.
    object_types: Callable[[], ObjectTypes]
    files: int
    #: Example configs whose place in the config is certain (blocks of doc
    #: pages and tutorials, config files): (file, block, the config path its
    #: keys sit under).
    blocks: list[tuple[str, Block, ConfigPath]] = field(default_factory=list)
    #: Blocks meant as configs (a config language, or a config file) that
    #: could not be read whole: reported, never judged.
    unparseable: list[tuple[str, Block]] = field(default_factory=list)
    #: ``config-files`` patterns that match no file.
    missing_configs: list[str] = field(default_factory=list)
    #: Example blocks and config files read, placed or not.
    examples_read: int = 0
    #: Keys the project marks removed or deprecated (registries, the
    #: configuration, deprecated fields).
    lifecycle: list[LifecycleEntry] = field(default_factory=list)
    #: Pages (docs and others) by path, for the rules that read their text.
    pages: list[str] = field(default_factory=list)
    #: Python files outside the code view (tests, scripts, examples): where
    #: CD202 looks for reads before it reports an option as unread.
    other_python: list[str] = field(default_factory=list)
    #: Templates inside the code's folders (``Sources.rendered``): where
    #: CD202 looks for reads of a context's keys.
    templates: list[str] = field(default_factory=list)
    #: The other files inside the code's folders (``Sources.package_data``):
    #: where a key no code spells may still be read.
    package_data: list[str] = field(default_factory=list)
    #: Example environment files (``.env.example``), judged by CD302 over
    #: every surface (the first surface holds them, the others none).
    env_examples: list[str] = field(default_factory=list)
    #: The repository's config-like files (JSON, YAML, TOML ...), by path.
    config_files: list[str] = field(default_factory=list)
    #: The YAML files of them read whole, by path: each is parsed once.
    config_reads: dict[str, BlockRead] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: The name of this configuration surface (``config``, ``settings``,
    #: ``cli``, ``env``) and how it was found.
    surface: str = "config"
    how: str = ""
    #: What ``surfaces`` names to configure this surface (not the first).
    target: str = ""
    #: Pages that generate this command line's reference from its parser
    #: (``.. argparse::``), or a defaults file's from the file (a directive
    #: that names it): every option is documented there.
    generated: list[Location] = field(default_factory=list)
    #: Models a page renders from the code (mkdocstrings' ``::: pkg.Model``):
    #: their fields are documented there.
    autodoc: set[str] = field(default_factory=set)
    #: The doc pages parsed, with their count of entries in a recognised
    #: form (``map --unread`` says why a page was not read).
    page_entries: dict[str, int] = field(default_factory=dict)
    #: The facts of every doc page parsed, by path (``map --unread`` pairs
    #: the pages no surface reads with the code that holds their keys).
    doc_facts: dict[str, DocFacts] = field(default_factory=dict)
    #: Pages read only for the classes they render from their docstrings
    #: (an ``automodule`` page that documents no key itself).
    rendered_pages: dict[str, DocFacts] = field(default_factory=dict)
    #: Pages no surface reads that run the project's own program or one of
    #: its scripts (an example's README too), read for their command lines
    #: alone (CD301, CD303).
    command_pages: dict[str, DocFacts] = field(default_factory=dict)
    #: Pages no surface reads that import the project's packages, read for
    #: the calls of its own functions and classes alone (CD301, CD402).
    calling_pages: dict[str, DocFacts] = field(default_factory=dict)
    #: The project's scripts the pages run (``python hf_chat.py``) whose
    #: one parser's flags are all known: its line and those flags
    #: (``DocFacts.parser``), by path.
    scripts_run: dict[str, ScriptParser] = field(default_factory=dict)
    #: The names each Sphinx ``conf.py`` outside the tests assigns at its
    #: top level, with their lines (``DocFacts.assigned``), by path.
    conf_files: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: The programs the project installs whose code is its own, each with
    #: the module it runs (``index.programs.installed_programs``).
    programs: dict[str, str] = field(default_factory=dict)
    #: The console scripts it installs whose code is not read
    #: (``index.programs.other_programs``).
    other_programs: frozenset[str] = frozenset()
    #: The facts of the pages outside the docs read for their examples
    #: (a tutorial beside configured docs), history pages left out.
    example_facts: dict[str, DocFacts] = field(default_factory=dict)
    #: The names of the function whose keyword arguments build this
    #: surface's model, where they made it one (``Surface.calls``).
    calls: tuple[str, ...] = ()
    #: Where pages render this surface from the code (the directive's line).
    rendering: list[Location] = field(default_factory=list)
    #: Why the code alone shows this surface is a configuration, where no
    #: page documents it (``model.Surface.admitted``).
    admitted: str = ""
    #: Documented by the examples that set its keys below its path
    #: (``model.Surface.exemplified``): its placed blocks are its evidence.
    exemplified: bool = False
    #: Documented by a page that links its file (``model.Surface.file_linked``).
    file_linked: bool = False
    #: Of such a surface, the examples not placed on it: where they set its
    #: keys at its path, beside other configurations' keys or past a broken
    #: bracket (``[tool.app.envs.<NAME>]`` is no TOML), they document
    #: them, and are never judged.
    other_examples: list[tuple[str, Block]] = field(default_factory=list)
    #: The dotted paths of keys no code names (``model.Surface.unread``).
    unread: frozenset[str] = frozenset()
    #: The objects of a JSON Schema shipped for this surface that forbid
    #: the properties they do not list (``place.schema_files``).
    closed_schemas: list[ClosedObject] = field(default_factory=list)
    #: The project's other surfaces, each judged on its own (on the first
    #: analysis only).
    surfaces: list[Analysis] = field(default_factory=list)

    #: Roles pointing at keys no page documents (``:confval:`name```):
    #: (role, key, where), on the first surface.
    references: list[tuple[str, str, Location]] = field(default_factory=list)

    #: Dotted names the docs' prose spells in code: (page, name, line), on
    #: the first surface.
    mentions: list[tuple[str, str, int]] = field(default_factory=list)
    #: The project's first surface, from another one.
    first: Analysis | None = field(default=None, repr=False)
    #: Paths this surface accepts whose doc entry another surface took (a
    #: key two surfaces read is documented once), or that a page shows by
    #: including the part of their file that declares them (``:lines:``).
    documented_elsewhere: set[ConfigPath] = field(default_factory=set)
    #: The pages those entries are on: a configuration that names this
    #: surface's pages names them too (``init``), or the keys would read as
    #: undocumented.
    pages_elsewhere: set[str] = field(default_factory=set)
    #: The project's settings with more than one spelling (``link``), made
    #: on first use, on the first surface.
    linked: list[Setting] | None = None
    #: Each accepted key's state as the docs go (``coverage.census``), taken
    #: on first use: what check's summary, coverage and map count.
    census: Census | None = None

    @property
    def examples_only(self) -> bool:
        """Is this surface known only by the calls that build it (a
        function's keyword arguments), no page documenting it? It is then
        judged on its examples alone, and left out of coverage."""
        return bool(self.calls) and not self.entries

    @property
    def pages_compared(self) -> list[str]:
        """The pages this surface is compared with: those it has entries
        on, and those that render it at build time (a reference generated
        from a parser, a page built from its module) and, for a surface its
        examples document, the pages of the examples placed on it."""
        pages = [source.path for source in self.doc_sources if source.entries]
        pages += [where.path for where in (*self.generated, *self.rendering)]
        return list(dict.fromkeys([*pages, *self.example_pages]))

    @property
    def example_pages(self) -> list[str]:
        """For a surface its examples document, the pages of the examples
        placed on it, in order; else none."""
        return sorted({rel for rel, _, _ in self.blocks}) if self.examples_document else []

    @property
    def examples_document(self) -> bool:
        """Is it a surface its examples document (``exemplified``), with
        examples placed on it: its evidence that users write it?"""
        return self.exemplified and bool(self.blocks)

    @property
    def pages_read(self) -> dict[str, DocFacts]:
        """Every page read, by path: the docs and the pages read for their
        examples (a tutorial beside configured docs)."""
        return {**self.example_facts, **self.doc_facts}

    @property
    def doc_calls(self) -> list[tuple[str, Block]]:
        """The calls every page read makes, and those of the pages read for
        their calls alone, each with its page."""
        pages = {**self.calling_pages, **self.pages_read}
        return [(rel, block) for rel, doc in sorted(pages.items()) for block in doc.calls]

    @property
    def everything(self) -> list[Analysis]:
        """This surface and the project's others."""
        return [self, *self.surfaces]

    @property
    def project(self) -> Project:
        return self.code.project

    @property
    def objects(self) -> ObjectTypes:
        """What config objects hold (CD201, CD202)."""
        return self.object_types()


def top_packages(project: Project) -> list[str]:
    """The project's top-level packages (``pkg`` of ``pkg/__init__.py``),
    in order."""
    return sorted(m for m, info in project.modules.items() if "." not in m and info.is_package)


def fields_beside(code: CodeQueries, schema: SchemaNode) -> frozenset[str]:
    """The fields of the project's pydantic models that the tree of
    ``schema`` does not hold: what such a model may bring to one of the
    tree's models if it is mixed in at run time (a plugin's arguments
    joined to the base class)."""
    held = {node.model for node in schema.walk() if node.model}
    fields: set[str] = set()
    for symbol in code.project.class_symbols():
        info = code.model(symbol)
        if info is not None and info.kind == "pydantic" and symbol.qualname not in held:
            fields.update(fact.name for _, fact in info.fields)
    return frozenset(fields)


def accepted_nodes(analysis: Analysis) -> list[SchemaNode]:
    """The keys the schema declares (the summary's ``accepted``)."""
    return [n for n in analysis.schema.walk() if n.path and n.location is not None]


def rendered_nodes(analysis: Analysis) -> list[SchemaNode]:
    """The accepted keys no doc entry describes that a page renders from
    the code at build time: every option of a command line whose reference
    is generated from its parser, and the described fields of a model a
    page renders (mkdocstrings' ``:::``, a project's own directive)."""
    described = {entry.path for entry in analysis.entries}
    out: list[SchemaNode] = []
    for node in analysis.schema.walk():
        models = node.model and node.model in analysis.autodoc
        cli = node is analysis.schema and analysis.generated
        if not (models or cli):
            continue
        out.extend(
            child
            for child in node.children.values()
            if child.location is not None
            and child.path not in described
            and (cli or child.described)
        )
    return out


def summarised(analysis: Analysis) -> list[Analysis]:
    """The surfaces the summary counts: each that has keys or entries, and
    the first one when nothing was found for it beside the others; not
    those known by their call examples alone."""
    return [
        s
        for s in analysis.everything
        if (s.schema.children or s.entries or s is not analysis or not analysis.surfaces)
        and not s.examples_only
    ]
