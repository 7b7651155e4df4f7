"""Command lines in a page's shell blocks: the program each runs and its
arguments (``$ myapp serve --port 8080``), read with ``shlex`` and never
run.

In a block of a shell's language (``sh``, ``bash``) every line is a
command; in a session or an untagged block (``console``, ``text``) only a
line behind a prompt (``$ ``) is. A line continued with ``\\`` is one
command; pipes, ``&&``, ``||`` and ``;`` separate commands. Leading
variable assignments (``DEBUG=1 myapp``) and ``sudo`` are not the program;
``python -m package`` runs the package. A line ``shlex`` cannot split (an
open quote) is left out: where its words end is not known.
"""

from __future__ import annotations

import re
import shlex

#: Languages whose every line is a command.
SHELL_LANGS = frozenset({"sh", "bash", "zsh", "shell", "ksh", "fish"})
#: Languages whose lines behind a prompt are commands (an untagged block too).
SESSION_LANGS = frozenset({"", "console", "shell-session", "sh-session", "text", "none"})
#: A prompt before a command of a session.
_PROMPT = re.compile(r"^[ \t]*(?:\([\w.-]{1,40}\)[ \t]*)?[$%][ \t]+")
#: The words that end one command and start another.
_SEPARATORS = frozenset({"|", "||", "&&", ";", "&"})
#: Words that run the program after them.
_RUNNERS = frozenset({"sudo", "exec", "time", "nohup"})
#: The most commands read of one block, and words of one command.
MAX_COMMANDS = 500
MAX_WORDS = 200
#: The longest line read (a longer one is data, not a command).
MAX_LINE = 4000


def command_words(text: str, lang: str) -> list[tuple[int, str, tuple[str, ...], tuple[int, ...]]]:
    """(line in the block, 0-based; program; its arguments; the line of
    each argument) of each command the block runs (see the module's docs):
    a command continued with ``\\`` gives its words on the lines it spans."""
    lang = lang.lower()
    every = lang in SHELL_LANGS
    if not every and lang not in SESSION_LANGS:
        return []
    out: list[tuple[int, str, tuple[str, ...], tuple[int, ...]]] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines) and len(out) < MAX_COMMANDS:
        start = number
        line = lines[number]
        number += 1
        prompt = _PROMPT.match(line)
        if prompt is not None:
            line = line[prompt.end() :]
        elif not every:
            continue
        # Where each line of a continued command begins in the joined text.
        starts = [(0, start)]
        while line.endswith("\\") and number < len(lines) and len(line) < MAX_LINE:
            line = line[:-1] + " "
            starts.append((len(line), number))
            line += lines[number]
            number += 1
        if len(line) > MAX_LINE or line.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=True)[: MAX_WORDS * 4]
        except ValueError:
            continue  # an open quote: where the words end is not known
        at = _word_lines(line, words, starts)
        for command, places in _commands(words, at):
            program, args = _program(command)
            if program:
                kept = args[:MAX_WORDS]
                where = tuple(places[len(command) - len(args) :][: len(kept)])
                out.append((start, program, tuple(kept), where))
    return out


def commands_at(
    text: str, lang: str, first: int
) -> list[tuple[int, str, tuple[str, ...], tuple[int, ...]]]:
    """``command_words`` of a block whose first line is the page's line
    ``first``, at the page's lines."""
    return [
        (first + line, program, args, tuple(first + n for n in lines))
        for line, program, args, lines in command_words(text, lang)
    ]


def _word_lines(line: str, words: list[str], starts: list[tuple[int, int]]) -> list[int]:
    """The line each word of a joined command line is on: where its text
    is found after the word before it (a word whose quotes ``shlex`` took
    off is found within them), else the line of the word before."""
    out: list[int] = []
    cursor = 0
    current = starts[0][1]
    for word in words:
        found = line.find(word, cursor) if word else -1
        if found >= 0:
            cursor = found + len(word)
            current = next(n for offset, n in reversed(starts) if offset <= found)
        out.append(current)
    return out


def _commands(words: list[str], lines: list[int]) -> list[tuple[list[str], list[int]]]:
    """The words split at pipes and command separators, each command with
    the line of each of its words; a command substituted into another
    (``expr $(app --count | wc -l) / 2``) is one of its own."""
    out: list[tuple[list[str], list[int]]] = [([], [])]
    # The command each open substitution is in, the innermost last.
    outer: list[tuple[list[str], list[int]]] = []
    current = out[0]
    for word, line in zip(words, lines, strict=True):
        if word.startswith("$("):
            outer.append(current)
            current = ([], [])
            out.append(current)
            word = word[2:]
        closed = 0
        while len(outer) > closed and word.endswith(")"):
            word, closed = word[:-1], closed + 1
        if word in _SEPARATORS:
            current = ([], [])
            out.append(current)
        elif word:
            current[0].append(word)
            current[1].append(line)
        for _ in range(closed):
            current = outer.pop()  # back to the command it is in
    return [c for c in out if c[0]]


def _assignment(word: str) -> bool:
    """Is a word ``NAME=value``, a variable of the command's environment?"""
    name, sep, _ = word.partition("=")
    return bool(sep) and name.isidentifier() and name.isascii()


def _program(words: list[str]) -> tuple[str, list[str]]:
    """The program a command runs (``python -m pkg`` as ``-m pkg``) and its
    arguments; ``""`` when it runs none."""
    at = 0
    while at < len(words) and (_assignment(words[at]) or words[at] in _RUNNERS):
        at += 1
    if at >= len(words):
        return "", []
    program = words[at]
    rest = words[at + 1 :]
    if _PYTHON.fullmatch(name := program.rsplit("/", 1)[-1]):
        program, rest = name.partition(".")[0], _after_switches(rest)
    if program in PYTHONS and len(rest) >= 2 and rest[0] == "-m":
        if rest[1] not in _LAUNCHER_MODULES:
            return f"-m {rest[1]}", rest[2:]
        program, rest = rest[1], rest[2:]
    if program == "accelerate" and rest[:1] == ["launch"]:
        program, rest = "accelerate launch", rest[1:]
    if program in _LAUNCHERS:
        # ``torchrun --nproc_per_node 8 -m app.train --lr 1``: the module
        # the launcher runs, with the words after it.
        for n, word in enumerate(rest[:-1]):
            if word in _MODULE_FLAGS:
                return f"-m {rest[n + 1]}", rest[n + 2 :]
            if word.endswith(".py"):
                break  # a script it runs, and flags of the script's after it
    return program, rest


#: A Python interpreter by name (``python``, ``python3``, ``python3.12``).
_PYTHON = re.compile(r"python(?:3(?:\.\d{1,2})?)?")
#: The interpreter's options that take no value, alone or run together
#: (``-u``, ``-OO``, ``-uB``), and those that take one (``-W error``,
#: ``-X dev``; or joined, ``-Wd``).
_SWITCHES = re.compile(r"-[bBdEiIOPqsSuv]+")
_VALUED = frozenset({"-W", "-X"})


def _after_switches(words: list[str]) -> list[str]:
    """A Python command's words after the interpreter's own options
    (``python -u train.py --lr 1``: ``train.py --lr 1``)."""
    at = 0
    while at < len(words):
        word = words[at]
        if word in _VALUED:
            at += 2
        elif _SWITCHES.fullmatch(word) or word[:2] in _VALUED:
            at += 1
        else:
            break
    return words[at:]


def script_at(program: str, args: tuple[str, ...]) -> int | None:
    """Where among a command's arguments is the script it runs, the words
    after it the script's own: the first of ``python train.py``'s, the
    first ending in ``.py`` of a launcher's (``torchrun --nproc_per_node 8
    train.py --lr 1``, ``accelerate launch train.py``), whose flags come
    before it; None where it runs none."""
    if program in PYTHONS:
        return 0 if args else None
    if program in _LAUNCHERS:
        return next((n for n, word in enumerate(args) if word.endswith(".py")), None)
    return None


#: The programs that run a script given as their first word.
PYTHONS = frozenset({"python", "python3"})
#: Programs that launch a Python module on many processes, with flags of
#: their own before it (``torchrun --nproc_per_node 8 -m app.train``).
_LAUNCHERS = frozenset(
    {
        "torchrun",
        "deepspeed",
        "accelerate launch",
        "torch.distributed.run",
        "torch.distributed.launch",
    }
)
#: The same run with ``python -m``.
_LAUNCHER_MODULES = frozenset({"torch.distributed.run", "torch.distributed.launch"})
#: A launcher's flag that names the module it runs.
_MODULE_FLAGS = frozenset({"-m", "--module"})
