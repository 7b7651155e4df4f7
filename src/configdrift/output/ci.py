"""Machine formats for CI: SARIF 2.1.0, GitHub workflow annotations, JUnit XML.

Each writes its document to stdout and nothing else."""

from __future__ import annotations

import inspect
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from configdrift import __version__
from configdrift.model import Finding, Severity

if TYPE_CHECKING:
    from configdrift.output import ReportData

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _severity(finding: Finding) -> Severity:
    return finding.severity or Severity.INFO


def _region_line(line: int) -> int:
    return max(1, line)


def render_sarif(data: ReportData) -> str:
    """SARIF 2.1.0; artifact URIs are relative to ``%SRCROOT%``, the
    directory configdrift ran in (``originalUriBaseIds`` says where it is,
    so that code scanning resolves them)."""
    from configdrift.rules.registry import RULES

    codes = sorted(RULES)
    index = {code: i for i, code in enumerate(codes)}
    rules = []
    for code in codes:
        rule = RULES[code]
        doc = inspect.cleandoc(rule.doc) if rule.doc else rule.summary
        rules.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in rule.slug.split("-")),
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": doc.split("\n\n", 1)[0].replace("\n", " ")},
                "help": {"text": doc, "markdown": doc},
                "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
                "properties": {"slug": rule.slug, "status": rule.status},
            }
        )
    results = []
    for number, f in enumerate(data.findings):
        place = data.place(number)
        location = _location(f.location.path, f.location.line)
        location["physicalLocation"]["region"]["startColumn"] = place.column  # type: ignore[index]
        result: dict[str, object] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[_severity(f)],
            "message": {"text": f.message + (f" ({f.suggestion})" if f.suggestion else "")},
            "locations": [location],
            "partialFingerprints": {"configdrift/v1": place.fingerprint},
        }
        if f.related:
            result["relatedLocations"] = [
                {**_location(r.path, r.line), "id": i, "message": {"text": r.note}}
                for i, r in enumerate(f.related)
            ]
        results.append(result)
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "configdrift",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {
                    "%SRCROOT%": {
                        "uri": Path.cwd().resolve().as_uri().rstrip("/") + "/",
                        "description": {"text": "the directory configdrift ran in"},
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def _location(path: str, line: int) -> dict[str, object]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": quote(path, safe="/"), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": _region_line(line)},
        }
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(data: ReportData) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    from configdrift.rules.registry import slug

    command = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    lines = []
    for number, f in enumerate(data.findings):
        title = f"{f.code} {slug(f.code)}"
        body = f.message + (f" ({f.suggestion})" if f.suggestion else "")
        for rel in f.related:
            body += f"\n{rel.path}:{rel.line}: {rel.note}"
        props = (
            f"file={_escape_property(f.location.path)},line={_region_line(f.location.line)},"
            f"col={data.place(number).column},title={_escape_property(title)}"
        )
        lines.append(f"::{command[_severity(f)]} {props}::{_escape_data(body)}")
    return "".join(line + "\n" for line in lines)


def render_junit(data: ReportData) -> str:
    """JUnit XML: one test case per finding, failed at or above a warning."""
    from configdrift.rules.registry import slug

    findings = data.findings
    suite = ET.Element(
        "testsuite",
        name="configdrift",
        tests=str(max(1, len(findings))),
        failures=str(sum(1 for f in findings if _severity(f) is not Severity.INFO)),
        errors="0",
    )
    if not findings:
        ET.SubElement(suite, "testcase", classname="configdrift", name="no drift")
    for f in findings:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f.location.path,
            name=f"{f.code} {slug(f.code)}: {f.key or f.location.path}:{f.location.line}",
            file=f.location.path,
            line=str(f.location.line),
        )
        text = f"{f.location}: {f.message}"
        for rel in f.related:
            text += f"\n    {rel.path}:{rel.line}: {rel.note}"
        if _severity(f) is Severity.INFO:
            ET.SubElement(case, "system-out").text = text
        else:
            failure = ET.SubElement(case, "failure", message=f.message, type=f.code)
            failure.text = text
    suites = ET.Element("testsuites")
    suites.append(suite)
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )
