"""A MkDocs plugin's options are set in ``mkdocs.yml`` as one item of the
``plugins:`` list (``- my-plugin: {locale: en}``): an example block that
sets them there is an example of the plugin's config class, and only
such a block (the options sit at no root of their own)."""

from __future__ import annotations

from helpers import check_project

_PLUGIN = (
    "from mkdocs.config import config_options as c\n"
    "from mkdocs.config.base import Config\n"
    "from mkdocs.plugins import BasePlugin\n\n\n"
    "class MyConfig(Config):\n"
    "    enabled = c.Type(bool, default=True)\n"
    "    locale = c.Type(str, default='en')\n"
    "    type = c.Choice(('date', 'datetime', 'iso_date'), default='date')\n"
    "    rules = c.ListOfItems(c.Type(dict), default=[])\n\n\n"
    "class MyPlugin(BasePlugin[MyConfig]):\n"
    "    def on_page_markdown(self, markdown, page, config, files):\n"
    "        if self.config.enabled:\n"
    "            return markdown + self.config.locale + self.config.type + self.config.rules\n"
    "        return markdown\n"
)
_ENTRIES = (
    "## `enabled`\n\nDefault is `true`.\n\n"
    "## `locale`\n\nDefault is `en`.\n\n"
    "## `type`\n\nDefault is `date`.\n"
)


def _findings(tmp_path, block: str) -> set[tuple[str, str, int]]:
    page = f"# Options\n\n```yaml\n{block}```\n\n{_ENTRIES}"
    files = {"myplugin/plugin.py": _PLUGIN, "docs/options.md": page}
    _, findings = check_project(tmp_path, files, "myplugin")
    return {(f.code, f.key, f.location.line) for f in findings if f.code in ("CD301", "CD303")}


def test_the_plugins_item_that_sets_the_options_is_an_example_of_them(tmp_path) -> None:
    block = (
        "plugins:\n  - search\n  - my-plugin:\n      enabled: true\n"
        "      locale: en\n      type: timeago\n      timezone: UTC\n"
    )
    assert _findings(tmp_path, block) == {
        # A value none of the choices, and a key the class does not declare.
        ("CD303", "type", 9),
        ("CD301", "timezone", 10),
    }
    # The same, in a whole ``mkdocs.yml``.
    assert _findings(tmp_path / "whole", "site_name: Docs\n" + block) == {
        ("CD303", "type", 10),
        ("CD301", "timezone", 11),
    }


def test_an_item_shaped_like_another_config_or_a_block_at_the_root_is_not(tmp_path) -> None:
    # Another plugin's options (one of its keys is this plugin's).
    other = "plugins:\n  - search:\n      lang: en\n      separator: x\n      type: fast\n"
    assert _findings(tmp_path, other) == set()
    # The options at the top of a block are not where MkDocs reads them.
    root = "enabled: true\nlocale: en\ntype: timeago\ntimezone: UTC\n"
    assert _findings(tmp_path / "root", root) == set()
    # Options two mappings down, no item of a list.
    nested = "site:\n  extra:\n    mine:\n      enabled: true\n      locale: en\n      type: x\n"
    assert _findings(tmp_path / "nested", nested) == set()
    # Items of a list that is one of the options.
    rules = "rules:\n  - first:\n      enabled: true\n      locale: en\n      type: x\n"
    assert _findings(tmp_path / "rules", rules) == set()
    # Two items shaped like the options: which one is this plugin's is not certain.
    two = (
        "plugins:\n  - one:\n      enabled: true\n      locale: en\n      type: timeago\n"
        "  - two:\n      enabled: true\n      locale: en\n      type: x\n"
    )
    assert _findings(tmp_path / "two", two) == set()


def test_an_item_of_one_option_and_a_misspelt_one_is_an_example_of_them(tmp_path) -> None:
    # ``locale`` is an option; ``enable`` a letter off ``enabled``.
    block = "plugins:\n  - my-plugin:\n      locale: de\n      enable: false\n"
    assert _findings(tmp_path, block) == {("CD301", "enable", 7)}
    unlike = {
        # A key far from every option: another plugin's, maybe.
        "far": "locale: de\n      lang: fr",
        # A word too short to tell a misspelling from another key.
        "short": "locale: de\n      typo: x",
        # Nor one a letter off a key that short (``rules``).
        "short key": "locale: de\n      rulles: x",
        # Misspellings alone, no option spelt right: not shown to be these.
        "none": "localle: de\n      enable: false",
    }
    for name, options in unlike.items():
        item = f"plugins:\n  - my-plugin:\n      {options}\n"
        assert _findings(tmp_path / name, item) == set(), name


def _page_findings(tmp_path, *blocks: str) -> set[tuple[str, str, int]]:
    page = "# Options\n\n" + "".join(f"```yaml\n{block}```\n\n" for block in blocks) + _ENTRIES
    files = {"myplugin/plugin.py": _PLUGIN, "docs/options.md": page}
    _, findings = check_project(tmp_path, files, "myplugin")
    return {(f.code, f.key, f.location.line) for f in findings if f.code in ("CD301", "CD303")}


def test_a_section_s_example_under_the_item_a_whole_example_names(tmp_path) -> None:
    whole = "plugins:\n  - my-plugin:\n      enabled: true\n      locale: en\n"
    # One option set under ``- my-plugin:``, once a whole example names it.
    one = "plugins:\n  - my-plugin:\n      timezone: UTC\n"
    assert _page_findings(tmp_path, whole, one) == {("CD301", "timezone", 13)}
    # No whole example names the item: one option alone may be another
    # plugin's, and so may one under another item's name.
    assert _page_findings(tmp_path / "alone", one) == set()
    other = "plugins:\n  - search:\n      timezone: UTC\n"
    assert _page_findings(tmp_path / "other", whole, other) == set()
