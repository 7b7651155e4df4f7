"""Reporters: they format findings, never decide anything."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from configdrift import __version__
from configdrift.model import Finding, Severity
from configdrift.output.display import Paint, Place, excerpt
from configdrift.output.safe import printable, printable_lines

__all__ = ["REPORTERS", "ReportData", "fingerprint", "printable", "printable_lines"]


@dataclass(frozen=True, slots=True)
class ReportData:
    findings: list[Finding]
    files: int
    documented: int
    accepted: int
    read: int
    #: Example configs: (read, checked, of them fragments placed by their
    #: section, unparseable). Shown in text; the JSON summary is a contract.
    examples: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: Lines for the end of the text report (stale baseline entries).
    notes: list[str] = field(default_factory=list)
    #: Per configuration surface: (name, documented, accepted, read).
    surfaces: list[tuple[str, int, int, int]] = field(default_factory=list)
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
    link_base: str = ""

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


def fingerprint(finding: Finding) -> str:
    """Stable across unrelated edits: rule, key and file, not the line."""
    raw = "\0".join(
        (
            finding.code,
            printable(finding.key),
            printable(finding.location.path),
            printable(finding.message) if not finding.key else "",
        )
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def _counts(findings: list[Finding]) -> dict[str, int]:
    counts = {"errors": 0, "warnings": 0, "infos": 0}
    for f in findings:
        name = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "infos"}[
            f.severity or Severity.INFO
        ]
        counts[name] += 1
    return counts


def render_text(data: ReportData) -> str:
    from configdrift.rules.registry import slug as rule_slug

    lines: list[str] = []
    several = len(data.surfaces) > 1
    paint = data.paint
    for index, f in enumerate(data.findings):
        severity = f.severity or Severity.INFO
        slug = rule_slug(f.code)
        where = f", {f.surface}" if several and f.surface else ""
        place = data.place(index)
        lines.append(
            f"{paint(f'{f.location.path}:{f.location.line}:{place.column}:', 'path')} "
            f"{paint(f'{f.code} [{severity.value}]', severity)} {f.message} ({slug}{where})"
        )
        if data.show_source:
            lines.extend(paint(line, "dim") for line in excerpt(f.location.line, place))
        for rel in f.related:
            lines.append(f"    {rel.path}:{rel.line}: {rel.note}")
        if f.suggestion:
            lines.append(f"    {paint('help:', 'help')} {f.suggestion}")
        if f.provenance:
            lines.extend(f"    history: {line}" for line in f.provenance.get("summary", []))
    counts = _counts(data.findings)
    if data.findings:
        lines.append("")
    lines.append(
        f"Found {counts['errors']} error(s), {counts['warnings']} warning(s), {counts['infos']} info(s) "
        f"in {data.files} files; keys documented: {data.documented}, accepted: {data.accepted}, read: {data.read}."
    )
    if several:
        lines.append(
            "Surfaces: "
            + "; ".join(
                f"{name} (documented {d}, accepted {a}, read {r})"
                for name, d, a, r in data.surfaces
            )
            + "."
        )
    lines.extend(data.notes)
    read, checked, fragments, unparseable = data.examples
    if read:
        lines.append(
            f"Example configs: {read} read, {checked} checked ({fragments} fragment(s) placed "
            f"by their section), {read - checked - unparseable} not placed, {unparseable} unparseable."
        )
    return "\n".join(lines) + "\n"


def render_json(data: ReportData) -> str:
    from configdrift.rules.registry import slug as rule_slug

    findings = [
        {
            "code": f.code,
            "rule": rule_slug(f.code),
            "severity": (f.severity or Severity.INFO).value,
            "key": f.key,
            "path": f.location.path,
            "line": f.location.line,
            "column": data.place(index).column,
            "message": f.message,
            "related": [{"path": r.path, "line": r.line, "note": r.note} for r in f.related],
            "suggestion": f.suggestion,
            "fingerprint": data.place(index).fingerprint,
            "provenance": f.provenance,
            "surface": f.surface or None,
        }
        for index, f in enumerate(data.findings)
    ]
    document = {
        "version": 1,
        "tool": {"name": "configdrift", "version": __version__},
        "root": ".",
        "findings": findings,
        "summary": {
            **_counts(data.findings),
            "files": data.files,
            "keys": {"documented": data.documented, "accepted": data.accepted, "read": data.read},
            "surfaces": [
                {"name": name, "keys": {"documented": d, "accepted": a, "read": r}}
                for name, d, a, r in data.surfaces
            ],
        },
    }
    return json.dumps(document, indent=2) + "\n"


def _ci(name: str) -> Callable[[ReportData], str]:
    def render(data: ReportData) -> str:
        from configdrift.output import ci

        return {"sarif": ci.render_sarif, "github": ci.render_github, "junit": ci.render_junit}[
            name
        ](data)

    return render


def _html(data: ReportData) -> str:
    from configdrift.output.html import render_html

    return render_html(data)


REPORTERS: dict[str, Callable[[ReportData], str]] = {
    "text": render_text,
    "json": render_json,
    "sarif": _ci("sarif"),
    "github": _ci("github"),
    "junit": _ci("junit"),
    "html": _html,
}
