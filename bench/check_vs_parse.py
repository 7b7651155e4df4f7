"""Time ``configdrift check`` against a bare ``ast.parse`` of the same files.

Usage: python bench/check_vs_parse.py REPO [--rounds N] [--jobs N]

Every side runs as a fresh interpreter (start-up and imports included), in
alternation, so machine noise hits them alike: a bare parse, a cold check
(``--no-cache``) and a warm check (the fact cache filled by a first run). The
script prints each round and the median ratios check / parse. The Python files are the ones configdrift
itself analyses for REPO (its discovery decides), read from disk and parsed
once each, which is the floor any AST-based checker pays.

Both sides run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment), as after ``pip install``, which compiles
the package: an editable install in an environment that forbids bytecode
would otherwise compile configdrift's own modules on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARSE_SCRIPT = """
import ast, json, sys, warnings
warnings.simplefilter("ignore")
root, listing = sys.argv[1], sys.argv[2]
for rel in json.load(open(listing)):
    try:
        with open(root + "/" + rel, "rb") as fh:
            ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        pass
"""


def _files(repo: Path) -> list[str]:
    from configdrift.config import load
    from configdrift.discover import discover

    return discover(load(repo)).python


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _time(cmd: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, check=False, env=ENV)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(
            f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="passed to configdrift check")
    args = parser.parse_args()
    files = _files(args.repo)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(files, fh)
        listing = fh.name
    parse_cmd = [sys.executable, "-c", PARSE_SCRIPT, str(args.repo), listing]
    check_cmd = [sys.executable, "-m", "configdrift", "check", str(args.repo), "--format", "json"]
    if args.jobs is not None:
        check_cmd += ["--jobs", str(args.jobs)]
    cold_cmd = [*check_cmd, "--no-cache"]
    print(f"{len(files)} Python files under {args.repo}")
    _time(check_cmd)  # fills the fact cache for the warm runs
    cold_ratios, warm_ratios = [], []
    for i in range(args.rounds):
        parse = _time(parse_cmd)
        cold = _time(cold_cmd)
        warm = _time(check_cmd)
        cold_ratios.append(cold / parse)
        warm_ratios.append(warm / parse)
        print(
            f"round {i + 1}: ast.parse {parse:.2f}s"
            f"  check cold {cold:.2f}s (ratio {cold / parse:.2f})"
            f"  check warm {warm:.2f}s (ratio {warm / parse:.2f})"
        )
    print(f"median ratio cold check / parse: {statistics.median(cold_ratios):.2f}")
    print(f"median ratio warm check / parse: {statistics.median(warm_ratios):.2f}")


if __name__ == "__main__":
    main()
