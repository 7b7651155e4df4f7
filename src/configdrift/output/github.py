"""GitHub Actions workflow commands: one annotation per finding, its data
escaped by the workflow command rules."""

from __future__ import annotations

from configdrift.model import Severity
from configdrift.output.report import ReportData, annotated_line, severity_of


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
            f"file={_escape_property(f.location.path)},line={annotated_line(f.location.line)},"
            f"col={data.place(number).column},title={_escape_property(title)}"
        )
        lines.append(f"::{command[severity_of(f)]} {props}::{_escape_data(body)}")
    return "".join(line + "\n" for line in lines)
