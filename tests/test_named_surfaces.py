"""A surface the configuration names is judged once: the root does not
take the same configuration as well, and a model the root already holds
cannot be named as a surface of its own."""

from __future__ import annotations

import json

from conftest import run_cli
from helpers import APP_SECTION, make_project

_MAIN = """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--debug", action="store_true")
    return parser.parse_args()
"""

_PAGE = """# Command line

- `--host`: the host. Default: `localhost`.
- `--port`: the port. Default: `8080`.
- `--workers`: how many workers.
- `--timeout`: seconds.
"""


def _project(tmp_path, surfaces: str):
    return make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": f'[project]\nname = "app"\n\n[tool.configdrift.surfaces]\n{surfaces}\n',
            "app/__init__.py": "",
            "app/main.py": _MAIN,
            "docs/cli.md": _PAGE,
        },
    )


def test_a_named_command_line_is_one_surface(tmp_path) -> None:
    root = _project(tmp_path, 'flags = {mount = "cli", docs = ["docs/cli.md"]}')
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    report = json.loads(result.out)
    found = {(f["code"], f["key"]) for f in report["findings"]}
    assert ("CD101", "--timeout") in found and ("CD104", "--port") in found
    # The page feeds the named surface: no CD501 saying it yields nothing.
    assert not any(code == "CD501" for code, _ in found)
    assert report["summary"]["keys"]["accepted"] == 4


def test_a_model_the_root_holds_is_no_surface_of_its_own(tmp_path) -> None:
    root = make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n\n[tool.configdrift.mount]\n'
            '"" = "app.config:Config"\n\n[tool.configdrift.surfaces]\n'
            'zero = {mount = "app.config:ZeroConfig"}\n',
            "app/__init__.py": "",
            "app/config.py": (
                "from pydantic import BaseModel\n\n\n"
                "class ZeroConfig(BaseModel):\n    stage: int = 0\n    offload: bool = False\n\n\n"
                "class Config(BaseModel):\n    zero: ZeroConfig = ZeroConfig()\n    lr: float = 0.1\n\n\n"
                "def load(raw: dict) -> Config:\n    return Config(**raw)\n"
            ),
            "docs/config.md": "# Config\n\n- `lr`: the rate.\n- `zero.stage`: the stage.\n",
        },
    )
    result = run_cli("check", str(root), "--no-cache")
    assert result.code == 2
    assert "surfaces.zero: ZeroConfig is part of the configuration" in result.err


def test_named_environment_variables_are_one_surface(tmp_path) -> None:
    names = ("APP_HOST", "APP_PORT", "APP_WORKERS", "APP_DEBUG", "APP_LOG")
    code = "import os\n\n\n" + "".join(
        f'def read_{n.lower()}():\n    return os.environ.get("{n}", "1")\n\n\n' for n in names
    )
    page = "# Environment\n\n" + "".join(f"- `{n}`: the {n.lower()}.\n" for n in names[:4])
    root = make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n\n[tool.configdrift.surfaces]\n'
            'variables = {mount = "env", docs = ["docs/environment.md"]}\n',
            "app/__init__.py": "",
            "app/env.py": code,
            "docs/environment.md": page,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    report = json.loads(result.out)
    assert report["summary"]["keys"]["accepted"] == 5
    assert {(f["code"], f["key"]) for f in report["findings"]} >= {("CD103", "APP_LOG")}


_MODEL_PAGE = (
    "# Configuration\n\n- `app.name`: the name.\n- `app.retries`: retries.\n"
    "- `app.timeout`: the timeout.\n"
)


def test_a_configured_page_that_feeds_another_surface_is_not_empty(tmp_path) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "app"\n\n[tool.configdrift]\n'
        'docs = ["docs/cli.md", "docs/config.md"]\n',
        "app/__init__.py": "",
        "app/main.py": _MAIN.replace(
            '    parser.add_argument("--debug", action="store_true")\n', ""
        ),
        "app/config.py": APP_SECTION,
        "docs/cli.md": _PAGE.replace("- `--timeout`: seconds.\n", ""),
        "docs/config.md": _MODEL_PAGE,
    }
    root = make_project(tmp_path / "proj", files)
    report = json.loads(run_cli("check", str(root), "--format", "json", "--no-cache").out)
    assert {s["name"] for s in report["summary"]["surfaces"]} >= {"config", "cli"}
    assert not any(f["code"] == "CD501" for f in report["findings"])
    # A configured page that feeds no surface still is.
    (root / "docs" / "cli.md").write_text("# Command line\n\nNothing here.\n", encoding="utf-8")
    report = json.loads(run_cli("check", str(root), "--format", "json", "--no-cache").out)
    assert [(f["code"], f["path"]) for f in report["findings"] if f["code"] == "CD501"] == [
        ("CD501", "docs/cli.md")
    ]


_DEFAULTS_BESIDE_MODEL = """
from pydantic import BaseModel

DEFAULTS = {"version": None, "commit": False, "tag": False, "message": "Bump", "parts": {}}


class Config(BaseModel):
    version: str | None
    commit: bool
    tag: bool
    message: str
    parts: dict
    files: list = []


def load(parsed):
    return Config(**{**DEFAULTS, **parsed})
"""


def test_a_dict_of_defaults_beside_its_model_reports_a_key_once(tmp_path) -> None:
    # ``parts`` is in both and documented in neither: the model says so,
    # where its own pages document it; otherwise the dict does.
    global_page = "# Global\n\n" + "".join(
        f"## {key}\n\nDefault: `{value}`\n\n"
        for key, value in (("version", "None"), ("commit", "False"), ("tag", "False"))
    )
    surfaces = 'defaults = {mount = "app.config:DEFAULTS", docs = ["docs/global.md"]}'
    for documented, reported in (("files", {"config"}), ("", {"defaults"})):
        root = make_project(
            tmp_path / (documented or "none"),
            {
                "pyproject.toml": (
                    f'[project]\nname = "app"\n\n[tool.configdrift]\ndocs = ["docs/files.md"]\n\n'
                    f'[tool.configdrift.mount]\n"" = "app.config:Config"\n\n'
                    f"[tool.configdrift.surfaces]\n{surfaces}\n"
                ),
                "app/__init__.py": "",
                "app/config.py": _DEFAULTS_BESIDE_MODEL,
                "docs/global.md": global_page,
                "docs/files.md": f"# Files\n\n## {documented}\n\nThe files.\n",
            },
        )
        result = run_cli("check", str(root), "--format", "json", "--no-cache")
        found = json.loads(result.out)["findings"]
        parts = {f["surface"] for f in found if f["code"] == "CD103" and f["key"] == "parts"}
        assert parts == reported, documented
