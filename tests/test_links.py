"""Every path configdrift reads or writes goes through files.py: a symbolic
link committed in the tree never leads a read or a write out of it, for the
configuration, the baseline, the reports and init as for the tree's pages."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import make_project, mounted_config

MODEL = {
    **{k: v for k, v in mounted_config().items() if k != "configdrift.toml"},
    "docs/config.md": "# Config\n\n## `alpha`\n\nDefault: `2`\n\n## `omega`\n\nGone.\n",
}
MOUNT = '[tool.configdrift]\ndocs = ["docs/config.md"]\n\n[tool.configdrift.mount]\n"" = "pkg.config:Config"\n'
SECRET = "hunter2-outside-the-tree"


@pytest.fixture
def layout(tmp_path) -> tuple[Path, Path]:
    """A project, and a folder outside it holding a secret file."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    root = make_project(
        tmp_path / "repo", {**MODEL, "pyproject.toml": '[project]\nname = "t"\n' + MOUNT}
    )
    return root, outside


@pytest.mark.parametrize("name", ["pyproject.toml", "configdrift.toml"])
def test_a_configuration_that_links_out_is_neither_read_obeyed_nor_printed(cli, layout, name):
    root, outside = layout
    muting = f'# {SECRET}\n[tool.configdrift]\nignore = ["CD"]\n'
    (outside / name).write_text(muting, encoding="utf-8")
    (root / "pyproject.toml").unlink()
    os.symlink(outside / name, root / name)
    result = cli("check", str(root), "--no-cache")
    assert result.code == 2, result.out + result.err
    assert "symbolic link" in result.err
    assert SECRET not in result.out + result.err


def test_a_configuration_named_on_the_command_line_inside_the_tree_must_stay_in_it(cli, layout):
    root, outside = layout
    (outside / "c.toml").write_text('ignore = ["CD"]\n', encoding="utf-8")
    os.symlink(outside / "c.toml", root / "c.toml")
    result = cli("check", str(root), "--no-cache", "--config", str(root / "c.toml"))
    assert result.code == 2 and "symbolic link" in result.err
    # Outside the tree, the user's own file is read as named.
    result = cli("check", str(root), "--no-cache", "--config", str(outside / "c.toml"))
    assert result.code == 0, result.err


def test_write_baseline_replaces_a_committed_link_and_never_writes_through_it(cli, layout):
    root, outside = layout
    os.symlink(outside / "secret.txt", root / "configdrift-baseline.json")
    result = cli("check", str(root), "--no-cache", "--write-baseline")
    assert result.code == 0, result.err
    assert (outside / "secret.txt").read_text(encoding="utf-8") == SECRET + "\n"
    written = root / "configdrift-baseline.json"
    assert not written.is_symlink()
    assert json.loads(written.read_text(encoding="utf-8"))["findings"]


def test_a_baseline_in_a_folder_that_links_out_is_not_written(cli, layout):
    root, outside = layout
    os.symlink(outside, root / "ci")
    result = cli(
        "check", str(root), "--no-cache", "--write-baseline", "--baseline", str(root / "ci/b.json")
    )
    assert result.code == 2 and "symbolic link" in result.err
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_a_committed_baseline_that_links_out_is_not_read(cli, layout):
    root, outside = layout
    os.symlink(outside / "secret.txt", root / "configdrift-baseline.json")
    result = cli("check", str(root), "--no-cache")
    assert result.code == 2 and "symbolic link" in result.err
    assert SECRET not in result.out + result.err


@pytest.mark.parametrize("option", ["--output-file", "--badge"])
def test_a_named_output_in_a_folder_that_links_out_is_not_written(cli, layout, option):
    root, outside = layout
    os.symlink(outside, root / "reports")
    command = "coverage" if option == "--badge" else "check"
    result = cli(command, str(root), "--no-cache", option, str(root / "reports/out.txt"))
    assert result.code == 2 and "symbolic link" in result.err
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_a_named_output_outside_every_tree_is_the_users_to_place(cli, layout, tmp_path):
    root, _ = layout
    result = cli("check", str(root), "--no-cache", "--output-file", str(tmp_path / "r.txt"))
    assert result.code == 1
    assert "omega" in (tmp_path / "r.txt").read_text(encoding="utf-8")


def test_init_never_copies_a_linked_pyproject_into_the_tree(cli, layout):
    root, outside = layout
    (outside / "pyproject.toml").write_text(
        f'# {SECRET}\n[project]\nname = "x"\n', encoding="utf-8"
    )
    (root / "pyproject.toml").unlink()
    os.symlink(outside / "pyproject.toml", root / "pyproject.toml")
    for extra in ([], ["--force"]):
        result = cli("init", str(root), *extra)
        assert result.code == 2, result.out + result.err
        assert SECRET not in result.out + result.err
    assert not (root / "configdrift.toml").exists()
    assert (outside / "pyproject.toml").read_text(encoding="utf-8").startswith(f"# {SECRET}")


def _git_bytes(root: Path, *args: str, data: bytes | None = None) -> bytes:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t"}
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1")
    proc = subprocess.run(
        ["git", "-C", str(root), *args], input=data, capture_output=True, check=True, env=env
    )
    return proc.stdout


def _git(root: Path, *args: str, data: bytes | None = None) -> str:
    return _git_bytes(root, *args, data=data).decode().strip()


def test_a_commit_whose_tree_names_files_out_of_the_folder_writes_nothing_there(
    cli, layout, tmp_path
):
    """git refuses to check out a tree entry named ``..``, yet lists it: a
    ref read for ``diff`` must not write it out of the scratch folder."""
    root, _ = layout
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "one")
    blob = _git(root, "hash-object", "-w", "--stdin", data=b"# escaped\n")
    # The project's own tree, and entries git would never check out.
    entries = _git_bytes(root, "cat-file", "tree", "HEAD^{tree}")
    for name in (b"../../../../../../../../../../tmp/escaped-by-configdrift.md", b"..", b".git"):
        entries += b"100644 " + name + b"\0" + bytes.fromhex(blob)
    bad_tree = _git(root, "hash-object", "-t", "tree", "-w", "--literally", "--stdin", data=entries)
    commit = _git(root, "commit-tree", bad_tree, "-m", "bad")
    target = Path("/tmp/escaped-by-configdrift.md")
    target.unlink(missing_ok=True)
    result = cli("diff", "--base", commit, str(root))
    assert result.code in (0, 1), result.err
    assert not target.exists()
