"""``configdrift sweep KEY --diff`` and ``--apply``: the mechanical edits of
a key's removal, each format's example keeping its other keys, the code
listed rather than edited, and a second run a no-op."""

from __future__ import annotations

import errno
import json
from pathlib import Path

from helpers import make_project

_CONFIG = """\
from pydantic import BaseModel

from pkg.constants import *


class Zero(BaseModel):
    stage: int = 0
    mode: list = []


def get_legacy_mode(param_dict):
    return param_dict.get(LEGACY_MODE, LEGACY_MODE_DEFAULT)


class Config:
    def __init__(self, param_dict):
        self.legacy_mode_enabled = get_legacy_mode(param_dict)
        self.batch = param_dict.get("batch", 1)
        self.zero = Zero(**param_dict.get("zero", {}))
"""

_PAGE = """\
# Configuration

<i>**legacy_mode**</i>: [boolean]

| Description | Default |
| --- | --- |
| Use the old mode. | `false` |

<i>**batch**</i>: [integer]

| Description | Default |
| --- | --- |
| Batch size. | `1` |

<i>**zero**</i>: [dictionary] The ZeRO settings.

<i>**zero:stage**</i>: [integer] The stage. Default: `0`.

## Examples

```json
{
  "batch": 2,
  "legacy_mode": true
}
```

```json
{"legacy_mode": true, "batch": 2, "zero": {"stage": 1}}
```

```yaml
legacy_mode:
  true
batch: 2
```

```toml
batch = 2
legacy_mode = true
```

Set `legacy_mode` to true for the old behaviour.
"""

_TUTORIAL = """\
# Tutorial

```
worker-0:   batch ............. 2
worker-0:   legacy_mode_enabled ..... False
```

```python
if engine.legacy_mode_enabled():
    pass
```
"""

_TEST = """\
from pkg.engine import initialize


def test_inline():
    initialize(config={"batch": 2, "legacy_mode": True})


def test_lines():
    initialize(config={
        "legacy_mode": True,  # the old way
        "batch": 2,
    })
"""

FILES = {
    "pkg/__init__.py": "",
    "pkg/constants.py": 'LEGACY_MODE = "legacy_mode"\nLEGACY_MODE_DEFAULT = False\n',
    "pkg/config.py": _CONFIG,
    "pkg/engine.py": "from pkg.config import Config\n\n\ndef initialize(config):\n    return Config(config)\n",
    "docs/config.md": _PAGE,
    "docs/tutorial.md": _TUTORIAL,
    "configs/app.json": '{\n    "legacy_mode": false,\n    "batch": 1\n}\n',
    "tests/test_app.py": _TEST,
}


def _project(tmp_path: Path, **more: str) -> Path:
    return make_project(tmp_path, {**FILES, **more})


def _with_page(tmp_path: Path, name: str, page: str) -> Path:
    """The project with ``page`` as its config page, named ``name``."""
    files = {k: v for k, v in FILES.items() if k != "docs/config.md"}
    return make_project(tmp_path, {**files, name: page})


def test_the_diff_shows_every_mechanical_edit_and_writes_nothing(cli, tmp_path) -> None:
    root = _project(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    result = cli("sweep", "legacy_mode", str(root), "--diff")
    assert result.code == 1
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    changed = {line[6:] for line in result.out.splitlines() if line.startswith("+++ b/")}
    assert {c.rsplit(f"{root.name}/", 1)[-1] for c in changed} == {
        "docs/config.md",
        "docs/tutorial.md",
        "configs/app.json",
        "tests/test_app.py",
        "pyproject.toml",
    }
    assert "run with --apply" in result.err


def test_apply_removes_the_key_everywhere_but_the_code(cli, tmp_path) -> None:
    root = _project(tmp_path)
    result = cli("sweep", "legacy_mode", str(root), "--apply")
    assert result.code == 0, result.err
    page = (root / "docs/config.md").read_text()
    # The entry goes with its table; the next entry and the page stay whole.
    assert "legacy_mode**" not in page
    assert page.startswith("# Configuration\n\n<i>**batch**</i>: [integer]\n")
    # Each example keeps its other keys and still reads.
    assert '{\n  "batch": 2\n}' in page
    assert '{"batch": 2, "zero": {"stage": 1}}' in page
    assert "```yaml\nbatch: 2\n```" in page
    assert "```toml\nbatch = 2\n```" in page
    # Prose is left for a person.
    assert "Set `legacy_mode` to true" in page
    assert json.loads((root / "configs/app.json").read_text()) == {"batch": 1}
    assert (root / "configs/app.json").read_text() == '{\n    "batch": 1\n}\n'
    test = (root / "tests/test_app.py").read_text()
    assert 'initialize(config={"batch": 2})' in test
    assert 'initialize(config={\n        "batch": 2,\n    })' in test
    tutorial = (root / "docs/tutorial.md").read_text()
    assert "legacy_mode_enabled ....." not in tutorial
    assert "worker-0:   batch ............. 2" in tutorial
    assert "if engine.legacy_mode_enabled():" in tutorial  # code in a page
    # The code is listed, not edited.
    assert (root / "pkg/constants.py").read_text() == FILES["pkg/constants.py"]
    assert (root / "pkg/config.py").read_text() == _CONFIG
    assert "left to do by hand:" in result.out
    assert "pkg/constants.py:1: constant" in result.out
    assert "code: edit it by hand" in result.out
    # The key is marked removed in the configuration.
    assert (
        (root / "pyproject.toml")
        .read_text()
        .endswith('\n[tool.configdrift.removed]\nlegacy_mode = "removed"\n')
    )


def test_a_second_apply_changes_nothing(cli, tmp_path) -> None:
    root = _project(tmp_path)
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    again = cli("sweep", "legacy_mode", str(root), "--apply")
    assert again.code == 0
    assert "Made 0 edits in 0 files." in again.err
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == after


def test_after_apply_the_removal_findings_are_in_the_listed_code_only(cli, tmp_path) -> None:
    root = _project(tmp_path)
    listed = cli("sweep", "legacy_mode", str(root), "--apply").out
    report = json.loads(cli("check", str(root), "--format", "json").out)
    leftovers = [f for f in report["findings"] if f["code"] == "CD401"]
    assert leftovers
    # Each one is a reference the sweep listed for a person: the code, the
    # prose and the code a page shows.
    for finding in leftovers:
        assert f"{finding['path']}:{finding['line']}:" in listed
    assert {f["path"] for f in leftovers} == {
        "pkg/constants.py",
        "docs/config.md",
        "docs/tutorial.md",
    }
    # The key the code still reads is not asked to be documented.
    assert not [f for f in report["findings"] if f["code"] == "CD103" and f["key"] == "legacy_mode"]


def test_a_reason_is_written_to_the_registry(cli, tmp_path) -> None:
    root = _project(
        tmp_path,
        **{
            "pyproject.toml": '[project]\nname = "t"\n\n[tool.configdrift]\n\n'
            '[tool.configdrift.removed]\nold_key = "gone"\n\n[tool.other]\nx = 1\n'
        },
    )
    assert cli("sweep", "legacy_mode", str(root), "--apply", "--reason", "use batch").code == 0
    text = (root / "pyproject.toml").read_text()
    assert (
        '[tool.configdrift.removed]\nold_key = "gone"\nlegacy_mode = "use batch"\n\n[tool.other]'
        in text
    )


def test_the_registry_in_an_inline_table_keeps_the_files_comments(cli, tmp_path) -> None:
    """tomlkit edits the file: an inline ``removed = {...}`` grows, and the
    comments and the other tables stay as they were."""
    pyproject = (
        '[project]\nname = "t"  # the name\n\n[tool.configdrift]\n'
        '# keys we dropped\nremoved = { old_key = "gone" }\n\n[tool.other]\nx = 1  # keep\n'
    )
    root = _project(tmp_path, **{"pyproject.toml": pyproject})
    assert cli("sweep", "legacy_mode", str(root), "--apply", "--reason", "use batch").code == 0
    text = (root / "pyproject.toml").read_text()
    changed = [line for line in text.splitlines() if line not in pyproject.splitlines()]
    assert len(changed) == 1 and changed[0].startswith('removed = { old_key = "gone", ')
    assert 'legacy_mode = "use batch"' in changed[0]
    assert text.splitlines()[:5] == pyproject.splitlines()[:5]
    assert text.splitlines()[6:] == pyproject.splitlines()[6:]


def test_without_a_pyproject_a_configdrift_toml_is_created(cli, tmp_path) -> None:
    root = _project(tmp_path)
    (root / "pyproject.toml").unlink()
    result = cli("sweep", "legacy_mode", str(root), "--diff")
    assert "--- /dev/null\n+++ b/" in result.out
    assert not (root / "configdrift.toml").exists()
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    assert (root / "configdrift.toml").read_text() == '[removed]\nlegacy_mode = "removed"\n'


def test_the_code_registry_gets_the_key_in_its_own_style(cli, tmp_path) -> None:
    registry = 'REMOVED_CONFIG_KEYS = {\n    "old_key",\n}\n'
    root = _project(tmp_path, **{"pkg/lifecycle.py": registry})
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    assert (root / "pkg/lifecycle.py").read_text() == (
        'REMOVED_CONFIG_KEYS = {\n    "old_key",\n    "legacy_mode",\n}\n'
    )
    assert "[tool.configdrift.removed]" not in (root / "pyproject.toml").read_text()


def test_a_one_line_registry_and_a_dict_registry(cli, tmp_path) -> None:
    root = _project(tmp_path, **{"pkg/lifecycle.py": "_REMOVED_KEYS = frozenset({'old_key'})\n"})
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    assert (root / "pkg/lifecycle.py").read_text() == (
        "_REMOVED_KEYS = frozenset({'old_key', 'legacy_mode'})\n"
    )
    other = tmp_path / "other"
    other.mkdir()
    root = _project(other, **{"pkg/lifecycle.py": 'REMOVED_KEYS = {"old_key": "gone"}\n'})
    assert cli("sweep", "legacy_mode", str(root), "--apply", "--reason", "no more").code == 0
    assert (root / "pkg/lifecycle.py").read_text() == (
        'REMOVED_KEYS = {"old_key": "gone", "legacy_mode": "no more"}\n'
    )


def test_two_registries_are_left_for_a_person_to_choose(cli, tmp_path) -> None:
    root = _project(
        tmp_path,
        **{"pkg/lifecycle.py": 'REMOVED_KEYS = {"a_key"}\nREMOVED_TOP_KEYS = {"b_key"}\n'},
    )
    result = cli("sweep", "legacy_mode", str(root), "--apply")
    assert "more than one registry of removed keys" in result.out
    assert (root / "pkg/lifecycle.py").read_text() == (
        'REMOVED_KEYS = {"a_key"}\nREMOVED_TOP_KEYS = {"b_key"}\n'
    )


def test_a_yaml_key_alone_in_its_section_is_left_alone(cli, tmp_path) -> None:
    page = '# Config\n\n```yaml\nzero:\n  stage: 1\nbatch: 2\n```\n\n```json\n{"zero": {"stage": 1}}\n```\n'
    root = _project(tmp_path, **{"docs/config.md": page})
    result = cli("sweep", "zero.stage", str(root), "--apply")
    text = (root / "docs/config.md").read_text()
    assert "```yaml\nzero:\n  stage: 1\nbatch: 2\n```" in text
    assert '{"zero": {}}' in text
    assert "the only key of `zero`" in result.out


def test_a_nested_yaml_key_goes_with_its_block(cli, tmp_path) -> None:
    page = (
        "# Config\n\n```yaml\nzero:\n  stage: 1\n  mode:\n    - a\n    - b\n\n"
        "  # more\nbatch: 2\n```\n"
    )
    root = _project(tmp_path, **{"docs/config.md": page})
    assert cli("sweep", "zero.mode", str(root), "--apply").code == 0
    assert (
        "```yaml\nzero:\n  stage: 1\n\n  # more\nbatch: 2\n```"
        in (root / "docs/config.md").read_text()
    )


def test_a_yaml_list_item_and_a_dotted_toml_key_are_left_alone(cli, tmp_path) -> None:
    page = (
        "# Config\n\n```yaml\n- legacy_mode: true\n  batch: 2\n```\n\n"
        "```toml\nbatch = 2\nlegacy_mode.x = true\n```\n"
    )
    root = _project(tmp_path, **{"docs/config.md": page})
    cli("sweep", "legacy_mode", str(root), "--apply")
    text = (root / "docs/config.md").read_text()
    assert "- legacy_mode: true\n  batch: 2" in text


def test_a_python_dict_with_a_nested_value_loses_it_whole(cli, tmp_path) -> None:
    test = (
        "from pkg.engine import initialize\n\n\ndef test_it():\n"
        '    initialize(config={\n        "batch": 2,\n        "legacy_mode": {\n'
        '            "a": [1, 2],  # a comment ]\n        }\n    })\n'
    )
    root = _project(tmp_path, **{"tests/test_app.py": test})
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    assert (
        (root / "tests/test_app.py")
        .read_text()
        .endswith('    initialize(config={\n        "batch": 2\n    })\n')
    )


def test_an_rst_entry_and_block_are_removed(cli, tmp_path) -> None:
    page = (
        "Configuration\n=============\n\n.. confval:: legacy_mode\n   :type: bool\n"
        "   :default: ``False``\n\n   Use the old mode.\n\n.. confval:: batch\n   :type: int\n"
        "   :default: ``1``\n\n   Batch size.\n\n.. code-block:: json\n\n   {\n"
        '     "batch": 2,\n     "legacy_mode": true\n   }\n\nThe end.\n'
    )
    root = _with_page(tmp_path, "docs/config.rst", page)
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    text = (root / "docs/config.rst").read_text()
    assert text.startswith("Configuration\n=============\n\n.. confval:: batch\n")
    assert '   {\n     "batch": 2\n   }\n\nThe end.\n' in text


def test_a_file_changed_since_it_was_read_is_skipped(cli, tmp_path, monkeypatch) -> None:
    from configdrift.edits import pages

    root = _project(tmp_path)
    real = pages.edited

    def touched(where: str, rel: str, edits):
        if rel == "configs/app.json":
            (Path(where) / rel).write_text('{"legacy_mode": false}\n')
        return real(where, rel, edits)

    monkeypatch.setattr(pages, "edited", touched)
    page = (root / "docs/config.md").read_text()
    result = cli("sweep", "legacy_mode", str(root), "--apply")
    assert result.code == 1
    assert "app.json: changed since it was read, skipped" in result.err
    assert "nothing was written" in result.err
    assert (root / "configs/app.json").read_text() == '{"legacy_mode": false}\n'
    # A removal is made whole or not at all: the page keeps its entry.
    assert (root / "docs/config.md").read_text() == page


def test_an_mdx_page_loses_the_entry_and_the_example_key(cli, tmp_path) -> None:
    page = _PAGE.replace(
        "# Configuration\n", "import Tabs from '@theme/Tabs';\n\n# Configuration\n"
    )
    root = _with_page(tmp_path, "docs/config.mdx", page)
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    text = (root / "docs/config.mdx").read_text()
    assert text.startswith("import Tabs from '@theme/Tabs';\n\n# Configuration\n\n<i>**batch**")
    assert '{\n  "batch": 2\n}' in text
    assert "Set `legacy_mode` to true" in text


def test_a_diff_is_no_json(cli, tmp_path) -> None:
    root = _project(tmp_path)
    result = cli("sweep", "legacy_mode", str(root), "--diff", "--format", "json")
    assert result.code == 2
    assert "no --format with them" in result.err


def test_a_crlf_page_keeps_its_line_endings(cli, tmp_path) -> None:
    page = _PAGE.replace("\n", "\r\n")
    root = _with_page(tmp_path, "docs/config.md", page)
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    data = (root / "docs/config.md").read_bytes()
    assert b"legacy_mode**" not in data
    assert data.count(b"\n") == data.count(b"\r\n")
    assert b'{\r\n  "batch": 2\r\n}' in data
    assert b"```yaml\r\nbatch: 2\r\n```" in data
    assert b"```toml\r\nbatch = 2\r\n```" in data


def test_a_markdown_heading_entry_goes_with_its_section(cli, tmp_path) -> None:
    page = (
        "# Configuration\n\n"
        "### `legacy_mode`\n\nUse the old mode.\n\n```json\n# not a heading\n```\n\n"
        "Default: `false`\n\n"
        "### `batch`\n\nBatch size. Default: `1`.\n\n"
        "## Examples\n\nNone.\n"
    )
    root = _with_page(tmp_path, "docs/config.md", page)
    assert cli("sweep", "legacy_mode", str(root), "--apply").code == 0
    text = (root / "docs/config.md").read_text()
    assert text == (
        "# Configuration\n\n### `batch`\n\nBatch size. Default: `1`.\n\n## Examples\n\nNone.\n"
    )


def test_a_heading_whose_section_holds_another_entry_is_left_by_hand(cli, tmp_path) -> None:
    page = (
        "# Configuration\n\n"
        "## `legacy_mode`\n\nUse the old mode.\n\n- `batch` (int): batch size.\n\n"
        "## `zero`\n\nThe ZeRO settings.\n"
    )
    root = _with_page(tmp_path, "docs/config.md", page)
    shown = cli("sweep", "legacy_mode", str(root), "--diff")
    assert "the entry's section holds another entry" in shown.err + shown.out
    assert "## `legacy_mode`" in (root / "docs/config.md").read_text()


def test_sweep_apply_keeps_no_page_edit_when_the_registry_cannot_be_written(
    cli, tmp_path: Path, monkeypatch
) -> None:
    from configdrift import writes

    root = _project(tmp_path)
    (root / "pyproject.toml").unlink()
    page = (root / "docs" / "config.md").read_bytes()
    real = writes.write_all

    def full_for_the_registry(fd: int, data: bytes) -> None:
        if b"[removed]" in data:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd, data)

    monkeypatch.setattr(writes, "write_all", full_for_the_registry)
    result = cli("sweep", "legacy_mode", str(root), "--apply", "--no-cache")
    assert result.code == 2, result.err
    assert "No space left on device" in result.err
    assert (root / "docs" / "config.md").read_bytes() == page
    assert not (root / "configdrift.toml").exists()
    assert sorted(root.rglob("*.tmp")) == []
    # The same sweep with room on the disk makes both.
    monkeypatch.setattr(writes, "write_all", real)
    assert cli("sweep", "legacy_mode", str(root), "--apply", "--no-cache").code == 0
    assert b"legacy_mode**" not in (root / "docs" / "config.md").read_bytes()
    assert "legacy_mode" in (root / "configdrift.toml").read_text()
