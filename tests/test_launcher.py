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


def _launch(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LAUNCHER), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


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
    assert "os.execv(sys.executable, [sys.executable, *flags, script" in text
    assert "from configdrift" not in text.split("\n_start()\n", 1)[0]


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
    proc = _launch([*argv], root, _environment(root, tmp_path))
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in markers.iterdir()) == []
    if argv[0] == "check":
        assert "CD101" in proc.stdout


def test_without_such_variables_the_tree_it_runs_in_is_not_imported(
    tree: tuple[Path, Path], tmp_path: Path
) -> None:
    # No variable that reaches the path: the command runs without starting
    # again, from inside the tree, and still imports nothing of it.
    root, markers = tree
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    proc = _launch(["check", "."], root, env)
    assert proc.returncode == 1, proc.stderr
    assert sorted(p.name for p in markers.iterdir()) == []


def test_a_bytecode_cache_planted_in_the_tree_is_not_loaded(tmp_path: Path) -> None:
    # PYTHONPYCACHEPREFIX into the tree: a planted compiled ``json`` whose
    # header matches the standard library's source would be loaded by an
    # interpreter that honours the variable; the launcher's does not.
    import importlib.util
    import json
    import marshal

    prefix = tmp_path / "tree" / ".pycache"
    marker = tmp_path / "loaded"
    source = Path(json.__file__)
    info = source.stat()
    code = compile(f"open({str(marker)!r}, 'w').close()\n", str(source), "exec")
    find = "import importlib.util, sys; print(importlib.util.cache_from_source(sys.argv[1]))"
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(prefix)}
    cached = subprocess.run(
        [sys.executable, "-c", find, str(source)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(cached).parent.mkdir(parents=True, exist_ok=True)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
    header += (int(info.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    header += (info.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    Path(cached).write_bytes(header + marshal.dumps(code))
    # The trap is armed: an ordinary start with the variable loads it.
    subprocess.run([sys.executable, "-c", "import json"], env=env, check=False)
    assert marker.exists()
    marker.unlink()
    proc = _launch(["check", str(ROOT / "demo"), "--format", "json", "--no-cache"], tmp_path, env)
    assert proc.returncode == 1, proc.stderr
    assert not marker.exists()
