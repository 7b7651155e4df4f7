"""A key the code warns is deprecated (``"The old_color option is
deprecated, use ..."``) is deprecated to CD402: a doc example that sets
it, or an entry that says nothing of it, teaches an old spelling. Only the
key the message opens with, in a string; an entry whose description says
so further down is not reported."""

from __future__ import annotations

from helpers import by_key, check_project

_EXT = """
import logging

logger = logging.getLogger(__name__)


def setup(app):
    app.add_config_value("theme_color", "blue", "html")
    app.add_config_value("old_color", "", "html")
    app.add_config_value("nav_depth", 4, "html")
    app.add_config_value("side_bar", True, "html")
    app.add_config_value("debug", False, "html")
    app.connect("config-inited", check)


def check(app, config):
    if config.old_color:
        logger.warning("The old_color option is deprecated, use theme_color instead.")
    # "The nav_depth option is deprecated": only this comment says so.
    if config.debug:
        logger.warning("debug is deprecated")  # a word, not a key in parts
    if config.side_bar == "left":
        logger.warning("Using 'left' in side_bar is deprecated.")
    # A value of the key, not the key, in one string and in three.
    if config.nav_depth is True:
        logger.warning("Using a boolean for 'nav_depth' is deprecated")
    if config.side_bar is None:
        logger.warning(
            "Since 2.0, using None for "
            "'side_bar' is "
            "deprecated."
        )
"""

_DOCS = """
# Settings

```python
theme_color = "red"
old_color = "red"
nav_depth = 2
side_bar = False
debug = True
```

## `theme_color`

The color.

## `old_color`

The old color.

## `nav_depth`

How deep.

## `side_bar`

Show the side bar.

## `debug`

Debug.
"""


def _found(tmp_path, docs: str = _DOCS) -> dict:
    files = {"ext/__init__.py": _EXT, "docs/settings.md": docs}
    _, findings = check_project(tmp_path, files, "ext")
    return by_key(findings)


def test_a_key_the_code_warns_is_deprecated(tmp_path) -> None:
    found = _found(tmp_path)
    deprecated = sorted(key for code, key in found if code == "CD402")
    # The replacement named after "deprecated, use", a comment, and a key
    # the message is not about are not deprecated.
    assert deprecated == ["old_color"]
    finding = found[("CD402", "old_color")]
    assert finding.related[0].path == "ext/__init__.py"
    assert finding.related[0].line == 18


def test_an_entry_that_says_so_below_its_title_is_not_reported(tmp_path) -> None:
    docs = _DOCS.replace(
        "The old color.\n",
        "The old color.\n\nSome more words.\n\n*Deprecated:* use `theme_color`.\n",
    )
    docs = docs.replace('old_color = "red"\n', "")
    assert ("CD402", "old_color") not in _found(tmp_path, docs)
    # Beyond the next entry's title, the words are that entry's.
    later = docs.replace("*Deprecated:* use `theme_color`.\n", "").replace(
        "How deep.\n", "How deep. The old color is deprecated.\n"
    )
    assert ("CD402", "old_color") in _found(tmp_path / "later", later)


_CLI = """
import argparse
import warnings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paste", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--color", action="store_true")
    args = parser.parse_args()
    if args.paste:
        warnings.warn("The --paste option is deprecated.")
    if args.color:
        warnings.warn("Using --color with --verbose is deprecated.")
    return args.verbose
"""


def test_a_flag_the_code_warns_is_deprecated(tmp_path) -> None:
    # A flag of one word is deprecated where the message opens with it
    # (`--paste`), not where it names it further on (`--color`).
    docs = "# Options\n\n- `--paste`: paste the output.\n- `--verbose`: say more.\n- `--color`: color.\n"
    _, findings = check_project(tmp_path, {"cli/main.py": _CLI, "docs/cli.md": docs}, "cli")
    assert sorted(key for code, key in by_key(findings) if code == "CD402") == ["--paste"]


_EXT_SPLIT = _EXT.replace(
    '        logger.warning("The old_color option is deprecated, use theme_color instead.")',
    "        logger.warning(\n"
    '            "The old_color configuration item is"\n'
    '            " deprecated, use theme_color instead."\n'
    "        )",
)


def test_a_message_cut_into_strings_and_two_nouns_still_says_so(tmp_path) -> None:
    files = {"ext/__init__.py": _EXT_SPLIT, "docs/settings.md": _DOCS}
    _, findings = check_project(tmp_path, files, "ext")
    assert ("CD402", "old_color") in by_key(findings)


def test_a_key_the_code_warns_is_deprecated_needs_no_entry(tmp_path) -> None:
    # Left out of the docs on purpose: no CD103 for it, as for any other
    # undocumented key (``extra_key``).
    docs = _DOCS.replace("## `old_color`\n\nThe old color.\n\n", "").replace(
        'old_color = "red"\n', ""
    )
    extra = '    app.add_config_value("extra_key", 1, "html")\n    app.connect('
    for name, code in (("split", _EXT_SPLIT), ("plain", _EXT)):
        files = {
            "ext/__init__.py": code.replace("    app.connect(", extra),
            "docs/settings.md": docs,
        }
        _, findings = check_project(tmp_path / name, files, "ext")
        found = by_key(findings)
        assert ("CD103", "old_color") not in found, name
        assert ("CD103", "extra_key") in found, name


def test_a_message_line_that_says_so_alone_is_read_alone(tmp_path) -> None:
    # The string before it is another sentence: joined, the message would
    # no longer open with the key.
    code = _EXT_SPLIT.replace(
        '            "The old_color configuration item is"\n            " deprecated, use theme_color instead."',
        '            "Check the settings."\n            "The old_color option is deprecated."',
    )
    files = {"ext/__init__.py": code, "docs/settings.md": _DOCS}
    _, findings = check_project(tmp_path, files, "ext")
    assert ("CD402", "old_color") in by_key(findings)
