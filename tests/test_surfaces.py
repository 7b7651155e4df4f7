"""Several configuration surfaces in one project: each is found from the
evidence that users write it, gets its own pages and entries, and is judged
on its own; findings say which surface they belong to."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, run_cli
from helpers import by_key, check_project

#: A config tree read from a dict (the first surface).
_CONFIG = """
import json


def load(path):
    with open(path) as fh:
        cfg = json.load(fh)
    name, size = cfg.get("name", "x"), cfg.get("size", 1)
    return name, size, cfg.get("depth", 2), cfg.get("mode", "a"), cfg.get("seed", 0)
"""
_CONFIG_DOC = """
# Configuration

| Key | Description | Default |
| --- | --- | --- |
| `name` | The name. | `x` |
| `size` | The size. | `1` |
| `depth` | The depth. | `2` |
| `mode` | The mode. | `a` |
| `seed` | The seed. | `0` |
"""
_CLI = """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, default=80)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    print(args.host, args.port, args.quiet, args.trace)
"""
_CLI_DOC = """
# Command line

- `--host`: the address (default `localhost`).
- `--port`: the port.
- `--quiet`: print less.
- `--bogus`: documented, but no such option.
"""


def _surfaces(analysis) -> dict[str, object]:
    return {s.surface: s for s in analysis.everything}


def test_the_command_line_beside_a_config_is_a_surface_of_its_own(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path,
        {
            "app/config.py": _CONFIG,
            "app/cli.py": _CLI,
            "docs/config.md": _CONFIG_DOC,
            "docs/cli.md": _CLI_DOC,
        },
        "app",
    )
    surfaces = _surfaces(analysis)
    assert set(surfaces) == {"config", "cli"}
    found = by_key(findings)
    # The flag is judged by the command line, which rejects it: not "never
    # read" by the config dict.
    assert found[("CD101", "--bogus")].surface == "cli"
    assert ("CD102", "--bogus") not in found
    assert found[("CD103", "--trace")].surface == "cli"
    assert {f.surface for f in findings} == {"cli"}
    cli_paths = {e.location.path for e in surfaces["cli"].entries}
    assert cli_paths == {"docs/cli.md"}
    assert all(e.location.path == "docs/config.md" for e in surfaces["config"].entries)


def test_a_command_line_no_page_documents_is_no_surface(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path,
        {"app/config.py": _CONFIG, "app/cli.py": _CLI, "docs/config.md": _CONFIG_DOC},
        "app",
    )
    assert [s.surface for s in analysis.everything] == ["config"]
    assert not any(f.key.startswith("--") for f in findings)


def test_a_generated_reference_documents_every_option(tmp_path) -> None:
    generated = (
        "# Command line\n\n```{eval-rst}\n.. argparse::\n   :module: app.cli\n"
        "   :func: main\n   :prog: app\n```\n\n- `--host`: the address.\n"
    )
    analysis, findings = check_project(
        tmp_path,
        {
            "app/config.py": _CONFIG,
            "app/cli.py": _CLI,
            "docs/config.md": _CONFIG_DOC,
            "docs/cli.md": generated,
        },
        "app",
    )
    cli = _surfaces(analysis)["cli"]
    assert [(loc.path, loc.line) for loc in cli.generated] == [("docs/cli.md", 4)]
    assert not any(f.code == "CD103" for f in findings)


def test_mkdocs_click_marks_a_generated_page() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    facts = extract_markdown(b"# CLI\n\n::: mkdocs-click\n    :module: app.cli\n")
    assert facts.generated == [("mkdocs-click", 3)]
    assert extract_markdown(b"# CLI\n\nSee ::: mkdocs-click above.\n").generated == []


_SETTINGS = """
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="APP_")

    token: str = ""
    port: int = 8000
    workers: int = 4
    region: str = "eu"
"""


def _settings_doc(*rows: str) -> str:
    head = "# Settings\n\n| Variable | Description | Default |\n| --- | --- | --- |\n"
    return head + "".join(f"| `{r}` | x | `1` |\n" for r in rows)


def test_a_settings_class_beside_a_config_needs_three_documented_variables(tmp_path) -> None:
    files = {"app/config.py": _CONFIG, "app/settings.py": _SETTINGS, "docs/config.md": _CONFIG_DOC}
    page = _settings_doc("APP_TOKEN", "APP_PORT", "APP_WORKERS", "APP_TIMEOUT", "OTHER_TOOL_HOME")
    analysis, findings = check_project(tmp_path / "a", {**files, "docs/env.md": page}, "app")
    settings = _surfaces(analysis)["settings"]
    assert settings.schema.model == "Settings"
    found = by_key(findings)
    assert found[("CD102", "APP_TIMEOUT")].surface == "settings"
    # Not the settings' prefix: another program's variable is not judged.
    assert ("CD102", "OTHER_TOOL_HOME") not in found
    assert found[("CD103", "region")].surface == "settings"
    assert found[("CD104", "APP_PORT")].surface == "settings"

    page = _settings_doc("APP_TOKEN", "APP_PORT")
    analysis, findings = check_project(tmp_path / "b", {**files, "docs/env.md": page}, "app")
    assert [s.surface for s in analysis.everything] == ["config"]
    assert not any(f.key.startswith("APP_") or f.key == "region" for f in findings)


_CATALOG = """
from dataclasses import dataclass

import yaml


@dataclass
class Catalog:
    currency: str = "EUR"
    tax: float = 0.2
    columns: int = 3
    stock: bool = True


def load(path):
    with open(path) as fh:
        return Catalog(**yaml.safe_load(fh))


def show(catalog: Catalog):
    return catalog.currency, catalog.tax, catalog.columns, catalog.stock
"""


def test_a_model_built_from_a_loaded_file_is_a_surface_when_documented(tmp_path) -> None:
    doc = (
        "# Catalog\n\n- `currency`: the currency.\n- `tax`: the tax.\n- `columns`: columns.\n\n"
        "```yaml\ncurrency: EUR\ntaxx: 0.2\ncolumns: 3\nstock: true\n```\n"
    )
    files = {"app/config.py": _CONFIG, "app/catalog.py": _CATALOG, "docs/config.md": _CONFIG_DOC}
    analysis, findings = check_project(tmp_path / "a", {**files, "docs/catalog.md": doc}, "app")
    assert "Catalog" in _surfaces(analysis)
    found = by_key(findings)
    assert found[("CD301", "taxx")].surface == "Catalog"
    assert found[("CD103", "stock")].surface == "Catalog"

    # No page documents it: not a surface, and nothing is said about it.
    analysis, findings = check_project(tmp_path / "b", files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]
    assert not any(f.key in ("stock", "currency") for f in findings)


def test_a_second_key_column_spells_the_same_key() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        b"# Options\n\n| CLI option | ENV | Default |\n| --- | --- | --- |\n"
        b"| `--port` | `APP_PORT` | `80` |\n|  | `APP_TOKEN` | |\n"
        b"\n| Key | Description |\n| --- | --- |\n| `name` | `NOT_A_KEY` |\n"
    )
    entries = {(e.name, e.default) for e in extract_markdown(page).entries}
    assert entries == {
        ("--port", "`80`"),
        ("APP_PORT", "`80`"),
        ("APP_TOKEN", None),
        ("name", None),
    }


def test_an_option_two_commands_default_differently_has_no_one_default(tmp_path) -> None:
    code = """
    import click


    @click.command()
    @click.option("--ui", default=True)
    @click.option("--port", default=80)
    @click.option("--host", default="a")
    def dev(ui, port, host):
        print(ui, port, host)


    @click.command()
    @click.option("--ui", default=False)
    @click.option("--port", default=80)
    def run(ui, port):
        print(ui, port)
    """
    doc = "# CLI\n\n| Option | Default |\n| --- | --- |\n| `--ui` | `false` |\n| `--port` | `81` |\n| `--host` | `a` |\n"
    _, findings = check_project(tmp_path, {"app/cli.py": code, "docs/cli.md": doc}, "app")
    found = by_key(findings)
    assert ("CD104", "--ui") not in found
    assert ("CD104", "--port") in found


def test_json_names_each_finding_s_surface_and_counts_keys_per_surface() -> None:
    result = run_cli("check", str(FIXTURES / "surfaces"), "--format", "json", "--jobs", "1")
    document = json.loads(result.out)
    by_code = {(f["code"], f["key"]): f["surface"] for f in document["findings"]}
    assert by_code[("CD101", "SHOP_CACHE_TTL")] == "settings"
    assert by_code[("CD301", "tax_rte")] == "CatalogConfig"
    assert by_code[("CD102", "tool.shop.banner")] == "config"
    surfaces = document["summary"]["surfaces"]
    assert [s["name"] for s in surfaces] == ["config", "CatalogConfig", "settings", "cli"]
    keys = document["summary"]["keys"]
    for kind in ("documented", "accepted", "read"):
        assert keys[kind] == sum(s["keys"][kind] for s in surfaces)


def test_map_lists_each_surface_with_its_evidence_and_pages() -> None:
    result = run_cli("map", str(FIXTURES / "surfaces"), "--jobs", "1")
    head = result.out.split("\n\n", 1)[0].splitlines()
    assert head[0].startswith("Surfaces")
    assert any(
        line.startswith("  settings: Settings; the project's one settings class")
        and line.endswith("docs/settings.md")
        for line in head
    )
    assert any(line.startswith("  cli: the argument parser; 4 options") for line in head)
    assert "Config tree of CatalogConfig" in result.out
    # A model that is a surface is no longer offered as a root to mount.
    assert "Models built from a whole dict" not in result.out


def _configured(tmp_path, surfaces: str):
    import shutil

    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "surfaces", root)
    (root / "configdrift.toml").write_text(surfaces, encoding="utf-8")
    return run_cli("check", str(root), "--format", "json", "--jobs", "1", "--no-cache")


def test_configured_surfaces_keep_discovery_of_the_others_unless_turned_off(tmp_path) -> None:
    named = (
        "[surfaces]\n"
        'catalog = {mount = "shop.catalog:CatalogConfig", docs = ["docs/catalog.md"]}\n'
        'flags = "cli"\n'
    )
    document = json.loads(_configured(tmp_path / "on", named).out)
    names = [s["name"] for s in document["summary"]["surfaces"]]
    assert names[:3] == ["config", "catalog", "flags"] and "settings" in names
    found = {(f["code"], f["key"]): f["surface"] for f in document["findings"]}
    assert found[("CD301", "tax_rte")] == "catalog"
    assert any(key.startswith("SHOP_") for _, key in found)  # the discovered settings'
    document = json.loads(_configured(tmp_path / "off", "discover = false\n\n" + named).out)
    names = [s["name"] for s in document["summary"]["surfaces"]]
    assert names == ["config", "catalog", "flags"]  # no settings: discovery is off
    found = {(f["code"], f["key"]): f["surface"] for f in document["findings"]}
    assert found[("CD301", "tax_rte")] == "catalog"
    assert not any(key.startswith("SHOP_") for _, key in found)


def test_a_configured_surface_page_that_matches_nothing_is_cd501(tmp_path) -> None:
    result = _configured(tmp_path, '[surfaces]\nflags = {mount = "cli", docs = ["docs/none.md"]}\n')
    document = json.loads(result.out)
    assert any(f["code"] == "CD501" and f["path"] == "docs/none.md" for f in document["findings"])


def test_a_configured_surface_that_names_nothing_is_a_configuration_error(tmp_path) -> None:
    cases = (
        (
            '[surfaces]\nx = "shop.catalog:nothing"\n',
            "defines no 'nothing'",
        ),
        ('[surfaces]\nx = "shop.catalog:price"\n', "is not a model"),
        ('[surfaces]\nx = "everything"\n', "must be 'package.module:Name'"),
        (
            '[surfaces]\nx = {mount = "cli", pages = []}\n',
            "a table of `mount`, `docs`, `open` and `under`",
        ),
    )
    for index, (text, why) in enumerate(cases):
        result = _configured(tmp_path / str(index), text)
        assert result.code == 2 and why in result.err, (text, result.err)


def test_init_writes_the_surfaces_it_found_and_the_check_agrees(tmp_path) -> None:
    import shutil

    root = tmp_path / "shop"
    shutil.copytree(FIXTURES / "surfaces", root)
    before = run_cli("check", str(root), "--jobs", "1", "--no-cache").out
    assert run_cli("init", str(root)).code == 0
    where = root / "pyproject.toml"
    written = (where if where.exists() else root / "configdrift.toml").read_text(encoding="utf-8")
    # Each surface as discovery found it, with its own target in a comment.
    assert 'settings = {mount = "discovered", docs = ["docs/settings.md"]}' in written
    assert 'its own target: mount = "shop.settings:Settings"' in written
    assert 'cli = {mount = "discovered", docs = ["docs/cli.md"]}' in written
    assert 'its own target: mount = "cli"' in written
    assert "# the project's one settings class" in written
    assert run_cli("check", str(root), "--jobs", "1", "--no-cache").out == before


_AUTODOC_PAGES = [
    "# Configuration\n\n::: app.config.Config\n",
    "# Configuration\n\n[[autodoc]] config.Config\n",
]


@pytest.mark.parametrize("page", _AUTODOC_PAGES, ids=["mkdocstrings", "hf-doc-builder"])
def test_mkdocstrings_autodoc_documents_a_model(tmp_path, page) -> None:
    code = """
    from pydantic import Field
    from pydantic_settings import BaseSettings


    class Config(BaseSettings):
        host: str = "localhost"
        \"\"\"The address to bind.\"\"\"
        port: int = Field(8000, description="The port.")
        workers: int = 1


    config = Config()
    """
    analysis, findings = check_project(
        tmp_path / "a", {"app/config.py": code, "docs/configuration.md": page}, "app"
    )
    assert analysis.autodoc == {"Config"}
    assert not any(f.code == "CD501" for f in findings)
    # Rendered from the code: documented where the code describes the field.
    undocumented = [f for f in findings if f.code == "CD103"]
    assert [f.key for f in undocumented] == ["workers"]
    assert "has no description" in undocumented[0].message
    # Without the page nothing documents it: the health message stays.
    _, findings = check_project(tmp_path / "b", {"app/config.py": code}, "app")
    assert any(f.code == "CD501" for f in findings)


def test_two_settings_classes_are_two_surfaces(tmp_path) -> None:
    code = """
    from pydantic_settings import BaseSettings, SettingsConfigDict


    class AppSettings(BaseSettings):
        model_config = SettingsConfigDict(env_prefix="APP_")
        name: str = "app"
        debug: bool = False
        token: str = ""


    class ServerSettings(BaseSettings):
        model_config = SettingsConfigDict(env_prefix="SERVER_")
        host: str = "0.0.0.0"
        port: int = 5001
        workers: int = 2
    """
    page = (
        "# Settings\n\n| Variable | Default |\n| --- | --- |\n"
        '| `APP_NAME` | `app` |\n| `APP_DEBUG` | `false` |\n| `APP_TOKEN` | `""` |\n'
        "| `SERVER_HOST` | `0.0.0.0` |\n| `SERVER_PORT` | `9999` |\n| `SERVER_WORKERS` | `2` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": code, "docs/settings.md": page}, "app"
    )
    names = [s.surface for s in analysis.everything]
    assert "AppSettings" in names and "ServerSettings" in names
    found = by_key(findings)
    assert found[("CD104", "SERVER_PORT")].surface == "ServerSettings"
    assert not any(code == "CD104" and key.startswith("APP_") for code, key in found)


def test_an_untagged_block_of_variables_is_not_a_config() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = b'# Setup\n\n```\nHOME_URL=https://example.org\nTOKEN=abc\n```\n\n```\n{"a": 1}\n```\n'
    blocks = extract_markdown(page).blocks
    assert [[k.path for k in b.keys] for b in blocks] == [[("a",)]]


def test_a_settings_field_named_in_prose_is_described(tmp_path) -> None:
    code = """
    from pydantic_settings import BaseSettings


    class Settings(BaseSettings):
        GOOGLE_API_KEY: str = ""
        OUTPUT_DIR: str = "out"
        LOG_LEVEL: str = "info"
        WORKERS: int = 2
        TIMEOUT: int = 30


    settings = Settings()
    """
    page = (
        "# Settings\n\n- `LOG_LEVEL`: how much to log.\n- `WORKERS`: processes.\n"
        "- `TIMEOUT`: seconds.\n\nYou must set GOOGLE_API_KEY to use Gemini.\n"
    )
    _, findings = check_project(tmp_path, {"app/s.py": code, "docs/s.md": page}, "app")
    undocumented = {f.key for f in findings if f.code == "CD103"}
    assert undocumented == {"OUTPUT_DIR"}


def test_a_private_key_of_a_table_of_defaults_is_no_option(tmp_path) -> None:
    """``_FALLBACK`` in a dict of defaults is the project's own, as a
    model's ``_name`` is: it is no option users set, and no doc owes it."""
    code = (
        "DEFAULT_CONFIG = {'_FALLBACK': 'html', 'ACCESS_LOG': True, 'KEEP_ALIVE': 5,\n"
        "    'TIMEOUT': 60, 'MOTD': True, 'NO_COLOR': False}\n"
    )
    docs = (
        "# Settings\n\n| Variable | Default |\n|---|---|\n| ACCESS_LOG | True |\n"
        "| KEEP_ALIVE | 5 |\n| TIMEOUT | 60 |\n| MOTD | True |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": code, "docs/settings.md": docs}, "pkg"
    )
    tables = [s for s in analysis.everything if s.surface == "DEFAULT_CONFIG"]
    assert [sorted(s.schema.children) for s in tables] == [
        ["ACCESS_LOG", "KEEP_ALIVE", "MOTD", "NO_COLOR", "TIMEOUT"]
    ]
    assert [f.key for f in findings if f.code == "CD103"] == ["NO_COLOR"]


_SETTINGS_TUPLE = (
    "import collections\n"
    "Setting = collections.namedtuple('Setting', ('name', 'default', 'help'))\n"
    "SETTINGS = (\n"
    "    Setting('page_size', 100, 'rows per page'),\n"
    "    Setting('time_limit_ms', 1000, 'query limit'),\n"
    "    Setting('cache_ttl', 5, 'seconds'),\n"
    "    Setting(\n        'allow_sql',\n        True,\n        'run SQL',\n    ),\n"
    "    Setting('base_url', '/', 'prefix'),\n"
    ")\n"
)


def test_a_tuple_of_option_calls_is_a_table(tmp_path) -> None:
    """``SETTINGS = (Setting("page_size", 100, "help"), ...)``: each call
    names its key first and its default second."""
    code = _SETTINGS_TUPLE
    docs = (
        "# Settings\n\n## `page_size`\n\nDefault: `100`\n\n## `time_limit_ms`\n\nDefault: `1000`\n\n"
        "## `cache_ttl`\n\nDefault: `365`\n\n## `allow_sql`\n\nDefault: `True`\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/app.py": code, "docs/settings.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "SETTINGS"]
    keys = table.schema.children
    assert list(keys) == ["page_size", "time_limit_ms", "cache_ttl", "allow_sql", "base_url"]
    assert keys["allow_sql"].default.value is True and keys["allow_sql"].location.line == 8
    found = by_key(findings)
    assert ("CD104", "cache_ttl") in found and ("CD103", "base_url") in found


def test_calls_of_several_callees_or_without_keys_are_no_table(tmp_path) -> None:
    mixed = "OPTIONS = [A('a', 1), B('b', 2), A('c', 3), A('d', 4), A('e', 5)]\n"
    unnamed = "OPTIONS = [A(1), A(2), A(3), A(4), A(5)]\n"
    for code in (mixed, unnamed):
        analysis, _ = check_project(tmp_path, {"pkg/app.py": code}, "pkg")
        assert [s for s in analysis.everything if s.surface == "OPTIONS"] == []


_HANDED = (
    "from conflib import Settings, Validator\n"
    "settings = Settings(\n"
    "    prefix='APP',\n"
    "    validators=[\n"
    "        Validator('PORT', default=8080),\n"
    "        Validator('HOST', default='localhost'),\n"
    "        Validator('WORKERS', default=4),\n"
    "        Validator('TIMEOUT', default=30),\n"
    "        Validator('LOG_LEVEL', default='info'),\n"
    "    ],\n"
    ")\n"
)


def test_a_table_of_option_calls_handed_to_a_call_is_a_lenient_table(tmp_path) -> None:
    """``Settings(validators=[Validator("PORT", default=8080), ...])``: the
    keys are options, each at its own line; a documented key the table lacks
    is not rejected (the settings object may take any key), only unread."""
    docs = (
        "# Settings\n\n## `PORT`\n\nDefault: `8080`\n\n## `HOST`\n\nDefault: `localhost`\n\n"
        "## `WORKERS`\n\nDefault: `8`\n\n## `RETRIES`\n\nDefault: `3`\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": _HANDED, "docs/settings.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "settings"]
    assert list(table.schema.children) == ["PORT", "HOST", "WORKERS", "TIMEOUT", "LOG_LEVEL"]
    assert table.schema.strict is False
    assert table.schema.children["WORKERS"].location.line == 7
    found = by_key(findings)
    assert ("CD104", "WORKERS") in found and ("CD103", "LOG_LEVEL") in found
    assert ("CD102", "RETRIES") in found and ("CD101", "RETRIES") not in found


def test_a_table_key_read_by_a_getter_is_read(tmp_path) -> None:
    """``settings.get("PORT")`` reads the table's ``PORT``; the key's own
    string in the table is no read, so ``HOST`` stays inert."""
    docs = "# Settings\n\n## `PORT`\n\n## `HOST`\n\n## `WORKERS`\n"
    reader = "from pkg.config import settings\n\ndef port():\n    return settings.get('PORT')\n"
    _, findings = check_project(
        tmp_path,
        {"pkg/config.py": _HANDED, "pkg/main.py": reader, "docs/settings.md": docs},
        "pkg",
    )
    found = by_key(findings)
    assert ("CD202", "PORT") not in found
    assert ("CD202", "HOST") in found and found[("CD202", "HOST")].location.line == 6


def test_an_option_call_that_says_it_is_deprecated_marks_its_key(tmp_path) -> None:
    """``Setting("cache_ttl", 5, help="Deprecated, use ...")`` and
    ``deprecated=True``: documented without a word of it, CD402."""
    code = _SETTINGS_TUPLE.replace("'seconds'", "help='DEPRECATED: use cache_seconds'").replace(
        "Setting('base_url', '/', 'prefix')", "Setting('base_url', '/', 'prefix', deprecated=True)"
    )
    docs = "# Settings\n\n## `page_size`\n\n## `time_limit_ms`\n\n## `cache_ttl`\n\n## `base_url`\n"
    analysis, findings = check_project(
        tmp_path, {"pkg/app.py": code, "docs/settings.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "SETTINGS"]
    assert table.schema.children["cache_ttl"].replacement == "cache_seconds"
    assert not table.schema.children["page_size"].deprecated
    assert {f.key for f in findings if f.code == "CD402"} == {"cache_ttl", "base_url"}


def test_map_counts_the_evidence_of_each_surface(tmp_path) -> None:
    """``map`` says how many keys a surface accepts, how many doc entries
    are placed on it and how many keys the code reads."""
    from configdrift.commands.map import project_map

    docs = "# Settings\n\n## `PORT`\n\n## `HOST`\n\n## `WORKERS`\n"
    reader = "from pkg.config import settings\n\ndef port():\n    return settings.PORT\n"
    analysis, _ = check_project(
        tmp_path,
        {"pkg/config.py": _HANDED, "pkg/main.py": reader, "docs/settings.md": docs},
        "pkg",
    )
    (surface,) = [s for s in project_map(analysis, False)["surfaces"] if s["name"] == "settings"]
    assert surface["evidence"] == {
        "keys": 5,
        "documented": 3,
        "read": 1,
        "compared": 3,
        "rendered": 0,
        "exempt": 0,
        "undocumented": 2,
    }


def test_calls_handed_to_a_call_without_defaults_are_no_table(tmp_path) -> None:
    """Routes or views handed to an app name no options: no table."""
    code = (
        "app = App(views=[View('users'), View('groups'), View('roles'), View('tokens'),\n"
        "    View('audit')])\n"
    )
    analysis, _ = check_project(tmp_path, {"pkg/app.py": code}, "pkg")
    assert [s for s in analysis.everything if s.surface == "app"] == []


_DEFAULTS = (
    "DEFAULT_CONFIG = {'ACCESS_LOG': True, 'KEEP_ALIVE': 5, 'TIMEOUT': 60, 'MOTD': True,\n"
    "    'NO_COLOR': False}\n"
)
_DEFAULTS_DOC = (
    "# Settings\n\n| Variable | Default |\n|---|---|\n| ACCESS_LOG | True |\n"
    "| KEEP_ALIVE | 5 |\n| TIMEOUT | 60 |\n| MOTD | True |\n| NO_COLOR | False |\n"
    "| REGISTER | True |\n"
)


def test_a_key_a_table_of_defaults_lacks_and_nothing_reads_is_cd102(tmp_path) -> None:
    _, findings = check_project(
        tmp_path, {"pkg/config.py": _DEFAULTS, "docs/settings.md": _DEFAULTS_DOC}, "pkg"
    )
    assert ("CD102", "REGISTER") in by_key(findings)


def test_a_key_the_code_loads_by_name_is_read(tmp_path) -> None:
    app = "def run(app):\n    if app.config.REGISTER:\n        return 1\n"
    _, findings = check_project(
        tmp_path,
        {"pkg/config.py": _DEFAULTS, "pkg/app.py": app, "docs/settings.md": _DEFAULTS_DOC},
        "pkg",
    )
    assert ("CD102", "REGISTER") not in by_key(findings)


def test_a_table_named_for_options_alone_may_be_data(tmp_path) -> None:
    """``LANG_OPTIONS[language]`` looks a value up: a documented word it
    lacks is no setting set to no effect."""
    table = _DEFAULTS.replace("DEFAULT_CONFIG", "LANG_OPTIONS")
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": table, "docs/settings.md": _DEFAULTS_DOC}, "pkg"
    )
    assert [s.schema.strict for s in analysis.everything if s.surface == "LANG_OPTIONS"] == [None]
    assert ("CD102", "REGISTER") not in by_key(findings)


def test_a_table_of_option_calls_takes_the_default_from_its_parameter(tmp_path) -> None:
    """``ConfigItem(description, default)``: the default is the parameter
    named so, not the first; the table may be an annotated class attribute."""
    code = (
        "import dataclasses\nfrom typing import Any, ClassVar\n\n"
        "@dataclasses.dataclass\nclass ConfigItem:\n    description: str\n"
        "    default: Any = None\n    env_var: str | None = None\n\n"
        "class Config:\n    _config_map: ClassVar[dict[str, ConfigItem]] = {\n"
        "        'cache_dir': ConfigItem('Where caches live', '/tmp/cache'),\n"
        "        'check_update': ConfigItem('Check for updates', True),\n"
        "        'log_dir': ConfigItem('Where logs go', '/tmp/logs'),\n"
        "        'retries': ConfigItem('How often', default=3),\n"
        "        'color': ConfigItem('Colour the output', env_var='X_COLOR'),\n"
        "    }\n"
    )
    docs = (
        "# Config\n\n| Key | Default |\n|---|---|\n| `cache_dir` | `/tmp/cache` |\n"
        "| `check_update` | `False` |\n| `log_dir` | `/tmp/logs` |\n| `retries` | `3` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": code, "docs/config.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "Config"]
    keys = table.schema.children
    assert keys["cache_dir"].default.value == "/tmp/cache"
    assert keys["retries"].default.value == 3 and keys["color"].default is None
    assert keys["log_dir"].location.line == 14
    found = by_key(findings)
    assert ("CD104", "check_update") in found
    assert not [key for code, key in found if code == "CD104" and key != "check_update"]


def test_a_table_of_defaults_wrapped_to_freeze_it_is_a_table(tmp_path) -> None:
    """``default_config = ImmutableDict({...})`` as a class attribute."""
    code = (
        "from werkzeug.datastructures import ImmutableDict\n\n"
        "class App:\n    default_config = ImmutableDict(\n        {\n"
        "            'DEBUG': None, 'TESTING': False, 'SECRET_KEY': None,\n"
        "            'SERVER_NAME': None, 'MAX_CONTENT_LENGTH': None,\n        }\n    )\n"
    )
    docs = (
        "# Builtin values\n\n| Variable | Default |\n|---|---|\n| `DEBUG` | `None` |\n"
        "| `TESTING` | `True` |\n| `SECRET_KEY` | `None` |\n| `SERVER_NAME` | `None` |\n"
    )
    analysis, findings = check_project(tmp_path, {"pkg/app.py": code, "docs/c.md": docs}, "pkg")
    (table,) = [s for s in analysis.everything if s.surface == "default_config"]
    assert len(table.schema.children) == 5
    found = by_key(findings)
    assert ("CD104", "TESTING") in found and ("CD103", "MAX_CONTENT_LENGTH") in found
    # A call with more than the dict (``dict(base, **extra)``) is no table.
    other = code.replace("ImmutableDict(\n        {", "merge(\n        base, {")
    analysis, _ = check_project(tmp_path, {"pkg/app.py": other, "docs/c.md": docs}, "pkg")
    assert [s for s in analysis.everything if s.surface == "default_config"] == []


def test_a_table_of_defaults_that_extends_another_is_its_own_keys(tmp_path) -> None:
    """``ImmutableDict(Base.default_config | {...})``: the literal's keys are
    the table's, and a key the base gives (``LOGGER_NAME``) is not judged
    absent."""
    code = (
        "from werkzeug.datastructures import ImmutableDict\nfrom base import Base\n\n"
        "class App(Base):\n    default_config = ImmutableDict(\n        Base.default_config\n"
        "        | {\n            'DEBUG': None, 'TESTING': False, 'SECRET_KEY': None,\n"
        "            'SERVER_NAME': None, 'MAX_CONTENT_LENGTH': None,\n        }\n    )\n"
    )
    docs = (
        "# Builtin values\n\n| Variable | Default |\n|---|---|\n| `DEBUG` | `None` |\n"
        "| `TESTING` | `True` |\n| `SECRET_KEY` | `None` |\n| `SERVER_NAME` | `None` |\n"
        "| `LOGGER_NAME` | `None` |\n"
    )
    analysis, findings = check_project(tmp_path, {"pkg/app.py": code, "docs/c.md": docs}, "pkg")
    (table,) = [s for s in analysis.everything if s.surface == "default_config"]
    assert sorted(table.schema.children) == [
        "DEBUG",
        "MAX_CONTENT_LENGTH",
        "SECRET_KEY",
        "SERVER_NAME",
        "TESTING",
    ]
    assert table.schema.strict is None
    found = by_key(findings)
    assert ("CD104", "TESTING") in found
    assert not [key for _, key in found if key == "LOGGER_NAME"]
    # Another operator over two tables (``a + b``) is no table.
    other = code.replace("        | {", "        + {")
    analysis, _ = check_project(tmp_path, {"pkg/app.py": other, "docs/c.md": docs}, "pkg")
    assert [s for s in analysis.everything if s.surface == "default_config"] == []


def test_a_table_of_defaults_with_sections_is_read_to_its_leaves(tmp_path) -> None:
    """``default_config = {"cache-dir": ..., "virtualenvs": {"create": True}}``:
    a section's keys are options, documented as ``virtualenvs.create``."""
    code = (
        "from typing import Any, ClassVar\n\n"
        "class Config:\n    default_config: ClassVar[dict[str, Any]] = {\n"
        "        'cache-dir': '/tmp/cache',\n        'data-dir': '/tmp/data',\n"
        "        'virtualenvs': {'create': True, 'in-project': None, 'prompt': '{name}'},\n"
        "        'installer': {'parallel': True, 'max-workers': None},\n"
        "        'keyring': {'enabled': True},\n    }\n"
    )
    docs = (
        "# Configuration\n\n### `cache-dir`\n\n**Default**: `/tmp/cache`\n\n"
        "### `virtualenvs.create`\n\n**Default**: `false`\n\n"
        "### `virtualenvs.in-project`\n\n**Default**: `None`\n\n"
        "### `installer.parallel`\n\n**Default**: `true`\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": code, "docs/configuration.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "default_config"]
    assert table.schema.children["virtualenvs"].children["create"].default.value is True
    found = by_key(findings)
    assert ("CD104", "virtualenvs.create") in found
    assert not any(code == "CD104" and key != "virtualenvs.create" for code, key in found)


def test_a_block_that_holds_a_table_under_its_own_name_is_an_example_of_it(tmp_path) -> None:
    """``settings: {page_size: 50}`` in a page: the keys of ``SETTINGS``
    under a key named as the table, as a config file holds them."""
    code = _SETTINGS_TUPLE
    docs = (
        "# Settings\n\n## `page_size`\n\n## `time_limit_ms`\n\n## `cache_ttl`\n\n"
        "## `allow_sql`\n\n## `base_url`\n\n"
        "```yaml\nsettings:\n  page_size: 50\n  time_limits_ms: 20\n  allow_sql: false\n"
        "  cache_ttl: 1\n```\n\n"
        "```yaml\nplugins:\n  page_size: 50\n  time_limits_ms: 20\n  allow_sql: false\n"
        "  cache_ttl: 1\n```\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/app.py": code, "docs/settings.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "SETTINGS"]
    (placed,) = table.blocks
    assert placed[1].what == "the `settings` section"
    ignored = [f for f in findings if f.code == "CD302"]
    # Only the block under the table's name: ``plugins:`` is another key's.
    assert [(f.key, f.location.line) for f in ignored] == [("time_limits_ms", 16)]


def test_a_surface_the_docs_name_is_also_documented_by_a_page_rendering_it(tmp_path) -> None:
    # Three variables written by hand, the rest on a page rendered from the
    # module: a described field is documented there, one without is not.
    settings = _SETTINGS.replace(
        '    region: str = "eu"\n',
        '    region: str = Field("eu", description="Where.")\n    zone: str = "a"\n',
    ).replace("SettingsConfigDict\n", "SettingsConfigDict\nfrom pydantic import Field\n")
    files = {
        "app/config.py": _CONFIG,
        "app/settings.py": settings,
        "docs/config.md": _CONFIG_DOC,
        "docs/env.md": _settings_doc("APP_TOKEN", "APP_PORT", "APP_WORKERS"),
        "docs/api.rst": "API\n===\n\n.. automodule:: app.settings\n   :members:\n",
    }
    analysis, findings = check_project(tmp_path, files, "app")
    settings_surface = _surfaces(analysis)["settings"]
    assert [r.path for r in settings_surface.rendering] == ["docs/api.rst"]
    undocumented = {key for code, key in by_key(findings) if code == "CD103"}
    assert "region" not in undocumented and "zone" in undocumented


def test_a_table_of_key_and_default_pairs_gives_each_key_its_default(tmp_path) -> None:
    """``config_defaults = (("workers", 1), ...)``: the second of each pair
    is the key's default, compared with the docs'."""
    code = (
        "WORKER_THREAD = 'thread'\n\nconfig_defaults = (\n    ('workers', 1),\n"
        "    ('worker_type', WORKER_THREAD),\n    ('backoff', 1.15),\n"
        "    ('health_check_interval', 10),\n    ('periodic', True),\n)\n"
    )
    docs = (
        "# Consumer options\n\n| Option | Default |\n|---|---|\n| `workers` | `1` |\n"
        "| `worker_type` | `thread` |\n| `backoff` | `1.15` |\n"
        "| `health_check_interval` | `1` |\n| `periodic` | `true` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/consumer.py": code, "docs/options.md": docs}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "config_defaults"]
    assert table.schema.children["worker_type"].default.value == "thread"
    assert {k for c, k in by_key(findings) if c == "CD104"} == {"health_check_interval"}
