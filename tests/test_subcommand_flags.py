"""Flags a reference documents under a subcommand's heading that the
subcommand's own parser does not take (CD101, CD102)."""

from __future__ import annotations

import ast

import pytest

from configdrift.extract.python.subcommands import parser_uses
from helpers import by_key, check_project

_CLI = """
import argparse


def _add_common(p):
    p.add_argument("--verbose", action="store_true")
    _add_quiet(p)


def _add_quiet(p):
    p.add_argument("--quiet", action="store_true")


def build_parser():
    parser = argparse.ArgumentParser(prog="shop")
    subs = parser.add_subparsers(dest="command")

    p = subs.add_parser("install")
    p.add_argument("packages", nargs="*")
    p.add_argument("--editable")
    _add_common(p)

    p = subs.add_parser("update")
    p.add_argument("--dry-run", action="store_true")
    group = p.add_argument_group("output")
    group.add_argument("--outdated", action="store_true")
    _add_common(p)

    p = subs.add_parser("clean")
    p.add_argument("--dry-run", action="store_true")
    return parser


def main():
    args = build_parser().{parse}()
    print(args.command, args.packages, args.editable, args.verbose, args.quiet)
    print(args.dry_run, args.outdated)
"""

_DOCS = """
# Commands

## install

| Option | Meaning |
| --- | --- |
| `--editable` | install in place |
| `--verbose` | say more |
| `--dry-run` | show what would change |

## update

| Option | Meaning |
| --- | --- |
| `--dry-run` | show what would change |
| `--outdated` | list outdated packages |
| `--quiet` | say less |

## clean

| Option | Meaning |
| --- | --- |
| `--dry-run` | show what would go |
"""


def _run(tmp_path, cli=_CLI, docs=_DOCS, parse="parse_args"):
    files = {"shop/cli.py": cli.replace("{parse}", parse), "docs/cli.md": docs}
    return by_key(check_project(tmp_path, files, "shop")[1])


def _flagged(found) -> list[tuple[str, str]]:
    return [key for key, f in found.items() if "subcommand" in f.message]


def test_a_flag_documented_for_a_subcommand_that_lacks_it(tmp_path) -> None:
    found = _run(tmp_path)
    assert _flagged(found) == [("CD101", "--dry-run")]
    finding = found[("CD101", "--dry-run")]
    assert finding.location.line == 10  # the row under `## install`
    assert "documented for the `install` subcommand" in finding.message
    assert "`clean`, `update` take it" in finding.message
    assert "fails with 'unrecognized arguments'" in finding.message
    assert finding.related[0].line == 18  # where `install` is declared


def test_an_open_parser_makes_it_a_warning(tmp_path) -> None:
    found = _run(tmp_path, parse="parse_known_args")
    assert _flagged(found) == [("CD102", "--dry-run")]
    assert "sets nothing" in found[("CD102", "--dry-run")].message


def test_stays_quiet_where_a_helper_is_not_followed(tmp_path) -> None:
    # ``install`` hands its parser to a function of another library: its
    # options are not all known.
    cli = _CLI.replace(
        '    _add_common(p)\n\n    p = subs.add_parser("update")',
        ('    _add_common(p)\n    shtab.add_argument_to(p)\n\n    p = subs.add_parser("update")'),
    ).replace("import argparse\n", "import argparse\nimport shtab\n")
    assert _flagged(_run(tmp_path, cli=cli)) == []


def test_stays_quiet_where_an_option_is_not_shown(tmp_path) -> None:
    # ``install`` adds an option whose flags are not literals.
    cli = _CLI.replace('p.add_argument("--editable")', "p.add_argument(*EDITABLE)").replace(
        "import argparse\n", 'import argparse\nEDITABLE = ("--editable", "-e")\n'
    )
    assert _flagged(_run(tmp_path, cli=cli)) == []


def test_stays_quiet_with_parents(tmp_path) -> None:
    cli = _CLI.replace('subs.add_parser("install")', 'subs.add_parser("install", parents=[base])')
    assert _flagged(_run(tmp_path, cli=cli)) == []


def test_stays_quiet_on_a_flag_no_subcommand_has(tmp_path) -> None:
    # ``--force`` is no subcommand's: other rules judge it (here none does,
    # for the code spells it).
    cli = _CLI + '\nHINT = "retry with --force"\nFORCE = "--force"\n'
    docs = _DOCS.replace(
        "`--dry-run` | show what would change |\n\n## update",
        ("`--force` | do it anyway |\n\n## update"),
    )
    assert _flagged(_run(tmp_path, cli=cli, docs=docs, parse="parse_known_args")) == []


def test_stays_quiet_on_a_page_naming_few_subcommands(tmp_path) -> None:
    # A guide whose headings name two subcommands is no reference of them.
    docs = _DOCS.split("## clean")[0].replace("# Commands", "# Guide")
    assert _flagged(_run(tmp_path, docs=docs)) == []


def test_a_heading_may_name_the_program_or_say_command(tmp_path) -> None:
    # The table is under a heading of its own, below the subcommand's.
    docs = (
        _DOCS.replace("## install", "## shop install\n\n### Options")
        .replace("## update", "## `update` command")
        .replace("## clean", "## clean")
    )
    assert _flagged(_run(tmp_path, docs=docs)) == [("CD101", "--dry-run")]


def test_parser_uses_follow_a_reused_name() -> None:
    uses = parser_uses(ast.parse(_CLI.replace("{parse}", "parse_args")))
    assert uses.subcommands == {"install": 18, "update": 23, "clean": 29}
    tokens = sorted(set(uses.options.values()))
    assert tokens == ["@_add_common", "@_add_quiet", "clean", "install", "update"]
    assert ("install", "_add_common", 21) in uses.handed
    assert ("@_add_common", "_add_quiet", 7) in uses.handed
    # the group made of ``update``'s parser adds to it
    assert uses.options[26] == "update"
    assert uses.escaped == []


def test_a_parser_returned_or_stored_is_not_followed() -> None:
    source = (
        "def make(subs):\n"
        "    p = subs.add_parser('a')\n"
        "    registry.append(p)\n"
        "    q = subs.add_parser('b')\n"
        "    q.add_argument('--x')\n"
        "    q = other()\n"
        "    q.add_argument('--y')\n"
    )
    uses = parser_uses(ast.parse(source))
    # handed to code the rule cannot follow
    assert ("a", "registry.append", 3) in uses.handed
    assert "b" not in uses.escaped
    # ``q`` rebound to something else: its later option is no subcommand's
    assert uses.options == {5: "b"}


def test_a_parser_returned_is_not_followed() -> None:
    source = "def make(subs):\n    p = subs.add_parser('c')\n    return p\n"
    assert parser_uses(ast.parse(source)).escaped[-1:] == ["c"]


def test_help_is_every_parsers_own(tmp_path) -> None:
    # ``update`` declares ``--help`` itself; ``install`` takes it all the same.
    cli = _CLI.replace(
        'p.add_argument("--dry-run", action="store_true")\n    group',
        'p.add_argument("--dry-run", action="store_true")\n    p.add_argument("--help")\n    group',
    )
    docs = _DOCS.replace(
        "| `--verbose` | say more |", "| `--verbose` | say more |\n| `--help` | help |"
    )
    assert _flagged(_run(tmp_path, cli=cli, docs=docs)) == [("CD101", "--dry-run")]


def test_stays_quiet_where_two_programs_name_a_subcommand_alike(tmp_path) -> None:
    admin = (
        "import argparse\n"
        "def build():\n"
        "    subs = argparse.ArgumentParser().add_subparsers()\n"
        "    p = subs.add_parser('install')\n"
        "    p.add_argument('--all')\n"
        "    p = subs.add_parser('purge')\n"
        "    p.add_argument('--editable')\n"
    )
    # Which program's ``install`` the page documents is not known: neither
    # is judged (``--editable`` is only the other's ``purge``'s there).
    files = {"shop/cli.py": _CLI.replace("{parse}", "parse_args"), "shop/admin.py": admin}
    found = by_key(check_project(tmp_path, {**files, "docs/cli.md": _DOCS}, "shop")[1])
    assert _flagged(found) == []


def test_a_parser_handed_on_but_first_is_not_followed() -> None:
    source = "def make(subs):\n    p = subs.add_parser('d')\n    helper(1, p)\n"
    uses = parser_uses(ast.parse(source))
    assert "d" in uses.escaped and uses.handed == []


_CLICK = """
import click


@click.group()
def cli():
    pass


@cli.command()
@click.option("--editable")
@click.option("--verbose", is_flag=True)
@click.option("--dry-run", is_flag=True)
def install(editable, verbose, dry_run):
    print(editable, verbose, dry_run)


@cli.command()
@click.option("--dry-run", is_flag=True)
@click.option("--outdated", is_flag=True)
@click.option("--quiet", is_flag=True)
def update(dry_run, outdated, quiet):
    print(dry_run, outdated, quiet)


@cli.command()
@click.option("--dry-run", is_flag=True)
def clean(dry_run):
    print(dry_run)
"""


def test_stays_quiet_on_another_kind_of_command_line(tmp_path) -> None:
    # The page documents a click program; a script's argparse subcommands
    # of the same names are not its.
    files = {
        "shop/cli.py": _CLICK,
        "shop/dev.py": _CLI.replace("{parse}", "parse_known_args"),
        "docs/cli.md": _DOCS,
    }
    found = by_key(check_project(tmp_path, files, "shop")[1])
    assert _flagged(found) == []


_SCRIPT = '[project]\nname = "shop"\n[project.scripts]\nshop = "shop.cli:main"\n'

_RUNS = """
# Use

```console
$ shop install --dry-run requests
$ shop install requests --dry-run
$ shop update --dry-run --outd
$ shop clean -qv
$ shop install --editable src --outdated
```
"""


def _commands(tmp_path, parse="parse_args", runs=_RUNS):
    files = {
        "pyproject.toml": _SCRIPT,
        "shop/cli.py": _CLI.replace("{parse}", parse),
        "docs/use.md": runs,
    }
    found = check_project(tmp_path, files, "shop")[1]
    return [(f.code, f.key, f.location.line) for f in found if "subcommand's parser" in f.message]


def test_a_command_line_gives_a_subcommand_a_flag_it_lacks(tmp_path) -> None:
    # Only right after the subcommand's name: ``requests --dry-run`` and
    # what follows a value are not judged; ``--outd`` abbreviates ``--outdated``.
    assert _commands(tmp_path) == [("CD301", "--dry-run", 5)]


def test_an_open_parser_makes_a_command_line_a_warning(tmp_path) -> None:
    assert _commands(tmp_path, parse="parse_known_args") == [("CD302", "--dry-run", 5)]


def test_stays_quiet_on_a_command_line_of_another_program(tmp_path) -> None:
    assert _commands(tmp_path, runs=_RUNS.replace("$ shop", "$ store")) == []


def test_a_command_line_may_abbreviate_a_long_flag(tmp_path) -> None:
    # ``--edit`` is ``clean``'s, and ``install`` takes it as ``--editable``.
    runs = "```console\n$ shop install --edit src\n```\n"
    assert _commands(tmp_path, runs=runs) == []
    cli = _CLI.replace(
        'subs.add_parser("clean")', 'subs.add_parser("clean")\n    p.add_argument("--edit")'
    )
    files = {
        "pyproject.toml": _SCRIPT,
        "shop/cli.py": cli.replace("{parse}", "parse_args"),
        "docs/use.md": runs,
    }
    found = check_project(tmp_path, files, "shop")[1]
    assert not [f for f in found if "subcommand's parser" in f.message]


def test_stays_quiet_on_a_command_line_where_the_options_are_not_known(tmp_path) -> None:
    cli = _CLI.replace('subs.add_parser("install")', 'subs.add_parser("install", parents=[base])')
    files = {
        "pyproject.toml": _SCRIPT,
        "shop/cli.py": cli.replace("{parse}", "parse_args"),
        "docs/use.md": _RUNS,
    }
    found = check_project(tmp_path, files, "shop")[1]
    assert not [f for f in found if "subcommand's parser" in f.message]


_CLICK_SHOP = _CLICK.replace(
    '@click.option("--verbose", is_flag=True)\n@click.option("--dry-run", is_flag=True)\ndef install',
    '@click.option("--verbose/--quiet")\ndef install',
).replace(
    "def install(editable, verbose, dry_run):\n    print(editable, verbose, dry_run)",
    ("def install(editable, verbose):\n    print(editable, verbose)"),
)


def _click(tmp_path, cli=_CLICK_SHOP):
    files = {"shop/cli.py": cli, "docs/cli.md": _DOCS}
    return by_key(check_project(tmp_path, files, "shop")[1])


def test_a_click_subcommand_is_judged_by_its_own_options(tmp_path) -> None:
    found = _click(tmp_path)
    assert _flagged(found) == [("CD101", "--dry-run")]
    finding = found[("CD101", "--dry-run")]
    assert "documented for the `install` subcommand" in finding.message
    assert "fails with 'No such option'" in finding.message
    # ``--verbose/--quiet`` is two flags: the row of ``--verbose`` is right.
    assert ("CD101", "--verbose") not in found


def test_a_click_subcommand_named_by_its_decorator(tmp_path) -> None:
    cli = _CLICK_SHOP.replace(
        '@cli.command()\n@click.option("--editable")',
        ('@cli.command("install")\n@click.option("--editable")'),
    ).replace("def install(", "def install_cmd(")
    assert _flagged(_click(tmp_path, cli)) == [("CD101", "--dry-run")]


def test_stays_quiet_where_a_click_name_depends_on_the_version(tmp_path) -> None:
    # click 8.2 names ``install_cmd`` "install", older ones "install-cmd".
    cli = _CLICK_SHOP.replace("def install(", "def install_cmd(")
    files = {"shop/cli.py": cli, "docs/cli.md": _DOCS.replace("## install", "## install-cmd")}
    assert _flagged(by_key(check_project(tmp_path, files, "shop")[1])) == []


def test_stays_quiet_on_typer_commands(tmp_path) -> None:
    # typer's options are its functions' parameters, not decorators.
    cli = _CLICK_SHOP.replace("import click\n", "import click\nimport typer\n")
    assert _flagged(_click(tmp_path, cli)) == []


def test_stays_quiet_where_two_click_commands_share_a_name(tmp_path) -> None:
    cli = _CLICK_SHOP + '\n\n@cli.command("install")\ndef install_again():\n    pass\n'
    assert _flagged(_click(tmp_path, cli)) == []


def test_a_click_option_with_its_negation_is_two_flags(tmp_path) -> None:
    from configdrift.rules.subcommand_flags import subcommands

    analysis, _ = check_project(
        tmp_path, {"shop/cli.py": _CLICK_SHOP, "docs/cli.md": _DOCS}, "shop"
    )
    assert {"--verbose", "--quiet"} <= subcommands(analysis)["install"].flags


@pytest.mark.parametrize(
    "change",
    [
        # a decorator of the project's may add options
        (
            '@cli.command()\n@click.option("--editable")',
            '@cli.command()\n@shared\n@click.option("--editable")',
        ),
        # a command class of its own may take others
        (
            '@cli.command()\n@click.option("--editable")',
            '@cli.command(cls=Loose)\n@click.option("--editable")',
        ),
        # flags the code does not show
        ('@click.option("--editable")', "@click.option(*EDITABLE)"),
    ],
)
def test_stays_quiet_where_a_click_commands_options_are_not_all_known(tmp_path, change) -> None:
    cli = _CLICK_SHOP.replace(*change)
    assert cli != _CLICK_SHOP
    assert _flagged(_click(tmp_path, cli)) == []


def test_a_help_outputs_usage_line_names_the_subcommand(tmp_path) -> None:
    # No heading names a subcommand: the usage line of the pasted help does.
    docs = """# Reference

```console
$ shop install --help
usage: shop install [-h] [--editable EDITABLE] [--dry-run]

options:
  -h, --help           show this help message and exit
  --editable EDITABLE  install in place
  --verbose            say more
  --quiet              say less
  --dry-run            show what would change
```
"""
    found = _run(tmp_path, docs=docs)
    assert _flagged(found) == [("CD101", "--dry-run")]
    assert "documented for the `install` subcommand" in found[("CD101", "--dry-run")].message


def test_stays_quiet_on_a_click_group_of_subcommands(tmp_path) -> None:
    # ``install`` is a group: the flags under its name may be its own
    # subcommands' (``shop install local --dry-run``).
    cli = _CLICK_SHOP.replace(
        '@cli.command()\n@click.option("--editable")', ('@cli.group()\n@click.option("--editable")')
    )
    assert cli != _CLICK_SHOP
    assert _flagged(_click(tmp_path, cli)) == []


def test_a_subcommand_with_subcommands_of_its_own_is_not_followed() -> None:
    source = "def make(subs):\n    p = subs.add_parser('remote')\n    inner = p.add_subparsers()\n"
    assert "remote" in parser_uses(ast.parse(source)).escaped
