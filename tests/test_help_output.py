"""A command's ``--help`` output pasted into a page documents its flags
(extract/docs/help_output)."""

from __future__ import annotations

from configdrift.extract.docs.help_output import help_flags
from helpers import by_key, check_project

_CLI = """
import argparse


def build_parser():
    parser = argparse.ArgumentParser(prog="tune")
    parser.add_argument("--nvme-dir", required=True, help="Where to test.")
    parser.add_argument("--sweep-config", default=None, help="The sweep.")
    parser.add_argument("--no-read", action="store_true", help="Skip reads.")
    parser.add_argument("--no-write", action="store_true", help="Skip writes.")
    parser.add_argument("--io-size", default="400M", help="How much.")
    parser.add_argument("--no-sudo", action="store_true", help="Do not flush.")
    parser.add_argument("--loops", type=int, default=1, help="Repetitions.")
    return parser


def main():
    args = build_parser().parse_args()
    print(args.nvme_dir, args.sweep_config, args.no_read, args.no_write, args.io_size)
    print(args.no_sudo, args.loops)
"""

_HELP = """
usage: tune [-h] --nvme-dir NVME_DIR [--sweep-config SWEEP_CONFIG]

options:
  -h, --help            show this help message and exit
  --nvme-dir NVME_DIR   Where to test.
  --sweep-config SWEEP_CONFIG
                        The sweep.
  --no-read             Skip reads.
  --no-write            Skip writes.
  --io-size IO_SIZE     How much.
  --flush-page-cache    Flush the page cache (needs sudo).
  --loops LOOPS         Repetitions.
"""


def _page(block: str) -> str:
    return f"# Tuning\n\nThe options of `tune`:\n\n```text\n{block.strip()}\n```\n"


def test_the_flags_of_a_help_output_and_their_lines() -> None:
    flags = help_flags(_HELP)
    assert [flag for flag, _ in flags][:3] == ["--help", "--nvme-dir", "--sweep-config"]
    lines = _HELP.splitlines()
    assert all(flag in lines[number] for flag, number in flags)


def test_a_help_output_documents_the_command_line(tmp_path) -> None:
    files = {"tool/cli.py": _CLI, "docs/tuning.md": _page(_HELP)}
    analysis, findings = check_project(tmp_path, files, "tool")
    assert analysis.schema.model_kind == "argparse"
    found = by_key(findings)
    # The page shows a flag the parser rejects, and leaves out one it has.
    rejected = found[("CD101", "--flush-page-cache")]
    assert rejected.severity.value == "error"
    assert (
        rejected.location.line
        == _page(_HELP)
        .splitlines()
        .index("  --flush-page-cache    Flush the page cache (needs sudo).")
        + 1
    )
    assert ("CD103", "--no-sudo") in found or ("CD103", "no_sudo") in found
    assert not any(key in ("--loops", "loops") for _, key in found)


def test_flag_lists_that_are_no_help_output_document_nothing() -> None:
    without_help = _HELP.replace("  -h, --help            show this help message and exit\n", "")
    few = "options:\n  -h, --help  show help\n  --loops LOOPS  Repetitions.\n"
    prose = "Run it with --nvme-dir and --help, then --loops, --gpu, --gds and --verbose.\n"
    for text in (without_help, few, prose):
        assert help_flags(text) == []


def test_another_tools_help_output_makes_no_claim(tmp_path) -> None:
    other = _HELP.replace("--nvme-dir", "--torch-dir").replace("--sweep-config", "--nproc")
    other = other.replace("--no-read", "--master-addr").replace("--no-write", "--master-port")
    files = {"tool/cli.py": _CLI, "docs/tuning.md": _page(other)}
    _, findings = check_project(tmp_path, files, "tool")
    assert not any(f.code == "CD101" for f in findings)


def test_lines_built_to_make_the_pattern_backtrack_are_no_options() -> None:
    # Each would take the pattern exponential time if it could backtrack.
    for line in (
        "            --a" + " " * 50_000 + "x",
        "  " + "--a-" * 20_000,
        "  -a " + "A" * 50_000 + ", --b",
        "  --x {" + "," * 50_000,
    ):
        assert help_flags("  -h, --help  show help\n" + line) == []


def test_the_defaults_a_help_output_states() -> None:
    from configdrift.extract.docs.help_output import help_defaults

    text = (
        "options:\n"
        "  -h, --help       show this help message and exit\n"
        "  --loops LOOPS    Repetitions. (default: 3)\n"
        "  --io-size SIZE   How much, read in\n"
        "                   blocks [default: 400M; required]\n"
        "  --sweep S        The sweep. (default: %(default)s)\n"
        "  --nvme-dir D     Where to test. [default: {default}]\n"
        "\n"
        "  (default: 9) is no option's\n"
    )
    flags = help_flags(text)
    assert help_defaults(text, flags) == {2: "3", 3: "400M"}


def test_a_default_the_help_output_states_against_the_parser(tmp_path) -> None:
    stale = _HELP.replace(
        "  --loops LOOPS         Repetitions.", "  --loops LOOPS         Repetitions. (default: 3)"
    )
    same = _HELP.replace(
        "  --loops LOOPS         Repetitions.", "  --loops LOOPS         Repetitions. (default: 1)"
    )
    rst = "Tuning\n======\n\n::\n\n" + "".join(
        f"   {line}\n" for line in stale.strip().splitlines()
    )
    for block, found, page in ((stale, True, "md"), (same, False, "md"), (rst, True, "rst")):
        text = _page(block) if page == "md" else block
        files = {"tool/cli.py": _CLI, f"docs/tuning.{page}": text}
        _, findings = check_project(tmp_path / f"{found}{page}", files, "tool")
        mismatch = [f for f in findings if f.code == "CD104"]
        assert bool(mismatch) == found
        if found:
            assert mismatch[0].key in ("--loops", "loops") and "3" in mismatch[0].message


_SCRIPTS = (
    '[project]\nname = "tool"\n\n[project.scripts]\ntune = "tool.cli:main"\n'
    'tune-diff = "tune_vendored.diff:main"\n'
)


def test_the_help_output_of_another_program_of_the_project_is_not_its_parsers(tmp_path) -> None:
    # ``tune-diff`` is installed, and its code is not read (a vendored
    # folder): its flags are not ``tune``'s, whose parser would refuse them.
    other = _HELP.replace("usage: tune ", "usage: tune-diff ")
    rst = "Tuning\n======\n\n::\n\n" + "".join(
        f"   {line}\n" for line in other.strip().splitlines()
    )
    for page, text in (("md", _page(other)), ("rst", rst)):
        files = {"tool/cli.py": _CLI, f"docs/tuning.{page}": text, "pyproject.toml": _SCRIPTS}
        _, findings = check_project(tmp_path / page, files, "tool")
        assert ("CD101", "--flush-page-cache") not in by_key(findings)
    # The program's own help output is judged; so is one of a program the
    # project does not install (``__main__.py``, as ``python -m`` names it;
    # ``tune-diff`` where no console script is it), and one that names none.
    unnamed = _HELP.replace(
        "usage: tune [-h] --nvme-dir NVME_DIR [--sweep-config SWEEP_CONFIG]", ""
    )
    main = _HELP.replace("usage: tune ", "usage: __main__.py ")
    for name, block, more in (
        ("own", _HELP, {"pyproject.toml": _SCRIPTS}),
        ("main", main, {"pyproject.toml": _SCRIPTS}),
        ("uninstalled", other, {}),
        ("unnamed", unnamed, {"pyproject.toml": _SCRIPTS}),
    ):
        files = {"tool/cli.py": _CLI, "docs/tuning.md": _page(block), **more}
        _, findings = check_project(tmp_path / name, files, "tool")
        assert ("CD101", "--flush-page-cache") in by_key(findings), name


def test_the_program_a_usage_line_names() -> None:
    from configdrift.extract.docs.help_output import usage_program

    assert usage_program("usage: tune-diff [-h]\n\noptions:\n") == "tune-diff"
    assert usage_program("Usage: /usr/bin/tune [OPTIONS]") == "tune"
    assert usage_program("  usage: python3 -m tool.cli [-h]") == "-m tool.cli"
    assert usage_program("options:\n  -h, --help  show help\n") is None
    # A subcommand's usage: the word in small letters after the program.
    assert usage_program("usage: shop install [-h]") == "shop install"
    assert usage_program("Usage: shop serve [OPTIONS] [FILES]...") == "shop serve"
    assert usage_program("Usage: shop [OPTIONS] COMMAND [ARGS]...") == "shop"
    assert usage_program("usage: shop FILE [-h]") == "shop"
    assert usage_program("usage: python -m tool.cli run [-h]") == "-m tool.cli run"


def test_another_programs_help_output_is_not_a_second_surfaces_either(tmp_path) -> None:
    # The command line beside keys a plugin registers for a file, which
    # are more: a surface of its own, placed apart.
    names = [
        f"tool_{w}" for w in ["level", "mode", "color", "depth", "speed", "width", "height", "name"]
    ]
    plugin = "def pytest_addoption(parser):\n" + "".join(
        f"    parser.addini({n!r}, help='It.')\n" for n in names
    )
    page = "# Settings\n\n| Key | Meaning |\n| --- | --- |\n" + "".join(
        f"| `{n}` | It. |\n" for n in names
    )
    other = _HELP.replace("usage: tune ", "usage: tune-diff ")
    # Another program's subcommand (``tune-diff show``) is that program's.
    shown = _HELP.replace("usage: tune ", "usage: tune-diff show ")
    cases = (("other", other, False), ("shown", shown, False), ("own", _HELP, True))
    for name, block, found in cases:
        files = {
            "tool/cli.py": _CLI,
            "tool/plugin.py": plugin,
            "docs/ini.md": page,
            "docs/tuning.md": _page(block),
            "pyproject.toml": _SCRIPTS,
        }
        analysis, findings = check_project(tmp_path / name, files, "tool")
        assert analysis.schema.model_kind == "named"
        assert (("CD101", "--flush-page-cache") in by_key(findings)) is found, name


def test_a_metavar_as_the_parser_was_given_it_is_read() -> None:
    # ``metavar="length"``: a lowercase metavar, after a space or ``=``.
    help_text = _HELP.replace("--loops LOOPS  ", "--loops count  ").replace(
        "--io-size IO_SIZE", "--io-size=size   "
    )
    flags = [flag for flag, _ in help_flags(help_text)]
    assert "--loops" in flags and "--io-size" in flags


def test_a_flag_documented_with_another_separator_sets_nothing(tmp_path) -> None:
    # The help pasted into the page writes ``--io_size``; the parser, which
    # hands unknown flags back, takes ``--io-size`` only.
    page = _page(_HELP.replace("--io-size IO_SIZE", "--io_size IO_SIZE"))
    # A word is no long flag written otherwise: ``reloops`` beside
    # ``--loops`` (their first two letters cut off alike).
    page += "\n- `reloops`: a word.\n"
    cli = _CLI.replace("parse_args()", "parse_known_args()[0]")
    _, findings = check_project(tmp_path, {"tool/cli.py": cli, "docs/tune.md": page}, "tool")
    found = by_key(findings)
    ignored = found[("CD102", "--io_size")]
    assert ignored.severity.value == "warning"
    assert "the parser takes `--io-size`" in ignored.message
    assert (ignored.related[0].path, ignored.related[0].line) == ("tool/cli.py", 11)
    # The flags written as the parser takes them are no such finding.
    said = [f.key for f in findings if "the parser takes" in f.message]
    assert said == ["--io_size"]
    # A strict parser rejects it as it rejects any unknown flag (CD101).
    _, findings = check_project(
        tmp_path / "strict", {"tool/cli.py": _CLI, "docs/tune.md": page}, "tool"
    )
    assert ("CD101", "--io_size") in by_key(findings)
    assert ("CD102", "--io_size") not in by_key(findings)
