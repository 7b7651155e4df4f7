"""One registry of every rule: code, slug, default severity, status, docs.

Codes are never reused and slugs are a contract (see DESIGN.md). A rule's
documentation has four sections: What it finds, Why it matters, Example, How
to fix. Rules that later issues implement are listed as ``planned`` so their
codes are reserved and selectable, but they produce nothing yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.model import Finding, Location, Related, Severity

if TYPE_CHECKING:
    from configdrift.engine import Analysis

RuleFunction = Callable[["Analysis"], Iterator[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    slug: str
    severity: Severity
    summary: str
    doc: str
    status: str = "stable"
    check: RuleFunction | None = None


RULES: dict[str, Rule] = {}

_SECTIONS = ("What it finds", "Why it matters", "Example", "How to fix")


def register(
    code: str, slug: str, severity: Severity, summary: str, status: str = "stable"
) -> Callable[[RuleFunction], RuleFunction]:
    """Register a rule function; its docstring is the rule's documentation."""

    def wrap(func: RuleFunction) -> RuleFunction:
        RULES[code] = Rule(code, slug, severity, summary, func.__doc__ or "", status, func)
        return func

    return wrap


def describe(code: str, slug: str, severity: Severity, summary: str, doc: str) -> None:
    """A stable rule that a command other than ``check`` produces
    (``configdrift diff``): documented here, run there."""
    RULES[code] = Rule(code, slug, severity, summary, doc, "stable", None)


def plan(code: str, slug: str, severity: Severity, summary: str) -> None:
    """Reserve a code that a later capability implements."""
    RULES[code] = Rule(code, slug, severity, summary, "", "planned", None)


def missing_sections(rule: Rule) -> list[str]:
    """Documentation sections a stable rule lacks."""
    return [s for s in _SECTIONS if f"{s}\n" not in rule.doc and f"{s}:" not in rule.doc]


def rule_for(code: str) -> Rule:
    try:
        return RULES[code]
    except KeyError:
        raise ValueError(f"unknown rule code {code!r}") from None


def make(
    code: str,
    key: str,
    location: Location,
    message: str,
    related: tuple[Related, ...] = (),
    suggestion: str | None = None,
) -> Finding:
    """A finding of a registered rule; an unknown code fails loudly."""
    return Finding(code, key, location, message, related, suggestion, rule_for(code).severity)


plan("CD502", "unmapped-section", Severity.INFO, "a doc section's keys match no schema node")
