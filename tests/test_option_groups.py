"""A click command's options declared by another library's ``@x.option``
decorator beside click's own (click-option-group's ``@optgroup.option``)
are the command's options: documenting them is no error."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import click
from click_option_group import optgroup


@click.command()
@optgroup.group("Print flags")
@optgroup.option("--print", "print_only", is_flag=True, help="print and exit")
@click.option("--host", default="127.0.0.1", help="the address")
@click.option("--port", type=int, default=8000, help="the port")
@click.option("--workers", type=int, default=1, help="processes")
def main(print_only, host, port, workers):
    return print_only, host, port, workers
"""

_PAGE = """# Command line

| Option | Description |
| --- | --- |
| `--host` | the address |
| `--port` | the port |
| `--workers` | processes |
| `--print` | print the next version and exit |
"""


def _check(tmp_path, cli: str):
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": _PAGE}
    analysis, findings = check_project(tmp_path, files, "shop")
    (surface,) = [s for s in analysis.everything if s.schema.model == "the click command"]
    flags = {s for node in surface.schema.walk() for s in node.spellings}
    return flags, by_key(findings)


def test_an_option_of_a_group_beside_clicks_own_is_the_commands(tmp_path) -> None:
    flags, found = _check(tmp_path, _CLI)
    assert {"--print", "--host"} <= flags
    assert ("CD101", "--print") not in found


def test_an_option_decorator_on_a_function_click_does_not_decorate_is_none(tmp_path) -> None:
    """``@tasks.option("--fast")`` on a function with no click option is
    another library's: not the command's."""
    cli = _CLI + (
        "\n\nfrom tasks import tasks\n\n\n"
        '@tasks.option("--fast", is_flag=True)\ndef build(fast):\n    return fast\n'
    )
    flags, _ = _check(tmp_path, cli)
    assert "--print" in flags and "--fast" not in flags
