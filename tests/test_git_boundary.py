"""git reads the tree's own repository or none: a ``.git`` file or link,
``commondir``, ``alternates``, ``core.worktree`` or an include that leads
out of the work tree means no git, with a note, never another repository's
history in the output; a FIFO where git opens a file means no git rather
than a stall; a tree of a thousand folders without git is walked; and all
git calls of a run share a time budget."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from configdrift import git

DEMO = Path(__file__).parents[1] / "demo"
SECRET = "SECRET-OF-ANOTHER-REPOSITORY"


def _git(cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME=SECRET,
        GIT_AUTHOR_EMAIL="a@b",
        GIT_COMMITTER_NAME=SECRET,
        GIT_COMMITTER_EMAIL="a@b",
    )
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout


def _command(tree: Path, cache: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The installed command run in ``tree`` (a stalled git would run into
    its timeout: a minute and more)."""
    return subprocess.run(
        ["configdrift", *argv],
        cwd=tree,
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )


def _committed(tree: Path, message: str = "first") -> None:
    _git(tree, "init", "-q", "-b", "main")
    _git(tree, "add", "-A")
    _git(tree, "commit", "-q", "-m", message)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """Another repository, holding the demo's files in two commits whose
    messages and authors are a secret."""
    other = tmp_path / "other"
    shutil.copytree(DEMO, other)
    _committed(other, f"{SECRET} first")
    page = other / "docs" / "configuration.md"
    page.write_text(page.read_text() + f"\n<!-- {SECRET} -->\n")
    _git(other, "commit", "-q", "-am", f"{SECRET} second")
    return other


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(DEMO, root)
    return root


def _outputs(cli, root: Path) -> str:
    text = ""
    for argv in (
        ["check", str(root), "--provenance", "--format", "json", "--no-cache"],
        ["check", str(root), "--diff-base", "HEAD~1", "--no-cache"],
        ["diff", "--base", "HEAD~1"],
    ):
        result = cli(*argv, cwd=root)
        assert result.code in (0, 1, 2), result.err
        assert "internal error" not in result.err
        text += result.out + result.err
    return text


def _leads_elsewhere(shape: str, root: Path, other: Path) -> None:
    if shape == "gitdir-file":
        (root / ".git").write_text(f"gitdir: {other / '.git'}\n")
    elif shape == "link":
        (root / ".git").symlink_to(other / ".git")
    else:
        _committed(root, "ours")
        dotgit = root / ".git"
        if shape == "commondir":
            (dotgit / "commondir").write_text(str(other / ".git") + "\n")
        elif shape == "alternates":
            (dotgit / "objects" / "info" / "alternates").write_text(
                str(other / ".git" / "objects") + "\n"
            )
        elif shape == "worktree":
            _git(root, "config", "core.worktree", str(other))
        elif shape == "include":
            (other / "included").write_text("[core]\n\tworktree = ../other\n")
            _git(root, "config", "include.path", str(other / "included"))


@pytest.mark.parametrize(
    "shape", ["gitdir-file", "link", "commondir", "alternates", "worktree", "include"]
)
def test_a_git_that_leads_out_of_the_tree_is_not_used(cli, tree, elsewhere, shape):
    _leads_elsewhere(shape, tree, elsewhere)
    text = _outputs(cli, tree)
    assert SECRET not in text
    assert "git is not used" in text


def test_the_trees_own_repository_is_used(cli, tree):
    # The near miss: a repository of the tree's own, with its history read.
    _committed(tree, f"{SECRET} first")
    page = tree / "docs" / "configuration.md"
    page.write_text(page.read_text() + "\nMore.\n")
    _git(tree, "commit", "-q", "-am", "second")
    text = _outputs(cli, tree)
    assert "git is not used" not in text
    assert SECRET in text  # the history git read, here the tree's own


def test_a_git_variable_of_the_environment_is_not_followed(cli, tree, elsewhere, monkeypatch):
    monkeypatch.setenv("GIT_DIR", str(elsewhere / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(elsewhere))
    assert SECRET not in _outputs(cli, tree)


@pytest.mark.parametrize("where", ["info/exclude", "HEAD", "config", "refs/heads/stalled"])
def test_a_fifo_where_git_opens_a_file_means_no_git_not_a_stall(tmp_path, tree, where):
    _committed(tree)
    fifo = tree / ".git" / where
    fifo.parent.mkdir(parents=True, exist_ok=True)
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    for argv in (["check", "."], ["check", ".", "--provenance"]):
        proc = _command(tree, tmp_path / "cache", *argv)
        # check goes on without git; --provenance needs it, and says why not.
        assert proc.returncode == (1 if "--provenance" not in argv else 2), proc.stderr
        assert f"{where} is not a regular file" in proc.stderr


def test_a_deep_tree_without_git_is_walked(cli, tmp_path):
    root = tmp_path / "deep"
    shutil.copytree(DEMO, root)
    # Made one level at a time (pathlib's mkdir with parents recurses).
    fd = os.open(root, os.O_RDONLY)
    for _ in range(1100):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    leaf = os.open("leaf.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(leaf, b"# Leaf\n")
    os.close(leaf)
    os.close(fd)
    try:
        result = cli("check", str(root), "--no-cache")
        assert result.code == 1, result.err
    finally:
        _flatten(root)


def _flatten(root: Path) -> None:
    """Remove the chain of ``d`` folders without a deep path or recursion
    (pytest's clean-up would recurse): the grandchild moves up, the emptied
    child goes."""
    while (root / "d" / "d").exists():
        os.rename(root / "d" / "d", root / "t")
        for name in os.listdir(root / "d"):
            os.unlink(root / "d" / name)
        os.rmdir(root / "d")
        os.rename(root / "t", root / "d")
    shutil.rmtree(root / "d")


def test_all_git_calls_of_a_run_share_a_budget(cli, tree, monkeypatch):
    _committed(tree)
    monkeypatch.setattr(git, "BUDGET", 0.0)
    result = cli("check", str(tree), "--diff-base", "HEAD", "--no-cache", cwd=tree)
    assert result.code == 2, result.err
    assert "git took the 0 s this run allows it" in result.err
    assert result.err.count("git took the") == 1


def test_a_fifo_for_an_ignore_file_in_the_tree_means_walking_not_a_stall(tmp_path, tree):
    _committed(tree)
    os.mkfifo(tree / "docs" / ".gitignore")
    proc = _command(tree, tmp_path / "cache", "check", ".")
    assert proc.returncode == 1, proc.stderr
    assert "docs/.gitignore is not a regular file: git is not used" in proc.stderr
    # Nor by the commands that would read it later (git status).
    proc = _command(tree, tmp_path / "cache", "check", ".", "--provenance")
    assert proc.returncode == 2 and ".gitignore is not a regular file" in proc.stderr
