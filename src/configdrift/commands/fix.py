"""``configdrift fix``: the doc edits that fix findings, as a diff or written."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import (
    ExitCode,
    discovered,
    file_stamps,
    paths_argument,
    project_options,
    targets,
    usage_error,
)
from configdrift.commands.writing import edit_files, recheck, reported
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers


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
    changed = fixed = hidden = undocumented = unmade = 0
    try:
        for config, only in targets(paths, config_file):
            root = str(config.root)
            prefix = prefix_for(config.root)
            sources = discovered(config, cache)
            stamps = file_stamps(config, sources)
            analysis, before = reported(config, jobs, cache, sources)
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
            written, made, status = edit_files(root, prefix, files, stamps, apply, out, err)
            unmade = max(unmade, status)
            changed += len(written)
            fixed += made
            if apply and written:
                recheck(before, reported(config, jobs, cache)[1], prefix, err)
    except ConfigError as exc:
        usage_error(str(exc), err)
        return ExitCode.USAGE
    if hidden:
        print(
            f"{counted(hidden, 'more fix', 'more fixes')} (keys renamed to a near spelling) "
            "with --unsafe-fixes.",
            file=err,
        )
    if undocumented:
        print(
            f"{counted(undocumented, 'undocumented key')}: --add-missing writes their entries.",
            file=err,
        )
    if apply:
        print(f"Fixed {counted(fixed, 'finding')} in {counted(changed, 'file')}.", file=err)
        return ExitCode(unmade)
    if fixed:
        print(
            f"{counted(fixed, 'fix', 'fixes')} in {counted(changed, 'file')}; "
            "run with --apply to write them.",
            file=err,
        )
        return ExitCode.FINDINGS
    print("Nothing to fix.", file=err)
    return ExitCode.OK


def register(sub: Subparsers) -> None:
    """``fix`` and its arguments."""
    p_fix = sub.add_parser(
        "fix",
        help="show (or --apply) the doc edits that fix findings",
        description="Show, as a unified diff, the doc edits that fix findings whose remedy is "
        "mechanical; --apply writes them. So far: CD101, the entry of a key the schema does "
        "not accept deleted with its block; CD402, a deprecated key of an example renamed to "
        "its replacement; CD104, a documented default set to the code's, in the doc's own "
        "notation; CD603, a flag's or variable's documented default set to its setting's. "
        "With --unsafe-fixes, CD101, CD102, CD301 and CD302: a key renamed to the "
        "near spelling the finding suggests. Only the lines concerned change.",
        epilog="examples:\n  configdrift fix                 the diff for this project\n"
        "  configdrift fix --apply         write the fixes\n"
        "  configdrift fix --add-missing   with entries for the undocumented keys\n"
        "  configdrift fix --unsafe-fixes  with the renames to a near spelling\n\n"
        "exit status: 0 nothing to fix (or fixes written), 1 fixes to apply, 2 usage or "
        "configuration error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    paths_argument(p_fix)
    shown = p_fix.add_mutually_exclusive_group()
    shown.add_argument("--apply", action="store_true", help="write the fixes")
    shown.add_argument(
        "--diff",
        action="store_true",
        help="show the fixes as a diff without writing them (the default; ruff's spelling)",
    )
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
    project_options(p_fix)
    p_fix.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    return fix_tree(
        args.paths,
        config_file=args.config,
        apply=args.apply,
        unsafe=args.unsafe_fixes,
        add_missing=args.add_missing,
        jobs=args.jobs,
        cache=not args.no_cache,
    )
