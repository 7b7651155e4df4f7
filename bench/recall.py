"""Recall and error precision of configdrift on the labeled set (``bench/truth/``).

Usage: python bench/recall.py CLONES [--half tune|report|all] [--python PY] [--json]

For each truth file, runs a zero-config ``configdrift check --format json``
in ``CLONES/NAME`` (the clone of ``OWNER/NAME``, checked out at the file's
commit) and prints, per project and per half:

- recall: the drift items found, an item being found when a finding's rule
  fits the item's kind (``FITS``) and the finding names the item's whole
  key (``-`` and ``_`` alike, any case; a longer path ending with it
  counts; a placeholder, ``<ENV>`` or ``*``, matches any part) in one of
  the item's files; a finding that names no key, or the end of the
  item's path (a surface rooted below it), where it sits at one of the
  item's two places (its own place or a related one, within two lines);
  a finding of another key on the item's very doc line. A finding of
  another key near the item's place (the next row of a table) is not it;
- for each missed item, the stage where it is lost, from ``configdrift map``'s
  keys and entries: no surface holds its key, its doc entry is not placed
  (its page read, or not: then whether ``map --unread`` lists it as a
  reference page it did not read, and why), or both are there and no rule
  fires;
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


#: The rules whose finding reports drift of each kind: the rule named,
#: and the ones that report the same disagreement in other words (a key
#: documented that the schema does not take is CD101 or CD102 as the
#: schema is strict or lenient; a setting's spellings band says it of one
#: setting's several spellings).
#: A key the docs name that the code lacks is one disagreement however the
#: docs name it: an entry, or a config example that sets it (CD301, CD302);
#: a removed key still documented is reported as a documented key nothing
#: accepts or reads; a documented key the code declares and never reads is
#: an inert option.
_NOT_TAKEN = {
    "documented-not-accepted",
    "documented-not-read",
    "example-rejected",
    "example-ignored",
}

FITS: dict[str, set[str]] = {
    "documented-not-accepted": _NOT_TAKEN,
    "documented-not-read": _NOT_TAKEN | {"inert-option"},
    "undocumented": {"undocumented"},
    "default-mismatch": {
        "default-mismatch",
        "setting-default-mismatch",
        "setting-doc-default-mismatch",
        "setting-docs-disagree",
    },
    "type-mismatch": {"type-mismatch", "setting-type-mismatch"},
    "read-default-conflict": {"read-default-conflict", "setting-default-mismatch"},
    "dead-accessor": {"dead-accessor"},
    "inert-option": {"inert-option"},
    "example-rejected": _NOT_TAKEN,
    "example-ignored": _NOT_TAKEN,
    "example-invalid-value": {"example-invalid-value"},
    "example-unparseable": {"example-unparseable"},
    "removed-key-leftover": {"removed-key-leftover", "deprecated-key-documented", *_NOT_TAKEN},
    "deprecated-key-documented": {"deprecated-key-documented", "removed-key-leftover"},
    "removed-key-accepted": {"removed-key-accepted"},
}

#: How far (in lines) a finding may sit from an item's place and still be
#: at it: a truth file may point at an entry's heading, the finding at its
#: first line.
NEAR = 2


def key_parts(key: str) -> tuple[str, ...]:
    """A key's parts as the matching compares them: ``-`` and ``_`` alike,
    any case, split at ``.``, ``:`` and ``/``, a callable's keyword
    (``Config(rank=)``) as a part below the callable, a command's flag
    (``run --cert``) as a part below the command, a flag's dashes dropped, a
    list's ``[]`` dropped, and a placeholder (``<ENV>``, ``{name}``, ``*``)
    as ``*``."""
    # A command's flag (``run --cert``): the flag below the command.
    key = ".".join(word.lstrip("-") for word in key.split())
    key = key.replace("-", "_").replace("[]", "").lower()
    if key.endswith("=)") and "(" in key:
        # A callable's keyword (``Config(rank=)``): the keyword of that callable.
        key = key[:-2].replace("(", ".", 1)
    for sep in (":", "/"):
        key = key.replace(sep, ".")
    return tuple(_part(part) for part in key.split(".") if part)


def _part(part: str) -> str:
    """A path part, a placeholder the reader replaces as ``*``."""
    if part == "*" or (part[:1], part[-1:]) in (("<", ">"), ("{", "}")):
        return "*"
    return part


def names_key(item_key: str, key: str) -> bool:
    """Whether ``key`` names the whole of ``item_key``: equal, or ending with
    it part by part (``tool.isort.skip`` names ``skip``; ``skip`` does not
    name ``tool.isort.skip``); a placeholder matches any part."""
    want, have = key_parts(item_key), key_parts(key)
    if not want or len(have) < len(want):
        return False
    return all(w == h or "*" in (w, h) for w, h in zip(want, have[-len(want) :], strict=True))


def split_place(place: str | None) -> tuple[str, int | None] | None:
    if not place:
        return None
    path, _, line = place.rpartition(":")
    if path and line.isdigit():
        return path, int(line)
    return place, None


def place_path(place: str | None) -> str | None:
    split = split_place(place)
    return split[0] if split else None


def finding_places(finding: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [
        (finding["path"], finding["line"]),
        *((r["path"], r["line"]) for r in finding.get("related") or ()),
    ]


def finding_paths(finding: dict[str, Any]) -> set[str]:
    return {path for path, _ in finding_places(finding)}


def close(want: tuple[str, int | None] | None, have: tuple[str, int | None] | None) -> bool:
    """Whether two places are one file within ``NEAR`` lines (a place with
    no line is anywhere in its file)."""
    if want is None or have is None or want[0] != have[0]:
        return False
    return want[1] is None or have[1] is None or abs(want[1] - have[1]) <= NEAR


def near(place: str | None, location: str | None) -> bool:
    return close(split_place(place), split_place(location))


def at_place(item: dict[str, Any], finding: dict[str, Any]) -> bool:
    """Whether the finding sits at one of the item's two places, line and all."""
    wanted = [split_place(p) for p in (item.get("doc"), item.get("code"))]
    return any(
        close(want, have)
        for want in wanted
        if want is not None and want[1] is not None
        for have in finding_places(finding)
    )


def matches(item: dict[str, Any], finding: dict[str, Any]) -> bool:
    """A finding reports an item when its rule fits the item's kind and it
    names the item's whole key at one of the item's files, or sits at one
    of its places."""
    if finding.get("rule") not in FITS.get(item["kind"], {item["kind"]}):
        return False
    return names_item(item, finding)


def names_item(item: dict[str, Any], finding: dict[str, Any]) -> bool:
    """Whether the finding reports the item's key, whatever its rule: it
    names the whole key (or a key ending with it) in one of the item's
    files; or it sits at one of the item's places (within ``NEAR`` lines)
    and names no key, or the end of the item's path (a surface rooted
    below it); or it sits on the item's very doc line (the entry there,
    whatever path configdrift gives it); or, for a key the code declares,
    it sits on the declaration's very line and names the key in another
    spelling of it (``MAIN_ENV_FOR_DYNACONF`` for ``main_env``). A finding
    of another key near the item's place (the next row of a table) is not
    the item."""
    key = finding.get("key") or ""
    if key and names_key(item["key"], key):
        places = {p for p in (place_path(item.get("doc")), place_path(item.get("code"))) if p}
        return not places or bool(places & finding_paths(finding))
    if not key or names_key(key, item["key"]):
        return at_place(item, finding)
    if (
        item["kind"] in DECLARED
        and split_place(item.get("code")) == (finding["path"], finding["line"])
        and spells_key(item["key"], key)
    ):
        return True
    doc = split_place(item.get("doc"))
    return doc is not None and doc[1] is not None and doc in finding_places(finding)


def spells_key(item_key: str, key: str) -> bool:
    """Whether ``key``'s last part holds the words of ``item_key``'s last
    part in a row, with a prefix or a suffix of its own: the key in an
    environment variable's spelling (``APP_MAIN_ENV``, ``MAIN_ENV_FOR_APP``)."""
    want, have = key_parts(item_key), key_parts(key)
    if not want or not have:
        return False
    words, among = want[-1].split("_"), have[-1].split("_")
    return any(among[i : i + len(words)] == words for i in range(len(among) - len(words) + 1))


def norm_key(key: str) -> str:
    """A key's last part (how a judgment names a finding's key)."""
    parts = key_parts(key)
    return parts[-1] if parts else ""


#: The kinds whose key the schema declares (the code side is the key's own
#: declaration); for the others the code side is where its siblings are.
DECLARED = {
    "undocumented",
    "default-mismatch",
    "type-mismatch",
    "read-default-conflict",
    "inert-option",
    "removed-key-accepted",
    "deprecated-key-documented",
}
#: The kinds whose doc side is an entry that describes the key.
ENTRY = {
    "documented-not-accepted",
    "documented-not-read",
    "default-mismatch",
    "type-mismatch",
    "deprecated-key-documented",
}

STAGES = ("no surface", "entry not placed", "no rule")


def stage(item: dict[str, Any], project: dict[str, Any]) -> str:
    """Where a missed item is lost, from ``map``'s keys and entries: no
    surface holds its key (or, for a key nothing declares, any key of the
    file that declares its siblings); its doc entry is not placed; or both
    sides are there and no rule fires."""
    surfaces = project.get("surfaces", [])
    keys = [k for s in surfaces for k in s.get("keys", ())]
    entries = [e for s in surfaces for e in s.get("entries", ())]
    code = item.get("code")
    if item["kind"] in DECLARED:
        declared = any(names_key(item["key"], k["path"]) or near(code, k["location"]) for k in keys)
    elif code:
        declared = any(place_path(k["location"]) == place_path(code) for k in keys)
    else:
        declared = bool(keys)
    if not declared:
        return STAGES[0]
    doc = item.get("doc")
    if item["kind"] in ENTRY:
        placed = any(
            names_key(item["key"], e["path"])
            or names_key(item["key"], e["name"])
            or near(doc, e["location"])
            for e in entries
        )
    elif doc:
        pages = {d for s in surfaces for d in s.get("docs", ())}
        placed = place_path(doc) in pages or any(
            place_path(e["location"]) == place_path(doc) for e in entries
        )
    else:
        placed = True
    if not placed:
        pages = {d for s in surfaces for d in s.get("docs", ())}
        if doc is not None and place_path(doc) in pages:
            return f"{STAGES[1]}: page read"
        return f"{STAGES[1]}: page not read, {_why_unread(doc, project)}"
    if item["kind"] == "default-mismatch":
        return f"{STAGES[2]}: {_default_gap(item, keys, entries)}"
    if item["kind"] == "undocumented":
        states = {k["state"] for k in keys if names_key(item["key"], k["path"])}
        return f"{STAGES[2]}: key {'/'.join(sorted(states)) or 'not named'}"
    return STAGES[2]


#: What ``map --unread`` says of a reference page it did not read, in
#: short (a count of its entries differs from page to page).
_UNREAD = (
    ("names too few keys", "too few keys"),
    ("none of them a key", "no key of a configuration"),
    ("no entry in a recognised form", "no entry read"),
)


def _why_unread(doc: str | None, project: dict[str, Any]) -> str:
    """Why an item's page is read by no surface, from ``map --unread``: a
    reference page it did not read (and why), or a page that looks like
    no reference (a guide, an example, a docstring)."""
    path = place_path(doc)
    reason = next((u["reason"] for u in project.get("unread", ()) if u["path"] == path), None)
    if reason is None:
        return "no reference page"
    return "reference page, " + next((short for long, short in _UNREAD if long in reason), "other")


def _default_gap(item: dict[str, Any], keys: list[Any], entries: list[Any]) -> str:
    """Why no default mismatch was found where both sides are there: the
    page states no default configdrift reads, the code's is not known
    statically, or both are known and compare equal (or not at all)."""
    doc, code = item.get("doc"), item.get("code")
    # The item's own key's, where a side names it; else those near its place
    # (a neighbour's default says nothing of a key that has its own).
    named = [
        e for e in entries if names_key(item["key"], e["path"]) or names_key(item["key"], e["name"])
    ]
    stated = [e.get("default") for e in named or [e for e in entries if near(doc, e["location"])]]
    own = [k for k in keys if names_key(item["key"], k["path"])]
    known = [k.get("default") for k in own or [k for k in keys if near(code, k["location"])]]
    if not any(stated):
        return "doc default not read"
    if not any(known):
        return "code default not known"
    return "defaults compared alike"


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
    lost: dict[str, int] = field(default_factory=dict)
    problem: str | None = None


def score(truth: dict[str, Any], report: dict[str, Any], project: dict[str, Any]) -> Score:
    name = truth["repo"].split("/")[1]
    result = Score(name, truth.get("half", "tune"))
    findings = report["findings"]
    for item in truth["drift"]:
        result.items += 1
        if any(matches(item, f) for f in findings):
            result.found += 1
        else:
            lost = stage(item, project)
            result.lost[lost] = result.lost.get(lost, 0) + 1
            result.missed.append(
                f"[{lost}] {item['kind']} {item['key']} ({item.get('doc') or item.get('code')})"
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


def run_check(
    python: str, clone: Path, timeout: int, command: str = "check", *options: str
) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [python, "-m", "configdrift", command, ".", *options, "--format", "json", "--no-cache"],
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
            (project,) = run_check(args.python, clone, args.timeout, "map", "--unread")["projects"]
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as exc:
            scores.append(Score(name, truth.get("half", "tune"), problem=str(exc)))
            continue
        scores.append(score(truth, report, project))
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
    for half in ("tune", "report"):
        part = [s for s in run if s.half == half]
        if part and len({s.half for s in run}) > 1:
            print(
                f"{half}: recall {ratio(sum(s.found for s in part), sum(s.items for s in part))}; "
                f"misses lost at: {_lost(part)}"
            )
    print(f"misses lost at: {_lost(run)}")
    print(
        f"overall ({len(run)} projects): recall {ratio(found, items)}; error findings "
        f"{sum(s.errors for s in run)}: {real} real, {false} false, "
        f"{sum(len(s.unjudged) for s in run)} unjudged; precision of judged errors "
        f"{ratio(real, real + false)}"
    )
    return 0


def _lost(run: list[Score]) -> str:
    """The misses by stage, and a stage's parts where it has them (``no
    rule: doc default not read``)."""
    counts: dict[str, int] = {}
    for score in run:
        for name, count in score.lost.items():
            counts[name] = counts.get(name, 0) + count
    out = []
    for name in STAGES:
        total = sum(c for n, c in counts.items() if n == name or n.startswith(name + ":"))
        parts = sorted(
            (n.split(": ", 1)[1], c) for n, c in counts.items() if n.startswith(name + ":")
        )
        detail = f" ({', '.join(f'{p} {c}' for p, c in parts)})" if parts else ""
        out.append(f"{name} {total}{detail}")
    return ", ".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
