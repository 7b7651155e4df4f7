"""Time ``check --provenance`` against a plain ``check``, side by side.

Usage: python bench/provenance.py REPO [--rounds N]

Each round runs, as fresh interpreters and in alternation: a warm ``check``
(the fact cache filled), a ``check --provenance`` with the history cache
emptied first (one ``git blame`` and one ``git log`` per relevant file), and
a ``check --provenance`` with the history cache kept. It prints each round
and the median ratios over the plain check, and how many findings got a
history. REPO must be a git work tree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(args: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "configdrift", *args], capture_output=True, check=False, env=ENV
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"configdrift {' '.join(args)} failed:\n{proc.stderr.decode()[-2000:]}")
    return elapsed, proc.stdout


def _history_cache(repo: Path) -> Path:
    from configdrift.extract.cache import cache_dir

    top = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    digest = hashlib.sha256(str(Path(top).resolve()).encode()).hexdigest()[:16]
    return cache_dir() / f"history-{digest}.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    repo = str(args.repo)
    history = _history_cache(args.repo)
    _run(["check", repo])  # fill the fact cache
    cold_ratios: list[float] = []
    warm_ratios: list[float] = []
    told = 0
    for number in range(1, args.rounds + 1):
        plain, _ = _run(["check", repo])
        history.unlink(missing_ok=True)
        cold, _ = _run(["check", repo, "--provenance"])
        warm, out = _run(["check", repo, "--provenance", "--format", "json"])
        findings = json.loads(out)["findings"]
        told = sum(1 for f in findings if f["provenance"] and f["provenance"]["summary"])
        cold_ratios.append(cold / plain)
        warm_ratios.append(warm / plain)
        print(
            f"round {number}: check {plain:.2f}s  --provenance cold {cold:.2f}s "
            f"(ratio {cold / plain:.2f})  warm {warm:.2f}s (ratio {warm / plain:.2f})",
            flush=True,
        )
    print(f"findings with a history: {told} of {len(findings)}")
    print(
        f"median ratio --provenance (history cache cold) / check: {statistics.median(cold_ratios):.2f}"
    )
    print(
        f"median ratio --provenance (history cache warm) / check: {statistics.median(warm_ratios):.2f}"
    )


if __name__ == "__main__":
    main()
