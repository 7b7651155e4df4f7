"""The booby-trapped project (tests/hostile.py): every command and format
runs over it, from inside it, and none of its code or git's executables
may run (no marker file may appear)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hostile import build, fired

#: Every command and format, as a user in the project types them. The
#: editing commands come last: they change the tree.
COMMANDS = [
    ["check", "."],
    *(["check", ".", "--format", fmt] for fmt in ("json", "sarif", "github", "junit", "html")),
    ["check", ".", "--provenance", "--format", "json"],
    ["check", ".", "--provenance"],
    ["check", ".", "--diff-base", "HEAD~1"],
    ["check", "pkg/config.py", "docs/config.md"],
    ["check", ".", "--statistics"],
    ["map", "."],
    ["map", ".", "--format", "json", "--unresolved"],
    ["coverage", ".", "-v"],
    ["coverage", ".", "--format", "json"],
    ["init", ".", "--stdout"],
    ["sweep", "gamma", "."],
    ["sweep", "gamma", ".", "--diff"],
    ["diff", "--base", "HEAD~1"],
    ["diff", "--base", "HEAD~1", "--head", "HEAD", "--format", "json"],
    ["rules"],
    ["rule", "CD101"],
    ["fix", "."],
    ["fix", ".", "--add-missing", "--unsafe-fixes"],
    ["check", ".", "--write-baseline"],
    ["check", ".", "--baseline", "configdrift-baseline.json"],
    ["fix", ".", "--apply", "--add-missing"],
    ["sweep", "gamma", ".", "--apply"],
]


def _configdrift() -> list[str]:
    """The installed command, as CI runs it; an isolated interpreter
    calling the same entry point when the script is not beside Python."""
    script = Path(sys.executable).parent / "configdrift"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-I", "-c", "from configdrift.cli import run; run()"]


@pytest.fixture(scope="module")
def trapped(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("hostile")
    return build(base / "project", base / "markers"), base / "markers"


def test_the_traps_are_armed(tmp_path):
    """Each kind of trap fires when the tree's code or git's configuration
    is used the ordinary way: the suite below proves something."""
    root = build(tmp_path / "project", tmp_path / "markers")
    markers = tmp_path / "markers"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run([sys.executable, "-c", "import json"], cwd=root, check=True)
    git = {"cwd": root, "capture_output": True, "env": env, "check": False, "timeout": 60}
    subprocess.run(["git", "status"], **git)
    # (the failing process filter stops a diff before its text conversion)
    unfiltered = ["-c", "filter.trap.process=", "-c", "filter.trap.required=false"]
    for args in (
        [*unfiltered, "status"],
        [*unfiltered, "log", "-p", "--", "pkg/config.py"],
        [*unfiltered, "log", "-p", "--", "docs/config.md"],
        ["log", "-p", "-2"],
    ):
        subprocess.run(["git", *args], **git)
    got = fired(markers)
    assert "json-root" in got
    assert "fsmonitor" in got
    assert "clean" in got or "filter-process" in got
    assert "clean-named-with-equals" in got
    assert "textconv-named-with-equals" in got
    assert "textconv" in got
    assert "gpg" in got
    assert "ext-transport" in got


@pytest.mark.slow(30)
def test_no_command_runs_anything_of_the_tree(trapped, tmp_path):
    root, markers = trapped
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    failures = []
    for argv in COMMANDS:
        proc = subprocess.run(
            [*_configdrift(), *argv, "--no-cache", "--jobs", "2"]
            if argv[0] in ("check", "map", "coverage", "fix", "sweep") and "--apply" not in argv
            else [*_configdrift(), *argv],
            cwd=root,
            capture_output=True,
            env=env,
            timeout=300,
            check=False,
        )
        text = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
        # The base commit's missing blob sends git to the partial clone's
        # promisor remote, whose transport is refused: git mostly reads the
        # blob as missing, yet now and then (under load) fails the command,
        # which is then a usage error naming the refusal. Safe either way.
        refused = proc.returncode == 2 and "transport 'ext' not allowed" in text
        if (proc.returncode not in (0, 1) and not refused) or "Traceback" in text:
            failures.append(f"{' '.join(argv)}: exit {proc.returncode}: {text[-800:]}")
        if got := fired(markers):
            failures.append(f"{' '.join(argv)} fired {got}")
            shutil.rmtree(markers)
            markers.mkdir()
    assert not failures, "\n".join(failures)


def test_the_library_in_the_tree_spawning_its_workers(monkeypatch, tmp_path):
    """From inside the tree, with workers spawned (as on macOS and Windows)
    rather than forked: each starts an interpreter, which must not look in
    the working directory."""
    import multiprocessing

    import configdrift
    from configdrift import isolate

    # A tree of its own: the commands above write to theirs (fix and sweep
    # with --apply remove the drift this one must still find).
    markers = tmp_path / "markers"
    root = build(tmp_path / "project", markers)
    monkeypatch.setattr(isolate, "_context", lambda: multiprocessing.get_context("spawn"))
    monkeypatch.chdir(root)
    report = configdrift.check(["."], jobs=2, cache=False)
    assert report.findings
    assert fired(markers) == []
