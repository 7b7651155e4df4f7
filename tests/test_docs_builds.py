"""The Sphinx extension and the MkDocs plugin, tested by building fixture
sites with the real Sphinx and MkDocs: a strict build passes on a site
in agreement and fails on a planted drift, at the doc page and line."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SITES = Path(__file__).parent / "fixtures" / "docs_sites"

_PLANTED_RST = "\n``workers``\n   Worker processes. Default: ``4``.\n"
_PLANTED_MD = "- `workers` (int): worker processes. Default: `4`.\n"


def _site(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(SITES / name, root)
    return root


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _sphinx(root: Path) -> subprocess.CompletedProcess[str]:
    return _run("sphinx", "-W", "-b", "html", "docs", root / "_build", cwd=root)


def _mkdocs(root: Path) -> subprocess.CompletedProcess[str]:
    return _run("mkdocs", "build", "--strict", "-d", root.parent / "site", cwd=root)


def test_a_sphinx_site_in_agreement_builds_with_w(tmp_path) -> None:
    pytest.importorskip("sphinx")
    built = _sphinx(_site(tmp_path, "sphinx"))
    assert built.returncode == 0, built.stderr
    assert "configdrift" not in built.stderr


def test_a_sphinx_site_fails_its_strict_build_on_a_planted_drift(tmp_path) -> None:
    pytest.importorskip("sphinx")
    root = _site(tmp_path, "sphinx")
    with (root / "docs" / "index.rst").open("a") as page:
        page.write(_PLANTED_RST)
    built = _sphinx(root)
    assert built.returncode != 0
    assert "index.rst:21: WARNING: CD101 [error] `workers` is documented" in built.stderr
    assert "app/config.py:7 (Config forbids unknown keys" in built.stderr


def test_the_sphinx_check_can_be_turned_off(tmp_path) -> None:
    """Negative case: ``configdrift_enabled = False`` reports nothing."""
    pytest.importorskip("sphinx")
    root = _site(tmp_path, "sphinx")
    with (root / "docs" / "index.rst").open("a") as page:
        page.write(_PLANTED_RST)
    with (root / "docs" / "conf.py").open("a") as conf:
        conf.write("configdrift_enabled = False\n")
    assert _sphinx(root).returncode == 0


def test_a_mkdocs_site_in_agreement_builds_strict(tmp_path) -> None:
    pytest.importorskip("mkdocs")
    built = _mkdocs(_site(tmp_path, "mkdocs"))
    assert built.returncode == 0, built.stderr
    assert "CD1" not in built.stderr


def test_a_mkdocs_site_fails_its_strict_build_on_a_planted_drift(tmp_path) -> None:
    pytest.importorskip("mkdocs")
    root = _site(tmp_path, "mkdocs")
    with (root / "docs" / "index.md").open("a") as page:
        page.write(_PLANTED_MD)
    built = _mkdocs(root)
    assert built.returncode != 0
    assert "WARNING -  index.md:10: CD101 [error] `workers` is documented" in built.stderr
    assert "Aborted with 1 warnings in strict mode" in built.stdout + built.stderr


def test_a_warning_below_fail_on_is_no_build_warning(tmp_path) -> None:
    """Negative case: an undocumented key is a CD103 warning; with the
    default ``fail-on = "error"`` the check passes, and so does the build."""
    pytest.importorskip("mkdocs")
    root = _site(tmp_path, "mkdocs")
    page = root / "docs" / "index.md"
    page.write_text(
        page.read_text().replace("- `debug` (bool): debug mode. Default: `false`.\n", "")
    )
    built = _mkdocs(root)
    assert built.returncode == 0, built.stderr
    assert "CD103 [warning] `debug`" in built.stderr  # logged as information
