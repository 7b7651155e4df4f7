"""The recall bench's scoring (``bench/recall.py``): an item is found only
by a finding whose rule fits its kind, on its whole key in one of its files
or at one of its places; a miss says where it was lost; errors are judged
or listed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).parent.parent / "bench"
_spec = importlib.util.spec_from_file_location("recall", BENCH / "recall.py")
assert _spec is not None and _spec.loader is not None
recall = importlib.util.module_from_spec(_spec)
sys.modules["recall"] = recall  # its dataclasses look their module up
_spec.loader.exec_module(recall)

ITEM = {
    "key": "worker-timeout",
    "kind": "documented-not-accepted",
    "doc": "docs/s.rst:10",
    "code": "pkg/c.py:3",
}


def _finding(
    key: str,
    path: str,
    severity: str = "error",
    related: tuple[str, ...] = (),
    rule: str = "documented-not-accepted",
    line: int = 1,
) -> dict:
    return {
        "code": "CD101",
        "rule": rule,
        "key": key,
        "path": path,
        "line": line,
        "severity": severity,
        "message": "m",
        "related": [{"path": p, "line": 1, "note": ""} for p in related],
    }


def test_an_item_is_found_by_its_key_at_one_of_its_places():
    assert recall.matches(ITEM, _finding("server.worker_timeout", "docs/s.rst"))
    assert recall.matches(ITEM, _finding("WORKER_TIMEOUT", "other.md", related=("pkg/c.py",)))


def test_an_item_is_not_found_by_another_key_or_another_place():
    assert not recall.matches(ITEM, _finding("worker_timeouts", "docs/s.rst"))
    assert not recall.matches(ITEM, _finding("worker_timeout", "docs/other.rst"))


def test_an_item_is_found_only_by_a_rule_that_fits_its_kind():
    # A key documented that the schema does not take: CD101 or CD102 alike.
    assert recall.matches(
        ITEM, _finding("worker_timeout", "docs/s.rst", rule="documented-not-read")
    )
    assert not recall.matches(ITEM, _finding("worker_timeout", "docs/s.rst", rule="undocumented"))


def test_a_finding_on_the_last_part_of_a_longer_key_does_not_name_it():
    item = {**ITEM, "key": "rules:references.ignore_words", "kind": "undocumented"}
    other = _finding("ignore_words", "docs/s.rst", rule="undocumented")
    assert not recall.matches(item, other)
    assert recall.matches(item, {**other, "key": "rules.references.ignore-words"})


def test_a_callable_s_keyword_is_named_by_the_keyword_and_the_callable():
    item = {**ITEM, "key": "rank", "kind": "undocumented"}
    found = _finding("AdapterConfig(rank=)", "docs/s.rst", rule="undocumented")
    assert recall.matches(item, found)
    assert recall.matches({**item, "key": "AdapterConfig(rank=)"}, found)
    assert not recall.matches({**item, "key": "OtherConfig(rank=)"}, found)
    assert not recall.matches({**item, "key": "alpha"}, found)


def test_a_command_s_flag_is_named_by_the_flag_at_its_declaration():
    item = {"key": "run --cert", "kind": "undocumented", "doc": None, "code": "pkg/cli.py:30"}
    found = _finding("--cert", "pkg/cli.py", rule="undocumented", line=29)
    assert recall.key_parts("run --cert") == ("run", "cert")
    assert recall.matches(item, found)
    # Another command's flag of that name is declared elsewhere.
    assert not recall.matches(item, {**found, "line": 60})
    assert not recall.matches(item, {**found, "key": "--key"})


def test_a_finding_on_the_items_doc_line_reports_it_whatever_key_it_names():
    assert recall.matches(ITEM, _finding("server.timeout", "docs/s.rst", line=10))
    # Near it, another key is another row's: not the item.
    assert not recall.matches(ITEM, _finding("server.timeout", "docs/s.rst", line=11))
    assert not recall.matches(ITEM, _finding("server.timeout", "docs/s.rst", line=20))
    # Near it, a finding that names no key, or the end of the item's path.
    assert recall.matches(ITEM, _finding("", "docs/s.rst", line=11))
    item = {**ITEM, "key": "tool.app.worker-timeout"}
    assert recall.matches(item, _finding("worker-timeout", "docs/s.rst", line=11))
    assert not recall.matches(item, _finding("worker-timeout", "docs/s.rst", line=20))


def test_a_finding_on_a_declarations_line_reports_it_in_another_spelling():
    item = {"key": "main_env", "kind": "undocumented", "doc": None, "code": "pkg/d.py:92"}
    undocumented = {"rule": "undocumented"}
    found = _finding("MAIN_ENV_FOR_APP", "pkg/d.py", line=92)
    assert recall.matches(item, {**found, **undocumented})
    assert recall.matches(item, {**found, **undocumented, "key": "APP_MAIN_ENV"})
    # Another key on the line (a one-line dict), another line, or a kind
    # whose code side is not the key's own declaration: not the item.
    assert not recall.matches(item, {**found, **undocumented, "key": "MAIN_PATH_FOR_APP"})
    assert not recall.matches(item, {**found, **undocumented, "line": 93})
    rejected = {**item, "kind": "documented-not-accepted"}
    assert not recall.matches(rejected, {**found, "rule": "documented-not-accepted"})


def _project(keys=(), entries=(), docs=()):
    """A map of one surface: keys and entries as (name, place) or (name,
    place, default)."""
    return {
        "surfaces": [
            {
                "keys": [{"path": k[0], "location": k[1], "default": _third(k)} for k in keys],
                "entries": [
                    {"name": e[0], "path": e[0], "location": e[1], "default": _third(e)}
                    for e in entries
                ],
                "docs": list(docs),
            }
        ]
    }


def _third(row):
    return row[2] if len(row) > 2 else None


#: What ``map --unread`` says of a page that names too few keys.
_TOO_FEW = "not parsed: it names too few keys of any configuration"


def test_a_miss_is_lost_where_map_shows_it_stops():
    item = {"key": "port", "kind": "default-mismatch", "doc": "d.md:4", "code": "c.py:9"}
    assert recall.stage(item, _project()) == "no surface"
    assert (
        recall.stage(item, _project(keys=[("port", "c.py:9")]))
        == "entry not placed: page not read, no reference page"
    )
    # A reference page map --unread lists says why it was not read.
    unread = {
        **_project(keys=[("port", "c.py:9")]),
        "unread": [{"path": "d.md", "reason": _TOO_FEW}],
    }
    assert (
        recall.stage(item, unread)
        == "entry not placed: page not read, reference page, too few keys"
    )
    other = {**unread, "unread": [{"path": "e.md", "reason": _TOO_FEW}]}
    assert recall.stage(item, other) == "entry not placed: page not read, no reference page"
    read = _project(keys=[("port", "c.py:9")], docs=["d.md"])
    assert recall.stage(item, read) == "entry not placed: page read"
    placed = _project(keys=[("port", "c.py:9")], entries=[("port", "d.md:4")])
    assert recall.stage(item, placed) == "no rule: doc default not read"
    stated = _project(keys=[("port", "c.py:9")], entries=[("port", "d.md:4", "80")])
    assert recall.stage(item, stated) == "no rule: code default not known"
    both = _project(keys=[("port", "c.py:9", "8080")], entries=[("port", "d.md:4", "80")])
    assert recall.stage(item, both) == "no rule: defaults compared alike"
    # A neighbour's known default says nothing of the key's own.
    beside = _project(
        keys=[("port", "c.py:9"), ("host", "c.py:10", "x")], entries=[("port", "d.md:4", "80")]
    )
    assert recall.stage(item, beside) == "no rule: code default not known"
    # Nor a neighbouring entry's stated default the key's own entry lacks.
    stated_beside = _project(
        keys=[("port", "c.py:9", "8080")], entries=[("port", "d.md:4"), ("host", "d.md:5", "x")]
    )
    assert recall.stage(item, stated_beside) == "no rule: doc default not read"
    # A kind with no default is lost at the stage alone.
    other = {**item, "kind": "type-mismatch"}
    assert recall.stage(other, both) == "no rule"
    # An undocumented key says what map makes of it.
    gap = {"key": "port", "kind": "undocumented", "doc": None, "code": "c.py:9"}
    keys = [{"path": "port", "location": "c.py:9", "default": None, "state": "exempt"}]
    assert recall.stage(gap, {"surfaces": [{"keys": keys, "entries": []}]}) == "no rule: key exempt"


def test_errors_are_real_by_an_item_or_a_judgment_and_listed_otherwise():
    truth = {
        "repo": "o/p",
        "half": "report",
        "drift": [ITEM],
        "judged": [{"code": "CD101", "key": "x", "place": "a.md:1", "verdict": "false"}],
    }
    report = {
        "findings": [
            _finding("worker_timeout", "docs/s.rst"),
            _finding("x", "a.md"),
            _finding("y", "b.md"),
            _finding("z", "c.md", severity="warning"),
        ]
    }
    s = recall.score(truth, report, _project())
    assert (s.items, s.found, s.errors, s.real, s.false) == (1, 1, 3, 1, 1)
    assert len(s.unjudged) == 1 and s.unjudged[0].startswith("CD101 y b.md:1")


def test_every_truth_file_has_the_shape_the_bench_reads():
    kinds = {
        "documented-not-accepted", "documented-not-read", "undocumented", "default-mismatch",
        "type-mismatch", "read-default-conflict", "dead-accessor", "inert-option",
        "example-rejected", "example-ignored", "example-invalid-value", "example-unparseable",
        "removed-key-leftover", "deprecated-key-documented", "removed-key-accepted",
    }  # fmt: skip
    for path in sorted((BENCH / "truth").glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        assert path.stem == truth["repo"].replace("/", "__"), path
        assert len(truth["commit"]) == 40 and truth["half"] in ("tune", "report"), path
        for item in truth["drift"]:
            assert item["kind"] in kinds and item["key"], (path, item)
            assert item.get("doc") or item.get("code"), (path, item)
