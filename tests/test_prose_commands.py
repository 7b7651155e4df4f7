"""A command line no page lists as entries, whose flags the prose names
(three quarters of a command's, or half where that is two or more; hidden
ones aside), is documented in prose:
a flag it never names is undocumented (CD103). A flag is named by any of
its long spellings, or given to the project's own program in a doc
command line by any spelling. Never where the prose names a flag or two
in passing, nor beside a command line documented by entries (whose other
commands may be rendered from their ``--help``); ``add_argument("-")``
(standard input) is no option."""

from __future__ import annotations

from configdrift.coverage import census
from configdrift.findings import settled
from helpers import by_key, check_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("-", action="store_true", dest="stdin", help="read standard input")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", "--worker", type=int, default=1, help="processes")
    parser.add_argument("--reload", action="store_true", help="reload on change")
    parser.add_argument("--debug", action="store_true", help="log more")
    parser.add_argument("--quiet", action="store_true", help="log less")
    parser.add_argument("-c", "--config-file", help="a configuration file")
    parser.add_argument("--add-timestamp", action="store_true", help="stamp the log")
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)
"""

_PAGE = """# Running the shop

Start it on another address with ``--host`` and another port with
``--port``; ``--worker`` sets how many processes serve, and ``--reload``
restarts them when the code changes. ``--debug`` logs more, ``--quiet``
less.

```console
$ shop -c shop.toml
```
"""

_PYPROJECT = '[project]\nname = "shop"\n\n[project.scripts]\nshop = "shop.cli:main"\n'


def _check(tmp_path, page: str = _PAGE, **more: str):
    files = {
        "pyproject.toml": _PYPROJECT,
        "shop/cli.py": _CLI,
        "docs/running.md": page,
        **more,
    }
    return check_project(tmp_path, files, "shop")


def _undocumented(findings) -> set[str]:
    return {k for c, k in by_key(findings) if c == "CD103"}


def test_a_command_line_documented_in_prose_has_its_unnamed_flags_undocumented(
    tmp_path,
) -> None:
    analysis, findings = _check(tmp_path)
    # ``--workers`` is named by its other long spelling, ``--config-file``
    # by its short one in a command line of the project's program; ``-``
    # is no option.
    assert _undocumented(findings) == {"--add-timestamp"}
    # No setup question: the prose documents it, and the census agrees.
    assert not any(f.code == "CD501" for f in findings)
    counted = census(analysis)
    assert counted.paths("undocumented") == [("--add-timestamp",)]


def test_no_setup_question_where_the_prose_documents_the_command_line(tmp_path) -> None:
    analysis, _ = _check(tmp_path)
    stored = settled(analysis, [], None, None, False, False, None)
    assert stored is not None
    assert not stored.messages


def test_flags_named_in_passing_document_nothing(tmp_path) -> None:
    # Two of the eight flags: not half.
    page = "# Running the shop\n\nStart it on another address with ``--host`` and ``--port``.\n"
    _, findings = _check(tmp_path, page)
    assert _undocumented(findings) == set()


def test_half_of_the_flags_named_in_prose_document_the_command(tmp_path) -> None:
    # Five of the eight flags: not three quarters, but half and more than one.
    page = _PAGE.replace("``--debug`` logs more, ``--quiet``\nless.", "")
    _, findings = _check(tmp_path, page)
    assert _undocumented(findings) == {"--add-timestamp", "--debug", "--quiet"}


_COMMON = """
import argparse


def common(parser):
    parser.add_argument("--verbose", action="store_true", help="log more")
    parser.add_argument("--color", action="store_true", help="colour the log")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    common(parser)
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    return parser.parse_args(argv)
"""


def test_one_flag_of_two_named_in_prose_documents_nothing(tmp_path) -> None:
    # Half of the common flags, but only one: named in passing.
    page = "# Running the shop\n\nUse ``--host``, ``--port``, ``--workers``; ``--verbose`` logs more.\n"
    _, findings = _check(tmp_path, page, **{"shop/cli.py": _COMMON})
    assert _undocumented(findings) == set()
    # Two of four are half, and more than one.
    more = '    parser.add_argument("--log-file", help="the log")\n'
    more += '    parser.add_argument("--log-level", help="how much")\n'
    cli = _COMMON.replace("\n\n\ndef main", "\n" + more + "\n\ndef main")
    page = page.replace("``--verbose``", "``--verbose`` or ``--color``")
    _, findings = _check(tmp_path / "four", page, **{"shop/cli.py": cli})
    assert _undocumented(findings) == {"--log-file", "--log-level"}


def test_a_short_flag_in_another_programs_command_line_names_nothing(tmp_path) -> None:
    page = _PAGE.replace("$ shop -c shop.toml", "$ other -c shop.toml")
    _, findings = _check(tmp_path, page)
    assert _undocumented(findings) == {"--add-timestamp", "--config-file"}


def test_beside_entries_the_prose_documents_no_other_command(tmp_path) -> None:
    # A page of entries documents another command line of the project:
    # the one the prose names may be rendered from its ``--help``.
    other = (
        "import argparse\n\n\ndef admin(argv=None):\n"
        '    parser = argparse.ArgumentParser(prog="admin")\n'
        '    parser.add_argument("--user", help="who")\n'
        '    parser.add_argument("--role", help="what")\n'
        '    parser.add_argument("--team", help="with whom")\n'
        "    return parser.parse_args(argv)\n"
    )
    table = (
        "# Admin\n\n| Option | Description |\n| --- | --- |\n"
        "| `--user` | who |\n| `--role` | what |\n| `--team` | with whom |\n"
    )
    _, findings = _check(tmp_path, **{"shop/admin.py": other, "docs/admin.md": table})
    assert _undocumented(findings) == set()


_APP_CONFIG = """
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    name: str = "shop"
    currency: str = "EUR"
    tax: float = 0.2


settings = Settings()
"""

_CONFIG_PAGE = """# Configuration

- `name` (str): the shop's name.
- `currency` (str): the currency.
- `tax` (float): the tax rate.
"""


def test_a_command_line_beside_the_configuration_documented_in_prose(tmp_path) -> None:
    # The root is the configuration file's model; the command line beside
    # it has no entries, and its pages write most of its flags in prose
    # and command lines: a surface, whose other flags are undocumented.
    files = {
        "pyproject.toml": _PYPROJECT,
        "shop/config.py": _APP_CONFIG,
        "shop/cli.py": _CLI,
        "docs/config.md": _CONFIG_PAGE,
        "docs/running.md": _PAGE,
    }
    analysis, findings = check_project(tmp_path, files, "shop")
    surfaces = {s.surface: s for s in analysis.everything}
    assert surfaces["cli"].admitted
    assert _undocumented(findings) == {"--add-timestamp"}
    # Two flags named in passing are no documentation of the command line.
    few = "# Running\n\nStart it with ``--host`` and ``--port``.\n"
    analysis, findings = check_project(tmp_path / "few", {**files, "docs/running.md": few}, "shop")
    assert "cli" not in {s.surface for s in analysis.everything}
    # Longer flags of other programs spell none of its flags whole.
    longer = "# Running\n\n" + "".join(
        f"Use ``--{flag}``.\n" for flag in ("hostname", "portal", "reloader", "debugger", "quietly")
    )
    analysis, _ = check_project(tmp_path / "longer", {**files, "docs/running.md": longer}, "shop")
    assert "cli" not in {s.surface for s in analysis.everything}
    # A changelog that names them is history, not documentation.
    history = {**files, "docs/running.md": few, "docs/changelog.md": _PAGE}
    analysis, _ = check_project(tmp_path / "history", history, "shop")
    assert "cli" not in {s.surface for s in analysis.everything}


_BENCH = """
import argparse


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup-rounds", type=int, default=2)
    return parser.parse_args()


if __name__ == "__main__":
    parse()
"""


def test_a_script_of_its_own_beside_a_command_line_documented_in_prose(tmp_path) -> None:
    # A module deep in the package that runs itself, no program the
    # project installs, none of whose flags a page writes: a script's own
    # flags, not the command line's undocumented ones.
    files = {
        "pyproject.toml": _PYPROJECT,
        "shop/config.py": _APP_CONFIG,
        "shop/cli.py": _CLI,
        "shop/kernels/__init__.py": "",
        "shop/kernels/bench.py": _BENCH,
        "docs/config.md": _CONFIG_PAGE,
        "docs/running.md": _PAGE,
    }
    _, findings = check_project(tmp_path / "bench", files, "shop")
    assert _undocumented(findings) == {"--add-timestamp"}
    # The program the project installs may run itself too: the flags of
    # its other functions are the command line's.
    routes = (
        "\n\ndef routes(parser):\n    parser.add_argument('--sort-by')\n"
        "    parser.add_argument('--all-methods', action='store_true')\n"
        "\n\nif __name__ == '__main__':\n    main()\n"
    )
    installed = {**files, "shop/cli.py": _CLI + routes}
    _, findings = check_project(tmp_path / "installed", installed, "shop")
    assert _undocumented(findings) == {"--add-timestamp", "--sort-by", "--all-methods"}
    # So are the flags of a script one of whose flags a page writes, and
    # a package's ``__main__`` (``python -m shop``).
    written = {**files, "docs/bench.md": "# Bench\n\nRun it ``--iterations`` times.\n"}
    _, findings = check_project(tmp_path / "written", written, "shop")
    assert _undocumented(findings) == {"--add-timestamp", "--warmup-rounds"}
    dunder = {k: v for k, v in files.items() if k != "shop/kernels/bench.py"}
    dunder["shop/__main__.py"] = _BENCH
    _, findings = check_project(tmp_path / "dunder", dunder, "shop")
    assert _undocumented(findings) == {"--add-timestamp", "--iterations", "--warmup-rounds"}
    # So is a module of the command line that does not run itself.
    imported = {**files, "shop/kernels/bench.py": _BENCH.split("\n\nif __name__")[0] + "\n"}
    _, findings = check_project(tmp_path / "imported", imported, "shop")
    assert _undocumented(findings) == {"--add-timestamp", "--iterations", "--warmup-rounds"}
