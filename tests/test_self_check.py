"""configdrift checks its own options: the configuration page's table against DEFAULTS."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

REPO = Path(__file__).parent.parent
OPTIONS = (
    '[project]\nname = "copy"\n\n[tool.configdrift]\ndocs = ["docs/configuration.md"]\n'
    'code = ["src/configdrift"]\n\n[tool.configdrift.mount]\n"" = "configdrift.config:DEFAULTS"\n'
)


def _findings(cli, root: Path) -> list[tuple[str, str]]:
    result = cli("check", str(root), "--format", "json")
    return [(f["code"], f["key"]) for f in json.loads(result.out)["findings"]]


def test_the_repository_documents_its_options(cli) -> None:
    assert _findings(cli, REPO) == []


def test_the_self_check_catches_drift(cli, tmp_path) -> None:
    shutil.copytree(REPO / "src" / "configdrift", tmp_path / "src" / "configdrift")
    readme = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(OPTIONS, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "configuration.md").write_text(readme, encoding="utf-8")
    assert _findings(cli, tmp_path) == []
    rows = [line for line in readme.splitlines() if line.startswith("| `discover` |")]
    assert len(rows) == 1
    drifted = readme.replace(rows[0] + "\n", "").replace(
        "| `docs` |", "| `colour` | boolean | `false` | colours |\n| `docs` |", 1
    )
    (tmp_path / "docs" / "configuration.md").write_text(drifted, encoding="utf-8")
    assert sorted(_findings(cli, tmp_path)) == [("CD101", "colour"), ("CD103", "discover")]
