"""Files and folders the tree forbids reading: a folder or file inside is
skipped with a note, an unreadable root is exit 2 with a message, never an
internal error.

Run as root, the commands run without the capabilities that let root read
anything (``setpriv``), so that permissions apply as to anyone else."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import make_project, mounted_config

MODEL = {
    **mounted_config(),
    "docs/config.md": "# Config\n\n## `alpha`\n\nDefault: `2`\n",
    "docs/private/page.md": "# Private\n\n## `alpha`\n\nDefault: `3`\n",
    "docs/closed.md": "# Closed\n\n## `alpha`\n\nDefault: `4`\n",
    "locked/mod.py": "X = 1\n",
}
DROP = [
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
]


def _as_anyone() -> list[str]:
    """The prefix that makes a command obey file permissions."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions cannot apply")
    return [setpriv, *DROP]


def _configdrift(*argv: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "configdrift"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "configdrift"]
    return subprocess.run(
        [*_as_anyone(), *command, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
    )


@pytest.fixture
def locked(tmp_path):
    root = make_project(tmp_path / "repo", MODEL)
    for path in (root / "docs/private", root / "locked", root / "docs/closed.md"):
        path.chmod(0)
    probe = subprocess.run(
        [*_as_anyone(), "cat", str(root / "docs/closed.md")], capture_output=True
    )
    assert probe.returncode != 0, "the permissions apply to the commands run here"
    yield root
    for path in (root / "docs/private", root / "locked", root / "docs/closed.md"):
        path.chmod(0o755)


@pytest.mark.parametrize("git", [False, True])
def test_an_unreadable_folder_or_file_inside_is_skipped_with_a_note(locked, tmp_path, git):
    if git:
        subprocess.run(["git", "init", "-q", str(locked)], check=True)
    for argv in (["check", "."], ["map", "."], ["coverage", "."], ["fix", "."]):
        result = _configdrift(*argv, "--no-cache", cwd=locked, cache=tmp_path / "c")
        assert result.returncode in (0, 1), (argv, result.stderr)
        assert "internal error" not in result.stderr
        assert "could not be read and were skipped: docs/private/, locked/" in result.stderr
    result = _configdrift("check", ".", "--no-cache", cwd=locked, cache=tmp_path / "c")
    assert "docs/closed.md:1:1: CD503" in result.stdout
    assert "cannot read: Permission denied" in result.stdout
    assert "docs/config.md:3:5: CD104" in result.stdout  # the rest is judged


@pytest.mark.parametrize("mode", [0, 0o111])
def test_an_unreadable_root_is_exit_2_with_a_message(locked, tmp_path, mode):
    locked.chmod(mode)
    try:
        for argv in (["check", str(locked)], ["map", str(locked)], ["init", str(locked)]):
            result = _configdrift(*argv, cwd=tmp_path, cache=tmp_path / "c")
            assert result.returncode == 2, (argv, result.stdout, result.stderr)
            assert "cannot be read: Permission denied" in result.stderr
    finally:
        locked.chmod(0o755)


def test_a_file_named_inside_a_locked_folder_is_exit_2(locked, tmp_path):
    result = _configdrift(
        "check", str(locked / "docs/private/page.md"), cwd=tmp_path, cache=tmp_path / "c"
    )
    assert result.returncode == 2, result.stderr
    assert "cannot be read: Permission denied" in result.stderr


def test_provenance_past_a_locked_folder(locked, tmp_path):
    (locked / "docs/private").chmod(0o755)
    (locked / "locked").chmod(0o755)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t"}
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=locked, check=True)
    subprocess.run(["git", "add", "-A"], cwd=locked, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "x"], cwd=locked, check=True, env=env)
    (locked / "docs/private").chmod(0)
    result = _configdrift("check", ".", "--provenance", cwd=locked, cache=tmp_path / "c")
    assert result.returncode in (0, 1), result.stderr
    assert "history:" in result.stdout
