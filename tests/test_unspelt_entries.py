"""A documented flag of a command line that hands unknown flags back is
CD102 when no file of the project spells it as a flag (with its dashes,
anywhere) or as a key (quoted in Python, a config file's key); never a
flag some code spells or may build, a flag's generated negation, a flag of a
parser the project does not build or that plugins extend, a flag on a
page that is not plainly this command line's, nor a dict's key (a
computed read may read any key)."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--motd", action="store_true", help="greet")
    args, rest = parser.parse_known_args(argv)
    return args, rest
"""

_PAGE = """# Command line

```text
  --host HOST       the address
  --port PORT       the port
  --workers N       processes
  --motd            greet
  --no-motd         do not greet
  --inspect-raw     show the state
  -h, --help        show this help message and exit
```
"""


def _unread(tmp_path, page: str = _PAGE, cli: str = _CLI, **files: str) -> dict:
    base = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": page}
    _, findings = check_project(tmp_path, {**base, **files}, "shop")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD102"}


def test_a_flag_no_code_spells_is_read_by_nothing(tmp_path) -> None:
    found = _unread(tmp_path)
    assert set(found) == {"--inspect-raw"}
    finding = found["--inspect-raw"]
    assert (finding.location.path, finding.location.line) == ("docs/cli.md", 9)
    assert "no file of the project spells it as a flag or a key" in finding.message
    assert "no option of the command line takes it" in finding.message


@pytest.mark.parametrize(
    "spelling",
    [
        'MODES = ["inspect_raw"]\n',
        "# --inspect-raw is handled by the server\n",
        'def mode(name):\n    return "INSPECT-RAW"\n',
    ],
)
def test_a_flag_some_code_spells_is_left_alone(tmp_path, spelling) -> None:
    assert _unread(tmp_path, cli=_CLI + spelling) == {}


def test_a_flag_a_config_file_sets_as_a_key_is_left_alone(tmp_path) -> None:
    assert _unread(tmp_path, **{"shop.yaml": "inspect-raw: true\n"}) == {}


def test_a_file_too_large_to_search_may_name_any_key(tmp_path) -> None:
    from configdrift.rules.evidence import named_as_key

    big = "x: 1\n" * (1024 * 1024 // 5 + 1)
    files = {"shop/__init__.py": "", "shop/cli.py": _CLI, "docs/cli.md": _PAGE}
    analysis, _ = check_project(tmp_path, files, "shop")
    assert named_as_key(analysis, {"inspect_raw"}) == set()
    (tmp_path / "shop.yaml").write_text(big)
    analysis, _ = check_project(tmp_path, files, "shop")
    assert named_as_key(analysis, {"inspect_raw"}) == {"inspect_raw"}


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("shop/util.py", "# inspect raw state: inspect_raw is for later\nimport inspect\n"),
        ("deploy.yaml", "url: https://example.org/inspect-raw/\n"),
    ],
)
def test_a_word_no_key_or_flag_spells_no_flag(tmp_path, rel, text) -> None:
    # A comment, an identifier or a URL's path spells no flag.
    assert set(_unread(tmp_path, **{rel: text})) == {"--inspect-raw"}


def test_a_flag_a_built_name_may_be_is_left_alone(tmp_path) -> None:
    built = 'def state(args, how):\n    return getattr(args, f"inspect_{how}")\n'
    assert _unread(tmp_path, cli=_CLI + built) == {}


def test_the_negation_of_a_declared_flag_is_no_new_flag(tmp_path) -> None:
    page = _PAGE.replace("  --no-motd         do not greet\n", "  --no-colour       plain\n")
    assert set(_unread(tmp_path, page)) == {"--inspect-raw", "--no-colour"}


def test_a_parser_handed_over_by_another_program_may_have_its_options(tmp_path) -> None:
    cli = _CLI.replace(
        'def main(argv=None):\n    parser = argparse.ArgumentParser(prog="shop")\n',
        "def add_arguments(parser):\n",
    ).replace("    args, rest = parser.parse_known_args(argv)\n    return args, rest\n", "")
    cli += "\n\ndef handle(parser, argv):\n    return parser.parse_known_args(argv)\n"
    assert _unread(tmp_path, cli=cli) == {}


def test_a_parser_plugins_extend_may_have_their_options(tmp_path) -> None:
    plugins = (
        "from importlib.metadata import entry_points\n\n\n"
        "def load():\n"
        '    return [ep.load() for ep in entry_points(group="shop.plugins")]\n'
    )
    assert _unread(tmp_path, **{"shop/plugins.py": plugins}) == {}


def test_a_page_mostly_of_unknown_flags_is_not_judged(tmp_path) -> None:
    page = _PAGE.replace(
        "  --inspect-raw     show the state\n",
        "  --inspect-raw     show the state\n  --trigger         poke\n  --shutdown-all    stop\n",
    )
    assert _unread(tmp_path, page) == {}


_LOADER = """
from pydantic import BaseModel


class M(BaseModel):
    a: int = 1


def load(param_dict):
    m = M(**param_dict.get("m", {}))
    sec = param_dict.get("sec", {})
    extra = {name: sec.get(name.lower()) for name in sec.get("extra", [])}
    return m, sec.get("x", 1), sec.get("threads", 2), sec.get("retries", 3), extra
"""

_SECTION_PAGE = """# Configuration

## sec

- `x` (integer): the x. Default: `1`.
- `threads` (integer): threads. Default: `2`.
- `retries` (integer): retries. Default: `3`.
- `extra` (list): more keys to read.
- `ssl_keyfile` (string): a key file.
"""


def _section(tmp_path, loader: str = _LOADER) -> dict:
    files = {"pkg/__init__.py": "", "pkg/cfg.py": loader, "docs/config.md": _SECTION_PAGE}
    _, findings = check_project(tmp_path, files, "pkg")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD102"}


def test_a_dict_read_through_a_computed_key_may_read_any_key(tmp_path) -> None:
    # ``sec.get(name.lower())`` may read a key no file spells: the names
    # come from the config itself.
    assert _section(tmp_path) == {}


def test_a_flag_declared_under_a_built_name_is_left_alone(tmp_path) -> None:
    cli = _CLI.replace(
        "    args, rest =",
        '    for mode in ("json",):\n        parser.add_argument(f"--inspect-{mode}")\n    args, rest =',
    )
    assert _unread(tmp_path, cli=cli) == {}


def test_a_flag_built_from_a_bare_name_spells_no_flag(tmp_path) -> None:
    cli = _CLI.replace(
        "    args, rest =",
        '    for name in ("debug",):\n        parser.add_argument(f"--{name}")\n    args, rest =',
    )
    assert set(_unread(tmp_path, cli=cli)) == {"--inspect-raw"}
