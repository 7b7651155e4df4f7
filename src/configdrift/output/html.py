"""``check --format html``: one self-contained page to look at.

The page holds everything it shows: its style and its script are inline,
its charts are inline SVG, and a Content-Security-Policy forbids it to load
anything (no network, no CDN) and runs only its own style and script, each
allowed by its hash. It shows the summary; a chart of findings per
rule and one of the documented share per section; the findings, with
filters by rule, severity and file and a text search; and per surface and
section the matrix of keys documented, accepted and read, each with links to
its ``file:line``. Every text of the project is escaped, its hidden
characters shown: a key or a message from a stranger's pull request is
shown, never run.

Everything is rendered here; the script only hides and shows rows, so the
page reads the same with scripting off.
"""

from __future__ import annotations

import json
from collections import Counter
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from configdrift.escape import printable_lines
from configdrift.model import Severity
from configdrift.output.links import file_url, is_web, rule_url
from configdrift.version import __version__
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.output.report import ReportData

_SEVERITIES = ("error", "warning", "info")
_COLOURS = {"error": "#c62828", "warning": "#b26a00", "info": "#1565c0"}

_STYLE = """
:root { color-scheme: light; --line: #d8dde3; --muted: #5f6b7a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #f6f8fa; }
header { background: #1d2330; color: #fff; padding: 16px 24px; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: #c5ccd6; }
main { padding: 16px 24px 48px; max-width: 1400px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 0 0 16px; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 110px; }
.card b { display: block; font-size: 20px; }
.card span { color: var(--muted); }
.error { color: #c62828; } .warning { color: #b26a00; } .info { color: #1565c0; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.chart { flex: 1 1 420px; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
svg .bar { cursor: pointer; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
.filters label { color: var(--muted); }
select, input[type=search] { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; max-width: 320px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: #eef1f5; position: sticky; top: 0; }
td.where, td.place { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
code, .key { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
td.where, td.key { max-width: 280px; overflow-wrap: anywhere; }
td.place { overflow-wrap: anywhere; }
/* A path may break anywhere; its line number never does. */
.line { white-space: nowrap; }
.related { color: var(--muted); margin: 2px 0 0; padding-left: 16px; }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.yes { color: #2e7d32; } .no { color: #c62828; font-weight: 600; }
tr.gap { background: #fff6f5; }
table.matrix { table-layout: fixed; }
table.matrix th:first-child { width: 31%; }
details > summary { cursor: pointer; padding: 4px 0; }
.count { color: var(--muted); }
pre { white-space: pre-wrap; margin: 4px 0; font-size: 12px; }
a { color: #0b57d0; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var byId = function (id) { return document.getElementById(id); };
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.finding"));
  function applyFindings() {
    var rule = byId("f-rule").value, severity = byId("f-severity").value;
    var file = byId("f-file").value, text = byId("f-text").value.toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!rule || row.dataset.rule === rule) &&
        (!severity || row.dataset.severity === severity) &&
        (!file || row.dataset.file === file) &&
        (!text || row.textContent.toLowerCase().indexOf(text) >= 0);
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    byId("f-count").textContent = shown + " of " + rows.length + " findings shown";
  }
  ["f-rule", "f-severity", "f-file"].forEach(function (id) {
    byId(id).addEventListener("change", applyFindings);
  });
  byId("f-text").addEventListener("input", applyFindings);
  Array.prototype.forEach.call(document.querySelectorAll("[data-filter-rule]"), function (bar) {
    bar.addEventListener("click", function () {
      byId("f-rule").value = bar.getAttribute("data-filter-rule");
      applyFindings();
      byId("findings").scrollIntoView();
    });
  });
  var keys = Array.prototype.slice.call(document.querySelectorAll("tr.key"));
  function applyKeys() {
    var gaps = byId("k-gaps").checked, text = byId("k-text").value.toLowerCase();
    var shown = 0;
    keys.forEach(function (row) {
      var ok = (!gaps || row.classList.contains("gap")) &&
        (!text || row.dataset.key.toLowerCase().indexOf(text) >= 0);
      row.hidden = !ok;
      if (ok) { shown += 1; }
    });
    byId("k-count").textContent = shown + " of " + keys.length + " keys shown";
    Array.prototype.forEach.call(document.querySelectorAll("details.section"), function (block) {
      block.hidden = !block.querySelector("tr.key:not([hidden])");
    });
  }
  byId("k-gaps").addEventListener("change", applyKeys);
  byId("k-text").addEventListener("input", applyKeys);
  applyFindings();
  applyKeys();
})();
"""


def _digest(text: str) -> str:
    """A content-security-policy source that allows exactly this inline
    element's text: the page's own style and script run, nothing else
    would (an injected element, an event handler, a style attribute)."""
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def _e(text: object) -> str:
    """Text of the tree in the page: hidden characters shown (``\\u202e``),
    then escaped for HTML."""
    return escape(printable_lines(str(text)), quote=True)


def _place(text: str, base: str) -> str:
    """A ``file:line`` as a link to the file (from ``base``, the way from
    the page's folder to the paths' folder)."""
    if not text:
        return ""
    parts = text.rsplit(":", 1)
    numbered = parts[-1].isdigit()
    path = parts[0] if numbered else text
    shown = f'{_e(path)}<span class="line">:{_e(parts[-1])}</span>' if numbered else _e(text)
    if is_web(base):
        href = file_url(base, path, int(parts[-1]) if numbered else None)
    else:
        href = quote(f"{base}{path}" if base else path)
    return f'<a href="{_e(href)}">{shown}</a>'


def _message(text: str) -> str:
    """A finding's message with its backtick spans as code (escaped like
    every other text of the project)."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: shown as it is
        return _e(text)
    return "".join(
        _e(part) if i % 2 == 0 else f"<code>{_e(part)}</code>" for i, part in enumerate(parts)
    )


def _rule(code: str, docs: str) -> str:
    """A finding's rule code, linked to its page when the docs site is known."""
    if not docs:
        return f"<code>{_e(code)}</code>"
    return f'<a href="{_e(rule_url(docs, code))}"><code>{_e(code)}</code></a>'


def render_html(data: ReportData) -> str:
    """The report as one self-contained HTML page."""
    counts = Counter((f.severity or Severity.INFO).value for f in data.findings)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"style-src '{_digest(_STYLE)}'; script-src '{_digest(_SCRIPT)}'; img-src data:\">",
        "<title>configdrift report</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        "<header><h1>configdrift report</h1>"
        f"<p>configdrift {_e(__version__)}: {counted(len(data.findings), 'finding')} in "
        f"{counted(data.files, 'file')}</p></header>",
        "<main>",
        _summary(data, counts),
        _charts(data),
        _findings(data),
        _keys(data),
        _settings(data),
        "</main>",
        f"<script>{_SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _summary(data: ReportData, counts: Counter[str]) -> str:
    cards = [
        *(
            f'<div class="card"><b class="{s}">{counts.get(s, 0)}</b><span>{s}s</span></div>'
            for s in _SEVERITIES
        ),
        f'<div class="card"><b>{data.files}</b><span>files</span></div>',
        f'<div class="card"><b>{data.accepted}</b><span>keys accepted</span></div>',
        f'<div class="card"><b>{data.accepted - data.undocumented}</b>'
        "<span>keys documented</span></div>",
        f'<div class="card"><b>{data.read}</b><span>keys read</span></div>',
        f'<div class="card"><b>{data.compared}</b><span>keys compared</span></div>',
        *(
            [f'<div class="card"><b>{data.rendered}</b><span>keys rendered</span></div>']
            if data.rendered
            else []
        ),
        f'<div class="card"><b>{data.documented}</b><span>doc entries</span></div>',
    ]
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td>{a}</td><td>{a - u}</td><td>{c}</td><td>{g}</td>"
        f"<td>{r}</td><td>{d}</td></tr>"
        for name, d, a, r, c, g, u in data.surfaces
    )
    surfaces = (
        "<h3>Surfaces</h3><table><thead><tr><th>surface</th><th>accepted</th>"
        "<th>documented</th><th>compared</th><th>rendered</th><th>read</th>"
        "<th>doc entries</th></tr></thead>"
        f"<tbody>{rows}</tbody>"
        "</table>"
        if data.surfaces
        else ""
    )
    read, checked, placed, broken = data.examples
    examples = (
        f'<p class="count">Example configs: {read} read, {checked} checked '
        f"({counted(placed, 'fragment')} placed by their section), {read - checked} not placed, "
        f"{broken} unparseable.</p>"
    )
    return (
        f'<section id="summary"><h2>Summary</h2><div class="cards">{"".join(cards)}</div>'
        f"{surfaces}{examples}</section>"
    )


def _bars(items: list[tuple[str, float, str, str]], width: int = 520, unit: str = "") -> str:
    """A horizontal bar chart: (label, value, colour, rule to filter by)."""
    if not items:
        return '<p class="count">Nothing to chart.</p>'
    top = max(value for _, value, _, _ in items) or 1
    label_width = min(280, 16 + 7 * max(len(label) for label, _, _, _ in items))
    room = width - label_width - 60
    row = 22
    out = [
        f'<svg role="img" width="{width}" height="{row * len(items) + 4}" '
        f'viewBox="0 0 {width} {row * len(items) + 4}">'
    ]
    for index, (label, value, colour, rule) in enumerate(items):
        y = index * row + 2
        length = max(1, round(room * value / top))
        shown = f"{value:.0f}{unit}" if unit else f"{value:g}"
        attribute = f' data-filter-rule="{_e(rule)}"' if rule else ""
        out.append(
            f'<g class="bar"{attribute}><title>{_e(label)}: {_e(shown)}</title>'
            f'<text x="{label_width - 6}" y="{y + 14}" text-anchor="end">{_e(label[:38])}</text>'
            f'<rect x="{label_width}" y="{y + 3}" width="{length}" height="15" rx="2" '
            f'fill="{colour}"/>'
            f'<text x="{label_width + length + 6}" y="{y + 14}">{_e(shown)}</text></g>'
        )
    out.append("</svg>")
    return "".join(out)


def _charts(data: ReportData) -> str:
    rules: Counter[str] = Counter(f.code for f in data.findings)
    worst: dict[str, str] = {}
    for f in data.findings:
        severity = (f.severity or Severity.INFO).value
        if f.code not in worst or _SEVERITIES.index(severity) < _SEVERITIES.index(worst[f.code]):
            worst[f.code] = severity
    by_rule = [
        (code, float(count), _COLOURS[worst[code]], code)
        for code, count in sorted(rules.items(), key=lambda item: (-item[1], item[0]))
    ]
    shares: list[tuple[str, float, str, str]] = []
    for table in data.keys:
        coverage = table["coverage"]
        sections = coverage["sections"] or [
            {"name": "(all keys)", "documented_share": coverage["documented_share"]}
        ]
        for section in sections:
            share = float(section["documented_share"])
            colour = "#2e7d32" if share >= 90 else "#b26a00" if share >= 50 else "#c62828"
            label = (
                f"{table['surface']}: {section['name']}" if len(data.keys) > 1 else section["name"]
            )
            shares.append((label, share, colour, ""))
    return (
        '<section id="charts"><h2>At a glance</h2><div class="charts">'
        f'<div class="chart"><h3>Findings per rule</h3>{_bars(by_rule)}</div>'
        f'<div class="chart"><h3>Documented share per section</h3>'
        f"{_bars(shares, unit='%')}</div></div></section>"
    )


def _findings(data: ReportData) -> str:
    files = sorted({f.location.path for f in data.findings})
    codes = sorted({f.code for f in data.findings})

    def options(values: list[str] | tuple[str, ...]) -> str:
        return "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)

    filters = (
        '<div class="filters">'
        f'<label for="f-rule">rule</label><select id="f-rule"><option value="">all</option>'
        f"{options(codes)}</select>"
        f'<label for="f-severity">severity</label><select id="f-severity">'
        f'<option value="">all</option>{options(_SEVERITIES)}</select>'
        f'<label for="f-file">file</label><select id="f-file"><option value="">all</option>'
        f"{options(files)}</select>"
        '<input id="f-text" type="search" placeholder="search key or message" '
        'aria-label="search findings">'
        f'<span id="f-count" class="count">{len(data.findings)} findings</span></div>'
    )
    rows = []
    for f in data.findings:
        severity = (f.severity or Severity.INFO).value
        place = f"{f.location.path}:{f.location.line}"
        related = "".join(
            f"<li>{_place(f'{r.path}:{r.line}', data.link_base)}: {_e(r.note)}</li>"
            for r in f.related
        )
        extra = f'<ul class="related">{related}</ul>' if related else ""
        if f.suggestion:
            extra += f'<p class="related">{_e(f.suggestion)}</p>'
        if f.provenance:
            extra += (
                "<details><summary>history</summary>"
                f"<pre>{_e(json.dumps(f.provenance, indent=1, sort_keys=True))}</pre></details>"
            )
        rows.append(
            f'<tr class="finding" data-rule="{_e(f.code)}" data-severity="{severity}" '
            f'data-file="{_e(f.location.path)}">'
            f'<td><span class="sev {severity}">{severity}</span></td>'
            f"<td>{_rule(f.code, data.docs_url)}</td>"
            f'<td class="key">{_e(f.key)}</td>'
            f'<td class="where">{_place(place, data.link_base)}</td>'
            f"<td>{_message(f.message)}{extra}</td></tr>"
        )
    table = (
        "<table><thead><tr><th>severity</th><th>rule</th><th>key</th><th>where</th>"
        f"<th>finding</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        if rows
        else '<p class="count">No findings.</p>'
    )
    return f'<section id="findings"><h2>Findings</h2>{filters}{table}</section>'


def _mark(places: list[str] | str | None, base: str) -> str:
    """A matrix cell: yes with the places, or no."""
    if places is None or places == []:
        return '<span class="no">no</span>'
    listed = [places] if isinstance(places, str) else places
    links = "<br>".join(_place(p, base) for p in listed if p)
    return f'<span class="yes">yes</span> {links}' if links else '<span class="yes">yes</span>'


def _keys(data: ReportData) -> str:
    filters = (
        '<div class="filters"><label><input id="k-gaps" type="checkbox"> only gaps</label>'
        '<input id="k-text" type="search" placeholder="search keys" aria-label="search keys">'
        '<span id="k-count" class="count"></span></div>'
    )
    blocks = []
    for table in data.keys:
        coverage = table["coverage"]
        sections: dict[str, list[dict[str, Any]]] = {}
        for row in table["keys"]:
            sections.setdefault(row["section"], []).append(row)
        shares = {s["name"]: s for s in coverage["sections"]}
        parts = [
            f"<h3>{_e(table['surface'])}: {coverage['documented']} of {coverage['accepted']} "
            f"accepted keys documented ({coverage['documented_share']}%), "
            f"{coverage['entries_accepted']} of {coverage['entries']} doc entries accepted "
            f"({coverage['accepted_share']}%)</h3>"
        ]
        for name, rows in sections.items():
            share = shares.get(name)
            told = (
                f" ({share['documented']} of {share['accepted']} documented, "
                f"{share['documented_share']}%)"
                if share
                else ""
            )
            body = "".join(
                f'<tr class="key{" gap" if not row["described"] or row["accepted"] is None else ""}" '
                f'data-key="{_e(row["key"])}"><td class="key">{_e(row["key"])}</td>'
                f'<td class="place">{_mark(row["documented"] or (None if not row["described"] else ""), data.link_base)}</td>'
                f'<td class="place">{_mark(row["accepted"], data.link_base)}</td>'
                f'<td class="place">{_mark(row["read"], data.link_base)}</td></tr>'
                for row in rows
            )
            parts.append(
                f'<details class="section" open><summary><b>{_e(name)}</b>{_e(told)}: '
                f"{counted(len(rows), 'key')}</summary>"
                '<table class="matrix"><thead><tr><th>key</th><th>documented</th><th>accepted</th>'
                f"<th>read</th></tr></thead><tbody>{body}</tbody></table></details>"
            )
        blocks.append("".join(parts))
    content = "".join(blocks) if blocks else '<p class="count">No configuration keys found.</p>'
    return f'<section id="keys"><h2>Keys by surface and section</h2>{filters}{content}</section>'


def _settings(data: ReportData) -> str:
    """One row per setting with more than one spelling, one column per
    surface: each spelling there with its default, declaration and doc."""
    if not data.settings:
        return ""
    # Config files first, then the environment, then the command lines.
    rank: dict[str, int] = {}
    for row in data.settings:
        for s in row["spellings"]:
            kind = ("key", "env", "flag").index(s["kind"])
            rank[s["surface"]] = min(rank.get(s["surface"], kind), kind)
    surfaces = sorted(rank, key=lambda name: (rank[name], name))
    clashing = {f.key for f in data.findings if f.code.startswith("CD6")}
    head = "".join(f"<th>{_e(name)}</th>" for name in surfaces)
    rows = []
    for setting in data.settings:
        cells = []
        for surface in surfaces:
            spelt = [s for s in setting["spellings"] if s["surface"] == surface]
            cells.append(
                '<td class="place">'
                + "<br>".join(_spelling_cell(s, data.link_base) for s in spelt)
                + "</td>"
            )
        odd = any(s["name"] in clashing for s in setting["spellings"])
        how = "; ".join(link["why"] for link in setting["links"])
        rows.append(
            f'<tr class="key{" gap" if odd else ""}"><td class="key" title="{_e(how)}">'
            f"{_e(setting['name'])}</td>{''.join(cells)}</tr>"
        )
    return (
        '<section id="settings"><h2>Settings and their spellings</h2>'
        f'<p class="count">{counted(len(data.settings), "setting")} with more than one '
        "spelling (a config key, an environment variable, a flag); a setting whose spellings "
        "disagree is marked.</p>"
        f'<table class="matrix"><thead><tr><th>setting</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )


def _spelling_cell(spelling: dict[str, Any], base: str) -> str:
    default = spelling["default"]
    told = f" = {_e(default)}" if default is not None else ""
    doc = (
        _place(spelling["doc"], base) if spelling["doc"] else '<span class="no">undocumented</span>'
    )
    return f"<code>{_e(spelling['name'])}</code>{told} {_place(spelling['declared'], base)} {doc}"
