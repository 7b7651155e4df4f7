from __future__ import annotations

import pytest

from configdrift.extract.docs.blocks import block_keys, top_keys
from configdrift.model import format_path


def paths(text: str) -> list[tuple[str, ...]]:
    return [k.path for k in block_keys(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1, "b": {"c": 2}}', [("a",), ("b",), ("b", "c")]),
        ('"a": {"b": 1}', [("a",), ("a", "b")]),
        ('"a": {\n  // comment "x": 1\n  "b": [true|false], /* "y": 2 */\n}', [("a",), ("a", "b")]),
        (
            '"a": {"b": [0|1|2|3], "c": "[cpu|nvme]", "d": 5e8,}',
            [("a",), ("a", "b"), ("a", "c"), ("a", "d")],
        ),
        ('"a": {\n  "b": {...},\n  ...\n  "c": 1\n}', [("a",), ("a", "b"), ("a", "c")]),
        (
            '"a": {"list": [{"x": 1}, {"y": 2}]}',
            [("a",), ("a", "list"), ("a", "list", "[]", "x"), ("a", "list", "[]", "y")],
        ),
        ("{'a': {'b': True}}", [("a",), ("a", "b")]),
        ('"a": true (deprecated; use b),\n"b": 1', [("a",), ("b",)]),
        ('{"a": {"b": 1', [("a",), ("a", "b")]),
        ("no keys here", []),
    ],
)
def test_block_structure(text: str, expected: list[tuple[str, ...]]) -> None:
    assert paths(text) == expected


def test_top_keys() -> None:
    assert top_keys(block_keys('{"a": {"x": 1}, "b": 2, "a": 3}')) == ["a", "b"]


def test_lines_are_offsets_from_the_block_start() -> None:
    keys = block_keys('{\n  "a": {\n    "b": 1\n  }\n}')
    assert [(k.path, k.line) for k in keys] == [(("a",), 1), (("a", "b"), 2)]


def test_deep_nesting_does_not_recurse() -> None:
    text = '"k": ' + "{" * 5000 + '"leaf": 1' + "}" * 5000
    keys = block_keys(text)
    assert keys[-1].path[-1] == "leaf"


def test_values_are_kept_and_placeholders_marked() -> None:
    text = """{
  "n": 5e8, "i": -3, "s": "cpu", "b": false, "z": null, "py": True,
  "d": {"x": 1}, "l": [1, 2], "deep": [{"y": 2}],
  "p1": [true|false], "p2": "[cpu|nvme]", "p3": <int>, "p4": "auto", "p5": ...,
  "p6": "YOUR_PATH", "p7": "number of steps", "p8": 1 << 20
  "after_missing_comma": 1
}"""
    got = {format_path(k.path): (k.kind, k.value) for k in block_keys(text)}
    assert got["n"] == ("value", 5e8)
    assert got["i"] == ("value", -3)
    assert got["s"] == ("value", "cpu")
    assert got["b"] == ("value", False)
    assert got["z"] == ("value", None)
    assert got["py"] == ("value", True)
    assert got["d"] == ("dict", None)
    assert got["l"] == ("list", [1, 2])
    assert got["deep"] == ("list", None)
    for name in ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"):
        assert got[name] == ("placeholder", None), name
    assert got["after_missing_comma"] == ("value", 1)
