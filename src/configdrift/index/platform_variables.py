"""Environment variables a program may read that are not its settings
(the platform's, a CI runner's, a web request's, names marked private),
and those every tool may honour by convention. Data, not resolution: the
environment's surface leaves the first out."""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Variables every process has: the platform's, not the project's settings.
SYSTEM_VARIABLES = frozenset(
    {
        "HOME",
        "PATH",
        "USER",
        "USERNAME",
        "LOGNAME",
        "PWD",
        "SHELL",
        "TERM",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "TEMP",
        "TMP",
        "HOSTNAME",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "CI",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "APPDATA",
        "LOCALAPPDATA",
        "USERPROFILE",
        "COLUMNS",
    }
)

#: Variables every tool may honour by a shared convention: a program that
#: reads one changes its own behaviour by it, never another program's.
CONVENTIONS = frozenset({"NO_COLOR", "FORCE_COLOR"})


#: The variables a GitHub Actions runner sets for every step, and an
#: action's inputs as its steps receive them (``INPUT_SRC``): the
#: platform's, or an action's (whose inputs are a surface of their own).
#: ``GITHUB_TOKEN`` is a secret users pass on, not one of them.
_RUNNER = re.compile(r"^(?:GITHUB_(?!TOKEN$)\w+|RUNNER_\w+|INPUT_\w+)$")


#: A variable named as private: a leading underscore, or a double one
#: after the prefix.
_PRIVATE = re.compile(r"^_|.__")


#: The keys of a WSGI or CGI request's ``environ``: a web app reads them
#: from its request, not from the process environment.
_CGI = re.compile(
    r"^(?:HTTP_\w+|PATH_INFO|SCRIPT_NAME|QUERY_STRING|REQUEST_METHOD|REQUEST_URI|REMOTE_\w+"
    r"|SERVER_(?:NAME|PORT|PROTOCOL|SOFTWARE)|CONTENT_(?:TYPE|LENGTH)|wsgi\.\w+)$"
)


def not_the_projects(name: str) -> bool:
    """Is ``name`` a variable of the platform, a web request, a CI runner or
    an action's input, or one named private (``_APP_HOOK``, ``APP__DOC``)?"""
    return (
        name in SYSTEM_VARIABLES
        or _PRIVATE.search(name) is not None
        or _CGI.match(name) is not None
        or _RUNNER.match(name) is not None
    )


#: Top-level folders of Python code that are no package of the program.
_NOT_PACKAGES = frozenset(
    {"test", "tests", "testing", "doc", "docs", "example", "examples", "script", "scripts"}
)


def named_for_package(name: str, module: str) -> bool:
    """Is the variable named for the package of ``module`` that reads it,
    whole (``COPIER_CACHE_DIR`` read in ``copier._vcs``)? Such a variable
    is the program's own setting, whoever else reads the environment."""
    package = module.split(".", 1)[0]
    word, sep, _ = name.partition("_")
    return bool(sep) and package not in _NOT_PACKAGES and word == package.upper()


def package_named(reads: Iterable[tuple[str, str, object, object]]) -> set[str]:
    """The variables of ``reads`` (each a variable, then the module that
    reads it) that a read names for the package reading it."""
    return {name for name, module, *_ in reads if named_for_package(name, module)}


def test_switch(name: str) -> bool:
    """Is the variable a switch of the project's tests (a word beginning
    ``TEST``: ``SQLFLUFF_TESTENV``, ``BORG_TESTONLY_WEAKEN_KDF``)?"""
    return any(word.startswith("TEST") for word in name.split("_")[1:])
