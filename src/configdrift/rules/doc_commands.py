"""Command lines in the docs that run the project's own program with a
flag its parser does not declare: following the docs fails with
``unrecognized arguments`` (argparse) or ``no such option`` (click)
(reported by CD301); or with a value none of an option's choices
(reported by CD303).

The program must be certainly the project's: a console script its
``pyproject.toml`` or ``setup.cfg`` names, whose function is in the
project's code, or ``python -m package`` of a package of its own with a
``__main__``; and its parser must reject unknown flags for certain (the
command line surface is strict: every option declared statically, no
``parse_known_args``, no click command told to take unknown options:
``options_complete``). A flag is judged only where its place is certain:
after any positional words (argparse and click take options anywhere),
but only before the command's second positional word where a positional
argument takes the rest (``nargs=REMAINDER``, ``"..."``: before the first
positional word, the second where the program has subcommands) or a click
command stops at its first argument (``allow_interspersed_args``): a
subcommand and a file come first, and what follows may be another
program's, as ``coverage run -m pytest -x`` hands ``-x`` to pytest (a
command line made of a signature takes a word for each parameter
besides; the words after a flag the parser lacks count as positional
words, for it may take them). Never after ``--``, never in a cluster of short flags
(``-vvv``), and a long flag is accepted where it
begins a declared one (argparse takes ``--verb`` for ``--verbose``). A
flag some code of the project spells as a string is never judged: it may
be declared where the parser is not followed (a list of shared options).

So for a command line that runs a script of the project with ``python``
(``python hf_chat.py --user_msg_fmt=...``) or a launcher (``torchrun
--nproc_per_node 8 train.py --lr 1``, whose own flags come before the
script: ``extract.docs.commands.script_at``): its long flags against
those the script's one parser declares, where they are all known
(``Analysis.scripts_run``, ``extract.docs.script_parsers``), and its
values against the choices of an option of strings. Every page
that may run one of the project's scripts by name is read for it, an
example's README too (``index.programs.may_run_script``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING

from configdrift.extract.docs.block_model import placeholder_text
from configdrift.extract.docs.commands import script_at
from configdrift.index.programs import script_of
from configdrift.index.spellings import one_edit
from configdrift.model import SIGNATURE, Finding, Location, Related, SchemaNode
from configdrift.rules.evidence import code_files, given_to, once, quoted_in
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: What each parser says of a flag it does not know.
REJECTION = {
    "argparse": "fails with 'unrecognized arguments'",
    "click": "fails with 'No such option'",
}


def doc_command_flags(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each flag a doc command line gives the project's own
    program that its strict parser does not declare."""
    judged = _commands(analysis)
    if judged is None:
        return
    parser, flags, positionals, commands = judged
    longs = [s for s in flags if s.startswith("--")]
    unknown = [
        (rel, lines[at], program, flag)
        for rel, lines, program, args in commands
        for at, flag, _ in _given(args, flags, positionals)
        if not declared_flag(flag, flags, longs)
    ]
    if not unknown:
        return
    # A flag some code spells as a string (``click.option("-w", ...)`` in a
    # list of shared options) may be declared where the parser is not
    # followed: only a flag no code spells is certainly unknown.
    python = [*code_files(analysis), *analysis.other_python]
    spelt = quoted_in(analysis, python, {f for *_, f in unknown})
    for rel, line, program, flag in dict.fromkeys(unknown):
        if flag not in spelt:
            yield _finding(parser, rel, line, program, flag)


def script_command_flags(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each long flag a doc command line gives a script of the
    project it runs (``python hf_chat.py --user_msg_fmt=...``, or a
    launcher: ``torchrun train.py --lr 1``) that the
    script's one parser, whose flags are all known, does not declare
    (``Analysis.scripts_run``): before ``--``, any other than a
    placeholder, nor one that begins a declared flag; and no code of the
    project spells it as a string."""
    ran = analysis.scripts_run
    unknown: list[tuple[str, int, str, str, int]] = []
    for rel, script, args, lines in _script_lines(analysis):
        line, declared, _ = ran[script]
        longs = [f for f in declared if f.startswith("--")]
        for at, word in enumerate(args):
            flag = word.partition("=")[0]
            if not flag.startswith("--") or not FLAG.fullmatch(flag):
                continue  # a value, or a placeholder (``--<type>``)
            if not declared_flag(flag, declared, longs):
                unknown.append((rel, lines[at], script, flag, line))
    python = [*code_files(analysis), *analysis.other_python]
    spelt = quoted_in(analysis, python, {flag for *_, flag, _ in unknown})
    for rel, at, script, flag, line in dict.fromkeys(unknown):
        if flag in spelt:
            continue
        near = near_flag(flag, ran[script][1])
        yield make(
            "CD301",
            flag,
            Location(rel, at),
            f"the command line runs the script `{script}` with `{flag}`, which its parser "
            f"does not declare: following the docs {REJECTION['argparse']}",
            (Related(script, line, "the script's parser declares the flags it accepts"),),
            f"did you mean `{near}`?" if near else None,
        )


def script_command_values(analysis: Analysis) -> Iterator[Finding]:
    """CD303 for each value a doc command line gives an option of a script
    of the project it runs (``Analysis.scripts_run``) that is none of the
    option's choices (``--variant 1`` where it takes ``road_1`` or
    ``road_2``): the flag as declared, its value after ``=`` or the next
    word, not a placeholder (``[fp8 | bf16]`` too, cut at its pipe)."""
    ran = analysis.scripts_run
    for rel, script, args, lines in _script_lines(analysis):
        line, _, choices = ran[script]
        taking = dict(choices)
        for at, word in enumerate(args):
            flag, given, value = word.partition("=")
            if flag not in taking:
                continue
            if not given:
                value = args[at + 1] if at + 1 < len(args) else ""
            if not value or value.startswith("-") or placeholder_text(value):
                continue
            if value in taking[flag]:
                continue
            takes = _one_of(taking[flag])
            yield make(
                "CD303",
                flag,
                Location(rel, lines[at]),
                f"the command line runs the script `{script}` with `{flag} {value}`, but "
                f"`{flag}` takes {takes}: following the docs fails with 'invalid choice'",
                (Related(script, line, f"the option takes {takes}"),),
            )


def _script_lines(
    analysis: Analysis,
) -> Iterator[tuple[str, str, tuple[str, ...], tuple[int, ...]]]:
    """(page, script, its words, their lines) of each doc command line that
    runs a script of the project whose parser's flags are all known
    (``Analysis.scripts_run``): the words after the script, before ``--``."""
    ran = analysis.scripts_run
    if analysis.first is not None or not ran:
        return
    pages = {**analysis.command_pages, **analysis.pages_read}
    for rel, doc in sorted(pages.items()):
        for _, program, args, lines in doc.commands:
            first = script_at(program, args)
            script = None if first is None else script_of(rel, args[first], ran.keys())
            if first is None or script is None:
                continue
            words = args[first + 1 :]
            end = words.index("--") if "--" in words else len(words)
            yield rel, script, words[:end], lines[first + 1 : first + 1 + end]


def near_flag(flag: str, declared: Collection[str]) -> str | None:
    """The one flag of ``declared`` a flag is spelt like: the same with
    ``-`` and ``_`` alike (``--log_with_file`` of ``--log-with-file``:
    argparse tells them apart), else one letter from it; None for none or
    several."""
    alike = [f for f in declared if f.replace("_", "-") == flag.replace("_", "-")]
    near = alike or [f for f in declared if one_edit(flag, f)]
    return near[0] if len(near) == 1 else None


def doc_command_values(analysis: Analysis) -> Iterator[Finding]:
    """CD303 for each value a doc command line gives an option of the
    project's own program that is none of the option's choices
    (``--log-level trace`` where it takes ``info`` or ``debug``) or a
    number ``int()`` refuses where it takes a whole number (``4e8``); a
    placeholder (``<level>``, ``$LEVEL``) is no value. Only a flag before
    the command's first positional word is judged (a subcommand's options
    are not told apart), and only one no other option of the program
    spells (two commands may take one flag two ways)."""
    judged = _commands(analysis)
    if judged is None:
        return
    parser, flags, _, commands = judged
    spelt = Counter(s for node in parser.children.values() for s in node.spellings)
    for rel, lines, program, args in commands:
        for at, flag, value in _given(args, flags, 0):
            node = flags.get(flag) if spelt[flag] == 1 else None
            if node is None or value is None or placeholder_text(value):
                continue
            refused = _refused(node, value)
            if refused is None:
                continue
            takes, error = refused
            fails = error if parser.model_kind != "click" else "Invalid value"
            assert node.location is not None
            yield make(
                "CD303",
                flag,
                Location(rel, lines[at]),
                f"the command line runs `{_runs(program)}` with `{flag} {value}`, but `{flag}` takes "
                f"{takes}: following the docs fails with '{fails}'",
                (Related(node.location.path, node.location.line, f"the option takes {takes}"),),
            )


def doc_command_deprecations(
    analysis: Analysis, said: Callable[[str, int], bool]
) -> Iterator[Finding]:
    """CD402 for each flag a doc command line gives the project's own
    program that its parser, strict or not, marks deprecated (its help
    says so: ``"Remove it. [deprecated: use `app remove`]"``) or keeps out
    of the help beside a spelling it shows (``--export``, hidden, of
    ``--format``'s destination), where the page says nothing of a
    deprecation there (``said(page, line)``, the lifecycle rules' test)."""
    for parser in doc_parsers(analysis):
        judged = _parser_commands(analysis, parser)
        if judged is None:
            continue
        _, flags, positionals, commands = judged
        for rel, lines, program, args in commands:
            for at, flag, _ in _given(args, flags, positionals):
                node = flags.get(flag)
                if node is None or node.location is None:
                    continue
                hidden = flag in node.hidden_spellings
                if not (node.deprecated or hidden) or said(rel, lines[at]):
                    continue
                runs = f"the command line runs `{_runs(program)}` with `{flag}`"
                shown = node.current_spellings()
                how = "deprecates it" if node.deprecated else "keeps it out of the help"
                yield make(
                    "CD402",
                    flag,
                    Location(rel, lines[at]),
                    f"{runs}, which is deprecated"
                    if node.deprecated
                    else f"{runs}, a spelling its declaration keeps out of `--help` "
                    f"(`{shown[0]}` is the one shown)",
                    (Related(node.location.path, node.location.line, f"its declaration {how}"),),
                    f"use `{node.replacement or shown[0]}`"
                    if node.replacement or not node.deprecated
                    else None,
                )


def _refused(node: SchemaNode, value: str) -> tuple[str, str] | None:
    """What an option takes that ``value`` is not, for certain, and what
    argparse says of it: one of its choices, or a whole number where the
    value is a number with a point or an exponent (``4e8``, which ``int()``
    refuses); None where it is taken or may be."""
    choices = [c for c in (node.type.choices or ()) if isinstance(c, str)]
    if choices:
        if value in choices:
            return None
        return _one_of(choices), "invalid choice"
    if node.type.kinds == frozenset({"int"}) and _FRACTION.fullmatch(value):
        return "a whole number", "invalid int value"
    return None


def _one_of(choices: Collection[str]) -> str:
    """What an option of choices takes: "one of `fast`, `safe`"."""
    return "one of " + ", ".join(f"`{c}`" for c in choices)


#: A number ``int()`` refuses and ``float()`` takes: a point or an exponent.
_FRACTION = re.compile(
    r"[-+]?(?:\d{1,30}\.\d{0,30}|\.\d{1,30}|\d{1,30}(?:\.\d{0,30})?[eE][-+]?\d{1,4})"
)


#: A parser, its options by flag, how many positional words its commands
#: take before their flags end, and the doc command lines that run it.
_Judged = tuple[
    SchemaNode,
    dict[str, SchemaNode],
    int,
    list[tuple[str, tuple[int, ...], str, tuple[str, ...]]],
]


def _commands(analysis: Analysis) -> _Judged | None:
    """The strict parser of the project's program, its options by flag,
    how many positional words its commands take before their flags end,
    and the doc command lines that run the program; None where nothing is
    judged (another surface, no page, no strict parser, no program)."""
    parser = next((p for p in doc_parsers(analysis) if p.strict is True), None)
    if parser is None:
        return None  # no parser that rejects unknown flags for certain
    return _parser_commands(analysis, parser)


def doc_parsers(analysis: Analysis) -> list[SchemaNode]:
    """The command-line parsers of the project, where its docs are judged
    (once: on the first surface) and a page is read or runs a program."""
    if analysis.first is not None or not (analysis.command_pages or analysis.pages_read):
        return []
    return [s.schema for s in analysis.everything if s.schema.model_kind in REJECTION]


def _parser_commands(analysis: Analysis, parser: SchemaNode) -> _Judged | None:
    """``_commands`` for one parser, strict or not."""
    # The pages read, and those no surface reads that run the program.
    pages = {**analysis.command_pages, **analysis.pages_read}
    programs = programs_running(analysis, _declaring(analysis, parser))
    if not programs:
        return None
    flags = {s: node for node in parser.children.values() for s in node.spellings}
    # A command line made of a function's signature takes its parameters
    # as positional words too (``app finetune checkpoints/``): they are
    # the command's own, and the flags after them are judged.
    parameters = Counter(
        node.origin
        for node in parser.children.values()
        if node.origin.endswith(SIGNATURE) and "." not in node.key
    )
    commands = [
        (rel, lines, program, args)
        for rel, doc in sorted(pages.items())
        for _, program, args, lines in doc.commands
        if program in programs
    ]
    # Where no positional argument takes the words after it, a flag after
    # the positional words is the program's still (argparse and click take
    # options anywhere): all are judged; a signature takes as many words
    # as it has parameters.
    rest = _takes_the_rest(analysis)
    positionals = _ALL if rest is None else rest
    if parameters:
        positionals = 1 + max(parameters.values())
    return parser, flags, positionals, commands


#: As many positional words as a command line holds.
_ALL = 1 << 30


#: How many imports deep a program's module is followed to the modules
#: that declare a parser's options.
_IMPORT_DEPTH = 3


def programs_running(analysis: Analysis, declaring: set[str]) -> set[str]:
    """The project's programs (console scripts, ``-m module``) whose
    command line the ``declaring`` modules' options make."""
    return _programs_of(analysis, declaring) | _modules_running(analysis, declaring)


def _declaring(analysis: Analysis, parser: SchemaNode) -> set[str]:
    """The project's modules that declare options of ``parser``."""
    paths = {n.location.path for n in parser.children.values() if n.location is not None}
    return {name for name, info in analysis.project.modules.items() if info.path in paths}


def _programs_of(analysis: Analysis, declaring: set[str]) -> set[str]:
    """The project's programs whose command line is the parser's whose
    options the ``declaring`` modules declare: the module a console script
    runs is one of them, or imports one, a few imports deep (a tool's own
    parser under ``extra/`` is no parser of the project's ``faust``
    command)."""
    modules = analysis.project.modules
    out: set[str] = set()
    for program, module in _programs(analysis).items():
        reached, frontier = {module}, {module}
        for _ in range(_IMPORT_DEPTH):
            frontier = {
                target
                for name in frontier
                if name in modules
                for target in _imported(analysis, name)
                if target in modules and target not in reached
            }
            reached |= frontier
        if reached & declaring:
            out.add(program)
    return out


def _imported(analysis: Analysis, name: str) -> set[str]:
    """The modules ``name`` imports (``from . import x`` as ``pkg.x`` too)."""
    out: set[str] = set()
    for fact in analysis.project.modules[name].facts.imports:
        base = analysis.project.absolute(name, fact.module, fact.level)
        out |= {base, f"{base}.{fact.name}"}
    return out


def _modules_running(analysis: Analysis, declaring: set[str]) -> set[str]:
    """``-m module`` for each module of the project run as a script (a
    ``__main__`` guard) whose command line is the parser's: one of the
    ``declaring`` modules, or one that imports one (``python -m
    app.train``, whose ``main`` parses ``app.params``' flags)."""
    running: set[str] = set()
    for name, info in analysis.project.modules.items():
        if not info.facts.main_guard:
            continue
        if name in declaring or _imported(analysis, name) & declaring:
            running.add(f"-m {name}")
    return running


def _takes_the_rest(analysis: Analysis) -> int | None:
    """How many positional words a command line takes before the words that
    may be another program's: where a click command takes no option after
    its first argument (``allow_interspersed_args``, wherever the project
    spells it), one (its subcommand); where a positional argument takes
    every word after it (argparse's ``nargs=REMAINDER`` or ``"..."``), one
    where the program has subcommands, else none (``composer train.py -f
    x``: ``-f`` is the script's). None where no argument takes the rest."""
    rest: int | None = None
    subcommands = False
    for info in analysis.project.modules.values():
        facts = info.facts
        subcommands = subcommands or "add_subparsers" in facts.attr_counts
        if "allow_interspersed_args" in {*facts.attr_counts, *facts.attr_stores}:
            return 1
        for call in facts.registrations:
            if call.method == "context_settings" and call.args:
                given = call.args[0]
                given = facts.assigns.get(given[1], given) if given[0] == "n" else given
                if "allow_interspersed_args" in str(given):
                    return 1
            nargs = call.kwargs.get("nargs")
            if nargs is not None and (nargs == ["c", "..."] or str(nargs[1]).endswith("REMAINDER")):
                rest = 0
    return 1 if rest is not None and subcommands else rest


def flags_given(analysis: Analysis, root: SchemaNode) -> set[str]:
    """The options of ``root`` (by key) that a line of the pages gives the
    project's own program by any spelling (``yamllint -c my.yaml``: the
    ``--config-file`` option), short flags too: described there, where the
    prose alone documents the command line (a program's short flag may be
    another subcommand's)."""
    programs = _scripts_installed(analysis)
    spellings = {s for node in root.children.values() for s in node.spellings if s.strip("-")}
    given = given_to(analysis, programs, spellings)
    return {
        node.path[0] for node in root.children.values() if node.path and given & set(node.spellings)
    }


def subcommands_run(analysis: Analysis) -> frozenset[str]:
    """The words the pages' command lines give the project's own program
    first (``coverage help``): the subcommands they show run."""

    def read() -> frozenset[str]:
        programs = _scripts_installed(analysis)
        pages = {
            rel: doc
            for surface in (analysis.first or analysis).everything
            for rel, doc in surface.pages_read.items()
        }
        return frozenset(
            args[0]
            for doc in pages.values()
            for _, program, args, _ in doc.commands
            if program in programs and args
        )

    return once(analysis, "subcommands run", read)


def declared_flag(flag: str, flags: Collection[str], longs: list[str]) -> bool:
    """Does the parser take the flag: one of its spellings, or a long flag
    that begins one (argparse's abbreviations)?"""
    if flag in flags:
        return True
    return flag.startswith("--") and len(flag) > 3 and any(s.startswith(flag) for s in longs)


#: A flag as a parser spells one: no placeholder's brackets (``--<type>``).
FLAG = re.compile(r"--?[A-Za-z0-9][\w.-]*")


def _given(
    args: tuple[str, ...], flags: dict[str, SchemaNode], allowed: int = 1
) -> Iterator[tuple[int, str, str | None]]:
    """The flags of a command whose place is certain (see the module's
    docs), each with its place among the arguments and the value given it
    (after ``=``, or the next word of an option that takes one): each
    ``--long`` and ``-x``, before the positional word after the ``allowed``
    first ones."""
    positionals = 0
    index = 0
    while index < len(args):
        word, at = args[index], index
        index += 1
        if word == "--":
            return
        if not word.startswith("-") or word == "-" or word[1:2].isdigit():
            positionals += 1
            if positionals > allowed:
                return  # what follows may be another program's
            continue
        name, equals, given = word.partition("=")
        if FLAG.fullmatch(name) is None:
            return  # a placeholder (``--<type>``): what it stands for is not known
        if not name.startswith("--") and len(name) != 2:
            continue  # a cluster of short flags (``-vvv``), or a value glued on
        node = flags.get(name)
        value: str | None = given if equals else None
        takes = node is not None and not given and "bool" not in node.type.kinds
        if takes and index < len(args) and not args[index].startswith("-"):
            value = args[index]  # the option's value
            index += 1
        # A flag the parser lacks may take the words after it: each counts
        # as a positional word (the flags after it are the program's still,
        # as argparse and click read them, up to where positional words end).
        yield at, name, value


def _runs(program: str) -> str:
    """The program as a reader runs it (``python -m app`` for ``-m app``)."""
    return f"python {program}" if program.startswith("-m ") else program


def _finding(parser: SchemaNode, rel: str, line: int, program: str, flag: str) -> Finding:
    kind = parser.model_kind or "argparse"
    what = parser.model or "the parser"
    runs = _runs(program)
    related: tuple[Related, ...] = ()
    if parser.model_location is not None:
        where = parser.model_location
        related = (Related(where.path, where.line, f"{what} declares the flags it accepts"),)
    near = near_flag(
        flag, [s for node in parser.children.values() for s in node.current_spellings()]
    )
    return make(
        "CD301",
        flag,
        Location(rel, line),
        f"the command line runs `{runs}` with `{flag}`, which {what} does not declare: "
        f"following the docs {REJECTION[kind]}",
        related,
        f"did you mean `{near}`?" if near else None,
    )


def _scripts_installed(analysis: Analysis) -> set[str]:
    """The project's programs run by their own name (its console scripts,
    not ``-m package``)."""
    return {p for p in _programs(analysis) if not p.startswith("-m ")}


def _programs(analysis: Analysis) -> dict[str, str]:
    """The programs the project installs whose code is its own, each with
    the module it runs (``Analysis.programs``): console scripts of
    ``pyproject.toml`` (``[project.scripts]``, Poetry's
    ``[tool.poetry.scripts]``) and ``setup.cfg`` whose module is one of the
    project's, and those ``setup.py`` lists, and ``-m package`` for a
    package of its own with a ``__main__``."""
    return (analysis.first or analysis).programs


def installed_modules(analysis: Analysis) -> set[str]:
    """The project's modules a console script runs (``flask.cli`` of
    ``flask = "flask.cli:main"``), and ``__main__`` modules."""
    modules = analysis.project.modules
    return {*_programs(analysis).values(), *(m for m in modules if m.endswith(".__main__"))}
