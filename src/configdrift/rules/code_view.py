"""Rules that need the code view: what the code reads (CD102)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import built_name_matches
from configdrift.model import ConfigPath, DocEntry, Finding, SchemaNode, format_path, near_spelling
from configdrift.rules.built_names import built_names, variable_built
from configdrift.rules.dead_stores import stored_unread
from configdrift.rules.doc_gaps import missing_entries
from configdrift.rules.evidence import (
    attribute_loads,
    class_attribute,
    code_files,
    is_loaded,
    loaded_names,
    mixable,
    named_in_files,
    quoted_in,
    quoted_outside_calls,
    read_elsewhere,
    read_note,
    reader,
    stored_in,
    unknown_under,
)
from configdrift.rules.mentions import misspelt_mentions
from configdrift.rules.registry import make, register
from configdrift.rules.short_flags import misseparated_flags
from configdrift.rules.spelt_nowhere import spelt_nowhere
from configdrift.rules.subcommand_flags import flags_of_other_subcommands
from configdrift.rules.unspelled import unspelt_entries
from configdrift.rules.variables import unheld_variables, unnamed_variables, unread_variables

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def _is_settings(analysis: Analysis, node: SchemaNode) -> bool:
    """Is the node fed from the environment: a pydantic-settings class, or
    the variables the code reads?"""
    if node.model_kind == "env":
        return True
    if node.model_symbol is None:
        return False
    from configdrift.resolve.project import Symbol

    info = analysis.code.model(Symbol("class", *node.model_symbol))
    return info is not None and info.env_prefix is not None


def _own_convention(
    analysis: Analysis, strict: bool | None
) -> list[tuple[DocEntry, ConfigPath, SchemaNode]]:
    """The documented keys a node of this strictness lacks, but those
    spelt in another program's convention (``_other_convention``)."""
    return [
        item
        for item in missing_entries(analysis, strict=strict)
        if not _other_convention(item[2], item[1][-1])
    ]


def _other_convention(parent: SchemaNode, key: str) -> bool:
    """A lowercase word documented beside settings that are all spelt as
    environment variables (``ENVIRONMENT``'s values ``local``, ``staging``)
    is not a settings key."""
    keys = [child.key for child in parent.children.values()]
    return bool(keys) and all(k.isupper() for k in keys) and key.islower()


@register("CD102")
def documented_not_read(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key described in the docs under a section that code reads key by key
    from a plain dict (or that a model with ``extra="ignore"`` validates), when
    nothing reads that key. It stays quiet where a key could be read in a way
    static analysis cannot follow (a key built at runtime, the section handed
    whole to other code), unless the code reads a near spelling of the key
    beside it that no doc describes: the entry misspells that key. A
    command line that hands unknown flags back (``parse_known_args``) is
    judged too, for a flag that no file of the project spells as a flag
    (with its dashes, any case, ``-`` or ``_``) or as a key (its bare name
    quoted in Python, a config file's key) nor a flag built at run time
    may be, on a page whose other entries are mostly its flags, when the
    project builds the parser itself and loads no plugins (which may add
    flags); and a flag that differs from one the parser takes by its
    separators alone (``--tab_width`` where it takes ``--tab-width``), or
    that a reference documents under a subcommand's heading where only
    other subcommands take it. Also a
    dotted name the prose spells in code (``c.configurableHTTPProxy.api_url``)
    that no configuration has, where one part is a near spelling of a key
    of a lenient section and the code nowhere spells it; and a name of
    words (``'example_dirs'``) one letter from one key of such a section,
    on any page that names a key beside it, that no configuration has in
    any form and no code quotes or reads (not the singular or plural of a
    key: ``gallery_dir`` is a path of ``gallery_dirs``). Also an environment
    variable a doc entry gives its setting (``env-var=`APP_HOSTNAME```)
    that no setting has and no code quotes, where the code spells the
    setting's own; one an entry gives a key for which the code spells no
    variable, where no file of the project spells it, and it carries the
    affix the other entries' variables share, two thirds of which settings
    have (``VALIDATORS_FOR_DYNACONF`` beside ``*_FOR_DYNACONF`` settings),
    unless the code quotes their prefix (``k.startswith("APP_")``);
    and one a page documents beside a command line whose
    options name variables of its prefix (``envvar="SRV_PORT"``) that no
    option names, no setting has and no file of the project spells, where
    the command reads no variables of its own accord (``auto_envvar_prefix``).
    A variable whose name a read builds at run time, text first, may be
    read there: one hole after the text (``f"APP_{dest.upper()}"``) stands
    for a key of the project's configurations (``APP_TIMEOUT`` of a flag
    ``--timeout``), more holes for any name they fit.
    Also a documented variable the code reads only to keep its value on
    ``self`` under a name nothing reads (``self.APP_TIMEOUT =
    int(os.getenv("APP_TIMEOUT"))``, no ``.APP_TIMEOUT`` anywhere, no name
    ``getattr`` builds that may be it).
    Also a key of a list a reference page gives (its headings, a table's
    rows) that no file of the project spells in any form (whole, inside a
    longer name such as ``NAME_FOR_APP``, or as a name the code builds or
    matches), where all but a third of the list is spelt and one file
    spells half of it: never a name in capitals, one whose description
    tells of its removal, or a key a surface places and judges itself.
    A key another pydantic model of the project declares,
    where the configuration's tree does not hold that model, is not judged
    (a plugin's arguments may be mixed into the model at run time); nor,
    where the docs' examples document the surface, a heading or list item
    of a guide (it names values and parameters as often as keys).

    Why it matters
    It is the silent twin of a ValidationError: a config that sets the key
    loads without complaint and the setting does nothing.

    Example
    The docs describe ``cache.expiry`` under the ``cache`` section, and the
    code reads ``cache_params.get("ttl")`` and nothing else from it.

    How to fix
    Read the key where the section is parsed, or correct the docs to the
    spelling the code reads, or remove the entry.
    """
    documented = {entry.path for entry in analysis.entries}
    missing = _own_convention(analysis, strict=False)
    # A command line that hands unknown flags back says nothing of the
    # flags it lacks, but a flag no file spells in any form is taken by
    # nothing.
    open_ = _own_convention(analysis, strict=None)
    unspelt = unspelt_entries(analysis, open_)
    found = [
        (entry, rejected, parent, _is_settings(analysis, parent))
        for entry, rejected, parent in missing
        # Where the examples document a surface, a title or a list item of
        # a guide names values and parameters as often as keys.
        if (
            not (analysis.exemplified and entry.form in ("heading", "list"))
            and (
                unknown_under(analysis, rejected[:-1]) is None
                and not mixable(analysis, parent, rejected[-1])
                and not class_attribute(analysis, parent, rejected[-1])
            )
        )
        or _misspelt(rejected, parent, documented) is not None
    ]
    found += [
        (entry, rejected, parent, False) for entry, rejected, parent in open_ if rejected in unspelt
    ]
    # A settings class's variables are set for more than Python: a name
    # the compose file, a script or a config file of the repository uses
    # is read there.
    settings = {rejected[-1] for _, rejected, _, environment in found if environment}
    elsewhere = read_elsewhere(analysis, settings) | named_in_files(analysis, settings)
    # A setting whose name the code spells may be read through it
    # (``getattr(settings, self.setting_name)``); a variable the code stores
    # as a key is set for a child process (``env["X"] = ...``), which is
    # what its page documents.
    named = {rejected[-1] for _, rejected, parent, _ in found if parent.model_kind in _BY_NAME}
    code = code_files(analysis) if named or settings else []
    if named:
        elsewhere |= quoted_in(analysis, code, named)
        # A table's key may be read as an attribute of the object that holds
        # it (``app.config.REGISTER``).
        loaded = loaded_names(analysis)
        elsewhere |= {
            rejected[-1]
            for _, rejected, parent, _ in found
            if parent.model_kind == "table" and is_loaded(rejected[-1], loaded)
        }
        # A name built at runtime (``getattr(conf, f"{command}_{option}")``)
        # may be any key its literal parts fit.
        built = _built_names(analysis)
        elsewhere |= {
            key for key in named if any(built_name_matches(parts, key) for parts in built)
        }
    if settings:
        # A variable whose name a read builds at run time, its text first
        # (``f"PIPENV_{dest.upper()}"``), may be the one of each key there.
        elsewhere |= {k for k in settings if variable_built(analysis, k)}
        elsewhere |= stored_in(analysis, code, settings)
        # A variable the code names in a string (``{"skip_lock":
        # "PIPENV_SKIP_LOCK"}``; a call's argument is what the call makes
        # of it), or reads as the attribute of the object that holds it
        # (``project.s.PIPENV_MAX_DEPTH``), is read there.
        elsewhere |= quoted_outside_calls(analysis, code, settings - elsewhere)
        elsewhere |= attribute_loads(analysis, code, settings - elsewhere)
    for entry, rejected, parent, environment in found:
        key = rejected[-1]
        if (environment or parent.model_kind in _BY_NAME) and key in elsewhere:
            continue
        under = format_path(rejected[:-1])
        where = f"under `{under}`" if under else "at the top level"
        close = near_spelling(key, parent)
        why = (
            "no file of the project spells it as a flag or a key: no option of the command line takes it"
            if rejected in unspelt
            else f"{reader(parent)} never reads it: a config that sets it is silently ignored"
        )
        yield make(
            "CD102",
            format_path(rejected),
            entry.location,
            f"`{key}` is documented {where}, but {why}",
            read_note(parent),
            f"the code reads `{close}`" if close else None,
        )
    yield from misspelt_mentions(analysis, strict=False)
    yield from spelt_nowhere(analysis)
    yield from misseparated_flags(analysis)
    yield from flags_of_other_subcommands(analysis, strict=False)
    yield from unread_variables(analysis)
    yield from unheld_variables(analysis)
    yield from unnamed_variables(analysis)
    yield from stored_unread(analysis)
    yield from dangling_references(analysis)


def _misspelt(rejected: ConfigPath, parent: SchemaNode, documented: set[ConfigPath]) -> str | None:
    """The key the code reads beside a documented one that no doc
    describes and that is a near spelling of it (``prefer_large_batch``
    documented, ``prefer_larger_batch`` read): the entry misspells it, and
    a read static analysis cannot see is no excuse for it."""
    close = near_spelling(rejected[-1], parent)
    if close is None:
        return None
    node = next((n for n in parent.children.values() if close in (n.spellings or (n.key,))), None)
    if node is None or not node.reads or node.path in documented:
        return None
    return close


def _built_names(analysis: Analysis) -> list[tuple[str, ...]]:
    """The names ``getattr`` builds from literal parts and computed ones
    (``f"{command}_{option}"``), as their literal parts; a name computed
    whole says nothing of which keys it reads."""
    return [parts for _, _, parts, _ in built_names(analysis) if any(parts)]


#: Surfaces whose keys the code may name or load outside the reads the
#: flow follows: settings read by name, tables of options.
_BY_NAME = frozenset({"setting", "table"})


def _namespace(names: set[str]) -> str | None:
    """The prefix most of a configuration's keys share (``autoapi_``,
    ``MYAPP_``), if they share one."""
    heads = Counter(n.split("_", 1)[0] + "_" for n in names if "_" in n.strip("_"))
    if not heads:
        return None
    head, count = heads.most_common(1)[0]
    return head if count >= 3 and 5 * count >= 3 * len(names) else None


def dangling_references(analysis: Analysis) -> Iterator[Finding]:
    """Roles that point at a key of the project's own namespace
    (``:confval:`autoapi_dirz```, ``:envvar:`MYAPP_TOKN```) that no page
    documents and no configuration accepts. Names outside that namespace
    may be another project's, resolved through intersphinx."""
    if analysis.first is not None or not analysis.references:
        return
    by_kind: dict[str, set[str]] = {"config": set(), "env": set()}
    for surface in analysis.everything:
        root = surface.schema
        kind = "env" if root.model_kind == "env" else "config"
        if root.model_kind in ("argparse", "click"):
            continue
        spelt = {s for n in root.walk() if n is not root for s in n.spellings or (n.key,)}
        by_kind[kind].update(spelt)
        # A settings class's fields are also spelt as variables.
        by_kind["env"].update(s for s in spelt if s.isupper())
    spaces = {kind: _namespace(names) for kind, names in by_kind.items()}
    normal = {kind: {n.replace("-", "_").lower() for n in names} for kind, names in by_kind.items()}
    for role, name, location in analysis.references:
        kind = "env" if role == "envvar" else "config"
        space = spaces[kind]
        if space is None or not name.startswith(space):
            continue
        if name.replace("-", "_").lower() in normal[kind]:
            continue
        known = "variable" if kind == "env" else "key"
        yield make(
            "CD102",
            name,
            location,
            f"`{name}` is referenced (:{role}:), but no page documents it and no configuration "
            f"accepts it: the reference points at a {known} that does not exist",
        )
