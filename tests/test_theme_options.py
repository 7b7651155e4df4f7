"""A Sphinx HTML theme's options (``theme.conf``'s ``[options]``, or a
``theme.toml``'s) are a configuration when the docs name them: each option
with its default, documented by a page's entries or by examples that set
``html_theme_options``; an option no template (``theme_<name>``) or code
spells is read by nothing, unless the theme inherits one from outside the
project, whose templates may read it."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.markdown import extract_markdown
from helpers import by_key, check_project

_CONF = """[theme]
inherit = {inherit}
stylesheet = styles/shop.css

[options]
# Buttons
use_download_button = True
show_depth = 1
launch_buttons = {{}}
toc_title = Contents
footer_items = author.html
old_sections = []
"""

_LAYOUT = """{% extends "basic/layout.html" %}
{% if theme_use_download_button %}<a>download</a>{% endif %}
<nav data-depth="{{ theme_show_depth }}">{{ theme_toc_title }}</nav>
{% for item in theme_footer_items %}{% include item %}{% endfor %}
"""

_CODE = """
def launch(app):
    buttons = app.config.html_theme_options.get("launch_buttons", {})
    return buttons
"""

_REFERENCE = """# Theme options

| Key | Type | Description |
| --- | --- | --- |
| `use_download_button` | bool | Add a download button. |
| `show_depth` | int | How deep the navigation goes. |
| `launch_buttons` | bool | Add launch buttons. |
| `toc_title` | str | The title of the contents. |
"""


def _check(tmp_path, inherit: str = "basic", page: str = _REFERENCE, **files: str | None) -> dict:
    base = {
        "shop/__init__.py": "",
        "shop/launch.py": _CODE,
        "shop/theme/shop/theme.conf": _CONF.format(inherit=inherit),
        "shop/theme/shop/layout.html": _LAYOUT,
        "docs/options.md": page,
    }
    given = {path: text for path, text in {**base, **files}.items() if text is not None}
    _, findings = check_project(tmp_path, given, "shop")
    return by_key(findings)


def test_the_options_of_a_documented_theme_are_compared(tmp_path) -> None:
    found = _check(tmp_path)
    # ``True`` and ``1`` are a boolean and a number, as documented.
    assert {key for code, key in found if code == "CD105"} == {"launch_buttons"}
    assert "dict" in found["CD105", "launch_buttons"].message
    undocumented = {key for code, key in found if code == "CD103"}
    assert undocumented == {"footer_items", "old_sections"}
    where = found["CD103", "footer_items"].location
    assert (where.path, where.line) == ("shop/theme/shop/theme.conf", 11)


def test_an_option_no_template_or_code_spells_is_read_by_nothing(tmp_path) -> None:
    found = _check(tmp_path)
    assert {key for code, key in found if code == "CD202"} == {"old_sections"}
    assert "theme_old_sections" in found["CD202", "old_sections"].message


def test_a_theme_whose_pages_are_built_from_elsewhere_has_no_option_read_by_nothing(
    tmp_path,
) -> None:
    # Its folder holds no page: the templates that read its options are
    # built into it from sources elsewhere (``src/templates/``).
    copies = (
        "def context(options):\n    names = ('use_download_button', 'show_depth',"
        " 'launch_buttons', 'footer_items')\n    return {k: options.get(k) for k in names}\n"
    )
    found = _check(
        tmp_path,
        **{
            "shop/theme/shop/layout.html": None,
            "src/templates/layout.html": _LAYOUT,
            "shop/context.py": copies,
        },
    )
    assert not [key for code, key in found if code == "CD202"]
    # With its pages beside it, what none of them nor the code spells is read by nothing.
    found = _check(tmp_path / "beside", **{"shop/context.py": copies})
    assert {key for code, key in found if code == "CD202"} == {"old_sections"}


def test_an_option_of_sphinxs_basic_theme_is_read_by_its_templates(tmp_path) -> None:
    # ``basic``'s layout reads ``theme_navigation_with_keys``: a theme that
    # sets it over ``basic`` needs no template of its own to read it.
    conf = _CONF.format(inherit="basic") + "navigation_with_keys = False\n"
    found = _check(tmp_path, **{"shop/theme/shop/theme.conf": conf})
    assert {key for code, key in found if code == "CD202"} == {"old_sections"}


def test_a_theme_inheriting_one_outside_the_project_may_have_its_options_read_there(
    tmp_path,
) -> None:
    found = _check(tmp_path, inherit="pydata_sphinx_theme")
    assert not [key for code, key in found if code == "CD202"]
    # Its declared options are still compared with the docs.
    assert ("CD105", "launch_buttons") in found


def test_a_theme_of_the_project_it_inherits_reads_its_options_too(tmp_path) -> None:
    parent = "[theme]\ninherit = basic\n\n[options]\nparent_only = 1\n"
    template = "{{ theme_old_sections }}\n"
    child = _CONF.format(inherit="base") + "unused_flag = 1\n"
    files = {
        "shop/theme/base/theme.conf": parent,
        "shop/theme/base/page.html": template,
        "shop/theme/shop/theme.conf": child,
    }
    found = _check(tmp_path, **files)
    assert {key for code, key in found if code == "CD202"} == {"unused_flag"}


def test_templates_that_spell_few_options_say_nothing_of_the_others(tmp_path) -> None:
    # Templates that read the options some other way (half of them unseen)
    # cannot tell an option read by nothing.
    layout = "{% set opts = theme_options %}{{ theme_toc_title }}\n"
    found = _check(tmp_path, **{"shop/theme/shop/layout.html": layout})
    assert not [key for code, key in found if code == "CD202"]


def test_examples_that_set_the_options_document_them(tmp_path) -> None:
    page = _REFERENCE + (
        '\n## Footer\n\n```python\nhtml_theme_options = {\n    "footer_items": ["a.html"],\n}\n```\n'
    )
    found = _check(tmp_path, page=page)
    assert {key for code, key in found if code == "CD103"} == {"old_sections"}


def test_an_example_key_of_an_inherited_theme_is_not_judged(tmp_path) -> None:
    page = _REFERENCE + (
        '\n## More\n\n```python\nhtml_theme_options = {\n    "toc_title": "On this page",\n    "show_depth": 2,\n    "use_download_button": False,\n'
        '    "search_as_you_type": True,\n}\n```\n'
    )
    found = _check(tmp_path, inherit="pydata_sphinx_theme", page=page)
    assert ("CD302", "search_as_you_type") not in found
    # A theme that inherits only Sphinx's own ignores it.
    found = _check(tmp_path, page=page)
    assert ("CD302", "search_as_you_type") in found


#: Guides that show the options in a ``conf.py`` (reStructuredText's
#: ``code-block:: python``), with no reference of entries.
_GUIDE = """Buttons
=======

.. code-block:: python

    html_theme_options = {{
        "use_download_button": True,
        "show_depth": 2,
        "toc_title": "On this page",
        "launch_buttons": {{}},
        {more}
    }}

The footer is set with ``footer_items``.
"""


def test_examples_alone_make_a_theme_a_configuration(tmp_path) -> None:
    # No page lists the options: the examples that set five of them are the
    # evidence, and they document them.
    files = {"docs/options.md": "# Theme\n", "docs/guide.rst": _GUIDE.format(more="")}
    found = _check(tmp_path, **files)
    # ``footer_items``, named in the prose, is described there.
    assert {key for code, key in found if code == "CD103"} == {"old_sections"}


def test_too_few_options_set_by_examples_are_no_evidence(tmp_path) -> None:
    guide = """Buttons
=======

.. code-block:: python

    html_theme_options = {"toc_title": "On this page", "show_depth": 2}
"""
    files = {"docs/options.md": "# Theme\n", "docs/guide.rst": guide}
    found = _check(tmp_path, **files)
    assert not [key for code, key in found if code in ("CD103", "CD202")]


def test_options_set_below_another_key_are_no_evidence(tmp_path) -> None:
    # Keys of the same names below another key are another thing's.
    guide = (
        _GUIDE.format(more="")
        .replace("html_theme_options = {", 'extensions_config = {"viewer": {')
        .replace("    }", "    }}")
    )
    files = {"docs/options.md": "# Theme\n", "docs/guide.rst": guide}
    found = _check(tmp_path, **files)
    # No surface: not even the option read by nothing is said.
    assert not [key for code, key in found if code in ("CD103", "CD202")]


def test_an_option_named_nowhere_in_prose_is_undocumented(tmp_path) -> None:
    guide = _GUIDE.format(more="").replace("``footer_items``", "the footer option")
    files = {"docs/options.md": "# Theme\n", "docs/guide.rst": guide}
    found = _check(tmp_path, **files)
    assert {key for code, key in found if code == "CD103"} == {"footer_items", "old_sections"}


def test_an_option_a_comment_calls_deprecated_is_not_undocumented(tmp_path) -> None:
    conf = _CONF.format(inherit="basic").replace(
        "old_sections = []", "# DEPRECATED (remove in 2.0)\nold_sections = []"
    )
    found = _check(tmp_path, **{"shop/theme/shop/theme.conf": conf})
    assert {key for code, key in found if code == "CD103"} == {"footer_items"}
    # A comment that says something else marks nothing.
    conf = _CONF.format(inherit="basic").replace(
        "old_sections = []", "# Sections\nold_sections = []"
    )
    found = _check(tmp_path, **{"shop/theme/shop/theme.conf": conf})
    assert {key for code, key in found if code == "CD103"} == {"footer_items", "old_sections"}
    # A blank line ends what the comment heads.
    conf = _CONF.format(inherit="basic").replace(
        "old_sections = []", "# DEPRECATED\nfooter_size = 1\n\nold_sections = []"
    )
    found = _check(tmp_path, **{"shop/theme/shop/theme.conf": conf})
    assert {key for code, key in found if code == "CD103"} == {"footer_items", "old_sections"}


def test_a_theme_toml_declares_options_too(tmp_path) -> None:
    toml = (
        '[theme]\ninherit = "basic"\n\n[options]\nuse_download_button = true\n'
        'show_depth = 1\nlaunch_buttons = {}\ntoc_title = "Contents"\nold_sections = []\n'
    )
    files = {"shop/theme/shop/theme.conf": "", "shop/theme/shop/theme.toml": toml}
    found = _check(tmp_path, **files)
    assert ("CD105", "launch_buttons") in found
    assert {key for code, key in found if code == "CD202"} == {"old_sections"}


@pytest.mark.parametrize(
    "conf",
    [
        # No ``[theme]``: some other file's options.
        "[options]\nuse_download_button = True\nshow_depth = 1\nlaunch_buttons = {}\n",
        # Not INI at all.
        "use_download_button: True\n",
    ],
)
def test_a_file_that_declares_no_theme_is_no_configuration(tmp_path, conf) -> None:
    found = _check(tmp_path, **{"shop/theme/shop/theme.conf": conf})
    assert not [key for code, key in found if code in ("CD103", "CD105", "CD202")]


_LIST_TABLE = """# Options

```{list-table}
:widths: 10 5 40
:header-rows: 1
* - Key
  - Type
  - Description
* - `path_to_docs`
  - string
  - Where the docs are.
* - `launch_buttons`
  - bool
  - Launch buttons.
```
"""


def test_a_myst_list_table_is_a_table() -> None:
    facts = extract_markdown(_LIST_TABLE.encode())
    found = [(e.name, e.line, e.doc_type) for e in facts.entries]
    assert found == [("path_to_docs", 9, "string"), ("launch_buttons", 12, "bool")]


@pytest.mark.parametrize(
    ("options", "found"),
    [
        # Without ``:header-rows:``, the first row may still name the columns.
        ("", ["path_to_docs", "launch_buttons"]),
        # With two header rows, the second names them.
        (":header-rows: 2\n", ["launch_buttons"]),
    ],
)
def test_a_list_tables_header_rows(options, found) -> None:
    table = _LIST_TABLE.replace(":header-rows: 1\n", options)
    if options:
        table = table.replace("* - `path_to_docs`", "* - Key").replace(
            "* - Key\n  - Type", "* - Notes\n  - Kind", 1
        )
    facts = extract_markdown(table.encode())
    assert [e.name for e in facts.entries] == found


def test_a_themes_files_are_read_and_only_its_templates(tmp_path) -> None:
    from configdrift.config import Config
    from configdrift.discover import discover, may_read
    from helpers import make_project

    make_project(
        tmp_path,
        {
            "shop/__init__.py": "",
            "shop/theme/shop/theme.conf": _CONF.format(inherit="basic"),
            "shop/theme/shop/layout.html": _LAYOUT,
            "shop/static/page.html": "<p>not a theme's</p>",
            "deploy/nginx.conf": "server {}\n",
        },
    )
    sources = discover(Config(root=tmp_path))
    assert sources.themes == ["shop/theme/shop/theme.conf"]
    assert sources.templates == ["shop/theme/shop/layout.html"]
    # A ref's files are written for the same (``diff``): the theme's too.
    assert may_read("shop/theme/shop/theme.conf")
    assert not may_read("deploy/nginx.conf")


def test_an_untagged_conf_py_block_documents_the_options_it_sets(tmp_path) -> None:
    # ``.. code-block::`` with no language, captioned ``conf.py``.
    guide = _GUIDE.format(more="").replace(".. code-block:: python", ".. code-block::")
    untagged = (
        "\nFooter\n======\n\n.. code-block::\n    :caption: conf.py\n\n"
        '    html_theme_options = {\n        "old_sections": ["a"]\n    }\n'
    )
    files = {"docs/options.md": "# Theme\n", "docs/guide.rst": guide + untagged}
    found = _check(tmp_path, **files)
    assert {key for code, key in found if code == "CD103"} == set()


def test_an_untagged_block_that_is_no_dict_assignment_stays_plain() -> None:
    from configdrift.extract.docs.python_config import block_language

    assert block_language("", 'options = {\n    "a": 1,\n}\n') == "python"
    assert block_language("", 'options = {"a": 1}\nrun(options)\n') == ""
    assert block_language("", "$ app --x = {1}\n") == ""
    assert block_language("console", 'options = {"a": 1}\n') == "console"


def test_a_page_whose_python_or_untagged_block_assigns_a_dict_is_read() -> None:
    from configdrift.extract.byte_tests import may_show_example

    page = b"Footer\n======\n\n.. code-block::\n    :caption: conf.py\n\n    opts = {\n    }\n"
    assert may_show_example(page)
    assert may_show_example(page.replace(b"code-block::\n", b"code-block:: python\n"))
    # Python that assigns no dict shows API use, not a configuration.
    assert not may_show_example(page.replace(b"opts = {", b"run(opts"))


_MKDOCS_THEME = """# The shop theme's options
extends: {extends}
static_templates:
  - 404.html
highlightjs: true
hljs_style: github
navigation_depth: 2
color_mode: light
old_switch: false
"""

_MKDOCS_TEMPLATE = """{% if config.theme.highlightjs %}<script src="hl.js"></script>{% endif %}
<link rel="stylesheet" href="{{ config.theme.hljs_style }}.css">
<nav data-depth="{{ config.theme.navigation_depth }}" data-mode="{{ config.theme.color_mode }}">
{% for page in config.theme.static_templates %}{{ page }}{% endfor %}
"""

_MKDOCS_GUIDE = """# Choosing your theme

The shop theme supports the following options:

- `highlightjs`: Highlight code blocks. Default: `True`.
- `hljs_style`: The highlight.js style. Default: `github_light`.
- `navigation_depth`: How deep the navigation goes. Default: `2`.
- `color_mode`: `light` or `dark`. Default: `light`.
- `static_templates`: Pages rendered on their own. Default: `[]`.
"""


def _mkdocs_theme(tmp_path, extends: str = "null") -> dict:
    files = {
        "shop/__init__.py": "",
        "shop/themes/shop/mkdocs_theme.yml": _MKDOCS_THEME.format(extends=extends),
        "shop/themes/shop/main.html": _MKDOCS_TEMPLATE,
        "docs/user-guide/choosing-your-theme.md": _MKDOCS_GUIDE,
    }
    _, findings = check_project(tmp_path, files, "shop")
    return by_key(findings)


def test_a_mkdocs_themes_options_are_a_configuration(tmp_path) -> None:
    """A MkDocs theme's ``mkdocs_theme.yml`` holds its options at its top;
    its templates read them as ``config.theme.<name>``."""
    found = _mkdocs_theme(tmp_path)
    assert "github" in found["CD104", "hljs_style"].message
    where = found["CD104", "hljs_style"].related[0]
    assert (where.path, where.line) == ("shop/themes/shop/mkdocs_theme.yml", 6)
    assert {key for code, key in found if code == "CD103"} == {"old_switch"}
    # Users set them under ``theme:`` in their ``mkdocs.yml``.
    assert "accepted by theme," in found["CD103", "old_switch"].message
    # Read by no template, where they read the others.
    assert {key for code, key in found if code == "CD202"} == {"old_switch"}
    assert "`config.theme.old_switch`" in found["CD202", "old_switch"].message
    # What it extends, and the pages MkDocs renders on their own, are MkDocs's.
    assert not any(key in ("extends", "static_templates") for _, key in found)


def test_the_pages_mkdocs_renders_on_their_own_are_no_option_of_the_theme(tmp_path) -> None:
    # Neither documented nor read by a template: MkDocs reads it itself.
    guide = "\n".join(line for line in _MKDOCS_GUIDE.splitlines() if "static_templates" not in line)
    template = "\n".join(
        line for line in _MKDOCS_TEMPLATE.splitlines() if "static_templates" not in line
    )
    files = {
        "shop/__init__.py": "",
        "shop/themes/shop/mkdocs_theme.yml": _MKDOCS_THEME.format(extends="null"),
        "shop/themes/shop/main.html": template,
        "docs/user-guide/choosing-your-theme.md": guide,
    }
    _, findings = check_project(tmp_path, files, "shop")
    found = by_key(findings)
    assert ("CD202", "old_switch") in found
    assert not any(key == "static_templates" for _, key in found)


def test_a_mkdocs_theme_that_extends_another_outside_the_project_may_take_any(tmp_path) -> None:
    found = _mkdocs_theme(tmp_path, extends="material")
    assert ("CD202", "old_switch") not in found
