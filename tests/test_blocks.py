from __future__ import annotations

import pytest

from configdrift.extract.docs.blocks import block_keys, top_keys


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
