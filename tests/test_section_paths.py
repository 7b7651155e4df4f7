"""``sections`` names a heading by its path on the page (``page#Parent/Child``),
so that two headings with one title are told apart, and a section may
document a surface the configuration names (``{surface = ..., path = ...}``):
that surface reads it, wherever it is, and no other does."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from helpers import SHARED_KEYS, make_project

_MODEL = """\
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    workers: int = 4
    timeout: int = 30


class Client(BaseModel):
    model_config = ConfigDict(extra="forbid")
    retries: int = 3
    timeout: int = 10


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
    client: Client = Client()


def load(raw: dict) -> Config:
    return Config(**raw)
"""

#: Two sections titled "Options", whose titles say nothing of their key.
_PAGE = """\
# Configuration

## Server side

### Options

- `workers`: worker processes. Default: `4`.
- `timeout`: seconds. Default: `30`.

## Client side

### Options

- `retries`: attempts. Default: `3`.
- `timeout`: seconds. Default: `60`.
"""


def _check(tmp_path, sections: str, files: dict[str, str] | None = None) -> tuple[int, dict, str]:
    root = make_project(
        tmp_path / "proj",
        {
            "app/__init__.py": "",
            "app/config.py": _MODEL,
            "docs/configuration.md": _PAGE,
            **(files or {}),
            "pyproject.toml": '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n'
            '[tool.configdrift.mount]\n"" = "app.config:Config"\n\n' + sections,
        },
    )
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    if result.code == 2:
        return 2, {}, result.err
    found = {(f["code"], f["key"]): f for f in json.loads(result.out)["findings"]}
    return result.code, found, result.err


def test_a_heading_path_tells_two_headings_with_one_title_apart(tmp_path) -> None:
    code, found, err = _check(
        tmp_path,
        "[tool.configdrift.sections]\n"
        '"docs/configuration.md#Server side/Options" = "server"\n'
        '"docs/configuration.md#Client side/Options" = "client"\n',
    )
    assert code != 2, err
    # each section's entries on its own model: the client's timeout default differs
    assert ("CD104", "client.timeout") in found
    assert not [k for k in found if k[0] == "CD101"]
    assert ("CD104", "server.timeout") not in found


def test_a_title_alone_sends_both_headings_to_one_path(tmp_path) -> None:
    _, found, _ = _check(
        tmp_path, '[tool.configdrift.sections]\n"docs/configuration.md#Options" = "server"\n'
    )
    # the client's keys placed under the server: what the heading path avoids
    assert ("CD101", "server.retries") in found


@pytest.mark.parametrize("key", ["Server side/Options", "Configuration/Server side/Options"])
def test_any_tail_of_the_heading_path_names_it(tmp_path, key: str) -> None:
    code, found, err = _check(
        tmp_path,
        f'[tool.configdrift.sections]\n"{key}" = "server"\n'
        '"docs/configuration.md#Client side/Options" = "client"\n',
    )
    assert code != 2, err
    assert ("CD104", "client.timeout") in found


_PAY = """\
def make_gateway(options: dict):
    return options.get("currency", "EUR"), options.get("region", "eu")
"""

#: A page of the main configuration with a section of the payments' keys.
_GUIDE = """\
# Guide

## Payments

- `currency`: the currency. Default: `USD`.
- `fee`: a fee, which the gateway never reads.
"""

#: The payments' own page.
_PAYMENTS = """# Payments

- `region`: where. Default: `eu`.
"""

_SURFACE = (
    "[tool.configdrift.surfaces]\n"
    'payments = {mount = "app.pay:make_gateway.options", docs = ["docs/payments.md"]}\n\n'
)


def test_a_section_given_to_a_named_surface_is_read_there_and_only_there(tmp_path) -> None:
    files = {"app/pay.py": _PAY, "docs/guide.md": _GUIDE, "docs/payments.md": _PAYMENTS}
    code, found, err = _check(
        tmp_path / "a",
        _SURFACE
        + "[tool.configdrift.sections]\n"
        + '"docs/guide.md#Payments" = {surface = "payments", path = ""}\n',
        files,
    )
    assert code != 2, err
    # the payments surface compares the section's defaults with its own
    assert found[("CD104", "currency")]["surface"] == "payments"
    # a key of the section the gateway lacks is its own, silently ignored
    assert found[("CD102", "fee")]["surface"] == "payments"
    # and the main configuration does not take the section as its own
    assert not [k for k in found if k[0] in ("CD101", "CD501")]
    # without the entry, the section is the main configuration's, which rejects it
    _, before, _ = _check(tmp_path / "b", _SURFACE, files)
    assert ("CD104", "currency") not in before
    assert ("CD101", "currency") in before


@pytest.mark.parametrize(
    ("sections", "said"),
    [
        ('"docs/guide.md#Payments" = {surface = "payment", path = ""}\n', "did you mean"),
        ('"docs/guide.md#Payments" = {surface = 3}\n', "a table of `surface`"),
        ('"docs/guide.md#Nowhere" = {surface = "payments"}\n', "names no section"),
    ],
)
def test_a_section_entry_that_cannot_hold_is_a_usage_error(tmp_path, sections, said) -> None:
    files = {"app/pay.py": _PAY, "docs/guide.md": _GUIDE, "docs/payments.md": _PAYMENTS}
    code, _, err = _check(tmp_path, _SURFACE + "[tool.configdrift.sections]\n" + sections, files)
    assert code == 2
    assert said in err


def test_a_section_given_to_a_surface_wins_over_the_count_of_its_keys(tmp_path) -> None:
    # Both surfaces accept `timeout` and `retries`: left to discovery, the
    # section goes to the first, whose defaults differ from the page's.
    files = {
        **SHARED_KEYS,
        "docs/configuration.md": "# Configuration\n\n- `debug`: debug mode.\n",
        "docs/guide.md": (
            "# Guide\n\n## Payments\n\n- `timeout`: seconds. Default: `5`.\n"
            "- `retries`: attempts. Default: `3`.\n"
        ),
    }
    head = (
        '[tool.configdrift]\ndocs = ["docs/*.md"]\n\n'
        '[tool.configdrift.mount]\n"" = "app.config:Config"\n\n' + _SURFACE
    )
    claimed = '[tool.configdrift.sections]\n"docs/guide.md#Payments" = {surface = "payments"}\n'
    found = {}
    for name, extra in (("left", ""), ("given", claimed)):
        root = make_project(tmp_path / name, {**files, "pyproject.toml": head + extra})
        out = run_cli("check", str(root), "--format", "json", "--no-cache").out
        found[name] = {(f["code"], f["key"], f["surface"]) for f in json.loads(out)["findings"]}
    assert ("CD104", "timeout", "config") in found["left"]
    assert not {f for f in found["given"] if f[0] == "CD104"}


def test_a_page_read_for_its_named_sections_gives_no_other_entry() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.model import SchemaNode
    from configdrift.place.entries import DocPlacer

    facts = extract_markdown(
        b"# Guide\n\n## Payments\n\n- `currency`: the currency.\n\n"
        b"## Logging\n\n- `verbose`: say more.\n"
    )
    rel = "docs/guide.md"
    names = {"docs/guide.md#Payments": ""}
    whole = DocPlacer(SchemaNode(key="", path=()), names).place(rel, facts)
    assert {e.name for e in whole} == {"currency", "verbose"}
    alone = DocPlacer(SchemaNode(key="", path=()), names, frozenset(), frozenset({rel}))
    assert {e.name for e in alone.place(rel, facts)} == {"currency"}
    # and a section another surface is given is no entry here
    other = DocPlacer(SchemaNode(key="", path=()), {}, frozenset(names))
    assert {e.name for e in other.place(rel, facts)} == {"verbose"}
