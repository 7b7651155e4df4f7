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
from configdrift.unconfigured import shown

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import Location

__all__ = ["ConfigError", "Report", "SurfaceCount", "check"]


@dataclass(frozen=True, slots=True)
class SurfaceCount:
    """One configuration surface's keys: documented, accepted, read, and
    compared (accepted keys a doc entry describes)."""

    name: str
    documented: int
    accepted: int
    read: int
    compared: int = 0
    #: Accepted keys no doc entry describes that a page renders from the
    #: code at build time (a generated command-line reference).
    rendered: int = 0
    #: Accepted keys no doc describes (CD103's, and the keys of a section
    #: it reports).
    undocumented: int = 0


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
    #: Accepted keys a doc entry describes: what was compared.
    compared: int = 0
    #: Accepted keys a page renders from the code at build time instead.
    rendered: int = 0
    #: Accepted keys no doc describes.
    undocumented: int = 0
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
    #: With ``check(keys=True)``: the settings with more than one spelling
    #: (``link.table``), of every project.
    settings: list[dict[str, Any]] = field(default_factory=list)

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

    A directory is its project (``project_of``: itself, or the nearest
    folder up that is one, which a message names); a file is checked
    within its project, and only findings that involve it (at either end)
    are kept, as pre-commit passes files.
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
    from configdrift import git
    from configdrift.output.display import prefix_for, prepare
    from configdrift.output.report import printable_finding

    git.new_run()
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
    from configdrift.escape import printable
    from configdrift.files import is_dir

    roots = [config.root.resolve() for config, _ in targets]
    for given_path in (Path(p) for p in given):
        folder = given_path.resolve()
        if is_dir(given_path) and folder not in roots:
            # The project found for it, the nearest root above it.
            root = max((r for r in roots if folder.is_relative_to(r)), key=lambda r: len(r.parts))
            report.messages.append(
                printable(
                    f"configdrift: {given_path} is inside the project at {root}: "
                    "checking the whole project"
                )
            )
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

    from configdrift.config import load
    from configdrift.rules.registry import CATALOG
    from configdrift.wording import suggestion

    projects: dict[Path, tuple[Config, set[str] | None]] = {}
    from configdrift.files import is_dir, unreachable

    for path in paths:
        if (problem := unreachable(path)) is not None:
            raise ConfigError(f"{shown(path)}: {problem}")
        is_file = not is_dir(path)
        # A folder inside a project (``docs/``) stands for its project, the
        # nearest folder up that is one, as with ruff and mypy.
        start = project_of(path) if is_file or explicit is None else path
        config = load(start, explicit)
        config = config.with_overrides(**overrides)
        for code in (*config.select, *config.ignore, *config.severity):
            if not any(c.startswith(code) for c in CATALOG):
                by_slug = {entry[0]: c for c, entry in CATALOG.items()}
                hint = (
                    f" (did you mean `{by_slug[code.lower()]}`?)"
                    if code.lower() in by_slug
                    else suggestion(code, CATALOG)
                )
                raise ConfigError(f"no rule code starts with {code!r}{hint}")
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


def project_of(path: Path) -> Path:
    """The project a file or a folder belongs to: the nearest directory
    from it up with configdrift's configuration or a project's marker
    (pyproject.toml, setup.py, setup.cfg, .git), else the file's own
    directory, or the folder itself."""
    from configdrift.files import exists, is_dir, is_file

    folder = path.resolve() if is_dir(path) else path.resolve().parent
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
    from configdrift.progress import stage

    stage(f"finding the files of {printable(str(config.root))}")
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
    found = None
    stored = None
    if replayable:
        kept = replay.entry(config.root)
        found = replay.inputs(config, sources, given, replay.stamps_of(kept))
        stored = replay.load(kept, found.key)
    analysis = None
    if stored is None:
        from configdrift.engine import analyse
        from configdrift.findings import settled

        analysis = analyse(config, jobs=jobs, cache=cache, sources=sources)
        stored = settled(
            analysis,
            report.messages,
            import_timeout,
            given,
            write_baseline,
            update_baseline,
            diff_base,
        )
        if stored is None:  # a baseline was written
            return None
        from configdrift.contradictions import contradictions

        stored.messages.extend(
            printable(note) for note in contradictions(analysis, jobs=jobs, cache=cache)
        )
        if found is not None:
            replay.save(config.root, found, stored)
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
    report.compared += sum(s.compared for s in surfaces)
    report.rendered += sum(s.rendered for s in surfaces)
    report.undocumented += sum(s.undocumented for s in surfaces)
    report.examples = tuple(  # type: ignore[assignment]
        a + b for a, b in zip(report.examples, stored.examples, strict=True)
    )
    report.surfaces += surfaces
    if keys and analysis is not None:
        report.keys += _key_tables(analysis)
        report.settings += _settings_table(analysis)
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


def _settings_table(analysis: Analysis) -> list[dict[str, Any]]:
    """The settings with more than one spelling, with places as the
    command line prints them."""
    from configdrift.link.table import settings_map
    from configdrift.output.display import places, prefix_for

    return settings_map(analysis, places(prefix_for(analysis.config.root)))
