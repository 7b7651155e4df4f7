"""argparse options as the configuration of a command-line tool."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import argparse


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("--epochs", type=int, default=10, help="passes")
    parser.add_argument("-l", "--learning-rate", dest="lr", type=float, default=0.1)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--mode", choices=["fast", "slow"], default="fast")
    group = parser.add_argument_group("extra")
    group.add_argument("--seed", type=int, default=0)
    parser.add_argument("--version", action="version", version="1.0")
    return parser


def main():
    args = build_parser().parse_args()
    print(args.input, args.epochs, args.lr, args.verbose, args.mode)
"""

_DOCS = """
# Command line

- `--epochs` (int): passes over the data. Default: 10.
- `--learning-rate` (float): the step size.
- `--verbose` (bool): print more.
- `--mode` (str): fast or slow.
- `--dry-run` (bool): documented, but no parser declares it.
"""


def _run(tmp_path, files):
    analysis, findings = check_project(tmp_path, files, "tool")
    return analysis, by_key(findings)


def test_options_are_the_root_of_a_command_line_tool(tmp_path) -> None:
    analysis, found = _run(tmp_path, {"tool/cli.py": _CLI, "docs/cli.md": _DOCS})
    root = analysis.schema
    assert root.model == "the argument parser" and root.strict is True
    # argparse adds ``-h``/``--help`` itself.
    assert set(root.children) == {"epochs", "lr", "verbose", "mode", "seed", "version", "help"}
    assert root.children["help"].spellings == ("--help", "-h")
    # ``--version`` only prints: a documented spelling is accepted, and it is
    # no option to document or read.
    from configdrift.model import BUILTIN

    assert root.children["version"].origin == BUILTIN
    assert not any(key == "--version" for _, key in found)
    lr = root.children["lr"]
    assert lr.spellings == ("--learning-rate", "-l")
    assert lr.default is not None and lr.default.value == 0.1
    assert root.children["verbose"].default.value is False
    assert root.children["mode"].type.choices == ("fast", "slow")
    rejected = found[("CD101", "--dry-run")]
    assert "fails with 'unrecognized arguments'" in rejected.message
    assert ("CD103", "--seed") in found
    assert ("CD202", "--seed") in found  # declared, and nothing reads args.seed
    assert not [key for code, key in found if code == "CD101" and key != "--dry-run"]


def test_an_option_read_by_its_flag_from_the_argument_list_is_read(tmp_path) -> None:
    # The config file's flag is found in ``sys.argv`` before the parser runs.
    early = (
        'import sys\n\n\ndef config_path():\n    return sys.argv[sys.argv.index("--seed") + 1]\n'
    )
    multi = _CLI.replace(
        'group.add_argument("--seed", type=int, default=0)',
        'group.add_argument(\n        "--seed",\n        type=int,\n        default=0,\n    )',
    )
    _, found = _run(tmp_path, {"tool/cli.py": multi, "tool/early.py": early, "docs/cli.md": _DOCS})
    assert ("CD202", "--seed") not in found
    # Its declaration over several lines is no read of it, nor is a short
    # flag of its quoted elsewhere (``-s`` means anything to a subprocess).
    short = multi.replace('        "--seed",\n', '        "-s",\n        "--seed",\n')
    other = "def call(run):\n    return run(['ls', '-s'])\n"
    files = {"tool/cli.py": short, "tool/other.py": other, "docs/cli.md": _DOCS}
    _, found = _run(tmp_path / "declared", files)
    assert ("CD202", "--seed") in found
    # Nor is a read in the declaring file before the declaration a declaration.
    before = multi.replace(
        "def build_parser():", early.split("\n\n\n")[1] + "\n\ndef build_parser():"
    )
    before = "import sys\n" + before
    _, found = _run(tmp_path / "before", {"tool/cli.py": before, "docs/cli.md": _DOCS})
    assert ("CD202", "--seed") not in found


def test_vars_of_the_arguments_reads_every_option(tmp_path) -> None:
    cli = _CLI.replace("    print(args.input", "    run(**vars(args))\n    print(args.input")
    _, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": _DOCS})
    assert ("CD202", "--seed") not in found


def test_a_project_with_a_config_model_keeps_it_as_the_root(tmp_path) -> None:
    model = (
        "from pydantic import BaseModel\n"
        "class Train(BaseModel):\n    steps: int = 1\n"
        "def load(d):\n    return Train(**d.get('train', {}))\n"
    )
    analysis, _ = _run(tmp_path, {"tool/cli.py": _CLI, "tool/model.py": model})
    assert analysis.schema.model != "the argument parser"
    assert "epochs" not in analysis.schema.children


def test_positional_arguments_and_few_options_make_no_root(tmp_path) -> None:
    cli = (
        "import argparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('path')\n"
        "p.add_argument('--quiet', action='store_true')\n"
    )
    analysis, _ = _run(tmp_path, {"tool/cli.py": cli})
    assert analysis.schema.children == {}


def test_options_built_at_runtime_leave_the_command_line_open(tmp_path) -> None:
    """``add_argument(*names, **kwargs)`` (options generated from a
    dataclass): a documented flag no static call declares may be one of
    them, so it is no CD101."""
    cli = _CLI + (
        "\ndef generated(parser, fields):\n"
        "    for names, kwargs in fields:\n"
        "        parser.add_argument(*names, **kwargs)\n"
    )
    analysis, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": _DOCS})
    assert analysis.schema.strict is None
    assert ("CD101", "--dry-run") not in found
    assert any("built at runtime" in u.what for u in analysis.unresolved)


def test_a_documented_name_that_is_no_option_spelling_makes_no_claim(tmp_path) -> None:
    docs = _DOCS + "\n## Output\n\n- `result.bin`: the output file.\n- `result.idx`: its index.\n"
    _, found = _run(tmp_path, {"tool/cli.py": _CLI, "docs/cli.md": docs})
    assert [key for code, key in found if code == "CD101"] == ["--dry-run"]


def test_scripts_whose_options_no_doc_describes_are_not_reported(tmp_path) -> None:
    script = (
        "import argparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('--shards', type=int, default=8)\n"
        "p.add_argument('--workers', type=int, default=4)\n"
    )
    _, found = _run(tmp_path, {"tool/cli.py": _CLI, "tool/shard.py": script, "docs/cli.md": _DOCS})
    assert ("CD103", "--seed") in found  # the documented parser's undocumented option
    assert ("CD103", "--shards") not in found and ("CD103", "--workers") not in found


def test_a_command_line_the_docs_describe_wins_over_models_they_do_not(tmp_path) -> None:
    """A model built from a report file's dict that no page documents is not
    the configuration when the docs describe the command line."""
    report = (
        "import json\n"
        "from pydantic import BaseModel\n"
        "class Status(BaseModel):\n    version: int = 1\n    files: dict = {}\n"
        "def read(path):\n    data = json.load(open(path))\n    return Status(**data['status'])\n"
    )
    analysis, found = _run(
        tmp_path, {"tool/cli.py": _CLI, "tool/report.py": report, "docs/cli.md": _DOCS}
    )
    assert analysis.schema.model == "the argument parser"
    assert ("CD101", "--dry-run") in found


def test_a_section_of_another_tools_flags_makes_no_claim(tmp_path) -> None:
    docs = _DOCS + (
        "\n## Launching\n\n| Flag | Meaning |\n| --- | --- |\n"
        "| `--nproc-per-node` | processes per node |\n| `--nnodes` | nodes |\n"
        "| `--rdzv-backend` | rendezvous |\n| `--epochs` | passes |\n"
    )
    _, found = _run(tmp_path, {"tool/cli.py": _CLI, "docs/cli.md": docs})
    assert [key for code, key in found if code == "CD101"] == ["--dry-run"]


_CLICK = """
import click
from click import option


@click.command()
@click.argument("src")
@click.option("-l", "--line-length", type=int, default=88, help="wrap")
@click.option("--check/--no-check", default=False)
@click.option("--verbose", "-v", is_flag=True)
@option("--target", type=click.Choice(["py310", "py311"]), multiple=True)
@click.option("--color", "use_color", default="auto")
def main(src, line_length, check, verbose, target, use_color):
    print(src)
"""

_CLICK_DOCS = """
# Options

- `--line-length` (int): how wide. Default: 88.
- `--check` (bool): do not write.
- `--verbose` (bool): say more.
- `--fast` (bool): documented, but the command has no such option.
"""


def test_click_options_are_the_command_line(tmp_path) -> None:
    analysis, found = _run(tmp_path, {"tool/cli.py": _CLICK, "docs/options.md": _CLICK_DOCS})
    root = analysis.schema
    assert set(root.children) - {"help"} == {
        "line_length",
        "check",
        "verbose",
        "target",
        "use_color",
    }
    assert root.children["help"].spellings == ("--help",)  # click adds it, without -h
    assert root.children["line_length"].default.value == 88
    assert root.children["check"].spellings == ("--check", "--no-check")
    assert root.children["verbose"].default.value is False
    assert root.children["target"].type.kinds == frozenset({"list"})
    assert root.model == "the click command"
    assert "fails with 'No such option'" in found[("CD101", "--fast")].message
    assert ("CD103", "--target") in found
    # Options arrive as parameters of the command: no inert-option claims.
    assert not [key for code, key in found if code == "CD202"]


def test_a_click_option_a_constant_names_is_an_option(tmp_path) -> None:
    code = _CLICK.replace('@click.option("--verbose", "-v"', '@click.option(VERBOSE, "-v"')
    code = code.replace(
        "from click import option\n", 'from click import option\n\nVERBOSE = "--verbose"\n'
    )
    analysis, found = _run(tmp_path, {"tool/cli.py": code, "docs/options.md": _CLICK_DOCS})
    assert "verbose" in analysis.schema.children
    assert ("CD101", "--fast") in found  # the command stays closed


def test_an_option_method_of_another_library_is_no_option(tmp_path) -> None:
    other = (
        "import optparse_like\n"
        "@optparse_like.option('--a')\n@optparse_like.option('--b')\n@optparse_like.option('--c')\n"
        "def main(a, b, c):\n    pass\n"
    )
    analysis, _ = _run(tmp_path, {"tool/cli.py": other, "docs/options.md": _CLICK_DOCS})
    assert analysis.schema.children == {}


def test_pages_under_tests_and_config_blocks_say_nothing_of_a_command_line(tmp_path) -> None:
    transcript = '# Chat\n\n```json\n{"config": 1, "tooltip": {"a": 2}}\n```\n'
    fixture_docs = "# Fixture\n\n- `--epochs` (int): x\n- `--nope` (int): y\n- `--gone` (int): z\n"
    analysis, found = _run(
        tmp_path,
        {
            "tool/cli.py": _CLI,
            "docs/cli.md": _DOCS,
            "docs/chat.md": transcript,
            "tests/fixtures/notes.md": fixture_docs,
        },
    )
    assert [s.path for s in analysis.doc_sources] == ["docs/cli.md"]
    assert not [key for code, key in found if code.startswith("CD30")]
    assert ("CD101", "--nope") not in found


def test_a_unique_prefix_of_an_option_is_that_option(tmp_path) -> None:
    """argparse's allow_abbrev: ``--learning`` reaches ``--learning-rate``
    and ``--verb`` reaches ``--verbose``, so the docs work; ``--ver`` could
    be ``--verbose`` or ``--version`` (argparse calls it ambiguous) and
    ``--dry-run`` is no option's prefix: both are reported."""
    docs = (
        _DOCS
        + "- `--learning` (float): short form.\n- `--verb` (bool): short form.\n"
        + "- `--ver` (bool): too short.\n"
    )
    _, found = _run(tmp_path, {"tool/cli.py": _CLI, "docs/cli.md": docs})
    assert sorted(key for code, key in found if code == "CD101") == ["--dry-run", "--ver"]


def test_a_parser_handed_to_a_library_may_get_options_there(tmp_path) -> None:
    cli = _CLI.replace(
        "    return parser\n",
        "    shtab.add_argument_to(parser)\n    print(parser)\n    return parser\n",
    ).replace("import argparse\n", "import argparse\nimport shtab\n")
    docs = _DOCS + "- `--print-completion` (str): added by shtab.\n"
    analysis, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": docs})
    assert analysis.schema.strict is None
    assert not [key for code, key in found if code == "CD101"]
    handed = [u for u in analysis.unresolved if "handed to" in u.what]
    assert [u.location.line for u in handed] == [16]  # shtab, not print


def test_a_parser_handed_to_a_project_function_stays_complete(tmp_path) -> None:
    cli = _CLI.replace("    return parser\n", "    extra(parser)\n    return parser\n") + (
        "\n\ndef extra(parser):\n    parser.add_argument('--extra', type=int, default=1)\n"
    )
    analysis, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": _DOCS})
    assert analysis.schema.strict is True and "extra" in analysis.schema.children
    assert ("CD101", "--dry-run") in found


_TYPER = """
from typing import Annotated

import typer

app = typer.Typer()


@app.command()
def main(
    src: str,
    line_length: int = typer.Option(88, "--line-length", "-l"),
    check: bool = typer.Option(False),
    target: Annotated[str, typer.Option("--target", "-t")] = "py311",
    verbose: Annotated[bool, typer.Option()] = False,
):
    print(src, line_length, check, target, verbose)
"""


def test_typer_options_are_the_command_line(tmp_path) -> None:
    docs = _CLICK_DOCS.replace("- `--fast`", "- `--target` (str): the version.\n- `--fast`")
    analysis, found = _run(tmp_path, {"tool/cli.py": _TYPER, "docs/options.md": docs})
    root = analysis.schema
    assert set(root.children) - {"help"} == {"line_length", "check", "target", "verbose"}
    assert root.children["line_length"].default.value == 88
    assert root.children["line_length"].spellings == ("--line-length", "-l")
    assert root.children["check"].spellings == ("--check", "--no-check")
    assert root.children["target"].default.value == "py311"
    assert ("CD101", "--fast") in found
    assert not [key for code, key in found if code == "CD202"]


def test_a_parameter_default_that_is_no_typer_option_declares_nothing(tmp_path) -> None:
    code = (
        "import other\n"
        "def main(a: int = other.Option(1), b: int = other.Option(2), c: int = other.Option(3)):\n"
        "    pass\n"
    )
    analysis, _ = _run(tmp_path, {"tool/cli.py": code, "docs/options.md": _CLICK_DOCS})
    assert analysis.schema.children == {}


def test_add_argument_on_another_librarys_object_declares_no_option(tmp_path) -> None:
    """Selenium's ``ChromeOptions().add_argument("--headless")`` is a
    browser's switch, not a command-line option of the project."""
    from helpers import check_project

    code = """
    import argparse

    from selenium import webdriver


    class Browser:
        def setup(self):
            self.options = webdriver.ChromeOptions()
            self.options.add_argument("--headless")
            self.options.add_argument("--disable-gpu")


    def chrome():
        options = webdriver.ChromeOptions()
        options.add_argument("--no-sandbox")
        return options


    def cli():
        parser = argparse.ArgumentParser()
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="localhost")
        group = parser.add_argument_group("extra")
        group.add_argument("--debug", action="store_true")
        return parser.parse_args()
    """
    analysis, _ = check_project(tmp_path, {"app/main.py": code}, "app")
    assert set(analysis.schema.children) - {"help"} == {"port", "host", "debug"}


def test_the_options_click_and_argparse_add_are_accepted(tmp_path) -> None:
    from configdrift.model import BUILTIN

    code = """
import click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--count", default=1, help="how many")
@click.option("--name", default="x", help="who")
@click.option("--loud", is_flag=True, help="shout")
@click.version_option("1.0")
def main(count, name, loud):
    print(count, name, loud)
"""
    docs = (
        "# Command line\n\n- `--count` (int): how many. Default: 1.\n- `--name` (str): who.\n"
        "- `--loud` (bool): shout.\n- `-h`, `--help`: the help.\n- `--version`: the version.\n"
        "- `--colour` (bool): not an option.\n"
    )
    analysis, found = _run(tmp_path, {"tool/cli.py": code, "docs/cli.md": docs})
    root = analysis.schema
    assert root.children["version"].origin == BUILTIN
    assert set(root.children["help"].spellings) == {"-h", "--help"}
    rejected = {key for code, key in found if code == "CD101"}
    assert rejected == {"--colour"}  # the built-ins are accepted, a missing option is not
    assert not any(key in ("--help", "-h", "--version") for _, key in found)


def test_a_parser_a_framework_hands_to_a_hook_may_hold_options_of_its_own(tmp_path) -> None:
    # Django builds a command's parser with --settings, --traceback ... and
    # hands it to ``add_arguments``: a documented framework flag is no error.
    command = """
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("--name", default="app", help="The name.")
        parser.add_argument("--user", help="The owner.")
        parser.add_argument("--skip-authorization", action="store_true", help="Skip.")

    def handle(self, *args, **options):
        return options["name"], options["user"], options["skip_authorization"]
"""
    page = (
        "# createapp\n\n"
        "- `--name`: the name.\n- `--user`: the owner.\n"
        "- `--skip-authorization`: skip the form.\n- `--settings`: the settings module.\n"
    )
    files = {"app/management/commands/createapp.py": command, "docs/commands.md": page}
    _, findings = check_project(tmp_path / "hook", files, "app")
    assert not any(f.code in ("CD101", "CD102") for f in findings)
    # The same options on a parser the project builds are all it accepts.
    own = command.replace(
        "class Command(BaseCommand):\n    def add_arguments(self, parser):",
        "class Command:\n    def add_arguments(self, parser):",
    )
    _, findings = check_project(
        tmp_path / "own", {**files, "app/management/commands/createapp.py": own}, "app"
    )
    assert {(f.code, f.key) for f in findings if f.code == "CD101"} == {("CD101", "--settings")}


def test_a_flag_declared_apart_with_one_destination_is_undocumented_until_named(tmp_path) -> None:
    # ``--no-verbose`` is its own declaration into ``verbose``; ``-l`` is
    # one spelling of ``--learning-rate``'s own declaration.
    cli = _CLI.replace(
        '    parser.add_argument("--verbose", action="store_true")\n',
        '    parser.add_argument("--verbose", action="store_true")\n'
        '    parser.add_argument("--no-verbose", dest="verbose", action="store_false")\n',
    )
    analysis, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": _DOCS})
    assert analysis.schema.children["verbose"].spellings == ("--verbose", "--no-verbose")
    apart = found[("CD103", "--no-verbose")]
    assert apart.location.line == 11
    assert "declared apart from `--verbose`" in apart.message
    assert ("CD103", "-l") not in found and ("CD103", "--verbose") not in found
    # Named anywhere in the pages, it is told of.
    docs = _DOCS + "\nPass `--no-verbose` to silence it again.\n"
    _, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": docs})
    assert ("CD103", "--no-verbose") not in found
    # Where the option is undocumented, its flag apart is a flag of its own.
    docs = _DOCS.replace("- `--verbose` (bool): print more.\n", "")
    _, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": docs})
    assert ("CD103", "--verbose") in found
    said = found[("CD103", "--no-verbose")].message
    assert "declared apart from `--verbose`" in said and "which no doc describes either" in said
    # A twin its declaration hides from the help is not for users to find.
    hidden = cli.replace('action="store_false")', 'action="store_false", help=argparse.SUPPRESS)')
    _, found = _run(tmp_path, {"tool/cli.py": hidden, "docs/cli.md": _DOCS})
    assert ("CD103", "--no-verbose") not in found
    # An option the prose describes is not said to be undocumented by its twin.
    _, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": docs + "\nPass `--verbose`.\n"})
    assert ("CD103", "--verbose") not in found
    assert ("CD103", "--no-verbose") not in found


def test_a_flag_of_another_file_s_parser_is_not_taken_for_a_twin(tmp_path) -> None:
    # Another program's parser (a helper that parses curl command lines)
    # may well use the same destination.
    other = (
        "import argparse\n\n\ndef curl_parser():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--quiet-mode", dest="verbose", action="store_false")\n'
        "    return p\n"
    )
    _, found = _run(tmp_path, {"tool/cli.py": _CLI, "tool/curl.py": other, "docs/cli.md": _DOCS})
    assert not [f for (code, key), f in found.items() if "declared apart" in f.message]


def test_a_separator_variant_of_a_documented_flag_in_another_file_is_a_flag_of_its_own(
    tmp_path,
) -> None:
    # Another command's parser spells the option ``--learning_rate``: a
    # parser takes it apart from ``--learning-rate``, whatever file it is in.
    other = (
        "import argparse\n\n\ndef tune_parser():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--learning_rate", dest="lr", type=float, default=0.1)\n'
        "    return p\n"
    )
    files = {"tool/cli.py": _CLI, "tool/tune.py": other, "docs/cli.md": _DOCS}
    _, found = _run(tmp_path, files)
    variant = found[("CD103", "--learning_rate")]
    assert (variant.location.path, variant.location.line) == ("tool/tune.py", 6)
    assert "differs only by a separator" in variant.message
    assert "`--learning-rate`" in variant.message
    # Named as it is spelt, it is told of.
    docs = _DOCS + "\nThe tuner takes `--learning_rate`.\n"
    _, found = _run(tmp_path, {**files, "docs/cli.md": docs})
    assert ("CD103", "--learning_rate") not in found
    # Another name in another file is another program's.
    _, found = _run(tmp_path, {**files, "tool/tune.py": other.replace("learning_rate", "step")})
    assert ("CD103", "--step") not in found


def test_a_command_line_reference_built_with_the_site_is_generated(tmp_path) -> None:
    # mkdocs.yml's nav lists a CLI page the tree does not hold: a hook or a
    # script builds it from the parser, so no option is undocumented.
    nav = "site_name: t\nnav:\n  - reference/cli.md\n  - reference/options.md\n"
    files = {"tool/cli.py": _CLI, "docs/reference/options.md": _DOCS, "mkdocs.yml": nav}
    _, found = _run(tmp_path, files)
    assert not [key for code, key in found if code == "CD103"]
    # Another page built with the site says nothing of the command line.
    other = nav.replace("reference/cli.md", "reference/configuration.md")
    _, found = _run(tmp_path, {**files, "mkdocs.yml": other})
    assert ("CD103", "--seed") in found


def test_a_built_reference_holds_for_a_command_line_beside_the_configuration(
    tmp_path,
) -> None:
    # The configuration is a settings class; the command line a surface beside.
    settings = (
        "from pydantic_settings import BaseSettings\n\n\n"
        "class Settings(BaseSettings):\n"
        "    alpha: int = 1\n    beta: int = 2\n    gamma: int = 3\n"
    )
    nav = "site_name: t\nnav:\n  - reference/cli.md\n  - reference/options.md\n"
    config = "# Settings\n\n- `alpha` (int): a.\n- `beta` (int): b.\n- `gamma` (int): c.\n"
    files = {
        "tool/settings.py": settings,
        "tool/cli.py": _CLI,
        "docs/reference/options.md": _DOCS,
        "docs/settings.md": config,
        "mkdocs.yml": nav,
    }
    analysis, findings = check_project(tmp_path, files, "tool")
    assert analysis.schema.model_kind != "argparse"
    assert any(s.schema.model_kind == "argparse" for s in analysis.surfaces)
    assert not [f for f in findings if f.code == "CD103" and f.key.startswith("--")]
    files["mkdocs.yml"] = "site_name: t\n"
    _, findings = check_project(tmp_path / "without", files, "tool")
    assert [f for f in findings if f.code == "CD103" and f.key.startswith("--")]


def test_a_family_of_flags_written_with_a_star_names_each_of_them(tmp_path) -> None:
    code = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        + "".join(
            f"    parser.add_argument({flag!r}, help='x')\n"
            for flag in ("--model", "--lr", "--epochs", "--audio-ext", "--audio-fill", "--audiox")
        )
        + "    args = parser.parse_args()\n"
        "    return args.model, args.lr, args.epochs, args.audio_ext, args.audio_fill, args.audiox\n"
    )
    docs = "# Options\n\n- `--model` (str): the model.\n- `--lr` (float): the rate.\n"
    docs += "- `--epochs` (int): how long.\n"
    family = docs + "\nThe `--audio-*` flags enable audio training.\n"
    _, found = _run(tmp_path, {"tool/cli.py": code, "docs/options.md": family})
    undocumented = {key for code, key in found if code == "CD103"}
    # ``--audiox`` does not begin as the family does.
    assert undocumented == {"--audiox"}
    _, found = _run(tmp_path / "bare", {"tool/cli.py": code, "docs/options.md": docs})
    assert {"--audio-ext", "--audio-fill"} <= {key for code, key in found if code == "CD103"}


def test_short_flags_written_together_are_those_flags(tmp_path) -> None:
    """argparse takes ``-lv`` for ``-l -v``: documented, it is no flag the
    parser lacks; ``-lz``, whose ``-z`` no option takes, is one."""
    cli = _CLI.replace('parser.add_argument("--verbose",', 'parser.add_argument("-v", "--verbose",')
    docs = _DOCS + "- `-lv`: both at once.\n- `-lz`: one unknown.\n"
    _, found = _run(tmp_path, {"tool/cli.py": cli, "docs/cli.md": docs})
    rejected = sorted(key for code, key in found if code == "CD101")
    assert "-lv" not in rejected and "-lz" in rejected
