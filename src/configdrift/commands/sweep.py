"""``configdrift sweep KEY``: every reference to a key, and with ``--diff`` or
``--apply`` the mechanical part of its removal."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from configdrift.commands.common import ExitCode, analysed_project, project_options
from configdrift.commands.writing import edit_files
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.commands.common import Subparsers


#: What ``sweep --apply`` writes in a registry of removed keys by default.
DEFAULT_REASON = "removed"


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
    analysis = analysed_project(path, config_file, jobs, err, cache, stamps)
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
    written, made, status = edit_files(
        root, prefix, files, stamps, apply, out, err, planned.created, whole=True
    )
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
        print(f"Made {counted(made, 'edit')} in {counted(changed, 'file')}.", file=err)
        return ExitCode(status)
    if made:
        print(
            f"{counted(made, 'edit')} in {counted(changed, 'file')}; run with --apply to make them.",
            file=err,
        )
        return ExitCode.FINDINGS
    print(f"Nothing to edit for `{key}`.", file=err)
    return ExitCode.OK


def register(sub: Subparsers) -> None:
    """``sweep`` and its arguments."""
    p_sweep = sub.add_parser(
        "sweep",
        help="list every reference to a config key, with a removal checklist",
        description="List every reference to a config key (declaration, constants, reads, "
        "accessors, docs, examples, config files, tests) with a checklist for removing it. "
        "Exit 0 when something references the key, 1 when nothing does. With --diff or "
        "--apply, show or make the removal's mechanical edits and list the rest: --diff "
        "exits 1 when there are edits to make (as fix and ruff's --diff do), 0 when none; "
        "--apply exits 0 once they are made.",
        epilog="examples:\n  configdrift sweep server.keepalive\n"
        "  configdrift sweep server.keepalive --diff\n"
        "  configdrift sweep server.keepalive --apply --reason 'use server.idle_timeout'\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_sweep.add_argument("key", help="the config path, as users write it (a.b.c)")
    p_sweep.add_argument("path", nargs="?", default=".", help="the project (default: .)")
    p_sweep.add_argument(
        "--format",
        "--output-format",
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
    project_options(p_sweep)
    p_sweep.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
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
