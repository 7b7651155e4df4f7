"""Reporters: one module per format, each a function of the report data
(``output.report.ReportData``) to the text it writes; they format
findings, never decide anything. ``REPORTERS`` names them; a reporter's
module is imported when its format is asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from configdrift.output.report import ReportData

#: Each format's reporter, as ``module:function`` under ``configdrift.output``.
_FORMATS = {
    "text": "text:render_text",
    "json": "json_report:render_json",
    "sarif": "sarif:render_sarif",
    "github": "github:render_github",
    "junit": "junit:render_junit",
    "html": "html:render_html",
}


def _reporter(target: str) -> Callable[[ReportData], str]:
    module, _, name = target.partition(":")

    def render(data: ReportData) -> str:
        function: Callable[[ReportData], str] = getattr(
            importlib.import_module(f"configdrift.output.{module}"), name
        )
        return function(data)

    return render


REPORTERS: dict[str, Callable[[ReportData], str]] = {
    name: _reporter(target) for name, target in _FORMATS.items()
}
