"""Flags a reference documents for a subcommand that the subcommand does
not take (CD101 where the parser is strict, CD102 where it may hand unknown
arguments back), and flags a doc command line gives a subcommand that it
does not take (CD301, CD302).

A program's reference often documents each subcommand under a heading of
its name (``### install``, then a table of its options). argparse gives
each subcommand a parser of its own (``p = subs.add_parser("install")``),
and the flags after a subcommand's name are that parser's alone: a flag
only another subcommand declares fails there with "unrecognized
arguments" (or, with ``parse_known_args``, is left unread). A click
command takes the options that decorate it (``@click.option``), and fails
on others with "No such option".

The subcommand is the one the usage line of a pasted ``--help`` output
names (``usage: shop install [-h]``), else a heading's. A flag is judged
only where all of this is certain: the page's headings (where they name
the subcommand) name three subcommands of the program at least (a
reference of them, not a guide whose "Run" section means something
else); every option of the subcommand is known (each added by a call the
code shows, the helpers its parser is handed to followed, no
``parents=``, the parser never handed to code not followed; a click
command decorated by click's own decorators alone, with no ``cls=`` or
``context_settings=``, and no group of subcommands); and the flag is one
another subcommand of the same program declares (a flag no subcommand
has, or a misspelt one, is other rules' to judge). A command line's flag
is judged only right after the subcommand's name, before any other word
(a value, a file, or the words a command hands on to another program).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.extract.docs.script_parsers import HELP_FLAGS
from configdrift.extract.python.facts import ModuleFacts
from configdrift.model import DocEntry, Finding, Location, Related
from configdrift.rules.doc_commands import REJECTION, programs_running
from configdrift.rules.evidence import once
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import DocFacts
    from configdrift.resolve.project import Project

#: The fewest subcommands a page's headings must name to be their reference.
MIN_NAMED = 3
#: Words a heading may add to a subcommand's name (``install command``).
_HEADING_WORDS = frozenset({"command", "subcommand"})


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One subcommand of a program: where it is declared, and the flags
    its parser takes (None where they are not all known)."""

    name: str
    module: str
    location: Location
    flags: frozenset[str] | None
    #: The program's other subcommands' flags (its module's).
    program: frozenset[str]


def subcommands(analysis: Analysis) -> dict[str, Subcommand]:
    """The project's subcommands by name, once; a name two modules
    declare is left out (two programs' subcommands)."""

    def derive() -> dict[str, Subcommand]:
        project = analysis.project
        found: dict[str, list[Subcommand]] = {}
        declared: dict[str, dict[int, set[str]]] = {}  # each module's, once
        for module in sorted(project.modules):
            info = project.modules[module]
            if info.facts.parsers is None or not info.facts.parsers.subcommands:
                continue
            own = {
                name: _own_flags(project, module, name, declared)
                for name in info.facts.parsers.subcommands
            }
            program = frozenset(f for flags in own.values() if flags for f in flags)
            for name, line in info.facts.parsers.subcommands.items():
                found.setdefault(name, []).append(
                    Subcommand(name, module, project.location(module, line), own[name], program)
                )
        return {name: subs[0] for name, subs in found.items() if len(subs) == 1}

    return once(analysis, "subcommands", derive)


def _own_flags(
    project: Project, module: str, name: str, declared: dict[str, dict[int, set[str]]]
) -> frozenset[str] | None:
    """The flags the subcommand ``name`` of ``module`` takes: a click
    command's, or an argparse subparser's; None where not all are known."""
    facts = project.modules[module].facts
    uses = facts.parsers
    if uses is None or name in uses.escaped:
        return None
    if name in uses.functions:
        return _click_flags(facts, uses.functions[name])
    return _flags(project, module, name, set(), declared)


def _flags(
    project: Project,
    module: str,
    token: str,
    seen: set[tuple[str, str]],
    declared: dict[str, dict[int, set[str]]],
) -> frozenset[str] | None:
    """The flags the parser ``token`` of ``module`` takes (a subcommand's
    name, or ``@function`` for what a helper is handed), with those of the
    helpers it is handed to; None where any is not known. ``declared``
    keeps each module's ``_declared``."""
    if (module, token) in seen:
        return frozenset()
    seen.add((module, token))
    facts = project.modules[module].facts
    uses = facts.parsers
    if uses is None or token in uses.escaped:
        return None
    lines = {line for line, owner in uses.options.items() if owner == token}
    flags = set(HELP_FLAGS)
    if module not in declared:
        declared[module] = _declared(facts)
    for line, found in declared[module].items():
        if line in lines:
            flags |= found
            lines.discard(line)
    if lines:
        return None  # an option whose flags the code does not show
    for owner, callee, _ in uses.handed:
        if owner != token:
            continue
        symbol = project.resolve(module, callee)
        if symbol is None or symbol.kind != "function" or "." in symbol.qualname:
            return None  # handed to code not followed
        more = _flags(project, symbol.module, f"@{symbol.qualname}", seen, declared)
        if more is None:
            return None
        flags |= more
    return frozenset(flags)


def _click_flags(facts: ModuleFacts, token: str) -> frozenset[str] | None:
    r"""The flags a click subcommand takes: those its ``@click.option``\ s
    declare (``--shout/--no-shout`` is two) and ``--help``; None where
    they are not all known."""
    uses = facts.parsers
    if uses is None or token in uses.escaped:
        return None
    flags = {"--help"}
    for call in facts.registrations:
        if call.method != "option" or f"@{call.function}" != token:
            continue
        if not call.args or any(a[0] != "c" for a in call.args):
            return None  # flags the code does not show
        for arg in call.args:
            flags.update(p.strip() for p in str(arg[1]).split("/") if p.strip().startswith("-"))
    return frozenset(flags)


def _declared(facts: ModuleFacts) -> dict[int, set[str]]:
    """The flags each ``add_argument`` call of the module declares, by line."""
    out: dict[int, set[str]] = {}
    for call in facts.registrations:
        if call.method != "add_argument":
            continue
        if call.args and all(a[0] == "c" for a in call.args):
            # A positional argument's name is no flag: its call is known, with none.
            flags = {str(a[1]) for a in call.args if str(a[1]).startswith("-")}
            out.setdefault(call.line, set()).update(flags)
    return out


def flags_of_other_subcommands(analysis: Analysis, strict: bool) -> Iterator[Finding]:
    """CD101 (``strict``) or CD102 for each flag a page documents under a
    subcommand's heading that the subcommand does not take and another
    one does (see the module's docs)."""
    if bool(analysis.schema.strict) != strict or analysis.schema.model_kind not in REJECTION:
        return
    named = subcommands(analysis)
    if not named:
        return
    pages = (analysis.first or analysis).doc_facts
    for entry in analysis.entries:
        if not entry.name.startswith("-"):
            continue
        facts = pages.get(entry.location.path)
        sub = _entry_subcommand(facts, entry, named) if facts is not None else None
        if sub is None or sub.flags is None or entry.name in sub.flags:
            continue
        if entry.name not in sub.program:
            continue  # no subcommand of the program has it: not this rule's
        others = _taking(named, sub, entry.name)
        at = sub.location
        outcome = _outcome(analysis.schema.model_kind or "", strict)
        yield make(
            "CD101" if strict else "CD102",
            entry.name,
            entry.location,
            f"`{entry.name}` is documented for the `{sub.name}` subcommand, but its parser does "
            f"not take it ({_listed(others)} take it): following the docs {outcome}",
            (Related(at.path, at.line, f"the `{sub.name}` subcommand is declared here"),),
        )


def _taking(named: dict[str, Subcommand], sub: Subcommand, flag: str) -> list[str]:
    """The subcommands of ``sub``'s program that take ``flag``, by name."""
    return sorted(
        s.name for s in named.values() if s.flags and flag in s.flags and s.program == sub.program
    )


def _listed(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names[:3]]
    return ", ".join(shown) + (" and others" if len(names) > 3 else "")


def _entry_subcommand(
    facts: DocFacts, entry: DocEntry, named: dict[str, Subcommand]
) -> Subcommand | None:
    """The subcommand an entry documents a flag of: the one the usage line
    of its ``--help`` output names (``usage: shop install [-h]``), else one
    a heading above it names."""
    for raw in facts.entries:
        if raw.line == entry.location.line and raw.program and " " in raw.program:
            word = raw.program.rsplit(" ", 1)[-1]
            if word in named:
                return named[word]
    return _heading_subcommand(facts, entry, named)


def _heading_subcommand(
    facts: DocFacts, entry: DocEntry, named: dict[str, Subcommand]
) -> Subcommand | None:
    """The subcommand a heading above the entry names, on a page whose
    headings name ``MIN_NAMED`` of the program's subcommands."""
    titles = [_subcommand_word(s.title) for s in facts.sections]
    if len({t for t in titles if t in named}) < MIN_NAMED:
        return None
    above = [i for i, s in enumerate(facts.sections) if s.line <= entry.location.line]
    index: int | None = above[-1] if above else None
    while index is not None:
        word = titles[index]
        if word in named:
            return named[word]
        index = facts.sections[index].parent
    return None


def _subcommand_word(title: str) -> str:
    """The subcommand a heading names: its one word (``install``,
    ```` `install` ````), after the program's name (``pipenv install``) or
    before "command"."""
    words = [w for w in title.replace("`", " ").split() if w.lower() not in _HEADING_WORDS]
    if len(words) == 1:
        return words[0]
    return words[1] if len(words) == 2 else ""


def commands_of_other_subcommands(analysis: Analysis, strict: bool) -> Iterator[Finding]:
    """CD301 (``strict``) or CD302 for each flag a doc command line gives a
    subcommand of the project's program, right after its name, that the
    subcommand does not take and another one does (see the module's docs)."""
    parser = next(
        (s.schema for s in analysis.everything if s.schema.model_kind == "argparse"), None
    )
    if parser is None or bool(parser.strict) != strict:
        return
    named = subcommands(analysis)
    if not named:
        return
    running: dict[str, set[str]] = {}
    pages = {**analysis.command_pages, **analysis.pages_read}
    for rel, doc in sorted(pages.items()):
        for _, program, args, lines in doc.commands:
            sub = named.get(args[0]) if args else None
            if sub is None or sub.flags is None:
                continue
            if sub.module not in running:
                running[sub.module] = programs_running(analysis, {sub.module})
            if program not in running[sub.module]:
                continue  # another program's subcommand of that name
            for at, flag in _leading_flags(args):
                if flag in sub.flags or flag not in sub.program or _abbreviates(flag, sub.flags):
                    continue
                where = Location(rel, lines[at])
                yield _command_finding(
                    parser.model_kind or "", strict, sub, named, where, program, flag
                )


def _leading_flags(args: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """The flags right after a command line's subcommand (its first
    word), up to its first other word."""
    for at in range(1, len(args)):
        word = args[at]
        if not word.startswith("-") or word in ("-", "--"):
            return
        # A cluster of short flags (``-qv``) is no flag a parser declares.
        yield at, word.partition("=")[0]


def _abbreviates(flag: str, flags: frozenset[str]) -> bool:
    """Is the flag the start of a long flag the parser takes (argparse
    takes ``--verb`` for ``--verbose``)?"""
    return flag.startswith("--") and any(f.startswith(flag) for f in flags if f.startswith("--"))


def _outcome(kind: str, strict: bool) -> str:
    """What following the docs does, by the kind of parser."""
    if strict:
        return REJECTION[kind]
    return "sets nothing (or fails where the arguments are checked)"


def _command_finding(
    kind: str,
    strict: bool,
    sub: Subcommand,
    named: dict[str, Subcommand],
    where: Location,
    program: str,
    flag: str,
) -> Finding:
    others = _taking(named, sub, flag)
    outcome = _outcome(kind, strict)
    runs = f"python {program}" if program.startswith("-m ") else program
    at = sub.location
    return make(
        "CD301" if strict else "CD302",
        flag,
        where,
        f"the command line runs `{runs} {sub.name}` with `{flag}`, which the `{sub.name}` "
        f"subcommand's parser does not take ({_listed(others)} take it): following the docs "
        f"{outcome}",
        (Related(at.path, at.line, f"the `{sub.name}` subcommand is declared here"),),
    )
