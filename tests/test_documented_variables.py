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
