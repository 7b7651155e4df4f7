"""The environment variable a doc entry gives its setting (``env-var=
`APP_PORT```, ``**Environment Variable**: `APP_PORT```) against the one
the code reads for it.

Judged only where the code spells the setting's own variable (a settings
class's, a defaults module's ``PORT_FOR_APP``): where the code builds it
at run time, what it reads is not known. A variable the entry gives that
is another setting's is that setting's, and the entry's own is then
documented nowhere (CD103); one that no setting has, and no code quotes,
is read by nothing (CD102).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.registration_calls import AUTOMATIC
from configdrift.index.spellings import VARIABLE
from configdrift.model import CLI_KINDS, Finding, Related, SchemaNode, format_path, resolve_path
from configdrift.rules.doc_gaps import variable_prefixes
from configdrift.rules.evidence import code_files, once, quoted_in, spelt_anywhere
from configdrift.rules.registry import make

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
