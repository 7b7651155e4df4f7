"""From a folder inside a project (``cd docs``), configdrift finds the
project as ruff and mypy do, the nearest folder up that is one, and says
so: ``check`` reports what it reports from the root; ``init`` writes at
the project's root."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import run_cli
from helpers import APP_CONFIG, make_project

_PAGE = "Configuration\n=============\n\n" + "".join(
    f"{k}\n   The {k}.\n\n" for k in ("host", "port", "workers", "timeout")
)


def _project(tmp_path: Path) -> Path:
    return make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n',
            "app/__init__.py": "",
            "app/config.py": APP_CONFIG,
            "docs/configuration.rst": _PAGE,
        },
    )


def _found(folder: Path) -> set[tuple[str, str, str]]:
    result = run_cli("check", "--format", "json", "--no-cache", cwd=folder)
    return {(f["code"], f["key"], f["path"]) for f in json.loads(result.out)["findings"]}


def test_a_folder_inside_a_project_checks_the_project(tmp_path) -> None:
    root = _project(tmp_path)
    everything = _found(root)
    assert ("CD101", "timeout", "docs/configuration.rst") in everything
    assert ("CD103", "debug", "app/config.py") in everything
    # From docs/: the same findings, printed from there.
    docs = _found(root / "docs")
    assert docs == {(c, k, os.path.relpath(root / p, root / "docs")) for c, k, p in everything}
    result = run_cli("check", "--no-cache", cwd=root / "docs")
    assert f"inside the project at {root.resolve()}" in result.err
    assert "inside the project" not in run_cli("check", "--no-cache", cwd=root).err


def test_a_folder_that_is_a_project_of_its_own_stays_one(tmp_path) -> None:
    root = _project(tmp_path)
    (root / "docs" / "pyproject.toml").write_text('[project]\nname = "docs"\n', encoding="utf-8")
    assert _found(root / "docs") == set()


def test_init_from_a_folder_writes_at_the_project_s_root(tmp_path) -> None:
    root = _project(tmp_path)
    result = run_cli("init", cwd=root / "docs")
    assert result.code == 0, result.err
    assert not (root / "docs" / "configdrift.toml").exists()
    assert not (root / "docs" / "pyproject.toml").exists()
    assert "[tool.configdrift]" in (root / "pyproject.toml").read_text(encoding="utf-8")
