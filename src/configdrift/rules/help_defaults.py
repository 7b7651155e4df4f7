"""An option's help text against its own declaration (CD104): the text
``--help`` shows, and a reference generated from the parser renders, that
states a default (``"Log level (default: `info`)."``, ``"Host [default:
127.0.0.1]"``, ``"Defaults to 5."``) other than the ``default=`` the same
call declares.

Both must be values: the help's a code span, a number or a truth value
that ends its clause, or what click's ``[default: ...]`` brackets hold;
the declaration's a literal. A default of ``None`` is taken as computed
at run time, and a statement that holds in some case only ("defaults to
`2` on Windows") states none. A help text that shows the declared
default itself (``%(default)s``) cannot differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.docs.prose_defaults import conditional, prose_default
from configdrift.model import Finding, Location, Related
from configdrift.rules.registry import make
from configdrift.rules.values import parse_doc_value, values_equal

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.python.facts import RegistrationCall

#: click's ``[default: x]`` (which ``show_default`` prints, and help texts
#: copy by hand), square brackets only: what they hold is the value.
_BRACKETED = re.compile(r"\[\s{0,3}default:?\s{1,3}([^\]\s]{1,80})\s{0,3}\]", re.IGNORECASE)

#: A help text that shows the declared default: argparse's ``%(default)s``,
#: a format field.
_SHOWN = ("%(default)", "{default}")


def help_default(text: str) -> str | None:
    """The default a help text states unconditionally, as written."""
    text = " ".join(text.split())
    if any(shown in text for shown in _SHOWN):
        return None
    stated = prose_default(text)
    if stated is not None:
        return stated
    found = list(_BRACKETED.finditer(text))
    if len(found) != 1 or conditional(text[found[0].end() :]):
        return None
    return found[0].group(1)


def help_defaults_differ(analysis: Analysis) -> Iterator[Finding]:
    """CD104 for each option the project declares with a help text
    (``add_argument``, click's ``option``, pytest's ``addoption``,
    Tornado's ``define``) that states another default than the
    declaration's."""
    if analysis.first is not None:
        return  # the project's code, judged once
    project = analysis.project
    for module, info in sorted(project.modules.items()):
        for call in info.facts.registrations:
            given = call.kwargs.get("default")
            text = _literal_help(call)
            if given is None or text is None:
                continue
            stated = help_default(text)
            if stated is None:
                continue
            value = project.evaluate(module, given)
            if value.value is None:
                continue  # not known statically, or computed at run time
            if values_equal(parse_doc_value(stated), value.value) is not False:
                continue
            flags = [project.string(module, arg) or "" for arg in call.args]
            flag = next((f for f in flags if f.startswith("--")), flags[0] if flags else "")
            if not flag:
                continue
            where = Location(info.path, call.line)
            yield make(
                "CD104",
                flag,
                where,
                f"the help text of `{flag}` says its default is {stated}, but the option "
                f"declares {value.value!r}: `--help` tells users another default than they get",
                (Related(where.path, where.line, "the option declares its default"),),
            )


def _literal_help(call: RegistrationCall) -> str | None:
    given = call.kwargs.get("help")
    if given is None or given[0] != "c" or not isinstance(given[1], str):
        return None
    return str(given[1])
