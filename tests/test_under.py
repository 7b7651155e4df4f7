"""A surface the docs write under a config path (``under = "extractor.*"``,
``tool.mytool``): its keys are compared there; a ``*`` in a documented key
stands for any key, and where the schema does not hold one there, nothing
is said of the key."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from helpers import DEFAULT_CONFIG_TABLE, make_project

_CODE = """\
from pydantic import BaseModel, ConfigDict


class AppConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = "app"
    extractor: dict[str, dict] = {}


class Extractor(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str | None = None
    retries: int = 4
    sleep: float = 0.0


def load(raw: dict) -> AppConfig:
    return AppConfig(**raw)


def extractor_for(category: str, raw: dict) -> Extractor:
    return Extractor(**raw["extractor"][category])
"""

_MAIN_PAGE = """\
# Configuration

- `name`: the name. Default: `app`.
- `extractor`: options per extractor, on the extractor page.
"""

_EXTRACTOR_PAGE = """\
# Extractor options

- `extractor.*.username`: the user name.
- `extractor.*.retries`: how often to retry. Default: `5`.
- `extractor.*.sleep`: seconds between requests. Default: `0.0`.
- `extractor.*.proxy`: a proxy URL.
"""


def _findings(tmp_path, configuration: str) -> tuple[int, set[tuple[str, str, str]], str]:
    root = make_project(
        tmp_path / "proj",
        {
            "app/__init__.py": "",
            "app/config.py": _CODE,
            "docs/configuration.md": _MAIN_PAGE,
            "docs/extractors.md": _EXTRACTOR_PAGE,
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/configuration.md"]\n\n'
            '[tool.configdrift.mount]\n"" = "app.config:AppConfig"\n\n' + configuration,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    if result.code == 2:
        return 2, set(), result.err
    found = {(f["code"], f["key"], f["surface"]) for f in json.loads(result.out)["findings"]}
    return result.code, found, result.err


_SURFACE = (
    "[tool.configdrift.surfaces]\n"
    'extractor = {mount = "app.config:Extractor", docs = ["docs/extractors.md"]%s}\n'
)


def test_a_surface_under_a_pattern_is_compared_there(tmp_path) -> None:
    code, found, err = _findings(tmp_path, _SURFACE % ', under = "extractor.*"')
    assert code != 2, err
    assert ("CD104", "extractor.*.retries", "extractor") in found
    assert ("CD101", "extractor.*.proxy", "extractor") in found
    assert not {f for f in found if f[0] == "CD103" and f[2] == "extractor"}


def test_without_under_its_keys_are_not_placed_and_nothing_is_said_of_the_pattern(
    tmp_path,
) -> None:
    code, found, err = _findings(tmp_path, _SURFACE % "")
    assert code != 2, err
    # the page's keys sit under a path the surface is not set under: no
    # CD101 for `extractor`, but its keys are not documented either
    assert not {f for f in found if f[0] in ("CD101", "CD102")}
    assert ("CD103", "retries", "extractor") in found


def test_the_main_surface_mounts_a_model_under_a_pattern(tmp_path) -> None:
    root = make_project(
        tmp_path / "main",
        {
            "app/__init__.py": "",
            "app/config.py": _CODE,
            "docs/configuration.md": _MAIN_PAGE,
            "docs/extractors.md": _EXTRACTOR_PAGE,
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n'
            '[tool.configdrift.mount]\n"" = "app.config:AppConfig"\n'
            '"extractor.*" = "app.config:Extractor"\n',
        },
    )
    out = run_cli("check", str(root), "--format", "json", "--no-cache").out
    found = {(f["code"], f["key"]) for f in json.loads(out)["findings"]}
    assert ("CD104", "extractor.*.retries") in found
    assert ("CD101", "extractor.*.proxy") in found


_NAMED = """\
from pydantic import BaseModel, ConfigDict


class Site(BaseModel):
    model_config = ConfigDict(extra="forbid")
    retries: int = 4


class Extractors(BaseModel):
    model_config = ConfigDict(extra="forbid")
    twitter: Site = Site()
    reddit: Site = Site()


class AppConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    extractor: Extractors = Extractors()


def load(raw: dict) -> AppConfig:
    return AppConfig(**raw)
"""


@pytest.mark.parametrize(("key", "reported"), [("*", False), ("twitter", True)])
def test_a_star_where_the_keys_are_named_one_by_one_is_no_key(tmp_path, key, reported) -> None:
    root = make_project(
        tmp_path / "proj",
        {
            "app/__init__.py": "",
            "app/config.py": _NAMED,
            "docs/configuration.md": "# Configuration\n\n"
            f"- `extractor.{key}.retries`: how often. Default: `4`.\n"
            f"- `extractor.{key}.proxy`: a proxy URL.\n",
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n'
            '[tool.configdrift.mount]\n"" = "app.config:AppConfig"\n',
        },
    )
    out = run_cli("check", str(root), "--format", "json", "--no-cache").out
    codes = {(f["code"], f["key"]) for f in json.loads(out)["findings"]}
    assert (("CD101", f"extractor.{key}.proxy") in codes) is reported, codes
    assert (("CD101", f"extractor.{key}") in codes) is False


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ('{mount = "cli", under = "tool.app"}', "sits under no config path"),
        ('{mount = "app.config:Extractor", under = "a..b"}', "must be a config path"),
        ('{mount = "app.config:Extractor", under = 3}', "must be a config path"),
    ],
)
def test_a_malformed_under_is_a_usage_error(tmp_path, entry: str, said: str) -> None:
    code, _, err = _findings(tmp_path, f"[tool.configdrift.surfaces]\nextractor = {entry}\n")
    assert code == 2
    assert said in err


_UI_PAGE = """# Options

- `ui.color`: colour the output. Default: `true`.
- `ui.width`: the width. Default: `100`.
- `ui.pager`: the pager. Default: `less`.
- `ui.theme`: the theme. Default: `dark`.
"""


@pytest.mark.parametrize("under", ["", ', under = "ui"'])
def test_a_discovered_surface_sits_under_the_path_it_is_given(tmp_path, under: str) -> None:
    root = make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n\n[tool.configdrift.surfaces]\n'
            f'DEFAULT_CONFIG = {{mount = "discovered", docs = ["docs/options.md"]{under}}}\n',
            "app/__init__.py": "",
            "app/options.py": DEFAULT_CONFIG_TABLE,
            "docs/options.md": _UI_PAGE,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    assert result.code in (0, 1), result.err
    found = {(f["code"], f["key"]) for f in json.loads(result.out)["findings"]}
    assert (("CD104", "ui.width") in found) is bool(under), found
