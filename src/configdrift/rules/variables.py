"""The environment variable a doc entry gives its setting (``env-var=
`APP_PORT```, ``**Environment Variable**: `APP_PORT```) against the one
the code reads for it.

Judged only where the code spells the setting's own variable (a settings
class's, a defaults module's ``PORT_FOR_APP``): where the code builds it
at run time, what it reads is not known. A variable the entry gives that
is another setting's is that setting's, and the entry's own is then
documented nowhere (CD103); one that no setting has, and no code quotes,
is read by nothing (CD102). So is one an entry gives a key for which the
code declares no variable, where no file of the project spells it and
no name the code builds may be it, and it carries the affix the other
entries' variables share, most of which settings have (dynaconf's
``VALIDATORS_FOR_DYNACONF``, beside its ``*_FOR_DYNACONF`` settings);
not where the code quotes their prefix (``"APP_"``), by which it may read
every variable that carries it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.registration_calls import AUTOMATIC
from configdrift.index.spellings import VARIABLE, shared_affixes
from configdrift.model import CLI_KINDS, Finding, Related, SchemaNode, format_path, resolve_path
from configdrift.rules.built_names import variable_built
from configdrift.rules.doc_gaps import variable_prefixes
from configdrift.rules.evidence import (
    code_files,
    once,
    quoted_as_prefix,
    quoted_in,
    spelt_anywhere,
)
from configdrift.rules.registry import make
from configdrift.rules.unspelled import built_keys

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import DocEntry


def _own(node: SchemaNode) -> list[str]:
    """The setting's variables as the code spells them."""
    return [s for s in node.spellings if isinstance(s, str) and VARIABLE.fullmatch(s)]


def _given(analysis: Analysis) -> Iterator[tuple[DocEntry, SchemaNode, list[str]]]:
    """Each entry that gives its setting a variable the code does not read
    for it, with the setting and the variables the code reads."""
    for entry in analysis.entries:
        if entry.variable is None:
            continue
        node = resolve_path(analysis.schema, entry.path)[0]
        own = _own(node) if node is not None else []
        if node is not None and own and entry.variable not in own:
            yield entry, node, own


def _holders(analysis: Analysis) -> dict[str, SchemaNode]:
    """Every variable some setting of the project's configurations has;
    once a project (CD102 and CD103 ask it for every surface)."""
    return once(
        analysis,
        "variable holders",
        lambda: {
            s: node
            for other in (analysis.first or analysis).everything
            for node in other.schema.walk()
            for s in _own(node)
        },
    )


def unread_variables(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for a variable an entry gives that no setting has and no code
    quotes: setting it does nothing."""
    holders = _holders(analysis)
    given = [(e, n, own) for e, n, own in _given(analysis) if e.variable not in holders]
    if not given:
        return
    quoted = quoted_in(
        analysis, code_files(analysis), {e.variable for e, _, _ in given if e.variable}
    )
    for entry, node, own in given:
        if entry.variable in quoted:
            continue
        assert entry.variable is not None and node.location is not None
        yield make(
            "CD102",
            entry.variable,
            entry.location,
            f"the entry of `{entry.name}` gives its variable as `{entry.variable}`, but nothing "
            f"reads `{entry.variable}`: the code reads `{own[0]}`",
            (Related(node.location.path, node.location.line, "the setting is declared here"),),
            f"did you mean `{own[0]}`?",
        )


def unheld_variables(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for a variable an entry gives its key where the code has none
    for it: no setting has it, no file of the project spells it, no name
    the code builds may be it, and it carries the affix the variables the
    other entries give share (``_FOR_DYNACONF``), most of which settings
    have. Setting it does nothing."""
    holders = _holders(analysis)
    given = [e for e in analysis.entries if e.variable]
    held = [e for e in given if e.variable in holders]
    if 3 * len(held) < 2 * len(given):
        return  # two thirds at least, and as many as show an affix
    prefix, suffix = shared_affixes(e.variable for e in held if e.variable)
    if prefix and quoted_as_prefix(analysis, code_files(analysis), {prefix, prefix.rstrip("_")}):
        return  # the environment may be read by its prefix (``k.startswith("APP_")``)
    lone: dict[str, DocEntry] = {}
    for entry in given:
        name = entry.variable or ""
        if name in holders:
            continue  # a setting's (one misspelt is judged against it)
        if (prefix or suffix) and name.startswith(prefix) and name.endswith(suffix):
            lone.setdefault(name, entry)
    spelt = spelt_anywhere(analysis, set(lone)) if lone else set()
    unspelt = set(lone) - spelt
    unspelt -= built_keys(analysis, unspelt) if unspelt else set()
    for name in sorted(n for n in unspelt if not variable_built(analysis, n)):
        entry = lone[name]
        yield make(
            "CD102",
            name,
            entry.location,
            f"the entry of `{entry.name}` gives its variable as `{name}`, but no setting has "
            "it and no file of the project spells it: setting it does nothing",
            _convention(entry, held, holders),
        )


def _convention(
    entry: DocEntry, held: list[DocEntry], holders: dict[str, SchemaNode]
) -> tuple[Related, ...]:
    """Where the code reads the variable the nearest other entry gives
    that a setting has: the convention the entry's variable follows."""
    near = min(
        held,
        key=lambda h: (
            h.location.path != entry.location.path,
            abs(h.location.line - entry.location.line),
        ),
    )
    where = holders[near.variable or ""].location
    if where is None:
        return ()
    note = f"`{near.variable}`, the variable the entry of `{near.name}` gives, is read here"
    return (Related(where.path, where.line, note),)


def unnamed_variables(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for a variable documented beside a command line's options
    that no option names (``envvar=``), no setting has and no file of the
    project spells: setting it does nothing. Judged only where the
    command's options name variables of one prefix and the documented one
    has it, and where the command reads no variables of its own accord
    (click's ``auto_envvar_prefix``)."""
    root = analysis.schema
    prefixes = variable_prefixes(root) if root.model_kind in CLI_KINDS else ()
    if not prefixes:
        return
    holders = _holders(analysis)
    found = {
        entry.name: entry
        for entry in analysis.entries
        if len(entry.path) == 1
        and VARIABLE.fullmatch(entry.name)
        and entry.name.startswith(prefixes)
        and entry.name not in holders
        and resolve_path(root, entry.path)[0] is None
    }
    if not found or _automatic(analysis):
        return
    spelt = spelt_anywhere(analysis, set(found))
    for name, entry in found.items():
        if name in spelt:
            continue
        yield make(
            "CD102",
            name,
            entry.location,
            f"`{name}` is documented as an environment variable of {root.model or 'the command'}, "
            "but no option names it and no code reads it: setting it does nothing",
            (
                Related(
                    root.model_location.path,
                    root.model_location.line,
                    f"its options name variables of `{prefixes[0]}`, not this one",
                ),
            )
            if root.model_location is not None
            else (),
        )


def _automatic(analysis: Analysis) -> bool:
    """Does a command of the project read what no option names (click's
    ``auto_envvar_prefix``, configargparse's): a call given the keyword,
    or a dict that quotes it (``context_settings={"auto_envvar_prefix":
    "APP"}``)?"""
    given = any(
        call.method in AUTOMATIC
        for info in analysis.project.modules.values()
        for call in info.facts.registrations
    )
    return given or bool(quoted_in(analysis, code_files(analysis), set(AUTOMATIC)))


def misgiven_variables(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for a setting's variable where its entry gives another
    setting's: the setting's own is documented nowhere."""
    holders = _holders(analysis)
    for entry, node, own in _given(analysis):
        other = holders.get(entry.variable or "")
        if other is None or node.location is None:
            continue
        yield make(
            "CD103",
            format_path(node.path),
            node.location,
            f"`{own[0]}`, the variable of `{entry.name}`, is documented nowhere: its entry gives "
            f"`{entry.variable}`, the variable of `{format_path(other.path)}`",
            (Related(entry.location.path, entry.location.line, "the entry gives it"),),
        )
