"""--provenance: each finding's git history."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import make_project

MODEL = """\
from pydantic import BaseModel, ConfigDict
class M(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: int = 1
{extra}
def get(d):
    return M(**d.get("m", {{}}))
"""
PAGE = "# C\n\n<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n<i>**m:ghost**</i>: [integer]\n\n<i>**m:gone**</i>: [integer]\n"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit(root: Path, message: str) -> str:
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "HEAD")


def _repo(tmp_path: Path) -> tuple[Path, str, str]:
    root = make_project(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/m.py": MODEL.format(extra="    gone: int = 0"),
            "docs/config.md": PAGE,
            "configdrift.toml": 'docs = ["docs/config.md"]\n',
        },
    )
    _git(root, "init", "-q", "-b", "main")
    first = _commit(root, "Add the config page")
    (root / "pkg/m.py").write_text(MODEL.format(extra=""), encoding="utf-8")
    second = _commit(root, "Drop gone")
    return root, first, second


def _provenance(cli, root: Path) -> tuple[dict[str, dict], str]:
    result = cli("check", str(root), "--provenance", "--format", "json", "--select", "CD101")
    findings = json.loads(result.out)["findings"]
    return {f["key"]: f["provenance"] for f in findings}, result.err


def test_a_key_never_declared_and_a_key_removed(cli, tmp_path) -> None:
    root, first, second = _repo(tmp_path)
    told, err = _provenance(cli, root)
    assert err == ""  # no progress display in machine formats
    ghost = told["m.ghost"]
    assert ghost["doc"] == {
        "commit": first,
        "date": ghost["doc"]["date"],
        "subject": "Add the config page",
    }
    assert ghost["schema"] == {"status": "never-declared", "versions": 2, "file": "pkg/m.py"}
    assert ghost["strict_since"]["commit"] == first
    gone = told["m.gone"]["schema"]
    assert gone["status"] == "removed" and gone["commit"] == second
    assert gone["subject"] == "Drop gone" and gone["added"]["commit"] == first


def test_the_text_report_tells_the_story(cli, tmp_path) -> None:
    root, first, _ = _repo(tmp_path)
    out = cli("check", str(root), "--provenance", "--select", "CD101").out
    assert f"history: line last changed in {first[:9]}" in out
    assert "history: `ghost` was never in any version of pkg/m.py (2 commits)" in out
    assert "history: `gone` was taken out of pkg/m.py in" in out


def test_an_uncommitted_line_and_a_cache_that_follows_edits(cli, tmp_path) -> None:
    root, _, _ = _repo(tmp_path)
    _provenance(cli, root)  # fills the history cache
    page = (root / "docs/config.md").read_text(encoding="utf-8")
    (root / "docs/config.md").write_text(
        page + "\n<i>**m:fresh**</i>: [integer]\n", encoding="utf-8"
    )
    told, _ = _provenance(cli, root)
    assert told["m.fresh"]["doc"] == {"commit": None, "subject": "not committed yet"}
    assert told["m.ghost"]["doc"]["subject"] == "Add the config page"


def test_outside_git_is_a_usage_error(cli, tmp_path) -> None:
    root = make_project(tmp_path, {"pkg/__init__.py": ""})
    result = cli("check", str(root), "--provenance")
    assert result.code == 2 and "not in a git repository" in result.err
