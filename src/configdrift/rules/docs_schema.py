"""Rules comparing the documented view with the accepted view (CD101, CD103;
CD104 is in ``defaults``, CD105 in ``doc_types``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.index.spellings import VARIABLE
from configdrift.model import (
    ANY_KEY,
    BUILTIN,
    CLASS_KINDS,
    LIST_ITEM,
    ConfigPath,
    DocEntry,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
    resolve_path,
    step,
)
from configdrift.resolve.mechanisms.section_classes import SECTIONS
from configdrift.rules import docstrings, function_docstrings, listed_keywords
from configdrift.rules.build_ignores import left_out
from configdrift.rules.doc_calls import unnamed_keywords
from configdrift.rules.doc_commands import flags_given, subcommands_run
from configdrift.rules.doc_gaps import (
    NAMED_KINDS,
    example_entries,
    hint_for,
    missing_entries,
    model_related,
    other_programs,
    outside_reference,
    plain_path,
    prose_commands,
    script_groups,
    section_examples,
    shown_on_pages,
)
from configdrift.rules.doc_signatures import described_keywords_not_taken, undescribed_keywords
from configdrift.rules.environment_docs import linked_variables, other_reads, unjudged_variables
from configdrift.rules.evidence import once
from configdrift.rules.mentions import misspelt_mentions
from configdrift.rules.partial_lists import partial_lists
from configdrift.rules.prose_flags import prose_flags_not_taken
from configdrift.rules.registry import make, register
from configdrift.rules.schema_files import closed_schema_gaps
from configdrift.rules.short_flags import (
    flags_apart,
    is_short,
    misgiven_shorts,
    sole_owners,
    unnamed_shorts,
)
from configdrift.rules.subcommand_flags import flags_of_other_subcommands
from configdrift.rules.variables import misgiven_variables
from configdrift.rules.warned import warned_deprecations

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def _keys_documented(section: SchemaNode, own: dict[int, DocEntry]) -> bool:
    """Is every key under a section documented by an entry of its own
    (``database.url``, ``database.pool_size``)? The section is then
    documented through its keys."""
    for child in section.children.values():
        if child.key in (ANY_KEY, LIST_ITEM):
            return False
        if child.children:
            if id(child) not in own and not _keys_documented(child, own):
                return False
        elif id(child) not in own and not child.deprecated:
            return False
    return bool(section.children)


#: Kinds of model whose fields a docstring or ``description=`` describes.
_MODEL_KINDS = frozenset({"pydantic", "dataclass", "attrs", "typeddict", "namedtuple"})


@register("CD101")
def documented_not_accepted(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key described in the docs under a section whose schema forbids unknown
    keys (a pydantic model with ``extra="forbid"``, a dataclass) and that the
    schema does not declare under any spelling (field name or alias). A list
    of one or two bare names (no type, no default), not all of them keys,
    is no claim about the configuration (a page's meta keys) unless a name
    is a near spelling of a key. Also a dotted name the prose spells in code
    (``server.prot``) that no configuration has, where one part is a near
    spelling of a key of a strict section and the code nowhere spells it
    (or a name of words one letter from such a key, ``--extras``).
    Also an option group of pasted help output (``-l, --confidence-level``)
    that gives an option a short flag the parser gives another one: the
    flag the docs teach sets something else. Also a flag a reference
    documents under a subcommand's heading (``### install``) that the
    subcommand's own parser (argparse's, a click command's) does not take,
    though another
    subcommand's does: the flags after a subcommand are its parser's
    alone. Also a keyword a page's own
    description of the project's function or class gives a default
    (``.. py:class:: Queue(name='q', retries=3)``) that the code's
    signature, which names every keyword it takes, does not (a method's
    description, ``.. py:method::``, is no top-level function's); and one a
    class's docstring describes (``Args:``), where a page renders it from
    there (``.. autoclass::``), that its closed constructor does not take;
    and a name such a docstring writes in code one letter from one of the
    class's keywords (``use_chile_gene_prob`` for ``use_child_gene_prob``),
    which the constructor does not take and the code never spells. So
    for a module function a page renders from its docstring
    (``.. autofunction::``) whose signature names every keyword it takes:
    a parameter the docstring describes (of three or more) that it does
    not take, and a name it writes in code one letter from one of its
    parameters (``target_name`` of ``target_names``) that its module
    never spells. So for an entry a page lists among the keyword
    arguments of the project's class or function (a section titled
    ``CORSMiddleware``, or whose Python block builds it, listing three of
    its keywords at least and three quarters of its entries so) that its
    closed signature does not take and the class has as no attribute. So
    for a flag the prose writes in code on a line that names a flag of the
    project's strict parser (```--verbose`/`--debug` flags``), where no
    parser declares it and no code spells it as a string, unless it
    qualifies a noun after an article (a kind of thing another program
    may make: "in a ``--no-site-packages`` virtualenv"). A
    dataclass that inherits from a class outside the project
    (``TrainingArguments``) takes that class's fields, which are not
    known: what it lacks is not judged.

    Why it matters
    Whoever follows the docs gets a hard failure: pydantic raises
    ``ValidationError: Extra inputs are not permitted`` when the config is
    loaded, for an option the docs promised.

    Example
    The docs describe ``server.keepalive`` (default true), but
    ``ServerConfig`` never declared ``keepalive`` and forbids extra keys
    (``extra="forbid"``), so a config that sets it cannot be loaded.

    How to fix
    Declare the key in the model if it is meant to exist; otherwise remove it
    from the docs (and, if it once existed, add it to the project's registry
    of removed keys so that old configs get a clear error).
    """
    root = analysis.schema
    for entry, rejected, parent in missing_entries(analysis, strict=True):
        key = rejected[-1]
        under = format_path(rejected[:-1])
        where = f"under `{under}`" if under else "at the top level"
        yield make(
            "CD101",
            format_path(rejected),
            entry.location,
            f"`{key}` is documented {where}, but {parent.model or 'the schema'} forbids unknown keys: "
            f"following the docs {parent.rejection()}",
            model_related(parent),
            hint_for(root, rejected, parent),
        )
    yield from misspelt_mentions(analysis, strict=True)
    yield from misgiven_shorts(analysis)
    yield from flags_of_other_subcommands(analysis, strict=True)
    yield from described_keywords_not_taken(analysis)
    yield from docstrings.params_not_taken(analysis)
    yield from docstrings.misspelt_keywords(analysis)
    yield from function_docstrings.params_not_taken(analysis)
    yield from listed_keywords.listed_not_taken(analysis)
    yield from prose_flags_not_taken(analysis)


def documented_nodes(analysis: Analysis) -> tuple[dict[int, DocEntry], set[int]]:
    """Nodes with their own doc entry, and nodes with a documented descendant."""
    own: dict[int, DocEntry] = {}
    within: set[int] = set()
    root = analysis.schema
    # A section mapped to a node documents it: its heading and example stand
    # for an entry of the node's own.
    for section in analysis.sections:
        node = root
        for key in section.path:
            nxt = step(node, key)[0]
            if nxt is None:
                break
            node = nxt
        else:
            if node is not root:
                own.setdefault(
                    id(node),
                    DocEntry(
                        section.path[-1],
                        section.path,
                        section.location,
                        section.title,
                        form="section",
                    ),
                )
    for node, example in (*example_entries(analysis), *section_examples(analysis)):
        own.setdefault(id(node), example)
    for entry in analysis.entries:
        node = root
        trail = [root]
        for key in entry.path:
            nxt = node.children.get(LIST_ITEM) if key == LIST_ITEM else step(node, key)[0]
            if nxt is None:
                break
            node = nxt
            trail.append(node)
        else:
            own.setdefault(id(node), entry)
        for ancestor in trail:
            within.add(id(ancestor))
    return own, within


def _shown(analysis: Analysis) -> set[ConfigPath]:
    """The paths of the keys a surface documents, once."""

    def derive() -> set[ConfigPath]:
        own, _ = documented_nodes(analysis)
        return {node.path for node in analysis.schema.walk() if id(node) in own}

    return once(analysis, f"documented paths of {id(analysis.schema)}", derive)


@register("CD103")
def undocumented(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key the schema accepts that no doc entry describes. A key documented
    through one of its aliases (or an alias documented through the field
    name) counts as documented. When a whole section is undocumented, only
    the section's key is reported. Deprecated fields, hidden options
    (``help=argparse.SUPPRESS``), keys marked removed (CD404 reports those
    the code still reads), keys the docs' build lists as left out on
    purpose (a ``conf.py``'s ``ignored_settings``) and a script's own flags
    (of a parser none of whose options the docs describe; the keys a
    project registers by name, ``add_config_value`` in any ``setup``, are
    one file's) are not reported. A key an entry of its own names on any
    page (a ``.. confval::`` on a page no surface reads) is described
    there. A key a page names in prose (not a cross-reference role
    that only links to it; of a model a page documents by linking its
    file, a field any page writes in code or as a flag; a key registered
    by name) is described there, unless the surface has a reference
    page (one that holds most of its entries, ten at least) and only other
    pages name it: then the reference is said to lack it. A family of
    flags written with a star (`` `--audio-*` ``) names each that begins
    so. A page whose
    entries name nine tenths of the top-level keys (ten at least) is a
    full list of them: a key another page documents that it leaves out is
    undocumented there (a command line's, spread over a page per command,
    aside). So is a key a JSON Schema shipped for the configuration
    leaves out where it forbids what it does not list
    (``additionalProperties: false``): an editor flags it. A short flag
    (``-x``) no page names, of an option the docs describe, is undocumented
    where the pages name the short forms of three quarters of the options
    that have one; so is a flag that differs from the documented one by a
    separator alone (``--log_level`` beside ``--log-level``). So is an
    optional keyword argument of the project's own function
    (``pkg.serve(reload=)``) that no doc call passes, no page spells and
    its docstring does not name, where the docs name three quarters of
    them; and one that a page's own description of the function or class
    (``.. py:class:: Queue(name='q')`` and its ``:param:`` fields) leaves
    out, where it names two thirds of them, and one no entry of a page
    names where a section of it lists two thirds of them as entries (a
    section titled ``CORSMiddleware``, or whose Python block builds it);
    so is one a class declares
    itself that its docstring, rendered by a page, leaves out where it
    describes two thirds of them (a subclass that declares nothing of its
    own and says its bases' fields anew declares those), or describes none
    where the page names it (``.. autoclass::``) among classes two thirds
    of which describe theirs (a class whose keywords all lack a default
    takes inputs, not options, and is left alone); and a setting's environment variable
    where its entry gives another setting's. Of an environment no page
    lists as entries, whose variables the pages name in prose or command
    lines, a variable is undocumented where a module of the package its
    prefix abbreviates (``CIBW_`` of ``cibuildwheel``) reads it beside a
    named one of that prefix; one that spells an option of another surface
    (``envvar=``, or ``SHOP_PORT`` of ``--port`` by the project's
    convention) is documented with that option.

    A model a page renders from the code documents its described fields
    there; so does one a site's build script imports (Quarto's
    ``pre-render``, MkDocs's ``hooks``), with every model of its tree: its
    undescribed fields are said to lack a description. Of a model the
    docs' examples are written for, a key any page spells whole is shown
    there; so is one an example sets below the key whose section it sits in
    (``journals: default: ...`` under ``### journals``). A key another surface of the project documents at the same
    path (the same configuration read in two places) is documented.

    Why it matters
    Users cannot discover options the docs do not mention, and reviewers
    cannot tell a deliberate internal option from a forgotten one.

    Example
    ``ServerConfig`` accepts ``backlog``, but the server section of the
    config page has no entry for it.

    How to fix
    Add a doc entry in the section that documents the parent key, or mark the
    field deprecated if it is no longer meant to be used.
    """
    # The keyword arguments of the project's own functions the docs call
    # or describe.
    yield from unnamed_keywords(analysis)
    yield from misgiven_variables(analysis)
    yield from undescribed_keywords(analysis)
    yield from listed_keywords.listed_left_out(analysis)
    yield from docstrings.undescribed_params(analysis)
    yield from docstrings.silent_params(analysis)
    yield from partial_lists(analysis)
    yield from closed_schema_gaps(analysis)
    prose = prose_commands(analysis)
    documented = analysis.entries or analysis.autodoc or analysis.admitted
    if not (documented or analysis.examples_document or prose):
        return  # no doc yields a key: CD501 says so, once
    root = analysis.schema
    own, within = documented_nodes(analysis)
    # A key another surface holds at the same path and documents is
    # documented: the same configuration read in two places.
    project = (analysis.first or analysis).everything
    beside = {p for other in project if other is not analysis for p in _shown(other)}
    if root.model_kind in ("table", "dict"):
        # A dict of defaults beside a documented model that holds its keys
        # (``DEFAULTS`` copied into ``Config(**config)``): each is reported
        # once, on the model.
        beside |= {
            node.path
            for other in project
            if other.entries and other.schema.model_kind in CLASS_KINDS
            for node in other.schema.walk()
        }
    # Options of a parser none of whose options the docs describe (a script's
    # own flags; a command its prose names is described) are not reported one
    # by one, nor the keys of a dict of defaults none of whose keys they do.
    # Settings read by name are one group, the settings object, wherever
    # each is read or declared.
    grouped = ("option", "default ")
    covered = {_group(n) for n in root.walk() if id(n) in own and n.origin.startswith(grouped)}
    covered |= prose
    scripts = script_groups(analysis)
    # A key marked removed is not to be documented (CD404 says it is still
    # read), nor one the code warns is deprecated.
    removed = {e.path for e in analysis.lifecycle if e.status == "removed"}
    removed |= warned_deprecations(analysis).keys()
    # A trait is configured on its class and every subclass alike
    # (``c.Spawner.mem_limit`` holds for ``LocalProcessSpawner``): where one
    # of them documents it, it is documented, and it is reported once.
    traits = root.model_kind == "traitlets"
    shared: set[tuple[Location | None, str]] = set()
    if traits:
        for cls in root.children.values():
            rendered = cls.model in analysis.autodoc
            shared.update(
                (t.location, t.key) for t in cls.children.values() if rendered or id(t) in own
            )

    paths_of: dict[str, ConfigPath] = {}

    def visit(node: SchemaNode) -> Iterator[Finding]:
        for child in node.children.values():
            if child.key in (ANY_KEY, LIST_ITEM):
                yield from visit(child)
                continue
            if id(child) in own or (child.model and child.model in analysis.autodoc):
                # Documented, or rendered from the code (its fields are judged).
                yield from visit(child)
                continue
            if traits and len(child.path) == 2:
                if (child.location, child.key) in shared:
                    continue
                shared.add((child.location, child.key))
            partly = id(child) in within
            if (
                partly
                and not child.model
                and len(child.children) == 1
                and child.reads
                and all(
                    site.default is not None and site.default.value == {} for site in child.reads
                )
            ):
                # A namespace only descended through to one section
                # (``data.get("tool", {}).get("mytool", {})``): a path to the
                # documented keys, not an option of its own.
                yield from visit(child)
                continue
            if partly or child.location is None:
                # A path segment with no declaration of its own (``timers`` in
                # ``d["timers"]["throughput"]``) is reported through its children.
                yield from visit(child)
            if (
                child.deprecated
                or child.hidden
                or child.path in removed
                or child.location is None
                or child.origin.startswith("docs:")
                or child.origin == BUILTIN
                or (_rendered_field(analysis, child) and child.described)
                or child.path in analysis.documented_elsewhere
                or child.path in beside
                or (partly and child.children and child.origin.startswith("default in "))
                or (partly and child.children and _keys_documented(child, own))
            ):
                # A section the docs' own structure placed is documented there.
                continue
            if (
                child.origin.startswith("default ")
                and id(node) in own
                and not any(id(c) in own for c in node.children.values())
            ):
                continue  # a dict of defaults the docs describe as one value
            if (
                child.origin.startswith(grouped)
                and child.model_kind != "env"
                and (
                    (_group(child) not in covered and not analysis.admitted)
                    or child.origin in scripts
                    or analysis.generated
                )
            ):
                # A script's own flags (a variable goes by its words), or a generated reference.
                continue
            parent_entry = own.get(id(node))
            related = []
            if parent_entry is not None:
                related.append(
                    Related(
                        parent_entry.location.path,
                        parent_entry.location.line,
                        f"`{format_path(node.path)}` is documented here",
                    )
                )
            if child.model_location is not None:
                related.append(
                    Related(
                        child.model_location.path,
                        child.model_location.line,
                        f"{child.model} declares its keys",
                    )
                )
            if child.model_kind == "env":
                related.extend(other_reads(analysis, child))
            owner = node.model or "the code"
            count = len(child.children)
            keys = f"{count} key" if count == 1 else f"{count} keys"
            section = ""
            if child.children and child.model:
                section = (
                    f" (a section of {keys}, {child.model})"
                    if not node.model
                    else f" (a section of {keys})"
                )
            if _rendered_field(analysis, child):
                # A model's field is described by a docstring or
                # ``description=``; an option by its help text.
                what = (
                    "the field has no description (a docstring or description=)"
                    if node.model_kind in _MODEL_KINDS
                    else "the option has no help text to render"
                )
                message = (
                    f"`{format_path(child.path)}` is accepted by {owner}, whose page is rendered "
                    f"from the code, but {what}"
                )
            elif partly:
                message = f"`{format_path(child.path)}`{section} is accepted by {owner}; the docs describe keys under it, but it has no doc entry of its own"
            else:
                message = f"`{format_path(child.path)}`{section} is accepted by {owner}, but no doc describes it"
            paths_of[format_path(child.path)] = child.path
            yield make("CD103", format_path(child.path), child.location, message, tuple(related))

    # A key the docs' build lists as left out on purpose (``ignored_settings``).
    skipped = left_out(analysis)
    findings = [f for f in visit(root) if f.key not in skipped]
    # A key an entry of its own names on any page (``.. confval::`` on a
    # page no surface reads, beside the keys of its items) is described.
    findings = [f for f in findings if f.key not in _entered(analysis)]
    # A key the prose writes as code in its parent's section (``name`` in
    # the ``envs`` section) is described there, if not as an entry.
    shown = shown_on_pages(analysis, list(paths_of.values()))
    findings = [f for f in findings if plain_path(paths_of[f.key]) not in shown]
    run = subcommands_run(analysis)
    ran = len(run & root.children.keys())
    if 2 * ran >= len(root.children):
        # A table of the program's subcommands (the docs' command lines run
        # half of its keys): one they run (``coverage help``) is shown there.
        findings = [f for f in findings if f.key not in run]
    if root.model_kind in ("env", "setting"):
        # A variable or setting of another program: no documented one begins
        # like it (``AWS_S3_FILE_OVERWRITE`` read for a storage backend).
        others = other_programs(analysis, [f.key for f in findings])
        if analysis.admitted:
            # The environment, admitted by the variables its pages name (no
            # settings object is admitted so): one that spells an option of
            # another surface is documented with that option.
            others |= linked_variables(analysis) | unjudged_variables(
                analysis, [f.key for f in findings]
            )
        findings = [f for f in findings if f.key not in others]
    flags = {
        f.key
        for f in findings
        if f.key.startswith("--") or (root.model_kind in NAMED_KINDS and f.key.isupper())
    }
    # A key of a surface a page documents by linking its file is described
    # where any page writes it in code (``sharding_group_size``).
    spans = {
        f.key
        for f in findings
        if (root.model_kind in NAMED_KINDS | {"named"} or analysis.file_linked)
        and f.key not in flags
    }
    if flags or spans:
        # A flag, variable or option the pages name in prose or a command
        # (``deepspeed --num_gpus 2``, "the key `changelog_file`") is described.
        from configdrift.rules.evidence import flag_families, named_in_pages

        # Other spellings name it too: a variable's with ``_``, a flag's long
        # ones, and a short flag written as code (```-t```, not ``mkdir -p``)
        # where no other option has it.
        owners = sole_owners(root)
        aliases: dict[str, str] = {}
        shorts: dict[str, str] = {}
        for f in findings:
            node = resolve_path(root, (f.key,))[0] if f.key in flags else None
            for alias in node.spellings if node is not None else ():
                if alias == f.key:
                    continue
                if alias.startswith("--") if f.key.startswith("--") else "_" in alias:
                    aliases[alias] = f.key
                elif is_short(alias) and alias in owners:
                    shorts[alias] = f.key
        if analysis.file_linked:
            aliases.update({f"--{key}": key for key in spans})  # a field given as a flag
        where: dict[str, Location] = {}
        named = named_in_pages(analysis, flags | set(aliases), spans | set(shorts), where=where)
        named |= flag_families(analysis, flags)  # `--audio-*` flags
        named |= flags & flags_given(analysis, root) if prose else set()
        for alias, key in aliases.items():
            if alias in named and key not in named:
                named.add(key)
                where[key] = where[alias]
        named |= {shorts[short] for short in shorts.keys() & named}
        # Named only beside the surface's reference page, which documents
        # its siblings: said so (DRF's DEFAULT_METADATA_CLASS, named in a
        # guide and missing from the settings page).
        outside = list(outside_reference(analysis, findings, where, spans, aliases))
        findings = [f for f in findings if f.key not in named] + outside
    # A settings class's field is also written as its variable: named in
    # prose ("you must set `GOOGLE_API_KEY`"), it is described there; a
    # section class's option as its flag (``--local-scheduler``).
    variables: dict[str, set[str]] = {}
    for f in findings:
        node = resolve_path(root, tuple(f.key.split(".")))[0]
        if node is not None and node.origin.startswith("field of"):
            spelt = {v for v in node.spellings if VARIABLE.fullmatch(v)}
            if spelt:
                variables[f.key] = spelt
        elif node is not None and root.model_kind == SECTIONS:
            variables[f.key] = {"--" + node.key.replace("_", "-")}
    if variables:
        from configdrift.rules.evidence import named_in_pages

        named = named_in_pages(analysis, {v for vs in variables.values() for v in vs})
        findings = [f for f in findings if not (variables.get(f.key, set()) & named)]
    yield from findings
    yield from flags_apart(analysis, {f.key for f in findings})
    yield from unnamed_shorts(analysis, set(own))


def _entered(analysis: Analysis) -> set[str]:
    """The names an entry of its own (a directive, a heading) gives on
    any page parsed, read or not; once a project."""
    first = analysis.first or analysis

    def derive() -> set[str]:
        return {
            entry.name
            for doc in first.doc_facts.values()
            for entry in doc.entries
            if entry.form in ("directive", "heading")
        }

    return once(first, "docs_schema.entered", derive)


def _group(node: SchemaNode) -> str:
    """The group CD103 judges an option with: a setting read by name
    belongs to its settings object, a key registered by name to the file
    users write (``add_config_value`` in any ``setup``), any other option
    to where it is declared."""
    return node.model_kind if node.model_kind in ("setting", "named") else node.origin


def _rendered_field(analysis: Analysis, child: SchemaNode) -> bool:
    """Is ``child`` a field or option of a class a page renders (any model of a Union)?"""
    owner = child.origin.removeprefix("field of ").removeprefix("option of ")
    return owner != child.origin and owner in analysis.autodoc
