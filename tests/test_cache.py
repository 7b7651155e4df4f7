"""The fact cache: same results warm or cold, never trusted blindly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from configdrift.extract.cache import FactCache, cache_dir

DEMO = Path(__file__).parent.parent / "demo"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def test_warm_run_matches_cold_run(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cold = cli("check", str(root), "--format", "json")
    store = FactCache(root)
    assert store.entries, "the first run fills the cache"
    warm = cli("check", str(root), "--format", "json")
    assert warm.out == cold.out
    assert cli("check", str(root), "--format", "json", "--no-cache").out == cold.out


def test_an_edited_file_is_extracted_again(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cli("check", str(root))
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text().replace("<i>**grad_hooks**</i>", "<i>**grad_hookz**</i>"))
    keys = {
        f["key"] for f in json.loads(cli("check", str(root), "--format", "json").out)["findings"]
    }
    assert "zero_optimization.grad_hookz" in keys
    assert "zero_optimization.grad_hooks" not in keys


def test_a_corrupt_cache_is_ignored(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    path = FactCache(root).path
    for garbage in ("not json", '{"version": "x", "files": {}}', "[1, 2]"):
        path.write_text(garbage)
        assert cli("check", str(root), "--format", "json").out == expected


def test_tampered_entries_are_extracted_again(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    path = FactCache(root).path
    data = json.loads(path.read_text())
    for key in data["files"]:
        data["files"][key][1] = {"unexpected": True}
    path.write_text(json.dumps(data))
    assert cli("check", str(root), "--format", "json").out == expected


def test_the_cache_lives_outside_the_repository(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    cli("check", str(root))
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert FactCache(root).path.parent == cache_dir()
    assert not FactCache(root).path.is_relative_to(root)


def test_no_cache_writes_nothing(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cli("check", str(root), "--no-cache")
    assert not FactCache(root).path.exists()


def test_facts_are_written_as_asdict_would_write_them() -> None:
    import dataclasses
    import json
    from pathlib import Path

    from configdrift.extract.cache import plain
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.python.extractor import extract_python

    demo = Path(__file__).parent.parent / "demo"
    checked = 0
    for path in sorted(demo.rglob("*")):
        if path.suffix == ".py":
            facts: object = extract_python(path.read_bytes())
        elif path.suffix == ".md":
            facts = extract_markdown(path.read_bytes())
        else:
            continue
        assert json.dumps(plain(facts)) == json.dumps(dataclasses.asdict(facts))  # type: ignore[call-overload]
        checked += 1
    assert checked >= 10
