"""The settings bench (``bench/settings_recall.py``): which labeled pairs of
spellings count as linked, and which findings find a drift item."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).parent.parent / "bench"
sys.path.insert(0, str(BENCH))
_spec = importlib.util.spec_from_file_location("settings_recall", BENCH / "settings_recall.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

SETTING = {
    "name": "bind",
    "spellings": [
        {"kind": "key", "name": "bind", "place": "c.py:1"},
        {"kind": "flag", "name": "-b", "place": "c.py:2"},
        {"kind": "flag", "name": "--bind / --no-bind", "place": "c.py:2"},
        {"kind": "env", "name": "APP_BIND", "place": "c.py:3"},
    ],
}


def test_a_short_flag_is_its_long_flags_and_notes_go() -> None:
    assert bench.spelt(SETTING) == [("key", "bind"), ("flag", "--bind"), ("env", "APP_BIND")]


def test_a_pair_is_linked_only_when_one_setting_holds_both_names() -> None:
    truth = {"settings": [SETTING]}
    found = [
        {"spellings": [{"name": "bind"}, {"name": "--bind"}]},
        {"spellings": [{"name": "APP_BIND"}, {"name": "--other"}]},
    ]
    counts = bench.pairs(truth, found)
    assert counts == {("flag", "key"): [1, 1], ("env", "key"): [0, 1], ("env", "flag"): [0, 1]}


def test_drift_is_found_only_by_a_rule_that_reports_its_kind() -> None:
    item = {
        "key": "--bind",
        "kind": "setting-default-mismatch",
        "doc": None,
        "code": "c.py:2",
    }

    def finding(code: str) -> dict:
        return {"code": code, "key": "--bind", "path": "c.py", "line": 2, "related": []}

    assert bench.found_by(item, [finding("CD601")])
    # An undocumented flag at the same place is not a default that disagrees.
    assert not bench.found_by(item, [finding("CD103")])


def test_every_truth_file_has_the_shape_the_bench_reads() -> None:
    files = sorted((BENCH / "truth_settings").glob("*.json"))
    assert len(files) >= 7
    for path in files:
        truth = json.loads(path.read_text(encoding="utf-8"))
        assert truth["half"] in ("tune", "report"), path.name
        assert len(truth["commit"]) == 40, path.name
        for setting in truth["settings"]:
            assert len(setting["spellings"]) >= 2, (path.name, setting["name"])
            assert {s["kind"] for s in setting["spellings"]} <= {"key", "env", "flag"}
        for item in truth["drift"]:
            assert item["kind"] in bench.RULES, (path.name, item["key"])
            assert item["code"], (path.name, item["key"])
