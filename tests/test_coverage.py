"""``configdrift coverage``: the documented share of each surface, from the
rules' own judgement, with ``--fail-under`` and a badge."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from helpers import make_project

DEMO = Path(__file__).parent.parent / "demo"

_MODEL = """
from pydantic import BaseModel, ConfigDict


class Cache(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ttl: int = 30
    size: int = 100


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "localhost"
    port: int = 8080
    workers: int = 1


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
    cache: Cache = Cache()
    debug: bool = False
"""

_PAGE = """
# Configuration

## `server`

| Key | Description | Default |
| --- | --- | --- |
| `host` | Where to listen. | `localhost` |
| `port` | The port. | `8080` |
| `workers` | How many workers. | `1` |
| `backlog` | Queued connections. | `64` |

## `cache`

| Key | Description | Default |
| --- | --- | --- |
| `ttl` | Seconds an entry lives. | `30` |
"""


def _project(tmp_path: Path, page: str = _PAGE) -> Path:
    return make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/config.py": _MODEL,
            "docs/configuration.md": page,
            "pyproject.toml": '[project]\nname = "t"\n\n[tool.configdrift]\n'
            'docs = ["docs/configuration.md"]\nmount = {"" = "app.config:Config"}\n',
        },
    )


def test_coverage_counts_what_cd103_and_cd101_report(cli, tmp_path) -> None:
    root = _project(tmp_path)
    check = json.loads(cli("check", str(root), "--format", "json").out)
    cd103 = {f["key"] for f in check["findings"] if f["code"] == "CD103"}
    cd101 = {f["key"] for f in check["findings"] if f["code"] == "CD101"}
    assert cd103 == {"cache.size", "debug"} and cd101 == {"server.backlog"}
    result = cli("coverage", str(root), "--format", "json")
    assert result.code == 0
    (surface,) = json.loads(result.out)["projects"][0]["surfaces"]
    # server, host, port, workers, cache, ttl, size, debug: 8 keys, 2 undocumented.
    assert (surface["accepted"], surface["documented"]) == (8, 6)
    assert surface["undocumented"] == ["cache.size", "debug"]
    assert surface["unaccepted"] == ["server.backlog"]
    # The two section headings are entries too.
    assert (surface["entries"], surface["entries_accepted"]) == (7, 6)
    assert surface["entries"] == check["summary"]["keys"]["documented"]
    assert surface["documented_share"] == 75.0
    sections = {s["name"]: (s["accepted"], s["documented"]) for s in surface["sections"]}
    assert sections == {"cache": (3, 2), "server": (4, 4), "(top level)": (1, 0)}


def test_the_figure_does_not_depend_on_the_rules_selected(cli, tmp_path) -> None:
    root = _project(tmp_path)
    everything = json.loads(cli("coverage", str(root), "--format", "json").out)
    ignored = cli("coverage", str(root), "--format", "json", "--no-cache")
    (root / "pyproject.toml").write_text(
        (root / "pyproject.toml").read_text() + 'ignore = ["CD1"]\n'
    )
    assert json.loads(cli("coverage", str(root), "--format", "json").out) == everything
    assert json.loads(ignored.out) == everything


def test_a_fully_documented_surface_is_covered(cli, tmp_path) -> None:
    page = (
        _PAGE.replace(
            "| `ttl` | Seconds an entry lives. | `30` |",
            "| `ttl` | Seconds an entry lives. | `30` |\n| `size` | Entries kept. | `100` |",
        )
        + "\n## Top level\n\n- `debug` (bool): Verbose logs. Default: `false`\n"
    )
    root = _project(tmp_path, page)
    result = cli("coverage", str(root), "--fail-under", "100")
    assert result.code == 0, result.out
    assert "Documented: 8 of 8 accepted keys (100.0%)." in result.out


def test_fail_under_fails_below_the_share_and_passes_at_it(cli, tmp_path) -> None:
    root = _project(tmp_path)
    below = cli("coverage", str(root), "--fail-under", "75.1")
    assert below.code == 1
    assert "(75.0%), under --fail-under 75.1." in below.out
    assert cli("coverage", str(root), "--fail-under", "75").code == 0
    assert cli("coverage", str(root), "--fail-under", "101").code == 2
    assert cli("coverage", str(root), "--fail-under", "lots").code == 2


def test_the_text_table_and_verbose_keys(cli, tmp_path) -> None:
    root = _project(tmp_path)
    out = cli("coverage", str(root), "-v").out
    lines = out.splitlines()
    assert lines[0].startswith(
        "config: 6 of 8 accepted keys documented (75.0%: 6 compared), 6 of 7 doc entries"
    )
    assert any(line.split() == ["cache", "3", "2", "66.7%"] for line in lines)
    assert "  undocumented: cache.size" in lines and "  not accepted: server.backlog" in lines
    assert "undocumented:" not in cli("coverage", str(root)).out


def test_the_badge_is_svg_with_the_share(cli, tmp_path) -> None:
    root = _project(tmp_path)
    badge = tmp_path / "out" / "coverage.svg"
    badge.parent.mkdir()
    assert cli("coverage", str(root), "--badge", str(badge)).code == 0
    svg = ET.fromstring(badge.read_text())
    assert svg.tag.endswith("svg")
    texts = [t.text for t in svg.iter() if t.tag.endswith("text")]
    assert texts == ["config docs", "75%"]
    assert 'fill="#a4a61d"' in badge.read_text()
    unwritable = cli("coverage", str(root), "--badge", str(tmp_path / "missing" / "b.svg"))
    assert unwritable.code == 2 and "cannot write" in unwritable.err


def test_badge_colours_follow_the_share() -> None:
    from configdrift.coverage import badge

    assert 'fill="#4c1"' in badge(90.0) and 'fill="#e05d44"' in badge(49.9)
    assert "<title>config docs: 66.7%</title>" in badge(200 / 3)


def test_a_surface_no_page_documents_has_nothing_documented(cli, tmp_path) -> None:
    root = _project(tmp_path, "# Configuration\n\nSee the code.\n")
    result = json.loads(cli("coverage", str(root), "--format", "json").out)
    surfaces = result["projects"][0]["surfaces"]
    assert surfaces and all(s["documented"] == 0 for s in surfaces)
    assert result["documented_share"] == 0.0


def test_the_demo_agrees_with_check(cli) -> None:
    check = json.loads(cli("check", str(DEMO), "--format", "json").out)
    report = json.loads(cli("coverage", str(DEMO), "--format", "json").out)
    surfaces = report["projects"][0]["surfaces"]
    counted = {s["name"]: s["accepted"] for s in surfaces}
    assert counted == {s["name"]: s["keys"]["accepted"] for s in check["summary"]["surfaces"]}
    reported = {f["key"] for f in check["findings"] if f["code"] == "CD103"}
    assert reported and reported <= {k for s in surfaces for k in s["undocumented"]}


def test_a_tree_without_configuration_has_no_surface(cli, tmp_path) -> None:
    root = make_project(tmp_path, {"README.md": "# Nothing\n"})
    result = cli("coverage", str(root))
    assert result.code == 0
    assert result.out == "Documented: 0 of 0 accepted keys (n/a).\n"  # never a 100% pass
    assert (
        json.loads(cli("coverage", str(root), "--format", "json").out)["projects"][0]["surfaces"]
        == []
    )
