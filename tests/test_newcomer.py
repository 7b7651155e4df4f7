"""A newcomer's project (a pydantic-settings class, a dataclass loaded
from YAML, a dict read with ``.get``, argparse flags, MkDocs pages),
followed through the README's quick start: init, map, check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers import make_project

FIXTURE = Path(__file__).parent / "fixtures" / "newcomer"


def _codes(cli, root: Path) -> list[tuple[str, str, str]]:
    result = cli("check", str(root), "--format", "json")
    return sorted((f["code"], f["key"], f["path"]) for f in json.loads(result.out)["findings"])


def test_the_quick_start_keeps_what_discovery_found(cli, tmp_path) -> None:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root)
    (root / "expected.txt").unlink()
    before = _codes(cli, root)
    assert ("CD301", "show_out_of_stok", "docs/configuration.md") in before
    assert ("CD104", "page_size", "docs/configuration.md") in before
    # 1. init writes [tool.configdrift] into the project's pyproject.toml.
    result = cli("init", str(root))
    assert result.code == 0 and "wrote" in result.out
    written = (root / "pyproject.toml").read_text()
    assert written.startswith('[project]\nname = "shop"')
    assert 'docs = ["docs/configuration.md"]' in written
    assert 'cli = {mount = "discovered", docs = ["docs/cli.md"]}' in written
    # 2. map shows the three configurations and where each section went.
    shown = cli("map", str(root)).out
    assert "  settings: Settings; the project's one settings class" in shown
    assert "'Payments' -> (top level) [Settings]: not this configuration's" in shown
    # 3. check finds the same drift, now from the written configuration.
    assert _codes(cli, root) == before


_STRICT = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "localhost"
    port: int = 80
    workers: int = 1


def load(d):
    return Server(**d)
"""


_MOUNTED = '[tool.configdrift]\ndocs = ["docs/config.md"]\n[tool.configdrift.mount]\n"" = "app.config:Server"\n'


def _server(root: Path, extra: str) -> Path:
    """A strict ``Server`` model mounted at the root, and a page that
    documents its three keys, then ``extra``."""
    page = (
        "# Configuration\n\n## Server\n\n- `host` (str): the host.\n- `port` (int): the port.\n"
        "- `workers` (int): processes.\n\n" + extra
    )
    make_project(root, {"app/__init__.py": "", "app/config.py": _STRICT, "docs/config.md": page})
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + _MOUNTED)
    return root


def _rejected(cli, root: Path) -> set[str]:
    return {key for code, key, _ in _codes(cli, root) if code == "CD101"}


def test_a_section_none_of_whose_keys_is_the_configurations_is_not_judged(cli, tmp_path) -> None:
    foreign = "## Payments\n\n- `provider` (str): who.\n- `retries` (int): how often.\n- `sandbox` (bool): test mode.\n"
    assert _codes(cli, _server(tmp_path / "a", foreign)) == []
    # With one key of the configuration's among them, the section is this
    # configuration's, and the others are drift.
    mixed = foreign + "- `port` (int): the port again.\n"
    assert _rejected(cli, _server(tmp_path / "b", mixed)) == {"provider", "retries", "sandbox"}
    # Two unknown keys are not enough to call a section another's.
    few = "## Extras\n\n- `keepalive` (bool): keep connections.\n- `backlog` (int): queue.\n"
    assert _rejected(cli, _server(tmp_path / "c", few)) == {"keepalive", "backlog"}


def test_a_misspelt_key_places_a_whole_example_but_an_unrelated_one_does_not(cli, tmp_path) -> None:
    def example(key: str) -> str:
        return f"```yaml\nhost: example.org\nport: 8080\n{key}: 4\n```\n"

    typo = _server(tmp_path / "typo", example("workrs"))
    assert ("CD301", "workrs", "docs/config.md") in _codes(cli, typo)
    # Two of three keys known and the third no near spelling: another
    # configuration's example that shares two names, not judged.
    other = _server(tmp_path / "other", example("database"))
    assert not any(code == "CD301" for code, _, _ in _codes(cli, other))
    # A near spelling whose value has another shape is no misspelling.
    shaped = _server(tmp_path / "shaped", "```yaml\nhost: a\nport: 1\nworkers_: [1, 2]\n```\n")
    assert not any(code == "CD301" for code, _, _ in _codes(cli, shaped))


def test_a_default_label_inside_a_list_item_is_read(tmp_path) -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    facts = extract_markdown(
        b"- `page_size` (int): products per page. Default: `25`.\n"
        b"- `currency` (str): the currency (default: `EUR`).\n"
        b"- `theme` (str): the theme. The default: see below.\n"
    )
    defaults = {e.name: e.default for e in facts.entries}
    assert defaults == {"page_size": "`25`", "currency": "`EUR`", "theme": None}


def _fixture_with(tmp_path: Path, table: str) -> Path:
    root = tmp_path / "shop"
    shutil.copytree(FIXTURE, root)
    (root / "expected.txt").unlink()
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + table)
    return root


def test_a_mount_that_contradicts_discovery_gets_a_note(cli, tmp_path) -> None:
    """The dataclass the code loads from its own YAML file, mounted by
    hand under ``catalog`` of the main configuration."""
    root = _fixture_with(
        tmp_path, '[tool.configdrift.mount]\n"catalog" = "shop.catalog:CatalogConfig"\n'
    )
    err = cli("check", str(root)).err
    assert (
        'note: mount "catalog" = "shop.catalog:CatalogConfig" places CatalogConfig at '
        "`catalog` of the config configuration; without it, discovery places it at the top "
        "of the CatalogConfig configuration: built from a loaded file's contents "
        "(src/shop/catalog.py:16)." in err
    )
    assert "1 example block that discovery places is left unplaced" in err


def test_a_section_sent_against_discovery_gets_a_note(cli, tmp_path) -> None:
    root = _fixture_with(
        tmp_path, '[tool.configdrift.sections]\n"docs/configuration.md#Catalog" = "payments"\n'
    )
    err = cli("check", str(root)).err
    assert (
        'note: sections "docs/configuration.md#Catalog" = "payments" sends the section at '
        "docs/configuration.md:18 to `payments`; discovery maps it to the top of CatalogConfig."
    ) in err


def test_the_configuration_init_writes_gets_no_note(cli, tmp_path) -> None:
    """Negative case: what ``init`` writes is what discovery found."""
    root = _fixture_with(tmp_path, "")
    assert cli("init", str(root)).code == 0
    assert "note:" not in cli("check", str(root)).err
