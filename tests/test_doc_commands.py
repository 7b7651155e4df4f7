"""A command line in the docs' shell blocks that runs the project's own
program with a flag its strict parser does not declare is CD301, with
both sides; never another program's command, a flag whose place is not
certain (after a second positional word, after ``--``, in a cluster of
short flags), a flag the parser takes by an abbreviation, a flag some
code spells, nor a parser that takes unknown flags."""

from __future__ import annotations

import subprocess

import pytest

from configdrift.extract.docs.commands import command_words
from helpers import by_key, check_project


def command_lines(text: str, lang: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """Each command of a block without the lines of its arguments."""
    return [(line, program, args) for line, program, args, _ in command_words(text, lang)]


_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--verbose", "-v", action="store_true", help="talk")
    parser.add_argument("--color", action="store_true", help="colors")
    parser.add_argument("target", nargs="*", help="what to serve")
    return parser.parse_args(argv)
"""

_PYPROJECT = '[project]\nname = "shop"\n\n[project.scripts]\nshop = "shop.cli:main"\n'

_PAGE = """# Command line

- `--host`: the address.
- `--port`: the port.
- `--verbose`: talk.

```console
$ shop --port 8080 --colour
```
"""


def _flags(tmp_path, page: str = _PAGE, **files: str) -> dict:
    base = {
        "shop/cli.py": _CLI,
        "shop/__main__.py": "from shop.cli import main\n\nmain()\n",
        "pyproject.toml": _PYPROJECT,
        "docs/cli.md": page,
    }
    _, findings = check_project(tmp_path, {**base, **files}, "shop")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD301"}


def test_a_flag_the_parser_lacks_is_rejected(tmp_path) -> None:
    found = _flags(tmp_path)
    assert set(found) == {"--colour"}
    finding = found["--colour"]
    assert (finding.location.path, finding.location.line) == ("docs/cli.md", 8)
    assert "unrecognized arguments" in finding.message
    assert finding.related[0].path == "shop/cli.py"
    assert finding.suggestion == "did you mean `--color`?"


@pytest.mark.parametrize(
    "line",
    [
        "$ python -m shop --colour",
        "$ DEBUG=1 shop --colour",
        "$ shop --host=0.0.0.0 --colour",
        "$ shop -v target --colour",
        # The option's value is no positional word.
        "$ shop --host 0.0.0.0 target --colour",
        # After positional words: the parser takes options anywhere.
        "$ shop serve target --colour",
        # A flag takes no value: the word after it is a positional one.
        "$ shop -v serve target --colour",
    ],
)
def test_the_program_and_the_flag_are_found_through_the_line(tmp_path, line) -> None:
    assert set(_flags(tmp_path, _PAGE.replace("$ shop --port 8080 --colour", line))) == {"--colour"}


@pytest.mark.parametrize(
    "line",
    [
        # Another program's command.
        "$ othertool --colour",
        "$ pip install shop --colour",
        # After ``--``: the arguments of what the program runs.
        "$ shop -- --colour",
        # A cluster of short flags.
        "$ shop -vc",
        # An abbreviation argparse takes (``--col`` for ``--color``).
        "$ shop --col",
        # A quote left open: where the words end is not known.
        "$ shop --port '8080 --colour",
        # A placeholder for a flag, and what follows it.
        "$ shop --<mode> --colour",
    ],
)
def test_a_flag_whose_place_or_program_is_not_certain_is_not_judged(tmp_path, line) -> None:
    assert _flags(tmp_path, _PAGE.replace("$ shop --port 8080 --colour", line)) == {}


def test_a_flag_some_code_spells_may_be_declared_there(tmp_path) -> None:
    shared = 'SHARED = ["--colour", "--profile"]\n'
    assert _flags(tmp_path, **{"shop/shared.py": shared}) == {}


def test_a_parser_that_takes_unknown_flags_rejects_nothing(tmp_path) -> None:
    cli = _CLI.replace("parser.parse_args(argv)", "parser.parse_known_args(argv)")
    assert _flags(tmp_path, **{"shop/cli.py": cli}) == {}


def test_a_parser_with_options_not_known_statically_rejects_nothing(tmp_path) -> None:
    cli = _CLI.replace(
        "    return parser.parse_args(argv)",
        "    for names in EXTRA:\n        parser.add_argument(*names)\n    return parser.parse_args(argv)",
    )
    assert _flags(tmp_path, **{"shop/cli.py": "EXTRA = []\n" + cli}) == {}


def test_a_script_of_another_package_is_not_the_projects(tmp_path) -> None:
    pyproject = _PYPROJECT.replace('"shop.cli:main"', '"othertool.cli:main"')
    page = _PAGE.replace("$ shop --port", "$ shop --port")
    found = _flags(tmp_path, page, **{"pyproject.toml": pyproject, "shop/__main__.py": ""})
    # ``python -m shop`` is still the project's; ``shop`` now is not.
    assert found == {}


def test_command_lines_of_shell_blocks() -> None:
    text = "# a comment\nexport A=1\nshop --port 1 \\\n  --host x | tee log && other -y\n"
    assert command_lines(text, "bash") == [
        (1, "export", ("A=1",)),
        (2, "shop", ("--port", "1", "--host", "x")),
        (2, "tee", ("log",)),
        (2, "other", ("-y",)),
    ]
    # A session's lines behind a prompt only: its output is no command.
    session = "$ shop --port 1\nServing on port 1\n(venv) $ sudo shop -v\n"
    assert command_lines(session, "console") == [
        (0, "shop", ("--port", "1")),
        (2, "shop", ("-v",)),
    ]
    assert command_lines("shop --port 1\n", "console") == []
    assert command_lines("shop --port 1\n", "yaml") == []


def test_a_command_substituted_into_another_is_a_command_of_its_own() -> None:
    text = "expr $(shop --count text | wc -w) / $(shop --short)\n"
    assert command_lines(text, "sh") == [
        (0, "expr", ("/",)),
        (0, "shop", ("--count", "text")),
        (0, "wc", ("-w",)),
        (0, "shop", ("--short",)),
    ]
    assert command_lines("echo $( shop --short )\n", "sh") == [
        (0, "echo", ()),
        (0, "shop", ("--short",)),
    ]
    # A value built by a substitution, or a word in brackets, stays a word.
    assert command_lines("shop --dir=$(pwd)/x (a)\n", "sh") == [
        (0, "shop", ("--dir=$(pwd)/x", "(a)"))
    ]


def test_command_lines_of_pages() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    rst = b"Usage\n=====\n\n.. code-block:: console\n\n   $ shop --colour\n"
    assert extract_rst(rst).commands == [(6, "shop", ("--colour",), (6,))]
    md = b"# Usage\n\n```bash\nshop --colour\n```\n"
    assert extract_markdown(md).commands == [(4, "shop", ("--colour",), (4,))]


def test_a_documented_flag_is_refused_only_by_a_parser_that_refuses(tmp_path) -> None:
    # An entry for a flag the parser lacks: an error where parse_args
    # refuses it; none where parse_known_args hands it back.
    page = _PAGE.replace("- `--verbose`: talk.\n", "- `--verbose`: talk.\n- `--colour`: colors.\n")
    _, findings = check_project(
        tmp_path / "a",
        {"shop/cli.py": _CLI, "docs/cli.md": page, "pyproject.toml": _PYPROJECT},
        "shop",
    )
    assert ("CD101", "--colour") in by_key(findings)
    cli = _CLI.replace("parser.parse_args(argv)", "parser.parse_known_args(argv)")
    _, findings = check_project(
        tmp_path / "b",
        {"shop/cli.py": cli, "docs/cli.md": page, "pyproject.toml": _PYPROJECT},
        "shop",
    )
    assert ("CD101", "--colour") not in by_key(findings)


_CLICK = """
import click

SETTINGS = dict(help_option_names=["-h", "--help"])


@click.command(context_settings=SETTINGS)
@click.option("--host", default="127.0.0.1", help="the address")
@click.option("--port", type=int, default=8000, help="the port")
@click.option("--verbose", "-v", is_flag=True, help="talk")
@click.option("--color", is_flag=True, help="colors")
def main(host, port, verbose, color):
    pass
"""


@pytest.mark.parametrize(
    ("settings", "rejected"),
    [
        ('dict(help_option_names=["-h", "--help"])', True),
        ('{"help_option_names": ["-h"], "ignore_unknown_options": False}', True),
        ("dict(ignore_unknown_options=True)", False),
        ('{"allow_extra_args": True}', False),
        ("make_settings()", False),  # not known statically: it may
    ],
)
def test_a_click_command_told_to_take_unknown_options_refuses_nothing(
    tmp_path, settings, rejected
) -> None:
    page = _PAGE.replace("- `--verbose`: talk.\n", "- `--verbose`: talk.\n- `--colour`: colors.\n")
    cli = _CLICK.replace('dict(help_option_names=["-h", "--help"])', settings)
    files = {"shop/cli.py": cli, "docs/cli.md": page, "pyproject.toml": _PYPROJECT}
    _, findings = check_project(tmp_path, files, "shop")
    assert (("CD101", "--colour") in by_key(findings)) is rejected


_COMMANDS = """
class Cmd:
    def __init__(self, name, usage=""):
        self.name = name
        self.usage = usage


COMMANDS = {
    "serve": Cmd("serve", "serve the shop"),
    "stock": Cmd("stock", "count the stock"),
    "order": Cmd("order", "place an order"),
    "report": Cmd("report", "print a report"),
    "help": Cmd("help", "print help"),
    "audit": Cmd("audit", "audit the books"),
}


def main(argv=None):
    return COMMANDS[argv[0]].name
"""

_COMMANDS_PAGE = """Commands
========

The shop has a number of commands:

* **serve** -- serves the shop.

* **stock** -- counts the stock.

* **order** -- places an order.

* **report** -- prints a report.

Help is available with the **help** command::

    $ shop help
    $ {report} --format=text --out report.txt --verbose
    $ shop serve
    $ {stock}
"""


_SETUP_PY = """from setuptools import setup

setup(
    name="shop",
    entry_points={"console_scripts": ["shop = shop.cmdline:main"]},
)
"""


@pytest.mark.parametrize(
    ("report", "stock", "shown"),
    [
        ("shop report", "shop stock", True),
        # Three keys of six run: half of the table.
        ("other report", "shop stock", True),
        # Two of six: a configuration whose keys a subcommand or two is
        # named like (beets' ``export`` plugin and ``beet export``).
        ("other report", "other stock", False),
    ],
)
@pytest.mark.parametrize("installed", ["pyproject", "setup.py", "plugin", "elsewhere"])
def test_a_subcommand_the_docs_run_is_shown_there(
    tmp_path, report, stock, shown, installed
) -> None:
    """A table of the program's subcommands: one a command line of the
    docs runs (``shop help``) is shown, where the command lines run half
    of its keys; one no line runs is undocumented. The program is a
    console script of ``pyproject.toml`` or of ``setup.py`` (read, never
    run)."""
    scripts = (
        '\n[project.scripts]\nshop = "shop.cmdline:main"\n' if installed == "pyproject" else ""
    )
    files = {
        "shop/cmdline.py": _COMMANDS,
        "pyproject.toml": f'[project]\nname = "shop"\n{scripts}',
        "docs/commands.rst": _COMMANDS_PAGE.format(report=report, stock=stock),
    }
    if installed == "setup.py":
        files["setup.py"] = _SETUP_PY
    elif installed == "elsewhere":
        # Another module's dict of the same shape (a release tool's) installs nothing.
        files["tools/release.py"] = _SETUP_PY
    elif installed == "plugin":
        # A plugin's entry point is no program.
        files["setup.py"] = _SETUP_PY.replace(
            '{"console_scripts": [',
            '{"console_scripts": ["shopctl = shop.admin:main"], "pytest11": [',
        )
    _, findings = check_project(tmp_path, files, "shop")
    undocumented = {k for (c, k) in by_key(findings) if c == "CD103"}
    assert "audit" in undocumented
    assert ("help" in undocumented) != (shown and installed in ("pyproject", "setup.py"))


_CHOICES = _CLI.replace(
    '    parser.add_argument("--color", action="store_true", help="colors")\n',
    '    parser.add_argument("--color", action="store_true", help="colors")\n'
    '    parser.add_argument("--mode", choices=["fast", "safe"], default="safe", help="how")\n',
)


def _invalid_values(tmp_path, line: str, cli: str = _CHOICES) -> list:
    """The CD303 findings of a page that runs ``line``, with ``cli`` the program."""
    page = _PAGE.replace("$ shop --port 8080 --colour", f"$ {line}")
    _, findings = _flags_and_all(tmp_path, page, cli)
    return [f for f in findings if f.code == "CD303"]


def _flags_and_all(tmp_path, page: str, cli: str):
    base = {
        "shop/cli.py": cli,
        "shop/__main__.py": "from shop.cli import main\n\nmain()\n",
        "pyproject.toml": _PYPROJECT,
        "docs/cli.md": page,
    }
    return check_project(tmp_path, base, "shop")


@pytest.mark.parametrize(
    ("line", "invalid"),
    [
        # A value none of the choices, after a space or an ``=``.
        ("shop --mode quick", True),
        ("shop --port 8080 --mode=quick", True),
        # One of them, a placeholder, or no value at all.
        ("shop --mode fast", False),
        ("shop --mode <mode>", False),
        ("shop --mode $MODE", False),
        # A placeholder the reader cut at its pipe: ``[fast`` of ``[fast | safe]``.
        ("shop --mode [fast | safe]", False),
        ("shop --mode", False),
        # After a flag the parser lacks, the flags are the program's still;
        # a word after it may be its value or a positional word: what
        # follows is not judged.
        ("shop --colour --mode quick", True),
        ("shop --colour red --mode quick", False),
        # Another program's command, or after a positional word (a
        # subcommand's options are not told apart).
        ("other --mode quick", False),
        ("shop serve --mode quick", False),
    ],
)
def test_a_value_none_of_an_options_choices_is_invalid(tmp_path, line, invalid) -> None:
    found = _invalid_values(tmp_path, line)
    assert bool(found) is invalid
    if invalid:
        (finding,) = found
        assert finding.key == "--mode" and finding.location.line == 8
        assert "`fast`, `safe`" in finding.message and "invalid choice" in finding.message
        assert finding.related[0].path == "shop/cli.py"


@pytest.mark.parametrize(
    ("line", "invalid"),
    [
        # ``int()`` refuses a point or an exponent.
        ("shop --port 4e8", True),
        ("shop --port=80.5", True),
        # A whole number, a placeholder, a word (a name the reader puts in).
        ("shop --port 8080", False),
        ("shop --port $PORT", False),
        ("shop --port PORT", False),
        # An option that takes the string as it is typed.
        ("shop --host 1.5", False),
    ],
)
def test_a_number_an_integer_option_refuses_is_invalid(tmp_path, line, invalid) -> None:
    found = _invalid_values(tmp_path, line, _CLI)
    assert bool(found) is invalid
    if invalid:
        assert "invalid int value" in found[0].message
        assert found[0].related[0].note == "the option takes a whole number"


def test_an_option_typed_by_its_default_alone_takes_any_string(tmp_path) -> None:
    # Without ``type=``, argparse hands the code the string: ``4e8`` is taken.
    cli = _CLI.replace('"--port", type=int, default=8000', '"--port", default=8000')
    assert _invalid_values(tmp_path, "shop --port 4e8", cli) == []


def test_a_flag_two_options_spell_is_not_judged_by_its_value(tmp_path) -> None:
    # The build command's ``--mode`` takes any word; the program's own
    # takes ``fast`` or ``safe``. Which one a line means is not told.
    cli = _CHOICES.replace(
        '    parser.add_argument("--mode"',
        "    build = parser.add_subparsers().add_parser('build')\n"
        "    build.add_argument('--mode', dest='build_mode', help='the build mode, any word')\n"
        '    parser.add_argument("--mode"',
    )
    assert _invalid_values(tmp_path, "shop --mode quick", cli) == []


_TUTORIAL = """# A first shop

Serve the shop on another port:

```console
$ shop --port 8080 --flavour
```
"""


def test_a_page_no_surface_reads_is_read_for_its_command_lines(tmp_path) -> None:
    # The tutorial documents no key: read for the command lines alone.
    found = _flags(tmp_path, **{"docs/tutorial.md": _TUTORIAL})
    assert {(f.key, f.location.path, f.location.line) for f in found.values()} == {
        ("--colour", "docs/cli.md", 8),
        ("--flavour", "docs/tutorial.md", 6),
    }


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        (b"$ shop --port 8080\n", True),
        (b"shop serve -v\n", True),
        (b"python -m shop --colour\n", True),
        (b"run shop\n--colour\n", False),  # the flag on another line
        (b"myshop --colour\n", False),  # another program's name ends with it
        (b"shop_app --colour\n", False),
        (b"$ shop\n", False),  # no flag given
    ],
)
def test_a_page_may_run_the_program_with_a_flag(text, runs) -> None:
    from configdrift.index.programs import may_run

    assert may_run(text, ["shop", "-m shop"]) is runs


@pytest.mark.parametrize("section", ["options.entry_points", "entry_points"])
def test_a_console_script_of_setup_cfg_is_the_projects(tmp_path, section) -> None:
    # setuptools' section, or pbr's.
    setup_cfg = (
        f"[metadata]\nname = shop\n\n[{section}]\nconsole_scripts =\n    shop = shop.cli:main\n"
    )
    found = _flags(
        tmp_path, **{"pyproject.toml": "", "shop/__main__.py": "", "setup.cfg": setup_cfg}
    )
    assert set(found) == {"--colour"}


@pytest.mark.parametrize(
    "rest",
    [
        'parser.add_argument("command", nargs=argparse.REMAINDER)',
        'parser.add_argument("command", nargs="...")',
        "main.allow_interspersed_args = False",
    ],
)
def test_after_a_positional_that_takes_the_rest_no_flag_is_judged(tmp_path, rest) -> None:
    # ``shop run script.py --colour``: the script's flag, maybe.
    cli = _CLI.replace(
        "    return parser.parse_args(argv)", f"    {rest}\n    return parser.parse_args(argv)"
    )
    page = _PAGE.replace("$ shop --port 8080 --colour", "$ shop serve target --colour")
    assert _flags(tmp_path, page, **{"shop/cli.py": cli}) == {}
    # Before the first positional word, the flag is the program's still.
    assert set(_flags(tmp_path / "before", **{"shop/cli.py": cli})) == {"--colour"}


def test_the_flags_after_a_flag_the_parser_lacks_are_judged(tmp_path) -> None:
    # argparse names every flag it does not know: ``--shade`` and ``--colour``.
    page = _PAGE.replace("$ shop --port 8080 --colour", "$ shop --shade --port 1 --colour")
    assert set(_flags(tmp_path, page)) == {"--shade", "--colour"}
    # Where the rest goes to a positional, a word after the flag may be its
    # first: what follows is not judged.
    cli = _CLI.replace(
        "    return parser.parse_args(argv)",
        '    parser.add_argument("command", nargs="...")\n    return parser.parse_args(argv)',
    )
    valued = _PAGE.replace("$ shop --port 8080 --colour", "$ shop --shade red --colour")
    assert set(_flags(tmp_path / "rest", valued, **{"shop/cli.py": cli})) == {"--shade"}


@pytest.mark.parametrize("nargs", ["argparse.REMAINDER", '"..."'])
def test_the_rest_begins_after_the_first_positional_word_without_subcommands(
    tmp_path, nargs
) -> None:
    # ``shop train.py -f recipe.yaml``: the script takes ``-f``, not the program.
    cli = _CLI.replace(
        "    return parser.parse_args(argv)",
        f'    parser.add_argument("args", nargs={nargs})\n    return parser.parse_args(argv)',
    )
    page = _PAGE.replace("$ shop --port 8080 --colour", "$ shop train.py --colour")
    assert _flags(tmp_path, page, **{"shop/cli.py": cli}) == {}
    # A program with subcommands takes its subcommand's flags after its name.
    sub = cli.replace(
        '    parser.add_argument("args"',
        '    parser.add_subparsers(dest="command")\n    parser.add_argument("args"',
    )
    assert set(_flags(tmp_path / "sub", page, **{"shop/cli.py": sub})) == {"--colour"}


@pytest.mark.parametrize(
    "settings",
    ["dict(allow_interspersed_args=False)", '{"allow_interspersed_args": False}'],
)
def test_a_click_command_that_stops_at_its_first_argument_judges_no_flag_after_it(
    tmp_path, settings
) -> None:
    cli = _CLICK.replace('dict(help_option_names=["-h", "--help"])', settings)
    page = _PAGE.replace("$ shop --port 8080 --colour", "$ shop serve script.py --colour")
    assert _flags(tmp_path, page, **{"shop/cli.py": cli}) == {}
    # Unless it says nothing of it: click takes options anywhere.
    assert set(_flags(tmp_path / "anywhere", page, **{"shop/cli.py": _CLICK})) == {"--colour"}


def test_a_module_run_with_python_m_that_parses_the_command_line_is_the_program(tmp_path) -> None:
    # No console script, no ``__main__``: ``python -m shop.serve``, whose
    # main parses ``shop.cli``'s flags, is the program the docs run.
    page = _PAGE.replace("$ shop --port 8080 --colour", "$ python -m shop.serve --colour")
    serve = 'from shop.cli import main\n\nif __name__ == "__main__":\n    main()\n'
    files = {"shop/cli.py": _CLI, "shop/serve.py": serve, "docs/cli.md": page}
    _, findings = check_project(tmp_path, files, "shop")
    assert {f.key for f in findings if f.code == "CD301"} == {"--colour"}
    # Imported relatively, the parser's module is the same.
    relative = {**files, "shop/serve.py": serve.replace("from shop.cli", "from .cli")}
    _, findings = check_project(tmp_path / "relative", relative, "shop")
    assert {f.key for f in findings if f.code == "CD301"} == {"--colour"}
    # A module that runs as a script but never reaches the parser is another program.
    other = 'import sys\n\nif __name__ == "__main__":\n    print(sys.argv)\n'
    _, findings = check_project(tmp_path / "other", {**files, "shop/serve.py": other}, "shop")
    assert not [f for f in findings if f.code == "CD301"]
    # One that reaches it but does not run as a script is no program either.
    library = "from shop.cli import main\n\n\ndef serve():\n    return main()\n"
    _, findings = check_project(tmp_path / "library", {**files, "shop/serve.py": library}, "shop")
    assert not [f for f in findings if f.code == "CD301"]


_SCRIPT = """#!/bin/bash
# Serve the example shop.
shop --port 8080 \\
    --host 0.0.0.0 \\
    --flavour vanilla
"""


def test_a_shell_script_is_read_for_its_command_lines(tmp_path) -> None:
    found = _flags(tmp_path, **{"examples/serve.sh": _SCRIPT})
    finding = found["--flavour"]
    # The line of the flag, in a command continued over three lines.
    assert (finding.location.path, finding.location.line) == ("examples/serve.sh", 5)
    assert finding.related[0].path == "shop/cli.py"


def test_a_shell_script_of_the_tests_or_a_tools_folder_is_not_read(tmp_path) -> None:
    assert "--flavour" not in _flags(tmp_path, **{"tests/serve.sh": _SCRIPT})
    # A folder named with a dot is listed where git tracks it: a tool's.
    hidden = tmp_path / "hidden"
    (hidden / ".runpod").mkdir(parents=True)
    (hidden / ".runpod/serve.sh").write_text(_SCRIPT, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(hidden)], capture_output=True, check=True)
    assert "--flavour" not in _flags(hidden)


def test_a_shell_script_that_runs_another_program_is_not_judged(tmp_path) -> None:
    other = _SCRIPT.replace("shop --port", "othershop --port")
    assert "--flavour" not in _flags(tmp_path, **{"examples/serve.sh": other})


def test_the_words_of_a_continued_command_are_on_their_own_lines() -> None:
    text = "shop --port 1 \\\n  --host 'a b' \\\n  --colour | tee log\nshop -v\n"
    assert command_words(text, "bash") == [
        (0, "shop", ("--port", "1", "--host", "a b", "--colour"), (0, 0, 1, 1, 2)),
        (0, "tee", ("log",), (2,)),
        (3, "shop", ("-v",), (3,)),
    ]
    # A word written twice is found where it is the second time.
    twice = "shop --port 1 \\\n  --retries 1\n"
    assert command_words(twice, "sh") == [
        (0, "shop", ("--port", "1", "--retries", "1"), (0, 0, 1, 1))
    ]


def test_a_launcher_runs_the_module_after_its_own_flags() -> None:
    line = "torchrun --nproc_per_node 8 -m shop.serve --port 1 \\\n  --colour\n"
    assert command_lines(line, "sh") == [(0, "-m shop.serve", ("--port", "1", "--colour"))]
    launch = "python -m torch.distributed.launch --nproc 2 --module shop.serve --port 1\n"
    assert command_lines(launch, "sh") == [(0, "-m shop.serve", ("--port", "1"))]
    accelerate = "accelerate launch --num_processes 2 -m shop.serve --port 1\n"
    assert command_lines(accelerate, "sh") == [(0, "-m shop.serve", ("--port", "1"))]
    # A script the launcher runs: the ``-m`` after it is the script's flag.
    script = "torchrun --standalone serve.py -m x --port 1\n"
    assert command_lines(script, "sh") == [
        (0, "torchrun", ("--standalone", "serve.py", "-m", "x", "--port", "1"))
    ]


def test_a_launched_module_that_parses_the_command_line_is_judged_in_a_script(tmp_path) -> None:
    serve = 'from shop.cli import main\n\nif __name__ == "__main__":\n    main()\n'
    script = _SCRIPT.replace("shop --port", "torchrun --nproc_per_node 2 -m shop.serve --port")
    files = {"shop/cli.py": _CLI, "shop/serve.py": serve, "examples/serve.sh": script}
    _, findings = check_project(tmp_path, {**files, "docs/cli.md": _PAGE}, "shop")
    # (the page runs ``shop``, which no console script installs here)
    assert {(f.key, f.location.path) for f in findings if f.code == "CD301"} == {
        ("--flavour", "examples/serve.sh")
    }


@pytest.mark.parametrize(
    ("line", "program", "args"),
    [
        # The interpreter's own options before the module or the script.
        ("python -u -m shop.serve --port 1", "-m shop.serve", ("--port", "1")),
        ("python3 -W error -X dev -m shop.serve", "-m shop.serve", ()),
        ("python -Wd -uB serve.py --port 1", "python", ("serve.py", "--port", "1")),
        ("/usr/bin/python3.12 -OO serve.py", "python3", ("serve.py",)),
        # A word after the script, or no option of the interpreter's: kept.
        ("python serve.py -u --port 1", "python", ("serve.py", "-u", "--port", "1")),
        ("python -c 'import shop' -u", "python", ("-c", "import shop", "-u")),
        ("python -Z serve.py", "python", ("-Z", "serve.py")),
        ("pythonista -u serve.py", "pythonista", ("-u", "serve.py")),
    ],
)
def test_the_interpreters_own_options_are_not_the_programs(line, program, args) -> None:
    assert command_lines(line + "\n", "sh") == [(0, program, args)]


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        (b"shop \\\n  --colour\n", True),  # continued onto the next line
        (b"shop \\\n\n--colour\n", False),  # the continuation ends at the empty line
    ],
)
def test_a_command_continued_onto_the_next_lines_may_run_the_program(text, runs) -> None:
    from configdrift.index.programs import may_run

    assert may_run(text, ["shop"]) is runs


def test_a_parser_the_program_does_not_reach_is_not_its(tmp_path) -> None:
    # ``shop`` runs ``shop.cli:main``; the strict parser is a tool's of its own.
    files = {"shop/cli.py": "def main():\n    print('shop')\n", "shop/bench.py": _CLI}
    assert _flags(tmp_path, **files) == {}
    # The program's module imports the module that declares the parser's
    # options (a few imports deep): the parser is the program's.
    files["shop/cli.py"] = "from shop.bench import main\n"
    assert set(_flags(tmp_path / "reached", **files)) == {"--colour"}


_DEPRECATED_CLI = (
    _CLI.replace(
        '"--color", action="store_true", help="colors"',
        '"--color", action="store_true", help="Colors. [deprecated: use `shop paint`]"',
    )
    .replace('help="talk"', 'help="Deprecated: use --loud"')
    .replace('help="the port"', "help=\"Deprecated, use 'harbour' instead\"")
)


def _deprecated(tmp_path, line: str, cli: str = _DEPRECATED_CLI, before: str = "") -> dict:
    page = _PAGE.replace("```console\n$ shop --port 8080 --colour", f"{before}```console\n{line}")
    files = {
        "shop/cli.py": cli,
        "shop/__main__.py": "from shop.cli import main\n\nmain()\n",
        "pyproject.toml": _PYPROJECT,
        "docs/cli.md": page,
    }
    _, findings = check_project(tmp_path, files, "shop")
    # (The page's entry of ``--verbose`` is reported as an entry is.)
    return {
        k: f
        for (c, k), f in by_key(findings).items()
        if c == "CD402" and "command line" in f.message
    }


def test_a_command_line_that_gives_a_deprecated_flag_is_reported(tmp_path) -> None:
    found = _deprecated(tmp_path, "$ shop --color -v --port 1 target")
    assert set(found) == {"--color", "-v", "--port"}
    color = found["--color"]
    assert (color.location.path, color.location.line) == ("docs/cli.md", 8)
    assert "`shop` with `--color`, which is deprecated" in color.message
    assert (color.related[0].path, color.related[0].note) == (
        "shop/cli.py",
        "its declaration deprecates it",
    )
    # The flag it names instead is the fix; a command in quotes is none.
    assert found["-v"].suggestion == "use `--loud`"
    assert color.suggestion is None
    assert found["--port"].suggestion is None  # a word that is no flag


def test_a_deprecated_flag_is_reported_whatever_the_parser_takes(tmp_path) -> None:
    # A parser that takes unknown flags still warns of a deprecated one.
    cli = _DEPRECATED_CLI.replace("parser.parse_args(argv)", "parser.parse_known_args(argv)")
    assert set(_deprecated(tmp_path, "$ shop --color", cli)) == {"--color"}


@pytest.mark.parametrize(
    ("line", "before"),
    [
        # The flags are not deprecated.
        ("$ shop --host 0.0.0.0 target", ""),
        # Another program's flag of the same name.
        ("$ othertool --color", ""),
        # The page tells of the deprecation just before the block.
        ("$ shop --color", "The `--color` flag is deprecated; it still works:\n\n"),
        # Or on the line itself.
        ("$ shop --color  # deprecated, see below", ""),
    ],
)
def test_a_command_line_the_page_says_is_deprecated_is_not_reported(tmp_path, line, before) -> None:
    assert _deprecated(tmp_path, line, before=before) == {}


@pytest.mark.parametrize(
    ("declared", "suggestion"),
    [
        # Python 3.13's argparse and click 8.2 deprecate an option by keyword.
        ("deprecated=True", None),
        ('deprecated="use --loud instead"', "use `--loud`"),
    ],
)
def test_a_flag_its_declaration_deprecates_by_keyword_is_reported(
    tmp_path, declared, suggestion
) -> None:
    cli = _CLI.replace('help="colors"', f'help="colors", {declared}')
    found = _deprecated(tmp_path, "$ shop --color", cli)
    assert set(found) == {"--color"}
    assert found["--color"].suggestion == suggestion


def test_a_flag_declared_deprecated_false_is_not_reported(tmp_path) -> None:
    cli = _CLI.replace('help="colors"', 'help="colors", deprecated=False')
    assert _deprecated(tmp_path, "$ shop --color", cli) == {}


def test_a_flag_hidden_from_the_help_and_deprecated_is_reported(tmp_path) -> None:
    # Hidden and deprecated are two facts: a legacy alias kept out of
    # ``--help`` is still taught by a page that runs it.
    cli = _CLI.replace('help="colors"', "help=argparse.SUPPRESS, deprecated=True")
    assert set(_deprecated(tmp_path, "$ shop --color", cli)) == {"--color"}


_COLOR = '    parser.add_argument("--color", action="store_true", help="colors")\n'
_COLOUR = (
    '    parser.add_argument("--colour", dest="color", action="store_true", help=SUPPRESSED)\n'
)


@pytest.mark.parametrize("order", ["shown first", "hidden first"])
def test_a_spelling_kept_out_of_the_help_beside_a_shown_one_is_reported(tmp_path, order) -> None:
    both = _COLOR + _COLOUR if order == "shown first" else _COLOUR + _COLOR
    cli = _CLI.replace(_COLOR, both.replace("SUPPRESSED", "argparse.SUPPRESS"))
    found = _deprecated(tmp_path, "$ shop --colour", cli)
    assert set(found) == {"--colour"}
    assert "keeps out of `--help` (`--color` is the one shown)" in found["--colour"].message
    assert found["--colour"].related[0].note == "its declaration keeps it out of the help"
    assert found["--colour"].suggestion == "use `--color`"
    # The shown spelling is the one to teach.
    assert _deprecated(tmp_path / "shown", "$ shop --color", cli) == {}


def test_a_spelling_shown_in_the_help_or_hidden_alone_is_not_reported(tmp_path) -> None:
    shown = _CLI.replace(_COLOR, _COLOR + _COLOUR.replace("SUPPRESSED", '"british"'))
    assert _deprecated(tmp_path / "shown", "$ shop --colour", shown) == {}
    # A hidden option of its own destination: nothing shows another spelling.
    alone = _CLI.replace(_COLOR, _COLOUR.replace("SUPPRESSED", "argparse.SUPPRESS"))
    assert _deprecated(tmp_path / "alone", "$ shop --colour", alone) == {}


def _undocumented(tmp_path, cli: str) -> set[str]:
    # The page's entries alone (its command line gives ``--colour``).
    page = _PAGE.split("```console")[0]
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": page}
    _, findings = check_project(tmp_path, files, "shop")
    return {k for c, k in by_key(findings) if c == "CD103"}


def test_an_option_shown_by_one_spelling_is_shown_whatever_the_order(tmp_path) -> None:
    hidden = _COLOUR.replace("SUPPRESSED", "argparse.SUPPRESS")
    for order, both in (("hidden first", hidden + _COLOR), ("shown first", _COLOR + hidden)):
        # ``--color`` is in the help: undocumented on the page either way.
        assert "--color" in _undocumented(tmp_path / order, _CLI.replace(_COLOR, both))
    # Two hidden spellings: the option stays out of sight, and neither is
    # a hidden spelling beside a shown one.
    twice = hidden + hidden.replace('"--colour"', '"--farbe"')
    cli = _CLI.replace(_COLOR, twice)
    assert not {"--colour", "--farbe"} & _undocumented(tmp_path / "twice", cli)
    assert _deprecated(tmp_path / "twice-run", "$ shop --farbe", cli) == {}


def test_a_spelling_both_declarations_give_is_the_shown_one(tmp_path) -> None:
    hidden = _COLOUR.replace('"--colour"', '"--colour", "--color"')
    cli = _CLI.replace(_COLOR, _COLOR + hidden.replace("SUPPRESSED", "argparse.SUPPRESS"))
    assert _deprecated(tmp_path, "$ shop --color", cli) == {}
    assert set(_deprecated(tmp_path / "hidden", "$ shop --colour", cli)) == {"--colour"}


def test_an_option_declared_twice_in_the_help_keeps_its_first_spelling(tmp_path) -> None:
    tint = _COLOUR.replace('"--colour"', '"--tint"').replace("SUPPRESSED", '"tints"')
    analysis, _ = check_project(
        tmp_path, {"shop/cli.py": _CLI.replace(_COLOR, _COLOR + tint)}, "shop"
    )
    (color,) = [n for s in analysis.everything for n in s.schema.walk() if n.key == "color"]
    assert color.path == ("--color",)
    assert color.hidden_spellings == ()


def _hidden_entries(tmp_path, entries: str, pyproject: str = _PYPROJECT) -> dict:
    hidden = _COLOUR.replace("SUPPRESSED", "argparse.SUPPRESS")
    cli = _CLI.replace(_COLOR, _COLOR + hidden)
    page = _PAGE.split("```console")[0] + entries
    files = {"shop/cli.py": cli, "pyproject.toml": pyproject, "docs/cli.md": page}
    _, findings = check_project(tmp_path, files, "shop")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD402"}


def test_an_entry_of_an_old_spelling_the_project_marks_is_reported_once(tmp_path) -> None:
    marked = _PYPROJECT + '\n[tool.configdrift.deprecated]\n"--colour" = {reason = "old"}\n'
    _, findings = check_project(
        tmp_path,
        {
            "shop/cli.py": _CLI.replace(
                _COLOR, _COLOR + _COLOUR.replace("SUPPRESSED", "argparse.SUPPRESS")
            ),
            "pyproject.toml": marked,
            "docs/cli.md": _PAGE.split("```console")[0] + "- `--colour`: colors.\n",
        },
        "shop",
    )
    assert [(f.code, f.location.line) for f in findings if f.code == "CD402"] == [("CD402", 7)]


def test_an_entry_of_a_spelling_kept_out_of_the_help_is_reported(tmp_path) -> None:
    found = _hidden_entries(tmp_path, "- `--colour`: colors.\n")
    assert set(found) == {"--colour"}
    colour = found["--colour"]
    assert (colour.location.path, colour.location.line) == ("docs/cli.md", 7)
    assert "keeps out of `--help` (`--color` is the current one)" in colour.message
    assert colour.related[0].path == "shop/cli.py"
    assert colour.suggestion == "use `--color`"


@pytest.mark.parametrize(
    "entries",
    [
        # The shown spelling is the one taught.
        "- `--color`: colors.\n",
        # An entry of the shown spelling beside it: the old one is listed too.
        "- `--color`: colors.\n- `--colour`: the same.\n",
        # The entry says it is deprecated.
        "- `--colour`: deprecated, use `--color`.\n",
    ],
)
def test_an_entry_of_a_shown_or_noted_spelling_is_not_reported(tmp_path, entries) -> None:
    assert _hidden_entries(tmp_path, entries) == {}


def test_a_placeholder_and_the_first_word_of_one_cut_at_a_space() -> None:
    from configdrift.extract.docs.block_model import placeholder_text

    for text in ("[fp8|bf16]", "<path>", "[fp8", "<output", "{name", "$HOME", "YOUR_DIR", "auto"):
        assert placeholder_text(text), text
    for text in ("fp8", "fp8]", "road_1", "(x", "8080"):
        assert not placeholder_text(text), text
