"""The environment variables a module names outside its reads: in an
option's help text (``help="... [env var: APP_TOKEN]"``), which ``--help``
shows and a generated command-line reference renders, or as a key it
writes (``env["APP_HOOK"] = "1"``, ``os.environ["APP_HOOK"] = ...``), set
by the project itself for a process it starts. Read off the source text
(no walk of its tree): a name caught by mistake only keeps a variable
from being asked for."""

from __future__ import annotations

import re

from configdrift.extract.docs.label_values import VARIABLE

#: How far after ``help=`` a help text is read.
HELP_WINDOW = 400
#: A variable written as a key: ``env["APP_HOOK"] =`` (not ``==``).
_WRITTEN = re.compile(r"""\[["']([A-Z][A-Z0-9_]{1,100})["']\] {0,3}=(?!=)""")


def variables_named(source: str) -> list[str]:
    """The variables ``source`` names in help texts or writes as keys."""
    out: set[str] = set()
    at = source.find("help=")
    while at >= 0:
        window = source[at + 5 : at + 5 + HELP_WINDOW]
        out.update(m.group() for m in VARIABLE.finditer(window) if _quoted(window, m.start()))
        at = source.find("help=", at + 5)
    if "] =" in source or "]=" in source:
        out.update(m.group(1) for m in _WRITTEN.finditer(source) if VARIABLE.fullmatch(m.group(1)))
    return sorted(out)


def _quoted(text: str, at: int) -> bool:
    """Is ``at`` inside a string of ``text`` (an odd count of quotes before it)?"""
    before = text[:at]
    return (before.count('"') - before.count('\\"')) % 2 == 1 or before.count("'") % 2 == 1
