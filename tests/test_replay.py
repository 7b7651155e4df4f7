"""A warm run replays the stored report when no input changed."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import configdrift.engine

DEMO = Path(__file__).parent.parent / "demo"


def _aged(root: Path, seconds: float = 60.0) -> None:
    """Every file and folder of ``root`` last modified a while ago (the
    store keeps no report of files modified in the last two seconds)."""
    then = time.time() - seconds
    for folder, _, names in os.walk(root):
        for name in [*names, "."]:
            os.utime(os.path.join(folder, name), (then, then))


def _demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    _aged(root)
    return root


def _no_analysis(monkeypatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed, not replayed")

    monkeypatch.setattr(configdrift.engine, "analyse", refuse)


def test_an_unchanged_project_replays_its_report(cli, tmp_path, monkeypatch) -> None:
    root = _demo(tmp_path)
    cold = cli("check", str(root), "--format", "json")
    with monkeypatch.context() as patch:
        _no_analysis(patch)
        warm = cli("check", str(root), "--format", "json")
        text = cli("check", str(root))
        only = cli("check", "docs/tutorial.md", "--format", "json", cwd=root)
    assert (warm.code, warm.out, warm.err) == (cold.code, cold.out, cold.err)
    assert "Found 5 errors, 10 warnings" in text.out
    paths = {f["path"] for f in json.loads(only.out)["findings"]}
    assert "docs/tutorial.md" in paths and len(paths) >= 1


def test_a_changed_input_is_analysed_again(cli, tmp_path, monkeypatch) -> None:
    root = _demo(tmp_path)
    cli("check", str(root))
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text().replace("grad_hooks", "grad_hookz"))
    _aged(root, 30)  # older than the window, yet newer than what was stored
    found = {
        f["key"] for f in json.loads(cli("check", str(root), "--format", "json").out)["findings"]
    }
    assert "zero_optimization.grad_hookz" in found
    # The options are inputs too: the stub refuses to analyse, which the
    # command line reports as an internal error (exit 3).
    with monkeypatch.context() as patch:
        _no_analysis(patch)
        assert cli("check", str(root)).code == 1  # replayed
        assert cli("check", str(root), "--select", "CD1").code == 3  # analysed


def test_what_was_just_modified_is_stored_and_replayed(cli, tmp_path, monkeypatch) -> None:
    """Freshness is told by content: the run after an edit stores its
    report, and the next one replays it."""
    root = _demo(tmp_path)
    _aged(root, 0)  # every file modified now
    cold = cli("check", str(root), "--format", "json")
    with monkeypatch.context() as patch:
        _no_analysis(patch)
        warm = cli("check", str(root), "--format", "json")
    assert (warm.code, warm.out) == (cold.code, cold.out)


def test_a_touched_file_replays_an_edited_one_does_not(cli, tmp_path, monkeypatch) -> None:
    root = _demo(tmp_path)
    cli("check", str(root))
    page = root / "docs" / "configuration.md"
    os.utime(page)  # touched: a new time, the same bytes
    with monkeypatch.context() as patch:
        _no_analysis(patch)
        assert cli("check", str(root)).code == 1  # replayed
    # Negative case: the same size and time, other bytes, within the
    # window where a time cannot tell a change: analysed again.
    before = page.stat()
    text = page.read_text()
    page.write_text(text.replace("grad_hooks", "grad_hookz"))
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    found = {
        f["key"] for f in json.loads(cli("check", str(root), "--format", "json").out)["findings"]
    }
    assert "zero_optimization.grad_hookz" in found


def test_no_cache_neither_reads_nor_writes_reports(cli, tmp_path, monkeypatch) -> None:
    root = _demo(tmp_path)
    cli("check", str(root), "--no-cache")
    with monkeypatch.context() as patch:
        _no_analysis(patch)
        assert cli("check", str(root)).code == 3
