"""One set of numbers: ``check``'s summary, ``coverage`` and ``map`` count
the accepted keys from one census (``coverage.census``), so they agree on
every fixture, and each state of the census is what it says."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from configdrift.coverage import census
from configdrift.model import COMPARED, EXEMPT, RENDERED, UNDOCUMENTED
from conftest import FIXTURES, run_cli
from helpers import check_project, make_project

CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def _json(*args: str) -> dict:
    return json.loads(run_cli(*args, "--format", "json", "--no-cache", "--jobs", "1").out)


@pytest.mark.parametrize("case", CASES)
def test_check_coverage_and_map_agree(case: str) -> None:
    _agree(FIXTURES / case)


def test_two_command_lines_with_one_flag_count_it_twice_everywhere(tmp_path: Path) -> None:
    # Two scripts' parsers, each with its own ``--verbose``: one path, two keys.
    script = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("-v", "--verbose", dest="%s", action="store_true")\n'
        '    parser.add_argument("--%s", default="x")\n'
        "    return parser.parse_args()\n"
    )
    make_project(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "tool"\n\n[project.scripts]\n'
            'tool = "tool.main:main"\nthemes = "tool.themes:main"\n',
            "tool/__init__.py": "",
            "tool/main.py": script % ("verbosity", "output"),
            "tool/themes.py": script % ("verbose", "theme"),
            "docs/cli.md": "# Command line\n\n- `--verbose`: say more.\n- `--output`: where.\n"
            "- `--theme`: which theme.\n",
        },
    )
    surfaces = _agree(tmp_path)
    assert surfaces["cli"]["accepted"] == 4


def _agree(tree_path: Path) -> dict:
    """Check that check, coverage and map count alike; coverage's surfaces."""
    case = tree_path.name
    tree = str(tree_path)
    report = _json("check", tree, "--fail-on", "never")
    checked = {s["name"]: s["keys"] for s in report["summary"]["surfaces"]}
    (covered_project,) = _json("coverage", tree)["projects"]
    covered = {s["name"]: s for s in covered_project["surfaces"]}
    (mapped_project,) = _json("map", tree)["projects"]
    mapped = {s["name"]: s for s in mapped_project["surfaces"]}
    reported = Counter((f["surface"], f["key"]) for f in report["findings"] if f["code"] == "CD103")

    # coverage leaves out only what has neither keys nor entries
    assert set(covered) == {n for n, k in checked.items() if k["accepted"] or k["entries"]}
    assert covered, case
    for name, cov in covered.items():
        keys, surface = checked[name], mapped[name]
        states = Counter(k["state"] for k in surface["keys"])
        assert keys["accepted"] == cov["accepted"] == len(surface["keys"]), (case, name)
        assert surface["evidence"]["keys"] == cov["accepted"], (case, name)
        assert keys["compared"] == cov["compared"] == states[COMPARED], (case, name)
        assert keys["rendered"] == cov["rendered"] == states[RENDERED], (case, name)
        assert keys["undocumented"] == len(cov["undocumented"]) == states[UNDOCUMENTED]
        assert keys["accepted"] - keys["undocumented"] == cov["documented"], (case, name)
        undocumented = sorted(k["path"] for k in surface["keys"] if k["state"] == UNDOCUMENTED)
        assert undocumented == cov["undocumented"], (case, name)
        assert keys["entries"] == cov["entries"] == surface["evidence"]["documented"]
        # what check reports is what coverage counts reported
        assert sorted(k for (s, k) in reported if s == name) == cov["reported"], (case, name)
    return covered


_MODEL = """\
from pydantic import BaseModel, Field


class Retry(BaseModel):
    attempts: int = 3
    backoff: float = 0.5
    jitter: bool = Field(False, deprecated=True)


class Storage(BaseModel):
    path: str = "/tmp"
    size: int = 10


class Config(BaseModel):
    host: str = "localhost"
    port: int = 8080
    legacy_mode: bool = Field(False, deprecated=True)
    verbose: bool = False
    retry: Retry = Retry()
    storage: Storage = Storage()


def load(data: dict) -> Config:
    return Config(**data)
"""

_PAGE = """\
# Configuration

- `host`: the host.
- `retry.attempts`: how often to try.
"""


def _analysis(tmp_path: Path):
    files = {"app/config.py": _MODEL, "docs/configuration.md": _PAGE}
    analysis, _ = check_project(tmp_path, files, "app", {"": "app.config:Config"})
    return analysis


def _states(tmp_path: Path) -> dict[str, str]:
    analysis = _analysis(tmp_path)
    return {".".join(path): state for path, state in census(analysis).states}


def test_each_key_has_the_state_the_docs_give_it(tmp_path: Path) -> None:
    states = _states(tmp_path)
    assert states["host"] == COMPARED
    assert states["retry.attempts"] == COMPARED
    # deprecated: no entry asked for
    assert states["legacy_mode"] == EXEMPT
    assert states["port"] == states["verbose"] == UNDOCUMENTED
    # a section documented in part: its documented field is not undocumented
    assert states["retry"] == UNDOCUMENTED
    assert states["retry.backoff"] == UNDOCUMENTED
    # ... and its deprecated field needs no entry, though the section has none
    assert states["retry.jitter"] == EXEMPT
    # a section reported whole leaves its fields undocumented
    assert states["storage"] == UNDOCUMENTED
    assert states["storage.path"] == states["storage.size"] == UNDOCUMENTED


def test_a_field_documented_under_a_reported_section_counts_documented(tmp_path: Path) -> None:
    from configdrift.coverage import surface_coverage

    coverage = surface_coverage(_analysis(tmp_path))
    assert "retry.attempts" not in coverage.undocumented
    assert "retry" in coverage.reported
    assert coverage.documented == coverage.accepted - len(coverage.undocumented)
