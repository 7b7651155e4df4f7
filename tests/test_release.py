"""Releases that exist: one version everywhere the package states it, the
docs pin only versions that are the package's or commits, and a release
workflow that builds, checks and publishes the version its tag names."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from configdrift.version import __version__

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def _pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "action.yml", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_package_states_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == __version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"(?m)^## (\d+\.\d+\.\d+)", changelog)
    assert released and released[0] == __version__


def test_the_docs_pin_the_package_s_version_or_a_commit() -> None:
    # ``rev:`` of pre-commit and ``uses: .../configdrift@`` of an Action.
    pins = re.compile(r"(?:\brev:\s*|configdrift@)([\w.\-]+)")
    seen = 0
    for page in _pages():
        for pin in pins.findall(page.read_text(encoding="utf-8")):
            seen += 1
            assert re.fullmatch(r"[0-9a-f]{40}", pin) or pin == f"v{__version__}", (page, pin)
    assert seen  # the pattern still finds the pins the docs write


def test_the_pin_check_refuses_a_version_that_is_not_the_package_s() -> None:
    pins = re.compile(r"(?:\brev:\s*|configdrift@)([\w.\-]+)")
    (pin,) = pins.findall("    rev: v9.9.9\n")
    assert not re.fullmatch(r"[0-9a-f]{40}", pin) and pin != f"v{__version__}"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _schema_check(path: Path) -> subprocess.CompletedProcess[str]:
    # check-jsonschema reads the workflow as GitHub does (``on`` a key, not
    # a boolean) against GitHub's published schema for workflows.
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_release_workflow_is_valid_against_githubs_schema(tmp_path) -> None:
    assert _schema_check(WORKFLOW).returncode == 0
    # No formality: a job without ``runs-on`` is refused.
    broken = tmp_path / "release.yml"
    broken.write_text(
        WORKFLOW.read_text(encoding="utf-8").replace("    runs-on: ubuntu-latest\n", "", 1),
        encoding="utf-8",
    )
    assert _schema_check(broken).returncode != 0


def test_the_release_workflow_builds_checks_and_publishes_its_tag_s_version() -> None:
    workflow = _workflow()
    # YAML reads the key ``on`` as True.
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build = "\n".join(
        step.get("run", "") for step in workflow["jobs"]["build"]["steps"] if "run" in step
    )
    assert '"v$version" != "$TAG"' in build and "exit 1" in build
    assert "-m build" in build and "twine check --strict" in build
    publish = workflow["jobs"]["publish"]
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert any(
        step.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for step in publish["steps"]
    )
