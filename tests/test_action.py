"""The GitHub Action (``action.yml``): valid metadata, and its scripts run
as GitHub runs them, over a workspace that plants a shadowing module, a
forged SARIF folder and file names that would be globbed into arguments."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def _step(name: str) -> dict:
    return next(step for step in _action()["runs"]["steps"] if step.get("name") == name)


def test_the_action_is_valid_against_githubs_schema_for_actions() -> None:
    schema_file = resources.files("check_jsonschema") / "builtin_schemas/vendor/github-actions.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    jsonschema.validate(_action(), schema)


def test_the_schema_check_rejects_what_github_rejects() -> None:
    # The validation above is no formality: a step without ``shell`` in a
    # composite action is refused by GitHub, and by the schema.
    schema_file = resources.files("check_jsonschema") / "builtin_schemas/vendor/github-actions.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    broken = _action()
    del broken["runs"]["steps"][1]["shell"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_no_expression_is_written_into_a_script() -> None:
    # ``${{ inputs.args }}`` in a script is a shell injection: inputs reach
    # the scripts through the environment only.
    for step in _action()["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), step["name"]


def test_every_python_runs_isolated_with_the_variables_unset() -> None:
    for step in _action()["runs"]["steps"]:
        script = step.get("run", "")
        calls = [line for line in script.splitlines() if re.search(r"python\S*\"?\s", line)]
        calls = [line for line in calls if not line.lstrip().startswith(("#", "python=", "unset"))]
        if not calls:
            continue
        assert "unset PYTHONPATH PYTHONHOME PYTHONSTARTUP" in script, step["name"]
        for line in calls:
            assert " -I -m " in line, line


def test_the_job_keeps_its_own_python_and_uses_current_actions() -> None:
    python = _step("Set up Python")
    assert python["uses"] == "actions/setup-python@v6"
    assert python["with"]["update-environment"] is False
    assert _step("Upload SARIF")["uses"] == "github/codeql-action/upload-sarif@v4"
    assert _step("Install configdrift")["working-directory"] == "${{ runner.temp }}"


def test_upload_is_off_for_forks_and_without_a_sarif_file() -> None:
    condition = _step("Upload SARIF")["if"]
    assert "inputs.upload-sarif == 'true'" in condition
    assert "steps.check.outputs.sarif != ''" in condition
    assert "github.event.pull_request.head.repo.full_name == github.repository" in condition


@pytest.fixture
def runner(tmp_path: Path) -> dict[str, Path]:
    """A workspace holding the demo and the traps, a runner's temporary
    folder, and a virtual environment whose python is this one."""
    workspace = tmp_path / "workspace"
    shutil.copytree(ROOT / "demo", workspace)
    marker = tmp_path / "hijacked"
    trap = f"open({str(marker)!r}, 'a').write(__name__)\n"
    for name in ("re.py", "json.py", "argparse.py", "sitecustomize.py", "configdrift/__init__.py"):
        (workspace / name).parent.mkdir(exist_ok=True)
        (workspace / name).write_text(trap, encoding="utf-8")
    forged = workspace / "configdrift.sarif"
    forged.mkdir()
    (forged / "forged.sarif").write_text('{"forged": true}', encoding="utf-8")
    (workspace / "--exit-zero").write_text("", encoding="utf-8")
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n', encoding="utf-8")
    (venv / "python").chmod(0o755)
    return {"workspace": workspace, "temp": temp, "venv": venv.parent, "marker": marker}


def _run_check(places: dict[str, Path], args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    output = places["temp"] / "github-output"
    output.write_text("", encoding="utf-8")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(places["temp"]),
        "XDG_CACHE_HOME": str(places["temp"] / "cache"),
        "CONFIGDRIFT_VENV": str(places["venv"]),
        "CONFIGDRIFT_PATH": ".",
        "CONFIGDRIFT_ARGS": args,
        # A common workflow setting, which reaches into the workspace.
        "PYTHONPATH": str(places["workspace"]),
        "PYTHONSTARTUP": str(places["workspace"] / "re.py"),
    }
    proc = subprocess.run(
        ["bash", "-c", _step("Check")["run"]],
        cwd=places["workspace"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return proc, output.read_text(encoding="utf-8")


def test_the_check_step_writes_sarif_outside_the_workspace_and_runs_nothing_of_it(
    runner: dict[str, Path],
) -> None:
    proc, outputs = _run_check(runner, "")
    assert proc.returncode == 0, proc.stderr
    fields = dict(line.split("=", 1) for line in outputs.splitlines())
    assert fields["status"] == "1"
    sarif = Path(fields["sarif"])
    assert sarif.is_relative_to(runner["temp"])
    document = json.loads(sarif.read_text(encoding="utf-8"))
    assert document["runs"][0]["results"]
    # The annotations of the second run.
    assert "::error file=" in proc.stdout
    assert not runner["marker"].exists()
    assert (runner["workspace"] / "configdrift.sarif" / "forged.sarif").read_text() == (
        '{"forged": true}'
    )


def test_the_check_step_fails_with_configdrifts_message_and_no_sarif_on_exit_2(
    runner: dict[str, Path],
) -> None:
    proc, outputs = _run_check(runner, "--no-such-option")
    assert proc.returncode == 2
    assert "--no-such-option" in proc.stderr
    assert "::error title=configdrift::configdrift check exited 2" in proc.stdout
    assert "sarif=" not in outputs
    assert not runner["marker"].exists()


def test_the_arguments_are_never_globbed_against_the_workspace(runner: dict[str, Path]) -> None:
    # Globbed, ``*`` would turn the planted file ``--exit-zero`` into an
    # argument; taken as written, it is a path that does not exist.
    proc, outputs = _run_check(runner, "*")
    assert proc.returncode == 2
    assert "sarif=" not in outputs
    assert "*" in proc.stderr


def _pins() -> list[tuple[str, str]]:
    pins = []
    for page in sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]):
        text = page.read_text(encoding="utf-8")
        pins += [(page.name, ref) for ref in re.findall(r"OWNER/configdrift@(\S+)", text)]
    return pins


def test_the_docs_pin_the_action_to_a_version_that_exists() -> None:
    pins = _pins()
    assert pins, "the docs show the action pinned to a version"
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the pinned commits cannot be looked up")
    for page, ref in pins:
        name = ref if re.fullmatch(r"[0-9a-f]{40}", ref) else f"refs/tags/{ref}"
        found = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        assert found.returncode == 0, f"{page}: OWNER/configdrift@{ref} is no tag or commit here"
