"""An option its declaration hides from the help (argparse's
``help=argparse.SUPPRESS``, click's ``hidden=True``) is not for users to
find, and one whose help opens by saying it is deprecated is on its way
out: neither is undocumented (CD103). An option whose help only mentions
a deprecated one still is."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--debug-dump", action="store_true", help=HELP)
    return parser.parse_args(argv)
"""

_CLICK = """
import click


@click.command()
@click.option("--host", default="127.0.0.1", help="the address")
@click.option("--port", type=int, default=8000, help="the port")
@click.option("--workers", type=int, default=1, help="processes")
@click.option("--debug-dump", is_flag=True, hidden=HIDDEN, help="dump state")
def main(host, port, workers, debug_dump):
    return host, port, workers, debug_dump
"""

_PAGE = """# Command line

| Option | Description |
| --- | --- |
| `--host` | the address |
| `--port` | the port |
| `--workers` | processes |
"""


def _undocumented(tmp_path, cli: str) -> set[str]:
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": _PAGE}
    _, findings = check_project(tmp_path, files, "shop")
    return {k for c, k in by_key(findings) if c == "CD103"}


@pytest.mark.parametrize(
    "help_",
    ["argparse.SUPPRESS", '"Deprecated: use --dump instead"', '"(deprecated) dump state"'],
)
def test_a_hidden_or_deprecated_option_is_not_undocumented(tmp_path, help_) -> None:
    assert _undocumented(tmp_path, _CLI.replace("HELP", help_)) == set()


def test_an_option_whose_help_mentions_a_deprecated_one_is_undocumented(tmp_path) -> None:
    cli = _CLI.replace("HELP", '"dump state; replaces the deprecated --dump"')
    assert _undocumented(tmp_path, cli) == {"--debug-dump"}


def test_a_click_option_hidden_from_the_help_is_not_undocumented(tmp_path) -> None:
    assert _undocumented(tmp_path, _CLICK.replace("HIDDEN", "True")) == set()
    assert _undocumented(tmp_path / "shown", _CLICK.replace("HIDDEN", "False")) == {"--debug-dump"}
    deprecated = _CLICK.replace("HIDDEN", "False").replace('"dump state"', '"Deprecated."')
    assert _undocumented(tmp_path / "deprecated", deprecated) == set()
