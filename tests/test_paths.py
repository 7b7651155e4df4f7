"""Several paths, files as well as directories (as pre-commit passes
them), `map --format json`, and the library API."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import configdrift

REPO = Path(__file__).parent.parent
DEMO = REPO / "demo"


def _demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def _findings(cli, *args: str, cwd: Path) -> list[dict]:
    return json.loads(cli("check", *args, "--format", "json", cwd=cwd).out)["findings"]


def test_a_file_reports_the_findings_that_involve_it(cli, tmp_path) -> None:
    root = _demo(tmp_path)
    everything = _findings(cli, ".", cwd=root)
    doc = _findings(cli, "docs/configuration.md", cwd=root)
    assert doc and len(doc) < len(everything)
    assert all(
        f["path"] == "docs/configuration.md"
        or any(r["path"] == "docs/configuration.md" for r in f["related"])
        for f in doc
    )
    assert sum(f["path"] == "docs/configuration.md" for f in doc) >= 6
    # A code file: findings on it, and findings whose other end it is
    # (the doc entry ZeroConfig rejects).
    code = _findings(cli, "minitrain/zero/config.py", cwd=root)
    assert any(f["code"] == "CD101" and f["path"] == "docs/configuration.md" for f in code)
    assert all(
        f["path"] == "minitrain/zero/config.py"
        or any(r["path"] == "minitrain/zero/config.py" for r in f["related"])
        for f in code
    )
    # A file no finding involves: nothing to report, exit 0.
    result = cli("check", "minitrain/__init__.py", cwd=root)
    assert result.code == 0 and "Found 0 errors" in result.out


def test_files_of_one_project_are_analysed_once(cli, tmp_path) -> None:
    root = _demo(tmp_path)
    both = _findings(cli, "docs/configuration.md", "docs/tutorial.md", cwd=root)
    one = _findings(cli, "docs/configuration.md", cwd=root)
    other = _findings(cli, "docs/tutorial.md", cwd=root)
    prints = [f["fingerprint"] for f in both]
    assert len(prints) == len(set(prints))  # each finding once
    assert set(prints) == {f["fingerprint"] for f in one} | {f["fingerprint"] for f in other}
    assert len(both) < len(one) + len(other)  # a drift that involves both pages
    # From above the project, the file's project is found by walking up
    # to its pyproject.toml; paths print from where the user stands.
    above = _findings(cli, "demo/docs/tutorial.md", cwd=tmp_path)
    assert [f["path"] for f in above] == ["demo/" + f["path"] for f in other]


def test_a_directory_and_its_files_check_the_whole_project(cli, tmp_path) -> None:
    root = _demo(tmp_path)
    assert _findings(cli, ".", "docs/tutorial.md", cwd=root) == _findings(cli, ".", cwd=root)


def test_two_projects_in_one_report(cli, tmp_path) -> None:
    first, second = _demo(tmp_path / "a"), _demo(tmp_path / "b")
    result = cli("check", str(first), str(second), "--format", "json", cwd=tmp_path)
    document = json.loads(result.out)
    paths = [f["path"] for f in document["findings"]]
    assert sum(p.startswith("a/demo/") for p in paths) == sum(
        p.startswith("b/demo/") for p in paths
    )
    single = json.loads(cli("check", str(first), "--format", "json").out)["summary"]
    assert document["summary"]["errors"] == 2 * single["errors"]
    assert document["summary"]["files"] == 2 * single["files"]
    assert result.code == 1


def test_a_baseline_with_two_projects_is_a_usage_error(cli, tmp_path) -> None:
    first, second = _demo(tmp_path / "a"), _demo(tmp_path / "b")
    result = cli("check", str(first), str(second), "--write-baseline", cwd=tmp_path)
    assert result.code == 2 and "a baseline belongs to one project" in result.err


def test_a_missing_path_among_several_is_a_usage_error(cli, tmp_path) -> None:
    root = _demo(tmp_path)
    result = cli("check", ".", "docs/nowhere.md", cwd=root)
    assert result.code == 2 and "docs/nowhere.md: no such file or directory" in result.err
    assert result.out == ""


def test_map_json_is_the_tree_and_the_sections(cli) -> None:
    result = cli("map", str(DEMO), "--format", "json", "--unresolved")
    document = json.loads(result.out)
    assert result.code == 0 and document["version"] == 1
    (project,) = document["projects"]
    (surface,) = project["surfaces"]
    nodes = {n["path"]: n for n in surface["tree"]}
    assert nodes["zero_optimization"]["model"] == "ZeroConfig"
    assert nodes["zero_optimization"]["strict"] == "strict"
    assert nodes["zero_optimization"]["location"].startswith("minitrain/zero/config.py:")
    assert surface["docs"] == ["docs/configuration.md"]
    sections = {s["title"]: s for s in surface["sections"]}
    assert any(s["path"] == "zero_optimization" for s in sections.values())
    assert isinstance(project["unresolved"], list)
    # Every accepted key and every placed entry, with their places.
    keys = {k["path"]: k["location"] for k in surface["keys"]}
    assert keys["zero_optimization.stage"].startswith("minitrain/zero/config.py:")
    entries = {e["path"]: e for e in surface["entries"]}
    assert entries["zero_optimization.stage"]["location"].startswith("docs/configuration.md:")
    # With the default each side states (a computed one is none).
    defaults = {k["path"]: k["default"] for k in surface["keys"]}
    assert defaults["checkpoint.save_interval"] == "1000"
    assert entries["fp16.enabled"]["default"] == "`false`"
    assert entries["checkpoint.keep_last"]["default"] is None
    assert defaults["train_batch_size"] is None
    assert len(keys) == surface["evidence"]["keys"]
    assert len(surface["entries"]) == surface["evidence"]["documented"]
    # The text report is a rendering of the same data.
    text = cli("map", str(DEMO)).out
    assert (
        f"  zero_optimization -> ZeroConfig [strict] {nodes['zero_optimization']['location']}"
        in text
    )


def test_map_of_two_projects_heads_each(cli, tmp_path) -> None:
    _demo(tmp_path / "a"), _demo(tmp_path / "b")
    text = cli("map", "a/demo", "b/demo", cwd=tmp_path).out
    assert text.startswith("== a/demo ==\n") and "\n== b/demo ==\n" in text
    assert "a/demo/minitrain/zero/config.py" in text


def test_the_library_api_returns_a_typed_report(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    report = configdrift.check("demo")
    assert isinstance(report, configdrift.Report)
    assert report.status == 1 and report.counts() == {"errors": 5, "warnings": 10, "infos": 0}
    assert all(isinstance(f, configdrift.Finding) for f in report.findings)
    assert report.findings[0].location.path.startswith("demo/")
    assert len(report.places) == len(report.findings)
    assert report.surfaces[0].name == "config" and report.surfaces[0].accepted > 0
    ignored = configdrift.check(["demo"], ignore=["CD1"], fail_on="never")
    assert not any(f.code.startswith("CD1") for f in ignored.findings)
    assert ignored.status == 0 and ignored.findings


def test_the_library_raises_on_usage_errors(tmp_path) -> None:
    import pytest

    with pytest.raises(configdrift.ConfigError, match="no such file or directory"):
        configdrift.check([tmp_path / "nowhere"])
    with pytest.raises(configdrift.ConfigError, match="no rule code starts with 'CD9'"):
        configdrift.check([DEMO], select=["CD9"])


def test_the_package_ships_its_type_information() -> None:
    assert (Path(configdrift.__file__).parent / "py.typed").is_file()
    assert "py.typed" in (REPO / "pyproject.toml").read_text()
