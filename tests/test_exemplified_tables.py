"""A table of defaults the docs document by examples alone: a page sets
its keys in Python blocks as a settings module does (``SHOP_META =
True``), one setting a block, with no entry for any of them. The keys the
examples set are documented there; a key none sets is undocumented, at
its own line of the table."""

from __future__ import annotations

from helpers import by_key, check_project

_KEYS = ("SHOP_META", "SHOP_AUTH", "SHOP_MAX_BODY", "SHOP_PROFILER", "SHOP_RESULT_PATH")

_CONFIG = (
    "class ShopConfig:\n"
    "    defaults = {\n"
    + "".join(f"        '{key}': {i},\n" for i, key in enumerate(_KEYS))
    + "        'SHOP_HIDE_COOKIES': True,\n"
    "    }\n\n"
    "    def __getattr__(self, item):\n"
    "        return self.defaults.get(item)\n"
)


def _readme(keys: tuple[str, ...]) -> str:
    return "# Shop\n\n## Configuration\n\n" + "".join(
        f"Turn on the {key.lower()} setting:\n\n```python\n{key} = 1\n```\n\n" for key in keys
    )


def test_a_table_its_examples_set_is_a_surface(tmp_path) -> None:
    files = {"shop/config.py": _CONFIG, "README.md": _readme(_KEYS[:4])}
    analysis, findings = check_project(tmp_path, files, "shop")
    assert "defaults" in {s.surface for s in analysis.everything}
    found = by_key(findings)
    undocumented = sorted(k for c, k in found if c == "CD103")
    assert undocumented == ["SHOP_HIDE_COOKIES", "SHOP_RESULT_PATH"]
    # Each at its own line of the table.
    assert found[("CD103", "SHOP_HIDE_COOKIES")].location.line == 8


def test_a_table_two_examples_set_is_no_surface(tmp_path) -> None:
    files = {"shop/config.py": _CONFIG, "README.md": _readme(_KEYS[:2])}
    analysis, findings = check_project(tmp_path, files, "shop")
    assert "defaults" not in {s.surface for s in analysis.everything}
    assert not [f for f in findings if f.code == "CD103"]


def test_examples_are_no_evidence_for_a_table_not_named_for_defaults(tmp_path) -> None:
    config = _CONFIG.replace("defaults", "lookup")
    files = {"shop/config.py": config, "README.md": _readme(_KEYS)}
    analysis, _ = check_project(tmp_path, files, "shop")
    assert "lookup" not in {s.surface for s in analysis.everything}
