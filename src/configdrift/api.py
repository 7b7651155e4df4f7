"""The library API: ``check(paths, **options) -> Report``.

The command line is a thin layer over it: it parses arguments, calls
``check`` and renders the report. Nothing here prints; what the command
line writes to standard error is in ``Report.messages``.

    >>> import configdrift
    >>> report = configdrift.check(["demo"])
    >>> report.status, report.counts()["errors"]
    (1, 5)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configdrift.config import Config, ConfigError
from configdrift.model import Finding, Severity, exit_code_for
from configdrift.output.display import Place

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import Location
    from configdrift.replay import Stored

__all__ = ["ConfigError", "Report", "SurfaceCount", "check"]


@dataclass(frozen=True, slots=True)
class SurfaceCount:
    """One configuration surface's keys: documented, accepted, read."""

    name: str
    documented: int
    accepted: int
    read: int


@dataclass(slots=True)
class Report:
    """What ``check`` found, over every project the paths name.

    ``findings`` have their paths as the command line prints them, from
    the current directory; ``places[i]`` holds finding ``i``'s fingerprint
    (of its root-relative form, as baselines keep it), column and line."""

    findings: list[Finding] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    files: int = 0
    documented: int = 0
    accepted: int = 0
    read: int = 0
    #: Example configs: read, checked, of them fragments placed by their
    #: section, unparseable.
    examples: tuple[int, int, int, int] = (0, 0, 0, 0)
    surfaces: list[SurfaceCount] = field(default_factory=list)
    #: Lines for the end of the text report (unused suppressions, stale
    #: baseline entries).
    notes: list[str] = field(default_factory=list)
    #: What the command line writes to standard error (setup messages,
    #: nothing to check, a baseline written).
    messages: list[str] = field(default_factory=list)
    #: 1 when a finding is at or above ``fail-on``, else 0.
    status: int = 0
    #: The roots of the projects checked.
    roots: list[Path] = field(default_factory=list)
    #: With ``check(keys=True)``: per surface, its coverage and its key
    #: table (``coverage.key_table``).
    keys: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Findings per severity: ``errors``, ``warnings``, ``infos``."""
        counts = {"errors": 0, "warnings": 0, "infos": 0}
        names = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "infos"}
        for f in self.findings:
            counts[names[f.severity or Severity.INFO]] += 1
        return counts


def check(
    paths: str | Path | Sequence[str | Path] = ".",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    extend_select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] | None = None,
    fail_on: str | None = None,
    config_file: str | Path | None = None,
    jobs: int | None = None,
    cache: bool = True,
    import_timeout: float | None = None,
    baseline: str | Path | None = None,
    write_baseline: bool = False,
    update_baseline: bool = False,
    diff_base: str | None = None,
    provenance: bool = False,
    progress: Callable[[int, int], None] | None = None,
    keys: bool = False,
) -> Report:
    """Check the projects ``paths`` name and return what was found.

    A directory is a project (its configuration is found from it, walking
    up); a file is checked within its project, and only findings that
    involve it (at either end) are kept, as pre-commit passes files.
    Several paths of one project are analysed once. ``select`` and
    ``ignore`` replace the configuration's, ``extend_select`` and
    ``extend_ignore`` add to them. Raises ``ConfigError``
    for a usage error: a missing path, a bad configuration, a rule code
    that names no rule, a git ref that cannot be read.

    With ``import_timeout``, example configs are also validated by the
    project's own models (exact mode; this runs the project's code). A
    baseline (``baseline``, or ``configdrift-baseline.json`` at the root
    when it exists) and ``diff_base`` (a git ref) leave out the findings
    they know; ``provenance`` adds each finding's git history; ``keys``
    fills ``Report.keys`` with each surface's key table (what the HTML
    report shows)."""
    from configdrift.output.display import prefix_for, prepare
    from configdrift.output.report import printable_finding

    given = [paths] if isinstance(paths, str | Path) else list(paths)
    if not given:
        raise ConfigError("no path given")
    targets = project_configs(
        [Path(p) for p in given],
        Path(config_file) if config_file is not None else None,
        select=tuple(select) if select is not None else None,
        ignore=tuple(ignore) if ignore is not None else None,
        extend_select=tuple(extend_select or ()),
        extend_ignore=tuple(extend_ignore or ()),
        fail_on=fail_on,
    )
    if (write_baseline or update_baseline or baseline) and len(targets) > 1:
        raise ConfigError("a baseline belongs to one project: the paths name several")
    report = Report()
    for config, only in targets:
        part = _check_project(
            config,
            only,
            report,
            jobs=jobs,
            cache=cache,
            import_timeout=import_timeout,
            baseline=baseline,
            write_baseline=write_baseline,
            update_baseline=update_baseline,
            diff_base=diff_base,
            provenance=provenance,
            progress=progress,
            keys=keys,
        )
        if part is None:
            continue
        shown, places = prepare(
            [printable_finding(f) for f in part], config.root, prefix_for(config.root)
        )
        report.findings += shown
        report.places += places
        report.roots.append(config.root)
        report.status = max(report.status, exit_code_for(part, config.fail_on))
    return report


def project_configs(
    paths: list[Path], explicit: Path | None, **overrides: object
) -> list[tuple[Config, set[str] | None]]:
    """Each project the paths name, once, with the files to report on
    (None: the whole project)."""
    import os

    from configdrift.config import load
    from configdrift.rules.registry import CATALOG

    projects: dict[Path, tuple[Config, set[str] | None]] = {}
    from configdrift.files import is_dir, unreachable

    for path in paths:
        if (problem := unreachable(path)) is not None:
            raise ConfigError(f"{shown(path)}: {problem}")
        is_file = not is_dir(path)
        config = load(_project_of(path) if is_file else path, explicit)
        config = config.with_overrides(**overrides)
        for code in (*config.select, *config.ignore, *config.severity):
            if not any(c.startswith(code) for c in CATALOG):
                raise ConfigError(f"no rule code starts with {code!r}")
        key = config.root.resolve()
        first, only = projects.setdefault(key, (config, set()))
        if not is_file:
            only = None
        elif only is not None:
            only = only | {os.path.relpath(path.resolve(), key).replace(os.sep, "/")}
        projects[key] = (first, only)
    return list(projects.values())


#: Files that mark a project's root when no configuration names it.
_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


def _project_of(file: Path) -> Path:
    """The project a file belongs to: the nearest directory above it with
    configdrift's configuration or a project's marker (pyproject.toml,
    setup.py, setup.cfg, .git), else the file's own directory."""
    from configdrift.files import exists, is_file

    folder = file.resolve().parent
    for directory in (folder, *folder.parents):
        if is_file(directory / "configdrift.toml") or any(
            exists(directory / marker) for marker in _PROJECT_MARKERS
        ):
            return directory
    return folder


def _check_project(
    config: Config,
    only: set[str] | None,
    report: Report,
    *,
    jobs: int | None,
    cache: bool,
    import_timeout: float | None,
    baseline: str | Path | None,
    write_baseline: bool,
    update_baseline: bool,
    diff_base: str | None,
    provenance: bool,
    progress: Callable[[int, int], None] | None,
    keys: bool = False,
) -> list[Finding] | None:
    """One project's findings (root-relative); its counts and messages go
    into ``report``. None when a baseline was written. With the cache, a
    project none of whose inputs changed replays its stored report."""
    from configdrift import replay
    from configdrift.discover import discover, unreadable_note
    from configdrift.escape import printable
    from configdrift.files import cache_note

    sources = discover(config)
    if cache and (note := cache_note(config.root)) is not None:
        report.messages.append(note)
    if (note := unreadable_note(sources.unreadable)) is not None:
        report.messages.append(printable(note))
    given = str(baseline) if baseline is not None else None
    replayable = (
        cache
        and import_timeout is None
        and not (write_baseline or update_baseline or diff_base or provenance or keys)
    )
    key = replay.inputs_key(config, sources, given) if replayable else None
    stored = replay.load(config.root, key) if key is not None else None
    analysis = None
    if stored is None:
        from configdrift.engine import analyse

        analysis = analyse(config, jobs=jobs, cache=cache, sources=sources)
        stored = _analysed(
            analysis, report, import_timeout, given, write_baseline, update_baseline, diff_base
        )
        if stored is None:  # a baseline was written
            return None
        if key is not None:
            replay.save(config.root, key, stored)
    findings = stored.findings
    if only is not None:
        findings = [
            f for f in findings if f.location.path in only or any(r.path in only for r in f.related)
        ]
    if provenance and analysis is not None:
        from configdrift.git import GitError
        from configdrift.history.provenance import provenance as history

        try:
            findings = history(analysis, findings, progress or (lambda done, total: None))
        except GitError as exc:
            raise ConfigError(f"--provenance: {exc}") from None
    report.messages += stored.messages
    report.notes += stored.notes
    surfaces = [SurfaceCount(*s) for s in stored.surfaces]
    report.files += stored.files
    report.documented += sum(s.documented for s in surfaces)
    report.accepted += sum(s.accepted for s in surfaces)
    report.read += sum(s.read for s in surfaces)
    report.examples = tuple(  # type: ignore[assignment]
        a + b for a, b in zip(report.examples, stored.examples, strict=True)
    )
    report.surfaces += surfaces
    if keys and analysis is not None:
        report.keys += _key_tables(analysis)
    return findings


def _key_tables(analysis: Analysis) -> list[dict[str, Any]]:
    """Each summarised surface's coverage and key table, with places as the
    command line prints them."""
    from configdrift.analysis import summarised
    from configdrift.coverage import as_json, key_table, surface_coverage
    from configdrift.escape import printable
    from configdrift.output.display import prefix_for, rebase

    prefix = prefix_for(analysis.config.root)

    def where(location: Location) -> str:
        return printable(f"{rebase(location.path, prefix)}:{location.line}")

    tables = []
    for surface in summarised(analysis):
        coverage = surface_coverage(surface)
        if not (coverage.accepted or coverage.entries):
            continue
        tables.append(
            {
                "surface": surface.surface,
                "coverage": as_json(coverage),
                "keys": key_table(surface, coverage, where),
            }
        )
    return tables


def _analysed(
    analysis: Analysis,
    report: Report,
    import_timeout: float | None,
    baseline: str | None,
    write_baseline: bool,
    update_baseline: bool,
    diff_base: str | None,
) -> Stored | None:
    """Rules, exact mode, suppressions, baseline, per-rule settings and
    links over an analysed project; None when a baseline was written (its
    notes go to ``report``)."""
    from configdrift.replay import Stored
    from configdrift.rules.evidence import keys_read
    from configdrift.rules.links import linked
    from configdrift.rules.run import allowed, run_rules, selected, with_severities

    config = analysis.config
    messages: list[str] = []
    findings = run_rules(analysis)
    if analysis.files == 0:
        # Nothing to check is no drift (as ruff says of an empty folder).
        messages.append(
            f"configdrift: nothing to check in {_where(config.root)}: "
            "no Python file, doc page or config file"
        )
        findings = []
    elif _unconfigured(analysis) and any(_setup_finding(f) for f in findings):
        # Discovery found nothing to compare: a setup question, not drift.
        findings = [f for f in findings if not _setup_finding(f)]
        messages.append(_setup_message(analysis, config.root).rstrip("\n"))
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
    findings = _unsuppressed(analysis, findings, notes)
    sources = _source_counts(analysis, _accepted(analysis))
    known = _known(
        analysis, findings, sources, baseline, write_baseline, update_baseline, diff_base, notes
    )
    if known is None:  # a baseline was written
        report.messages.extend(notes)
        return None
    from configdrift.analysis import summarised

    return Stored(
        findings=linked(with_severities(known, config)),
        files=analysis.files,
        surfaces=[
            (s.surface, len(s.entries), _accepted(s), keys_read(s)) for s in summarised(analysis)
        ],
        examples=(
            analysis.examples_read,
            sum(len(s.blocks) for s in analysis.everything),
            sum(1 for s in analysis.everything for _, _, base in s.blocks if base),
            len(analysis.unparseable),
        ),
        notes=notes,
        messages=messages,
    )


def shown(path: Path) -> str:
    """A path the user gave, printable whatever its bytes."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def _where(root: Path) -> str:
    """A project's root as seen from the current directory."""
    from configdrift.output.display import prefix_for

    return shown(Path(prefix_for(root) or "."))


#: The source-empty findings that only say discovery found nothing to compare.
_SETUP_MESSAGES = ("no Markdown page documents", "no config model is mounted")


def _setup_finding(finding: Finding) -> bool:
    return finding.code == "CD501" and finding.message.startswith(_SETUP_MESSAGES)


def _unconfigured(analysis: Analysis) -> bool:
    """Did the user leave discovery to find the sources (no ``docs``,
    ``mount`` or ``surfaces``)? Configured sources that yield nothing stay
    CD501."""
    config = analysis.config
    return not (config.docs or config.mount or config.surfaces)


def _setup_message(analysis: Analysis, path: Path) -> str:
    """What discovery found and did not, and how to go on: for each
    surface of the code, the pages that name its keys and the line of
    configuration that would compare them; the models built from a whole
    dict that ``mount`` could place."""
    shown = _where(path)
    lines = [f"configdrift: found no documented configuration in {shown}: nothing was compared."]
    found = [s for s in analysis.everything if s.schema.children]
    for surface in found:
        keys = len(surface.schema.children)
        what = surface.schema.model or surface.surface
        how = f"{surface.how}; " if surface.how and surface.how != what else ""
        lines.append(
            f"  in the code: {what} ({how}{keys} top-level key(s)), documented by no page read"
        )
        pages = naming_pages(analysis, surface)
        if not pages:
            lines.append(
                "    no page names three of its keys or more: document them, then name the page"
            )
            continue
        named = ", ".join(f"{page} ({hits} keys)" for page, hits in pages)
        lines.append(f"    pages that name its keys: {named}")
        best = _toml_list([page for page, _ in pages[:1]])
        if surface is analysis:
            lines.append(f"    to compare them, in [tool.configdrift]: docs = {best}")
        elif surface.target:
            lines.append(
                "    to compare them, in [tool.configdrift]: "
                f'surfaces.{surface.surface} = {{mount = "{surface.target}", docs = {best}}}'
            )
    surfaced = {s.schema.model for s in analysis.everything}
    candidates = [c for c in analysis.root_candidates if c.model not in surfaced and c.target]
    if candidates:
        lines.append("  models built from a whole dict, not placed in the config tree:")
        for cand in candidates[:5]:
            lines.append(
                f'    [tool.configdrift.mount] "" = "{cand.target}"  '
                f"({cand.model} at {cand.location}, {cand.how})"
            )
    if not found and not candidates:
        lines.append(
            "  in the code: no model, dict read key by key, command-line option, "
            "settings class or environment variable"
        )
    lines.append(
        f"  next: `configdrift map {shown}` shows what was found; `configdrift init {shown}` "
        "writes it into pyproject.toml"
    )
    return "\n".join(lines) + "\n"


#: The most pages suggested for one surface, and the fewest keys a page
#: must name to be suggested.
_MAX_SUGGESTED, _MIN_NAMED = 3, 3


def naming_pages(
    analysis: Analysis, surface: Analysis, relative: bool = True
) -> list[tuple[str, int]]:
    """The doc pages that name most of the surface's distinctive keys
    (``max_retries``, ``--dry-run``, ``timeout_seconds``), best first;
    paths from the current directory, or from the root (``relative``
    False)."""
    import re

    from configdrift.discover import HISTORY_PAGES
    from configdrift.files import read_or_none
    from configdrift.output.display import prefix_for, rebase

    keys = {
        spelling
        for node in surface.schema.walk()
        if node.path
        for spelling in (node.spellings or (node.key,))
        if "_" in spelling.strip("_-") or "-" in spelling.strip("_-") or len(spelling) >= 8
    }
    if not keys:
        return []
    token = re.compile(r"[-\w]+")
    counted = []
    for rel in analysis.pages:
        if HISTORY_PAGES.search(rel) or rel.rsplit("/", 1)[-1] in _AGENT_PAGES:
            continue  # the record of changes, or instructions to a coding agent
        data = read_or_none(analysis.config.root, rel, 2 * 1024 * 1024)
        if data is None:
            continue
        words = set(token.findall(data.decode("utf-8", "replace")))
        hits = len(keys & words)
        if hits >= _MIN_NAMED:
            shown = rebase(rel, prefix_for(analysis.config.root)) if relative else rel
            counted.append((shown, hits))
    counted.sort(key=lambda item: (-item[1], item[0]))
    return counted[:_MAX_SUGGESTED]


#: Pages written for coding agents, not for the project's users.
_AGENT_PAGES = frozenset({"AGENTS.md", "CLAUDE.md", "GEMINI.md", "CONVENTIONS.md"})


def _toml_list(items: list[str]) -> str:
    import json

    return "[" + ", ".join(json.dumps(item) for item in items) + "]"


def _known(
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
    from configdrift.history.refs import analyse_ref, resolve_ref
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
        notes.append(f"configdrift: wrote {len(findings)} finding(s) to {where}")
        return None
    if diff_base is not None:
        try:
            commit = resolve_ref(root, diff_base)
            then = analyse_ref(analysis.config, commit, None)
        except GitError as exc:
            raise ConfigError(f"--diff-base: {exc}") from None
        before = run_rules(then)
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


def _unsuppressed(analysis: Analysis, findings: list[Finding], notes: list[str]) -> list[Finding]:
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
                    f"{what} {now} key(s), down from {count} {then}",
                )
            )
    return out
