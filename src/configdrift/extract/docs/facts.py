"""What a doc page yields: its sections, its key entries (raw: the key as
written, its form, type, default and description) and its example blocks
with their key structure. The hand-over of every markup's extractor."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from configdrift.extract.docs.api_docs import ApiDoc
from configdrift.extract.docs.block_model import BlockKey


@dataclass(slots=True)
class Section:
    title: str
    level: int
    line: int
    parent: int | None
    heading_key: str | None = None


#: Entry forms that are no evidence a configuration exists: a title of one
#: word, a name in prose, a function's keyword argument. Each is a key only
#: where a surface found otherwise has it.
NO_EVIDENCE_FORMS = frozenset({"word", "mention", "signature"})


@dataclass(slots=True)
class RawEntry:
    name: str
    parts: tuple[str, ...]
    line: int
    section: int
    form: str
    doc_type: str | None = None
    default: str | None = None
    parent_entry: int | None = None
    #: The values a list under the entry says it takes ("Possible values:").
    choices: tuple[str, ...] | None = None
    #: The environment variable its labels give it (``env-var=`APP_PORT```).
    variable: str | None = None
    #: The program whose ``--help`` output lists it (``usage: app-diff``).
    program: str | None = None


def imported_elsewhere(origin: str, packages: set[str]) -> bool:
    """Is ``origin``, the module a doc block imports a name from (empty
    for none), of a package other than ``packages``?"""
    return bool(origin) and origin.split(".", 1)[0] not in packages


@dataclass(slots=True)
class Block:
    section: int
    line: int
    lang: str
    keys: list[BlockKey]
    #: Why a block in a config language could not be read whole, and where.
    error: str | None = None
    error_line: int = 0
    #: How findings name it, when not by its language (a dict in a test).
    what: str = ""
    #: The function a call block calls (``deepspeed.init_inference``): its
    #: keyword arguments are the keys.
    call: str = ""
    #: The module the block imports that callee's first name from
    #: (``from sanic_ext import Config``: ``sanic_ext``); empty where it
    #: imports none.
    origin: str = ""
    #: What it says of its values (``leads.shown_defaults``): "stated"
    #: where its lead says they are the defaults, the command that prints
    #: them where its title is one (``$ app --cfg job``), else "".
    defaults: str = ""

    def foreign(self, packages: set[str]) -> bool:
        """Does the block import its callee from a package other than
        these (another library's ``Config``)?"""
        return imported_elsewhere(self.origin, packages)

    def described(self) -> str:
        if self.what:
            return self.what
        if self.lang == "file":
            return "the config file"
        return "the example"


#: A script's parser (``script_parsers.closed_parser``): its line, every
#: flag it declares, and the choices of each flag that takes one word of a
#: few literal strings.
ScriptParser = tuple[int, tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]


@dataclass(slots=True)
class DocFacts:
    sections: list[Section] = field(default_factory=list)
    entries: list[RawEntry] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    error: str | None = None
    error_line: int = 0
    #: Reference pages generated from the code's own option declarations
    #: (sphinx-argparse, sphinx-click, mkdocs-click ...): (tool, line).
    generated: list[tuple[str, int]] = field(default_factory=list)
    #: Reference pages rendered from code objects (mkdocstrings' ``:::
    #: package.module.Class``): (the object's dotted name, line).
    autodoc: list[tuple[str, int]] = field(default_factory=list)
    #: Modules an ``automodule`` renders with ``:members:``, which renders
    #: what the module's ``__all__`` names, imported or not: (module, line).
    module_members: list[tuple[str, int]] = field(default_factory=list)
    #: Names in small letters an ``autosummary`` with ``:toctree:`` renders
    #: a page for (``optuna.visualization.plot_contour``): a function's
    #: page renders its docstring, a module's none: (name, line).
    summarised: list[tuple[str, int]] = field(default_factory=list)
    #: Classes a page renders with their methods (``.. autoclass::`` with
    #: ``:members:``, mkdocstrings' ``::: pkg.Class``), as ``pkg.Class.``;
    #: and methods it renders one by one (``.. automethod::``, the
    #: ``:members:`` a class's directive lists): (target, line).
    members: list[tuple[str, int]] = field(default_factory=list)
    #: Classes an ``autosummary`` writes a page for through a template of
    #: the project (``:template: classtemplate.rst``), which may render
    #: their methods: (class, template, line).
    templated: list[tuple[str, str, int]] = field(default_factory=list)
    #: Roles that point at a key (``:confval:`name```, MyST's
    #: ``{confval}`name```): (role, key, line). ``:confval:`!name``` (no
    #: link wanted) and names of other projects (``other:name``) are not kept.
    references: list[tuple[str, str, int]] = field(default_factory=list)
    #: Links to the project's Python files (``[FSDP config](../src/fsdp.py)``),
    #: as written, with their lines: the code a page says it documents.
    code_links: list[tuple[str, int]] = field(default_factory=list)
    #: Tables of renamed keys (| Old name | New name |): (old, new, line).
    renames: list[tuple[str, str, int]] = field(default_factory=list)
    #: Dotted names in code in the prose (``c.ConfigurableHTTPProxy.api_url``,
    #: ``zero_optimization.stage``): (name, line). Where one is a near
    #: spelling of a key, the prose names a key that does not exist. And
    #: class names (``GroupConfig``): the page names the model it describes.
    #: And names of words (``example_dirs``, ``--in-place``), which may
    #: misspell a key too.
    mentions: list[tuple[str, int]] = field(default_factory=list)
    #: Calls in Python blocks that pass keyword arguments, each a block of
    #: its own (``Block.call``): examples of the model a function builds
    #: from them, never placed by their keys alone.
    calls: list[Block] = field(default_factory=list)
    #: Python blocks that only assign literals to names in small letters,
    #: with no lead-in naming a ``conf.py`` (``mermaid_cmd = "npx mmdc"``):
    #: judged only as settings of a file whose keys the code registers by
    #: name (Sphinx's ``conf.py``), where one of their names is such a key.
    loose_settings: list[Block] = field(default_factory=list)
    #: Command lines of the shell blocks (``$ myapp serve --port 8080``):
    #: (line, program, its arguments, the line of each argument: a command
    #: continued with ``\\`` spans lines); ``python -m pkg`` is ``-m pkg``.
    commands: list[tuple[int, str, tuple[str, ...], tuple[int, ...]]] = field(default_factory=list)
    #: The project's callables the page describes by hand, with their
    #: signatures (``.. py:class:: Huey(name='huey')``).
    api: list[ApiDoc] = field(default_factory=list)
    #: Of a script the docs run, its one parser's line and every flag it
    #: declares, where they are all known (``script_parsers``).
    parser: ScriptParser | None = None
    #: Of a Python config file, each name it assigns at its top level and
    #: never reads (``mermaid_params = [...]``, beside the code of a Sphinx
    #: ``conf.py``), with its line.
    assigned: list[tuple[str, int]] = field(default_factory=list)

    def heading_entry(self, section: int) -> int | None:
        """The entry a section's heading names (``### `cache_dir` ``), as
        the index of the last entry read; or that of the section above it,
        where the section is one of its own with no key and no entry
        (``#### Override per page`` under ``### `abstract_chars_count```)."""
        entries, sections = self.entries, self.sections
        index = len(entries) - 1
        if index >= 0 and entries[index].section == section:
            while index >= 0 and entries[index].section == section:
                if (
                    entries[index].form == "heading"
                    and entries[index].name == sections[section].heading_key
                ):
                    return index
                index -= 1
            return None
        above = sections[section].parent
        if above is None or index < 0:
            return None
        last = entries[index]
        return index if last.section == above and last.form == "heading" else None


def claimed_names(docs: Iterable[DocFacts]) -> frozenset[str]:
    """The key names the pages' entries document, as evidence that a
    configuration exists: every part of each entry's name, but of the
    forms that are no evidence (``NO_EVIDENCE_FORMS``)."""
    return frozenset(
        part
        for doc in docs
        for entry in doc.entries
        if entry.form not in NO_EVIDENCE_FORMS
        for part in entry.parts
    )
