"""``configdrift coverage``: how much of each surface the docs describe."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import (
    ExitCode,
    analysed_projects,
    paths_argument,
    percent,
    project_options,
    text_or_json,
    usage_error,
)

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers


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
    from configdrift.output.display import prefix_for
    from configdrift.writes import write_named

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        projects = [
            (analysis.config.root, coverage.project_coverage(analysis))
            for analysis in analysed_projects(paths, config_file, jobs, cache)
        ]
    except ConfigError as exc:
        usage_error(str(exc), err)
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
            usage_error(f"cannot write {badge}: {exc.strerror or exc}", err)
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
    said = coverage.shown_share(documented, accepted)
    out.write(f"Documented: {documented} of {accepted} accepted keys ({said}){verdict}.\n")
    return status


def register(sub: Subparsers) -> None:
    """``coverage`` and its arguments."""
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
    paths_argument(p_cov)
    p_cov.add_argument(
        "--fail-under",
        type=percent,
        metavar="PERCENT",
        help="exit 1 when less than PERCENT of the accepted keys are documented",
    )
    p_cov.add_argument(
        "--badge", metavar="FILE", help="also write the documented share as an SVG badge"
    )
    text_or_json(p_cov)
    p_cov.add_argument(
        "-v", "--verbose", action="store_true", help="also list the keys that cost coverage"
    )
    project_options(p_cov)
    p_cov.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
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
