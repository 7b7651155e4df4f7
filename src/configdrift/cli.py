"""Command line: each subcommand parses arguments and calls a library function."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from configdrift.version import __version__

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.config import Config
    from configdrift.discover import Sources
    from configdrift.model import Finding, Location


class ExitCode(IntEnum):
    """Exit statuses, documented in the README and in docs/command-line.md."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    #: A bug of configdrift's: nothing was written to standard output.
    INTERNAL = 3


def _codes(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def _stamps(config: Config, sources: Sources) -> dict[str, tuple[int, int] | None]:
    """What tells a later change of each file an analysis reads (taken
    before it reads them), for the commands that edit them."""
    from configdrift.edits import pages

    root = str(config.root)
    return {
        rel: pages.stamp(root, rel)
        for rel in (*sources.read(), config.source_rel or "pyproject.toml")
    }


#: What ``sweep --apply`` writes in a registry of removed keys by default.
DEFAULT_REASON = "removed"


def _analyse(
    path: str,
    config_file: str | None,
    jobs: int | None,
    err: TextIO,
    cache: bool = True,
    stamps: dict[str, tuple[int, int] | None] | None = None,
) -> Analysis | None:
    """Load the configuration of the project ``path`` names and analyse it;
    print a usage error and return None on failure. ``stamps`` is filled
    with what tells a later change of each file read (for edits)."""
    from configdrift.api import project_configs
    from configdrift.config import ConfigError
    from configdrift.engine import analyse

    try:
        ((config, _),) = project_configs([Path(path)], Path(config_file) if config_file else None)
        sources = _discovered(config, cache)
        if stamps is not None:
            stamps.update(_stamps(config, sources))
        return analyse(config, jobs=jobs, cache=cache, sources=sources)
    except ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return None


def check(
    paths: str | Sequence[str] = ".",
    *,
    select: tuple[str, ...] | None = None,
    ignore: tuple[str, ...] | None = None,
    extend_select: tuple[str, ...] | None = None,
    extend_ignore: tuple[str, ...] | None = None,
    fail_on: str | None = None,
    output_format: str = "text",
    config_file: str | None = None,
    jobs: int | None = None,
    cache: bool = True,
    import_timeout: float | None = None,
    baseline: str | None = None,
    write_baseline: bool = False,
    update_baseline: bool = False,
    diff_base: str | None = None,
    with_provenance: bool = False,
    exit_zero: bool = False,
    quiet: bool = False,
    statistics: bool = False,
    output_file: str | None = None,
    color: str = "auto",
    show_source: bool | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``configdrift check``: run ``configdrift.api.check``, write the
    report, return the exit status.

    ``exit_zero`` exits 0 whatever was found (a usage error is still 2),
    ``quiet`` prints the findings alone (text), ``statistics`` a count per
    rule instead of the findings (text), and ``output_file`` writes the
    report there instead of to standard output. ``color`` is ``auto`` (a
    terminal, ``NO_COLOR``, ``FORCE_COLOR``), ``always`` or ``never``;
    ``show_source`` prints each finding's line with a caret under its key
    (default: when coloured)."""
    from configdrift import api
    from configdrift.output import REPORTERS
    from configdrift.output.display import Paint, use_colour
    from configdrift.output.report import ReportData

    out = out or sys.stdout
    err = err or sys.stderr
    show_progress = with_provenance and output_format == "text" and err.isatty()

    def progress(done: int, total: int) -> None:
        if show_progress:
            err.write(f"\rprovenance: {done}/{total} files")
            if done == total:
                err.write("\n")

    try:
        result = api.check(
            [paths] if isinstance(paths, str) else paths,
            select=select,
            ignore=ignore,
            extend_select=extend_select,
            extend_ignore=extend_ignore,
            fail_on=fail_on,
            config_file=config_file,
            jobs=jobs,
            cache=cache,
            import_timeout=import_timeout,
            baseline=baseline,
            write_baseline=write_baseline,
            update_baseline=update_baseline,
            diff_base=diff_base,
            provenance=with_provenance,
            progress=progress,
            keys=output_format == "html",
        )
    except api.ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    for message in result.messages:
        err.write(message + "\n")
    if write_baseline:
        return ExitCode.OK
    if result.notes and output_format != "text":
        err.write("\n".join(result.notes) + "\n")
    colour = output_format == "text" and use_colour(color, None if output_file else out)
    data = ReportData(
        result.findings,
        result.files,
        result.documented,
        result.accepted,
        result.read,
        examples=result.examples,
        notes=result.notes if output_format == "text" else [],
        surfaces=[(s.name, s.documented, s.accepted, s.read) for s in result.surfaces],
        places=result.places,
        paint=Paint(colour),
        show_source=colour if show_source is None else show_source,
        keys=result.keys,
        link_base=_link_base(output_file),
    )
    if statistics and output_format == "text":
        report = _statistics(data.findings)
    else:
        report = REPORTERS[output_format](data)
        if quiet and output_format == "text":
            report = "".join(
                line + "\n"
                for line in report.splitlines()
                if line and not line.startswith(("Found ", "Surfaces: ", "Example configs: "))
            )
    if output_file is not None:
        from configdrift.escape import guarded_text
        from configdrift.files import write_named

        text = guarded_text(report, output_format)
        try:
            write_named(output_file, text.encode("utf-8", "backslashreplace"), result.roots)
        except OSError as exc:
            print(f"configdrift: error: {output_file}: {exc.strerror or exc}", file=err)
            return ExitCode.USAGE
    else:
        out.write(report)
    return ExitCode.OK if exit_zero else result.status


def _link_base(output_file: str | None) -> str:
    """The way from the folder of a written report to the current folder,
    where the report's paths start (its links follow it)."""
    import os

    if output_file is None:
        return ""
    way = os.path.relpath(os.getcwd(), os.path.dirname(os.path.abspath(output_file)))
    return "" if way == "." else way.replace(os.sep, "/") + "/"


def _statistics(findings: list[Finding]) -> str:
    """A count per rule, most frequent first (as ``ruff --statistics``)."""
    from collections import Counter

    from configdrift.rules.registry import slug

    counts = Counter(f.code for f in findings)
    width = len(str(max(counts.values(), default=0)))
    return "".join(
        f"{count:>{width}}  {code}  {slug(code)}\n"
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    )


def diff_refs(
    base: str | None = None,
    head: str | None = None,
    *,
    path: str = ".",
    config_file: str | None = None,
    output_format: str = "text",
    fail_on: str | None = None,
    jobs: int | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Compare the config surface at two git refs (HEAD: the work tree when
    not given); CD403 for keys removed without a removal path."""
    from configdrift.config import ConfigError, load
    from configdrift.engine import analyse
    from configdrift.git import GitError
    from configdrift.history import (
        analyse_ref,
        compare,
        default_base,
        repository,
        resolve_ref,
    )
    from configdrift.model import exit_code_for
    from configdrift.rules.run import with_severities

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        config = load(Path(path), Path(config_file) if config_file else None)
        config = config.with_overrides(fail_on=fail_on)
        repository(config.root)
        base_commit = resolve_ref(config.root, base) if base else default_base(config.root)
        base_name = base or f"merge-base {base_commit[:10]}"
        base_analysis = analyse_ref(config, base_commit, jobs)
        if head:
            head_analysis = analyse_ref(config, resolve_ref(config.root, head), jobs)
            head_name = head
        else:
            head_analysis = analyse(config, jobs=jobs)
            head_name = "the work tree"
    except (ConfigError, GitError) as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    from configdrift.output.display import prefix_for, prepare, rebase
    from configdrift.output.report import ReportData, printable_finding

    findings, changes = compare(base_analysis, head_analysis, base_name, head_name)
    findings = with_severities(findings, config)
    prefix = prefix_for(config.root)
    shown, places = prepare([printable_finding(f) for f in findings], config.root, prefix)
    data = ReportData(shown, 0, 0, 0, 0, places=places)
    if output_format == "json":
        from configdrift.output.json_report import render_json

        document = json.loads(render_json(data))
        document["base"], document["head"] = base_name, head_name
        document["changes"] = [
            {
                "kind": c.kind,
                "key": c.key,
                "message": c.message,
                "path": rebase(c.location.path, prefix) if c.location else None,
                "line": c.location.line if c.location else None,
            }
            for c in changes
        ]
        del document["summary"]["files"], document["summary"]["keys"]
        out.write(json.dumps(document, indent=2) + "\n")
    else:
        from configdrift.output.text import render_text

        out.write(f"configdrift diff {base_name}..{head_name}\n\n")
        body = render_text(data).splitlines()
        out.write("\n".join(line for line in body if not line.startswith("Found ")) + "\n")
        if changes:
            out.write("Changes:\n")
            for c in changes:
                where = (
                    f" ({rebase(c.location.path, prefix)}:{c.location.line})" if c.location else ""
                )
                out.write(f"  {c.kind}: {c.message}{where}\n")
            out.write("\n")
        out.write(
            f"{len(findings)} key(s) removed without a removal path, {len(changes)} change(s).\n"
        )
    return exit_code_for(findings, config.fail_on)


def sweep_key(
    key: str,
    path: str = ".",
    *,
    config_file: str | None = None,
    output_format: str = "text",
    apply: bool = False,
    show_diff: bool = False,
    reason: str = DEFAULT_REASON,
    jobs: int | None = None,
    cache: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print every reference to ``key``, grouped by kind, with a removal
    checklist. Exit 0 when the key is referenced anywhere, 1 when not.
    With ``show_diff`` (or ``apply``), show (or write) the edits of the
    removal that are mechanical instead."""
    from configdrift.sweep import render_json, render_text, sweep

    out = out or sys.stdout
    err = err or sys.stderr
    if not key.strip(". "):
        err.write("configdrift: sweep: give a config key, such as zero_optimization.stage\n")
        return ExitCode.USAGE
    if (apply or show_diff) and output_format != "text":
        err.write("configdrift: sweep: --diff and --apply show a diff: no --format with them\n")
        return ExitCode.USAGE
    stamps: dict[str, tuple[int, int] | None] = {}
    analysis = _analyse(path, config_file, jobs, err, cache, stamps)
    if analysis is None:
        return ExitCode.USAGE
    from dataclasses import replace

    from configdrift.escape import printable
    from configdrift.output.display import prefix_for, rebase

    result = sweep(analysis, key)
    prefix = prefix_for(analysis.config.root)
    if apply or show_diff:
        return _sweep_edits(analysis, result, reason, stamps, apply, out, err)
    result.references = [
        replace(r, path=printable(rebase(r.path, prefix)), text=printable(r.text))
        for r in result.references
    ]
    out.write((render_json if output_format == "json" else render_text)(result))
    return ExitCode.OK if result.references else ExitCode.FINDINGS


def _sweep_edits(
    analysis: Analysis,
    result: Any,
    reason: str,
    stamps: dict[str, tuple[int, int] | None],
    apply: bool,
    out: TextIO,
    err: TextIO,
) -> int:
    """Show or write the mechanical edits of a key's removal, then list what
    is left to do by hand."""
    from configdrift.edits import pages, removal
    from configdrift.escape import printable
    from configdrift.model import format_path
    from configdrift.output.display import prefix_for, rebase

    key = format_path(result.key)
    if not result.references:
        print(printable(f"Nothing references `{key}`."), file=err)
        return ExitCode.FINDINGS
    root = str(analysis.config.root)
    prefix = prefix_for(analysis.config.root)
    planned = removal.plan(analysis, result, reason)
    if planned.created is not None:
        stamps.setdefault(planned.created[0], None)
    files = pages.by_file(planned.edits)
    written, made = _edit_files(root, prefix, files, stamps, apply, out, err, planned.created)
    left = sorted(planned.left, key=lambda item: (item[0].path, item[0].line))
    if left:
        print("left to do by hand:", file=out if apply else err)
        for ref, why in left:
            text = f" {ref.text}" if ref.text else ""
            # After the edits, at the line the reference has moved to.
            line = (
                pages.moved(ref.line, files[ref.path])
                if ref.path in written and apply
                else ref.line
            )
            print(
                printable(f"  {rebase(ref.path, prefix)}:{line}: {ref.kind}:{text} ({why})"),
                file=out if apply else err,
            )
    changed = len(written)
    if apply:
        print(f"Made {made} edit(s) in {changed} file(s).", file=err)
        return ExitCode.OK
    if made:
        print(f"{made} edit(s) in {changed} file(s); run with --apply to make them.", file=err)
        return ExitCode.FINDINGS
    print(f"Nothing to edit for `{key}`.", file=err)
    return ExitCode.OK


def map_tree(
    paths: str | Sequence[str] = ".",
    *,
    config_file: str | None = None,
    unresolved: bool = False,
    output_format: str = "text",
    jobs: int | None = None,
    cache: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print the surfaces, each one's resolved config tree and how each doc
    section was mapped, for each project the paths name (text or JSON)."""
    from configdrift.config import ConfigError

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        maps = [
            project_map(analysis, unresolved)
            for analysis in _analysed_projects(paths, config_file, jobs, cache)
        ]
    except ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    if output_format == "json":
        out.write(json.dumps({"version": 1, "projects": maps}, indent=2) + "\n")
        return ExitCode.OK
    for index, project in enumerate(maps):
        if len(maps) > 1:
            out.write(f"{chr(10) if index else ''}== {project['root']} ==\n")
        _map_text(project, out)
    return ExitCode.OK


def fix_tree(
    paths: str | Sequence[str] = ".",
    *,
    config_file: str | None = None,
    apply: bool = False,
    unsafe: bool = False,
    add_missing: bool = False,
    jobs: int | None = None,
    cache: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Show (or with ``apply`` write) the doc edits that fix findings;
    with ``unsafe``, the unsafe fixes too (keys renamed to a near spelling);
    with ``add_missing``, a doc entry for each undocumented key."""
    from configdrift.config import ConfigError
    from configdrift.edits import fix, pages, renames
    from configdrift.escape import printable
    from configdrift.output.display import prefix_for, rebase

    out = out or sys.stdout
    err = err or sys.stderr
    changed = fixed = hidden = undocumented = 0
    try:
        for config, only in _targets(paths, config_file):
            root = str(config.root)
            prefix = prefix_for(config.root)
            sources = _discovered(config, cache)
            stamps = _stamps(config, sources)
            analysis, before = _reported(config, jobs, cache, sources)
            findings = before
            if only is not None:
                # Files named: the fixes that edit them.
                findings = [f for f in findings if f.location.path in only]
            planned = fix.plan_all(analysis, findings, unsafe, add_missing)
            if not unsafe:
                hidden += sum(1 for f in findings if f.code in renames.UNSAFE and renames.near(f))
            if not add_missing:
                undocumented += sum(1 for f in findings if f.code == "CD103")
            files = pages.by_file(planned.edits)
            for finding, why in planned.skipped:
                where = rebase(finding.location.path, prefix)
                print(
                    printable(
                        f"{where}:{finding.location.line}: {finding.code} `{finding.key}` "
                        f"not fixed: {why}"
                    ),
                    file=err,
                )
            written, made = _edit_files(root, prefix, files, stamps, apply, out, err)
            changed += len(written)
            fixed += made
            if apply and written:
                _recheck(before, _reported(config, jobs, cache)[1], prefix, err)
    except ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    if hidden:
        print(
            f"{hidden} more fix(es) (keys renamed to a near spelling) with --unsafe-fixes.",
            file=err,
        )
    if undocumented:
        print(
            f"{undocumented} undocumented key(s): --add-missing writes their entries.",
            file=err,
        )
    if apply:
        print(f"Fixed {fixed} finding(s) in {changed} file(s).", file=err)
        return ExitCode.OK
    if fixed:
        print(f"{fixed} fix(es) in {changed} file(s); run with --apply to write them.", file=err)
        return ExitCode.FINDINGS
    print("Nothing to fix.", file=err)
    return ExitCode.OK


def _reported(
    config: Config, jobs: int | None, cache: bool, sources: Sources | None = None
) -> tuple[Analysis, list[Finding]]:
    """A project analysed, and the findings ``check`` reports for it (after
    ``select``, ``ignore`` and suppression comments)."""
    from configdrift.api import _unsuppressed
    from configdrift.engine import analyse
    from configdrift.rules.run import allowed, run_rules

    analysis = analyse(config, jobs=jobs, cache=cache, sources=sources)
    return analysis, _unsuppressed(analysis, allowed(run_rules(analysis), config), [])


def _recheck(before: list[Finding], after: list[Finding], prefix: str, err: TextIO) -> None:
    """After edits, what a check finds gone and what it finds new (a fix
    that brings a finding is named, never hidden)."""
    from collections import Counter

    from configdrift.escape import printable
    from configdrift.output.display import rebase

    def ident(f: Finding) -> tuple[str, str, str]:
        return (f.code, f.key, f.location.path)  # lines move with the edits

    gone = Counter(map(ident, before)) - Counter(map(ident, after))
    new = Counter(map(ident, after)) - Counter(map(ident, before))
    print(f"Re-checked: {sum(gone.values())} finding(s) gone, {sum(new.values())} new.", file=err)
    for f in after:
        if new[ident(f)] > 0:
            new[ident(f)] -= 1
            where = f"{rebase(f.location.path, prefix)}:{f.location.line}"
            print(printable(f"  new: {where}: {f.code} {f.message}"), file=err)


def _edit_files(
    root: str,
    prefix: str,
    files: dict[str, list[Any]],
    stamps: dict[str, tuple[int, int] | None],
    apply: bool,
    out: TextIO,
    err: TextIO,
    created: tuple[str, str] | None = None,
) -> tuple[list[str], int]:
    """Show the edits of each file as a diff, or with ``apply`` write them
    (and create ``created``, a new file); a file that changed since it was
    read is skipped with a note. The files changed (or shown) and the
    edits made."""
    from configdrift.edits import pages
    from configdrift.escape import printable, printable_lines
    from configdrift.files import create_file, write_file
    from configdrift.output.display import rebase

    changed: list[str] = []
    made = 0
    if apply:
        for rel in pages.dirty(root, sorted(files)):
            print(printable(f"warning: {rebase(rel, prefix)} has uncommitted changes"), file=err)
    for rel, edits in sorted(files.items()):
        shown = rebase(rel, prefix)
        now = pages.edited(root, rel, edits)
        if now is None or pages.stamp(root, rel) != stamps.get(rel):
            print(printable(f"{shown}: changed since it was read, skipped"), file=err)
            continue
        before, after = now
        if apply:
            try:
                write_file(root, rel, after)
            except OSError as exc:
                print(printable(f"{shown}: not written ({exc})"), file=err)
                continue
        else:
            out.write(printable_lines(pages.diff(shown, before, after)))
        changed.append(rel)
        made += sum(edit.fixes for edit in edits)
    if created is not None:
        rel, text = created
        shown = rebase(rel, prefix)
        if apply:
            try:
                create_file(root, rel, text.encode("utf-8"))
            except OSError as exc:
                print(printable(f"{shown}: not created ({exc})"), file=err)
                return changed, made
        else:
            out.write(printable_lines(pages.diff(shown, b"", text.encode("utf-8"), new=True)))
        changed.append(rel)
        made += 1
    return changed, made


def _analysed_projects(
    paths: str | Sequence[str], config_file: str | None, jobs: int | None, cache: bool
) -> list[Analysis]:
    """The analysis of each project the paths name (``ConfigError`` when
    a configuration is wrong)."""
    from configdrift.engine import analyse

    return [
        analyse(config, jobs=jobs, cache=cache, sources=_discovered(config, cache))
        for config, _ in _targets(paths, config_file)
    ]


def _discovered(config: Config, cache: bool) -> Sources:
    """The project's sources, with a note on standard error for what will
    not be used: a cache directory inside the tree, folders that could not
    be read."""
    from configdrift.discover import discover, unreadable_note
    from configdrift.escape import printable
    from configdrift.files import cache_note

    sources = discover(config)
    for note in (cache_note(config.root) if cache else None, unreadable_note(sources.unreadable)):
        if note is not None:
            print(printable(note), file=sys.stderr)
    return sources


def _targets(
    paths: str | Sequence[str], config_file: str | None
) -> list[tuple[Config, set[str] | None]]:
    """Each project the paths name, with the files named in it (None: the
    whole project); ``ConfigError`` when a configuration is wrong."""
    from configdrift.api import project_configs

    return project_configs(
        [Path(p) for p in ([paths] if isinstance(paths, str) else paths)],
        Path(config_file) if config_file else None,
    )


def coverage_report(
    paths: str | Sequence[str] = ".",
    *,
    config_file: str | None = None,
    output_format: str = "text",
    fail_under: float | None = None,
    badge: str | None = None,
    verbose: bool = False,
    jobs: int | None = None,
    cache: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print each surface's doc coverage; 1 when the documented share over
    every surface is below ``fail_under``."""
    from configdrift import coverage
    from configdrift.config import ConfigError
    from configdrift.escape import printable, printable_lines
    from configdrift.files import write_named
    from configdrift.output.display import prefix_for

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        projects = [
            (analysis.config.root, coverage.project_coverage(analysis))
            for analysis in _analysed_projects(paths, config_file, jobs, cache)
        ]
    except ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    surfaces = [s for _, found in projects for s in found]
    percent = coverage.total(surfaces)
    status = ExitCode.OK
    verdict = ""
    if fail_under is not None and round(percent, 1) < fail_under:
        status = ExitCode.FINDINGS
        verdict = f", under --fail-under {fail_under:g}"
    if badge is not None:
        try:
            write_named(badge, coverage.badge(percent).encode(), [root for root, _ in projects])
        except OSError as exc:
            print(f"configdrift: error: cannot write {badge}: {exc.strerror or exc}", file=err)
            return ExitCode.USAGE
    if output_format == "json":
        document = {
            "version": 1,
            "documented_share": round(percent, 1),
            "fail_under": fail_under,
            "passed": status == ExitCode.OK,
            "projects": [
                {
                    "root": printable(prefix_for(root) or "."),
                    "surfaces": [coverage.as_json(s) for s in found],
                }
                for root, found in projects
            ],
        }
        out.write(json.dumps(document, indent=2) + "\n")
        return status
    for index, (root, found) in enumerate(projects):
        if len(projects) > 1:
            out.write(f"{chr(10) if index else ''}== {printable(prefix_for(root) or '.')} ==\n")
        out.write(printable_lines(coverage.text(found, verbose)))
    accepted = sum(s.accepted for s in surfaces)
    documented = sum(s.documented for s in surfaces)
    out.write(f"Documented: {documented} of {accepted} accepted keys ({percent:.1f}%){verdict}.\n")
    return status


def project_map(analysis: Analysis, unresolved: bool) -> dict[str, Any]:
    """What ``map`` shows of one project, as data (paths from the current
    directory)."""
    from configdrift.escape import printable
    from configdrift.model import format_path
    from configdrift.output.display import prefix_for, rebase

    prefix = prefix_for(analysis.config.root)

    def where(location: Location | None) -> str | None:
        if location is None:
            return None
        return printable(f"{rebase(location.path, prefix)}:{location.line}")

    surfaces = []
    for surface in analysis.everything:
        mounts = {m.path: m for m in surface.mounts}
        tree = []
        root = mounts.get(())
        for node in surface.schema.walk():
            if not node.path or not (node.model or node.children):
                continue
            mount = mounts.get(node.path)
            tree.append(
                {
                    "path": printable(format_path(node.path)),
                    "aliases": [printable(s) for s in node.spellings if s != node.key],
                    "model": node.model or None,
                    "strict": {True: "strict", False: "lenient", None: "open"}[node.strict],
                    "location": where(node.model_location),
                    "mount": {"how": mount.how, "location": where(mount.location)}
                    if mount
                    else None,
                }
            )
        surfaces.append(
            {
                "name": surface.surface,
                "model": surface.schema.model or ("a dict" if surface.schema.children else None),
                "how": surface.how or None,
                "docs": [printable(rebase(d.path, prefix)) for d in surface.doc_sources],
                "root": {"model": root.model, "how": root.how, "location": where(root.location)}
                if root
                else None,
                "tree": tree,
                "sections": [
                    {
                        "location": where(section.location),
                        "title": printable(section.title),
                        "path": printable(format_path(section.path)),
                        "model": section.model or None,
                        "how": section.how,
                    }
                    for section in surface.sections
                ],
            }
        )
    surfaced = {s.schema.model for s in analysis.everything}
    project: dict[str, Any] = {
        "root": printable(prefix or "."),
        "surfaces": surfaces,
        "candidates": [
            {"model": c.model, "location": where(c.location), "how": c.how}
            for c in analysis.root_candidates
            if c.model not in surfaced
        ],
    }
    if unresolved:
        project["unresolved"] = [
            {"location": where(item.location), "what": printable(item.what)}
            for item in analysis.unresolved
        ] + [
            {
                "location": where(location),
                "what": printable(
                    f"keys under {format_path(prefix_path) or '(top level)'} may be read: {what}"
                ),
            }
            for prefix_path, location, what in analysis.unknown_reads
        ]
    return project


def _map_text(project: dict[str, Any], out: TextIO) -> None:
    surfaces = project["surfaces"]
    if len(surfaces) > 1:
        out.write("Surfaces (each a configuration of its own, judged on its own):\n")
        for surface in surfaces:
            pages = ", ".join(surface["docs"]) or "no doc page"
            found = f"; {surface['how']}" if surface["how"] else ""
            out.write(
                f"  {surface['name']}: {surface['model'] or 'nothing found'}{found}; "
                f"documented in {pages}\n"
            )
        out.write("\n")
    for index, surface in enumerate(surfaces):
        title = f" of {surface['name']}" if len(surfaces) > 1 else ""
        if index:
            out.write("\n")
        out.write(f"Config tree{title} (config path -> model, where it is built):\n")
        root = surface["root"]
        if root is not None:
            out.write(f"  (top level) -> {root['model']}; {root['how']} at {root['location']}\n")
        for node in surface["tree"]:
            aliases = f" (also {', '.join(node['aliases'])})" if node["aliases"] else ""
            model = (
                f"{node['model']} [{node['strict']}]" if node["model"] else f"[{node['strict']}]"
            )
            at = f" {node['location']}" if node["location"] else ""
            mount = node["mount"]
            origin = f"; {mount['how']} at {mount['location']}" if mount else ""
            out.write(f"  {node['path']}{aliases} -> {model}{at}{origin}\n")
        out.write(f"\nDoc sections{title} (section -> config path: how it was decided):\n")
        for section in surface["sections"]:
            model = f" [{section['model']}]" if section["model"] else ""
            out.write(
                f"  {section['location']} {section['title']!r} -> "
                f"{section['path'] or '(top level)'}{model}: {section['how']}\n"
            )
    if project["candidates"]:
        out.write(
            "\nModels built from a whole dict (not mounted; set `mount` to use one as the root):\n"
        )
        for cand in project["candidates"]:
            out.write(f"  {cand['model']} at {cand['location']} ({cand['how']})\n")
    if "unresolved" in project:
        out.write("\nUnresolved (not analysed, never guessed):\n")
        for item in project["unresolved"]:
            out.write(f"  {item['location']}: {item['what']}\n")
        if not project["unresolved"]:
            out.write("  (none)\n")


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def init(
    path: str = ".",
    *,
    force: bool = False,
    stdout: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Write the configuration auto-discovery found: into ``[tool.configdrift]``
    of the project's pyproject.toml when it has one (appended; a table that
    is already there is never replaced), else into ``configdrift.toml``;
    ``stdout`` prints it instead."""
    from configdrift.api import shown
    from configdrift.config import Config, ConfigError, toml_key
    from configdrift.engine import analyse

    out = out or sys.stdout
    err = err or sys.stderr
    from configdrift.files import is_file, unreadable_dir

    root = Path(path)
    if (problem := unreadable_dir(root)) is not None:
        print(f"configdrift: error: {shown(root)}: {problem}", file=err)
        return ExitCode.USAGE
    pyproject = root / "pyproject.toml"
    into_pyproject = is_file(pyproject) and not os.path.lexists(root / "configdrift.toml")
    target = pyproject if into_pyproject else root / "configdrift.toml"
    if not stdout and target.is_symlink():
        # Written in place, a link would be replaced by a file, or followed.
        print(f"configdrift: error: {shown(target)} is a symbolic link: not written", file=err)
        return ExitCode.USAGE
    if into_pyproject and not stdout:
        from configdrift.config import _our_table, _read_toml

        try:
            existing = _our_table(_read_toml(pyproject, (root,)), pyproject, True)
        except ConfigError as exc:
            print(f"configdrift: error: {exc}", file=err)
            return ExitCode.USAGE
        if existing is not None:
            print(
                f"configdrift: error: {shown(pyproject)} has a [tool.configdrift] table already "
                "(`init --stdout` prints what discovery finds, to compare)",
                file=err,
            )
            return ExitCode.USAGE
    elif not stdout and (target.exists() or target.is_symlink()):
        if not force:
            print(
                f"configdrift: error: {shown(target)} exists (use --force to overwrite)", file=err
            )
            return ExitCode.USAGE
        if target.is_symlink() or not target.is_file():
            print(f"configdrift: error: {shown(target)} is not a regular file", file=err)
            return ExitCode.USAGE
    try:
        analysis = analyse(Config(root=root))
    except ConfigError as exc:
        print(f"configdrift: error: {exc}", file=err)
        return ExitCode.USAGE
    from configdrift.api import naming_pages

    mounts = [*analysis.mounts, *(m for s in analysis.surfaces for m in s.mounts)]
    packages = sorted({m.location.path.split("/")[0] for m in mounts if "/" in m.location.path})
    # A path that is not UTF-8 cannot be written in TOML: left out.
    packages = [p for p in packages if _utf8(p)]
    docs: list[str] = []
    why: list[str] = []
    for source in analysis.doc_sources:
        if _utf8(source.path):
            docs.append(source.path)
            why.append(f"# {source.path}: {source.entries} key(s) documented in it")
    if not docs and analysis.schema.children:
        # No page was recognised as documenting the keys: the pages that
        # name most of them, for the user to confirm.
        for page, hits in naming_pages(analysis, analysis, relative=False)[:1]:
            if _utf8(page):
                docs.append(page)
                why.append(
                    f"# {page}: names {hits} of the keys, though no entry was recognised "
                    "in it (check that it documents them)"
                )
    lines = [
        "# Written by `configdrift init` from what auto-discovery found; edit freely.",
        "# Options are documented in docs/configuration.md of configdrift.",
        "# The doc pages that document the configuration:",
        *why,
        "docs = [" + ", ".join(f'"{d}"' for d in docs) + "]",
        "# The packages the config models and option declarations were found in:",
        "code = [" + ", ".join(f'"{p}"' for p in packages) + "]",
        'fail-on = "error"',
        "",
        "[mount]",
        '# config path = "package.module:Model"; found in the code:',
    ]
    for mount in analysis.mounts:
        path = ".".join(mount.path)
        if mount.target:
            lines.append(f"# {mount.how} at {mount.location}:")
            lines.append(f'# "{path}" = "{mount.target}"')
        else:
            lines.append(
                f"# {path or '(top level)'} = {mount.model} ({mount.how} at {mount.location})"
            )
    if analysis.surfaces:
        lines += [
            "",
            "[surfaces]",
            "# name = {mount = what it is, docs = the pages that document it}:",
        ]
    # With `surfaces` set, only the surfaces it names are judged: when one
    # cannot be named (the traitlets classes, a table of options), the
    # block is written as comments and discovery keeps finding them all.
    nameable = all(surface.target for surface in analysis.surfaces)
    if analysis.surfaces and not nameable:
        lines.append("# (kept as comments: discovery found surfaces `surfaces` cannot name)")
    for surface in analysis.surfaces:
        pages = ", ".join(f'"{d.path}"' for d in surface.doc_sources)
        lines.append(f"# {surface.how}")
        entry = f'{toml_key(surface.surface)} = {{mount = "{surface.target}", docs = [{pages}]}}'
        lines.append(entry if nameable else f"# {entry}")
    text = "\n".join(lines) + "\n"
    if into_pyproject:
        text = "\n[tool.configdrift]\n" + "".join(
            f"[tool.configdrift.{line[1:]}\n" if line.startswith("[") else line + "\n"
            for line in text.splitlines()
        )
    if stdout:
        out.write(text)
        return ExitCode.OK
    from configdrift.config import MAX_CONFIG_FILE_BYTES
    from configdrift.files import Unreadable, read_path, write_named

    try:
        # Written beside and renamed into place: never a half-written file,
        # never opened if something else took its name meanwhile.
        before = read_path(target, MAX_CONFIG_FILE_BYTES, (root,)) if into_pyproject else b""
        if before and not before.endswith(b"\n"):
            before += b"\n"
        write_named(target, before + text.encode("utf-8", "backslashreplace"), (root,))
    except Unreadable as exc:
        print(f"configdrift: error: {shown(target)}: {exc}", file=err)
        return ExitCode.USAGE
    except OSError as exc:
        print(f"configdrift: error: {shown(target)}: {exc.strerror or exc}", file=err)
        return ExitCode.USAGE
    out.write(
        f"wrote {target}: {len(docs)} doc source(s), {len(packages)} package(s), "
        f"{len(analysis.mounts)} mount(s), {len(analysis.surfaces)} more surface(s)\n"
    )
    return ExitCode.OK


def show_rules(
    code: str | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Print one rule's documentation, or the table of all rules."""
    from configdrift.rules import RULES
    from configdrift.rules.registry import CATALOG, PLANNED

    out = out or sys.stdout
    err = err or sys.stderr
    if code is None:
        # The catalog has all the table needs: no rule module is loaded.
        for number, (name, severity, summary) in sorted(CATALOG.items()):
            status = " (planned)" if number in PLANNED else ""
            out.write(f"{number}  {name:<28} {severity.value:<8} {summary}{status}\n")
        return ExitCode.OK
    found = RULES.get(code.upper()) or next(
        (rule for rule in RULES.values() if rule.slug == code.lower()), None
    )
    if found is None:
        print(f"configdrift: error: unknown rule {code!r} (a code or a name)", file=err)
        return ExitCode.USAGE
    out.write(f"{found.code} {found.slug} ({found.severity.value}, {found.status})\n\n")
    out.write(_plain(_dedent(found.doc)) if found.doc else found.summary + "\n")
    return ExitCode.OK


def _plain(text: str) -> str:
    """A rule's documentation as plain text: ````x```` reads as ``x``."""
    return text.replace("``", "")


def _dedent(text: str) -> str:
    import inspect

    return inspect.cleandoc(text) + "\n"


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"not a percentage from 0 to 100: {text!r}")
    return value


def _positive(text: str) -> int:
    """``--jobs``: a whole number of one or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a number of processes (1 or more)")
    return value


_EXIT_CODES = """exit status:
  0  nothing at or above the failing severity (or --exit-zero)
  1  findings at or above the failing severity (sweep: nothing references the key)
  2  usage or configuration error
  3  internal error (a bug of configdrift's)
"""

_EPILOG = (
    """examples:
  configdrift check                       check the project here
  configdrift map                         show the surfaces, config tree and doc sections found
  configdrift init                        write what was found into pyproject.toml
  configdrift rule CD101                  explain a rule

"""
    + _EXIT_CODES
    + "\nRun `configdrift COMMAND --help` for a command's options."
)

_CHECK_EPILOG = (
    """examples:
  configdrift check                                     the project here
  configdrift check docs/config.md src/app/config.py    the findings that involve these files
  configdrift check --format sarif -o drift.sarif       for code scanning
  configdrift check --select CD1 --statistics           a count per rule of the doc rules
  configdrift check --diff-base origin/main             only what a branch added

"""
    + _EXIT_CODES
)


def _paths_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="projects or files (default: .)"
    )


def _text_or_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        dest="output_format",
        help="text, or JSON for scripts (default: text)",
    )


def _project_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that analyses a project: its
    configuration file, the worker processes and the fact cache."""
    parser.add_argument("--config", metavar="FILE", help="configuration file to use")
    parser.add_argument("--jobs", type=_positive, help="worker processes (default: one per core)")
    parser.add_argument(
        "--no-cache", action="store_true", help="do not read or write the fact cache"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="configdrift",
        description="Keep config docs, config schema and the code that reads config in agreement.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"configdrift {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p_check = sub.add_parser(
        "check",
        help="report drift between docs, schema and the code that reads config",
        description="Report drift between a project's config docs, its config schema and the "
        "code that reads its config. Paths print from the current directory.",
        epilog=_CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_check.add_argument(
        "paths",
        nargs="*",
        default=["."],
        metavar="PATH",
        help="projects (directories) or files; a file's findings are those that involve it "
        "(default: .)",
    )
    p_check.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github", "junit", "html"),
        default="text",
        dest="output_format",
        help="report format: text, JSON, SARIF 2.1.0, GitHub annotations, JUnit XML or a "
        "self-contained HTML page (default: text)",
    )
    p_check.add_argument(
        "--select",
        metavar="CODES",
        help="comma-separated rule code prefixes to run (replaces the configuration's `select`)",
    )
    p_check.add_argument(
        "--ignore",
        metavar="CODES",
        help="comma-separated rule code prefixes not to run "
        "(replaces the configuration's `ignore`)",
    )
    p_check.add_argument(
        "--extend-select", metavar="CODES", help="rule code prefixes to run besides those selected"
    )
    p_check.add_argument(
        "--extend-ignore",
        metavar="CODES",
        help="rule code prefixes not to run, besides those ignored",
    )
    p_check.add_argument(
        "--fail-on",
        choices=("error", "warning", "info", "never"),
        help="the least severity that exits 1 (default: the configuration's, else error)",
    )
    p_check.add_argument(
        "--config", metavar="FILE", help="configuration file to use instead of the one found"
    )
    p_check.add_argument("--jobs", type=_positive, help="worker processes (default: one per core)")
    p_check.add_argument(
        "--no-cache", action="store_true", help="do not read or write the fact cache"
    )
    p_check.add_argument(
        "--baseline",
        metavar="FILE",
        help="report only findings not in this baseline (default: configdrift-baseline.json "
        "at the root, when it exists)",
    )
    p_check.add_argument(
        "--write-baseline", action="store_true", help="record the current findings as the baseline"
    )
    p_check.add_argument(
        "--update-baseline",
        action="store_true",
        help="drop the baseline's stale entries (findings that are gone)",
    )
    p_check.add_argument(
        "--diff-base",
        metavar="REF",
        help="report only findings that are new relative to this git ref",
    )
    p_check.add_argument(
        "--provenance",
        action="store_true",
        help="give each finding its git history: the commit of the doc line, and for "
        "CD101/CD102/CD201 whether the schema ever declared the key",
    )
    p_check.add_argument(
        "--import",
        action="store_true",
        dest="import_models",
        help="exact mode: validate example configs with the project's own pydantic models, "
        "imported in a subprocess (runs the project's code)",
    )
    p_check.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when findings are reported (usage errors still exit 2)",
    )
    p_check.add_argument(
        "--quiet", "-q", action="store_true", help="print the findings alone, no summary (text)"
    )
    p_check.add_argument(
        "--statistics",
        action="store_true",
        help="print the number of findings of each rule instead of the findings (text)",
    )
    p_check.add_argument(
        "--output-file", "-o", metavar="FILE", help="write the report to FILE instead of stdout"
    )
    p_check.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text report (default auto: on a terminal, unless NO_COLOR is set; "
        "FORCE_COLOR forces it)",
    )
    p_check.add_argument(
        "--show-source",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="print each finding's line with a caret under its key (default: on a terminal)",
    )
    p_check.add_argument(
        "--import-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="give up exact mode after this long (default: 60)",
    )

    p_diff = sub.add_parser(
        "diff",
        help="compare the config surface at two git refs (removals without rejection)",
        description="Compare the config surface at two git refs: a key accepted at BASE that "
        "HEAD drops with no removed-keys entry and no deprecation is CD403.",
        epilog="examples:\n  configdrift diff                      the work tree against the "
        "merge-base with the default branch\n  configdrift diff . --base v1.2 --head v1.3\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_diff.add_argument("path", nargs="?", default=".", help="the project (default: .)")
    p_diff.add_argument(
        "--base", metavar="REF", help="default: the merge-base with the default branch"
    )
    p_diff.add_argument("--head", metavar="REF", help="default: the work tree")
    p_diff.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        dest="output_format",
        help="report format (default: text)",
    )
    p_diff.add_argument(
        "--fail-on",
        choices=("error", "warning", "info", "never"),
        help="the least severity that exits 1 (default: error)",
    )
    p_diff.add_argument("--config", metavar="FILE", help="configuration file to use")
    p_diff.add_argument("--jobs", type=_positive, help="worker processes (default: one per core)")

    p_sweep = sub.add_parser(
        "sweep",
        help="list every reference to a config key, with a removal checklist",
        description="List every reference to a config key (declaration, constants, reads, "
        "accessors, docs, examples, config files, tests) with a checklist for removing it. "
        "Exit 0 when something references the key, 1 when nothing does. With --diff or "
        "--apply, show or make the removal's mechanical edits and list the rest.",
        epilog="examples:\n  configdrift sweep server.keepalive\n"
        "  configdrift sweep server.keepalive --diff\n"
        "  configdrift sweep server.keepalive --apply --reason 'use server.idle_timeout'\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_sweep.add_argument("key", help="the config path, as users write it (a.b.c)")
    p_sweep.add_argument("path", nargs="?", default=".", help="the project (default: .)")
    p_sweep.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        dest="output_format",
        help="report format (default: text)",
    )
    edits = p_sweep.add_mutually_exclusive_group()
    edits.add_argument(
        "--diff",
        action="store_true",
        dest="show_diff",
        help="show the removal's mechanical edits as a diff (docs entries, examples, "
        "config files, test configs, sample output, the removed-keys registry)",
    )
    edits.add_argument(
        "--apply", action="store_true", help="make those edits; the code is listed, not edited"
    )
    p_sweep.add_argument(
        "--reason",
        default=DEFAULT_REASON,
        help=f"what the removed-keys registry says of the key (default: {DEFAULT_REASON})",
    )
    _project_options(p_sweep)

    p_map = sub.add_parser(
        "map",
        help="print the config tree and the doc-section mapping",
        description="Print what configdrift found: each configuration surface, its config tree "
        "(config path -> model, where it is built) and how each doc section was mapped.",
    )
    _paths_argument(p_map)
    _text_or_json(p_map)
    p_map.add_argument(
        "--unresolved", action="store_true", help="also list what could not be resolved"
    )
    _project_options(p_map)

    p_fix = sub.add_parser(
        "fix",
        help="show (or --apply) the doc edits that fix findings",
        description="Show, as a unified diff, the doc edits that fix findings whose remedy is "
        "mechanical; --apply writes them. So far: CD101, the entry of a key the schema does "
        "not accept deleted with its block; CD402, a deprecated key of an example renamed to "
        "its replacement; CD104, a documented default set to the code's, in the doc's own "
        "notation. With --unsafe-fixes, CD101, CD102, CD301 and CD302: a key renamed to the "
        "near spelling the finding suggests. Only the lines concerned change.",
        epilog="examples:\n  configdrift fix                 the diff for this project\n"
        "  configdrift fix --apply         write the fixes\n"
        "  configdrift fix --add-missing   with entries for the undocumented keys\n"
        "  configdrift fix --unsafe-fixes  with the renames to a near spelling\n\n"
        "exit status: 0 nothing to fix (or fixes written), 1 fixes to apply, 2 usage or "
        "configuration error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _paths_argument(p_fix)
    p_fix.add_argument("--apply", action="store_true", help="write the fixes")
    p_fix.add_argument(
        "--add-missing",
        action="store_true",
        help="add a doc entry for each undocumented key (CD103), in the format of its "
        "section, from the code's description, type and default",
    )
    p_fix.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also rename a key to the near spelling a finding suggests (read the diff)",
    )
    _project_options(p_fix)

    p_cov = sub.add_parser(
        "coverage",
        help="print how much of each config surface the docs describe",
        description="Print, per configuration surface and per section, the share of accepted "
        "keys that a doc entry describes and the share of doc entries whose key the schema "
        "accepts (from the same judgement as CD103 and CD101).",
        epilog="examples:\n  configdrift coverage                  the table for this project\n"
        "  configdrift coverage --fail-under 90  exit 1 below 90% documented\n"
        "  configdrift coverage --badge docs/coverage.svg\n\n"
        "exit status: 0 covered enough, 1 below --fail-under, 2 usage or configuration error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _paths_argument(p_cov)
    p_cov.add_argument(
        "--fail-under",
        type=_percent,
        metavar="PERCENT",
        help="exit 1 when less than PERCENT of the accepted keys are documented",
    )
    p_cov.add_argument(
        "--badge", metavar="FILE", help="also write the documented share as an SVG badge"
    )
    _text_or_json(p_cov)
    p_cov.add_argument(
        "-v", "--verbose", action="store_true", help="also list the keys that cost coverage"
    )
    _project_options(p_cov)

    p_init = sub.add_parser(
        "init",
        help="write what auto-discovery finds into [tool.configdrift] of pyproject.toml "
        "(configdrift.toml when there is none)",
    )
    p_init.add_argument("path", nargs="?", default=".", help="the project (default: .)")
    p_init.add_argument("--force", action="store_true", help="overwrite configdrift.toml")
    p_init.add_argument(
        "--stdout", action="store_true", help="print the configuration instead of writing it"
    )

    sub.add_parser("rules", help="list every rule")
    p_rule = sub.add_parser("rule", help="print a rule's documentation")
    p_rule.add_argument("code", help="a rule's code or name (CD101, documented-not-accepted)")
    return parser


def main(argv: list[str] | None = None) -> int:
    # A short run over data without reference cycles (parse trees, facts,
    # schema nodes): reference counting frees what is dropped, and the cyclic
    # collector's passes over millions of live objects would only cost time.
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv)
    finally:
        if collecting:
            # Called in process (tests, a harness): the caller's collector,
            # which frees the parse trees' cycles, works again.
            gc.enable()


def _main(argv: list[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A file name that is not UTF-8 (kept as surrogates) or a terminal
        # that cannot show a character is escaped, never an error mid-report.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        return _dispatch(argv)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BrokenPipeError:
        # The reader went away (``configdrift map | head``): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.OK
    except Exception as exc:
        if os.environ.get("CONFIGDRIFT_DEBUG"):
            raise
        from configdrift.files import last_read

        where = f" (last file read: {last_read()})" if last_read() else ""
        print(
            f"configdrift: internal error, a bug: {type(exc).__name__}{where}; "
            "please report it (CONFIGDRIFT_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return ExitCode.INTERNAL


def run() -> NoReturn:
    """The console entry point: ``main``, its output flushed, then a hard exit.

    A large project leaves millions of small objects behind (parse facts,
    schema nodes); freeing them one by one at interpreter exit takes a tenth
    of a second and serves nothing once the output is written. The pool and
    the cache are closed inside ``main``. (mypy ends its runs the same way.)
    Tests call ``main``, which returns.
    """
    code = main()  # a SystemExit (``--help``, a usage error) exits normally
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass  # the reader went away, or the stream is closed: nothing to write
    os._exit(code)


def _dispatch(argv: list[str] | None) -> int:
    import contextlib

    from configdrift.escape import Guarded, for_format

    args = build_parser().parse_args(argv)
    # Everything printed passes a guard (escape.py): no line of the
    # tree's text can forge a line, a workflow command or a terminal's
    # display. The GitHub format's own lines are commands by design.
    report = not getattr(args, "output_file", None)
    out = for_format(sys.stdout, getattr(args, "output_format", "text"), report=report)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(Guarded(sys.stderr)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.command == "check":
        return check(
            args.paths,
            select=_codes(args.select),
            ignore=_codes(args.ignore),
            extend_select=_codes(args.extend_select),
            extend_ignore=_codes(args.extend_ignore),
            fail_on=args.fail_on,
            output_format=args.output_format,
            config_file=args.config,
            jobs=args.jobs,
            cache=not args.no_cache,
            import_timeout=args.import_timeout if args.import_models else None,
            baseline=args.baseline,
            write_baseline=args.write_baseline,
            update_baseline=args.update_baseline,
            diff_base=args.diff_base,
            with_provenance=args.provenance,
            exit_zero=args.exit_zero,
            quiet=args.quiet,
            statistics=args.statistics,
            output_file=args.output_file,
            color=args.color,
            show_source=args.show_source,
        )
    if args.command == "diff":
        return diff_refs(
            args.base,
            args.head,
            path=args.path,
            config_file=args.config,
            output_format=args.output_format,
            fail_on=args.fail_on,
            jobs=args.jobs,
        )
    if args.command == "sweep":
        return sweep_key(
            args.key,
            args.path,
            config_file=args.config,
            output_format=args.output_format,
            apply=args.apply,
            show_diff=args.show_diff,
            reason=args.reason,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    if args.command == "map":
        return map_tree(
            args.paths,
            config_file=args.config,
            unresolved=args.unresolved,
            output_format=args.output_format,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    if args.command == "fix":
        return fix_tree(
            args.paths,
            config_file=args.config,
            apply=args.apply,
            unsafe=args.unsafe_fixes,
            add_missing=args.add_missing,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    if args.command == "coverage":
        return coverage_report(
            args.paths,
            config_file=args.config,
            output_format=args.output_format,
            fail_under=args.fail_under,
            badge=args.badge,
            verbose=args.verbose,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    if args.command == "init":
        return init(args.path, force=args.force, stdout=args.stdout)
    if args.command == "rules":
        return show_rules()
    return show_rules(args.code)


if __name__ == "__main__":
    sys.exit(main())
