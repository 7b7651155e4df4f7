"""The Sphinx extension and the MkDocs plugin, tested by building fixture
sites with the real Sphinx and MkDocs: a strict build passes on a site
in agreement and fails on a planted drift, at the doc page and line."""

from __future__ import annotations

import os
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


def _run(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
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


_SPHINX_DIRECTIVES = """

.. toctree::
   :hidden:

   changes

.. versionadded:: 1.0
   The ``log_level`` option.

.. versionchanged:: 1.1
   ``port`` moved.

.. appnote:: A directive of the project's own.
"""

_OWN_DIRECTIVE = """
from docutils import nodes
from docutils.parsers.rst import Directive


class AppNote(Directive):
    has_content = True
    optional_arguments = 99

    def run(self):
        return [nodes.paragraph(text=" ".join(self.arguments))]


def _setup(app):
    app.add_directive("appnote", AppNote)
"""


def test_the_sphinx_build_reads_what_check_reads_on_the_same_cache(tmp_path) -> None:
    """Sphinx's own directives (``toctree``, ``versionadded``) and the
    project's are registered in docutils inside the build: configdrift's
    parse sets them aside, so the build reports the drift ``check``
    reports, and what the build cached serves ``check`` the same."""
    pytest.importorskip("sphinx")
    root = _site(tmp_path, "sphinx")
    with (root / "docs" / "index.rst").open("a") as page:
        page.write(_SPHINX_DIRECTIVES + _PLANTED_RST)
    (root / "docs" / "changes.rst").write_text("Changes\n=======\n\nNone yet.\n", encoding="utf-8")
    with (root / "docs" / "conf.py").open("a") as conf:
        conf.write(_OWN_DIRECTIVE + "\n\ndef setup(app):\n    _setup(app)\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    built = _run("sphinx", "-b", "html", "docs", root / "_build", cwd=root, env=env)
    assert "CD101 [error] `workers` is documented" in built.stderr
    assert "CD503" not in built.stderr and "CD501" not in built.stderr
    checked = _run("configdrift", "check", ".", cwd=root, env=env)
    assert "CD101 [error] `workers` is documented" in checked.stdout
    assert "CD503" not in checked.stdout and "CD501" not in checked.stdout
    assert list((tmp_path / "cache").rglob("*")), "the two runs shared no cache"


def test_a_file_configdrift_cannot_read_fails_a_strict_sphinx_build(tmp_path) -> None:
    """A parse problem is a build warning whatever ``fail-on`` is: a
    build must not pass while configdrift read nothing of a file."""
    pytest.importorskip("sphinx")
    root = _site(tmp_path, "sphinx")
    (root / "app" / "broken.py").write_text("def broken(:\n    pass\n", encoding="utf-8")
    built = _sphinx(root)
    assert built.returncode != 0
    assert "WARNING: CD503" in built.stderr and "app/broken.py:1" in built.stderr


def test_the_mkdocs_plugin_says_each_finding_once_at_its_own_place(tmp_path) -> None:
    pytest.importorskip("mkdocs")
    root = _site(tmp_path, "mkdocs")
    page = root / "docs" / "index.md"
    page.write_text(
        page.read_text().replace("- `debug` (bool): debug mode. Default: `false`.\n", "")
        + _PLANTED_MD
    )
    built = _mkdocs(root)
    lines = [line for line in built.stderr.splitlines() if "CD1" in line]
    # The code's finding at the code's place, from the project's root; the
    # page's at the page, as MkDocs names it.
    (undocumented,) = [line for line in lines if "CD103" in line]
    assert "app/config.py:11: CD103 [warning] `debug`" in undocumented
    (documented,) = [line for line in lines if "CD101" in line]
    assert "index.md:" in documented and "; app/config.py:" in documented
    for line in lines:
        assert str(tmp_path) not in line  # no absolute path
        place = line.split(": CD", 1)[0].rsplit(" ", 1)[-1]
        assert line.count(place) == 1, line  # no place said twice


def test_a_docs_build_finds_the_project_check_finds(tmp_path) -> None:
    from configdrift.api import project_of
    from configdrift.docs_build import project_root

    # A project known by its setup.py alone: the docs folder is not it.
    (tmp_path / "proj" / "docs" / "source").mkdir(parents=True)
    (tmp_path / "proj" / "setup.py").write_text("", encoding="utf-8")
    docs = tmp_path / "proj" / "docs" / "source"
    assert project_root(docs) == project_of(docs) == (tmp_path / "proj").resolve()
    assert project_root(docs, "../..") == (tmp_path / "proj").resolve()
