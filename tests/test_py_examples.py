"""Config dicts of Python tests and examples, read from the file alone."""

from __future__ import annotations

import textwrap

from configdrift.extract.python.examples import extract_py_examples
from configdrift.model import format_path


def _examples(source: str) -> list[tuple[int, str, list[tuple[str, int, str, object]]]]:
    found = extract_py_examples(textwrap.dedent(source).encode())
    return [
        (e.line, e.callee, [(format_path(k.path), k.line, k.kind, k.value) for k in e.keys])
        for e in found
    ]


def test_a_dict_handed_to_a_call_directly_or_by_name() -> None:
    got = _examples(
        """
        import deepspeed
        def test(stage):
            cfg = {
                "a": 1,
                "b": {"c": [1, 2], "d": stage, "e": -0.5, "f": None},
                "g": [{"h": f"x{stage}"}],
                **extra,
                KEY: 1,
            }
            deepspeed.initialize(config=cfg, model=m)
        Config({"x": "y"})
        """
    )
    assert got == [
        (
            4,
            "deepspeed.initialize",
            [
                ("a", 5, "value", 1),
                ("b", 6, "dict", None),
                ("b.c", 6, "list", [1, 2]),
                ("b.d", 6, "placeholder", None),  # a name: not known statically
                ("b.e", 6, "value", -0.5),
                ("b.f", 6, "value", None),
                ("g", 7, "list", None),
                ("g[].h", 7, "placeholder", None),  # an f-string
            ],
        ),
        (12, "Config", [("x", 12, "value", "y")]),
    ]


def test_dicts_that_are_not_handed_on_or_are_wrong_on_purpose_are_left_out() -> None:
    got = _examples(
        """
        import pytest
        unused = {"a": 1}
        def test_raises():
            cfg = {"a": 1}
            with pytest.raises(ValueError):
                build(cfg)
        def test_unittest(self):
            cfg = {"a": 1}
            self.assertRaises(ValueError, build, cfg)
        def test_popped():
            cfg = {"a": 1, "b": 2}
            cfg.pop("b")
            build(cfg)
        def test_deleted():
            cfg = {"a": 1, "b": 2}
            del cfg["b"]
            build(cfg)
        """
    )
    assert got == []


def test_a_module_level_dict_is_seen_from_functions_once() -> None:
    got = _examples(
        """
        BASE = {"a": 1}
        def one():
            first(BASE)
            second(BASE)
        def two():
            third(BASE)
        """
    )
    # Named by its first use in the source.
    assert [(line, callee) for line, callee, _ in got] == [(2, "first")]


def test_unparseable_python_yields_nothing() -> None:
    assert extract_py_examples(b"def broken(:\n    build({'a': 1})\n") == []
    assert extract_py_examples(b"\xff\xfe not text") == []
