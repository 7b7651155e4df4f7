"""The installed ``configdrift`` command starts isolated: a tree on
``PYTHONPATH`` (a common workflow setting) has none of its modules
imported, beyond what the interpreter's own startup imports before any
program runs (docs/security.md says which)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = Path(sys.executable).parent / "configdrift"

#: Modules the command, the standard library and configdrift's
#: dependencies import by name, each planted in the tree.
SHADOWED = (
    "re",
    "json",
    "argparse",
    "typing",
    "__future__",
    "enum",
    "functools",
    "dataclasses",
    "yaml",
    "markdown_it",
    "configdrift",
)

pytestmark = pytest.mark.skipif(
    not LAUNCHER.exists(), reason="configdrift is not installed beside this Python"
)


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """The demo, with a module that leaves a marker for each name above."""
    root = tmp_path / "tree"
    shutil.copytree(ROOT / "demo", root)
    markers = tmp_path / "markers"
    markers.mkdir()
    for name in SHADOWED:
        trap = f"open({str(markers / name)!r}, 'w').close()\n"
        path = (
            root / name / "__init__.py" if name in ("configdrift", "yaml") else root / f"{name}.py"
        )
        path.parent.mkdir(exist_ok=True)
        path.write_text(trap, encoding="utf-8")
    return root, markers


def _environment(tree: Path, tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(tree),
        "PYTHONSTARTUP": str(tree / "re.py"),
        "XDG_CACHE_HOME": str(tmp / "cache"),
    }


def test_the_command_is_the_launcher() -> None:
    # Not a generated entry-point script, whose first lines import by name
    # (``import re`` in older pip's, ``from configdrift.cli import run``).
    text = LAUNCHER.read_text(encoding="utf-8")
    assert "os.execv(sys.executable, argv)" in text
    assert "from configdrift" not in text.split("if sys.flags.ignore_environment", 1)[0]


def test_the_traps_fire_in_an_ordinary_start(tree: tuple[Path, Path], tmp_path: Path) -> None:
    # What an entry-point script does first, run the ordinary way.
    root, markers = tree
    subprocess.run(
        [sys.executable, "-c", "import re, sys\nfrom configdrift.cli import run"],
        cwd=tmp_path,
        env=_environment(root, tmp_path),
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert {"re", "configdrift"} <= {p.name for p in markers.iterdir()}


@pytest.mark.parametrize("argv", [["--version"], ["check", "."], ["map", ".", "--format", "json"]])
def test_the_command_imports_nothing_of_a_tree_on_the_path(
    tree: tuple[Path, Path], tmp_path: Path, argv: list[str]
) -> None:
    root, markers = tree
    proc = subprocess.run(
        [str(LAUNCHER), *argv],
        cwd=root,
        env=_environment(root, tmp_path),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in markers.iterdir()) == []
    if argv[0] == "check":
        assert "CD101" in proc.stdout
