"""Values of example configs against the field types (CD303)."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

from helpers import make_project

MODEL = """\
from enum import Enum
from typing import Literal, Optional
from pydantic import BaseModel, ConfigDict, Field, field_validator

class Device(str, Enum):
    none = "none"
    cpu = "cpu"
    nvme = "nvme"

class M(BaseModel):
    model_config = ConfigDict(extra="forbid")
    flag: bool = False
    size: int = 1
    ratio: float = 0.5
    name: str = ""
    device: Device = Device.none
    mode: Literal["fast", "slow"] = "fast"
    maybe: Optional[int] = None
    sizes: list[int] = Field(default_factory=list)
    scale: int = 0

    @field_validator("scale", mode="before")
    @classmethod
    def _scale(cls, value):
        return 0 if value == "dynamic" else value

def get(d):
    return M(**d.get("m", {}))
"""

PAGE = """\
# Configuration

```json
{{
  "m": {{
    {key}: {value}
  }}
}}
```
"""


def _cd303(cli, root, key: str, value: str) -> list[tuple[str, int, str | None]]:
    make_project(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/m.py": MODEL,
            "docs/config.md": PAGE.format(key=json.dumps(key), value=value),
        },
    )
    result = cli("check", str(root), "--format", "json", "--select", "CD303")
    return [(f["key"], f["line"], f["suggestion"]) for f in json.loads(result.out)["findings"]]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("flag", '"fast"'),
        ("flag", "2"),
        ("size", "1.5"),
        ("size", '"big"'),
        ("name", "3"),
        ("name", "false"),
        ("ratio", "null"),
        ("sizes", "4"),
        ("size", "{}"),
        ("mode", '"medium"'),
        ("device", '"gpu"'),
        ("maybe", "[1, 2, 3.5]"),
    ],
)
def test_a_value_the_field_rejects_is_cd303_at_its_line(cli, tmp_path, key, value) -> None:
    found = _cd303(cli, tmp_path, key, value)
    assert [(k, line) for k, line, _ in found] == [(f"m.{key}", 6)]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("flag", "1"),
        ("size", "true"),  # pydantic takes a bool as an int
        ("flag", '"yes"'),
        ("size", '"5"'),
        ("size", "5e8"),
        ("ratio", "3"),
        ("maybe", "null"),
        ("device", '"nvme"'),
        ("mode", '"slow"'),
        ("sizes", "[1, 2]"),
        ("size", "[1, 2, 4]"),  # a search space of valid values, as autotuners read
        ("scale", '"dynamic"'),  # a validator changes the value first
    ],
)
def test_a_value_pydantic_accepts_is_quiet(cli, tmp_path, key, value) -> None:
    assert _cd303(cli, tmp_path, key, value) == []


@pytest.mark.parametrize(
    "value",
    [
        "[true|false]",
        '"[cpu|nvme]"',
        "<int>",
        '"auto"',
        '"..."',
        "...",
        '"YOUR_DEVICE"',
        '"a path"',
    ],
)
def test_placeholders_are_not_values(cli, tmp_path, value) -> None:
    for key in ("flag", "size", "device"):
        assert _cd303(cli, tmp_path, key, value) == [], (key, value)


def test_a_near_choice_is_suggested(cli, tmp_path) -> None:
    assert _cd303(cli, tmp_path, "device", '"CPU"') == [("m.device", 6, "did you mean `cpu`?")]


def test_dataclass_fields_are_not_judged(cli, tmp_path) -> None:
    # A dataclass does not validate what it is given: no value is rejected at load.
    make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/m.py": (
                "from dataclasses import dataclass\n"
                "@dataclass\nclass M:\n    size: int = 1\n"
                "def get(d):\n    return M(**d.get('m', {}))\n"
            ),
            "docs/config.md": PAGE.format(key='"size"', value='"big"'),
        },
    )
    result = cli("check", str(tmp_path), "--format", "json", "--select", "CD303")
    assert json.loads(result.out)["findings"] == []


VALUES = [True, False, 0, 1, 2, -3, 1.5, 5.0, "5", "2.5", "yes", "off", "big", "cpu", "CPU"]
VALUES += ["fast", "none", None]


def test_static_judgement_matches_pydantic(tmp_path, monkeypatch) -> None:
    """Every checked field, every value: CD303's verdict is pydantic's."""
    pydantic = pytest.importorskip("pydantic")
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.values import value_rejection

    root = make_project(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": MODEL})
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.delitem(sys.modules, "pkg", raising=False)
    monkeypatch.delitem(sys.modules, "pkg.m", raising=False)
    model = importlib.import_module("pkg.m").M
    node = analyse(Config(root=root), jobs=1).schema.children["m"]
    compared = 0
    for field in node.children.values():
        if not field.checked:
            continue
        shapes = [("value", v, v) for v in VALUES] + [("dict", None, {}), ("list", None, [])]
        for kind, static_value, real in shapes:
            static = value_rejection(field.type, kind, static_value) is not None
            try:
                model.model_validate({field.key: real})
                real_rejects = False
            except pydantic.ValidationError:
                real_rejects = True
            assert static == real_rejects, (field.key, field.type.text, real)
            compared += 1
    assert compared >= 8 * len(VALUES)
