"""configdrift diff: the config surface at two git refs, read from git objects."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from helpers import APP_SECTION, make_project

CODE = """\
from pydantic import BaseModel, ConfigDict, Field
{registry}
class Sec(BaseModel):
    model_config = ConfigDict(extra="{extra}")
    size: int = {size}
    {field}

def load(param_dict):
    sec = Sec(**param_dict.get("sec", {{}}))
    return sec, {reads}
"""


def _code(**over: str) -> str:
    values = {
        "registry": "",
        "extra": "ignore",
        "size": "1",
        "field": "old_name: int = 0",
        "reads": 'param_dict.get("a", 1), param_dict.get("b", 2)',
        **over,
    }
    return CODE.format(**values)


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout


def _commit(root: Path, code: str, message: str) -> None:
    (root / "pkg" / "m.py").write_text(textwrap.dedent(code), encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "repo", {"pkg/__init__.py": "", "pkg/m.py": _code()})
    _git(root, "init", "-q", "-b", "main")
    _commit(root, _code(), "base")
    return root


def _diff(cli, root: Path, *refs: str) -> tuple[int, dict]:
    given = [f"--{name}={ref}" for name, ref in zip(("base", "head"), refs, strict=False)]
    result = cli("diff", str(root), *given, "--format", "json")
    return result.code, json.loads(result.out) if result.out else {"err": result.err}


def test_a_key_dropped_without_a_removal_path_is_cd403(cli, repo) -> None:
    _commit(repo, _code(reads='param_dict.get("a", 1)'), "drop b")
    code, report = _diff(cli, repo, "HEAD~1", "HEAD")
    assert code == 1
    assert [(f["code"], f["key"], f["path"], f["line"]) for f in report["findings"]] == [
        ("CD403", "b", "pkg/m.py", 10)
    ]
    assert "now silently ignored" in report["findings"][0]["message"]
    assert report["base"] == "HEAD~1" and report["head"] == "HEAD"


def test_a_registry_entry_or_a_configured_removal_is_a_removal_path(cli, repo) -> None:
    registry = 'REMOVED_TOP_LEVEL_KEYS = {"b"}'
    _commit(repo, _code(registry=registry, reads='param_dict.get("a", 1)'), "remove b")
    assert _diff(cli, repo, "HEAD~1", "HEAD")[1]["findings"] == []
    (repo / "configdrift.toml").write_text('[removed]\n"a" = "gone"\n', encoding="utf-8")
    _commit(repo, _code(registry=registry, reads="0"), "remove a")
    assert _diff(cli, repo, "HEAD~1", "HEAD")[1]["findings"] == []


def test_the_work_tree_is_the_default_head_and_nothing_is_checked_out(cli, repo) -> None:
    (repo / "pkg" / "m.py").write_text(_code(reads='param_dict.get("a", 1)'), encoding="utf-8")
    code, report = _diff(cli, repo, "HEAD")
    assert code == 1 and [f["key"] for f in report["findings"]] == ["b"]
    assert report["head"] == "the work tree"
    # The uncommitted change is still there, untouched.
    assert 'get("b"' not in (repo / "pkg" / "m.py").read_text(encoding="utf-8")
    assert _git(repo, "status", "--porcelain").strip() == "M pkg/m.py"


def test_the_default_base_is_the_merge_base_with_the_default_branch(cli, repo) -> None:
    _git(repo, "switch", "-q", "-c", "topic")
    _commit(repo, _code(reads='param_dict.get("a", 1)'), "drop b on a branch")
    code, report = _diff(cli, repo)
    assert code == 1 and [f["key"] for f in report["findings"]] == ["b"]
    assert report["base"].startswith("merge-base ")


def test_renames_defaults_and_strictness_are_changes_not_errors(cli, repo) -> None:
    field = 'new_name: int = Field(0, validation_alias=AliasChoices("new_name", "old_name"))'
    code_text = _code(extra="forbid", size="2", field=field).replace(
        "ConfigDict, Field", "AliasChoices, ConfigDict, Field"
    )
    _commit(repo, code_text, "rename, new default, strict")
    code, report = _diff(cli, repo, "HEAD~1", "HEAD")
    assert code == 0 and report["findings"] == []
    kinds = {(c["kind"], c["key"]) for c in report["changes"]}
    assert kinds == {
        ("renamed", "sec.old_name"),
        ("default changed", "sec.size"),
        ("turned strict", "sec"),
    }


def test_bad_refs_and_places_are_usage_errors(cli, repo, tmp_path) -> None:
    code, report = _diff(cli, repo, "no-such-ref")
    assert code == 2 and "unknown revision 'no-such-ref'" in report["err"]
    plain = make_project(tmp_path / "plain", {"pkg/__init__.py": ""})
    code, report = _diff(cli, plain, "HEAD")
    assert code == 2 and "is not in a git repository" in report["err"]
    _commit(repo, _code(size="3"), "second")
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True
    )
    code, report = _diff(cli, shallow, "HEAD~1")
    assert code == 2 and "shallow" in report["err"]


_DICT_SECTION = """\
import json

def load(path):
    param_dict = json.load(open(path))
    zero = param_dict.get("zero", {})
    tier, ratio = zero.get("tier", 1), zero.get("ratio", 0.5)
    return zero.get("stage", 0), zero.get("bucket", 500), zero.get("legacy", False), tier, ratio
"""

_MODEL_SECTION = """\
from pydantic import BaseModel, ConfigDict

class Zero(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stage: int = 0
    bucket: int = 5e8
    tier: int = 1
    ratio: float = 0.5

def load(param_dict):
    return Zero(**param_dict.get("zero", {}))
"""


def test_a_section_moved_from_dict_reads_to_a_model_keeps_its_keys(cli, repo) -> None:
    """Only the key the model no longer accepts is CD403; the section turning
    strict and a changed default are changes."""
    docs = "# Zero\n\n" + "".join(
        f"**zero.{key}**: [integer]\n\n" for key in ("stage", "bucket", "legacy", "tier", "ratio")
    )
    (repo / "docs").mkdir()
    (repo / "docs" / "config.md").write_text(docs, encoding="utf-8")
    _commit(repo, _DICT_SECTION, "dict reads")
    _commit(repo, _MODEL_SECTION, "a model")
    code, report = _diff(cli, repo, "HEAD~1", "HEAD")
    assert code == 1
    assert [(f["code"], f["key"]) for f in report["findings"]] == [("CD403", "zero.legacy")]
    assert "now rejected" in report["findings"][0]["message"]
    changes = {(c["kind"], c["key"]): c["message"] for c in report["changes"]}
    assert set(changes) == {("turned strict", "zero"), ("default changed", "zero.bucket")}
    assert "from 500 to 500000000.0 (5e8)" in changes[("default changed", "zero.bucket")]


_CLI = """\
import argparse


def main():
    parser = argparse.ArgumentParser()
{flags}    return parser.parse_args()
"""

_FLAGS = ("--host", "--port", "--workers", "--verbose", "--recreate")

_CLI_PAGE = "# Command line\n\n" + "".join(f"- `{flag}`: the {flag[2:]}.\n" for flag in _FLAGS)

_MODEL_PAGE = (
    "# Configuration\n\n- `app.name`: the name.\n- `app.retries`: retries.\n"
    "- `app.timeout`: the timeout.\n"
)


def _flags(*flags: str) -> str:
    return "".join(f'    parser.add_argument("{flag}")\n' for flag in flags)


def _release(root: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", message)


@pytest.fixture
def cli_repo(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "tool", {"tool/__init__.py": ""})
    _git(root, "init", "-q", "-b", "main")
    _release(
        root, {"tool/cli.py": _CLI.format(flags=_flags(*_FLAGS)), "docs/cli.md": _CLI_PAGE}, "1.0"
    )
    return root


def test_surfaces_are_paired_by_name_when_the_first_one_changes(cli, cli_repo) -> None:
    # 2.0 adds a configuration model, which becomes the first surface; the
    # flags are all still there, a surface of their own.
    _release(cli_repo, {"tool/config.py": APP_SECTION, "docs/config.md": _MODEL_PAGE}, "2.0")
    code, report = _diff(cli, cli_repo, "HEAD~1", "HEAD")
    assert report["findings"] == [], report
    assert code == 0
    assert ("surface added", "config") in {(c["kind"], c["key"]) for c in report["changes"]}
    # Backwards, the model's surface is gone: said so, not each of its keys
    # removed.
    code, report = _diff(cli, cli_repo, "HEAD", "HEAD~1")
    assert report["findings"] == [] and code == 0
    assert ("surface gone", "config") in {(c["kind"], c["key"]) for c in report["changes"]}


def test_a_flag_removed_fails_the_command_line(cli, cli_repo) -> None:
    _release(cli_repo, {"tool/cli.py": _CLI.format(flags=_flags(*_FLAGS[:-1]))}, "2.0")
    code, report = _diff(cli, cli_repo, "HEAD~1", "HEAD")
    assert code == 1
    ((key, message),) = [(f["key"], f["message"]) for f in report["findings"]]
    assert key == "--recreate"
    assert "an unrecognized argument: the command fails" in message
    assert "silently ignored" not in message
