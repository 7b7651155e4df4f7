"""pydantic and dataclasses wherever they come from: compatibility modules,
aliases, v1 spellings and a project's own ``dataclass`` wrapper."""

from __future__ import annotations

import pytest

from configdrift.config import Config
from configdrift.engine import analyse
from helpers import make_project

_LOADER = """
from pkg.models import Zero
def get(d):
    return Zero(**d.get("zero", {}))
"""

#: (name, the module the model's base comes from, the model) -> is it a strict model?
CASES = [
    (
        "star-reexport-in-try",
        {
            "pkg/compat.py": (
                "try:\n"
                "    from pydantic.v1 import *  # noqa\n"
                "except ImportError:\n"
                "    from pydantic import *  # noqa\n"
            ),
            "pkg/models.py": (
                "from pkg.compat import BaseModel, Extra\n"
                "class Zero(BaseModel):\n"
                "    stage: int = 0\n"
                "    class Config:\n"
                "        extra = Extra.forbid\n"
            ),
        },
        True,
    ),
    (
        "module-alias",
        {
            "pkg/models.py": (
                "import pydantic as pd\n"
                "class Zero(pd.BaseModel):\n"
                "    stage: int = 0\n"
                "    model_config = pd.ConfigDict(extra='forbid')\n"
            ),
        },
        True,
    ),
    (
        "v1-namespace",
        {
            "pkg/models.py": (
                "from pydantic.v1 import BaseModel\n"
                "class Zero(BaseModel):\n"
                "    stage: int = 0\n"
                "    class Config:\n"
                "        extra = 'forbid'\n"
            ),
        },
        True,
    ),
    (
        "reexport-chain",
        {
            "pkg/base.py": "from pydantic import BaseModel as Model\n",
            "pkg/api.py": "from pkg.base import Model\n__all__ = ['Model']\n",
            "pkg/models.py": (
                "from pkg.api import Model\n"
                "class Zero(Model, extra='forbid'):\n"
                "    stage: int = 0\n"
            ),
        },
        True,
    ),
    (
        "dataclass-alias",
        {
            "pkg/models.py": (
                "from dataclasses import dataclass as dc\n@dc\nclass Zero:\n    stage: int = 0\n"
            ),
        },
        True,
    ),
    (
        "dataclass-wrapper",
        {
            "pkg/util.py": (
                "import dataclasses\n"
                "def config_class(cls=None, **kwargs):\n"
                "    def wrap(c):\n"
                "        return dataclasses.dataclass(c, frozen=True, **kwargs)\n"
                "    return wrap if cls is None else wrap(cls)\n"
            ),
            "pkg/models.py": (
                "from pkg.util import config_class\n@config_class\nclass Zero:\n    stage: int = 0\n"
            ),
        },
        True,
    ),
]


@pytest.mark.parametrize(("name", "files", "strict"), CASES, ids=[c[0] for c in CASES])
def test_model_recognised_through_the_layer(tmp_path, name, files, strict) -> None:
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, **files})
    analysis = analyse(Config(root=tmp_path), jobs=1)
    zero = analysis.schema.child("zero")
    assert zero is not None, name
    assert zero.model == "Zero"
    assert "stage" in zero.children
    assert zero.strict is strict


@pytest.mark.parametrize(
    "files",
    [
        # A star import of a module that is not pydantic: its names are not models.
        {
            "pkg/compat.py": "from attrs_like import *\n",
            "pkg/models.py": "from pkg.compat import BaseModel\nclass Zero(BaseModel):\n    stage: int = 0\n",
        },
        # A decorator that returns something else is not a dataclass.
        {
            "pkg/util.py": "def config_class(cls):\n    return register(cls)\n",
            "pkg/models.py": "from pkg.util import config_class\n@config_class\nclass Zero:\n    stage: int = 0\n",
        },
    ],
    ids=["other-star-module", "other-decorator"],
)
def test_lookalikes_are_not_models(tmp_path, files) -> None:
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, **files})
    analysis = analyse(Config(root=tmp_path), jobs=1)
    zero = analysis.schema.child("zero")
    assert zero is None or zero.model is None


def test_builtins_are_not_taken_from_a_star_import(tmp_path) -> None:
    """``class C(object)`` in a module that star-imports a library keeps the
    builtin base: the library does not shadow it."""
    from configdrift.resolve.project import Symbol

    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": "from somelib import *\nclass C(object):\n    pass\n"},
    )
    analysis = analyse(Config(root=tmp_path), jobs=1)
    project = analysis.project
    assert project.lookup("pkg.m", "object") is None
    assert project.lookup("pkg.m", "Thing") == Symbol("external", "", "somelib.Thing")


def test_a_v1_field_named_model_config_is_a_field(tmp_path) -> None:
    models = (
        "from pydantic.v1 import BaseModel\n"
        "class ModelConfig(BaseModel):\n    name: str = ''\n"
        "class Zero(BaseModel):\n    stage: int = 0\n    model_config: ModelConfig = ModelConfig()\n"
        "    class Config:\n        extra = 'forbid'\n"
    )
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, "pkg/models.py": models})
    zero = analyse(Config(root=tmp_path), jobs=1).schema.child("zero")
    assert zero is not None and set(zero.children) == {"stage", "model_config"}
    assert "name" in zero.children["model_config"].children


def test_v2_model_config_is_not_a_field(tmp_path) -> None:
    models = (
        "from pydantic import BaseModel, ConfigDict\n"
        "class Zero(BaseModel):\n    model_config: ConfigDict = ConfigDict(extra='forbid')\n"
        "    stage: int = 0\n"
    )
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, "pkg/models.py": models})
    zero = analyse(Config(root=tmp_path), jobs=1).schema.child("zero")
    assert zero is not None and set(zero.children) == {"stage"} and zero.strict is True


@pytest.mark.parametrize(
    ("hook", "known"),
    [
        ("    @classmethod\n    def __get_validators__(cls):\n        yield cls.parse\n", False),
        (
            "    @root_validator(pre=True)\n    def parse(cls, v):\n        return v\n",
            False,
        ),
        ("", True),
    ],
    ids=["get-validators", "pre-root-validator", "plain"],
)
def test_a_model_that_coerces_other_values_has_no_known_type(tmp_path, hook, known) -> None:
    """``gpu: "80GB"`` is a valid value of a model field whose model parses
    strings itself: the field's type is not taken as a dict only."""
    models = (
        "from pydantic.v1 import BaseModel, root_validator\n"
        f"class GPU(BaseModel):\n    memory: str = ''\n{hook}"
        "class Zero(BaseModel):\n    gpu: GPU = GPU()\n"
    )
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, "pkg/models.py": models})
    gpu = analyse(Config(root=tmp_path), jobs=1).schema.child("zero").children["gpu"]
    assert (gpu.type.kinds == frozenset({"dict"})) is known
    assert "memory" in gpu.children


@pytest.mark.parametrize(
    "layout",
    ["src/app/{}.py", "app/{}.py", "tools/cli/app/{}.py"],
    ids=["src-namespace", "namespace", "nested"],
)
def test_modules_in_folders_without_init_are_imported_by_name(tmp_path, layout) -> None:
    """No ``__init__.py`` anywhere: ``from app.models import Zero`` still
    names the file, as Python's namespace packages do."""
    models = (
        "from pydantic import BaseModel, ConfigDict\n"
        "class Zero(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n    stage: int = 0\n"
    )
    loader = "from app.models import Zero\ndef get(d):\n    return Zero(**d.get('zero', {}))\n"
    make_project(tmp_path, {layout.format("models"): models, layout.format("load"): loader})
    zero = analyse(Config(root=tmp_path), jobs=1).schema.child("zero")
    assert zero is not None and zero.model == "Zero" and zero.strict is True


def test_a_name_two_folders_claim_is_not_guessed(tmp_path) -> None:
    models = "from pydantic import BaseModel\nclass Zero(BaseModel):\n    stage: int = 0\n"
    other = "from pydantic import BaseModel\nclass Zero(BaseModel):\n    other: int = 0\n"
    loader = "from app.models import Zero\ndef get(d):\n    return Zero(**d.get('zero', {}))\n"
    make_project(
        tmp_path,
        {"a/app/models.py": models, "b/app/models.py": other, "c/load.py": loader},
    )
    project = analyse(Config(root=tmp_path), jobs=1).project
    assert project.canonical("app.models") is None
    assert project.canonical("a.app.models") is not None


def test_a_module_inside_a_package_does_not_shadow_the_library_of_its_name(tmp_path) -> None:
    """``pkg/pydantic.py`` (``pkg`` a package) is ``pkg.pydantic``: the
    ``pydantic`` the code imports is still the library."""
    models = (
        "from pydantic import BaseModel, ConfigDict\n"
        "class Zero(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n    stage: int = 0\n"
        "def get(d):\n    return Zero(**d.get('zero', {}))\n"
    )
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/pydantic.py": "HELPER = 1\n", "pkg/models.py": models},
    )
    analysis = analyse(Config(root=tmp_path), jobs=1)
    assert analysis.project.canonical("pydantic") is None
    assert analysis.project.canonical("pkg.pydantic") == "pkg.pydantic"
    zero = analysis.schema.child("zero")
    assert zero is not None and zero.strict is True


_HOLDER = (
    "from pydantic import BaseModel\n"
    "from pkg.models import Zero\n"
    "class Holder(BaseModel):\n    zero: Zero = Zero()\n"
    "def get(d):\n    return Holder(**d.get('holder', {}))\n"
)


@pytest.mark.parametrize(
    ("models", "fields"),
    [
        (
            "import attr\n@attr.s\nclass Zero:\n    stage = attr.ib(default=0)\n"
            "    tags = attr.ib(factory=list)\n    name = 'not a field'\n",
            {"stage": 0, "tags": []},
        ),
        (
            "from attrs import define, field\n@define\nclass Zero:\n    stage: int = 0\n"
            "    label: str = field(default='z')\n",
            {"stage": 0, "label": "z"},
        ),
    ],
    ids=["attr.s", "attrs.define"],
)
def test_attrs_classes_held_by_a_model_are_models(tmp_path, models, fields) -> None:
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _HOLDER, "pkg/models.py": models})
    holder = analyse(Config(root=tmp_path), jobs=1).schema.child("holder")
    assert holder is not None
    zero = holder.children["zero"]
    assert zero.model == "Zero"
    assert {k: n.default.value for k, n in zero.children.items()} == fields


def test_an_attrs_class_built_from_a_dict_is_not_mounted(tmp_path) -> None:
    """attrs classes hold much internal data (a replication row built from
    a message): built from ``d["zero"]`` alone, one is no configuration."""
    models = "import attr\n@attr.s\nclass Zero:\n    stage = attr.ib(default=0)\n"
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, "pkg/models.py": models})
    assert analyse(Config(root=tmp_path), jobs=1).schema.child("zero") is None


def test_an_attrs_converter_leaves_the_type_open(tmp_path) -> None:
    models = (
        "import attr\n@attr.s\nclass Zero:\n"
        "    writers: list = attr.ib(default=[], converter=to_list)\n    stage: int = attr.ib(default=0)\n"
    )
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _HOLDER, "pkg/models.py": models})
    zero = analyse(Config(root=tmp_path), jobs=1).schema.child("holder").children["zero"]
    assert zero.children["writers"].type.kinds == frozenset()
    assert zero.children["stage"].type.kinds == frozenset({"int"})


def test_a_lookalike_ib_is_no_attrs_field(tmp_path) -> None:
    models = "import other\n@other.s\nclass Zero:\n    stage = other.ib(default=0)\n"
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADER, "pkg/models.py": models})
    zero = analyse(Config(root=tmp_path), jobs=1).schema.child("zero")
    assert zero is None or zero.model is None
