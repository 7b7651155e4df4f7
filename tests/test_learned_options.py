"""Options declared through a name of the project's own: a call made
again and again with a flag first and argparse's keywords is taken as
``add_argument`` is (``options.learned_flag_methods``)."""

from __future__ import annotations

from helpers import by_key, check_project

_OPTIONS = """
def register_default_options(option_manager):
    add_option = option_manager.add_option
    add_option("--count", action="store_true", help="Print the total.")
    add_option("--exclude", default="", help="Skip these.")
    add_option("--max-line-length", type=int, default=79, help="Longest line.")
    add_option("--show-source", action="store_true", help="Show the line.")
    add_option("--no-show-source", action="store_false", dest="show_source", help="Hide it.")
    add_option("--jobs", default="auto", help="Processes.")
"""

_DOCS = """
Options
=======

.. option:: --count

   Print the total.

.. option:: --exclude=<patterns>

   Skip these.

.. option:: --max-line-length=<n>

   Longest line. Default: 100

.. option:: --show-source

   Show the line.
"""


def test_a_name_called_with_flags_again_and_again_declares_options(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"tool/options.py": _OPTIONS, "docs/options.rst": _DOCS}, "tool"
    )
    options = analysis.schema.children
    # (and ``--help``, which a parser taken as argparse's has of its own)
    assert set(options) == {"count", "exclude", "max_line_length", "show_source", "jobs", "help"}
    assert options["show_source"].spellings == ("--show-source", "--no-show-source")
    found = by_key(findings)
    assert ("CD103", "--jobs") in found or ("CD103", "jobs") in found
    assert any(code == "CD104" and "max" in key for code, key in found)


def test_a_few_calls_or_calls_without_a_flags_keywords_declare_nothing(tmp_path) -> None:
    few = "\n".join(_OPTIONS.splitlines()[:6]) + "\n"
    plain = _OPTIONS.replace("help=", "note=").replace("action=", "how=")
    plain = plain.replace("default=", "value=").replace("type=", "kind=").replace("dest=", "to=")
    for code in (few, plain):
        analysis, _ = check_project(
            tmp_path, {"tool/options.py": code, "docs/options.rst": _DOCS}, "tool"
        )
        assert analysis.schema.children == {}


_FIELDS = """
import attrs

from app.option_set import opt


@attrs.define
class Options:
    count: bool = attrs.field(default=False, metadata=opt("-c", "--count", help="Print the total."))
    exclude: str = attrs.field(default="", metadata=opt("--exclude", help="Skip these."))
    max_line_length: int = attrs.field(
        default=79, metadata=opt("--max-line-length", help="Longest line.")
    )
    show_source: bool = attrs.field(
        default=False, metadata=opt("--show-source", help="Show the line.")
    )
    jobs: str = attrs.field(default="auto", metadata=opt("-j", "--jobs", help="Processes."))
    version: bool = attrs.field(default=False, metadata=opt("--version", help="The version."))
    # Present on the object, not on the command line: no flags, no option.
    internal: bool = attrs.field(default=False, metadata=opt(hidden=True))
    plain: int = attrs.field(default=3, metadata={"help": "No flags."})
"""


def test_a_field_whose_metadata_declares_its_flags_is_an_option(tmp_path) -> None:
    files = {
        "app/option_set.py": "def opt(*flags, **kwargs):\n    return {'opt': (flags, kwargs)}\n",
        "app/options.py": _FIELDS,
        "docs/options.rst": _DOCS.replace("--max-line-length=<n>", "--max-line-length=<n>"),
    }
    analysis, findings = check_project(tmp_path, files, "app")
    cli = next(s.schema for s in analysis.everything if s.schema.model_kind == "argparse")
    # The field's name is the key; its flags are its spellings.
    assert set(cli.children) >= {"count", "exclude", "max_line_length", "show_source", "jobs"}
    assert set(cli.children["count"].spellings) == {"-c", "--count"}
    assert "internal" not in cli.children and "plain" not in cli.children
    found = by_key(findings)
    # Undocumented: ``--jobs``; never ``--version``, which no page need describe.
    assert ("CD103", "--jobs") in found
    assert ("CD103", "--version") not in found
    assert ("CD104", "--max-line-length") in found


_HANDED = """
import argparse


def add_argument(parser, *args, envvar=None, **kwargs):
    return parser.add_argument(*args, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    add_argument(parser, "--count", action="store_true", help="Print the total.")
    add_argument(parser, "--exclude", default="", help="Skip these.")
    add_argument(parser, "--max-line-length", type=int, default=79, help="Longest line.")
    add_argument(parser, "--show-source", action="store_true", help="Show the line.")
    add_argument(parser, "--jobs", default="auto", envvar="JOBS", help="Processes.")
    return parser.parse_args()
"""


def test_a_function_handed_the_parser_first_declares_the_flag_after_it(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": _HANDED, "docs/options.rst": _DOCS}, "tool"
    )
    options = analysis.schema.children
    assert {"count", "exclude", "max_line_length", "show_source", "jobs"} <= set(options)
    assert options["max_line_length"].default is not None
    assert options["max_line_length"].default.value == 79
    found = by_key(findings)
    assert any(code == "CD104" and "max" in key for code, key in found)


def test_a_call_handed_a_name_then_no_flag_declares_nothing(tmp_path) -> None:
    # The word after the name is no flag: a call of another kind.
    code = _HANDED.replace('(parser, "--', '(parser, "')
    analysis, _ = check_project(tmp_path, {"tool/cli.py": code, "docs/options.rst": _DOCS}, "tool")
    assert not {"count", "exclude", "jobs"} & set(analysis.schema.children)


_ATTRIBUTES = """
from plumbum import cli


class CopyApp(cli.Application):
    pretend = cli.Flag(["-n", "--pretend"], help="Run but change nothing.")
    quiet = cli.Flag(["-q", "--quiet"], help="Say nothing.")
    exclude = cli.SwitchAttr(["-x", "--exclude"], str, list=True, help="Skip these.")
    answers = cli.SwitchAttr(["-a", "--answers-file"], default=None, help="Answers.")
    overwrite = cli.Flag(["-w", "--overwrite"], help="Overwrite files.")
    rcfile = cli.SwitchAttr(["", "--rcfile"], help="The settings file.")
    debug = cli.SwitchAttr("", "--debug", action="store", help="Debug.")

    @cli.switch(["--data-file"], cli.ExistingFile, help="Load data from a file.")
    def data_file_switch(self, path):
        self.loaded = path

    def main(self):
        return self.pretend, self.quiet, self.exclude, self.answers, self.overwrite
"""

#: The options the page documents, each with its description.
_DOCUMENTED = {
    "-n, --pretend": "Run but change nothing.",
    "-q, --quiet": "Say nothing.",
    "-x, --exclude": "Skip these.",
    "-a, --answers-file": "Answers.",
    "--overwrite": "Overwrite files.",
    "--rcfile": "The settings file.",
    "--debug": "Debug.",
    "--dry-run": "No such flag.",
}
_ATTRIBUTE_DOCS = "Options\n=======\n\n" + "".join(
    f".. option:: {flags}\n\n   {text}\n\n" for flags, text in _DOCUMENTED.items()
)


def test_class_attributes_that_declare_their_flags_as_a_list_are_options(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": _ATTRIBUTES, "docs/options.rst": _ATTRIBUTE_DOCS}, "tool"
    )
    options = analysis.schema.children
    # Each read as its attribute; the empty string is no flag (in a list
    # or not: optparse's ``make_option("", "--rcfile")``), the type after
    # the list no flag either.
    assert set(options) - {"help"} == {
        "pretend",
        "quiet",
        "exclude",
        "answers",
        "overwrite",
        "rcfile",
        "debug",
        "data_file",
    }
    assert options["exclude"].spellings == ("--exclude", "-x")
    assert options["rcfile"].spellings == ("--rcfile",)
    found = by_key(findings)
    assert ("CD103", "-w") in found  # the one short flag the docs leave out
    assert ("CD101", "--dry-run") in found  # the parser is strict
    # Read: each attribute the code reads, and the flag a decorator
    # declares, handed to the function it decorates; not the others.
    assert {key for code, key in found if code == "CD202"} == {"--rcfile", "--debug"}


def test_an_attribute_whose_flags_are_built_at_run_time_opens_the_command_line(tmp_path) -> None:
    built = _ATTRIBUTES + '    extra = cli.SwitchAttr(*EXTRA, help="More.", default=None)\n'
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": built, "docs/options.rst": _ATTRIBUTE_DOCS}, "tool"
    )
    assert "pretend" in analysis.schema.children
    # ``--dry-run`` may be one of the flags built at run time: not an error.
    assert ("CD101", "--dry-run") not in by_key(findings)


_BOUND = """
from optparse import OptionParser


def create_parser():
    parser = OptionParser(VERSION_GIVEN)
    option = parser.add_option
    option("-e", "--explain", action="store_true", help="Explain each error.")
    option("-s", "--source", action="store_true", help="Show the source.")
    option("--count", action="store_true", help="Print the total.")
    option("--match", default="*.py", help="Check these files.")
    option("-d", "--debug", action="store_true", help="Print debug information.")
    option("-v", "--verbose", action="store_true", help="Print status information.")
    return parser
"""

_BOUND_DOCS = """
Usage
=====

.. option:: --explain

   Explain each error.

.. option:: --source

   Show the source.

.. option:: --count

   Print the total.

.. option:: --debug

   Print debug information.

.. option:: --verbose

   Print status information.

.. option:: --version

   Print the version and exit.
"""


def test_a_local_bound_to_a_parsers_method_declares_options_through_it(tmp_path) -> None:
    code = _BOUND.replace("VERSION_GIVEN", 'version="1.0"')
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": code, "docs/usage.rst": _BOUND_DOCS}, "tool"
    )
    options = analysis.schema.children
    assert {"explain", "source", "count", "match", "version"} <= set(options)
    found = by_key(findings)
    assert ("CD103", "--match") in found
    # ``OptionParser(version=...)`` adds ``--version``: documenting it is right.
    assert not any(key == "--version" for _, key in found)


def test_a_local_bound_to_another_method_declares_nothing(tmp_path) -> None:
    code = _BOUND.replace("VERSION_GIVEN", 'version="1.0"').replace(
        "parser.add_option\n", "parser.print_usage\n"
    )
    analysis, _ = check_project(
        tmp_path, {"tool/cli.py": code, "docs/usage.rst": _BOUND_DOCS}, "tool"
    )
    assert analysis.schema.children == {}


def test_a_parser_given_no_version_has_no_version_flag(tmp_path) -> None:
    code = _BOUND.replace("VERSION_GIVEN", 'usage="%prog [options]"')
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": code, "docs/usage.rst": _BOUND_DOCS}, "tool"
    )
    assert "version" not in analysis.schema.children
    assert ("CD101", "--version") in by_key(findings)


def test_another_librarys_option_parser_given_a_version_adds_no_flag(tmp_path) -> None:
    code = _BOUND.replace("VERSION_GIVEN", 'version="1.0"').replace(
        "from optparse import", "from othertool.parsing import"
    )
    analysis, findings = check_project(
        tmp_path, {"tool/cli.py": code, "docs/usage.rst": _BOUND_DOCS}, "tool"
    )
    assert "version" not in analysis.schema.children
    assert ("CD101", "--version") in by_key(findings)
