"""A flag the prose writes in code on a line that names a flag of the
project's strict parser, and that no parser of the project declares, is
CD101 (```--verbose`/`--debug` flags``); never on a line that names none
of its flags, a flag declared in another spelling or begun by one
(argparse's abbreviations), one some code spells, one the line tells is
gone, a history page's, nor beside a parser that takes unknown flags."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.entry_text import code_mention
from helpers import check_project, make_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--verbose", "-v", action="store_true", help="talk")
    parser.add_argument("--output_format", default="text", help="the format")
    parser.add_argument("--max-items", type=int, default=10, help="how many")
    return parser.parse_args(argv)
"""

_PAGE = """# Command line

- `--host`: the address.
- `--port`: the port.
- `--verbose`: talk.
- `--output_format`: the format.
- `--max-items`: how many.

{line}
"""


def _prose(tmp_path, line: str, cli: str = _CLI, page: str = "docs/cli.md", **files: str) -> dict:
    base = {"shop/cli.py": cli, "docs/cli.md": _PAGE.replace("{line}", "")}
    base[page] = _PAGE.replace("{line}", line)
    _, findings = check_project(tmp_path, {**base, **files}, "shop")
    return {f.key: f for f in findings if f.code == "CD101" and f.location.path == page}


def test_a_flag_beside_the_programs_own_that_no_parser_declares(tmp_path) -> None:
    found = _prose(tmp_path, "Pass `--verbose` or `--debug` to see what it does.")
    assert set(found) == {"--debug"}
    finding = found["--debug"]
    assert (finding.location.path, finding.location.line) == ("docs/cli.md", 9)
    assert "beside `--verbose`" in finding.message
    assert "unrecognized arguments" in finding.message
    assert finding.related[0].path == "shop/cli.py"


@pytest.mark.parametrize(
    "line",
    [
        # No flag of the program on the line: another program's, maybe.
        "Pass `--debug` to see what it does.",
        # Declared with ``_`` for ``-``, or begun by the flag (``--verb``).
        "Pass `--verbose` and `--output-format json`, or `--output-format`.",
        "Pass `--verbose` and `--max_items`.",
        "Pass `--verbose` or `--verb`.",
        # The line tells the flag is gone.
        "The `--debug` flag was removed: pass `--verbose` instead.",
    ],
)
def test_a_flag_the_parser_takes_or_the_line_does_not_claim(tmp_path, line) -> None:
    assert _prose(tmp_path, line) == {}


@pytest.mark.parametrize(
    ("line", "found"),
    [
        # A kind of thing the flag qualifies, which another program makes,
        # the noun on the line or the next.
        ("No `--verbose` install in a `--no-site-packages` virtualenv.", set()),
        ("No `--verbose` install in a `--no-site-packages`\nvirtualenv.", set()),
        # The flag itself, named as one; written to be passed.
        ("Pass `--verbose`, or a `--debug` flag.", {"--debug"}),
        ("Pass `--verbose` with `--debug` installs.", {"--debug"}),
    ],
)
def test_a_flag_that_qualifies_a_noun_tells_of_a_kind_of_thing(tmp_path, line, found) -> None:
    assert set(_prose(tmp_path, line)) == found


def test_a_flag_some_code_spells_may_be_declared_where_not_followed(tmp_path) -> None:
    line = "Pass `--verbose` or `--debug` to see what it does."
    shared = 'SHARED = ["--debug"]\n'
    assert _prose(tmp_path, line, **{"shop/shared.py": shared}) == {}


def test_a_history_page_tells_of_flags_that_were(tmp_path) -> None:
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules

    line = "Pass `--verbose` or `--debug` to see what it does."
    files = {
        "shop/__init__.py": "",
        "shop/cli.py": _CLI,
        "docs/cli.md": _PAGE.replace("{line}", ""),
    }
    make_project(tmp_path, {**files, "docs/changelog.md": _PAGE.replace("{line}", line)})
    # Named by the configuration, a history page is read: its flags are
    # the past's.
    analysis = analyse(Config(root=tmp_path, docs=("docs/*.md",)), jobs=1)
    assert "docs/changelog.md" in analysis.pages_read
    assert not [f for f in run_rules(analysis) if f.key == "--debug"]


def test_a_parser_that_takes_unknown_flags_is_not_judged(tmp_path) -> None:
    cli = _CLI.replace("parser.parse_args(argv)", "parser.parse_known_args(argv)[0]")
    assert _prose(tmp_path, "Pass `--verbose` or `--debug`.", cli=cli) == {}


def test_a_long_flag_of_any_length_is_a_mention() -> None:
    assert code_mention("--debug") == "--debug"
    assert code_mention("--in-place") == "--in-place"
    # A flag with a value, or a command, is no name.
    assert code_mention("--debug 3") is None
    assert code_mention("-d") is None
