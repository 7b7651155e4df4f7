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
    from configdrift.analysis import Analysis

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


#: Every rule's code, name, default severity and one-line summary: what a
#: report, a selection or a severity override needs, without loading the
#: rules themselves (their modules pull in the whole analysis).
CATALOG: dict[str, tuple[str, Severity, str]] = {
    "CD101": (
        "documented-not-accepted",
        Severity.ERROR,
        "docs describe a key that a strict schema rejects",
    ),
    "CD102": (
        "documented-not-read",
        Severity.WARNING,
        "docs describe a key that a lenient schema never reads",
    ),
    "CD103": ("undocumented", Severity.WARNING, "the schema accepts a key that no doc describes"),
    "CD104": (
        "default-mismatch",
        Severity.WARNING,
        "the documented default differs from the code's",
    ),
    "CD105": ("type-mismatch", Severity.WARNING, "the documented type differs from the code's"),
    "CD106": (
        "read-default-conflict",
        Severity.WARNING,
        "two reads of one key carry different defaults",
    ),
    "CD201": (
        "dead-accessor",
        Severity.ERROR,
        "code reads a config attribute or key the schema does not declare",
    ),
    "CD202": ("inert-option", Severity.WARNING, "the schema declares a key that nothing reads"),
    "CD301": (
        "example-rejected",
        Severity.ERROR,
        "an example config holds a key that a strict schema rejects",
    ),
    "CD302": (
        "example-ignored",
        Severity.WARNING,
        "an example config holds a key that a lenient schema never reads",
    ),
    "CD303": (
        "example-invalid-value",
        Severity.ERROR,
        "an example value has the wrong type or is not an allowed choice",
    ),
    "CD304": (
        "example-unparseable",
        Severity.INFO,
        "a block that looks like a config cannot be parsed even tolerantly",
    ),
    "CD401": (
        "removed-key-leftover",
        Severity.ERROR,
        "a removed key still appears in docs, examples, tests or code",
    ),
    "CD402": (
        "deprecated-key-documented",
        Severity.WARNING,
        "docs or examples still use a deprecated spelling",
    ),
    "CD403": (
        "removal-without-rejection",
        Severity.ERROR,
        "between two refs a key disappeared without a removal entry or deprecation",
    ),
    "CD404": (
        "removed-key-accepted",
        Severity.ERROR,
        "a key marked removed is still declared or read",
    ),
    "CD601": (
        "setting-default-mismatch",
        Severity.WARNING,
        "two spellings of one setting (key, variable, flag) have different defaults",
    ),
    "CD602": (
        "setting-type-mismatch",
        Severity.WARNING,
        "two spellings of one setting accept different types or choices",
    ),
    "CD603": (
        "setting-doc-default-mismatch",
        Severity.WARNING,
        "a spelling with no default of its own is documented with another than the setting's",
    ),
    "CD604": (
        "setting-docs-disagree",
        Severity.WARNING,
        "the doc entries of two spellings of one setting name different defaults",
    ),
    "CD501": ("source-empty", Severity.ERROR, "a doc or schema source yields no keys"),
    "CD502": ("unmapped-section", Severity.INFO, "a doc section's keys match no schema node"),
    "CD503": ("parse-error", Severity.WARNING, "a file could not be parsed"),
}
#: Codes reserved for a later capability: selectable, producing nothing yet.
PLANNED = frozenset({"CD502"})


def slug(code: str) -> str:
    """A rule's name (``documented-not-accepted``)."""
    return CATALOG[code][0]


#: The rules registered so far (as their modules load); ``configdrift.rules.RULES``
#: loads every rule module first.
REGISTERED: dict[str, Rule] = {}

_SECTIONS = ("What it finds", "Why it matters", "Example", "How to fix")


def register(code: str) -> Callable[[RuleFunction], RuleFunction]:
    """Register a rule function (its name, severity and summary are in
    ``CATALOG``); its docstring is the rule's documentation."""
    name, severity, summary = CATALOG[code]

    def wrap(func: RuleFunction) -> RuleFunction:
        REGISTERED[code] = Rule(code, name, severity, summary, func.__doc__ or "", "stable", func)
        return func

    return wrap


def describe(code: str, doc: str) -> None:
    """A stable rule that a command other than ``check`` produces
    (``configdrift diff``): documented here, run there."""
    name, severity, summary = CATALOG[code]
    REGISTERED[code] = Rule(code, name, severity, summary, doc, "stable", None)


def missing_sections(rule: Rule) -> list[str]:
    """Documentation sections a stable rule lacks."""
    return [s for s in _SECTIONS if f"{s}\n" not in rule.doc and f"{s}:" not in rule.doc]


def make(
    code: str,
    key: str,
    location: Location,
    message: str,
    related: tuple[Related, ...] = (),
    suggestion: str | None = None,
) -> Finding:
    """A finding of a rule; an unknown code fails loudly."""
    if code not in CATALOG:
        raise ValueError(f"unknown rule code {code!r}")
    return Finding(code, key, location, message, related, suggestion, CATALOG[code][1])
