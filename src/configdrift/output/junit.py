"""JUnit XML: one test case per finding, failed at or above a warning."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from configdrift.model import Severity
from configdrift.output.report import ReportData, severity_of


def render_junit(data: ReportData) -> str:
    """JUnit XML: one test case per finding, failed at or above a warning."""
    from configdrift.rules.registry import slug

    findings = data.findings
    suite = ET.Element(
        "testsuite",
        name="configdrift",
        tests=str(max(1, len(findings))),
        failures=str(sum(1 for f in findings if severity_of(f) is not Severity.INFO)),
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
        if severity_of(f) is Severity.INFO:
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
