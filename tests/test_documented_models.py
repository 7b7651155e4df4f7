"""A model the code fills where static analysis cannot follow (a merge of
files and flags) is a surface when a configuration reference page
documents most of its fields; never on a page of other things, never by
guessing between two models, and never strict."""

from __future__ import annotations

from helpers import by_key, check_project

_FIELDS = ("line_length", "profile", "skip_gitignore", "force_sort", "atomic", "quiet")

_SETTINGS = (
    "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass _Config:\n"
    + "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_FIELDS))
    + "\n\nclass Config(_Config):\n    def __init__(self, **overrides):\n"
    "        merged = dict(read_files(), **overrides)\n        super().__init__(**merged)\n"
)


def _page(names: tuple[str, ...]) -> str:
    return "# Options\n\n" + "".join(
        f"## {name}\n\n**Type:** Integer  \n**Default:** `{i}`\n\n" for i, name in enumerate(names)
    )


def test_a_model_its_reference_page_documents_is_a_surface(tmp_path) -> None:
    page = _page((*_FIELDS[:5], "wrap_length")).replace("**Default:** `1`", "**Default:** `9`")
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": _SETTINGS, "docs/options.md": page}, "app"
    )
    surfaces = {s.surface: s for s in analysis.everything}
    assert "Config" not in surfaces  # its private base holds the same keys
    surface = surfaces["_Config"]
    assert surface.schema.strict is False
    found = by_key(findings)
    assert "9" in found[("CD104", "profile")].message
    # A documented key the model lacks may be taken before the model is
    # built: ignored, a warning, never an error.
    assert found[("CD102", "wrap_length")].severity.value == "warning"
    assert ("CD101", "wrap_length") not in found
    assert ("CD103", "quiet") in found


def test_a_page_that_is_no_configuration_reference_makes_no_surface(tmp_path) -> None:
    files = {"app/settings.py": _SETTINGS, "docs/template_context.md": _page(_FIELDS)}
    analysis, findings = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]
    assert [f.code for f in findings if f.code != "CD501"] == []


def test_four_documented_fields_are_not_enough(tmp_path) -> None:
    files = {"app/settings.py": _SETTINGS, "docs/options.md": _page(_FIELDS[:4])}
    analysis, _ = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]


def test_two_models_of_other_keys_the_page_documents_alike_are_not_guessed(tmp_path) -> None:
    other = _SETTINGS.replace("_Config", "_Other").replace("Config(", "Other(")
    other = other.replace("    quiet: int = 5\n", "    verbose: int = 5\n")
    files = {
        "app/settings.py": _SETTINGS,
        "app/other.py": other,
        "docs/options.md": _page(_FIELDS[:5]),
    }
    analysis, _ = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]


def test_a_function_s_signature_on_a_reference_page_is_no_evidence(tmp_path) -> None:
    arguments = ", ".join(f"{name}={i}" for i, name in enumerate(_FIELDS))
    page = f"Reference\n=========\n\n.. function:: sort(paths, {arguments})\n\n   Sort.\n"
    files = {"app/settings.py": _SETTINGS, "docs/reference.rst": page}
    analysis, _ = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]


#: The inner model's documented keys: as many as the outer model's own.
_INNER = ("packages", "index_url", "no_index", "wheels", "pip_args")
_OUTER = ("service", "description", "labels", "include", "exclude")

_BUILD = (
    "from dataclasses import dataclass, field\n\n\n"
    "@dataclass\nclass EnvVar:\n    name: str\n    value: str = ''\n    stage: str = 'all'\n\n\n"
    "@dataclass\nclass PythonOptions:\n"
    + "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_INNER))
    + "    is_src_layout: bool = False\n\n\n"
    "@dataclass\nclass BuildConfig:\n"
    + "".join(
        f"    {name}: int = {i}\n"
        for i, name in enumerate(("service", "description", "labels", "include", "exclude"))
    )
    + "    name: str = ''\n"
    "    python: PythonOptions = field(default_factory=PythonOptions)\n"
    "    envs: list[EnvVar] = field(default_factory=list)\n"
)


def _build_page(envs_prose: str, labels_prose: str = "") -> str:
    outer = "".join(
        f"## {name}\n\n**Default:** `{i}`\n\n{labels_prose if name == 'labels' else ''}\n\n"
        for i, name in enumerate(_OUTER)
    )
    inner = "".join(f"### {name}\n\n**Default:** `{i}`\n\n" for i, name in enumerate(_INNER))
    return f"# Build options\n\n{outer}## python\n\n{inner}## envs\n\n{envs_prose}\n"


def test_a_model_another_holds_is_part_of_its_configuration(tmp_path) -> None:
    # The outer model and the one it holds in ``python`` document five keys
    # each: one configuration, taken by the outer model, not two to guess
    # between.
    files = {
        "app/build.py": _BUILD,
        "docs/build-options.md": _build_page("Each variable has `name` and `value` keys."),
    }
    analysis, findings = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything][1:] == ["BuildConfig"]
    found = by_key(findings)
    assert ("CD103", "python.is_src_layout") in found
    assert ("CD103", "name") in found
    assert ("CD103", "envs[].stage") in found
    # Written as code in the ``envs`` section, they are described there.
    assert ("CD103", "envs[].name") not in found
    assert ("CD103", "envs[].value") not in found


def test_a_name_written_as_code_in_another_section_describes_nothing_there(tmp_path) -> None:
    files = {
        "app/build.py": _BUILD,
        "docs/build-options.md": _build_page(
            "Environment variables.", "Each label has a `name` and a `value`."
        ),
    }
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD103", "envs[].name") in found
    assert ("CD103", "envs[].value") in found


def test_keys_a_surface_found_before_holds_are_no_other_model_s_evidence(tmp_path) -> None:
    # ``Defaults`` holds the keys of DEFAULT_CONFIG, a surface of its own:
    # they are no evidence for it, so ``_Config`` is not guessed away.
    table = ("alpha", "beta", "gamma", "delta", "epsilon")
    defaults = "DEFAULT_CONFIG = {\n" + "".join(f'    "{k}": 1,\n' for k in table) + "}\n"
    decoy = "from dataclasses import dataclass\n\n\n@dataclass\nclass Defaults:\n" + "".join(
        f"    {k}: int = 1\n" for k in table
    )
    files = {
        "app/settings.py": _SETTINGS,
        "app/defaults.py": defaults + "\n\ndef get(key):\n    return DEFAULT_CONFIG[key]\n",
        "app/decoy.py": decoy,
        "docs/options.md": _page((*_FIELDS[:5], *table)),
    }
    analysis, _ = check_project(tmp_path, files, "app")
    assert "_Config" in [s.surface for s in analysis.everything]
    assert "Defaults" not in [s.surface for s in analysis.everything]


_PARTS = """
from dataclasses import dataclass


@dataclass
class ModelArgs:
    hidden_size: int = 512
    num_layers: int = 2
    norm: str = "layernorm"


@dataclass
class TrainingArgs:
    lr: float = 0.1
    train_iters: int = 10
    seed: int = 1234


BASE_CLASSES = [ModelArgs, TrainingArgs]


@dataclass
class Args(*BASE_CLASSES):
    pass
"""


def _arguments(names: tuple[str, ...]) -> str:
    return "Arguments, all set in your YAML file:\n\n## Args\n\n" + "".join(
        f"- **{name}**: any\n\n    Default = {i}\n\n    A setting; values: [{i}, {i + 1}].\n\n"
        for i, name in enumerate(names)
    )


def test_a_model_of_starred_bases_its_page_documents_by_defaults(tmp_path) -> None:
    # ``class Args(*BASE_CLASSES)`` takes the fields of every class the
    # global list names; a page whose entries give each key's default
    # (``- **lr**`` then ``Default = 0``) is its reference.
    names = ("hidden_size", "num_layers", "norm", "lr", "train_iters")
    files = {"app/arguments.py": _PARTS, "configs/arguments.md": _arguments(names)}
    analysis, findings = check_project(tmp_path, files, "app")
    surface = next(s for s in analysis.everything if s.surface == "Args")
    assert set(surface.schema.children) == {*names, "seed"}
    assert ("CD103", "seed") in by_key(findings)
    # Entries that give no default, nor a type, are a list of names.
    bare = "".join(f"- **{name}**\n\n    A setting; values: [1, 2].\n\n" for name in names)
    files = {"app/arguments.py": _PARTS, "configs/arguments.md": "## Args\n\n" + bare}
    analysis, _ = check_project(tmp_path / "bare", files, "app")
    assert "Args" not in {s.surface for s in analysis.everything}


def _dashed(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(name.replace("_", "-") for name in names)


def _table(names: tuple[str, ...]) -> str:
    return "# Options\n\n| Option | Default | Meaning |\n| --- | --- | --- |\n" + "".join(
        f"| `{name}` | `{i}` | It. |\n" for i, name in enumerate(names)
    )


def test_a_model_its_page_writes_with_dashes_takes_the_dashed_spellings(tmp_path) -> None:
    # The loader reads ``line-length`` into ``line_length`` (a TOML table's
    # convention): the page's spelling is the users'.
    page = _table((*_dashed(_FIELDS[:5]), "wrap-length")).replace("`1`", "`9`")
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": _SETTINGS, "docs/options.md": page}, "app"
    )
    surfaces = {s.surface: s for s in analysis.everything}
    assert surfaces["_Config"].schema.children["line_length"].spellings == (
        "line_length",
        "line-length",
    )
    found = by_key(findings)
    assert "9" in found[("CD104", "profile")].message
    dashed = [k for c, k in found if c in ("CD102", "CD103") and "-" in k and k != "wrap-length"]
    assert not dashed
    assert ("CD102", "wrap-length") in found
    assert ("CD103", "quiet") in found


def test_a_page_that_writes_most_keys_with_underscores_gives_no_dashed_spelling(tmp_path) -> None:
    # Two dashed of five: the page's spelling is the code's; a dashed one
    # is another key, which the model lacks.
    names = (*_FIELDS[:3], *_dashed(_FIELDS[3:5]))
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": _SETTINGS, "docs/options.md": _table(names)}, "app"
    )
    schema = {s.surface: s for s in analysis.everything}["_Config"].schema
    assert "skip-gitignore" not in schema.children["skip_gitignore"].spellings
    assert ("CD103", "force_sort") in by_key(findings)  # not taken as ``force-sort``


_LISTED = """
from dataclasses import dataclass, field


@dataclass
class Hook:
    path: str = ""
    template: str = ""
    location: str = "install"


@dataclass
class Settings:
    verbose: bool = False
    hooks: list[Hook] = field(default_factory=list)
"""

_LISTED_PAGE = """# Settings

| Option | Default | Meaning |
| --- | --- | --- |
| `verbose` | `false` | Talk. |

## `hooks[]`

| Option | Default | Meaning |
| --- | --- | --- |
| `hooks[].path` | `""` | Where. |
| `hooks[].template` | `""` | What. |
| `hooks[].locaton` | `"install"` | When. |
"""


def test_keys_of_each_item_of_a_list_are_written_with_brackets(tmp_path) -> None:
    from configdrift.extract.docs.entry_text import split_name

    assert split_name("hooks[].path") == ("hooks", "[]", "path")
    assert split_name("hooks[]") == ("hooks",)  # the list itself
    assert split_name("a.b") == ("a", "b")
    files = {"app/settings.py": _LISTED, "docs/settings.md": _LISTED_PAGE}
    _, findings = check_project(tmp_path, files, "app", mount={"": "app.settings:Settings"})
    found = by_key(findings)
    # The list and two keys of its items are documented; the third is misspelt.
    assert [key for code, key in found if code == "CD103"] == ["hooks[].location"]


_ENCODERS = """
from dataclasses import dataclass


@dataclass
class Encoder:
    codec: str = "av1"
    crf: int = 30
    gop: int = 2
    preset: int = 12
    fast_decode: bool = False


@dataclass
class DepthEncoder(Encoder):
    codec: str = "hevc"
    depth_min: float = 0.0
    depth_max: float = 10.0
    depth_unit: str = "mm"
"""

_ENCODERS_PAGE = """# Options

| Option | Default | Meaning |
| --- | --- | --- |
| `codec` | `"av1"` | The codec. |
| `crf` | `40` | The quality. |
| `gop` | `2` | Frames between keyframes. |
| `preset` | `12` | The speed. |
| `fast_decode` | `false` | Decode fast. |
| `depth_min` | `0.0` | The nearest depth. |
| `depth_max` | `10.0` | The farthest depth. |
| `depth_unit` | `"mm"` | The unit. |
"""


def test_a_default_a_model_and_its_base_give_differently_is_not_known(tmp_path) -> None:
    # The page documents the base's codec beside the subclass's own keys:
    # which class its ``codec`` default is of, is not known.
    files = {"app/encoders.py": _ENCODERS, "docs/options.md": _ENCODERS_PAGE}
    analysis, findings = check_project(tmp_path, files, "app")
    surfaces = {s.surface: s for s in analysis.everything}
    assert "DepthEncoder" in surfaces
    found = by_key(findings)
    assert ("CD104", "codec") not in found
    # A default both give alike is still compared.
    assert "40" in found["CD104", "crf"].message
