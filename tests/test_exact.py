"""Exact mode (--import): the project's own models judge the examples, in a
subprocess, and agree with static mode."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import FIXTURES
from helpers import make_project, peak_of

pytest.importorskip("pydantic")

JUDGED = ("CD301", "CD303")


def _found(cli, root, *extra: str) -> tuple[int, set[tuple[str, str, str, int]], str]:
    result = cli("check", str(root), "--format", "json", "--select", "CD30", *extra)
    findings = json.loads(result.out)["findings"] if result.out else []
    found = {(f["code"], f["path"], f["key"], f["line"]) for f in findings}
    return result.code, found, result.err


@pytest.mark.parametrize("project", ["examples", "demo"])
def test_static_and_exact_modes_agree(cli, tmp_path, project) -> None:
    source = FIXTURES / project if project != "demo" else FIXTURES.parent.parent / "demo"
    root = tmp_path / project
    shutil.copytree(source, root)
    _, static, _ = _found(cli, root)
    code, exact, err = _found(cli, root, "--import")
    assert err == "" and code == 1
    assert {f for f in exact if f[0] in JUDGED} == {f for f in static if f[0] in JUDGED}
    assert {f for f in static if f[0] in JUDGED}, (
        "the project must give the modes something to judge"
    )
    # Findings the models do not judge (CD302, CD304) are the static ones.
    assert {f for f in exact if f[0] not in JUDGED} == {f for f in static if f[0] not in JUDGED}


def test_exact_mode_says_so_and_names_the_model_holding_the_key(cli, tmp_path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(FIXTURES.parent.parent / "demo", root)
    result = cli("check", str(root), "--import", "--select", "CD303")
    assert "(exact mode)" in result.out
    assert "which OffloadConfig rejects" in result.out
    assert 'to `"gpu"`' in result.out


MODEL = """\
from pydantic import BaseModel, ConfigDict
{prelude}
class M(BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: int = 1
def get(d):
    return M(**d.get("m", {{}}))
"""
PAGE = '# Config\n\n```json\n{"m": {"a": 1, "b": 2}}\n```\n'


def test_a_model_that_does_not_import_is_a_clear_diagnostic(cli, tmp_path) -> None:
    prelude = "import package_that_is_not_installed"
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    code, _, err = _found(cli, tmp_path, "--import")
    assert code == 2
    assert "--import" in err and "package_that_is_not_installed" in err
    # Static mode is unaffected.
    assert _found(cli, tmp_path)[1] == {("CD301", "docs/c.md", "m.b", 4)}


def test_a_model_that_hangs_ends_within_the_timeout(cli, tmp_path) -> None:
    prelude = "import time\ntime.sleep(60)"
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    code, _, err = _found(cli, tmp_path, "--import", "--import-timeout", "1")
    assert code == 2
    assert "longer than 1 s" in err


def test_without_import_no_project_code_runs(cli, tmp_path) -> None:
    marker = tmp_path / "ran"
    prelude = f"open({str(marker)!r}, 'w').close()"
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    _found(cli, tmp_path)
    assert not marker.exists()
    _found(cli, tmp_path, "--import")
    assert marker.exists()


def test_a_model_that_prints_without_end_costs_a_bounded_memory(tmp_path) -> None:
    # Half a gibibyte printed on import: kept whole, it took gigabytes.
    prelude = "import sys\nfor _ in range(512):\n    sys.stdout.write('x' * (1 << 20))"
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    code, _, peak = peak_of(["check", str(tmp_path), "--import", "--no-cache"], tmp_path)
    assert code == 1
    assert peak < 300, f"{peak} MiB"


def test_the_processes_a_model_starts_end_with_the_timeout(cli, tmp_path) -> None:
    marker = tmp_path / "grandchild-lived-on"
    later = f"import time; time.sleep(3); open({str(marker)!r}, 'w').close()"
    prelude = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', {later!r}])\n"
        "time.sleep(60)"
    )
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    code, _, err = _found(cli, tmp_path, "--import", "--import-timeout", "1")
    assert code == 2 and "longer than 1 s" in err
    import time

    time.sleep(4)
    assert not marker.exists()


def test_results_past_their_cap_are_not_read(cli, tmp_path) -> None:
    prelude = (
        "import atexit, sys\n"
        "def _flood():\n"
        "    with open(sys.argv[2], 'w') as fh:\n"
        "        fh.write('[' + '0,' * (40 << 20) + '0]')\n"
        "atexit.register(_flood)"
    )
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/m.py": MODEL.format(prelude=prelude), "docs/c.md": PAGE},
    )
    code, _, err = _found(cli, tmp_path, "--import")
    assert code == 2
    assert "the validating interpreter failed" in err
