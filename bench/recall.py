"""Recall and error precision of configdrift on the labeled set (``bench/truth/``).

Usage: python bench/recall.py CLONES [--half tune|report|all] [--python PY] [--json]

For each truth file, runs a zero-config ``configdrift check --format json``
in ``CLONES/NAME`` (the clone of ``OWNER/NAME``, checked out at the file's
commit) and prints, per project and per half:

- recall: the drift items found, an item being found when a finding names
  its key (its last part, ``-`` and ``_`` alike, any case) at one of its two
  places (the finding's own or a related one);
- error findings: those matching an item or judged real in the file's
  ``judged`` list, those judged false, and those not judged yet (listed, to
  be judged from the code and recorded).

A project whose clone is missing or at another commit is reported, not run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TRUTH = Path(__file__).parent / "truth"


def norm_key(key: str) -> str:
    """A key's last part, as the matching compares it."""
    key = key.strip().lstrip("-")
    for sep in (".", ":", "/"):
        key = key.rsplit(sep, 1)[-1]
    return key.replace("-", "_").lower()


def place_path(place: str | None) -> str | None:
    if not place:
        return None
    return place.rsplit(":", 1)[0] if place.rsplit(":", 1)[-1].isdigit() else place


def finding_paths(finding: dict[str, Any]) -> set[str]:
    return {finding["path"], *(r["path"] for r in finding.get("related") or ())}


def matches(item: dict[str, Any], finding: dict[str, Any]) -> bool:
    if norm_key(item["key"]) != norm_key(finding.get("key") or ""):
        return False
    places = {p for p in (place_path(item.get("doc")), place_path(item.get("code"))) if p}
    return not places or bool(places & finding_paths(finding))


def judged(truth: dict[str, Any], finding: dict[str, Any]) -> str | None:
    """``real`` or ``false`` when the file records a judgment of the finding."""
    for entry in truth.get("judged", ()):
        if (
            entry.get("code") == finding["code"]
            and norm_key(entry["key"]) == norm_key(finding.get("key") or "")
            and place_path(entry.get("place")) == finding["path"]
        ):
            return str(entry["verdict"])
    return None


@dataclass
class Score:
    name: str
    half: str
    items: int = 0
    found: int = 0
    errors: int = 0
    real: int = 0
    false: int = 0
    unjudged: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    problem: str | None = None


def score(truth: dict[str, Any], report: dict[str, Any]) -> Score:
    name = truth["repo"].split("/")[1]
    result = Score(name, truth.get("half", "tune"))
    findings = report["findings"]
    for item in truth["drift"]:
        result.items += 1
        if any(matches(item, f) for f in findings):
            result.found += 1
        else:
            result.missed.append(
                f"{item['kind']} {item['key']} ({item.get('doc') or item.get('code')})"
            )
    for finding in findings:
        if finding["severity"] != "error":
            continue
        result.errors += 1
        verdict = judged(truth, finding)
        if verdict is None and any(matches(item, finding) for item in truth["drift"]):
            verdict = "real"
        if verdict == "real":
            result.real += 1
        elif verdict == "false":
            result.false += 1
        else:
            result.unjudged.append(
                f"{finding['code']} {finding['key']} {finding['path']}:{finding['line']}: "
                f"{finding['message']}"
            )
    return result


def run_check(python: str, clone: Path, timeout: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [python, "-m", "configdrift", "check", ".", "--format", "json", "--no-cache"],
        cwd=clone,
        capture_output=True,
        env=env,
        check=False,
        timeout=timeout,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def head(clone: Path) -> str:
    proc = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    return proc.stdout.strip()


def ratio(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f}%)" if b else f"{a}/0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clones", type=Path)
    parser.add_argument("--half", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--verbose", action="store_true", help="list misses and unjudged errors")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    scores: list[Score] = []
    for path in sorted(TRUTH.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        if args.half != "all" and truth.get("half") != args.half:
            continue
        name = truth["repo"].split("/")[1]
        clone = args.clones / name
        if not clone.is_dir():
            scores.append(Score(name, truth.get("half", "tune"), problem="no clone"))
            continue
        if head(clone) != truth["commit"]:
            scores.append(Score(name, truth.get("half", "tune"), problem="clone at another commit"))
            continue
        try:
            report = run_check(args.python, clone, args.timeout)
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as exc:
            scores.append(Score(name, truth.get("half", "tune"), problem=str(exc)))
            continue
        scores.append(score(truth, report))
    if args.json:
        print(json.dumps([s.__dict__ for s in scores], indent=1))
        return 0
    for s in scores:
        if s.problem:
            print(f"{s.name:28} {s.half:6} not run: {s.problem}")
            continue
        print(
            f"{s.name:28} {s.half:6} recall {ratio(s.found, s.items):14} errors {s.errors:3}: "
            f"{s.real} real, {s.false} false, {len(s.unjudged)} unjudged"
        )
        if args.verbose:
            for miss in s.missed:
                print(f"    missed {miss}")
            for line in s.unjudged:
                print(f"    judge  {line}")
    run = [s for s in scores if not s.problem]
    found, items = sum(s.found for s in run), sum(s.items for s in run)
    real, false = sum(s.real for s in run), sum(s.false for s in run)
    print(
        f"overall ({len(run)} projects): recall {ratio(found, items)}; error findings "
        f"{sum(s.errors for s in run)}: {real} real, {false} false, "
        f"{sum(len(s.unjudged) for s in run)} unjudged; precision of judged errors "
        f"{ratio(real, real + false)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
