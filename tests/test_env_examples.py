"""CD302 over example environment files (``.env.example``): a variable
with the project's own prefix that nothing spells or names."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import make_project

_SETTINGS = """\
import os

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SHOP_API_")

    host: str = "localhost"
    port: int = 8000
    max_concurrent_tasks: int = 5
    log_level: str = "info"


def cache_ttl():
    return os.getenv(f"SHOP_API_{'cache_ttl'.upper()}", "60")
"""

_PAGE = """\
# Configuration

| Variable | Description | Default |
| --- | --- | --- |
| `SHOP_API_HOST` | The host. | `localhost` |
| `SHOP_API_PORT` | The port. | `8000` |
| `SHOP_API_LOG_LEVEL` | The level. | `info` |
| `SHOP_API_MAX_CONCURRENT_TASKS` | Tasks at once. | `5` |
"""

_ENV = """\
SHOP_API_HOST=0.0.0.0
SHOP_API_PORT=8080
# How many tasks at once
# SHOP_API_DEFAULT_MAX_CONCURRENT_TASKS=5
export SHOP_API_WORKERS=4
SHOP_API_CACHE_TTL=30
SHOP_API_REDIS_URL=redis://cache
SHOP_API_DB__HOST=db
POSTGRES_PASSWORD=secret
# - Small: 1 worker
"""


def _shop(tmp_path: Path, **more: str) -> Path:
    """The shop project (settings, their page) with ``more`` files."""
    files = {"shop/__init__.py": "", "shop/settings.py": _SETTINGS, "docs/configuration.md": _PAGE}
    return make_project(tmp_path, {**files, **more})


def _check(cli, root: Path) -> list[dict]:
    report = json.loads(cli("check", str(root), "--format", "json").out)
    return [f for f in report["findings"] if f["path"].endswith(".env.example")]


def test_variables_nothing_reads_are_reported(cli, tmp_path) -> None:
    compose = "services:\n  cache:\n    environment:\n      - SHOP_API_REDIS_URL=redis://cache\n"
    root = _shop(tmp_path, **{".env.example": _ENV, "docker-compose.yml": compose})
    found = {f["key"]: f for f in _check(cli, root)}
    # A misspelt variable (in a comment, as examples often are) and one the
    # settings lack; the near spelling is suggested.
    assert set(found) == {"SHOP_API_DEFAULT_MAX_CONCURRENT_TASKS", "SHOP_API_WORKERS"}
    misspelt = found["SHOP_API_DEFAULT_MAX_CONCURRENT_TASKS"]
    assert misspelt["code"] == "CD302" and misspelt["line"] == 4
    assert misspelt["suggestion"] == "the code reads `SHOP_API_MAX_CONCURRENT_TASKS`"
    assert found["SHOP_API_WORKERS"]["line"] == 5
    assert "Settings declares the accepted keys" in found["SHOP_API_WORKERS"]["related"][0]["note"]
    # Not reported: a name built at run time from a literal of its rest, one
    # a compose file sets, a nested setting, another program's variable.


def test_a_one_word_env_prefix_of_a_settings_class_is_its_own(cli, tmp_path) -> None:
    settings = _SETTINGS.replace('env_prefix="SHOP_API_"', 'env_prefix="SHOP_"')
    root = make_project(
        tmp_path,
        {
            "shop/__init__.py": "",
            "shop/settings.py": settings,
            "docs/configuration.md": _PAGE.replace("SHOP_API_", "SHOP_"),
            ".env.example": "SHOP_HOST=x\nSHOP_WORKERS=4\n",
        },
    )
    assert [f["key"] for f in _check(cli, root)] == ["SHOP_WORKERS"]


def test_variables_sharing_a_word_are_no_prefix_of_the_project(cli, tmp_path) -> None:
    code = (
        "import os\n\n\ndef connect():\n"
        '    return os.environ.get("DB_HOST"), os.getenv("DB_PORT"), os.getenv("DB_NAME")\n'
    )
    page = (
        "# Configuration\n\n| Variable | Description |\n| --- | --- |\n"
        "| `DB_HOST` | The host. |\n| `DB_PORT` | The port. |\n| `DB_NAME` | The name. |\n"
    )
    root = make_project(
        tmp_path,
        {
            "shop/__init__.py": "",
            "shop/db.py": code,
            "docs/configuration.md": page,
            ".env.example": "DB_HOST=db\nDB_PASSWORD=secret\n",
        },
    )
    assert _check(cli, root) == []


def test_an_env_example_edit_is_seen_by_a_replayed_check(cli, tmp_path) -> None:
    import os
    import time

    files = {
        "shop/__init__.py": "",
        "shop/settings.py": _SETTINGS,
        "docs/configuration.md": _PAGE,
        ".env.example": "SHOP_API_HOST=0.0.0.0\n",
    }
    root = make_project(tmp_path, files)
    old = time.time() - 3600
    for path in root.rglob("*"):
        os.utime(path, (old, old))
    assert _check(cli, root) == []
    assert _check(cli, root) == []  # replayed
    (root / ".env.example").write_text("SHOP_API_HOST=0.0.0.0\nSHOP_API_WORKERS=4\n")
    os.utime(root / ".env.example", (old + 60, old + 60))
    assert [f["key"] for f in _check(cli, root)] == ["SHOP_API_WORKERS"]


def test_unsafe_fixes_rename_a_variable_to_its_near_spelling(cli, tmp_path) -> None:
    root = _shop(tmp_path, **{".env.example": _ENV})
    assert cli("fix", str(root), "--unsafe-fixes", "--apply").code == 0
    text = (root / ".env.example").read_text()
    assert "# SHOP_API_MAX_CONCURRENT_TASKS=5\n" in text
    assert "export SHOP_API_WORKERS=4\n" in text  # no near spelling: left
    assert sorted(f["key"] for f in _check(cli, root)) == [
        "SHOP_API_REDIS_URL",  # no compose file names it here
        "SHOP_API_WORKERS",
    ]


def test_spaced_assignments_and_named_templates_are_read(cli, tmp_path) -> None:
    root = _shop(
        tmp_path,
        **{
            "dev/secrets.env.template": "SHOP_API_HOST = 'x'\nSHOP_API_WORKERS = 4\n",
            "dev/.env.local": "SHOP_API_TIMEOUT=3\n",  # a deployment's own: not read
        },
    )
    found = _check(cli, root) + [
        f
        for f in json.loads(cli("check", str(root), "--format", "json").out)["findings"]
        if f["path"].endswith(".env.template")
    ]
    assert {(f["key"], f["line"]) for f in found} == {("SHOP_API_WORKERS", 2)}


def test_a_spaced_assignment_is_renamed_as_it_is_found(cli, tmp_path) -> None:
    root = _shop(tmp_path, **{".env.example": "SHOP_API_DEFAULT_MAX_CONCURRENT_TASKS = 5\n"})
    assert cli("fix", str(root), "--unsafe-fixes", "--apply").code == 0
    assert (root / ".env.example").read_text() == "SHOP_API_MAX_CONCURRENT_TASKS = 5\n"
