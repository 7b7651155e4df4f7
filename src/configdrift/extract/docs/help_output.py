"""A command's ``--help`` output pasted into a page: each option line
(``  -s, --simple   Run as a simple server``) documents that flag.

A block is taken as help output when it lists ``--help`` among five option
lines or more, each an indented flag (with its short form and metavar)
followed by two spaces and a description, or alone on its line. The
flags are read with a line pattern; nothing else of the block is.
"""

from __future__ import annotations

import re

#: An option line of argparse's or click's help: the flags, an optional
#: metavar (``PATH``, or as the parser was given it: ``length``) or choice
#: list, then a description after two spaces or nothing.
_OPTION_LINE = re.compile(
    r"[ \t]{1,12}(?:-[A-Za-z0-9](?:[ =][^\s,]+)?,[ \t]*)?(--[A-Za-z0-9][\w-]*)"
    r"(?:[ =](?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_.\[\]-]*|<[^>]+>|\[[^\]]+\]))?(?:[ \t]{2,}+\S.*+)?[ \t]*+"
)
#: Help output lists this many options at least.
MIN_OPTIONS = 5
#: The largest block searched.
MAX_CHARS = 200_000


def help_flags(text: str) -> list[tuple[str, int]]:
    """The long flags a help output lists, each with its line in the block
    (0-based); empty when the block is not a command's help."""
    if "--help" not in text or len(text) > MAX_CHARS:
        return []
    found: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines()):
        match = _OPTION_LINE.fullmatch(line)
        if match is not None:
            found.append((match.group(1), number))
    flags = [flag for flag, _ in found]
    if len(set(flags)) < MIN_OPTIONS or "--help" not in flags:
        return []
    first: dict[str, int] = {}
    for flag, number in found:
        first.setdefault(flag, number)  # a flag listed twice is documented once
    return list(first.items())


#: The default a help line states: argparse's ``(default: 4)``, click's
#: ``[default: 4]`` (``[default: 4; required]``).
_DEFAULT = re.compile(r"(?<=[(\[])default:? ([^()\[\];]{1,80}+)[)\];]")
#: The most lines of one option's description read for its default.
_MAX_DESCRIPTION = 12


def help_defaults(text: str, flags: list[tuple[str, int]]) -> dict[int, str]:
    """The default each option of a help output states in its description
    (its line and the lines under it, up to the next option or a blank
    line), by the option's line; none written as a template
    (``%(default)s``, ``{default}``)."""
    lines = text.splitlines()
    starts = sorted(number for _, number in flags)
    out: dict[int, str] = {}
    for at, number in enumerate(starts):
        end = starts[at + 1] if at + 1 < len(starts) else len(lines)
        described = []
        for line in lines[number : min(end, number + _MAX_DESCRIPTION)]:
            if not line.strip():
                break
            described.append(line.strip())
        found = _DEFAULT.search(" ".join(described))
        if found is not None and not any(c in found.group(1) for c in "%{"):
            out[number] = found.group(1).strip()
    return out


def help_options(text: str) -> list[tuple[str, int, str | None, str | None]]:
    """The long flags a help output lists (``help_flags``), each with its
    line in the block, the default it states (``help_defaults``) and the
    program its usage line names (``usage_program``)."""
    flags = help_flags(text)
    if not flags:
        return []
    defaults = help_defaults(text, flags)
    program = usage_program(text)
    return [(flag, number, defaults.get(number), program) for flag, number in flags]


#: argparse's and click's usage line: ``usage: yapf-diff [-h] ...``,
#: ``Usage: python -m app [OPTIONS]``, ``Usage: app serve [OPTIONS]``.
_USAGE = re.compile(
    r"usage:[ \t]{1,20}(\S{1,200})(?:[ \t]{1,20}-m[ \t]{1,20}([\w.]{1,200}))?"
    r"(?:[ \t]{1,20}([a-z][\w-]{0,80})(?![\w-]))?",
    re.I,
)


def usage_program(text: str) -> str | None:
    """The program a help output's usage line names (its file's name;
    ``python -m app`` as ``-m app``), with the word in small letters that
    follows it, its subcommand's (``app serve``), or None where no line of
    it begins with ``usage:``."""
    for line in text.splitlines():
        match = _USAGE.match(line.lstrip())
        if match is not None:
            program, module, word = match.groups()
            name = program.rsplit("/", 1)[-1]
            name = f"-m {module}" if module and name.startswith("python") else name
            return f"{name} {word}" if word and word.islower() else name
    return None


#: A metavar or a choice list after a flag (``CONFIG_FILE``, ``{file,vuln}``).
_META = r"(?:\{[^}]*\}|[A-Z_][A-Z0-9_.\[\]-]*|<[^>]+>|\[[^\]]+\])"
_FLAG = rf"(-{{1,2}}[A-Za-z0-9][\w-]*)(?:[ =]{_META})?"
#: A definition's term that is one option's flags as help output gives
#: them (``-a {file,vuln}, --aggregate {file,vuln}``), a long one last.
_TERM = re.compile(rf"(?:{_FLAG},[ \t]*)*(--[A-Za-z0-9][\w-]*)(?:[ =]{_META})?")
_FLAG_PART = re.compile(_FLAG)
#: The longest term read.
MAX_TERM = 300


def option_term(text: str) -> list[str]:
    """The flags of a definition's term that names one option as help
    output does (``-l, --level``), short ones first; empty for any other
    term."""
    text = text.strip()
    if len(text) > MAX_TERM or _TERM.fullmatch(text) is None:
        return []
    return [m.group(1) for m in _FLAG_PART.finditer(text)]
