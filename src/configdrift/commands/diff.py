"""``configdrift diff``: compare the config surface at two git refs (CD403)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import ExitCode, positive, usage_error
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers


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
    from contextlib import ExitStack

    from configdrift.config import ConfigError, load
    from configdrift.engine import analyse
    from configdrift.git import GitError
    from configdrift.history.refs import (
        analysed_ref,
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
        with ExitStack() as scratch:
            base_analysis = scratch.enter_context(analysed_ref(config, base_commit, jobs))
            if head:
                head_ref = resolve_ref(config.root, head)
                head_analysis = scratch.enter_context(analysed_ref(config, head_ref, jobs))
                head_name = head
            else:
                head_analysis = analyse(config, jobs=jobs)
                head_name = "the work tree"
            findings, changes = compare(base_analysis, head_analysis, base_name, head_name)
    except (ConfigError, GitError) as exc:
        usage_error(str(exc), err)
        return ExitCode.USAGE
    from configdrift.output.display import prefix_for, prepare, rebase
    from configdrift.output.report import ReportData, printable_finding

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
            f"{counted(len(findings), 'key')} removed without a removal path, "
            f"{counted(len(changes), 'change')}.\n"
        )
    return exit_code_for(findings, config.fail_on)


def register(sub: Subparsers) -> None:
    """``diff`` and its arguments."""
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
    p_diff.add_argument("--jobs", type=positive, help="worker processes (default: one per core)")
    p_diff.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    return diff_refs(
        args.base,
        args.head,
        path=args.path,
        config_file=args.config,
        output_format=args.output_format,
        fail_on=args.fail_on,
        jobs=args.jobs,
    )
