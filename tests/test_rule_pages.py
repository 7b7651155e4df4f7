"""Each rule has a page of the docs site, made from the same text as
``configdrift rule``: kept in step by this test. Regenerate deliberately
with CONFIGDRIFT_UPDATE_GOLDEN=1 and read the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from configdrift.commands.rules import SECTIONS, rule_page
from configdrift.rules import RULES

PAGES = Path(__file__).resolve().parents[1] / "docs" / "rules"
#: The rules with documentation (a planned rule has none yet).
DOCUMENTED = sorted(code for code, rule in RULES.items() if rule.doc)


@pytest.mark.parametrize("code", DOCUMENTED)
def test_each_rule_has_its_page_made_from_its_documentation(code: str) -> None:
    page = PAGES / f"{code}.md"
    made = rule_page(code)
    if os.environ.get("CONFIGDRIFT_UPDATE_GOLDEN"):
        page.parent.mkdir(exist_ok=True)
        page.write_text(made, encoding="utf-8")
    assert page.read_text(encoding="utf-8") == made
    # Every section of the documentation is a heading of the page.
    assert all(f"\n## {section}\n" in made for section in SECTIONS)


def test_no_page_of_a_rule_that_does_not_exist() -> None:
    assert sorted(p.stem for p in PAGES.glob("*.md")) == DOCUMENTED


def test_the_rules_table_links_every_page() -> None:
    table = (PAGES.parent / "rules.md").read_text(encoding="utf-8")
    for code in DOCUMENTED:
        assert f"[{code}](rules/{code}.md)" in table
