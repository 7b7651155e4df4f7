"""A ref's files are written to scratch disk within a budget: a blob over
its reader's cap is never written, and a tree that names one large blob
many times (a few kilobytes of objects) is refused before anything is."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from configdrift.git import GitError, new_run
from configdrift.history import refs

DEMO = Path(__file__).parents[1] / "demo"


def _git(cwd: Path, *args: str, data: bytes | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t")
    env.update(GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, input=data, capture_output=True, check=True
    ).stdout.decode()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(DEMO, root)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    new_run()
    return root


def _commit_with(root: Path, entries: list[tuple[str, str]]) -> str:
    """A commit whose tree is HEAD's plus ``entries`` (name, blob sha)."""
    listing = _git(root, "ls-tree", "HEAD")
    lines = listing + "".join(f"100644 blob {sha}\t{name}\n" for name, sha in entries)
    tree = _git(root, "mktree", data=lines.encode()).strip()
    return _git(root, "commit-tree", tree, "-p", "HEAD", "-m", "big").strip()


def test_one_large_blob_named_many_times_is_refused_before_anything_is_written(repo, tmp_path):
    blob = tmp_path / "blob.py"
    blob.write_bytes(b"#" * (8 * 1024 * 1024 - 16) + b"\nX = 1\n")
    sha = _git(repo, "hash-object", "-w", str(blob)).strip()
    commit = _commit_with(repo, [(f"copy{i}.py", sha) for i in range(200)])
    into = tmp_path / "scratch"
    into.mkdir()
    with pytest.raises(GitError, match="pass 256 MiB or 50,000 files"):
        refs.materialise(repo, commit, into)
    assert list(into.iterdir()) == []


def test_a_blob_over_its_readers_cap_is_not_written(repo, tmp_path):
    page = tmp_path / "page.md"
    page.write_bytes(b"# Page\n" + b"x" * (3 * 1024 * 1024))
    code = tmp_path / "code.py"
    code.write_bytes(b"X = 1\n" * (512 * 1024))  # 3 MiB of Python: within its cap
    commit = _commit_with(
        repo,
        [
            ("huge.md", _git(repo, "hash-object", "-w", str(page)).strip()),
            ("big.py", _git(repo, "hash-object", "-w", str(code)).strip()),
        ],
    )
    into = tmp_path / "scratch"
    into.mkdir()
    refs.materialise(repo, commit, into)
    assert not (into / "huge.md").exists()
    assert (into / "big.py").stat().st_size == 3 * 1024 * 1024
    assert (into / "docs" / "configuration.md").exists()


def test_the_refusal_is_a_usage_error_naming_the_budget(cli, repo, tmp_path):
    blob = tmp_path / "blob.md"
    blob.write_bytes(b"# x\n" + b"y" * (2 * 1024 * 1024 - 64))
    sha = _git(repo, "hash-object", "-w", str(blob)).strip()
    commit = _commit_with(repo, [(f"page{i}.md", sha) for i in range(200)])
    result = cli("check", str(repo), "--diff-base", commit, "--no-cache", cwd=repo)
    assert result.code == 2
    assert "pass 256 MiB or 50,000 files: not read" in result.err
