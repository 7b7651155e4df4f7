"""SARIF 2.1.0, for code scanning: the rules with their documentation as
help, each finding with its related places and a partial fingerprint."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from urllib.parse import quote

from configdrift.model import Severity
from configdrift.output.links import rule_url
from configdrift.output.report import ReportData, annotated_line, severity_of
from configdrift.version import __version__

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_sarif(data: ReportData) -> str:
    """SARIF 2.1.0; artifact URIs are relative to ``%SRCROOT%``, the
    directory configdrift ran in (``originalUriBaseIds`` says where it is,
    so that code scanning resolves them)."""
    from configdrift.rules import RULES

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
                **({"helpUri": rule_url(data.docs_url, code)} if data.docs_url else {}),
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
            "level": _SARIF_LEVEL[severity_of(f)],
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
            "region": {"startLine": annotated_line(line)},
        }
    }
