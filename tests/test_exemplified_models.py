"""A model the docs' example blocks are written for is a configuration
by that evidence, though no page lists its keys: its fields must be most
of what the blocks set, ten at least, on three pages. What it lacks is
said to be ignored, never rejected; what may reach it by a path not
followed (a validator that rewrites a section first, another model mixed
in at run time) is not judged; and a site's build script that renders it
documents its described fields."""

from __future__ import annotations

import subprocess

import pytest

from configdrift.model import resolve_path
from helpers import by_key, check_project

_FIELDS = tuple(f"opt_{word}" for word in "abcdefghijkl")

_MODEL = (
    "from pydantic import BaseModel, Field, model_validator\n\n\n"
    "class Section(BaseModel):\n    depth: int = 1\n    width: int = 2\n\n\n"
    "class TrainConfig(BaseModel):\n"
    + "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_FIELDS))
    + '    section: Section | None = Field(None, json_schema_extra={"description": "A part."})\n'
    + '    described: int = Field(0, json_schema_extra={"description": "Told."})\n'
    + "\n\ndef load(cfg, cls):\n    return cls(**cfg)\n"
)


def _page(keys: tuple[str, ...], extra: str = "") -> str:
    body = "".join(f"{key}: 1\n" for key in keys)
    return f"# Guide\n\nSet:\n\n```yaml\n{body}{extra}```\n"


def _pages(extra: str = "", count: int = 3) -> dict[str, str]:
    return {
        f"docs/guide{i}.md": _page(_FIELDS[4 * i : 4 * i + 4], extra if i == 0 else "")
        for i in range(count)
    }


def _surface(analysis, name: str = "TrainConfig"):
    return {s.surface: s for s in analysis.everything}.get(name)


def test_the_model_the_examples_set_is_a_surface_and_what_it_lacks_is_ignored(
    tmp_path,
) -> None:
    files = {"app/config.py": _MODEL, **_pages("opt_zzz: 2\n")}
    analysis, findings = check_project(tmp_path, files, "app")
    surface = _surface(analysis)
    assert surface is not None and surface.schema.strict is False
    assert "the docs' examples set 12 of its 14 keys" in surface.how
    found = by_key(findings)
    assert found[("CD302", "opt_zzz")].severity.value == "warning"
    assert ("CD301", "opt_zzz") not in found


def test_examples_on_two_pages_are_not_enough(tmp_path) -> None:
    files = {"app/config.py": _MODEL, **_pages("opt_zzz: 2\n", count=2)}
    analysis, _ = check_project(tmp_path, files, "app")
    assert _surface(analysis) is None


def test_blocks_mostly_of_other_keys_are_not_the_model_s(tmp_path) -> None:
    other = "".join(f"other_{i}: 1\n" for i in range(5))
    pages = {
        rel: text.replace("```yaml\n", f"```yaml\n{other}" if rel.endswith("2.md") else "```yaml\n")
        for rel, text in _pages().items()
    }
    # Two pages of its keys (eight) are not enough; the third is another's.
    analysis, _ = check_project(tmp_path, {"app/config.py": _MODEL, **pages}, "app")
    assert _surface(analysis) is None


def test_ten_fields_on_two_pages_are_not_enough(tmp_path) -> None:
    pages = {f"docs/guide{i}.md": _page(_FIELDS[6 * i : 6 * i + 6]) for i in range(2)}
    analysis, _ = check_project(tmp_path, {"app/config.py": _MODEL, **pages}, "app")
    assert _surface(analysis) is None


def test_a_subclass_that_adds_keys_is_its_base_s_configuration(tmp_path) -> None:
    model = _MODEL + "\n\nclass WithRuntime(TrainConfig):\n    capabilities: dict = {}\n"
    analysis, _ = check_project(tmp_path, {"app/config.py": model, **_pages()}, "app")
    assert _surface(analysis) is not None
    assert _surface(analysis, "WithRuntime") is None


def test_a_section_a_validator_rewrites_first_is_not_judged(tmp_path) -> None:
    validator = (
        '    @model_validator(mode="before")\n    @classmethod\n'
        "    def strip(cls, data):\n"
        '        data["section"] = {k.removeprefix("x_"): v for k, v in data["section"].items()}\n'
        "        return data\n"
    )
    model = _MODEL.replace("\n\ndef load", validator + "\n\ndef load")
    files = {"app/config.py": model, **_pages("section:\n  x_depth: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD302", "section.x_depth") not in by_key(findings)
    # A validator that only reads the input rewrites nothing.
    reading = validator.replace(
        'data["section"] = ', 'copy = dict(data)\n        copy["section"] = '
    )
    model = _MODEL.replace("\n\ndef load", reading + "\n\ndef load")
    files = {"app/config.py": model, **_pages("section:\n  x_depth: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD302", "section.x_depth") in by_key(findings)


def test_a_key_another_pydantic_model_declares_may_be_mixed_in(tmp_path) -> None:
    plugin = (
        "from pydantic import BaseModel\n\n\nclass PluginArgs(BaseModel):\n    opt_zzz: int = 0\n"
    )
    files = {"app/config.py": _MODEL, "app/plugin.py": plugin, **_pages("opt_zzz: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD302", "opt_zzz") not in by_key(findings)
    # A model the configuration holds is no mixin: its key is misplaced.
    files = {"app/config.py": _MODEL, **_pages("depth: 2\n")}
    _, findings = check_project(tmp_path / "held", files, "app")
    assert ("CD302", "depth") in by_key(findings)
    # A dataclass's field is no mixin of a pydantic model.
    plain = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass CliArgs:\n    opt_zzz: int = 0\n"
    )
    files = {"app/config.py": _MODEL, "app/plugin.py": plain, **_pages("opt_zzz: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD302", "opt_zzz") in by_key(findings)


_RENDER = "from app.config import TrainConfig\n\nprint(TrainConfig.model_json_schema())\n"


def test_a_build_script_that_renders_the_model_documents_its_described_fields(
    tmp_path,
) -> None:
    files = {
        "app/config.py": _MODEL,
        "_quarto.yml": "project:\n  pre-render:\n    - python docs/scripts/render.py\n",
        "docs/scripts/render.py": _RENDER,
        **_pages(),
    }
    analysis, findings = check_project(tmp_path, files, "app")
    assert [str(where) for where in _surface(analysis).rendering] == ["docs/scripts/render.py:1"]
    found = by_key(findings)
    # Described (``json_schema_extra={"description": ...}``): on the page.
    assert ("CD103", "described") not in found
    # The rendered tree's undescribed fields are said to lack a description.
    assert "no description" in found[("CD103", "section.depth")].message


def test_a_script_the_site_does_not_run_renders_nothing(tmp_path) -> None:
    files = {
        "app/config.py": _MODEL,
        "_quarto.yml": "project:\n  type: website\n",
        "docs/scripts/render.py": _RENDER,
        **_pages(),
    }
    analysis, findings = check_project(tmp_path, files, "app")
    assert _surface(analysis).rendering == []
    assert "no doc describes it" in by_key(findings)[("CD103", "section")].message


_UNION = (
    "from pydantic import BaseModel\n\n\n"
    "class PlainType(BaseModel):\n    system_format: str = ''\n\n\n"
    "class PairType(BaseModel):\n    chosen_format: str = ''\n\n\n"
    "class Plain(BaseModel):\n    path: str = ''\n    type: str | PlainType | None = None\n\n\n"
    "class Pair(BaseModel):\n    path: str = ''\n    type: PairType | str | None = None\n\n\n"
)


def test_a_field_both_models_of_a_union_declare_takes_the_keys_of_either(tmp_path) -> None:
    model = _MODEL.replace(
        "class TrainConfig(BaseModel):\n",
        _UNION.removeprefix("from pydantic import BaseModel\n\n\n")
        + "class TrainConfig(BaseModel):\n    datasets: list[Plain | Pair] = []\n",
    )
    example = (
        "datasets:\n  - path: x\n    type:\n      chosen_format: '{x}'\n      wrong_format: '{x}'\n"
    )
    files = {"app/config.py": model, **_pages(example)}
    analysis, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD302", "datasets[].type.chosen_format") not in found
    assert ("CD302", "datasets[].type.wrong_format") in found
    node, _, _ = resolve_path(
        _surface(analysis).schema, ("datasets", "[]", "type", "chosen_format")
    )
    assert node is not None
    # A plain value in the first model, a section in the other: the other's.
    model = model.replace("type: str | PlainType | None", "type: str | None")
    analysis, _ = check_project(tmp_path / "plain", {"app/config.py": model, **_pages()}, "app")
    node, _, _ = resolve_path(_surface(analysis).schema, ("datasets", "[]", "type"))
    assert node is not None and node.model == "PairType" and node.strict is None


def test_a_key_the_model_s_module_quotes_is_its_loader_s(tmp_path) -> None:
    loader = (
        "\n\ndef from_file(data):\n"
        '    if "opt_old" in data:\n        data["opt_a"] = data.pop("opt_old")\n'
        "    return TrainConfig(**data)\n"
    )
    files = {"app/config.py": _MODEL + loader, **_pages("opt_old: 2\nopt_zzz: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD302", "opt_old") not in found
    assert ("CD302", "opt_zzz") in found


def test_a_guide_s_titles_and_list_items_are_not_judged_entries(tmp_path) -> None:
    rows = "".join(f"| `{name}` | A key. |\n" for name in (*_FIELDS[:4], "opt_row"))
    prose = (
        f"\n| Key | Meaning |\n|---|---|\n{rows}\n"
        "- `opt_item`: a value of `opt_a`.\n\n## opt_title\n\nText.\n"
    )
    pages = _pages()
    pages["docs/guide0.md"] += prose
    _, findings = check_project(tmp_path, {"app/config.py": _MODEL, **pages}, "app")
    found = by_key(findings)
    assert ("CD102", "opt_title") not in found
    assert ("CD102", "opt_item") not in found
    assert ("CD102", "opt_row") in found


def test_a_key_a_page_not_read_spells_is_shown_there(tmp_path) -> None:
    files = {
        "app/config.py": _MODEL,
        **_pages(),
        "docs/faq.md": "# FAQ\n\nWhy `section`? Because.\n",
    }
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD103", "section") not in found
    files["docs/faq.md"] = "# FAQ\n\nWhy? Because.\n"
    _, findings = check_project(tmp_path / "again", files, "app")
    assert ("CD103", "section") in by_key(findings)


def test_a_page_in_a_hidden_folder_is_a_tool_s_not_the_docs(tmp_path) -> None:
    # Git lists a folder named with a dot; a walk of the tree skips it.
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True)
    rows = "".join(f"| `{name}` | `{i}` |\n" for i, name in enumerate(_FIELDS[1:5], 1))
    table = f"# Options\n\n| Option | Default |\n|---|---|\n| `opt_a` | `7` |\n{rows}"
    files = {"app/config.py": _MODEL, **_pages(), ".deploy/options.md": table}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD104", "opt_a") not in by_key(findings)
    files["deploy/options.md"] = files.pop(".deploy/options.md")
    (tmp_path / "again").mkdir()
    subprocess.run(["git", "-C", str(tmp_path / "again"), "init", "-q"], check=True)
    _, findings = check_project(tmp_path / "again", files, "app")
    assert ("CD104", "opt_a") in by_key(findings)


def test_a_build_script_renders_every_model_of_a_union(tmp_path) -> None:
    model = _MODEL.replace(
        "class TrainConfig(BaseModel):\n",
        _UNION.removeprefix("from pydantic import BaseModel\n\n\n")
        .replace("path: str = ''", 'path: str = Field("", description="Where.")')
        .replace(
            "class Pair(BaseModel):\n    path",
            "class Pair(BaseModel):\n    rows: int = 0\n    path",
        )
        + "class TrainConfig(BaseModel):\n"
        + '    datasets: list[Plain | Pair] = Field([], description="Data.")\n',
    )
    files = {
        "app/config.py": model,
        "mkdocs.yml": "site_name: x\nhooks:\n  - docs/hooks/render.py\n",
        "docs/hooks/render.py": _RENDER,
        **_pages("datasets:\n  - path: x\n"),
    }
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    # ``Pair``'s own field is rendered (it lacks a description), not undocumented.
    assert "no description" in found[("CD103", "datasets[].rows")].message
    assert ("CD103", "datasets[].path") not in found


def test_a_config_file_that_sets_a_mixed_in_model_s_keys_is_still_the_model_s(tmp_path) -> None:
    plugs = [f"plug_{i}" for i in range(6)]
    plugin = "from pydantic import BaseModel\n\n\nclass PluginArgs(BaseModel):\n" + "".join(
        f"    {name}: int = 0\n" for name in plugs
    )
    keys = (*_FIELDS, "described", *plugs)
    recipe = "".join(f"{name}: 1\n" for name in keys) + "section:\n  depth: 1\nopt_zzz: 3\n"
    files = {
        "app/config.py": _MODEL,
        "app/plugin.py": plugin,
        "recipes/run.yaml": recipe,
        **_pages(),
    }
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert found[("CD302", "opt_zzz")].location.path == "recipes/run.yaml"
    # Without the other model, seven keys of twenty-one are not the model's.
    del files["app/plugin.py"]
    _, findings = check_project(tmp_path / "alone", files, "app")
    assert all(f.location.path != "recipes/run.yaml" for f in findings)


def _dataclass(base: str) -> str:
    head = "from dataclasses import dataclass\nfrom transformers import TrainingArguments\n\n\n"
    fields = "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_FIELDS))
    return f"{head}@dataclass\nclass RunArgs{base}:\n{fields}\n\ndef load(cfg):\n    return RunArgs(**cfg)\n"


def test_a_dataclass_with_a_base_outside_the_project_takes_keys_not_known(tmp_path) -> None:
    files = {"app/config.py": _dataclass("(TrainingArguments)"), **_pages("learning_rate: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD302", "learning_rate") not in found
    assert ("CD101", "learning_rate") not in found
    assert ("CD301", "learning_rate") not in found
    files["app/config.py"] = _dataclass("")
    _, findings = check_project(tmp_path / "own", files, "app")
    found = by_key(findings)
    assert {("CD301", "learning_rate"), ("CD302", "learning_rate")} & found.keys()


@pytest.mark.parametrize(
    ("base", "more"),
    [
        ("(ABC)", {}),
        # A mixin brings methods, not fields.
        ("(PushToHubMixin)", {}),
        # The project's own class, though its import is not followed.
        ("(ArgsTemplate)", {"app/template.py": "class ArgsTemplate:\n    pass\n"}),
    ],
)
def test_a_base_that_brings_no_fields_leaves_the_dataclass_judged(tmp_path, base, more) -> None:
    imports = (
        "from abc import ABC\nfrom hub import PushToHubMixin\nfrom template import ArgsTemplate\n"
    )
    model = _dataclass(base).replace("from dataclasses", imports + "from dataclasses")
    files = {"app/config.py": model, **more, **_pages("learning_rate: 2\n")}
    _, findings = check_project(tmp_path, files, "app")
    assert {("CD301", "learning_rate"), ("CD302", "learning_rate")} & by_key(findings).keys()


def test_a_root_dataclass_with_a_base_outside_the_project_rejects_nothing_it_may_inherit(
    tmp_path,
) -> None:
    loader = "\n\ndef main(path):\n    import json\n    return load(json.load(open(path)))\n"
    page = "# Options\n\n" + "".join(
        f"## {name}\n\nDefault: `{i}`\n\n" for i, name in enumerate((*_FIELDS[:6], "learning_rate"))
    )
    files = {"app/config.py": _dataclass("(TrainingArguments)") + loader, "docs/options.md": page}
    _, findings = check_project(tmp_path, files, "app")
    assert ("CD101", "learning_rate") not in by_key(findings)
    files["app/config.py"] = _dataclass("") + loader
    _, findings = check_project(tmp_path / "own", files, "app")
    assert ("CD101", "learning_rate") in by_key(findings)


def test_a_key_another_surface_documents_at_the_same_path_is_documented(tmp_path) -> None:
    model = _MODEL.replace(
        "class TrainConfig(BaseModel):\n",
        "class Item(BaseModel):\n    path: str = ''\n    kind: str = ''\n    split: str = ''\n"
        "    weight: int = 1\n\n\nclass TrainConfig(BaseModel):\n    datasets: list[Item] = []\n",
    )
    loader = (
        "def load_one(ds_cfg):\n    return (ds_cfg.get('path', ''), ds_cfg.get('kind', 'x'), "
        "ds_cfg.get('split', 'train'), ds_cfg.get('weight', 1))\n"
    )
    pages = _pages("datasets:\n  - weight: 2\n")
    # A page of the dataset entries alone: the reader of one entry's.
    pages["docs/data.md"] = (
        "# Data\n\n```yaml\ndatasets:\n  - path: a\n    kind: b\n    split: c\n```\n"
    )
    files = {"app/config.py": model, "app/loader.py": loader, **pages}
    analysis, findings = check_project(tmp_path, files, "app")
    assert "load_one(ds_cfg)" in {s.surface for s in analysis.everything}
    found = by_key(findings)
    assert ("CD103", "datasets[].path") not in found
    # A key neither documents stays undocumented.
    pages["docs/data.md"] = pages["docs/data.md"].replace("    split: c\n", "")
    _, findings = check_project(tmp_path / "less", {**files, **pages}, "app")
    assert ("CD103", "datasets[].split") in by_key(findings)
