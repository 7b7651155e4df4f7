"""Running the rules over a project's surfaces, and the selection,
allowances and severities the configuration sets for their findings."""

from __future__ import annotations

import dataclasses

from configdrift.analysis import Analysis
from configdrift.config import Config
from configdrift.model import Finding, Location, Severity


def selected(code: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """Selection by code prefix; the longer matching prefix wins (as in ruff)."""
    best_select = max((len(p) for p in select if code.startswith(p)), default=-1 if select else 0)
    best_ignore = max((len(p) for p in ignore if code.startswith(p)), default=-1)
    return best_select >= 0 and best_select >= best_ignore


#: Rules on the project as a whole, judged with its first surface only:
#: parse errors, source health, removals and deprecations.
PROJECT_RULES = frozenset(
    {
        "CD304",
        "CD401",
        "CD402",
        "CD403",
        "CD404",
        "CD501",
        "CD502",
        "CD503",
        "CD601",
        "CD602",
        "CD603",
    }
)


#: What a surface known only by the calls that build it (a function's
#: keyword arguments) is not judged on: its docs and its code's reads are
#: the model's own business; its examples are judged.
_NOT_BY_CALLS = frozenset({"CD103", "CD106", "CD201", "CD202"})


def run_rules(analysis: Analysis) -> list[Finding]:
    """Every finding of the selected rules, sorted by place."""
    from configdrift.rules import RULES

    config = analysis.config
    findings: list[Finding] = []
    seen: set[tuple[str, str, Location]] = set()
    for surface in analysis.everything:
        for code, rule in sorted(RULES.items()):
            if rule.check is None or not selected(code, config.select, config.ignore):
                continue
            if surface is not analysis and (
                code in PROJECT_RULES or (code in _NOT_BY_CALLS and surface.examples_only)
            ):
                continue
            for finding in rule.check(surface):
                if (finding.code, finding.key, finding.location) not in seen:
                    seen.add((finding.code, finding.key, finding.location))
                    if finding.severity is Severity.ERROR and _guide_to_the_past(finding):
                        finding = dataclasses.replace(finding, severity=Severity.WARNING)
                    # A project rule may name the surface a finding is on.
                    named = finding.surface or surface.surface
                    findings.append(dataclasses.replace(finding, surface=named))
    findings.sort(key=lambda f: (f.location.path, f.location.line, f.code, f.key))
    return findings


def _guide_to_the_past(finding: Finding) -> bool:
    """Is the finding on a migration or upgrade guide's page
    (``docs/about/migration.md``)? It shows the code of the version it
    leads to, which a later version may change again: what it says of
    today's code is told as a warning, never as an error."""
    path = finding.location.path.lower()
    return not path.endswith(".py") and ("migrat" in path or "upgrad" in path)


def allowed(findings: list[Finding], config: Config) -> list[Finding]:
    """The findings but the CD103 of keys ``allow-undocumented`` lets go
    undocumented (internal by design): before suppressions and baselines,
    which never see them."""
    from fnmatch import fnmatchcase

    globs = config.allow_undocumented
    if not globs:
        return findings
    return [
        f
        for f in findings
        if f.code != "CD103"
        or not any(
            fnmatchcase(f.key, glob) for glob in (*globs.get("*", ()), *globs.get(f.surface, ()))
        )
    ]


def with_severities(findings: list[Finding], config: Config) -> list[Finding]:
    """The findings at the severity ``severity`` sets for their codes (the
    longest matching prefix wins): once, on the findings reported."""
    if not config.severity:
        return findings
    out = []
    for finding in findings:
        prefixes = [p for p in config.severity if finding.code.startswith(p)]
        if prefixes:
            level = Severity(config.severity[max(prefixes, key=len)])
            finding = dataclasses.replace(finding, severity=level)
        out.append(finding)
    return out
