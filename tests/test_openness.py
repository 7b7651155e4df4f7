"""A mount or a named surface says whether unknown keys are an error
(``open = false``) or silently ignored (``open = true``), and the
consequence each finding states follows it."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from helpers import make_project

_CODE = {
    "app/__init__.py": "",
    "app/config.py": """\
DEFAULTS = {
    "host": "localhost",
    "port": 8080,
    "workers": 1,
}


def settings(user: dict) -> dict:
    merged = dict(DEFAULTS)
    merged.update(user)
    return merged
""",
    "app/pay.py": """\
def make_gateway(options: dict):
    retries = options.get("retries", 3)
    region = options.get("region", "eu")
    return retries, region
""",
    "docs/configuration.md": """\
# Configuration

- `host`: the host. Default: `localhost`.
- `port`: the port. Default: `8080`.
- `workers`: the workers. Default: `1`.
- `timeout`: seconds to wait. Default: `30`.
""",
    "docs/payments.md": """\
# Payments

- `retries`: how often. Default: `3`.
- `region`: where. Default: `eu`.
- `currency`: the currency.
""",
}


def _findings(tmp_path, configuration: str) -> dict[str, dict]:
    root = make_project(
        tmp_path / "proj",
        {
            **_CODE,
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n' + configuration,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    assert result.code in (0, 1), result.err
    return {f["key"]: f for f in json.loads(result.out)["findings"]}


def test_a_mounted_dict_is_strict_unless_it_says_it_is_open(tmp_path) -> None:
    strict = _findings(tmp_path / "a", '[tool.configdrift.mount]\n"" = "app.config:DEFAULTS"\n')
    assert strict["timeout"]["code"] == "CD101"
    opened = _findings(
        tmp_path / "b",
        '[tool.configdrift.mount]\n"" = {target = "app.config:DEFAULTS", open = true}\n',
    )
    assert opened["timeout"]["code"] == "CD102"
    assert "silently ignored" in opened["timeout"]["message"]


_SURFACE = (
    '[tool.configdrift.mount]\n"" = "app.config:DEFAULTS"\n\n'
    "[tool.configdrift.surfaces]\n"
    'payments = {mount = "app.pay:make_gateway.options", docs = ["docs/payments.md"]%s}\n'
)


def test_a_surface_that_says_it_is_not_open_rejects_unknown_keys(tmp_path) -> None:
    lenient = _findings(tmp_path / "a", _SURFACE % "")
    assert lenient["currency"]["code"] == "CD102"
    closed = _findings(tmp_path / "b", _SURFACE % ", open = false")
    currency = closed["currency"]
    assert currency["code"] == "CD101"
    # the configuration is named as what forbids it, at its line
    (said,) = [r for r in currency["related"] if "open = false" in r["note"]]
    assert said["path"].endswith("pyproject.toml")
    assert said["line"] == 8
    assert "extra=" not in said["note"]


def test_map_shows_the_strictness_the_configuration_gives(tmp_path) -> None:
    root = make_project(
        tmp_path / "proj",
        {
            **_CODE,
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n'
            '[tool.configdrift.mount]\n"" = {target = "app.config:DEFAULTS", open = true}\n',
        },
    )
    out = run_cli("map", str(root), "--format", "json", "--no-cache").out
    (project,) = json.loads(out)["projects"]
    assert project["surfaces"][0]["root"]["strict"] == "lenient"
    text = run_cli("map", str(root), "--no-cache").out
    assert "(top level) -> DEFAULTS [lenient]" in text


@pytest.mark.parametrize(
    ("configuration", "said"),
    [
        ('[tool.configdrift.mount]\n"" = {target = "app.config:DEFAULTS", open = "yes"}\n', "open"),
        (
            '[tool.configdrift.mount]\n"" = {target = "app.config:DEFAULTS", strict = true}\n',
            "open",
        ),
        ('[tool.configdrift.mount]\n"" = {open = true}\n', "target"),
        (
            "[tool.configdrift.surfaces]\n"
            'payments = {mount = "app.pay:make_gateway.options", open = 1}\n',
            "open",
        ),
    ],
)
def test_a_malformed_open_is_a_usage_error(tmp_path, configuration: str, said: str) -> None:
    root = make_project(tmp_path / "proj", {**_CODE, "pyproject.toml": configuration})
    result = run_cli("check", str(root), "--no-cache")
    assert result.code == 2
    assert said in result.err
