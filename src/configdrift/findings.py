"""What an analysed project reports: its rules' findings, checked by the
project's own models in exact mode, less those the configuration, inline
suppressions, a baseline or a diff base leave out, with each rule's
severity and the links between findings; and the health floor (CD501 for a
source that yields less than half the keys it did).

``settled`` is the whole sequence; ``api`` calls it once per project (and
stores its result for replay), ``commands.writing`` reuses
``unsuppressed``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from configdrift.config import ConfigError
from configdrift.model import Finding
from configdrift.progress import stage
from configdrift.unconfigured import (
    built_note,
    setup_finding,
    setup_message,
    unconfigured,
    unread_note,
    where,
)
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.replay import Stored


def settled(
    analysis: Analysis,
    written: list[str],
    import_timeout: float | None,
    baseline: str | None,
    write_baseline: bool,
    update_baseline: bool,
    diff_base: str | None,
) -> Stored | None:
    """Rules, exact mode, suppressions, baseline, per-rule settings and
    links over an analysed project; None when a baseline was written (its
    notes go to ``written``)."""
    from configdrift.replay import Stored
    from configdrift.rules.links import linked
    from configdrift.rules.run import allowed, run_rules, selected, with_severities

    config = analysis.config
    discovered = unconfigured(analysis)
    messages: list[str] = []
    stage("running the rules")
    findings = run_rules(analysis)
    if analysis.files == 0:
        # Nothing to check is no drift (as ruff says of an empty folder).
        messages.append(
            f"configdrift: nothing to check in {where(config.root)}: "
            "no Python file, doc page or config file"
        )
        findings = []
    elif discovered and any(setup_finding(f) for f in findings):
        # Discovery found nothing to compare: a setup question, not drift.
        findings = [f for f in findings if not setup_finding(f)]
        messages.append(setup_message(analysis, config.root).rstrip("\n"))
    elif discovered and (note := unread_note(analysis)) is not None:
        messages.append(note)
    if discovered and (built := built_note(config.root)) is not None:
        messages.append(built)
    if import_timeout is not None:
        from configdrift.exact import ExactModeError, merge, run_exact

        try:
            exact, judged = run_exact(analysis, import_timeout)
        except ExactModeError as exc:
            raise ConfigError(f"--import: {exc}") from None
        exact = [f for f in exact if selected(f.code, config.select, config.ignore)]
        findings = merge(findings, exact, judged)
    findings = allowed(findings, config)
    notes: list[str] = []
    findings = unsuppressed(analysis, findings, notes)
    sources = _source_counts(analysis, _accepted(analysis))
    known = new_findings(
        analysis, findings, sources, baseline, write_baseline, update_baseline, diff_base, notes
    )
    if known is None:  # a baseline was written
        written.extend(notes)
        return None
    from configdrift.analysis import summarised

    return Stored(
        findings=linked(with_severities(known, config)),
        files=analysis.files,
        surfaces=[_surface_counts(s) for s in summarised(analysis)],
        examples=(
            analysis.examples_read,
            sum(len(s.blocks) for s in analysis.everything),
            sum(1 for s in analysis.everything for _, _, base in s.blocks if base),
            len(analysis.unparseable),
        ),
        notes=notes,
        messages=messages,
    )


def new_findings(
    analysis: Analysis,
    findings: list[Finding],
    sources: dict[str, int],
    baseline: str | None,
    write_baseline: bool,
    update_baseline: bool,
    diff_base: str | None,
    notes: list[str],
) -> list[Finding] | None:
    """The findings a baseline or a diff base does not know, with the
    health floor against the baseline; None when a baseline was written."""
    from collections import Counter

    from configdrift.config import ConfigError
    from configdrift.filter.baseline import DEFAULT_NAME, Baseline, BaselineError, only_new
    from configdrift.git import GitError
    from configdrift.history.refs import analysed_ref, resolve_ref
    from configdrift.model import fingerprint
    from configdrift.rules.run import run_rules

    root = analysis.config.root
    where = Path(baseline) if baseline else root / DEFAULT_NAME
    roots = (root,)
    if write_baseline:
        try:
            Baseline.of(findings, sources).write(where, roots)
        except OSError as exc:
            raise ConfigError(f"{where}: not written: {exc.strerror or exc}") from None
        notes.append(f"configdrift: wrote {counted(len(findings), 'finding')} to {where}")
        return None
    if diff_base is not None:
        try:
            commit = resolve_ref(root, diff_base)
            with analysed_ref(analysis.config, commit, None) as then:
                before = run_rules(then)
        except GitError as exc:
            raise ConfigError(f"--diff-base: {exc}") from None
        findings = only_new(findings, Counter(fingerprint(f) for f in before))
        findings += _shrunk(_source_counts(then, _accepted(then)), sources, f"at {diff_base}")
    if not baseline and not os.path.lexists(where):
        return findings
    try:
        base = Baseline.load(where, roots)
    except BaselineError as exc:
        raise ConfigError(str(exc)) from None
    stale = base.stale(findings)
    floor = _shrunk(base.sources, sources, "when the baseline was written")
    if update_baseline:
        try:
            base.updated(findings, sources).write(where, roots)
        except OSError as exc:
            raise ConfigError(f"{where}: not written: {exc.strerror or exc}") from None
        notes.append(f"configdrift: dropped {len(stale)} stale entr(y/ies) from {where}")
    elif stale:
        notes.append(
            f"Baseline {where.name}: {len(stale)} stale entr(y/ies), findings that are gone "
            "(--update-baseline drops them):"
        )
        from configdrift.output.display import prefix_for, rebase

        prefix = prefix_for(root)
        notes.extend(f"  {rebase(str(e['path']), prefix)}: {e['code']} {e['key']}" for e in stale)
    return base.new(findings) + floor


def unsuppressed(analysis: Analysis, findings: list[Finding], notes: list[str]) -> list[Finding]:
    """The findings no inline suppression or per-file ignore silences; the
    suppressions that silence nothing become notes."""
    from configdrift.filter.suppress import apply
    from configdrift.output.display import prefix_for, rebase
    from configdrift.rules.run import selected

    config = analysis.config
    prefix = prefix_for(config.root)
    files = {info.path for info in analysis.project.modules.values()} | set(analysis.pages)
    kept, unused = apply(findings, config.root, files, config.per_file_ignores)
    everything = not config.select and not config.ignore
    for s in unused:
        if (s.codes and all(selected(c, config.select, config.ignore) for c in s.codes)) or (
            not s.codes and everything
        ):
            what = f"[{', '.join(s.codes)}]" if s.codes else ""
            notes.append(
                f"{rebase(s.path, prefix)}:{s.line}: unused suppression `configdrift: ignore{what}`"
            )
    return kept


def _accepted(analysis: Analysis) -> int:
    from configdrift.analysis import accepted_nodes

    return len(accepted_nodes(analysis))


def _surface_counts(analysis: Analysis) -> tuple[str, int, int, int, int, int, int]:
    """One surface's summary: its name, doc entries, accepted keys, keys
    read, and of the accepted keys those compared (a doc entry of their own
    describes them), rendered (a page renders them from the code at build
    time instead) and undocumented, as the census counts them
    (``coverage.census``: coverage and map count the same)."""
    from configdrift.coverage import census
    from configdrift.model import COMPARED, RENDERED, UNDOCUMENTED
    from configdrift.rules.evidence import keys_read

    taken = census(analysis)
    return (
        analysis.surface,
        len(analysis.entries),
        len(taken.states),
        keys_read(analysis),
        taken.count(COMPARED),
        taken.count(RENDERED),
        taken.count(UNDOCUMENTED),
    )


def _source_counts(analysis: Analysis, accepted: int) -> dict[str, int]:
    """Keys per source, for the health floor: each doc page, each section
    of one (``page#Heading``), and ``<schema>``."""
    from collections import Counter

    sections = Counter(f"{e.location.path}#{e.section}" for e in analysis.entries if e.section)
    return (
        {d.path: d.entries for d in analysis.doc_sources} | dict(sections) | {"<schema>": accepted}
    )


def _shrunk(before: dict[str, int], sources: dict[str, int], then: str) -> list[Finding]:
    """CD501 for a source that yields less than half the keys it did
    before (in the baseline, at the diff base): a parser that broke, or a
    section emptied, must not pass silently."""
    from configdrift.model import Location
    from configdrift.rules.registry import make

    out: list[Finding] = []
    for source, count in sorted(before.items()):
        now = sources.get(source, 0)
        if count >= 4 and 2 * now < count:
            place = "." if source == "<schema>" else source.split("#", 1)[0]
            what = "the schema accepts" if source == "<schema>" else f"`{source}` yields"
            out.append(
                make(
                    "CD501",
                    "",
                    Location(place, 1),
                    f"{what} {counted(now, 'key')}, down from {count} {then}",
                )
            )
    return out
