"""Recall of one setting across its spellings (``link``, CD6xx) on a
labeled set of its own (``bench/truth_settings/``).

Usage: python bench/settings_recall.py CLONES [--half tune|report|all] [--python PY]

Each truth file lists a project's settings that users can set in more than
one way (a config key, an environment variable, a flag), each spelling with
its place, and the drift between spellings verified by hand. For each
project (``CLONES/NAME``, at the file's commit) this runs a zero-config
``configdrift map --settings`` and ``check``, and prints:

- pairs: of the labeled spellings of each setting, the pairs that
  configdrift makes one setting (both names in one of its settings), by
  the kinds of the pair (a short flag counts as its long flag's);
- drift: the items found, as ``recall.py`` matches them (a finding on the
  item's key at one of its places), by a rule that reports such drift
  (``RULES``: an undocumented flag is no default that disagrees).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from recall import head, names_item, ratio

TRUTH = Path(__file__).parent / "truth_settings"

#: The rules that report each kind of drift.
RULES = {
    "setting-default-mismatch": {"CD601"},
    "setting-type-mismatch": {"CD602"},
    "setting-doc-default-mismatch": {"CD603", "CD104"},
    "setting-docs-disagree": {"CD604"},
    "default-mismatch": {"CD104"},
}


def found_by(item: dict[str, Any], findings: list[dict[str, Any]]) -> bool:
    """Does a finding of a rule that reports the item's kind name it?"""
    rules = RULES[item["kind"]]
    return any(f["code"] in rules and names_item(item, f) for f in findings)


def spelt(setting: dict[str, Any]) -> list[tuple[str, str]]:
    """A labeled setting's spellings as (kind, name): a name's notes go
    (``--x / --no-x`` is ``--x``), and a short flag is its long flag's."""
    out = [(s["kind"], s["name"].split(" ")[0].split("/")[0]) for s in setting["spellings"]]
    longs = any(name.startswith("--") for _, name in out)
    out = [(k, n) for k, n in out if not (longs and k == "flag" and not n.startswith("--"))]
    return list(dict.fromkeys(out))


def pairs(truth: dict[str, Any], found: list[dict[str, Any]]) -> dict[tuple[str, str], list[int]]:
    """Per pair of kinds: [linked, labeled]."""
    groups = [{s["name"] for s in setting["spellings"]} for setting in found]
    out: dict[tuple[str, str], list[int]] = {}
    for setting in truth["settings"]:
        for (kind_a, a), (kind_b, b) in itertools.combinations(spelt(setting), 2):
            if a == b:
                continue
            counts = out.setdefault(tuple(sorted((kind_a, kind_b))), [0, 0])  # type: ignore[arg-type]
            counts[0] += any(a in group and b in group for group in groups)
            counts[1] += 1
    return out


def run(python: str, clone: Path, *args: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [python, "-m", "configdrift", *args, ".", "--format", "json", "--no-cache"],
        cwd=clone,
        capture_output=True,
        env=env,
        check=False,
        timeout=900,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    document: dict[str, Any] = json.loads(proc.stdout)
    return document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clones", type=Path)
    parser.add_argument("--half", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    linked = labeled = items = hits = 0
    for path in sorted(TRUTH.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        if args.half != "all" and truth["half"] != args.half:
            continue
        name = truth["repo"].split("/")[1]
        clone = args.clones / name
        if not clone.is_dir() or head(clone) != truth["commit"]:
            print(f"{name:12} {truth['half']:6} not run: no clone at {truth['commit'][:10]}")
            continue
        settings = run(args.python, clone, "map", "--settings")["projects"][0]["settings"]
        findings = run(args.python, clone, "check")["findings"]
        counts = pairs(truth, settings)
        got = sum(c[0] for c in counts.values())
        of = sum(c[1] for c in counts.values())
        found = [i for i in truth["drift"] if found_by(i, findings)]
        by_kind = ", ".join(f"{'-'.join(k)} {c[0]}/{c[1]}" for k, c in sorted(counts.items()))
        print(
            f"{name:12} {truth['half']:6} pairs {ratio(got, of):14} drift "
            f"{ratio(len(found), len(truth['drift'])):10} ({by_kind})"
        )
        linked, labeled = linked + got, labeled + of
        items, hits = items + len(truth["drift"]), hits + len(found)
    print(f"overall: pairs linked {ratio(linked, labeled)}; drift found {ratio(hits, items)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
