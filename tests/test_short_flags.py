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


_MAN = """Options
=======

  -h, --help            show this help message and exit
  -s SESSIONS, --sessions SESSIONS
                        sessions to run
  -k {a,b}, --keywords {a,b}
                        select by keyword
  -k, --tags={x,y}
                        select by tag
  -j JOBS, --jobs JOBS  workers
"""


def test_help_output_read_as_a_definition_list_documents_its_flags() -> None:
    from configdrift.extract.docs.help_output import option_term
    from configdrift.extract.docs.rst import extract_rst

    assert option_term("-a {file,vuln}, --aggregate {file,vuln}") == ["-a", "--aggregate"]
    assert option_term("-l, --severity-level={all,low}") == ["-l", "--severity-level"]
    assert option_term("bandit [-h] [-r]") == []
    assert option_term("-l") == []
    facts = extract_rst(_MAN.encode())
    assert [(e.name, e.line, e.form) for e in facts.entries if e.name == "--tags"] == [
        ("--tags", 9, "help")
    ]
    # A literal term is a key's entry, read as such, not pasted help.
    literal = extract_rst(b"Options\n=======\n\n``-k, --keywords``\n    select by keyword\n")
    assert not [e for e in literal.entries if e.form == "help"]


def test_an_entry_that_gives_an_option_anothers_short_flag(tmp_path) -> None:
    files = {"tool/cli.py": _CLI, "docs/usage.rst": _MAN}
    _, findings = check_project(tmp_path, files, "tool")
    found = by_key(findings)
    finding = found["CD101", "--tags"]
    assert "`-k` to `--keywords`" in finding.message
    assert (finding.location.path, finding.location.line) == ("docs/usage.rst", 9)
    assert finding.related[0].line == 8  # where ``-k`` is declared
    # The options' own short flags are theirs.
    assert not [key for code, key in found if code == "CD101" and key != "--tags"]


def test_a_short_flag_no_option_has_gives_nothing_to_say(tmp_path) -> None:
    # Not declared at all: another rule's business, and the parser may be open.
    man = _MAN.replace("-k, --tags", "-z, --tags")
    _, findings = check_project(tmp_path, {"tool/cli.py": _CLI, "docs/usage.rst": man}, "tool")
    assert ("CD101", "--tags") not in by_key(findings)


def test_a_short_flag_in_code_names_its_option_alone(tmp_path) -> None:
    docs = _DOCS.replace("- `-t`, `--tags`: select sessions by tag.\n", "")
    assert ("CD103", "--tags") in _found(tmp_path, docs)
    # Written as code, it names the option that has it.
    assert ("CD103", "--tags") not in _found(tmp_path, docs + "\nSelect by tag with `-t`.\n")
    # Another program's command line names nothing.
    other = docs + "\n```console\n$ touch -t 2401010000 file\n```\n"
    assert ("CD103", "--tags") in _found(tmp_path, other)
    # A short flag two options have names neither.
    cli = _CLI.replace(
        "    return parser\n",
        '    sub = parser.add_argument_group("other")\n'
        '    sub.add_argument("-t", "--timeout", help="wait")\n    return parser\n',
    )
    docs += "- `--timeout`: how long to wait.\n\nSelect by tag with `-t`.\n"
    found = _found(tmp_path, docs, cli)
    assert ("CD103", "--tags") in found


def test_flags_of_several_options_on_one_line_are_no_option_group(tmp_path) -> None:
    # Two long flags: which one the short belongs to, the line does not say.
    man = _MAN.replace("  -k, --tags={x,y}", "  -j, --tags, --jobs")
    _, findings = check_project(tmp_path, {"tool/cli.py": _CLI, "docs/usage.rst": man}, "tool")
    assert not [f for f in findings if f.code == "CD101"]
    # A list item that names flags is not help output's option group.
    docs = _DOCS.replace("- `-t`, `--tags`:", "- `-k`, `--tags`:")
    assert ("CD101", "--tags") not in _found(tmp_path, docs)


def test_a_short_flag_two_options_have_is_no_other_options_for_certain(tmp_path) -> None:
    # Another command of the program gives ``-k`` to an option of its own:
    # which one the line means is not certain.
    cli = _CLI.replace(
        "    return parser\n",
        '    sub = parser.add_argument_group("other")\n'
        '    sub.add_argument("-k", "--kill", dest="kill", help="stop")\n    return parser\n',
    )
    _, findings = check_project(tmp_path, {"tool/cli.py": cli, "docs/usage.rst": _MAN}, "tool")
    assert ("CD101", "--tags") not in by_key(findings)


def test_each_short_form_of_an_option_is_named_or_said(tmp_path) -> None:
    # The option's negative spellings, given as more flags of its
    # declaration (``negative_flags=``), are its own: ``-S`` is left out
    # though its ``-s`` is named.
    cli = _CLI.replace(
        '"-s", "--sessions", help="sessions to run"',
        '"-s", "--sessions", negative_flags=("-S", "--no-sessions"), help="sessions to run"',
    )
    found = _found(tmp_path, cli=cli)
    finding = found["CD103", "-S"]
    assert "`--sessions` or `--no-sessions`" in finding.message
    assert ("CD103", "-s") not in found
    # Named too, neither is said.
    found = _found(tmp_path / "named", _DOCS + "\nSkip them with `-S`.\n", cli)
    assert ("CD103", "-S") not in found


def test_a_short_form_other_options_have_too_names_none_of_them(tmp_path) -> None:
    # ``-s`` is another program's option too: that the docs name it says
    # nothing of ``--sessions``, whose ``-S`` is then not said.
    cli = _CLI.replace(
        '"-s", "--sessions", help="sessions to run"',
        '"-s", "--sessions", negative_flags=("-S", "--no-sessions"), help="sessions to run"',
    ) + (
        "\n\ndef other_parser():\n"
        '    other = argparse.ArgumentParser(prog="other")\n'
        '    other.add_argument("-s", "--single", help="one")\n'
        "    return other\n"
    )
    assert ("CD103", "-S") not in _found(tmp_path, cli=cli)


def test_a_short_form_kept_out_of_the_help_beside_a_shown_one_is_not_owed(tmp_path) -> None:
    # ``-X/--halt`` hidden from the help beside the shown ``-x``, one
    # destination: the hidden spellings are no page's to name.
    halt = (
        '    parser.add_argument("-X", "--halt", dest="stop_on_first_error",'
        ' action="store_true", help=argparse.SUPPRESS)\n'
    )
    # And an option whose only short form is hidden counts for nothing.
    quiet = (
        '    parser.add_argument("-q", "--hush", dest="quiet", help=argparse.SUPPRESS)\n'
        '    parser.add_argument("--quiet", action="store_true", help="say less")\n'
    )
    envdir = '    parser.add_argument("--envdir", default=".tool", help="where")\n'
    cli = _CLI.replace(envdir, envdir + halt + quiet)
    found = {
        k for c, k in _found(tmp_path, _DOCS + "- `--quiet`: say less.\n", cli) if c == "CD103"
    }
    assert found == {"-x"}
