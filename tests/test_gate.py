"""The pull-request gate compares like with like: the base ref is written
with every kind of file the run reads, so ``--diff-base HEAD`` on an
unchanged tree reports nothing, on every fixture and in each markup."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from configdrift.discover import DOC_SUFFIXES
from conftest import FIXTURES, run_cli
from helpers import APP_CONFIG

CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "pyproject.toml").exists())

#: One page per markup, each documenting a key the model lacks.
_PAGES = {
    ".rst": "Configuration\n=============\n\n"
    + "".join(f"{k}\n   The {k}.\n\n" for k in ("host", "port", "workers", "timeout")),
    ".md": "# Configuration\n\n"
    + "".join(f"- `{k}`: the {k}.\n" for k in ("host", "port", "workers", "timeout")),
    ".mdx": "# Configuration\n\n"
    + "".join(f"- `{k}`: the {k}.\n" for k in ("host", "port", "workers", "timeout")),
    ".markdown": "# Configuration\n\n"
    + "".join(f"- `{k}`: the {k}.\n" for k in ("host", "port", "workers", "timeout")),
    # Quarto's: Markdown under a front matter, with code cells.
    ".qmd": '---\ntitle: "Configuration"\n---\n\n```{python}\nprint(1)\n```\n\n'
    + "".join(f"- `{k}`: the {k}.\n" for k in ("host", "port", "workers", "timeout")),
}


def _committed(tree: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tree), *args], capture_output=True, check=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "base")


def _codes(tree: Path, *args: str) -> list[str]:
    result = run_cli("check", str(tree), "--format", "json", "--no-cache", "--jobs", "1", *args)
    return [f["code"] for f in json.loads(result.out)["findings"]]


@pytest.mark.parametrize("case", CASES)
def test_an_unchanged_fixture_adds_nothing_to_its_base(case: str, tmp_path) -> None:
    tree = tmp_path / case
    shutil.copytree(FIXTURES / case, tree)
    _committed(tree)
    assert _codes(tree, "--diff-base", "HEAD") == []


def test_every_markup_is_covered() -> None:
    assert set(_PAGES) == set(DOC_SUFFIXES)


@pytest.mark.parametrize("suffix", sorted(_PAGES))
def test_an_unchanged_page_of_each_markup_adds_nothing(suffix: str, tmp_path) -> None:
    tree = tmp_path / "app"
    for rel, text in {
        "pyproject.toml": '[project]\nname = "app"\n',
        "app/__init__.py": "",
        "app/config.py": APP_CONFIG,
        f"docs/configuration{suffix}": _PAGES[suffix],
    }.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text, encoding="utf-8")
    _committed(tree)
    # The page's drift is there, and it was there at the base.
    assert "CD101" in _codes(tree)
    assert _codes(tree, "--diff-base", "HEAD") == []
