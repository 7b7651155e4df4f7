"""``configdrift check``: report the drift, in every format."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import EXIT_CODES, ExitCode, codes, positive, usage_error
from configdrift.output.links import Links, web_url

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers
    from configdrift.model import Finding


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
    fail_on_empty: bool = False,
    links: Links | None = None,
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
    (default: when coloured). A run that compared nothing, or too small a
    share of the accepted keys, says so on standard error; with
    ``fail_on_empty`` it then exits 1. ``links`` says where the rule pages
    and the files are on the web, for the reports' links."""
    from configdrift import api
    from configdrift.output import REPORTERS
    from configdrift.output.display import Paint, source_shown, use_colour
    from configdrift.output.report import ReportData, thin
    from configdrift.unconfigured import NOTHING_COMPARED

    out = out or sys.stdout
    err = err or sys.stderr
    show_progress = with_provenance and output_format == "text" and err.isatty()

    def progress(done: int, total: int) -> None:
        if show_progress:
            err.write(f"\rprovenance: {done}/{total} files")
            if done == total:
                err.write("\n")

    from configdrift.output.status import status_line

    try:
        # Provenance writes its own progress; otherwise a status line on a
        # terminal for a run past two seconds.
        with contextlib.nullcontext() if show_progress else status_line(err):
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
        usage_error(str(exc), err)
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
        surfaces=[
            (s.name, s.documented, s.accepted, s.read, s.compared, s.rendered, s.undocumented)
            for s in result.surfaces
        ],
        compared=result.compared,
        rendered=result.rendered,
        undocumented=result.undocumented,
        places=result.places,
        paint=Paint(colour),
        show_source=(
            output_format == "text" and source_shown(color, None if output_file else out)
            if show_source is None
            else show_source
        ),
        keys=result.keys,
        settings=result.settings,
        link_base=(links.files if links and links.files else _link_base(output_file)),
        docs_url=links.docs if links else "",
        show_links=bool(links and links.show),
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
        from configdrift.writes import write_named

        text = guarded_text(report, output_format)
        try:
            write_named(output_file, text.encode("utf-8", "backslashreplace"), result.roots)
        except OSError as exc:
            usage_error(f"{output_file}: {exc.strerror or exc}", err)
            return ExitCode.USAGE
    else:
        out.write(report)
    compared_little = thin(result.compared, result.accepted, result.rendered)
    if compared_little and not any(NOTHING_COMPARED in m for m in result.messages):
        err.write(_thin_note(result.compared, result.accepted))
    if exit_zero:
        return ExitCode.OK
    return ExitCode.FINDINGS if compared_little and fail_on_empty else result.status


def _thin_note(compared: int, accepted: int) -> str:
    """What standard error says of a run that compared too little."""
    share = 100 * compared / accepted
    return (
        f"configdrift: compared {compared} of the {accepted} keys the code accepts with a doc "
        f"entry ({share:.0f}%): the pages read may not be the configuration's reference. "
        "`configdrift map --unread` lists the pages not read and why; `docs` in the "
        "configuration names the right ones; `--fail-on-empty` makes such a run fail.\n"
    )


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


_CHECK_EPILOG = (
    """examples:
  configdrift check                                     the project here
  configdrift check docs/config.md src/app/config.py    the findings that involve these files
  configdrift check --format sarif -o drift.sarif       for code scanning
  configdrift check --select CD1 --statistics           a count per rule of the doc rules
  configdrift check --diff-base origin/main             only what a branch added

"""
    + EXIT_CODES
)


def register(sub: Subparsers) -> None:
    """``check`` and its arguments."""
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
        "--output-format",
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
    p_check.add_argument("--jobs", type=positive, help="worker processes (default: one per core)")
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
    p_check.add_argument(
        "--fail-on-empty",
        action="store_true",
        help="exit 1 when nothing, or under a tenth of the accepted keys, was compared with a "
        "doc entry (a CI gate that cannot pass by reading nothing)",
    )
    p_check.add_argument(
        "--fix",
        action="store_true",
        help="write the doc edits that fix findings, as `fix --apply` does (ruff's spelling)",
    )
    p_check.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix, also rename keys to the near spelling a finding suggests",
    )
    p_check.add_argument(
        "--docs-url",
        type=web_url,
        default=os.environ.get("CONFIGDRIFT_DOCS_URL") or None,
        metavar="URL",
        help="where configdrift's docs site is published (default: $CONFIGDRIFT_DOCS_URL): "
        "the rule pages are linked from SARIF's helpUri, the HTML report and --show-links",
    )
    p_check.add_argument(
        "--show-links",
        action="store_true",
        help="print each finding's rule page under it (text): its URL with --docs-url, "
        "else the command that prints it",
    )
    p_check.add_argument(
        "--link-base",
        type=web_url,
        metavar="URL",
        help="link the HTML report's files to URL/path#Lline (a repository's files at a "
        "commit), for a report kept as a CI artifact",
    )
    p_check.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if args.fix or args.unsafe_fixes:
        if not args.fix:
            usage_error("--unsafe-fixes goes with --fix")
            return ExitCode.USAGE
        from configdrift.commands.fix import fix_tree

        # ``ruff check --fix``: write the fixes, then report what is left.
        fix_tree(
            args.paths,
            config_file=args.config,
            apply=True,
            unsafe=args.unsafe_fixes,
            add_missing=False,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    return check(
        args.paths,
        select=codes(args.select),
        ignore=codes(args.ignore),
        extend_select=codes(args.extend_select),
        extend_ignore=codes(args.extend_ignore),
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
        fail_on_empty=args.fail_on_empty,
        links=Links(args.docs_url or "", args.link_base or "", args.show_links),
    )
