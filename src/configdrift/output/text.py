"""The text report: ``path:line:col: CODE [severity] message (slug)``, as
ruff prints it, with the related places, help and history under each."""

from __future__ import annotations

from configdrift.model import Severity
from configdrift.output.display import excerpt
from configdrift.output.links import rule_url
from configdrift.output.report import ReportData, counts, key_counts
from configdrift.wording import counted


def render_text(data: ReportData) -> str:
    from configdrift.rules.registry import slug as rule_slug

    lines: list[str] = []
    several = len(data.surfaces) > 1
    paint = data.paint
    for index, f in enumerate(data.findings):
        severity = f.severity or Severity.INFO
        slug = rule_slug(f.code)
        where = f", {f.surface}" if several and f.surface else ""
        place = data.place(index)
        lines.append(
            f"{paint(f'{f.location.path}:{f.location.line}:{place.column}:', 'path')} "
            f"{paint(f'{f.code} [{severity.value}]', severity)} {f.message} ({slug}{where})"
        )
        if data.show_source:
            lines.extend(paint(line, "dim") for line in excerpt(f.location.line, place))
        for rel in f.related:
            lines.append(f"    {rel.path}:{rel.line}: {rel.note}")
        if f.suggestion:
            lines.append(f"    {paint('help:', 'help')} {f.suggestion}")
        if data.show_links:
            page = (
                rule_url(data.docs_url, f.code) if data.docs_url else f"configdrift rule {f.code}"
            )
            lines.append(f"    {paint('docs:', 'help')} {page}")
        if f.provenance:
            lines.extend(f"    history: {line}" for line in f.provenance.get("summary", []))
    tally = counts(data.findings)
    if data.findings:
        lines.append("")
    lines.append(
        f"Found {counted(tally['errors'], 'error')}, {counted(tally['warnings'], 'warning')}, "
        f"{counted(tally['infos'], 'info', 'info')} "
        f"in {counted(data.files, 'file')}; "
        + key_counts(
            data.documented,
            data.accepted,
            data.read,
            data.compared,
            data.rendered,
            data.undocumented,
        )
        + "."
    )
    if several:
        lines.append("Surfaces:")
        lines.extend(
            f"  {name}: {key_counts(d, a, r, c, g, u)}." for name, d, a, r, c, g, u in data.surfaces
        )
    lines.extend(data.notes)
    read, checked, fragments, unparseable = data.examples
    if read:
        lines.append(
            f"Example configs: {read} read, {checked} checked ({counted(fragments, 'fragment')} placed "
            f"by their section), {read - checked - unparseable} not placed, {unparseable} unparseable."
        )
    return "\n".join(lines) + "\n"
