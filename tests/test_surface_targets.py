"""Every kind of target ``surfaces`` takes runs to a report, named alone
or beside the others, each name as the root's own (``cli = {mount =
"cli"}``) included: never an internal error."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from helpers import make_project

_FILES = {
    "app/__init__.py": "",
    "app/model.py": (
        "from pydantic import BaseModel\n\n\n"
        "class ServerConfig(BaseModel):\n"
        "    host: str = 'localhost'\n    port: int = 8000\n    workers: int = 1\n"
    ),
    "app/table.py": "OPTIONS = {'color': True, 'width': 80, 'pager': 'less'}\n",
    "app/reader.py": (
        "def configure(options):\n"
        "    return options.get('retries', 3), options.get('backoff', 1.0), "
        "options.get('jitter', False)\n"
    ),
    "app/cli.py": (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        + "".join(f"    parser.add_argument('--{f}')\n" for f in ("alpha", "beta", "gamma"))
        + "    return parser.parse_args()\n"
    ),
    "app/env.py": (
        "import os\n\n\ndef env():\n"
        "    return os.environ.get('APP_ONE'), os.environ.get('APP_TWO'), "
        "os.getenv('APP_THREE')\n"
    ),
    "app/plugin.py": (
        "def pytest_addoption(parser):\n"
        + "".join(
            f"    parser.addini('{k}', 'help')\n" for k in ("one_ini", "two_ini", "three_ini")
        )
    ),
    "app/settings_use.py": (
        "from django.conf import settings\n\n\ndef use():\n"
        "    return settings.APP_FIRST, settings.APP_SECOND, settings.APP_THIRD\n"
    ),
    "docs/page.md": "# Options\n\n- `host`: the host.\n- `--alpha`: alpha.\n- `APP_ONE`: one.\n",
}

_TARGETS = {
    "model": "app.model:ServerConfig",
    "dict": "app.table:OPTIONS",
    "param": "app.reader:configure.options",
    "cli": "cli",
    "registered": "registered",
    "env": "env",
    "settings": "settings",
}


def _report(tmp_path, surfaces: dict[str, str]) -> tuple[int, dict, str]:
    lines = "".join(
        f'{name} = {{mount = "{target}", docs = ["docs/page.md"]}}\n'
        for name, target in surfaces.items()
    )
    root = make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": f'[project]\nname = "app"\n\n[tool.configdrift.surfaces]\n{lines}',
            **_FILES,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache", "--jobs", "1")
    return result.code, json.loads(result.out) if result.out else {}, result.err


@pytest.mark.parametrize("kind", sorted(_TARGETS))
def test_each_target_kind_alone_runs_to_a_report(tmp_path, kind: str) -> None:
    # Named as the root would name it (``cli = {mount = "cli"}``).
    name = kind if kind in ("cli", "env", "settings", "registered") else f"my_{kind}"
    code, report, err = _report(tmp_path, {name: _TARGETS[kind]})
    assert code in (0, 1), err
    assert name in {s["name"] for s in report["summary"]["surfaces"]}


def test_every_target_kind_at_once_runs_to_a_report(tmp_path) -> None:
    code, report, err = _report(tmp_path, {f"my_{k}": t for k, t in _TARGETS.items()})
    assert code in (0, 1), err
    names = [s["name"] for s in report["summary"]["surfaces"]]
    assert len(names) == len(set(names))  # none listed twice
    assert {f"my_{k}" for k in _TARGETS} <= set(names)
