"""An example block of one top-level key is no example of a lenient
config where the blocks of that key set three names or more below it
and the config knows none of them: a table of the user's own names under
a key the config shares (a Pipfile's ``[packages]`` beside a request's
``packages``). A strict config refuses them, whatever the file."""

from __future__ import annotations

import pytest

from helpers import check_project

_MODELS = """
import json

from pydantic import BaseModel, ConfigDict


class Packages(BaseModel):
    model_config = ConfigDict(extra="ignore")
    specs: dict = {}
    pinned: bool = False


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rate: int = 1


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")
    packages: Packages = Packages()
    limits: Limits = Limits()
    mapping: dict[str, int] = {}
    category: str = "default"


def load(path):
    with open(path) as f:
        return Request(**json.load(f))
"""

_ENTRIES = (
    "- `packages`: the packages.\n- `limits`: how much.\n- `mapping`: names.\n"
    "- `category`: which.\n\n"
)


def _rejected(tmp_path, *blocks: str) -> set[str]:
    examples = "".join(f"```toml\n{block}```\n\n" for block in blocks)
    page = f"# Request\n\n## Keys\n\n{_ENTRIES}## Examples\n\n{examples}"
    files = {"app/request.py": _MODELS, "docs/request.md": page}
    _, findings = check_project(tmp_path, files, "app")
    return {f.key for f in findings if f.code in ("CD301", "CD302", "CD303")}


@pytest.mark.parametrize(
    ("block", "rejected"),
    [
        # A key the config knows below the top one, beside one it lacks.
        ("[packages]\npinned = true\nextra = 1\n", {"packages.extra"}),
        # Two names of the user's own: too few to tell.
        ('[packages]\nrequests = "*"\nflask = "*"\n', {"packages.requests", "packages.flask"}),
        # Three, none the config's: another file's table.
        ('[packages]\nrequests = "*"\nflask = "*"\nnumpy = "*"\n', set()),
        # Three, one a letter off one of the config's.
        (
            "[packages]\npined = 1\nsource = 2\nmirror = 3\n",
            {"packages.pined", "packages.source", "packages.mirror"},
        ),
        # A strict section refuses them all; a leaf alone is the config's.
        (
            "[limits]\nalpha = 1\nbeta = 2\ngamma = 3\n",
            {"limits.alpha", "limits.beta", "limits.gamma"},
        ),
        ("category = 5\n", {"category"}),
    ],
)
def test_a_block_of_one_top_level_key(tmp_path, block, rejected) -> None:
    assert _rejected(tmp_path, block) == rejected


def test_names_of_their_own_across_the_blocks(tmp_path) -> None:
    # One name a block, three across the page: another file's table.
    blocks = [f'[packages]\n{name} = "*"\n' for name in ("alpha", "beta", "gamma")]
    assert _rejected(tmp_path, *blocks) == set()
