"""Every write into a tree (``writes.py``) and the read guard it leans on
(``files.inside``), each with its near misses: a folder swapped for a link
between the walk and the write, a sibling folder whose name begins with the
tree's, a full disk, a file-size limit, a set of edits that fails half way."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from configdrift import files, writes


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """``repo/`` with a page, beside ``repo-secret/`` (a name that begins
    with the tree's) and ``outside/``."""
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text("# Page\n", encoding="utf-8")
    (tmp_path / "repo-secret").mkdir()
    (tmp_path / "repo-secret" / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    (tmp_path / "outside").mkdir()
    return root


def test_a_link_into_a_sibling_whose_name_begins_with_the_trees_is_outside(repo: Path) -> None:
    (repo / "leak.md").symlink_to("../repo-secret/secret.txt")
    (repo / "docs" / "near").symlink_to("../../repo-secret")
    assert not files.inside(repo, "leak.md")
    assert not files.inside(repo, "docs/near/secret.txt")
    with pytest.raises(files.Unreadable):
        files.read_file(repo, "leak.md")
    # The same link into the tree itself is inside, and read.
    (repo / "fine.md").symlink_to("docs/page.md")
    assert files.inside(repo, "fine.md")
    assert files.read_file(repo, "fine.md") == b"# Page\n"


def test_a_folder_link_on_the_way_is_never_written_through(repo: Path, tmp_path: Path) -> None:
    (repo / "elsewhere").symlink_to(tmp_path / "outside")
    (tmp_path / "outside" / "page.md").write_text("theirs\n", encoding="utf-8")
    for write in (
        lambda: writes.write_file(repo, "elsewhere/page.md", b"ours\n"),
        lambda: writes.create_file(repo, "elsewhere/new.md", b"ours\n"),
        lambda: writes.write_named(repo / "elsewhere" / "report.txt", b"ours\n", [repo]),
    ):
        with pytest.raises(OSError):
            write()
    assert sorted(p.name for p in (tmp_path / "outside").iterdir()) == ["page.md"]
    assert (tmp_path / "outside" / "page.md").read_text() == "theirs\n"
    # Near miss: the same write in a real folder is made.
    writes.write_file(repo, "docs/page.md", b"ours\n")
    assert (repo / "docs" / "page.md").read_bytes() == b"ours\n"


def test_a_folder_swapped_for_a_link_after_the_walk_still_gets_the_write(
    repo: Path, tmp_path: Path
) -> None:
    # The race a check-then-write-by-path loses: the folder is held by
    # descriptor, so the file lands in the folder that was walked.
    staged = writes.stage(repo, "docs/page.md", b"ours\n")
    os.rename(repo / "docs", repo / "moved")
    (repo / "docs").symlink_to(tmp_path / "outside")
    writes.commit_all([staged])
    assert list((tmp_path / "outside").iterdir()) == []
    assert (repo / "moved" / "page.md").read_bytes() == b"ours\n"


def test_an_edit_keeps_the_files_permissions_and_refuses_a_link(repo: Path) -> None:
    page = repo / "docs" / "page.md"
    page.chmod(0o640)
    writes.write_file(repo, "docs/page.md", b"new\n")
    assert page.stat().st_mode & 0o777 == 0o640
    (repo / "docs" / "alias.md").symlink_to("page.md")
    with pytest.raises(OSError):
        writes.write_file(repo, "docs/alias.md", b"through the link\n")
    assert page.read_bytes() == b"new\n"


def test_a_named_file_replaces_a_link_at_its_place(repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside" / "victim"
    target.write_text("theirs\n", encoding="utf-8")
    (repo / "report.txt").symlink_to(target)
    writes.write_named(repo / "report.txt", b"ours\n", [repo])
    assert not (repo / "report.txt").is_symlink()
    assert (repo / "report.txt").read_bytes() == b"ours\n"
    assert target.read_text() == "theirs\n"


def test_create_never_replaces_what_appeared_after_it_was_staged(repo: Path) -> None:
    staged = writes.stage(repo, "configdrift.toml", b"[removed]\n", "create")
    (repo / "configdrift.toml").write_text("theirs\n", encoding="utf-8")
    with pytest.raises(OSError):
        writes.commit_all([staged])
    assert (repo / "configdrift.toml").read_text() == "theirs\n"
    assert _leftovers(repo) == []


def test_a_set_of_edits_that_fails_half_way_is_undone(repo: Path) -> None:
    page = repo / "docs" / "page.md"
    first = writes.stage(repo, "docs/page.md", b"edited\n")
    second = writes.stage(repo, "configdrift.toml", b"[removed]\n", "create")
    (repo / "configdrift.toml").mkdir()  # the second cannot take its place
    with pytest.raises(OSError):
        writes.commit_all([first, second], {"docs/page.md": b"# Page\n"})
    assert page.read_bytes() == b"# Page\n"
    assert _leftovers(repo) == []


def test_a_full_disk_leaves_the_target_as_it_was(repo: Path, monkeypatch) -> None:
    def full(fd: int, data: bytes) -> None:
        os.write(fd, data[:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writes, "write_all", full)
    with pytest.raises(OSError):
        writes.write_file(repo, "docs/page.md", b"a longer page\n")
    with pytest.raises(OSError):
        writes.create_file(repo, "new.toml", b"[removed]\nkey = 1\n")
    assert (repo / "docs" / "page.md").read_bytes() == b"# Page\n"
    assert not (repo / "new.toml").exists()
    assert _leftovers(repo) == []


def test_a_file_size_limit_fails_the_write_whole(repo: Path) -> None:
    # A real refusal of the system (EFBIG under RLIMIT_FSIZE), in a child.
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "from configdrift import writes\n"
        "try:\n"
        "    writes.create_file(sys.argv[1], 'big.toml', b'x' * 100000)\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(repo)], capture_output=True, text=True, check=False
    )
    assert proc.stdout.startswith("refused"), proc.stderr
    assert not (repo / "big.toml").exists()
    assert _leftovers(repo) == []


def _leftovers(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.tmp"))
