"""``check --format html``: one self-contained page, escaped, with the
summary, charts, findings and the key matrix; and in a real headless
browser (Debian's chromium), loaded without console errors, its filters
working, and a screenshot taken."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from configdrift.model import Finding, Location, Related, Severity
from configdrift.output.html import render_html
from configdrift.output.report import ReportData
from helpers import make_project

_MODEL = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    port: int = 80
    backlog: int = 64
    workers: int = 1


class Log(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str = "info"


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
    log: Log = Log()
"""

_PAGE = """\
# Configuration

## `server`

| Key | Description | Default |
| --- | --- | --- |
| `port` | The port. | `8080` |
| `workers` | Worker processes. | `1` |
| `keepalive` | Seconds a connection stays open. | `5` |

## `log`

| Key | Description | Default |
| --- | --- | --- |
| `level` | The level. | `info` |

```json
{"server": {"port": 80, "backlogg": 3}}
```
"""


def _project(tmp_path: Path) -> Path:
    return make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/config.py": _MODEL,
            "docs/configuration.md": _PAGE,
            "pyproject.toml": '[project]\nname = "t"\n\n[tool.configdrift]\n'
            'docs = ["docs"]\nmount = {"" = "app.config:Config"}\n',
        },
    )


def _report(cli, root: Path, out: Path) -> str:
    result = cli("check", str(root), "--format", "html", "--output-file", str(out))
    assert result.code == 1, result.err
    return out.read_text(encoding="utf-8")


def test_the_page_is_self_contained(cli, tmp_path) -> None:
    page = _report(cli, _project(tmp_path / "p"), tmp_path / "report.html")
    assert page.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # Only the page's own style and script may run: each allowed by its hash.
    import base64
    import hashlib

    policy = re.search(r'Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "unsafe-inline" not in policy
    for tag, directive in (("style", "style-src"), ("script", "script-src")):
        (body,) = re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in policy
    # Nothing is loaded from anywhere: no external script, style, image or font.
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", page)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page


def test_the_page_shows_the_findings_the_charts_and_the_key_matrix(cli, tmp_path) -> None:
    root = _project(tmp_path / "p")
    page = _report(cli, root, tmp_path / "report.html")
    # Each finding is a row that the filters know by rule, severity and file.
    rows = re.findall(r'<tr class="finding" data-rule="(\w+)" data-severity="(\w+)"', page)
    codes = {code for code, _ in rows}
    assert {"CD101", "CD103", "CD104", "CD301"} <= codes
    assert ("CD101", "error") in rows
    # A bar per rule, which filters the findings when clicked.
    assert 'data-filter-rule="CD101"' in page
    # The matrix: a documented key the schema rejects, an undocumented one.
    keepalive = re.search(r'data-key="server.keepalive">(.*?)</tr>', page)
    assert keepalive is not None and 'class="key gap"' in page
    cells = re.findall(r'<td class="place">(.*?)</td>', keepalive.group(1))
    assert cells[0].startswith('<span class="yes">yes</span>')  # documented
    assert cells[1] == '<span class="no">no</span>'  # not accepted
    backlog = re.search(r'<tr class="key gap" data-key="server.backlog">(.*?)</tr>', page)
    assert backlog is not None
    assert re.findall(r'<td class="place">(.*?)</td>', backlog.group(1))[0] == (
        '<span class="no">no</span>'
    )
    # Each place is a link to its file, from the page's folder.
    assert re.search(
        r'<a href="p/app/config.py">app/config.py<span class="line">:\d+</span></a>', page
    )
    # The documented share per section, as `coverage` gives it.
    assert "Documented share per section" in page
    assert "<b>server</b> (3 of 4 documented, 75.0%): 5 keys" in page
    assert "<b>log</b> (2 of 2 documented, 100.0%): 2 keys" in page


def test_every_text_of_the_project_is_escaped() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    finding = Finding(
        "CD101",
        hostile,
        Location(f"docs/{hostile}.md", 3),
        f"message {hostile}",
        (Related("a.py", 1, hostile),),
        suggestion=hostile,
        severity=Severity.ERROR,
        provenance={"commit": hostile},
    )
    spelling = {
        "kind": "env",
        "name": hostile,
        "surface": hostile,
        "declared": f"{hostile}.py:1",
        "declared_by": hostile,
        "default": hostile,
        "type": hostile,
        "choices": None,
        "doc": f"{hostile}.md:2",
        "doc_default": hostile,
    }
    setting = {
        "name": hostile,
        "spellings": [spelling, dict(spelling, kind="flag")],
        "links": [{"how": "explicit", "why": hostile, "spellings": [0, 1], "location": None}],
    }
    data = ReportData([finding], 1, 1, 1, 1, settings=[setting])
    page = render_html(data)
    assert '<section id="settings">' in page
    assert hostile not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_links_follow_the_page_to_its_folder(cli, tmp_path) -> None:
    _project(tmp_path / "p")
    (tmp_path / "out").mkdir()
    argv = ("check", "p", "--format", "html", "--output-file", "out/report.html")
    assert cli(*argv, cwd=tmp_path).code == 1
    page = (tmp_path / "out" / "report.html").read_text()
    assert (
        '<a href="../p/docs/configuration.md">p/docs/configuration.md<span class="line">:3</span></a>'
        in page
    )
    # Written to standard output, the links are the paths as printed.
    assert '<a href="p/docs/configuration.md">' in cli(*argv[:4], cwd=tmp_path).out


_CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
_DRIVER = shutil.which("chromedriver")


def test_in_a_headless_browser_the_page_loads_and_its_filters_work(cli, tmp_path) -> None:
    if not (_CHROMIUM and _DRIVER):
        if os.environ.get("CONFIGDRIFT_BROWSER_TESTS") == "required":
            pytest.fail("chromium and chromedriver are required here (.ci/run installs them)")
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    root = _project(tmp_path / "p")
    report = tmp_path / "report.html"
    page = _report(cli, root, report)
    total = page.count('<tr class="finding"')
    cd101 = page.count('<tr class="finding" data-rule="CD101"')
    errors = page.count('data-severity="error"')
    options = webdriver.ChromeOptions()
    options.binary_location = str(_CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1400,1200",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(_DRIVER)))
    try:
        driver.get(report.as_uri())

        def shown() -> int:
            rows = driver.find_elements(By.CSS_SELECTOR, "tr.finding")
            return sum(1 for row in rows if row.is_displayed())

        assert shown() == total
        assert driver.find_element(By.ID, "f-count").text == f"{total} of {total} findings shown"
        Select(driver.find_element(By.ID, "f-rule")).select_by_value("CD101")
        assert shown() == cd101
        Select(driver.find_element(By.ID, "f-rule")).select_by_value("")
        Select(driver.find_element(By.ID, "f-severity")).select_by_value("error")
        assert shown() == errors
        Select(driver.find_element(By.ID, "f-severity")).select_by_value("")
        files = Select(driver.find_element(By.ID, "f-file"))
        chosen = files.options[1].get_attribute("value")
        files.select_by_index(1)
        assert shown() == page.count(f'data-file="{chosen}"') > 0
        files.select_by_value("")
        driver.find_element(By.ID, "f-text").send_keys("keepalive")
        assert 0 < shown() < total
        # A bar of the chart filters by its rule.
        driver.find_element(By.ID, "f-text").clear()
        driver.find_element(By.ID, "f-text").send_keys(" ")
        driver.find_element(By.ID, "f-text").clear()
        driver.execute_script(
            "document.querySelector('[data-filter-rule=\"CD101\"]')"
            ".dispatchEvent(new MouseEvent('click', {bubbles: true}))"
        )
        assert driver.find_element(By.ID, "f-rule").get_attribute("value") == "CD101"
        # The key matrix: only the gaps.
        keys = driver.find_elements(By.CSS_SELECTOR, "tr.key")
        driver.find_element(By.ID, "k-gaps").click()
        visible = [row.get_attribute("data-key") for row in keys if row.is_displayed()]
        assert "server.backlog" in visible and "log.level" not in visible
        shot = tmp_path / "report.png"
        assert driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
        if os.environ.get("CONFIGDRIFT_SCREENSHOTS"):
            shutil.copy(shot, Path(os.environ["CONFIGDRIFT_SCREENSHOTS"]) / "report.png")
        logs = driver.get_log("browser")
        assert not [entry for entry in logs if entry["level"] == "SEVERE"], logs
    finally:
        driver.quit()


def test_a_messages_backtick_spans_are_code_and_stay_escaped() -> None:
    from configdrift.output.html import _message

    assert _message("`a<b>` is documented") == "<code>a&lt;b&gt;</code> is documented"
    # Negative case: an unpaired backtick is shown as it is.
    assert _message("a ` alone") == "a ` alone"
