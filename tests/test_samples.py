"""The samples in the README and the docs are what configdrift prints.

A sample is marked with an HTML comment before its fenced block:
``<!-- sample: ARGS -->`` (text: the block's lines appear, in order and
together, in the output of ``configdrift ARGS`` run from the repository's
root) or ``<!-- sample-json: ARGS -->`` (JSON: every value the block gives
is the output's; ``"..."`` stands for any value, and a list's items each
match one of the output's items)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli

REPO = Path(__file__).parent.parent
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
_SAMPLE = re.compile(r"<!-- (sample|sample-json): (.+?) -->\n```[a-z]*\n(.*?)```", re.S)


def _samples() -> list[tuple[str, str, str, str]]:
    return [
        (page.relative_to(REPO).as_posix(), kind, args, body)
        for page in PAGES
        for kind, args, body in _SAMPLE.findall(page.read_text(encoding="utf-8"))
    ]


def test_the_readme_and_the_docs_have_samples() -> None:
    where = {(page, kind) for page, kind, _, _ in _samples()}
    assert ("README.md", "sample") in where and ("docs/ci.md", "sample-json") in where


@pytest.mark.parametrize(("page", "kind", "args", "body"), _samples())
def test_a_sample_is_what_configdrift_prints(page: str, kind: str, args: str, body: str) -> None:
    words = shlex.split(args)
    # ``check`` colours a terminal's report; the samples show it plain.
    plain = ("--color", "never") if words[0] == "check" else ()
    result = run_cli(*words, *plain, cwd=REPO)
    if kind == "sample-json":
        assert _matches(json.loads(body), json.loads(result.out)), (page, args)
        return
    shown, out = body.splitlines(), result.out.splitlines()
    assert any(out[i : i + len(shown)] == shown for i in range(len(out))), (page, args)


def _matches(sample: Any, real: Any) -> bool:
    if sample == "...":
        return True
    if isinstance(sample, dict):
        return isinstance(real, dict) and all(
            k in real and _matches(v, real[k]) for k, v in sample.items()
        )
    if isinstance(sample, list):
        return isinstance(real, list) and all(any(_matches(s, r) for r in real) for s in sample)
    return bool(sample == real)


def test_a_drifted_sample_fails() -> None:
    assert not _matches({"line": 88}, {"line": 89})
    assert not _matches({"findings": [{"code": "CD999"}]}, {"findings": [{"code": "CD101"}]})
    assert _matches({"a": "...", "b": [1]}, {"a": {"x": 1}, "b": [2, 1], "c": 3})


def test_the_docs_site_lists_every_page() -> None:
    import yaml

    class SiteLoader(yaml.SafeLoader):
        """The safe loader, with MkDocs' tag naming a Python function read
        as the name it is (the Mermaid fence's formatter)."""

    SiteLoader.add_multi_constructor(
        "tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix
    )
    site = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=SiteLoader)

    def pages(items: list) -> set[str]:
        out: set[str] = set()
        for item in items:
            value = next(iter(item.values()))
            out |= pages(value) if isinstance(value, list) else {value}
        return out

    # A section (Rules) lists its pages beneath it.
    listed = pages(site["nav"])
    docs = REPO / "docs"
    assert listed == {p.relative_to(docs).as_posix() for p in docs.glob("**/*.md")}


def test_links_between_the_pages_resolve() -> None:
    link = re.compile(r"\]\(([^)#\s]+\.md|LICENSE)(?:#[^)]*)?\)")
    broken = [
        f"{page.relative_to(REPO)} -> {target}"
        for page in PAGES
        for target in link.findall(page.read_text(encoding="utf-8"))
        if not (page.parent / target).exists()
    ]
    assert broken == []


def test_the_rules_page_lists_every_rule_with_its_name_and_severity() -> None:
    import configdrift.rules  # noqa: F401  (registers the rules)
    from configdrift.rules import RULES

    page = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    # The code links the rule's page: ``| [CD101](rules/CD101.md) | ...``.
    rows = set(
        re.findall(
            r"^\| \[(CD\d{3})\]\(rules/CD\d{3}\.md\) \| ([a-z-]+) \| ([a-z]+) \|", page, re.M
        )
    )
    expected = {(c, r.slug, r.severity.value) for c, r in RULES.items() if r.status == "stable"}
    assert expected - rows == set()  # planned rules are not listed yet
