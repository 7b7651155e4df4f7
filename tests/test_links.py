"""Links to the rule pages (text, SARIF's helpUri, the HTML report) and to
the files (the HTML report's --link-base)."""

from __future__ import annotations

import json
from pathlib import Path

DEMO = Path(__file__).parents[1] / "demo"
SITE = "https://docs.example.org/configdrift"


def test_show_links_names_each_findings_rule_page(cli) -> None:
    plain = cli("check", str(DEMO), "--show-links", "--color", "never").out
    assert "    docs: configdrift rule CD101\n" in plain
    linked = cli("check", str(DEMO), "--show-links", "--docs-url", SITE, "--color", "never").out
    assert f"    docs: {SITE}/rules/CD101/\n" in linked
    # Negative case: without --show-links, no docs lines.
    assert "docs:" not in cli("check", str(DEMO), "--docs-url", SITE, "--color", "never").out


def test_sarif_rules_have_a_help_uri_when_the_site_is_known(cli, monkeypatch) -> None:
    sarif = json.loads(cli("check", str(DEMO), "--format", "sarif", "--docs-url", SITE).out)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"]: r["helpUri"] for r in rules}["CD101"] == f"{SITE}/rules/CD101/"
    monkeypatch.setenv("CONFIGDRIFT_DOCS_URL", SITE + "/")
    from_env = json.loads(cli("check", str(DEMO), "--format", "sarif").out)
    assert from_env["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].startswith(SITE + "/rules/")
    monkeypatch.delenv("CONFIGDRIFT_DOCS_URL")
    bare = json.loads(cli("check", str(DEMO), "--format", "sarif").out)
    assert not any("helpUri" in r for r in bare["runs"][0]["tool"]["driver"]["rules"])


def test_the_html_report_links_rules_and_files_to_the_web(cli) -> None:
    repo = "https://git.example.org/shop/blob/abc123"
    page = cli("check", str(DEMO), "--format", "html", "--docs-url", SITE, "--link-base", repo).out
    assert f'<a href="{SITE}/rules/CD101/"><code>CD101</code></a>' in page
    assert f'href="{repo}/docs/configuration.md#L88"' in page  # paths from the run's folder
    # Negative case: without them, codes are plain and files relative.
    plain = cli("check", str(DEMO), "--format", "html").out
    assert "<td><code>CD101</code></td>" in plain and repo not in plain


def test_a_link_that_is_no_web_url_is_a_usage_error(cli) -> None:
    for option in ("--docs-url", "--link-base"):
        result = cli("check", str(DEMO), option, "javascript:alert(1)")
        assert result.code == 2 and "not an http(s) URL" in result.err
