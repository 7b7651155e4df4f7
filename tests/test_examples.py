"""Example blocks of the docs against the schema (CD301, CD302)."""

from __future__ import annotations

import json
import textwrap

from helpers import check_project, make_project, strict_model

PAGE = """\
# Configuration

<i>**m**</i>: [dictionary]

<i>**m:a**</i>: [integer]

<i>**m:b**</i>: [integer]

```json
{{
  "m": {{
    "a": 1,
{inner}
  }}
}}
```
"""


def _findings(cli, root) -> list[tuple[str, str, int, str | None]]:
    result = cli("check", str(root), "--format", "json", "--select", "CD30")
    return [
        (f["code"], f["key"], f["line"], f["suggestion"])
        for f in json.loads(result.out)["findings"]
    ]


def test_a_key_the_strict_model_rejects_is_cd301_at_its_line(cli, tmp_path) -> None:
    page = PAGE.format(inner='    "grad_hooks": true,\n    "bucket_sizes": 2')
    files = strict_model("a: int = 1", "b: int = 2", "bucket_size: int = 2")
    make_project(tmp_path, {**files, "docs/config.md": page})
    assert _findings(cli, tmp_path) == [
        ("CD301", "m.grad_hooks", 13, None),
        ("CD301", "m.bucket_sizes", 14, "did you mean `bucket_size`?"),
    ]


def test_accepted_keys_and_aliases_are_quiet(cli, tmp_path) -> None:
    files = strict_model("a: int = 1", 'b: int = Field(2, alias="bee")')
    files["pkg/m.py"] = files["pkg/m.py"].replace("ConfigDict", "ConfigDict, Field", 1)
    page = PAGE.format(inner='    "bee": 2')
    make_project(tmp_path, {**files, "docs/config.md": page})
    assert _findings(cli, tmp_path) == []


def test_a_fragment_whose_place_is_not_certain_is_not_judged(cli, tmp_path) -> None:
    # The root itself is strict: read from the top, ``{"a": 1, "typo": 2}``
    # would be two rejected top-level keys, but it is a fragment of ``m``.
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": """
            from pydantic import BaseModel, ConfigDict, Field
            class M(BaseModel):
                model_config = ConfigDict(extra="forbid")
                a: int = 1
                b: int = 2
            class Root(BaseModel):
                model_config = ConfigDict(extra="forbid")
                m: M = Field(default_factory=M)
            def get(d):
                return Root(**d)
        """,
        "configdrift.toml": '[mount]\n"" = "pkg.m:Root"\n',
    }
    page = PAGE.replace('  "m": {{\n    "a": 1,\n{inner}\n  }}', '  "a": 1,\n  "typo": 2')
    make_project(tmp_path, {**files, "docs/config.md": page.replace("{{", "{").replace("}}", "}")})
    assert _findings(cli, tmp_path) == []
    # The same keys in an anchored block are judged.
    anchored = PAGE.format(inner='    "typo": 2')
    make_project(tmp_path, {**files, "docs/config.md": anchored})
    assert _findings(cli, tmp_path) == [("CD301", "m.typo", 13, None)]


LENIENT = {
    "pkg/__init__.py": "",
    "pkg/cfg.py": """
        from pydantic import BaseModel
        class M(BaseModel):
            a: int = 1
        def load(param_dict):
            m = M(**param_dict.get("m", {}))
            sec = param_dict.get("sec", {})
            return m, sec.get("x", 1), sec.get("threads", 2)
    """,
}
LENIENT_PAGE = """\
# Configuration

<i>**sec**</i>: [dictionary]

<i>**sec:x**</i>: [integer]

<i>**sec:threads**</i>: [integer]

```json
{
  "sec": {
    "x": 1,
    "thread": 4
  }
}
```
"""


def test_a_key_a_lenient_section_never_reads_is_cd302(cli, tmp_path) -> None:
    make_project(tmp_path, {**LENIENT, "docs/config.md": LENIENT_PAGE})
    assert _findings(cli, tmp_path) == [("CD302", "sec.thread", 13, "the code reads `threads`")]


def test_a_section_handed_whole_to_unseen_code_is_not_judged(cli, tmp_path) -> None:
    # The same loader, which also hands the section to a library it cannot see.
    loader = textwrap.dedent(LENIENT["pkg/cfg.py"]).replace(
        "    return m,", "    external.configure(**sec)\n    return m,"
    )
    files = {**LENIENT, "pkg/cfg.py": "import external\n" + loader}
    make_project(tmp_path, {**files, "docs/config.md": LENIENT_PAGE})
    assert _findings(cli, tmp_path) == []


def _sub_project(root, fragment_key: str) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": """
            from pydantic import BaseModel, ConfigDict, Field
            class Sub(BaseModel):
                model_config = ConfigDict(extra="forbid")
                x: int = 1
            class M(BaseModel):
                model_config = ConfigDict(extra="forbid")
                a: int = 1
                b: int = 2
                sub: Sub = Field(default_factory=Sub)
            def get(d):
                return M(**d.get("m", {}))
            class N(BaseModel):
                k: int = 0
            def get_n(d):
                return N(**d.get("n", {}))
        """,
        "docs/config.md": """\
            # Configuration

            ## M options

            <i>**m**</i>: [dictionary]

            <i>**m:a**</i>: [integer]

            <i>**m:b**</i>: [integer]

            ### Sub

            ```json
            "FRAGMENT": {
              "x": 1,
              "y": 2
            }
            ```
        """.replace("FRAGMENT", fragment_key),
    }
    make_project(root, files)


def test_a_fragment_the_schema_places_under_its_section_is_judged(cli, tmp_path) -> None:
    _sub_project(tmp_path, "sub")
    # ``sub`` is a key of ``m``, the node of the enclosing section.
    assert _findings(cli, tmp_path) == [("CD301", "m.sub.y", 16, None)]


def test_a_fragment_whose_key_the_schema_cannot_place_is_not_judged(cli, tmp_path) -> None:
    _sub_project(tmp_path, "gizmo")
    # ``gizmo`` is a key of nothing: the block may belong to another part of
    # the config, so it is not taken to sit under ``m``.
    assert _findings(cli, tmp_path) == []


TUTORIAL = """\
# Getting started

Put this in `ds_config.json`:

```json
{
  "m": {
    "a": 1,
    "grad_hooks": true
  }
}
```

and, later, only the part that changes:

```json
"sub": {
  "y": 2
}
```
"""


def test_a_tutorial_example_of_a_whole_config_is_judged(cli, tmp_path) -> None:
    # The tutorial is no reference page (no key entries): only its examples
    # count, and only those whose place is certain without sections.
    _sub_project(tmp_path, "sub")
    (tmp_path / "docs" / "tutorial.md").write_text(TUTORIAL)
    result = cli("check", str(tmp_path), "--format", "json", "--select", "CD30")
    found = [
        (f["code"], f["key"], f["path"], f["line"]) for f in json.loads(result.out)["findings"]
    ]
    # The fragment ``"sub": {...}`` is not placed on a page without sections.
    assert found == [
        ("CD301", "m.sub.y", "docs/config.md", 16),
        ("CD301", "m.grad_hooks", "docs/tutorial.md", 9),
    ]


def test_config_files_are_found_by_shape_and_judged(cli, tmp_path) -> None:
    _sub_project(tmp_path, "sub")
    (tmp_path / "examples").mkdir()
    # Shaped like a config: its top-level keys are the config's.
    (tmp_path / "examples" / "ds_config.json").write_text(
        '{\n  "m": {\n    "a": 1,\n    "sub": {"x": 1, "z": 3}\n  },\n  "n": {"k": 2}\n}\n'
    )
    # Data that happens to share one key, and a file too large to be a config.
    (tmp_path / "examples" / "data.json").write_text(
        '{"m": {"bad": 1}, "n": {}, "rows": [], "cols": [], "more": 1}\n'
    )
    big = '{"m": {"nope": 1}, "n": {}, "pad": "' + "x" * (1024 * 1024) + '"}\n'
    (tmp_path / "examples" / "big.json").write_text(big)
    result = cli("check", str(tmp_path), "--format", "json", "--select", "CD30")
    found = [
        (f["code"], f["key"], f["path"], f["line"], f["message"].split(" sets")[0])
        for f in json.loads(result.out)["findings"]
        if f["path"].startswith("examples/")
    ]
    assert found == [("CD301", "m.sub.z", "examples/ds_config.json", 4, "the config file")]


def test_a_whole_config_with_a_misspelt_top_level_key_is_judged(cli, tmp_path) -> None:
    loader = textwrap.dedent(LENIENT["pkg/cfg.py"]).replace(
        "    return m,", '    steps = param_dict.get("steps", 1)\n    return steps, m,'
    )
    page = (
        '# C\n\n```json\n{"m": {"a": 1}, "sec": {"x": 1}, "steps": 3, "stpes": 4}\n```\n\n'
        '```json\n{"m": {"a": 1}, "other": 2, "more": 3}\n```\n'
    )
    make_project(tmp_path, {**LENIENT, "pkg/cfg.py": loader, "docs/config.md": page})
    # Three quarters of its top-level keys known: a config with a typo. One
    # third known: some other config, not judged.
    assert _findings(cli, tmp_path) == [("CD302", "stpes", 4, "the code reads `steps`")]


def test_a_key_nested_in_another_languages_block_places_no_fragment(cli, tmp_path) -> None:
    # ``[tool.app]`` of a pyproject.toml says nothing of where ``{"app":
    # ...}`` of a JSON file sits: read under ``tool``, the JSON block
    # would set a ``tool`` the root rejects.
    page = (
        "# Configuration\n\n<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n"
        '```toml\n[tool.app]\nname = "x"\n```\n\n'
        '```json\n{"app": {"m": {"a": 1}}}\n```\n'
    )
    make_project(tmp_path, {**strict_model("a: int = 1"), "docs/config.md": page})
    from configdrift.config import load
    from configdrift.engine import analyse

    analysis = analyse(load(tmp_path), jobs=1)
    assert [base for _, block, base in analysis.blocks if block.lang == "json"] == []
    assert _findings(cli, tmp_path) == []


def test_a_section_s_other_example_is_not_placed_by_another_language(tmp_path) -> None:
    # The section's second JSON block sets ``app``, which only the TOML
    # block nests (under ``tool``): the entry it names is not put there.
    page = (
        "# Configuration\n\n"
        '```toml\n[tool.app]\nname = "x"\n```\n\n'
        "## M\n\n<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n"
        "<i>**name**</i>: [string]\n\n"
        '```json\n{"m": {"a": 1}}\n```\n\n'
        '```json\n{"app": {"name": "y"}}\n```\n'
    )
    make_project(tmp_path, {**strict_model("a: int = 1"), "docs/config.md": page})
    from configdrift.config import load
    from configdrift.engine import analyse

    analysis = analyse(load(tmp_path), jobs=1)
    (name,) = [e for e in analysis.entries if e.name == "name"]
    assert "tool" not in name.path


def test_another_tool_s_table_of_a_pyproject_example_is_that_tool_s(tmp_path) -> None:
    # ``[tool.ruff]`` beside ``[tool.app]``: ruff's table, which the code
    # never reads; the key the code does not read in its own table is told.
    code = (
        "import tomllib\n\n\ndef load(path):\n"
        '    with open(path, "rb") as f:\n        data = tomllib.load(f)\n'
        '    conf = data["tool"]["app"]\n'
        '    return conf.get("workers", 1), conf.get("timeout", 30), conf.get("host", "x")\n'
    )
    page = (
        "# Configuration\n\n- `workers`: how many.\n- `timeout`: how long.\n- `host`: where.\n\n"
        '```toml\n[tool.app]\nworkers = 2\ncolour = "red"\n\n[tool.ruff]\nline-length = 100\n```\n'
    )
    _, findings = check_project(tmp_path, {"app/config.py": code, "docs/config.md": page}, "app")
    assert {f.key for f in findings if f.code == "CD302"} == {"tool.app.colour"}
