"""Baselines and --diff-base: only the drift a change introduced fails."""

from __future__ import annotations

import json
import subprocess

from helpers import make_project, strict_model

ENTRIES = ["a", "b", "c", "d"]


def _page(*extra: str) -> str:
    keys = [*ENTRIES, *extra]
    body = "".join(f"<i>**m:{k}**</i>: [integer]\n\n" for k in keys)
    return "# Config\n\n## M\n\n<i>**m**</i>: [dictionary]\n\n" + body


def _project(root, *extra: str):
    files = strict_model("a: int = 1", "b: int = 2", "c: int = 3")
    return make_project(root, {**files, "docs/config.md": _page(*extra)})


def _check(cli, root, *args: str) -> tuple[int, list[tuple[str, str]], str, str]:
    result = cli("check", str(root), "--format", "json", *args)
    findings = json.loads(result.out)["findings"] if result.out else []
    return result.code, [(f["code"], f["key"]) for f in findings], result.err, result.out


def test_a_baseline_hides_known_findings_and_reports_new_ones(cli, tmp_path) -> None:
    root = _project(tmp_path, "typo")
    code, found, _, _ = _check(cli, root)
    assert code == 1 and ("CD101", "m.d") in found
    assert cli("check", str(root), "--write-baseline").code == 0
    assert (root / "configdrift-baseline.json").exists()
    assert _check(cli, root)[:2] == (0, [])
    (root / "docs/config.md").write_text(_page("typo", "fresh"), encoding="utf-8")
    assert _check(cli, root)[:2] == (1, [("CD101", "m.fresh")])
    # Reverted: nothing new, nothing stale.
    (root / "docs/config.md").write_text(_page("typo"), encoding="utf-8")
    text = cli("check", str(root))
    assert text.code == 0 and "stale" not in text.out


def test_stale_entries_are_reported_and_dropped_on_request(cli, tmp_path) -> None:
    root = _project(tmp_path, "typo")
    cli("check", str(root), "--write-baseline")
    (root / "docs/config.md").write_text(_page(), encoding="utf-8")  # `typo` fixed
    text = cli("check", str(root))
    assert "1 stale entr(y/ies)" in text.out and "CD101 m.typo" in text.out
    # Machine formats keep stdout clean: the note goes to stderr.
    _, _, err, out = _check(cli, root)
    assert "stale" in err and json.loads(out)["findings"] == []
    assert cli("check", str(root), "--update-baseline").code == 0
    assert "stale" not in cli("check", str(root)).out
    kept = json.loads((root / "configdrift-baseline.json").read_text(encoding="utf-8"))
    assert [e["key"] for e in kept["findings"]] == ["m.d"]


def test_one_fingerprint_for_two_findings_is_counted(cli, tmp_path) -> None:
    root = _project(tmp_path)
    page = _page() + '```json\n{"m": {"x": 1}}\n```\n\n'
    (root / "docs/config.md").write_text(page, encoding="utf-8")
    cli("check", str(root), "--write-baseline")
    # A second block with the same rejected key: same fingerprint, one more finding.
    (root / "docs/config.md").write_text(page + '```json\n{"m": {"x": 2}}\n```\n', encoding="utf-8")
    code, found, _, out = _check(cli, root)
    assert (code, found) == (1, [("CD301", "m.x")])
    assert json.loads(out)["findings"][0]["line"] > page.count("\n")


def test_a_source_that_shrinks_is_cd501(cli, tmp_path) -> None:
    root = _project(tmp_path)
    cli("check", str(root), "--write-baseline")
    (root / "docs/config.md").write_text(
        "# Config\n\n## M\n\n<i>**m**</i>: [dictionary]\n", encoding="utf-8"
    )
    code, found, _, out = _check(cli, root)
    assert code == 1 and ("CD501", "") in found
    messages = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "CD501"]
    assert any("docs/config.md#M` yields 0 keys, down from 5" in m for m in messages)


def test_bad_baselines_are_usage_errors(cli, tmp_path) -> None:
    root = _project(tmp_path)
    assert cli("check", str(root), "--baseline", str(tmp_path / "none.json")).code == 2
    (root / "configdrift-baseline.json").write_text("{not json", encoding="utf-8")
    result = cli("check", str(root))
    assert result.code == 2 and "not JSON" in result.err
    (root / "configdrift-baseline.json").write_text('{"version": 9}', encoding="utf-8")
    assert "not a configdrift baseline" in cli("check", str(root)).err


def _git(root, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True)


def test_diff_base_reports_only_what_the_change_introduced(cli, tmp_path) -> None:
    root = _project(tmp_path, "typo")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "base")
    (root / "docs/config.md").write_text(_page("typo", "fresh"), encoding="utf-8")
    assert _check(cli, root, "--diff-base", "HEAD")[:2] == (1, [("CD101", "m.fresh")])
    code, _, err, _ = _check(cli, root, "--diff-base", "no-such-ref")
    assert code == 2 and "unknown revision" in err
