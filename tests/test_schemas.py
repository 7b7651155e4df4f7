"""The JSON Schemas configdrift ships. The report's and the map's validate
every JSON document a test gets from the command line (``conftest``);
here, the schema of ``[tool.configdrift]`` is held to what
``config.parse_table`` accepts, and ``configdrift schema`` prints them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from configdrift.config import DEFAULTS, ConfigError, parse_table
from configdrift.schemas import SCHEMA_IDS, load_schema

REPO = Path(__file__).parents[1]


def _config_validator() -> Draft202012Validator:
    schema = load_schema("config")
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_every_schema_is_a_valid_schema_with_its_id() -> None:
    for name, ident in SCHEMA_IDS.items():
        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        assert schema["$id"] == ident


def test_the_config_schema_names_every_option_with_its_default() -> None:
    properties = load_schema("config")["properties"]
    assert set(properties) == set(DEFAULTS)
    defs = load_schema("config")["$defs"]
    for name, default in DEFAULTS.items():
        spec = properties[name]
        found = spec.get(
            "default", defs.get(spec.get("$ref", "#/$defs/").rsplit("/", 1)[-1], {}).get("default")
        )
        assert found == default, name


def _tables() -> list[tuple[str, dict]]:
    """Every configuration of the repository and its tests' fixtures."""
    out = []
    for path in sorted([*REPO.glob("pyproject.toml"), *(REPO / "tests").rglob("pyproject.toml")]):
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("configdrift")
        if table is not None:
            out.append((str(path.relative_to(REPO)), table))
    for path in sorted(REPO.rglob("configdrift.toml")):
        out.append((str(path.relative_to(REPO)), tomllib.loads(path.read_text(encoding="utf-8"))))
    return out


def test_every_configuration_of_the_repository_is_valid() -> None:
    tables = _tables()
    assert len(tables) >= 5
    validator = _config_validator()
    for where, table in tables:
        errors = list(validator.iter_errors(table))
        assert not errors, f"{where}: {errors[0].message}"


@pytest.mark.parametrize(
    "table",
    [
        {"unknown-option": 1},
        {"docs": "docs/config.md"},
        {"fail-on": "sometimes"},
        {"severity": {"CD103": "loud"}},
        {"mount": {"": "no_colon"}},
        {"surfaces": {"web": "nothing"}},
        {"surfaces": {"web": {"docs": ["a.md"]}}},
        {"registrations": {"reg": {"key": 0, "other": 1}}},
        {"removed": {"old": {"why": "gone"}}},
        {"per-file-ignores": {"*.py": "CD1"}},
    ],
)
def test_what_the_loader_rejects_the_schema_rejects(table) -> None:
    with pytest.raises(ConfigError):
        parse_table(table, Path("pyproject.toml"))
    assert list(_config_validator().iter_errors(table))


def test_what_the_loader_accepts_the_schema_accepts() -> None:
    """Negative case of the above: a table of every kind of entry."""
    table = {
        "docs": ["docs/*.md"],
        "fail-on": "warning",
        "severity": {"CD103": "info"},
        "mount": {"": "pkg.config:Config"},
        "surfaces": {"cli": "cli", "web": {"mount": "pkg.web:Settings", "docs": ["web.md"]}},
        "registrations": {"register_option": {"key": 0, "default": "default"}},
        "removed": {"old": "gone", "older": {"reason": "gone", "version": "2.0"}},
        "per-file-ignores": {"tests/*": ["CD1"]},
    }
    parse_table(table, Path("pyproject.toml"))
    assert not list(_config_validator().iter_errors(table))


def test_the_schema_command_prints_each_schema(cli) -> None:
    for name, ident in SCHEMA_IDS.items():
        result = cli("schema", name)
        assert result.code == 0 and json.loads(result.out)["$id"] == ident
    assert cli("schema", "nothing").code == 2


def _surfaces_example() -> dict:
    """The TOML example of ``docs/configuration.md``'s ``surfaces`` section."""
    text = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    section = text.split("### `surfaces`", 1)[1].split("\n### ", 1)[0]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    return tomllib.loads(block)["tool"]["configdrift"]


def test_the_docs_show_every_surface_target_the_loader_and_the_schema_take() -> None:
    from configdrift.config import SURFACE_KINDS

    table = _surfaces_example()
    parse_table(table, Path("configuration.md"))  # the loader takes it whole
    _config_validator().validate(table)  # and so does the schema
    targets = {entry["mount"] for entry in table["surfaces"].values()}
    assert set(SURFACE_KINDS) <= targets
    # a model, a module-level dict and a dict parameter, each once at least
    assert len([t for t in targets if ":" in t]) >= 3
    enum = load_schema("config")["$defs"]["surface-target"]["anyOf"][1]["enum"]
    assert enum == list(SURFACE_KINDS)
    assert any("open" in entry for entry in table["surfaces"].values())
