"""The JSON report (version 1, a contract: fields are only ever added)."""

from __future__ import annotations

import json

from configdrift.model import Severity
from configdrift.output.report import ReportData, counts, thin
from configdrift.schemas import SCHEMA_IDS
from configdrift.version import __version__


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
        "$schema": SCHEMA_IDS["report"],
        "version": 1,
        "tool": {"name": "configdrift", "version": __version__},
        "root": ".",
        "findings": findings,
        "summary": {
            **counts(data.findings),
            "files": data.files,
            "keys": {
                "documented": data.documented,
                "accepted": data.accepted,
                "read": data.read,
                "compared": data.compared,
                "rendered": data.rendered,
                "undocumented": data.undocumented,
                "entries": data.documented,
            },
            "thin": thin(data.compared, data.accepted, data.rendered),
            "surfaces": [
                {
                    "name": name,
                    "keys": {
                        "documented": d,
                        "accepted": a,
                        "read": r,
                        "compared": c,
                        "rendered": g,
                        "undocumented": u,
                        "entries": d,
                    },
                }
                for name, d, a, r, c, g, u in data.surfaces
            ],
        },
    }
    return json.dumps(document, indent=2) + "\n"
