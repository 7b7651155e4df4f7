from __future__ import annotations

import pytest

from configdrift.extract.docs.block_model import top_keys
from configdrift.extract.docs.blocks import read_block
from configdrift.extract.docs.json_like import block_keys, read_json_like
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


def test_deep_nesting_stops_at_a_bound_without_recursing() -> None:
    text = '"k": ' + "{" * 50_000 + '"leaf": 1' + "}" * 50_000
    read = read_json_like(text)
    assert read.error is not None and "nested deeper than" in read.error
    assert [k.path for k in read.keys] == [("k",)]
    # Within the bound, every level is read.
    text = '"k": ' + '{"k": ' * 90 + "1" + "}" * 90
    assert block_keys(text)[-1].path == ("k",) * 91


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


def test_yaml_keys_lines_values_anchors_and_tags() -> None:
    text = (
        "a: &x\n  b: 1\nc: *x\nd: !!python/object:os.system {x: 1}\n"
        "e: !Ref foo\nf: [true|false]\ng: <int>\nh:\n  - i: yes\n  - j: 2.5\n"
    )
    read = read_block(text, "yaml")
    got = [(format_path(k.path), k.line, k.kind, k.value) for k in read.keys]
    assert read.error is None
    assert got == [
        ("a", 0, "dict", None),
        ("a.b", 1, "value", 1),  # the anchor is walked where it is defined
        ("c", 2, "dict", None),
        ("d", 3, "placeholder", None),  # a custom tag is never constructed
        ("e", 4, "placeholder", None),
        ("f", 5, "placeholder", None),
        ("g", 6, "placeholder", None),
        ("h", 7, "list", None),
        ("h[].i", 8, "value", True),
        ("h[].j", 9, "value", 2.5),
    ]


def test_invalid_yaml_keeps_the_keys_met_before_the_error() -> None:
    read = read_block("a: 1\nb:\n  c: [1, 2\n  d: x: y\n", "yaml")
    assert read.error is not None and read.error.startswith("invalid YAML")
    assert read.error_line == 3
    assert [k.path for k in read.keys] == [("a",), ("b",), ("c",)]


def test_toml_keys_tables_and_arrays_of_tables() -> None:
    text = '[a]\nb = 1\nc = """\nx = 2\n"""\n"q.r" = true\n[[d]]\ne = 1\n[[d]]\ne = "x"\n'
    read = read_block(text, "toml")
    got = [(k.path, k.line, k.kind, k.value) for k in read.keys]
    assert got == [
        (("a",), 0, "dict", None),
        (("a", "b"), 1, "value", 1),
        (("a", "c"), 2, "placeholder", None),  # prose; the line inside is not a key
        (("a", "q.r"), 5, "value", True),
        (("d",), 6, "list", None),
        (("d", "[]", "e"), 7, "value", 1),
        (("d",), 8, "list", None),
        (("d", "[]", "e"), 9, "value", "x"),  # the second table's own value
    ]


def test_a_toml_block_of_alternatives_is_read_one_alternative_at_a_time() -> None:
    """A key set once per paragraph, or after each comment, is a list of
    alternatives (``skip = "a"``, then ``skip = ["a", "b"]``), each under
    the table it is in; one paragraph that sets a key twice is no TOML."""
    text = (
        '[tool.app]\n# one\nskip = "a"\n# two\nskip = ["a", "b"]\n\n'
        'build = "x"\n\n[tool.app]\nskip = "c"\n'
    )
    read = read_block(text, "toml")
    assert read.error is None
    keys = [(format_path(k.path), k.line, k.value) for k in read.keys]
    assert keys == [
        ("tool.app", 0, None),
        ("tool.app.skip", 2, "a"),
        ("tool.app.skip", 4, ["a", "b"]),
        ("tool.app.build", 6, "x"),
        ("tool.app", 8, None),
        ("tool.app.skip", 9, "c"),
    ]
    broken = read_block('[tool.app]\nskip = "a"\nskip = "b"\n', "toml")
    assert broken.error is not None and "Cannot overwrite" in broken.error


def test_yaml_ellipsis_lines_elide_rather_than_end_the_document() -> None:
    read = read_block("...\nmodels:\n  ...\n  - type: main\n    engine: x\n...\n", "yaml")
    assert read.error is None
    assert [(format_path(k.path), k.line) for k in read.keys] == [
        ("models", 1),
        ("models[].type", 3),
        ("models[].engine", 4),
    ]


def test_python_blocks_take_keys_only_inside_braces() -> None:
    text = (
        "model = AutoModel.from_pretrained('x')\n"
        "ds_config = {\n"
        '    "train_batch_size": 8,\n'
        '    "zero_optimization": {"stage": 2},\n'
        "}\n"
        "for batch in loader:\n"
        "    if rank == 0:\n"
        "        engine.step(config=ds_config)\n"
    )
    read = read_block(text, "python")
    assert [(format_path(k.path), k.line) for k in read.keys] == [
        ("train_batch_size", 2),
        ("zero_optimization", 3),
        ("zero_optimization.stage", 3),
    ]


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        # JSON's escapes, as JSON's own decoder reads them.
        ('{"st\\u0061ge": 1}', "json", [(("stage",), 1)]),
        ('{"a\\"b": "x\\u00e9"}', "json", [(('a"b',), "x\u00e9")]),
        ('{"\\ud83d\\ude00": 1}', "json", [(("\U0001f600",), 1)]),
        ('{"k": "\\/path"}', "json", [(("k",), "/path")]),
        # Python's, in a Python block.
        ("cfg = {'st\\x61ge': 1, 'b': 'it\\'s'}", "python", [(("stage",), 1), (("b",), "it's")]),
        # What neither reads (a doc's Windows path): the character after.
        ('{"dir": "C:\\data"}', "json", [(("dir",), "C:data")]),
        # No escape: as written.
        ('{"plain": "a b"}', "json", [(("plain",), None)]),
    ],
)
def test_a_quoted_key_or_value_is_read_with_its_languages_escapes(text, lang, expected):
    assert [(k.path, k.value) for k in read_block(text, lang).keys] == expected


def test_an_escaped_key_is_the_models_key_not_a_rejected_one(cli, tmp_path):
    """``"st\\u0061ge"`` is ``stage``: no CD301 for a key the model accepts."""
    import json

    from helpers import make_project

    root = make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/config.py": (
                "from pydantic import BaseModel, ConfigDict\n\n\n"
                "class Config(BaseModel):\n"
                '    model_config = ConfigDict(extra="forbid")\n'
                "    stage: int = 1\n    other: int = 2\n"
            ),
            "configdrift.toml": '[mount]\n"" = "pkg.config:Config"\n',
            "docs/config.md": (
                "# Config\n\n## `stage`\n\nThe stage.\n\n## `other`\n\nOther.\n\n"
                '```json\n{"st\\u0061ge": 2, "oth\\u0065r": 3, "st\\u0061gee": 4}\n```\n'
            ),
        },
    )
    found = json.loads(cli("check", str(root), "--no-cache", "--format", "json").out)["findings"]
    assert [(f["code"], f["key"]) for f in found if f["code"] == "CD301"] == [("CD301", "stagee")]
