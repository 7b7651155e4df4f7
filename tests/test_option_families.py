"""The tables of options a family of classes declares under one name
(pylint's checkers' ``options = (("max-line-length", {"default": 100}),
...)``) are one configuration, and a page that spells their keys as flags
(``--max-line-length`` underlined) documents it
(``resolve.mechanisms.option_tables``)."""

from __future__ import annotations

from helpers import by_key, check_project

_FORMAT = """
from lint.checkers.base import BaseChecker


class FormatChecker(BaseChecker):
    name = "format"
    options = (
        ("max-line-length", {"default": 100, "type": "int", "help": "Longest line."}),
        ("indent-string", {"default": "    ", "type": "string", "help": "Indent unit."}),
        ("indent-after-paren", {"default": 4, "type": "int", "help": "Hanging indent."}),
    )
"""

_SIMILAR = """
from lint.checkers.base import BaseChecker


class SimilarChecker(BaseChecker):
    name = "similarities"
    options: tuple = (
        ("min-similarity-lines", {"default": 4, "type": "int", "help": "Fewest lines."}),
        ("ignore-comments", {"default": True, "type": "yn", "help": "Skip comments."}),
    )
"""

_BASE = """
class BaseChecker:
    options: tuple = ()
"""

# A standalone command of its own, whose flag shares a checker's name and
# not its default.
_STANDALONE = """
import argparse


def run():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ignore-comments", action="store_true", help="Skip comments.")
    parser.add_argument("--duplicates", type=int, default=4, help="Fewest lines.")
    parser.add_argument("--verbose", action="store_true", help="Talk.")
    return parser.parse_args()
"""


_QUOTE = '"'


def _heading(flag: str, default: str) -> str:
    return f"{flag}\n{_QUOTE * len(flag)}\n*What it does.*\n\n**Default:**  ``{default}``\n\n"


_PAGE = "All options\n===========\n\n" + "".join(
    _heading(flag, default)
    for flag, default in (
        ("--max-line-length", "100"),
        ("--indent-string", "'    '"),
        ("--indent-after-paren", "8"),
        ("--min-similarity-lines", "4"),
        ("--ignore-comments", "True"),
    )
)


def _files(**more: str) -> dict[str, str]:
    return {
        "lint/checkers/__init__.py": "",
        "lint/checkers/base.py": _BASE,
        "lint/checkers/format.py": _FORMAT,
        "lint/checkers/similar.py": _SIMILAR,
        "docs/all-options.rst": _PAGE,
        **more,
    }


def test_the_tables_of_a_family_of_classes_are_one_configuration(tmp_path) -> None:
    analysis, findings = check_project(tmp_path, _files(), "lint")
    table = next(s for s in analysis.everything if "max-line-length" in s.schema.children)
    # Five keys of two classes, neither of which has five alone.
    assert set(table.schema.children) == {
        "max-line-length",
        "indent-string",
        "indent-after-paren",
        "min-similarity-lines",
        "ignore-comments",
    }
    assert table.schema.children["ignore-comments"].location.path == "lint/checkers/similar.py"
    found = by_key(findings)
    # The page spells the keys as flags; its entries are the table's.
    assert "4" in found[("CD104", "--indent-after-paren")].message
    assert ("CD104", "--max-line-length") not in found


def test_a_flag_a_command_shares_with_the_family_is_the_familys(tmp_path) -> None:
    # The standalone command's ``--ignore-comments`` defaults to False; the
    # page documents the checker's, whose default is True.
    _, findings = check_project(tmp_path, _files(**{"lint/standalone.py": _STANDALONE}), "lint")
    assert not any(f.key == "--ignore-comments" for f in findings), [
        (f.code, f.key) for f in findings
    ]


def test_one_class_of_the_name_is_a_table_of_its_own_size(tmp_path) -> None:
    # Without the similar checker, three options are too few for a table.
    files = _files()
    del files["lint/checkers/similar.py"]
    analysis, findings = check_project(tmp_path, files, "lint")
    assert not any("max-line-length" in s.schema.children for s in analysis.everything)
    assert not findings or all(f.key != "--indent-after-paren" for f in findings)


def test_keys_the_docs_spell_bare_keep_their_spelling(tmp_path) -> None:
    page = _PAGE
    for flag in ("max-line-length", "indent-string", "indent-after-paren"):
        old = f"--{flag}\n{_QUOTE * (len(flag) + 2)}"
        page = page.replace(old, f"``{flag}``\n{_QUOTE * (len(flag) + 4)}")
    analysis, _ = check_project(tmp_path, {**_files(), "docs/all-options.rst": page}, "lint")
    table = next(s for s in analysis.everything if "max-line-length" in s.schema.children)
    # Three keys spelt bare, two as flags: fewer than half are flags.
    assert table.schema.children["max-line-length"].spellings == ("max-line-length",)


def test_two_classes_of_too_few_keys_are_no_table(tmp_path) -> None:
    files = _files()
    files["lint/checkers/format.py"] = _FORMAT.replace(
        '        ("indent-after-paren", {"default": 4, "type": "int", "help": "Hanging indent."}),\n',
        "",
    )
    analysis, _ = check_project(tmp_path, files, "lint")
    # Four keys of two classes.
    assert not any("max-line-length" in s.schema.children for s in analysis.everything)


def test_a_key_two_classes_declare_with_two_defaults_has_none(tmp_path) -> None:
    files = _files()
    files["lint/checkers/similar.py"] = _SIMILAR.replace(
        "    )\n",
        '        ("indent-after-paren", {"default": 8, "type": "int", "help": "Hanging."}),\n    )\n',
    )
    analysis, findings = check_project(tmp_path, files, "lint")
    table = next(s for s in analysis.everything if "max-line-length" in s.schema.children)
    assert table.schema.children["indent-after-paren"].default is None
    assert ("CD104", "--indent-after-paren") not in by_key(findings)
