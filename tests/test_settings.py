"""pydantic-settings classes: strict by default, and the root of a project
whose configuration is one."""

from __future__ import annotations

from configdrift.config import Config
from configdrift.engine import analyse, run_rules
from helpers import by_key, check_project, make_project

_SETTINGS = """
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Database(BaseSettings):
    url: str = "sqlite://"
    pool: int = 5


class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="APP_")

    debug: bool = False
    port: int = 8000
    workers: int = Field(4, ge=1)
    secret: str = ""
    database: Database = Database()


settings = AppSettings()
"""

_DOCS = """
# Settings

- `debug` (bool): verbose errors. Default: `false`.
- `port` (int): the port to listen on.
- `workers` (int): worker processes.
- `timeout` (int): documented, but AppSettings has no such field.
"""


def _run(tmp_path, files):
    analysis, findings = check_project(tmp_path, files, "app")
    return analysis, by_key(findings)


def test_a_settings_class_is_the_root_and_ignores_unknown_variables(tmp_path) -> None:
    """Without an env file, an environment variable no field names is not
    read: the documented ``timeout`` is silently ignored (CD102)."""
    analysis, found = _run(tmp_path, {"app/settings.py": _SETTINGS, "docs/settings.md": _DOCS})
    assert analysis.schema.model == "AppSettings"
    assert analysis.schema.strict is False
    assert ("CD102", "timeout") in found
    assert ("CD103", "secret") in found
    assert not any(code == "CD501" for code, _ in found)


def test_an_env_file_makes_unknown_keys_errors(tmp_path) -> None:
    code = _SETTINGS.replace('env_prefix="APP_"', 'env_prefix="APP_", env_file=".env"')
    analysis, found = _run(tmp_path, {"app/settings.py": code, "docs/settings.md": _DOCS})
    assert analysis.schema.strict is True
    assert ("CD101", "timeout") in found


def test_an_explicit_extra_policy_wins(tmp_path) -> None:
    code = _SETTINGS.replace(
        'env_prefix="APP_"', 'env_prefix="APP_", env_file=".env", extra="ignore"'
    )
    analysis, found = _run(tmp_path, {"app/settings.py": code, "docs/settings.md": _DOCS})
    assert analysis.schema.strict is False
    assert ("CD101", "timeout") not in found


def test_settings_are_spelt_as_environment_variables(tmp_path) -> None:
    docs = (
        "# Environment\n\n| Variable | Description |\n| --- | --- |\n"
        "| `APP_DEBUG` | verbose errors |\n| `APP_PORT` | the port |\n"
        "| `APP_WORKERS` | worker processes |\n| `APP_DATABASE` | the database |\n"
        "| `SECRET` | without the prefix: not read |\n"
    )
    analysis, found = _run(tmp_path, {"app/settings.py": _SETTINGS, "docs/env.md": docs})
    assert "APP_PORT" in analysis.schema.children["port"].spellings
    assert ("CD102", "SECRET") in found
    assert ("CD103", "port") not in found and ("CD103", "secret") in found


def test_several_settings_classes_are_decided_by_the_docs(tmp_path) -> None:
    other = (
        "from pydantic_settings import BaseSettings\n"
        "class WorkerSettings(BaseSettings):\n    queue: str = ''\n    retries: int = 3\n"
    )
    analysis, _ = _run(
        tmp_path,
        {"app/settings.py": _SETTINGS, "app/worker.py": other, "docs/settings.md": _DOCS},
    )
    assert analysis.schema.model == "AppSettings"


def test_settings_classes_the_docs_do_not_tell_apart_are_not_guessed(tmp_path) -> None:
    other = (
        "from pydantic_settings import BaseSettings\n"
        "class WorkerSettings(BaseSettings):\n    queue: str = ''\n    retries: int = 3\n"
    )
    docs = "# Other\n\n- `alpha` (int): one.\n- `beta` (int): two.\n- `gamma` (int): three.\n"
    analysis, _ = _run(
        tmp_path, {"app/settings.py": _SETTINGS, "app/worker.py": other, "docs/other.md": docs}
    )
    assert analysis.schema.model is None and not analysis.schema.children


def test_fields_read_by_scripts_or_by_other_defaults_are_not_inert(tmp_path) -> None:
    code = _SETTINGS.replace(
        '    secret: str = ""\n',
        '    secret: str = ""\n    redis_host: str = "localhost"\n'
        '    redis_url: str = f"redis://{redis_host}"\n    unused: int = 0\n',
    )
    script = "from app.settings import settings\nprint(settings.secret)\n"
    use = "from app.settings import settings\nprint(settings.debug, settings.redis_url)\n"
    _, found = _run(
        tmp_path,
        {
            "app/settings.py": code,
            "app/main.py": use,
            "scripts/admin.py": script,
            "docs/settings.md": _DOCS,
        },
    )
    inert = {key for code, key in found if code == "CD202"}
    assert "secret" not in inert and "redis_host" not in inert
    assert "unused" in inert


_UPPER = """
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    ENVIRONMENT: str = "local"
    PORT: int = 8000
    WORKERS: int = 4
    SECRET: str = ""


settings = Settings()
print(settings.ENVIRONMENT, settings.PORT, settings.WORKERS, settings.SECRET)
"""

_UPPER_DOCS = """
# Environment

- `ENVIRONMENT` (str): where it runs, one of:
  - **local**: debugging on.
  - **production**: debugging off.
- `PORT` (int): the port.
- `WORKERS` (int): processes.
- `DOMAIN` (str): set for the compose file, not for the app.
- `TIER_NAME` (str): read by a script.
- `TIMEOUT` (int): documented, read by nothing.
"""


def test_variables_other_parts_of_the_repository_use_are_not_unread(tmp_path) -> None:
    compose = "services:\n  proxy:\n    environment:\n      - DOMAIN=${DOMAIN}\n"
    script = "import os\nprint(os.environ['TIER_NAME'])\n"
    _, found = _run(
        tmp_path,
        {
            "app/settings.py": _UPPER,
            "docs/env.md": _UPPER_DOCS,
            "compose.yml": compose,
            "scripts/tiers.py": script,
        },
    )
    unread = sorted(key for code, key in found if code == "CD102")
    assert unread == ["TIMEOUT"]  # not DOMAIN, TIER_NAME, local or production


def test_a_link_out_of_the_tree_is_not_searched(tmp_path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("print(settings.unused)\n")
    project = tmp_path / "project"
    code = _SETTINGS.replace(
        '    secret: str = ""\n', '    secret: str = ""\n    unused: int = 0\n'
    )
    use = "from app.settings import settings\nprint(settings.debug, settings.secret)\n"
    make_project(
        project,
        {"app/__init__.py": "", "app/settings.py": code, "app/main.py": use, "docs/s.md": _DOCS},
    )
    (project / "scripts").mkdir()
    (project / "scripts" / "linked.py").symlink_to(outside)
    analysis = analyse(Config(root=project), jobs=1)
    inert = {f.key for f in run_rules(analysis) if f.code == "CD202"}
    assert "unused" in inert
