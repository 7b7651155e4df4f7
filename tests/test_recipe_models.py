"""A model the repository's YAML files are written for (a trainer's
recipes) is a configuration, though no page shows its keys: its fields
must be most of what three files set at their top, ten at least. What a
recipe sets that it lacks is said to be ignored; a key the recipes leave
out is not said to be undocumented, for no page was ever its reference."""

from __future__ import annotations

from configdrift.extract.docs.block_model import BlockKey, BlockRead
from configdrift.place import config_files as config_files_module
from configdrift.place.config_files import config_files, file_tops
from helpers import by_key, check_project, make_project

_FIELDS = tuple(f"opt_{i:02}" for i in range(24))

_MODEL = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainConfig:\n"
    + "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_FIELDS))
    + "\n\ndef load(cfg, cls):\n    return cls(**cfg)\n"
)


def _recipes(count: int = 3, extra: str = "", folder: str = "recipes") -> dict[str, str]:
    """``count`` recipes of twenty of the model's keys each, the first with ``extra``."""
    return {
        f"{folder}/run{i}.yaml": "".join(f"{key}: 1\n" for key in _FIELDS[i : i + 20])
        + (extra if i == 0 else "")
        for i in range(count)
    }


def _surface(analysis, name: str = "TrainConfig"):
    return {s.surface: s for s in analysis.everything}.get(name)


def test_the_model_the_recipes_set_is_a_surface_and_what_it_lacks_is_ignored(tmp_path) -> None:
    files = {"app/config.py": _MODEL, **_recipes(extra="stray_key: 2\n")}
    analysis, findings = check_project(tmp_path, files, "app")
    surface = _surface(analysis)
    assert surface is not None and surface.schema.strict is False
    assert "the repository's YAML files set 22 of its 24 keys" in surface.how
    found = by_key(findings)
    stray = found[("CD302", "stray_key")]
    assert stray.severity.value == "warning"
    assert (stray.location.path, stray.location.line) == ("recipes/run0.yaml", 21)
    # The recipes set opt_00 to opt_21: the two they leave out are no
    # page's to document.
    assert not [f for f in findings if f.code == "CD103"]


def test_a_model_the_pages_examples_show_is_judged_for_what_they_leave_out(tmp_path) -> None:
    pages = {
        f"docs/guide{i}.md": "# Guide\n\n```yaml\n"
        + "".join(f"{key}: 1\n" for key in _FIELDS[5 * i : 5 * i + 5])
        + "```\n"
        for i in range(3)
    }
    files = {"app/config.py": _MODEL, **_recipes(), **pages}
    analysis, findings = check_project(tmp_path, files, "app")
    assert _surface(analysis) is not None
    undocumented = {f.key for f in findings if f.code == "CD103"}
    assert {"opt_22", "opt_23"} <= undocumented


def test_two_recipes_are_not_enough(tmp_path) -> None:
    files = {"app/config.py": _MODEL, **_recipes(count=2, extra="stray_key: 2\n")}
    analysis, findings = check_project(tmp_path, files, "app")
    assert _surface(analysis) is None
    assert ("CD302", "stray_key") not in by_key(findings)


def test_a_test_s_yaml_files_are_no_recipes(tmp_path) -> None:
    files = {"app/config.py": _MODEL, **_recipes(folder="tests/data")}
    analysis, _ = check_project(tmp_path, files, "app")
    assert _surface(analysis) is None
    # Not even read for their keys.
    assert file_tops(tmp_path, sorted(_recipes(folder="tests/data")), {}) == []


def test_recipes_mostly_of_other_keys_are_not_the_model_s(tmp_path) -> None:
    other = "".join(f"other_{i}: 1\n" for i in range(25))
    recipes = {rel: text + other for rel, text in _recipes().items()}
    analysis, _ = check_project(tmp_path, {"app/config.py": _MODEL, **recipes}, "app")
    assert _surface(analysis) is None


def test_the_files_read_are_bounded_in_number_and_size(tmp_path, monkeypatch) -> None:
    root = make_project(tmp_path, {**_recipes(), "big/huge.yaml": "a: 1\n" + "#" * 70_000})
    rels = sorted(["recipes/run0.yaml", "recipes/run1.yaml", "recipes/run2.yaml", "big/huge.yaml"])
    reads: dict[str, BlockRead] = {}
    tops = file_tops(root, rels, reads)
    assert len(tops) == 3 and "big/huge.yaml" not in reads  # larger than MAX_TOP_BYTES
    monkeypatch.setattr(config_files_module, "MAX_TOP_FILES", 2)
    assert len(file_tops(root, rels, {})) == 1  # the huge file is one of the first two


def test_a_recipe_read_for_discovery_is_not_parsed_again(tmp_path) -> None:
    root = make_project(tmp_path, {"run.yaml": "alpha: 1\nbeta: 2\n"})
    # What discovery read stands for the file: here, other keys than its text's.
    kept = BlockRead([BlockKey(("gamma",), 0, "value"), BlockKey(("delta",), 1, "value")])
    found = config_files(root, ["run.yaml"], {"alpha", "beta"}, [], reads={"run.yaml": kept})
    assert found == []  # gamma and delta are not the config's keys
    found = config_files(root, ["run.yaml"], {"gamma", "delta"}, [], reads={"run.yaml": kept})
    assert found == []  # the bytes do not spell them: the file is turned away first
    reads: dict[str, BlockRead] = {}
    found = config_files(root, ["run.yaml"], {"alpha", "beta"}, [], reads=reads)
    assert [rel for rel, _ in found] == ["run.yaml"]
    # What the placing read stands for the file in discovery, and the other way.
    assert file_tops(root, ["run.yaml"], {"run.yaml": kept}) == [frozenset({"gamma", "delta"})]
    assert list(reads) == ["run.yaml"]
    assert file_tops(root, ["run.yaml"], reads) == [frozenset({"alpha", "beta"})]
