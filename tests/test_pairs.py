"""``map --unread`` pairs each page no surface reads with the code that
holds its keys, and the line of configuration it prints compares them."""

from __future__ import annotations

import json

from conftest import run_cli
from helpers import make_project

_OPTIONS = """\
from dataclasses import dataclass


@dataclass
class Options:
    alpha: int = 1
    beta_gamma: str = "x"
    delta: bool = False
    epsilon: float = 1.0


@dataclass
class Point:
    x: int = 0
    y: int = 0
"""

_GUIDE = """\
# A guide

- `alpha` (int): how much. Default: `2`.
- `beta_gamma` (str): which. Default: `x`.
- `delta` (bool): whether. Default: `false`.
"""

#: Two keys of a model are no pairing: a page of other things.
_POINTS = """\
# Drawing

- `x` (int): across.
- `y` (int): down.
- `colour` (str): which colour.
- `width` (int): how wide.
"""


#: Three keys of a model among many others: a page about other things.
_MISC = "# Odds and ends\n\n" + "".join(
    f"- `{name}` (int): a thing.\n"
    for name in ("alpha", "delta", "epsilon", "one", "two", "three", "four", "five")
)


def _project(tmp_path, **extra: str):
    return make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/options.py": _OPTIONS,
            "docs/guide.md": _GUIDE,
            "docs/drawing.md": _POINTS,
            "docs/misc.md": _MISC,
            **extra,
        },
    )


def _pairs(root) -> dict[str, dict]:
    result = run_cli("map", str(root), "--unread", "--format", "json", "--jobs", "1")
    (project,) = json.loads(result.out)["projects"]
    return {pair["page"].rsplit("/", 1)[-1]: pair for pair in project["pairs"]}


def test_a_page_no_surface_reads_is_paired_with_the_model_that_holds_its_keys(tmp_path) -> None:
    root = _project(tmp_path)
    pairs = _pairs(root)
    # Two keys of Point, or three of Options among eight: pages of other things.
    assert set(pairs) == {"guide.md"}
    pair = pairs["guide.md"]
    assert (pair["container"], pair["kind"], pair["shared"], pair["keys"]) == (
        "app.options:Options",
        "model",
        3,
        4,
    )
    assert pair["location"].endswith("app/options.py:5")
    text = run_cli("map", str(root), "--unread", "--jobs", "1").out
    assert "Pages no surface reads, with the code that holds their keys:" in text
    assert 'surfaces.Options = {mount = "app.options:Options", docs = [' in text


def test_the_line_it_prints_compares_them(tmp_path) -> None:
    root = _project(tmp_path)
    before = run_cli("check", str(root), "--format", "json", "--jobs", "1", "--fail-on", "never")
    assert not [f for f in json.loads(before.out)["findings"] if f["code"] == "CD104"]
    (root / "pyproject.toml").write_text(
        '[project]\nname = "t"\n\n[tool.configdrift]\n'
        'surfaces.Options = {mount = "app.options:Options", docs = ["docs/guide.md"]}\n',
        encoding="utf-8",
    )
    after = run_cli("check", str(root), "--format", "json", "--jobs", "1", "--fail-on", "never")
    found = {(f["code"], f["key"]) for f in json.loads(after.out)["findings"]}
    assert ("CD104", "alpha") in found
    assert ("CD103", "epsilon") in found
    # Compared now: no longer a suggestion.
    assert "guide.md" not in _pairs(root)


def test_a_page_two_containers_hold_alike_is_not_paired(tmp_path) -> None:
    twin = _OPTIONS.replace("class Options", "class Twin", 1).split("@dataclass\nclass Point")[0]
    root = _project(tmp_path, **{"app/twin.py": twin})
    assert "guide.md" not in _pairs(root)
