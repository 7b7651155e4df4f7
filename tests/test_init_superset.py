"""``init`` is never worse than zero-config: what it writes reproduces
every comparison discovery made, so the next ``check`` finds at least
what zero-config found, and never says a page it wrote yields nothing
(CD501). On every fixture; ``bench/init_superset.py`` runs the same on
the labeled projects."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli
from helpers import APP_SECTION, DEFAULT_CONFIG_TABLE, SHARED_KEYS, make_project

CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "pyproject.toml").exists())


def _found(root: Path) -> set[tuple[str, str, str]]:
    result = run_cli("check", str(root), "--format", "json", "--no-cache", "--jobs", "1")
    assert result.code in (0, 1), result.err
    return {(f["code"], f["key"], f["path"]) for f in json.loads(result.out)["findings"]}


def _zero_config(tree: Path) -> None:
    """The fixture without its configuration."""
    pyproject = tree / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    cut = text.find("[tool.configdrift")
    pyproject.write_text(text if cut < 0 else text[:cut], encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_init_then_check_finds_what_zero_config_found(case: str, tmp_path) -> None:
    tree = tmp_path / case
    shutil.copytree(FIXTURES / case, tree)
    _zero_config(tree)
    before = _found(tree)
    written = run_cli("init", str(tree))
    assert written.code == 0, written.err
    after = _found(tree)
    assert before <= after, sorted(before - after)
    assert not any(code == "CD501" for code, _, _ in after)


_TABLE = DEFAULT_CONFIG_TABLE

_PAGE = """# Options

- `color`: colour the output. Default: `true`.
- `width`: the width. Default: `100`.
- `pager`: the pager. Default: `less`.
"""


def _table_project(tmp_path: Path, config: str = "") -> Path:
    return make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n' + config,
            "app/__init__.py": "",
            "app/options.py": _TABLE,
            "docs/options.md": _PAGE,
        },
    )


_MODEL_PAGE = (
    "# Configuration\n\n- `app.name`: the name.\n- `app.retries`: retries.\n- `app.port`: p.\n"
)


def test_a_surface_with_no_target_of_its_own_is_named_discovered(tmp_path) -> None:
    root = _table_project(tmp_path)
    # A first surface with a page of its own: init writes ``docs``, and the
    # named surface's page is evidence beside it.
    (root / "app" / "config.py").write_text(APP_SECTION, encoding="utf-8")
    (root / "docs" / "configuration.md").write_text(_MODEL_PAGE, encoding="utf-8")
    before = _found(root)
    assert ("CD104", "width", "docs/options.md") in before
    assert ("CD101", "app.port", "docs/configuration.md") in before
    shown = run_cli("init", str(root), "--stdout").out
    assert 'DEFAULT_CONFIG = {mount = "discovered", docs = ["docs/options.md"]}' in shown
    assert "# (kept as comments" not in shown
    assert '\ndocs = ["docs/configuration.md"]' in shown
    assert run_cli("init", str(root)).code == 0
    assert before <= _found(root)


def test_a_discovered_name_discovery_does_not_find_is_a_usage_error(tmp_path) -> None:
    config = '\n[tool.configdrift.surfaces]\nNOPE = {mount = "discovered"}\n'
    root = _table_project(tmp_path, config)
    result = run_cli("check", str(root), "--no-cache")
    assert result.code == 2
    assert "surfaces.NOPE: discovery finds no surface of that name (it finds: DEFAULT_CONFIG" in (
        result.err
    )


def test_naming_one_surface_keeps_discovery_of_the_others(tmp_path) -> None:
    cli = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        + "".join(f'    parser.add_argument("--{f}")\n' for f in ("alpha", "beta", "gamma"))
        + "    return parser.parse_args()\n"
    )
    page = "# Command line\n\n- `--alpha`: a.\n- `--beta`: b.\n- `--gamma`: c.\n- `--delta`: d.\n"
    config = '\n[tool.configdrift.surfaces]\nflags = {mount = "cli", docs = ["docs/cli.md"]}\n'
    root = _table_project(tmp_path, config)
    (root / "app" / "cli.py").write_text(cli, encoding="utf-8")
    (root / "docs" / "cli.md").write_text(page, encoding="utf-8")
    found = _found(root)
    assert ("CD101", "--delta", "docs/cli.md") in found  # the named surface
    assert ("CD104", "width", "docs/options.md") in found  # a discovered one
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            "[tool.configdrift.surfaces]",
            "[tool.configdrift]\ndiscover = false\n\n[tool.configdrift.surfaces]",
        ),
        encoding="utf-8",
    )
    found = _found(root)
    assert ("CD101", "--delta", "docs/cli.md") in found
    assert not any(key == "width" for _, key, _ in found)


def test_init_leaves_code_to_confirm_where_narrowing_it_would_lose_a_finding(tmp_path) -> None:
    root = _table_project(tmp_path)
    shown = run_cli("init", str(root), "--stdout").out
    assert '\ncode = ["app"]' in shown  # narrowing loses nothing here
    # A file outside the package that configdrift cannot read: narrowed to
    # the package, the next check would not say so.
    (root / "tools").mkdir()
    (root / "tools" / "broken.py").write_text("def broken(:\n", encoding="utf-8")
    assert ("CD503", "", "tools/broken.py") in _found(root)
    shown = run_cli("init", str(root), "--stdout").out
    assert '\n# code = ["app"]' in shown and '\ncode = ["app"]' not in shown
    assert run_cli("init", str(root)).code == 0
    assert ("CD503", "", "tools/broken.py") in _found(root)


def test_init_names_the_page_that_renders_the_flags_at_build_time(tmp_path) -> None:
    flags = ("alpha", "beta", "gamma", "delta")
    cli = (
        "import argparse\n\n\ndef parser():\n    p = argparse.ArgumentParser()\n"
        + "".join(f'    p.add_argument("--{f}")\n' for f in flags)
        + "    return p\n"
    )
    root = make_project(
        tmp_path / "proj",
        {
            "pyproject.toml": '[project]\nname = "app"\n',
            "app/__init__.py": "",
            "app/cli.py": cli,
            "docs/usage.md": "# Usage\n\n" + "".join(f"- `--{f}`: the {f}.\n" for f in flags[:3]),
            "docs/cli.rst": "Command line\n============\n\n.. argparse::\n   :module: app.cli\n"
            "   :func: parser\n   :prog: app\n",
        },
    )
    before = _found(root)
    assert not any(key == "--delta" for _, key, _ in before)  # rendered at build time
    shown = run_cli("init", str(root), "--stdout").out
    assert "docs/cli.rst" in shown.split("\ncode = ")[0]
    assert run_cli("init", str(root)).code == 0
    assert before <= _found(root)


def test_init_names_the_pages_whose_shared_entries_another_surface_took(tmp_path) -> None:
    # Both surfaces accept `timeout` and `retries`; the guide's section goes
    # to the first. The second knows them documented there: a configuration
    # that names its pages must name the guide too, or they read undocumented.
    from configdrift.commands.init import _pages
    from configdrift.config import Config
    from configdrift.engine import analyse

    make_project(
        tmp_path,
        {
            **SHARED_KEYS,
            "docs/configuration.md": "# Configuration\n\n- `debug`: debug mode.\n",
            "docs/guide.md": "# Guide\n\n## Timing\n\n- `timeout`: seconds.\n- `retries`: n.\n",
            "docs/payments.md": "# Payments\n\n- `currency`: the currency.\n",
        },
    )
    config = Config(
        root=tmp_path,
        docs=("docs/configuration.md", "docs/guide.md"),
        mount={"": "app.config:Config"},
        surfaces={"payments": ("app.pay:make_gateway.options", ("docs/*.md",))},
    )
    analysis = analyse(config, jobs=1, cache=False)
    (payments,) = [s for s in analysis.surfaces if s.surface == "payments"]
    assert payments.pages_elsewhere == {"docs/guide.md"}
    assert {"docs/payments.md", "docs/guide.md"} <= set(_pages(payments))
