"""Defaults and types that reads from config dicts give their keys."""

from __future__ import annotations

import pytest

from configdrift.config import Config
from configdrift.engine import analyse
from configdrift.rules.run import run_rules
from helpers import make_project

_HELPERS = """
def get_scalar_param(param_dict, param_name, param_default_value):
    return param_dict.get(param_name, param_default_value)

def get_typed(param_dict, name, default):
    return get_scalar_param(param_dict, name, default)
"""


def _node(tmp_path, body: str):
    code = (
        "import os\n"
        "from pkg.helpers import get_scalar_param, get_typed\n"
        "LIMIT_DEFAULT = 5e8\n"
        "def read(cfg):\n"
        f"    return {body}\n"
    )
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/helpers.py": _HELPERS, "pkg/read.py": code},
    )
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.read:read.cfg"}), jobs=1)
    node = analysis.schema.child("limit")
    assert node is not None
    return node


@pytest.mark.parametrize(
    ("body", "default"),
    [
        ("cfg.get('limit', 3)", 3),
        ("cfg.get('limit', LIMIT_DEFAULT)", 5e8),
        ("cfg.setdefault('limit', -1)", -1),
        ("cfg['limit'] if 'limit' in cfg else 7", 7),
        ("get_scalar_param(cfg, 'limit', LIMIT_DEFAULT)", 5e8),
        ("get_typed(cfg, 'limit', 2 ** 4)", 16),
        ("get_scalar_param(cfg, 'limit', [1, 2])", [1, 2]),
        # No default, or one computed at runtime: nothing to compare.
        ("cfg.get('limit')", None),
        ("cfg['limit']", None),
        ("cfg.get('limit', os.cpu_count())", None),
        ("get_scalar_param(cfg, 'limit', os.cpu_count())", None),
        ("cfg['limit'] if 'other' in cfg else 7", None),
    ],
)
def test_read_defaults(tmp_path, body: str, default: object) -> None:
    node = _node(tmp_path, body)
    if default is None:
        assert node.default is None
    else:
        assert node.default is not None and node.default.value == default
        assert node.default_location is not None


@pytest.mark.parametrize(
    ("body", "default"),
    [
        ("v = cfg.get('limit')\nif not v:\n    v = 7", 7),
        ("v = cfg.get('limit', '')\nif v == '':\n    v = 7", 7),
        ("v = cfg.get('limit')\nif v is None:\n    v = 7", 7),
        ("v = cfg.get('limit') or 7", 7),
        ("v = cfg.get('limit', []) or 7", 7),
        ("v = cfg.get('limit', {})\nif not v:\n    v = 7", 7),
        ("v = cfg.get('limit', [3]) or 7", [3]),
        ("v = cfg.get('limit') or LIMIT", 5),
        ("v = cfg.get('limit')\nif not v:\n    v = [LIMIT]", [5]),
        ("v = cfg.get('limit', LIMIT) or 7", 5),
        ("v = cfg.get('limit', LIMIT)\nif v is None:\n    v = 7", 5),
        # The fallback does not stand in for the read's own default.
        ("v = cfg.get('limit', 3) or 7", 3),
        ("v = cfg.get('limit', 3)\nif v is None:\n    v = 7", 3),
        ("v = cfg.get('limit', 0)\nif v is None:\n    v = 7", 0),
        # Not the read's value that is replaced, or not by a literal.
        ("v = cfg.get('limit')\nv = other(v)\nif not v:\n    v = 7", None),
        ("v = cfg.get('limit')\nif not v:\n    v = other()", None),
        ("v = cfg.get('limit') or other()", None),
        ("v = cfg.get('limit')\nif not w:\n    v = 7", None),
        ("v = cfg.get('limit')\nif v:\n    v = 7", None),
        ("v = cfg.get('limit')\nif v == 'x':\n    v = 7", None),
        ("v = cfg.get('limit')\nif not v:\n    v = 7\n    w = 1", None),
        ("v = cfg.get('limit')\nif not v:\n    v = 7\nelse:\n    v = 8", None),
    ],
)
def test_falsy_fallbacks_are_read_defaults(tmp_path, body: str, default: object) -> None:
    """``v = d.get(K)`` then ``if not v: v = 7`` (or ``d.get(K) or 7``) reads
    ``K`` with the default 7."""
    code = "LIMIT = 5\ndef read(cfg):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/read.py": code + "    return v\n"})
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.read:read.cfg"}), jobs=1)
    node = analysis.schema.child("limit")
    assert node is not None
    if default is None:
        assert node.default is None
    else:
        assert node.default is not None and node.default.value == default


_NUMBER = frozenset({"int", "float", "str"})


@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        ("int(cfg.get('limit', 1))", _NUMBER),
        ("float(cfg['limit'])", _NUMBER),
        ("int(get_scalar_param(cfg, 'limit', 1))", _NUMBER),
        ("cfg.get('limit', 'a').lower()", frozenset({"str"})),
        ("cfg['limit'].split(',')", frozenset({"str"})),
        # Uses that say nothing of what the user writes.
        ("cfg['limit'] == 'auto'", frozenset()),
        ("cfg['limit'] in ('cpu', 'nvme')", frozenset()),
        ("str(cfg['limit'])", frozenset()),
        ("cfg['limit'] == 3", frozenset()),
        ("bool(cfg.get('limit'))", frozenset()),
        ("print(cfg['limit'])", frozenset()),
    ],
)
def test_read_kinds(tmp_path, body: str, kinds: frozenset[str]) -> None:
    assert _node(tmp_path, body).type.kinds == kinds


def test_an_annotated_attribute_is_assigned(tmp_path) -> None:
    """``self.x: bool = d.get("x")`` sets ``x`` as ``self.x = ...`` does: a
    read of it is no dead accessor."""
    code = """
class Settings:
    def __init__(self, cfg):
        self.name: str = cfg.get("name")
        self.epochs: int = cfg.get("epochs", 1)
        self.seed = cfg.get("seed")

def use(s: Settings):
    return s.name, s.epochs, s.missing
"""
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/s.py": code})
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.s:Settings.cfg"}), jobs=1)
    dead = [f.key for f in run_rules(analysis) if f.code == "CD201"]
    assert dead == ["missing"]


def test_two_defaults_for_one_key_are_a_conflict(tmp_path) -> None:
    code = """
def read(cfg):
    a(cfg)
    b(cfg)
    c(cfg)

def a(cfg):
    return cfg.get("steps", 10)

def b(cfg):
    return cfg.get("steps", 10.0)

def c(cfg):
    return cfg.get("steps", 100)
"""
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/read.py": code})
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.read:read.cfg"}), jobs=1)
    (finding,) = [f for f in run_rules(analysis) if f.code == "CD106"]
    assert finding.key == "steps"
    assert finding.location.line == 14
    assert finding.related[0].line == 8
    assert analysis.schema.children["steps"].default is None  # no single default to compare


def test_two_fallbacks_for_one_key_are_a_conflict(tmp_path) -> None:
    """The literal a read falls back to when the key is unset is its
    default: ``main`` in one place and ``master`` in another conflict."""
    code = """
def read(cfg):
    return a(cfg), b(cfg)

def a(cfg):
    branch = cfg.get("branch", "")
    if branch == "":
        branch = "main"
    return branch

def b(cfg):
    return cfg.get("branch") or "master"
"""
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/read.py": code})
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.read:read.cfg"}), jobs=1)
    (finding,) = [f for f in run_rules(analysis) if f.code == "CD106"]
    assert finding.key == "branch"
    assert "main" in finding.message and "master" in finding.message


def test_equal_defaults_are_no_conflict(tmp_path) -> None:
    code = """
LIMIT = 500000000
def read(cfg):
    return cfg.get("limit", 5e8), cfg.get("limit", LIMIT), cfg.get("limit"), cfg.get("on", True), cfg.get("on", True)
"""
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/read.py": code})
    analysis = analyse(Config(root=tmp_path, mount={"": "pkg.read:read.cfg"}), jobs=1)
    assert not [f for f in run_rules(analysis) if f.code == "CD106"]
    assert analysis.schema.children["limit"].default.value == 5e8


@pytest.mark.parametrize(
    ("doc_type", "doc_default", "flagged"),
    [
        ("integer", '`"3"`', False),  # a number written in quotes, typed as a number
        ("float", "`3.0`", False),
        ("string", '`"3"`', True),  # documented as a string: the code's 3 is not "3"
        ("integer", "`4`", True),
    ],
)
def test_documented_defaults_against_read_defaults(
    tmp_path, doc_type: str, doc_default: str, flagged: bool
) -> None:
    docs = (
        f"# Settings\n\n<i>**limit**</i>: [{doc_type}]\n\n"
        f"| Description | Default |\n| --- | --- |\n| How many. | {doc_default} |\n\n"
        "<i>**name**</i>: [string]\n\n<i>**seed**</i>: [integer]\n\n"
        "<i>**lr**</i>: [float]\n\n<i>**batch**</i>: [integer]\n"
    )
    code = (
        "import json\n"
        "def read(path):\n"
        "    cfg = json.load(open(path))\n"
        '    return cfg.get("limit", 3), cfg["name"], cfg.get("seed"), cfg["lr"], cfg["batch"]\n'
    )
    make_project(tmp_path, {"pkg/__init__.py": "", "pkg/read.py": code, "docs/config.md": docs})
    analysis = analyse(Config(root=tmp_path), jobs=1)
    found = [f for f in run_rules(analysis) if f.code == "CD104"]
    assert bool(found) is flagged
