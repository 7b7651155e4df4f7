"""An example config's ``class_path`` and ``init_args`` (jsonargparse,
LightningCLI), or its ``_target_`` (Hydra) or ``_component_`` (torchtune)
and the keys beside it, are a call of the project's class or function
with those keywords: one its closed signature does not take fails the
load (CD301); a class of another library, a constructor that takes
``**kwargs`` or a class named without its module are not judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import by_key, check_project, make_project

_MODELS = (
    "class Padim:\n"
    "    def __init__(self, backbone: str = 'resnet18', layers: list | None = None) -> None:\n"
    "        self.backbone = backbone\n\n\n"
    "class Open:\n"
    "    def __init__(self, backbone: str = 'x', **kwargs) -> None:\n"
    "        self.kwargs = kwargs\n\n\n"
    "def build_padim(backbone: str = 'resnet18', layers: int = 3) -> Padim:\n"
    "    return Padim(backbone)\n"
)
_INIT = "from app.models import Open, Padim\n"


def _page(target: str, keys: str = "backbone: resnet50\n    input_size: 256\n") -> str:
    return (
        "# Models\n\nPick one:\n\n```yaml\nmodel:\n"
        f"  class_path: {target}\n  init_args:\n    {keys}```\n"
    )


def _check(tmp_path, files):
    return by_key(check_project(tmp_path, {"app/models.py": _MODELS, **files}, "app")[1])


def test_an_init_arg_the_class_does_not_take_fails_the_load(tmp_path) -> None:
    found = _check(tmp_path, {"app/__init__.py": _INIT, "docs/models.md": _page("app.Padim")})
    finding = found[("CD301", "model.init_args.input_size")]
    assert finding.location.path == "docs/models.md"
    assert "Padim" in finding.message and finding.related[0].path == "app/models.py"
    assert ("CD301", "model.init_args.backbone") not in found
    # A value's own keys are not the class's keywords.
    nested = _page("app.Padim", "layers:\n      deep: 1\n")
    found = _check(tmp_path / "nested", {"app/__init__.py": _INIT, "docs/models.md": nested})
    assert not [key for key in found if key[0] == "CD301"]


def test_a_project_config_file_with_a_class_path_is_an_example(tmp_path) -> None:
    config = "model:\n  class_path: app.models.Padim\n  init_args:\n    input_size: 256\n"
    found = _check(tmp_path, {"configs/padim.yaml": config})
    assert found[("CD301", "model.init_args.input_size")].location.path == "configs/padim.yaml"


def test_what_may_take_the_keyword_is_not_judged(tmp_path) -> None:
    # Another library's class, though the package imports it.
    init = "from torch.nn import Linear\n"
    targets = ("app.models.Open", "other.models.Padim", "Padim", "app.models", "app.Linear")
    for i, target in enumerate(targets):
        found = _check(
            tmp_path / str(i), {"app/__init__.py": init, "docs/models.md": _page(target)}
        )
        assert not [key for key in found if key[0] == "CD301"], target


_LIST = """# Callbacks

```yaml
callbacks:
  - class_path: app.models.Open
    init_args:
      patience: 3
  - class_path: app.models.Padim
    init_args:
      backbone: resnet50
      {more}
```
"""


def test_each_item_of_a_list_is_built_with_its_own_init_args(tmp_path) -> None:
    # ``patience`` is the first item's (Open takes it), never Padim's.
    found = _check(tmp_path, {"docs/cb.md": _LIST.format(more="depth: 2")})
    assert [key for key in found if key[0] == "CD301"] == [
        ("CD301", "callbacks.[].init_args.depth")
    ]
    assert found[("CD301", "callbacks.[].init_args.depth")].location.line == 11


def test_init_args_written_above_their_class_path_in_a_list_are_not_judged(tmp_path) -> None:
    # Which item's init args these are is not known from their order alone:
    # ``patience`` is Open's, though it follows Padim's class path.
    second = "  - init_args:\n      patience: 3\n    class_path: app.models.Open\n"
    padim = "  - class_path: app.models.Padim\n    init_args:\n      backbone: resnet50\n"
    first = "  - init_args:\n      backbone: resnet50\n    class_path: app.models.Padim\n"
    for i, items in enumerate((padim + second, first + second)):
        page = f"# Callbacks\n\n```yaml\ncallbacks:\n{items}```\n"
        found = _check(tmp_path / str(i), {"docs/cb.md": page})
        assert not [key for key in found if key[0] == "CD301"], items


@pytest.mark.parametrize("marker", ["_target_", "_component_"])
@pytest.mark.parametrize("target", ["app.models.Padim", "app.models.build_padim"])
def test_the_keys_beside_a_target_are_its_keywords(tmp_path, marker, target) -> None:
    config = (
        f"model:\n  {marker}: {target}\n  _partial_: true\n  backbone: resnet50\n"
        "  input_size: 256\n"
    )
    found = _check(tmp_path, {"configs/padim.yaml": config})
    cd301 = {key for code, key in found if code == "CD301"}
    assert cd301 == {"model.input_size"}
    assert f"{marker}: {target}" in found[("CD301", "model.input_size")].message


def test_a_target_at_the_top_is_built_from_the_whole_file(tmp_path) -> None:
    config = "_target_: app.models.Padim\nbackbone: resnet50\ninput_size: 256\n"
    found = _check(tmp_path, {"configs/padim.yaml": config})
    assert {key for code, key in found if code == "CD301"} == {"input_size"}


def test_a_target_in_a_page_s_example_is_judged(tmp_path) -> None:
    page = "# Models\n\n```yaml\nmodel:\n  _target_: app.models.Padim\n  input_size: 256\n```\n"
    found = _check(tmp_path, {"app/__init__.py": _INIT, "docs/models.md": page})
    assert ("CD301", "model.input_size") in found


def test_what_a_target_may_take_is_not_judged(tmp_path) -> None:
    for i, target in enumerate(("app.models.Open", "torch.optim.AdamW", "Padim")):
        config = f"model:\n  _target_: {target}\n  input_size: 256\n"
        found = _check(tmp_path / str(i), {"configs/padim.yaml": config})
        assert not [key for key in found if key[0] == "CD301"], target


def test_a_list_of_targets_is_not_judged(tmp_path) -> None:
    # Which keys go with which item is not known from the paths alone.
    config = (
        "callbacks:\n  - _target_: app.models.Padim\n    backbone: x\n"
        "  - _target_: app.models.build_padim\n    input_size: 256\n"
    )
    found = _check(tmp_path, {"configs/padim.yaml": config})
    assert not [key for key in found if key[0] == "CD301"]


def test_a_class_path_names_a_class_alone(tmp_path) -> None:
    config = "model:\n  class_path: app.models.build_padim\n  init_args:\n    input_size: 256\n"
    found = _check(tmp_path, {"configs/padim.yaml": config})
    assert not [key for key in found if key[0] == "CD301"]


def test_a_test_s_config_is_its_own(tmp_path) -> None:
    # A config a test loads to see it fail.
    config = "model:\n  _target_: app.models.Padim\n  input_size: 256\n"
    found = _check(tmp_path, {"tests/assets/invalid.yaml": config})
    assert not [key for key in found if key[0] == "CD301"]


# A config file names the class each dict builds by its ``type``, as
# MMEngine's registries build them (``tests/fixtures/registry_configs``).
_REGISTRY = Path(__file__).parent / "fixtures" / "registry_configs"


def _zoo_files() -> dict[str, str]:
    return {
        str(p.relative_to(_REGISTRY)): p.read_text(encoding="utf-8")
        for p in sorted(_REGISTRY.rglob("*.py"))
    }


def _zoo(tmp_path, **changed: str):
    files = {**_zoo_files(), **changed}
    found = by_key(check_project(tmp_path, files, "vision")[1])
    return {key: f for (code, key), f in found.items() if code == "CD301"}


def _with_base(base: str, bases: str = "Base") -> str:
    """The fixture's models, ``ImageClassifier`` deriving from ``bases``
    (``base`` written above it) with no ``__init__`` of its own."""
    models = (_REGISTRY / "vision/models.py").read_text(encoding="utf-8")
    models = models.replace(
        "    def __init__(self, backbone, head=None):\n        self.backbone = MODELS.build(backbone)\n",
        "    def build(self, backbone, head=None):\n",
    )
    return models.replace(
        "@MODELS.register_module()\nclass ImageClassifier:",
        f"{base}\n\n\n@MODELS.register_module()\nclass ImageClassifier({bases}):",
    )


def test_a_key_the_registered_class_does_not_take_fails_the_build(tmp_path) -> None:
    found = _zoo(tmp_path)
    assert set(found) == {"ResNet(norm_eval=)", "ClassifierHead(topk=)"}
    assert found["ResNet(norm_eval=)"].location.line == 3
    # Registered under another name: ``type="LinearHead"``.
    assert "type='LinearHead'" in found["ClassifierHead(topk=)"].message


def test_what_the_registry_may_not_build_is_not_judged(tmp_path) -> None:
    models = (_REGISTRY / "vision/models.py").read_text(encoding="utf-8")
    # A class no registry holds, though of the name: the type is another's.
    unregistered = models.replace("@MODELS.register_module()\nclass ResNet", "class ResNet")
    assert "ResNet(norm_eval=)" not in _zoo(tmp_path / "a", **{"vision/models.py": unregistered})
    # A name two registered classes take.
    twin = models + "\n\n@MODELS.register_module()\nclass ResNet:\n    pass\n"
    assert "ResNet(norm_eval=)" not in _zoo(tmp_path / "b", **{"vision/other.py": twin})
    # The class registered under another name is not found by its own.
    config = 'head = dict(type="ClassifierHead", num_classes=1, topk=1)\n'
    assert not _zoo(tmp_path / "c", **{"configs/resnet50.py": config})
    # A constructor that takes any keyword.
    opened = models.replace("frozen_stages=-1):", "frozen_stages=-1, **kwargs):")
    assert "ResNet(norm_eval=)" not in _zoo(tmp_path / "d", **{"vision/models.py": opened})


def test_keys_the_builder_takes_out_are_no_keywords(tmp_path) -> None:
    config = 'backbone = dict(type="ResNet", depth=50, _delete_=True, priority="LOW")\n'
    assert not _zoo(tmp_path, **{"configs/resnet50.py": config})


def test_a_dict_handed_to_a_class_that_changes_it_is_not_judged(tmp_path) -> None:
    models = (_REGISTRY / "vision/models.py").read_text(encoding="utf-8")
    # ``backbone.pop("norm_eval")`` before it builds the backbone.
    popping = models.replace(
        "        self.backbone = MODELS.build(backbone)",
        '        backbone.pop("norm_eval", None)\n        self.backbone = MODELS.build(backbone)',
    )
    found = _zoo(tmp_path, **{"vision/models.py": popping})
    assert set(found) == {"ClassifierHead(topk=)"}
    # Handed to a class of another library: what it does is not known.
    config = 'model = dict(type="Other", backbone=dict(type="ResNet", depth=1, norm_eval=1))\n'
    assert not _zoo(tmp_path / "other", **{"configs/resnet50.py": config})


@pytest.mark.parametrize(
    ("config", "judged"),
    [
        # A type given as the class a name imports, and a dict literal.
        (
            "from vision.models import ResNet\n\n"
            "backbone = dict(type=ResNet, depth=50, norm_eval=True)\n"
            'other = {"type": "ResNet", "depth": 50, "style": "caffe"}\n',
            {"ResNet(norm_eval=)", "ResNet(style=)"},
        ),
        # In a list, and in a plain dict.
        (
            'pipeline = [dict(type="LinearHead", num_classes=1), dict(type="ResNet", depth=1, x=1)]\n'
            'train = dict(model=dict(type="ResNet", depth=1, y=1), epochs=3)\n',
            {"ResNet(x=)", "ResNet(y=)"},
        ),
    ],
)
def test_a_typed_dict_is_judged_wherever_it_stands(tmp_path, config, judged) -> None:
    assert set(_zoo(tmp_path, **{"configs/resnet50.py": config})) == judged


def test_a_test_s_typed_dict_is_its_own(tmp_path) -> None:
    # The code read is named whole, tests and all: a test's config still
    # says nothing of the docs.
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules

    files = _zoo_files()
    make_project(tmp_path, {**files, "tests/test_build.py": files["configs/resnet50.py"]})
    code = ("vision/*.py", "configs/*.py", "tests/*.py")
    findings = run_rules(analyse(Config(root=tmp_path, code=code), jobs=1))
    assert {f.location.path for f in findings if f.code == "CD301"} == {"configs/resnet50.py"}


def test_a_class_another_decorator_wraps_is_not_registered(tmp_path) -> None:
    models = (_REGISTRY / "vision/models.py").read_text(encoding="utf-8")
    wrapped = models.replace(
        "@MODELS.register_module()\nclass ResNet", "@MODELS.wrap()\nclass ResNet"
    )
    assert "ResNet(norm_eval=)" not in _zoo(tmp_path, **{"vision/models.py": wrapped})


def test_a_dict_handed_to_a_class_without_an_init_of_its_own_is_not_judged(tmp_path) -> None:
    # What its base's ``__init__`` does with the dict is not read.
    based = _with_base("class Base:\n    pass")
    assert _zoo(tmp_path, **{"vision/models.py": based}) == {}


_BASE = (
    "class Base:\n    def __init__(self, backbone, head=None):\n"
    "        self.backbone = MODELS.build(backbone)"
)


def test_a_dict_handed_to_a_base_s_init_that_uses_it_whole_is_judged(tmp_path) -> None:
    found = _zoo(tmp_path, **{"vision/models.py": _with_base(_BASE)})
    # The base names ``backbone`` and builds it whole; ``head`` it names
    # and never uses: that dict is never built.
    assert set(found) == {"ResNet(norm_eval=)"}
    # A base that takes any keyword: the backbone goes where it is not followed.
    opened = _with_base(_BASE.replace("(self, backbone, head=None)", "(self, **cfg)"))
    assert _zoo(tmp_path / "open", **{"vision/models.py": opened}) == {}


def test_a_dict_handed_to_a_class_whose_first_base_is_another_library_s_is_not_judged(
    tmp_path,
) -> None:
    # ``class ImageClassifier(nn.Module, Base)``: which ``__init__`` runs
    # first is the other library's.
    based = _with_base("from torch import nn\n\n\n" + _BASE, "nn.Module, Base")
    assert _zoo(tmp_path, **{"vision/models.py": based}) == {}
