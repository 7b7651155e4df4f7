"""A name the project's own Sphinx ``conf.py`` assigns in the namespace of
the options the project registers (``foo_show_footer`` beside
``foo_show_banner``), that no registration names and no code spells, is
ignored (CD302)."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.python_config import config_file_facts
from helpers import DATACLASS_ENTRIES, DATACLASS_SETTINGS, check_project

_SETUP = """
def setup(app):
    app.add_config_value("foo_show_banner", True, "html")
    app.add_config_value("foo_banner_text", "Hello", "html")
    app.add_config_value("foo_max_items", 10, "env")
"""

_CONF = """
import os
import sys

sys.path.insert(0, os.path.abspath(".."))
year = 2024
project = "sphinx-foo"
copyright = f"{year}, the authors"
extensions = ["sphinx_foo"]
html_theme = "alabaster"
foo_show_banner = True
foo_show_footer = False
"""

_README = """# sphinx-foo

## Options

- `foo_show_banner` (default `True`): show a banner.
- `foo_banner_text` (default `"Hello"`): the banner's text.
- `foo_max_items` (default `10`): how many items.
"""


def test_a_conf_py_assigns_the_names_it_never_reads() -> None:
    facts = config_file_facts(_CONF.encode())
    assert facts.blocks == []  # code beside the settings: no settings module
    assert facts.assigned == [
        ("project", 7),
        ("copyright", 8),
        ("extensions", 9),
        ("html_theme", 10),
        ("foo_show_banner", 11),
        ("foo_show_footer", 12),
    ]


def _found(tmp_path, conf: str = _CONF, setup: str = _SETUP, **more: str) -> dict:
    files = {
        "sphinx_foo/__init__.py": setup,
        "README.md": _README,
        "docs/conf.py": conf,
        **more,
    }
    _, findings = check_project(tmp_path, files, "sphinx_foo")
    return {f.key: f for f in findings if f.code == "CD302"}


def test_a_name_of_the_options_namespace_no_code_registers(tmp_path) -> None:
    found = _found(tmp_path)
    assert set(found) == {"foo_show_footer"}
    finding = found["foo_show_footer"]
    assert (finding.location.path, finding.location.line) == ("docs/conf.py", 12)
    assert "a name of the `foo_` options the project registers (3 of them)" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("sphinx_foo/__init__.py", 3)
    assert finding.suggestion is None


def test_a_name_one_letter_from_an_option_is_told_which(tmp_path) -> None:
    found = _found(tmp_path, _CONF.replace("foo_show_footer", "foo_show_baner"))
    assert found["foo_show_baner"].suggestion == "did you mean `foo_show_banner`?"


@pytest.mark.parametrize(
    ("old", "new", "files"),
    [
        # Registered, read as an attribute, quoted, or built at run time.
        (
            '"foo_max_items", 10, "env")',
            '"foo_max_items", 10, "env")\n    app.add_config_value("foo_show_footer", 1, "html")',
            {},
        ),
        (
            "",
            "",
            {"sphinx_foo/read.py": "def shown(app):\n    return app.config.foo_show_footer\n"},
        ),
        (
            "",
            "",
            {"sphinx_foo/read.py": 'SHOWN = ("foo_show_footer", "foo_show_banner")\n'},
        ),
        (
            "",
            "",
            {
                "sphinx_foo/read.py": 'def shown(app, part):\n    return getattr(app.config, f"foo_show_{part}")\n'
            },
        ),
        # A name registered at run time may be any.
        (
            '"foo_max_items", 10, "env")',
            '"foo_max_items", 10, "env")\n    for name in NAMES:\n        app.add_config_value(name, None, "html")',
            {},
        ),
    ],
)
def test_a_name_some_code_registers_or_reads_is_not_judged(tmp_path, old, new, files) -> None:
    setup = _SETUP.replace(old, new) if old else _SETUP
    assert setup != _SETUP or files
    assert "foo_show_footer" not in _found(tmp_path, setup=setup, **files)


@pytest.mark.parametrize(
    ("conf", "setup", "place"),
    [
        # The file reads the name itself: its variable.
        (_CONF + 'html_context = {"footer": foo_show_footer}\n', _SETUP, "docs/conf.py"),
        # The file sets none of the project's options: another's.
        (_CONF.replace("foo_show_banner = True\n", ""), _SETUP, "docs/conf.py"),
        # A test's conf.py, or a file of another name.
        (_CONF, _SETUP, "tests/roots/test-foo/conf.py"),
        (_CONF, _SETUP, "docs/other.py"),
        # Fewer than all but a tenth of the options share the words.
        (_CONF, _SETUP.replace('"foo_max_items"', '"max_items"'), "docs/conf.py"),
        # Words that name no package or module registering the options.
        (_CONF.replace("foo_", "bar_"), _SETUP.replace("foo_", "bar_"), "docs/conf.py"),
    ],
)
def test_a_name_not_plainly_an_option_of_the_projects_is_not_judged(
    tmp_path, conf, setup, place
) -> None:
    files = {"sphinx_foo/__init__.py": setup, "README.md": _README, place: conf}
    _, findings = check_project(tmp_path, files, "sphinx_foo")
    assert not [f for f in findings if f.code == "CD302" and "show_footer" in f.key]


def test_a_conf_py_of_settings_alone_is_no_example_of_the_projects_config(tmp_path) -> None:
    # Were it one, ``warp`` would be a key the model rejects (CD301).
    conf = 'seed = 1\ndevice = "gpu"\nworkers = 2\nwarp = 1\n'
    assert config_file_facts(conf.encode()).blocks  # a settings module's shape
    files = {
        "pkg/settings.py": DATACLASS_SETTINGS,
        "docs/settings.md": DATACLASS_ENTRIES,
        "docs/conf.py": conf,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if f.location.path == "docs/conf.py"]


def test_the_namespace_is_every_word_the_options_share(tmp_path) -> None:
    # ``sphinx_foo_``, not ``sphinx_``: another extension's names begin so too.
    setup = _SETUP.replace('"foo_', '"sphinx_foo_')
    conf = _CONF.replace("foo_show", "sphinx_foo_show") + "sphinx_tabs_valid = 1\n"
    assert set(_found(tmp_path, conf, setup)) == {"sphinx_foo_show_footer"}
