"""The programs a project installs: its console scripts, as its project
files name them (``[project.scripts]``, Poetry's ``[tool.poetry.scripts]``,
``setup.cfg``'s ``console_scripts``, setuptools' or pbr's, and those
``setup.py`` lists literally). Doc command lines that run one are the docs' examples of its
command line (``rules.doc_commands``); the pages that may hold such a line
are read for it (``may_run``).
"""

from __future__ import annotations

import configparser
import posixpath
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from configdrift.extract.docs.commands import script_at
from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.python.facts import RegistrationCall
from configdrift.extract.python.signatures import CONSOLE_SCRIPTS
from configdrift.files import read_or_none

#: The largest project file (``pyproject.toml``, ``setup.cfg``) read for
#: the project's programs.
MAX_PROJECT_FILE = 1 << 20
#: The most occurrences of a program's name on one page looked at.
MAX_RUNS_LOOKED_AT = 200
#: A flag given after a word on the rest of a line (`` --port``, `` -p``).
_FLAG_AFTER = re.compile(rb"[ \t]--?[A-Za-z]")


def console_scripts(root: Path, setup_py: Iterable[RegistrationCall]) -> list[tuple[str, str]]:
    """(script, ``module:function``) of the project's files; ``setup_py``
    are the calls its ``setup.py`` makes."""
    out: list[tuple[str, str]] = []
    data = read_or_none(root, "pyproject.toml", MAX_PROJECT_FILE)
    if data is not None:
        try:
            toml: dict[str, Any] = tomllib.loads(data.decode("utf-8", "replace"))
        except (tomllib.TOMLDecodeError, RecursionError):
            toml = {}
        tables = [_table(toml, "project", "scripts"), _table(toml, "tool", "poetry", "scripts")]
        for table in tables:
            if isinstance(table, dict):
                out += [(k, v) for k, v in table.items() if isinstance(v, str)]
    for call in setup_py:
        if call.method == CONSOLE_SCRIPTS:
            for entry in call.args:
                name, sep, target = str(entry[1]).partition("=")
                if sep and name.strip():
                    out.append((name.strip(), target.strip()))
    data = read_or_none(root, "setup.cfg", MAX_PROJECT_FILE)
    if data is not None:
        cfg = configparser.ConfigParser(interpolation=None)
        try:
            cfg.read_string(data.decode("utf-8", "replace"))
            # setuptools' section, or pbr's (``[entry_points]``).
            lines = cfg.get("options.entry_points", "console_scripts", fallback="") or cfg.get(
                "entry_points", "console_scripts", fallback=""
            )
        except (configparser.Error, ValueError):
            lines = ""
        for line in lines.splitlines():
            name, sep, target = line.partition("=")
            if sep and name.strip():
                out.append((name.strip(), target.strip()))
    return out


def installed_programs(
    root: Path, modules: Collection[str], setup_py: Iterable[RegistrationCall]
) -> dict[str, str]:
    """The programs the project installs whose code is its own, each with
    the module it runs: its console scripts whose module is one of the
    project's ``modules``, and ``-m package`` for a package of its own
    with a ``__main__``."""
    out: dict[str, str] = {}
    for name, target in console_scripts(root, setup_py):
        module = target.partition(":")[0].strip()
        if module in modules:
            out[name] = module
    for module in modules:
        if module.endswith(".__main__") and module.count(".") == 1:
            out[f"-m {module.split('.')[0]}"] = module
    return out


def other_programs(
    root: Path, modules: Collection[str], setup_py: Iterable[RegistrationCall]
) -> frozenset[str]:
    """The console scripts the project installs whose code is not read
    (a vendored tool's): a ``--help`` output of one lists flags no surface
    of the project declares."""
    return frozenset(
        name
        for name, target in console_scripts(root, setup_py)
        if target.partition(":")[0].strip() not in modules
    )


def may_run(data: bytes, programs: Iterable[str]) -> bool:
    """Does the page spell one of the programs (a script's name, ``-m
    package``) as a word followed, on its line or those it continues onto
    with ``\\``, by a flag: a command line that may give the program a
    flag?"""
    for program in programs:
        name = program.encode()
        start = 0
        for _ in range(MAX_RUNS_LOOKED_AT):
            at = data.find(name + b" ", start)
            if at < 0:
                break
            end = _line_end(data, at)
            before = data[at - 1 : at] if at else b"\n"
            if not (before.isalnum() or before in b"_-./") and _FLAG_AFTER.search(data, at, end):
                return True
            start = end
    return False


#: A Python file's name ending a word, a space after it (``train.py ``).
_SCRIPT_END = re.compile(rb"\.py[ \t]")
#: The longest script's name looked for.
MAX_NAME = 255
#: What a word naming a script begins after: a space, a path's ``/``, a quote.
_WORD_START = b" \t\n/\"'`=("


def may_run_script(data: bytes, names: AbstractSet[str]) -> bool:
    """Does the page spell a script of one of the ``names`` (``train.py``,
    a path's last part: ``./scripts/train.py``) as a word followed, on its
    line or those it continues onto, by a flag: a command line that may
    give the script a flag?"""
    for count, match in enumerate(_SCRIPT_END.finditer(data)):
        if count >= MAX_RUNS_LOOKED_AT:
            break
        # The word's last part, of ``MAX_NAME`` bytes at most.
        before = data[max(0, match.start() - MAX_NAME) : match.end() - 1]
        name = before[max(before.rfind(bytes([c])) for c in _WORD_START) + 1 :]
        if name.decode("utf-8", "replace") not in names:
            continue
        if _FLAG_AFTER.search(data, match.end() - 1, _line_end(data, match.start())):
            return True
    return False


#: The most lines a command continued with ``\\`` is looked at over.
MAX_CONTINUED = 50


def _line_end(data: bytes, at: int) -> int:
    """Where the command line at ``at`` ends: its line's end, or that of
    the last line it continues onto with ``\\``."""
    for _ in range(MAX_CONTINUED):
        end = data.find(b"\n", at)
        if end < 0:
            return len(data)
        if not data[at:end].rstrip(b" \t\r").endswith(b"\\"):
            return end
        at = end + 1
    return at


def _table(data: Any, *keys: str) -> Any:
    """``data[k1][k2]...``, or None where one is missing or no table."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def script_of(page: str, word: str, files: Collection[str]) -> str | None:
    """The project's Python file a page's command line runs as a script
    (``python hf_chat.py``, ``python scripts/train.py``): the path from the
    page's folder, else from the root, where it is one of ``files``."""
    beside = posixpath.normpath(posixpath.join(posixpath.dirname(page), word))
    return next((p for p in (beside, posixpath.normpath(word)) if p in files), None)


def scripts_run(pages: Mapping[str, DocFacts], files: Collection[str]) -> list[str]:
    """The project's Python files the pages' command lines run as scripts
    (``script_of``)."""
    return sorted(
        {
            found
            for rel, doc in pages.items()
            for _, program, args, _ in doc.commands
            if (at := script_at(program, args)) is not None
            and (found := script_of(rel, args[at], files))
        }
    )
