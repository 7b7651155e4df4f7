"""The recall bench's scoring (``bench/recall.py``): an item is found only
by a finding on its key at one of its places; errors are judged or listed."""

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


def _finding(key: str, path: str, severity: str = "error", related: tuple[str, ...] = ()) -> dict:
    return {
        "code": "CD101",
        "key": key,
        "path": path,
        "line": 1,
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
    s = recall.score(truth, report)
    assert (s.items, s.found, s.errors, s.real, s.false) == (1, 1, 3, 1, 1)
    assert len(s.unjudged) == 1 and s.unjudged[0].startswith("CD101 y b.md:1")


def test_every_truth_file_has_the_shape_the_bench_reads():
    kinds = {
        "documented-not-accepted", "documented-not-read", "undocumented", "default-mismatch",
        "type-mismatch", "read-default-conflict", "dead-accessor", "inert-option",
        "example-rejected", "example-ignored", "example-invalid-value",
        "removed-key-leftover", "deprecated-key-documented", "removed-key-accepted",
    }  # fmt: skip
    for path in sorted((BENCH / "truth").glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        assert path.stem == truth["repo"].replace("/", "__"), path
        assert len(truth["commit"]) == 40 and truth["half"] in ("tune", "report"), path
        for item in truth["drift"]:
            assert item["kind"] in kinds and item["key"], (path, item)
            assert item.get("doc") or item.get("code"), (path, item)
