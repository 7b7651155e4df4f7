"""pydantic-settings classes: strict by default, and the root of a project
whose configuration is one."""

from __future__ import annotations

from configdrift.config import Config
from configdrift.engine import analyse
from configdrift.rules.run import run_rules
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


# Per-rule settings: severity overrides, extend-select/extend-ignore and
# keys internal by design.


def _json_findings(cli, root, *args: str) -> list[dict]:
    import json

    return json.loads(cli("check", str(root), "--format", "json", *args).out)["findings"]


def _demo_with(tmp_path, table: str):
    import shutil
    from pathlib import Path

    root = tmp_path / "demo"
    shutil.copytree(Path(__file__).parent.parent / "demo", root)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n" + table + "\n")
    return root


def test_a_severity_override_changes_the_level_and_the_exit_status(cli, tmp_path) -> None:
    root = _demo_with(tmp_path, '[tool.configdrift]\nseverity = {CD1 = "info", CD101 = "warning"}')
    found = _json_findings(cli, root)
    levels = {f["code"]: f["severity"] for f in found}
    assert levels["CD101"] == "warning"  # the longer prefix wins
    assert levels["CD104"] == "info" and levels["CD303"] == "error"
    everything = _demo_with(tmp_path / "b", '[tool.configdrift]\nseverity = {CD = "info"}')
    result = cli("check", str(everything))
    assert result.code == 0 and "0 errors" in result.out


def test_a_severity_that_is_not_one_is_a_usage_error(cli, tmp_path) -> None:
    root = _demo_with(tmp_path, '[tool.configdrift]\nseverity = {CD101 = "fatal"}')
    result = cli("check", str(root))
    assert result.code == 2 and "`severity.CD101` must be one of error, warning, info" in result.err
    other = _demo_with(tmp_path / "b", '[tool.configdrift]\nseverity = {CD9 = "info"}')
    result = cli("check", str(other))
    assert result.code == 2 and "no rule code starts with 'CD9'" in result.err


def test_extend_select_and_extend_ignore(cli, tmp_path) -> None:
    root = _demo_with(tmp_path, '[tool.configdrift]\nignore = ["CD1"]\nextend-select = ["CD104"]')
    codes = {f["code"] for f in _json_findings(cli, root)}
    assert "CD104" in codes and "CD101" not in codes and "CD105" not in codes
    assert "CD303" in codes  # the rest still runs
    codes = {f["code"] for f in _json_findings(cli, root, "--extend-ignore", "CD3")}
    assert "CD104" in codes and not any(c.startswith("CD3") for c in codes)
    plain = _demo_with(tmp_path / "b", "[tool.configdrift]")
    codes = {
        f["code"] for f in _json_findings(cli, plain, "--select", "CD3", "--extend-select", "CD101")
    }
    assert codes == {"CD101", "CD301", "CD303"} | ({"CD302"} & codes)


def test_keys_internal_by_design_raise_no_cd103(cli, tmp_path) -> None:
    from helpers import make_project

    files = {
        "app/cli.py": """
            import argparse


            def main():
                parser = argparse.ArgumentParser()
                parser.add_argument("--epochs", type=int, default=10, help="passes")
                parser.add_argument("--verbose", action="store_true")
                parser.add_argument("--debug-dump", help="internal")
                parser.add_argument("--debug-trace", help="internal")
                parser.add_argument("--output", default="out")
                args = parser.parse_args()
                print(args.epochs, args.verbose, args.debug_dump, args.debug_trace, args.output)
            """,
        "docs/cli.md": "# Command line\n\n- `--epochs` (int): passes. Default: 10.\n"
        "- `--verbose` (bool): talk more.\n- `--output` (str): where. Default: `out`.\n",
    }
    make_project(tmp_path, files)
    before = {f["key"] for f in _json_findings(cli, tmp_path) if f["code"] == "CD103"}
    assert {"--debug-dump", "--debug-trace"} <= before, before
    pyproject = tmp_path / "pyproject.toml"
    base = pyproject.read_text()
    pyproject.write_text(base + '[tool.configdrift.allow-undocumented]\ncli = ["--debug-*"]\n')
    after = {f["key"] for f in _json_findings(cli, tmp_path) if f["code"] == "CD103"}
    assert after == before - {"--debug-dump", "--debug-trace"}
    # Another surface's globs do not apply; "*" applies to all.
    pyproject.write_text(base + '[tool.configdrift.allow-undocumented]\nenv = ["--debug-*"]\n')
    assert {f["key"] for f in _json_findings(cli, tmp_path) if f["code"] == "CD103"} == before
    pyproject.write_text(base + '[tool.configdrift.allow-undocumented]\n"*" = ["--debug-dump"]\n')
    after = {f["key"] for f in _json_findings(cli, tmp_path) if f["code"] == "CD103"}
    assert after == before - {"--debug-dump"}
