"""The static schema accepts exactly what pydantic accepts, for the fixtures.

This imports the fixture models (our own test code, never a checked
project's) and asks pydantic, key by key, whether a spelling is accepted.
"""

from __future__ import annotations

import importlib
import sys

import pytest

from configdrift.config import Config
from configdrift.engine import analyse
from conftest import FIXTURES

pydantic = pytest.importorskip("pydantic")

CASES = [
    ("aliases", "pkg.models"),
    ("nested", "pkg.models"),
    ("inheritance", "pkg.styles"),
    ("inheritance", "pkg.sub.child"),
]


def _accepts(model: type, key: str, path_alias: bool = False) -> bool:
    # The head of an AliasPath must hold a list for the path to resolve.
    value = [None] if path_alias else None
    try:
        model.model_validate({key: value})
    except pydantic.ValidationError as exc:
        return not any(e["type"] == "extra_forbidden" for e in exc.errors())
    return True


# The v1-style fixture models are deprecated spellings on purpose.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(("case", "module"), CASES)
def test_static_spellings_match_pydantic(case: str, module: str, monkeypatch) -> None:
    root = FIXTURES / case
    monkeypatch.syspath_prepend(str(root))
    for name in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
        monkeypatch.delitem(sys.modules, name)
    mod = importlib.import_module(module)
    analysis = analyse(Config(root=root), jobs=1)
    checked = 0
    for node in analysis.schema.walk():
        if not node.model or node.model not in vars(mod):
            continue
        model = getattr(mod, node.model)
        if model.model_config.get("extra") != "forbid":
            continue
        for child in node.children.values():
            for spelling in child.spellings:
                assert _accepts(model, spelling, spelling in child.path_aliases), (
                    f"{node.model} rejects {spelling!r}"
                )
                checked += 1
            for name in {child.key, *child.spellings}:
                if name not in child.spellings:
                    assert not _accepts(model, name), (
                        f"{node.model} accepts {name!r}, not in the static spellings"
                    )
        assert not _accepts(model, "definitely_not_a_field")
    assert checked > 0
