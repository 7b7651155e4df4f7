"""Write configdrift's machine reports of projects, to compare two versions.

Usage: python bench/reports.py OUT PROJECT [PROJECT ...] [--python PYTHON]

For each project (a directory), writes ``OUT/<name>.<command>.json`` for
``check --format json``, ``map --format json --unresolved`` and
``coverage --format json``, each run without the cache and from the
project's parent folder (paths print the same whatever the checkout's
place). Run it with two installations into two folders, then compare them:
``diff -r OLD NEW`` must print nothing for a change that keeps behaviour (a
refactoring).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

COMMANDS = {
    "check": ["check", "--format", "json"],
    "map": ["map", "--format", "json", "--unresolved"],
    "coverage": ["coverage", "--format", "json"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("projects", type=Path, nargs="+")
    parser.add_argument(
        "--python", default=sys.executable, help="the Python to run configdrift with"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for project in args.projects:
        project = project.resolve()
        name = project.name if project.parent.name != "fixtures" else f"fixture-{project.name}"
        for command, argv in COMMANDS.items():
            proc = subprocess.run(
                [args.python, "-m", "configdrift", argv[0], project.name, *argv[1:], "--no-cache"],
                cwd=project.parent,
                capture_output=True,
                env=env,
                check=False,
                timeout=1800,
            )
            target = args.out / f"{name}.{command}.json"
            target.write_bytes(proc.stdout + f"\n# exit {proc.returncode}\n".encode())
            if proc.returncode not in (0, 1):
                print(f"{name} {command}: exit {proc.returncode}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
