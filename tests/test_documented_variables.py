"""The environment variable a doc entry gives its setting (``env-var=
`APP_PORT```, ``**Environment Variable**: `APP_PORT```) against the one the
code reads (rules/variables)."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.markdown import extract_markdown
from configdrift.extract.docs.rst import extract_rst
from helpers import by_key, check_project

_SETTINGS = """
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="APP_")

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
"""


def _page(host: str = "APP_HOST", port: str = "APP_PORT", workers: str = "APP_WORKERS") -> str:
    return (
        "# Settings\n\n"
        f"## `host`\n\nThe address.\n\n**Environment Variable**: `{host}`\n\n"
        f"## `port`\n\nThe port.\n\n**Environment Variable**: `{port}`\n\n"
        f"## `workers`\n\nThe processes.\n\n**Environment Variable**: `{workers}`\n"
    )


def _found(tmp_path, page: str, **more: str) -> dict:
    files = {"app/settings.py": _SETTINGS, "docs/settings.md": page, **more}
    _, findings = check_project(tmp_path, files, "app")
    return by_key(findings)


def test_the_variables_the_entries_give_are_the_codes(tmp_path) -> None:
    found = _found(tmp_path, _page())
    assert not [key for code, key in found if code in ("CD102", "CD103")]


def test_a_variable_no_setting_has_is_read_by_nothing(tmp_path) -> None:
    found = _found(tmp_path / "typo", _page(host="APP_HOSTNAME"))
    finding = found["CD102", "APP_HOSTNAME"]
    assert finding.location.path == "docs/settings.md"
    assert finding.suggestion == "did you mean `APP_HOST`?"
    # A variable some code quotes may be read there.
    quoted = {"app/legacy.py": 'import os\nOLD = os.environ.get("APP_HOSTNAME")\n'}
    found = _found(tmp_path / "quoted", _page(host="APP_HOSTNAME"), **quoted)
    assert ("CD102", "APP_HOSTNAME") not in found


def test_another_settings_variable_leaves_the_entrys_own_undocumented(tmp_path) -> None:
    found = _found(tmp_path, _page(workers="APP_PORT"))
    finding = found["CD103", "workers"]
    assert "`APP_WORKERS`, the variable of `workers`" in finding.message
    assert ("CD102", "APP_PORT") not in found


def test_nothing_is_said_where_the_code_spells_no_variable(tmp_path) -> None:
    # A model the page documents, whose fields the code reads from no
    # variable it spells: what it reads is not known.
    model = "from pydantic import BaseModel\n\n\nclass Config(BaseModel):\n" + "".join(
        f"    {k}: int = 1\n" for k in ("host", "port", "workers", "timeout", "retries")
    )
    page = "# Settings\n\n" + "".join(
        f"## `{k}`\n\nThe {k}.\n\n**Environment Variable**: `APP_{k.upper()}S`\n\n"
        for k in ("host", "port", "workers", "timeout", "retries")
    )
    files = {"app/config.py": model, "docs/c.md": page}
    analysis, findings = check_project(tmp_path, files, "app", {"": "app.config:Config"})
    assert {e.variable for e in analysis.entries} >= {"APP_HOSTS", "APP_PORTS"}
    assert not [f for f in findings if f.code in ("CD102", "CD103")]


@pytest.mark.parametrize(
    ("line", "variable"),
    [
        ("> env-var=`APP_PORT`", "APP_PORT"),
        ("**Environment Variable**: `APP_PORT`", "APP_PORT"),
        ("Env var: APP_PORT", "APP_PORT"),
        ("Environment variable: none", None),
        ("Environment variable: `port`", None),
    ],
)
def test_a_label_gives_an_entrys_variable(line: str, variable: str | None) -> None:
    page = f"# Settings\n\n## `port`\n\nThe port.\n\n{line}\n"
    entry = extract_markdown(page.encode()).entries[0]
    assert (entry.name, entry.variable, entry.default) == ("port", variable, None)


def test_a_field_of_a_restructuredtext_entry_gives_its_variable() -> None:
    page = ".. confval:: port\n\n   The port.\n\n   :type: int\n   :env var: APP_PORT\n"
    entry = extract_rst(page.encode()).entries[0]
    assert (entry.name, entry.doc_type, entry.variable) == ("port", "int", "APP_PORT")


# A command line's options that name their variables (click's and typer's
# ``envvar=``): a page's table of variables documents the options.

_CLICK = """
import click


@click.command({settings})
@click.option("--host", envvar="SRV_HOST", default="127.0.0.1", help="Bind address.")
@click.option("--port", envvar="SRV_PORT", default=8000, type=int, help="Port.")
@click.option("--workers", envvar=["SRV_WORKERS", "SRV_PROCS"], default=1, type=int)
def main(host, port, workers):
    print(host, port, workers)
"""

_TABLE = (
    "# srv\n\n## Environment variables\n\n"
    "| Variable | Default | Description |\n|---|---|---|\n"
    "| `SRV_HOST` | `127.0.0.1` | Bind address |\n"
    "| `SRV_PORT` | `{port}` | Port |\n"
    "| `SRV_PROCS` | `1` | Worker count |\n"
    "{more}"
)


def _cli(tmp_path, port: str = "8000", more: str = "", settings: str = "", **files: str) -> dict:
    project = {
        "srv/cli.py": _CLICK.format(settings=settings),
        "README.md": _TABLE.format(port=port, more=more),
        **files,
    }
    _, findings = check_project(tmp_path, project, "srv")
    return by_key(findings)


def test_a_variable_an_option_names_is_documented_with_its_default(tmp_path) -> None:
    found = _cli(tmp_path / "same")
    assert not [key for code, key in found if code.startswith("CD1")]
    found = _cli(tmp_path / "other", port="8080")
    finding = found["CD104", "SRV_PORT"]
    assert finding.location.path == "README.md"
    assert "8000" in finding.message


def test_a_variable_no_option_names_is_read_by_nothing(tmp_path) -> None:
    found = _cli(tmp_path, more="| `SRV_LOG_LEVEL` | `info` | Log level |\n")
    finding = found["CD102", "SRV_LOG_LEVEL"]
    assert finding.location.path == "README.md"
    assert "no option names it" in finding.message
    assert finding.related[0].path == "srv/cli.py"


def test_a_variable_some_file_spells_may_be_read_there(tmp_path) -> None:
    more = "| `SRV_LOG_LEVEL` | `info` | Log level |\n"
    read = {"srv/logs.py": 'import os\nLEVEL = os.environ.get("SRV_LOG_LEVEL")\n'}
    assert ("CD102", "SRV_LOG_LEVEL") not in _cli(tmp_path / "code", more=more, **read)
    compose = {"compose.yaml": "services:\n  srv:\n    environment:\n      - SRV_LOG_LEVEL\n"}
    assert ("CD102", "SRV_LOG_LEVEL") not in _cli(tmp_path / "compose", more=more, **compose)


def test_a_command_that_reads_variables_of_its_own_accord_is_not_judged(tmp_path) -> None:
    # click's automatic variables: ``SRV_LOG_LEVEL`` may be any option's.
    more = "| `SRV_LOG_LEVEL` | `info` | Log level |\n"
    settings = 'context_settings={"auto_envvar_prefix": "SRV"}'
    assert ("CD102", "SRV_LOG_LEVEL") not in _cli(tmp_path, more=more, settings=settings)


def test_another_programs_variable_is_not_judged(tmp_path) -> None:
    # Not the options' prefix: a variable of the platform or a library.
    more = "| `PYTHONWARNINGS` | | Warnings |\n| `OTHER_TOOL_HOME` | | Another's |\n"
    found = _cli(tmp_path, more=more)
    assert not [key for code, key in found if code == "CD102"]


@pytest.mark.parametrize(
    "code",
    [
        # typer's ``envvar=``.
        "import typer\n\napp = typer.Typer()\n\n\n@app.command()\n"
        "def main(\n"
        '    host: str = typer.Option("127.0.0.1", envvar="SRV_HOST"),\n'
        '    port: int = typer.Option(8000, envvar="SRV_PORT"),\n'
        '    workers: int = typer.Option(1, envvar="SRV_PROCS"),\n'
        "):\n    print(host, port, workers)\n",
        # configargparse's ``env_var=``.
        "import configargparse\n\n"
        "parser = configargparse.ArgParser()\n"
        'parser.add_argument("--host", env_var="SRV_HOST", default="127.0.0.1")\n'
        'parser.add_argument("--port", env_var="SRV_PORT", type=int, default=8000)\n'
        'parser.add_argument("--workers", env_var="SRV_PROCS", type=int, default=1)\n'
        "args = parser.parse_args()\n",
    ],
)
def test_other_libraries_options_name_their_variables_too(tmp_path, code) -> None:
    found = _cli(tmp_path, port="8080", **{"srv/cli.py": code})
    assert ("CD104", "SRV_PORT") in found


def test_a_variable_a_settings_class_spells_by_its_prefix_is_read(tmp_path) -> None:
    # ``SRV_LOG_LEVEL`` is nowhere in the code's text, but the settings
    # class reads it: its prefix and its field.
    settings = (
        "from pydantic_settings import BaseSettings, SettingsConfigDict\n\n\n"
        "class Settings(BaseSettings):\n"
        '    model_config = SettingsConfigDict(env_prefix="SRV_")\n\n'
        '    log_level: str = "info"\n    color: bool = True\n    name: str = "srv"\n'
    )
    more = "| `SRV_LOG_LEVEL` | `info` | Log level |\n"
    found = _cli(tmp_path, more=more, **{"srv/settings.py": settings})
    assert ("CD102", "SRV_LOG_LEVEL") not in found


def test_variables_an_option_names_leave_the_environment_its_own_surface(tmp_path) -> None:
    # The code reads ``SRV_HOST`` and ``SRV_PORT`` by name too: the
    # environment is a configuration of its own, its page judged on it.
    reads = (
        "import os\n\n"
        'HOST = os.environ.get("SRV_HOST", "localhost")\n'
        'PORT = os.environ.get("SRV_PORT", "8000")\n'
        'CACHE = os.environ.get("SRV_CACHE", "/tmp")\n'
    )
    table = "| `SRV_CACHE` | `/tmp` | Cache |\n| `SRV_DEBUG` | | Debug |\n"
    files = {
        "srv/cli.py": _CLICK.format(settings=""),
        "srv/net.py": reads,
        "README.md": _TABLE.format(port="8000", more=table),
    }
    analysis, findings = check_project(tmp_path, files, "srv")
    assert {s.surface for s in analysis.everything} == {"cli", "env"}
    assert ("CD102", "SRV_DEBUG") in by_key(findings)


_SIX = ("host", "port", "workers", "retries", "backlog", "threads")


def _with_timeout(
    variable: str = "APP_TIMEOUT", held: int = 6, others: int = 0, shown: int = 6
) -> str:
    page = "# Settings\n\n" + "".join(
        f"## `{k}`\n\nThe {k}.\n\n**Environment Variable**: "
        f"`{'APP_' if n < held else 'OTHER_'}{k.upper()}`\n\n"
        for n, k in enumerate(_SIX[:shown])
    )
    page += "".join(
        f"## `extra{n}`\n\nMore.\n\n**Environment Variable**: `OTHER_EXTRA{n}`\n\n"
        for n in range(others)
    )
    return page + f"## `timeout`\n\nSeconds.\n\n**Environment Variable**: `{variable}`\n"


def _timeout_settings() -> str:
    return _SETTINGS.split("    host:")[0] + "".join(f"    {k}: int = 1\n" for k in _SIX)


def _timeout_found(tmp_path, page: str, **more: str) -> dict:
    files = {"app/settings.py": _timeout_settings(), "docs/settings.md": page, **more}
    _, findings = check_project(tmp_path, files, "app")
    return by_key(findings)


def test_a_variable_of_the_pages_convention_no_setting_has_is_read_by_nothing(tmp_path) -> None:
    found = _timeout_found(tmp_path, _with_timeout())
    finding = found["CD102", "APP_TIMEOUT"]
    assert (finding.location.path, finding.location.line) == ("docs/settings.md", 39)
    assert "no setting has it and no file of the project spells it" in finding.message
    assert finding.related[0].path == "app/settings.py"
    assert "`APP_THREADS`, the variable the entry of `threads` gives" in finding.related[0].note
    # A setting's own variable misspelt is judged against it, once.
    page = _with_timeout().replace("`APP_PORT`", "`APP_PORTS`")
    _, findings = check_project(
        tmp_path / "typo",
        {"app/settings.py": _timeout_settings(), "docs/settings.md": page},
        "app",
    )
    typo = [f for f in findings if f.code == "CD102" and f.key == "APP_PORTS"]
    assert [f.suggestion for f in typo] == ["did you mean `APP_PORT`?"]


@pytest.mark.parametrize(
    ("variable", "more"),
    [
        # Some file spells it: it may be read there.
        ("APP_TIMEOUT", {"app/legacy.py": "# APP_TIMEOUT is read by the launcher\n"}),
        # The code builds names it may be (``config.get(f"APP_{name}")``).
        (
            "APP_TIMEOUT",
            {"app/env.py": 'def get(config, name):\n    return config.get(f"APP_{name}")\n'},
        ),
        # A variable whose name a read builds at run time may be it.
        (
            "APP_TIMEOUT",
            {
                "app/env.py": 'import os\n\n\ndef env(a, b):\n    return os.environ.get(f"APP_{a}{b}")\n'
            },
        ),
        # Not of the page's convention: another program's variable.
        ("HTTPS_PROXY", {}),
        # The code quotes the prefix: it may read every variable of it.
        (
            "APP_TIMEOUT",
            {
                "app/env.py": "import os\n\nFOUND = {k: v for k, v in os.environ.items() "
                'if k.startswith("APP_")}\n'
            },
        ),
    ],
)
def test_a_variable_that_may_be_read_or_is_not_the_projects_is_not_judged(
    tmp_path, variable, more
) -> None:
    found = _timeout_found(tmp_path, _with_timeout(variable), **more)
    assert ("CD102", variable) not in found


def test_too_few_variables_of_settings_say_no_convention(tmp_path) -> None:
    # Four entries give the settings' variables: too few to show an affix.
    page = _with_timeout(held=4, shown=4)
    assert ("CD102", "APP_TIMEOUT") not in _timeout_found(tmp_path, page)
    # Six of ten: less than two thirds.
    page = _with_timeout(others=3)
    assert ("CD102", "APP_TIMEOUT") not in _timeout_found(tmp_path / "ten", page)
    # Six of eight: the convention holds.
    page = _with_timeout(others=1)
    assert ("CD102", "APP_TIMEOUT") in _timeout_found(tmp_path / "eight", page)
