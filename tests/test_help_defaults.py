"""An option's help text that states another default than its declaration
(CD104)."""

from __future__ import annotations

import pytest

from configdrift.rules.help_defaults import help_default
from tests.helpers import check_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="{help}",
    )
    parser.add_argument("--host", default="0.0.0.0", help="the address")
    return parser.parse_args(argv)
"""


def _help_findings(tmp_path, help_text: str, default: str = "8000") -> list:
    cli = _CLI.replace("{help}", help_text).replace("default=8000", f"default={default}")
    _, findings = check_project(tmp_path, {"shop/cli.py": cli}, "shop")
    return [f for f in findings if f.code == "CD104"]


@pytest.mark.parametrize(
    "help_text",
    ["The port (default: 8080).", "The port. Defaults to `8080`.", "The port [default: 8080]"],
)
def test_a_help_text_that_states_another_default(tmp_path, help_text) -> None:
    [finding] = _help_findings(tmp_path, help_text)
    assert finding.key == "--port"
    assert (finding.location.path, finding.location.line) == ("shop/cli.py", 7)
    assert "8080" in finding.message and "8000" in finding.message


@pytest.mark.parametrize(
    ("help_text", "default"),
    [
        # The same value, or the declared default shown by argparse itself.
        ("The port (default: 8000).", "8000"),
        ("The port. Defaults to `%(default)s`.", '"8000"'),
        # A default computed at run time, or not known statically.
        ("The port (default: 8080).", "None"),
        ("The port (default: 8080).", "int(PORT)"),
        # A statement that holds in one case only, or a word that is no value.
        ("The port. Defaults to `8080` on Windows.", "8000"),
        ("The port [default: any]", "8000"),
    ],
)
def test_a_help_text_that_agrees_or_says_nothing_certain(tmp_path, help_text, default) -> None:
    assert _help_findings(tmp_path, help_text, default) == []


def test_a_click_option_help_text(tmp_path) -> None:
    cli = (
        "import click\n\n\n"
        '@click.command()\n@click.option("--level", default="info", help="The level [default: warning]")\n'
        "def main(level):\n    pass\n"
    )
    _, findings = check_project(tmp_path, {"shop/cli.py": cli}, "shop")
    [finding] = [f for f in findings if f.code == "CD104"]
    assert (finding.key, finding.location.line) == ("--level", 5)


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("Host [default 127.0.0.1]", "127.0.0.1"),
        ("Host (default: `localhost`).", "`localhost`"),
        # Two bracketed defaults: each holds in its own case.
        ("Host [default: a] or [default: b]", None),
        ("Host [default: a] when run in a container", None),
    ],
)
def test_the_default_a_help_text_states(text, stated) -> None:
    assert help_default(text) == stated
