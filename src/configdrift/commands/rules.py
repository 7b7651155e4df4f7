"""``configdrift rules`` and ``configdrift rule CODE``: the rules and their
documentation."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import ExitCode, usage_error

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers


def show_rules(
    code: str | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Print one rule's documentation, or the table of all rules."""
    from configdrift.rules import RULES
    from configdrift.rules.registry import CATALOG, PLANNED

    out = out or sys.stdout
    err = err or sys.stderr
    if code is None:
        # The catalog has all the table needs: no rule module is loaded.
        for number, (name, severity, summary) in sorted(CATALOG.items()):
            status = " (planned)" if number in PLANNED else ""
            out.write(f"{number}  {name:<28} {severity.value:<8} {summary}{status}\n")
        return ExitCode.OK
    found = RULES.get(code.upper()) or next(
        (rule for rule in RULES.values() if rule.slug == code.lower()), None
    )
    if found is None:
        usage_error(f"unknown rule {code!r} (a code or a name)", err)
        return ExitCode.USAGE
    out.write(f"{found.code} {found.slug} ({found.severity.value}, {found.status})\n\n")
    out.write(_plain(_dedent(found.doc)) if found.doc else found.summary + "\n")
    return ExitCode.OK


#: The sections of a rule's documentation, in order.
SECTIONS = ("What it finds", "Why it matters", "Example", "How to fix")


def rule_page(code: str) -> str:
    """A rule's page for the docs site, in Markdown, from the same text
    ``configdrift rule`` prints: its code, name, severity and sections."""
    from configdrift.rules import RULES

    rule = RULES[code]
    lines = [
        f"# {rule.code} {rule.slug}",
        "",
        f"Severity **{rule.severity.value}** by default ({rule.status}). "
        f"{rule.summary[:1].upper()}{rule.summary[1:]}.",
        "",
    ]
    for line in _dedent(rule.doc).replace("``", "`").splitlines():
        lines += [f"## {line}", ""] if line in SECTIONS else [line]
    lines += [
        "",
        f"`configdrift rule {rule.code}` prints this page. Where a finding is wrong, "
        "[Suppressions and baselines](../suppressions.md) says how to silence it there.",
    ]
    return "\n".join(lines) + "\n"


def _plain(text: str) -> str:
    """A rule's documentation as plain text: ````x```` reads as ``x``."""
    return text.replace("``", "")


def _dedent(text: str) -> str:
    import inspect

    return inspect.cleandoc(text) + "\n"


def register(sub: Subparsers) -> None:
    """``rules`` and ``rule CODE``, with their arguments."""
    sub.add_parser("rules", help="list every rule").set_defaults(run=lambda args: show_rules())
    p_rule = sub.add_parser("rule", help="print a rule's documentation")
    p_rule.add_argument("code", help="a rule's code or name (CD101, documented-not-accepted)")
    p_rule.set_defaults(run=lambda args: show_rules(args.code))
