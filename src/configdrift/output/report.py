"""What a reporter is handed: the findings, their places and the counts.

Reporters (one module per format, listed in ``REPORTERS``) only format it;
they never decide anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from configdrift.escape import printable
from configdrift.model import Finding, Severity, fingerprint
from configdrift.output.display import Paint, Place


@dataclass(frozen=True, slots=True)
class ReportData:
    findings: list[Finding]
    files: int
    documented: int
    accepted: int
    read: int
    #: Accepted keys a doc entry describes: what was compared.
    compared: int = 0
    #: Accepted keys no doc entry describes that a page renders from the
    #: code at build time (a reference generated from a parser).
    rendered: int = 0
    #: Accepted keys no doc describes (what ``coverage`` counts missing).
    undocumented: int = 0
    #: Example configs: (read, checked, of them fragments placed by their
    #: section, unparseable). Shown in text; the JSON summary is a contract.
    examples: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: Lines for the end of the text report (stale baseline entries).
    notes: list[str] = field(default_factory=list)
    #: Per configuration surface: (name, doc entries, accepted, read, and
    #: of the accepted keys: compared, rendered, undocumented).
    surfaces: list[tuple[str, int, int, int, int, int, int]] = field(default_factory=list)
    #: Per finding, its fingerprint, column and line (``display.prepare``);
    #: when empty, fingerprints are taken of the findings as they are.
    places: list[Place] = field(default_factory=list)
    #: Text only: colour, and each finding's line with a caret under its key.
    paint: Paint = field(default_factory=lambda: Paint(False))
    show_source: bool = False
    #: HTML only: per surface, its coverage and key table
    #: (``api.Report.keys``), and the way from the page's folder to the
    #: folder the paths are written from (``""`` or ``../``).
    keys: list[dict[str, Any]] = field(default_factory=list)
    #: HTML only: the settings with more than one spelling (``link.table``).
    settings: list[dict[str, Any]] = field(default_factory=list)
    #: HTML: the way to the files (``../``), or their base URL (``--link-base``).
    link_base: str = ""
    #: The docs site's base URL, for links to the rule pages ("" for none).
    docs_url: str = ""
    #: Text: each finding's rule page under it.
    show_links: bool = False

    def place(self, index: int) -> Place:
        if self.places:
            return self.places[index]
        return Place(fingerprint(self.findings[index]))


def printable_finding(finding: Finding) -> Finding:
    """A finding whose every text ``printable`` keeps."""
    return replace(
        finding,
        key=printable(finding.key),
        message=printable(finding.message),
        location=replace(finding.location, path=printable(finding.location.path)),
        related=tuple(
            replace(r, path=printable(r.path), note=printable(r.note)) for r in finding.related
        ),
        suggestion=printable(finding.suggestion) if finding.suggestion is not None else None,
    )


#: Below this share of the accepted keys compared with a doc entry, a run
#: compared too little to stand for the project (discovery may have read
#: the wrong pages, or none).
THIN_SHARE = 0.1
#: ... where there are this many accepted keys at least.
THIN_KEYS = 10


def thin(compared: int, accepted: int, rendered: int = 0) -> bool:
    """Did a run compare nothing, or too small a share of what the code
    accepts? Keys a page renders from the code at build time need no
    comparison."""
    accepted -= rendered
    if accepted <= 0:
        return False
    return compared == 0 or (accepted >= THIN_KEYS and compared < THIN_SHARE * accepted)


def counts(findings: list[Finding]) -> dict[str, int]:
    counts = {"errors": 0, "warnings": 0, "infos": 0}
    for f in findings:
        name = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "infos"}[
            f.severity or Severity.INFO
        ]
        counts[name] += 1
    return counts


def severity_of(finding: Finding) -> Severity:
    """The finding's severity (info when no rule set one)."""
    return finding.severity or Severity.INFO


def annotated_line(line: int) -> int:
    """A finding's line as SARIF and annotations take it: 1 at least."""
    return max(1, line)


def key_counts(
    entries: int, accepted: int, read: int, compared: int, rendered: int, undocumented: int
) -> str:
    """The text's count of a run's keys, or one surface's: the accepted
    keys as ``coverage`` counts them (documented: all but the undocumented;
    of them compared, rendered, and those needing no entry), the keys read,
    and the doc entries."""
    spare = accepted - undocumented - compared - rendered
    parts = [f"compared: {compared}"]
    if rendered:
        parts.append(f"rendered at build time: {rendered}")
    if spare:
        parts.append(f"needing no entry: {spare}")
    return (
        f"keys accepted: {accepted}, documented: {accepted - undocumented} ({', '.join(parts)}), "
        f"read: {read}; doc entries: {entries}"
    )
