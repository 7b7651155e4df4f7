"""``init`` is never worse than zero-config, on real projects.

Usage: python bench/init_superset.py CLONES [--python PY] [--jobs N]

For each project folder under CLONES: runs a zero-config ``configdrift
check``, then ``configdrift init --stdout`` into a scratch configuration
outside the tree, then ``check --config`` that file, and prints what the
configured run lost of the zero-config findings (rule, key, place) and what
it added (to judge: a CD501 is a failure, any other an answer to read). The tree itself is never written. Exit status 1
when any project lost a finding or raised CD501.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

Found = set[tuple[str, str, str, int]]


def _check(python: str, project: Path, *extra: str) -> Found | str:
    args = [python, "-m", "configdrift", "check", ".", "--format", "json", "--fail-on", "never"]
    result = subprocess.run(
        [*args, "--no-cache", *extra], cwd=project, capture_output=True, text=True, check=False
    )
    try:
        report = json.loads(result.stdout)
    except ValueError:
        return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "no output"
    return {(f["code"], f["key"], f["path"], f["line"]) for f in report["findings"]}


def _one(python: str, project: Path, scratch: Path) -> tuple[str, str, bool]:
    before = _check(python, project)
    shown = subprocess.run(
        [python, "-m", "configdrift", "init", "--stdout", "."],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    folder = scratch / project.name
    folder.mkdir(parents=True, exist_ok=True)
    written = folder / ("pyproject.toml" if "[tool.configdrift]" in shown else "configdrift.toml")
    written.write_text(shown, encoding="utf-8")
    after = _check(python, project, "--config", str(written))
    if isinstance(before, str) or isinstance(after, str):
        return project.name, f"not run: {before if isinstance(before, str) else after}", False
    lost = sorted(before - after)
    added = sorted(after - before)
    empty = [f for f in added if f[0] == "CD501"]
    line = f"{len(before)} -> {len(after)} findings, {len(lost)} lost, {len(added)} added"
    for what, found in (("lost", lost[:5]), ("added", added[:5])):
        for code, key, path, at in found:
            line += f"\n    {what} {code} {key} {path}:{at}"
    return project.name, line, not lost and not empty


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clones", type=Path)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    projects = sorted(p for p in args.clones.iterdir() if p.is_dir())
    with (
        tempfile.TemporaryDirectory(prefix="init-superset-") as scratch,
        ThreadPoolExecutor(args.jobs) as pool,
    ):
        results = list(pool.map(lambda p: _one(args.python, p, Path(scratch)), projects))
    for name, line, _ in results:
        print(f"{name:28} {line}")
    good = sum(ok for _, _, ok in results)
    print(f"init kept every finding, with no CD501, on {good} of {len(results)} projects")
    return 0 if good == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
