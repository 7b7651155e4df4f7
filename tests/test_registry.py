from __future__ import annotations

import re
from pathlib import Path

import pytest

import configdrift.rules  # noqa: F401
from configdrift.model import Location
from configdrift.rules import RULES
from configdrift.rules.registry import make, missing_sections

DESIGN_TABLE = {
    "CD101": "documented-not-accepted",
    "CD102": "documented-not-read",
    "CD103": "undocumented",
    "CD104": "default-mismatch",
    "CD105": "type-mismatch",
    "CD106": "read-default-conflict",
    "CD201": "dead-accessor",
    "CD202": "inert-option",
    "CD301": "example-rejected",
    "CD302": "example-ignored",
    "CD303": "example-invalid-value",
    "CD304": "example-unparseable",
    "CD401": "removed-key-leftover",
    "CD402": "deprecated-key-documented",
    "CD403": "removal-without-rejection",
    "CD404": "removed-key-accepted",
    "CD501": "source-empty",
    "CD502": "unmapped-section",
    "CD503": "parse-error",
    "CD601": "setting-default-mismatch",
    "CD602": "setting-type-mismatch",
    "CD603": "setting-doc-default-mismatch",
    "CD604": "setting-docs-disagree",
}


def test_codes_and_slugs_are_the_contract() -> None:
    assert {code: rule.slug for code, rule in RULES.items()} == DESIGN_TABLE


@pytest.mark.parametrize("code", sorted(c for c, r in RULES.items() if r.status == "stable"))
def test_stable_rules_are_documented(code: str) -> None:
    rule = RULES[code]
    # CD403 comes from `configdrift diff` (tests/test_history.py), not `check`.
    assert rule.check is not None or code == "CD403"
    assert missing_sections(rule) == []


def test_unknown_code_fails_loudly() -> None:
    with pytest.raises(ValueError, match="unknown rule code"):
        make("CD999", "k", Location("a", 1), "m")


def test_the_configuration_page_documents_every_option() -> None:
    from configdrift.config import DEFAULTS

    readme = (Path(__file__).parent.parent / "docs" / "configuration.md").read_text()
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", readme, re.MULTILINE))
    assert documented == set(DEFAULTS)


def test_the_catalog_and_the_registered_rules_agree() -> None:
    from configdrift.rules.registry import CATALOG, PLANNED

    registered = {code for code, rule in RULES.items() if rule.status == "stable"}
    assert registered == set(CATALOG) - PLANNED
    for code, (name, severity, summary) in CATALOG.items():
        rule = RULES[code]
        assert (rule.slug, rule.severity, rule.summary) == (name, severity, summary)


def test_a_report_loads_no_rule_module() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from configdrift.output.report import ReportData\n"
        "from configdrift.output.text import render_text\n"
        "from configdrift.model import Finding, Location, Severity\n"
        "f = Finding('CD101', 'k', Location('a.md', 1), 'm', severity=Severity.ERROR)\n"
        "render_text(ReportData([f], 1, 1, 1, 1))\n"
        "print(sorted(m for m in sys.modules if m.startswith('configdrift.rules.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['configdrift.rules.registry']"
