"""CD103 for a short flag no page names, where the docs name the short
forms of most options that have one (their own convention), and the
option's long form is described."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import argparse


def build_parser():
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("-s", "--sessions", help="sessions to run")
    parser.add_argument("-k", "--keywords", help="select by keyword")
    parser.add_argument("-t", "--tags", help="select by tag")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="workers")
    parser.add_argument("-x", "--stop-on-first-error", action="store_true", help="stop")
    parser.add_argument("--envdir", default=".tool", help="where")
    return parser


def main():
    args = build_parser().parse_args()
    print(args.sessions, args.keywords, args.tags, args.jobs, args.stop_on_first_error)
    print(args.envdir)
"""

_DOCS = """# Usage

- `-s`, `--sessions`: the sessions to run.
- `-k`, `--keywords`: select sessions by keyword.
- `-t`, `--tags`: select sessions by tag.
- `-j`, `--jobs`: how many run at once.
- `--stop-on-first-error`: stop at the first failure.
- `--envdir`: where environments go.
"""


def _found(tmp_path, docs: str = _DOCS, cli: str = _CLI) -> dict:
    _, findings = check_project(tmp_path, {"tool/cli.py": cli, "docs/usage.md": docs}, "tool")
    return by_key(findings)


def test_a_short_form_the_docs_leave_out_where_they_name_the_others(tmp_path) -> None:
    found = _found(tmp_path)
    finding = found["CD103", "-x"]
    assert "`--stop-on-first-error`" in finding.message
    assert "4 of the 5 options" in finding.message
    assert (finding.location.path, finding.location.line) == ("tool/cli.py", 11)
    # Named anywhere, it is told of.
    found = _found(tmp_path, _DOCS + "\nStop early with `-x`.\n")
    assert ("CD103", "-x") not in found


def test_a_short_form_given_to_the_program_is_named(tmp_path) -> None:
    found = _found(tmp_path, _DOCS + "\n```console\n$ tool -x -s lint\n```\n")
    assert ("CD103", "-x") not in found


def test_docs_that_name_few_short_forms_have_no_convention(tmp_path) -> None:
    docs = _DOCS.replace("`-k`, ", "").replace("`-t`, ", "")
    assert ("CD103", "-x") not in _found(tmp_path, docs)


def test_an_option_with_only_a_short_form_makes_no_part_of_the_convention(tmp_path) -> None:
    cli = _CLI.replace(
        "    return parser\n",
        '    parser.add_argument("-R", action="store_true", help="reuse")\n    return parser\n',
    )
    found = _found(tmp_path, _DOCS + "- `-R`: reuse.\n", cli)
    assert "4 of the 5 options" in found["CD103", "-x"].message


def test_a_reference_generated_from_the_parser_says_it_all(tmp_path) -> None:
    files = {"tool/cli.py": _CLI, "docs/usage.md": _DOCS}
    files["docs/reference.rst"] = (
        "CLI\n===\n\n.. argparse::\n   :module: tool.cli\n   :func: build_parser\n"
    )
    _, findings = check_project(tmp_path, files, "tool")
    assert ("CD103", "-x") not in by_key(findings)


def test_an_undocumented_option_is_said_once_of_its_long_form(tmp_path) -> None:
    docs = _DOCS.replace("- `--stop-on-first-error`: stop at the first failure.\n", "")
    found = _found(tmp_path, docs)
    assert ("CD103", "--stop-on-first-error") in found
    assert ("CD103", "-x") not in found


def test_a_long_form_named_in_prose_is_described(tmp_path) -> None:
    docs = (
        _DOCS.replace("- `--stop-on-first-error`: stop at the first failure.\n", "")
        + "\nPass `--stop-on-first-error` to stop early.\n"
    )
    found = _found(tmp_path, docs)
    assert ("CD103", "-x") in found


def test_a_hidden_option_is_not_said(tmp_path) -> None:
    cli = _CLI.replace('help="stop"', "help=argparse.SUPPRESS")
    assert ("CD103", "-x") not in _found(tmp_path, cli=cli)
