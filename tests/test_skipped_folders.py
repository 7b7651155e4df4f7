"""Folders named as virtual environments or build output are not read,
unless the folder is a package of the project (``app/env/__init__.py``),
whether the tree is listed by git or walked. The Python of scripts,
examples and docs is no schema's, unless its folder is a subpackage of
the project (``app/scripts/__init__.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from configdrift.config import Config
from configdrift.discover import discover, list_files

_FILES = {
    # A package of the project that takes a name a virtual environment has.
    "app/__init__.py": "",
    "app/env/__init__.py": "",
    "app/env/plugin.py": "X = 1\n",
    "app/build/__init__.py": "",
    "app/build/wheel.py": "X = 1\n",
    # A virtual environment and a build's output: no ``__init__.py`` on top.
    "env/lib/site-packages/other/__init__.py": "",
    "env/lib/site-packages/other/mod.py": "X = 1\n",
    "build/lib/app/__init__.py": "",
    "build/lib/app/env/__init__.py": "",
    "build/lib/app/env/plugin.py": "X = 1\n",
}


def _tree(root: Path, with_git: bool) -> Path:
    for rel, text in _FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if with_git:
        if shutil.which("git") is None:
            pytest.skip("git is not installed")
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


@pytest.mark.parametrize("with_git", [False, True], ids=["walked", "git"])
def test_a_package_named_as_a_virtual_environment_is_read(tmp_path, with_git) -> None:
    listed = set(list_files(_tree(tmp_path, with_git)))
    assert "app/env/plugin.py" in listed
    assert "app/build/wheel.py" in listed
    # What a virtual environment or a build's output holds is not.
    assert not any(rel.startswith(("env/", "build/")) for rel in listed)


@pytest.mark.parametrize("folder", ["vendor", "_vendor", "vendored", "_vendored", "third_party"])
def test_another_project_s_code_copied_in_is_not_read(tmp_path, folder) -> None:
    files = {"app/__init__.py": "", f"app/{folder}/lib/__init__.py": "X = 1\n", "app/own.py": ""}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert set(list_files(tmp_path)) >= {"app/__init__.py", "app/own.py"}
    assert not any(f"/{folder}/" in rel for rel in list_files(tmp_path))


_DOCS = {
    # A docs section named as a build's output: pages at its top.
    "docs/build/nodes.md": "# Nodes\n",
    "docs/build/deep/more.md": "# More\n",
    # A docs build's output: folders at its top, never a page.
    "doc/build/objects.inv": "x\n",
    "doc/build/html/index.html": "<html></html>\n",
    "doc/build/html/_sources/index.rst": "Title\n=====\n",
    # A build folder outside the docs, with a page at its top.
    "build/README.md": "# Build notes\n",
    "src/build/notes.md": "# Notes\n",
    # Another output's name in the docs, with a page at its top.
    "docs/dist/index.md": "# Site\n",
}


@pytest.mark.parametrize("with_git", [False, True], ids=["walked", "git"])
def test_a_docs_section_named_as_a_build_s_output_is_read(tmp_path, with_git) -> None:
    for rel, text in _DOCS.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    if with_git:
        if shutil.which("git") is None:
            pytest.skip("git is not installed")
        subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    listed = set(list_files(tmp_path))
    assert {"docs/build/nodes.md", "docs/build/deep/more.md"} <= listed
    # A build's output in the docs, and a build folder elsewhere, are not.
    assert not any(
        rel.startswith(("doc/build/", "build/", "src/build/", "docs/dist/")) for rel in listed
    )


def test_a_subpackage_named_as_scripts_is_the_projects_code(tmp_path) -> None:
    files = {
        "app/__init__.py": "",
        "app/scripts/__init__.py": "",
        "app/scripts/compile.py": "X = 1\n",
        "app/examples/__init__.py": "",
        "app/examples/demo.py": "X = 1\n",
        # Scripts beside the package: the folder is no subpackage, even
        # with an ``__init__.py`` of its own.
        "scripts/__init__.py": "",
        "scripts/release.py": "X = 1\n",
        "examples/train.py": "X = 1\n",
        "app/docs/conf.py": "X = 1\n",
        # A package's tests are tests, package or not.
        "app/tests/__init__.py": "",
        "app/tests/helpers.py": "X = 1\n",
        "app/testing/__init__.py": "",
        "app/testing/client.py": "X = 1\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    code = set(discover(Config(root=tmp_path)).python)
    assert {"app/scripts/compile.py", "app/examples/demo.py"} <= code
    beside = {"scripts/release.py", "examples/train.py", "app/docs/conf.py"}
    tests = {"app/tests/helpers.py", "app/testing/client.py"}
    assert not (beside | tests) & code
