"""``configdrift fix``: the CD104 fix, shown as a diff and written with
``--apply``, only the lines concerned changed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from configdrift.edits.entries import render_like
from helpers import make_project

_MODEL = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bucket: int = 50000000
    verbose: bool = False
    mode: str = "fast"
    ratio: float = 0.25
    backlog: int = 64


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
"""

_MARKDOWN = (
    "# Configuration\r\n\r\n## `server`\r\n\r\n"
    "| Key | Description | Default |\r\n| --- | --- | --- |\r\n"
    "| `bucket` | Bytes per bucket. | `5e8`   |\r\n"
    "| `verbose` | Log more. | `True` |\r\n"
    "| `mode` | How to run: `fast` or `slow`. | `slow` |\r\n"
    "| `ratio` | A share. | `0.5` |\r\n"
    "| `backlog` | Queued connections (`32` or `32` more). | `32` |\r\n"
)

_RST = """Configuration
=============

.. confval:: server.bucket
   :type: int
   :default: ``5e8``

   Bytes per bucket.

.. confval:: server.verbose
   :type: bool
   :default: ``False``

   Log more.
"""


def _project(tmp_path: Path, page: str, name: str = "docs/configuration.md") -> Path:
    root = make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/config.py": _MODEL,
            "pyproject.toml": '[project]\nname = "t"\n\n[tool.configdrift]\n'
            f'docs = ["{name}"]\nmount = {{"" = "app.config:Config"}}\n',
        },
    )
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(page.encode())
    return root


def _codes(cli, root: Path) -> list[tuple[str, str]]:
    report = json.loads(cli("check", str(root), "--format", "json").out)
    return sorted((f["code"], f["key"]) for f in report["findings"])


@pytest.mark.parametrize(
    ("written", "value", "expected"),
    [
        ("5e8", 50000000, "5e7"),
        ("1.5E6", 2500000, "2.5e6"),
        ("True", False, "False"),
        ("true", False, "false"),
        ("TRUE", False, "False"),
        ("None", None, "None"),
        ("null", None, "null"),
        ('"slow"', "fast", '"fast"'),
        ("'slow'", "fast", "'fast'"),
        ("slow", "fast", "fast"),
        ("1_000", 64000, "64_000"),
        ("0.5", 0.25, "0.25"),
        ("32", 64, "64"),
        ("5e8", 0, "0"),
    ],
)
def test_a_value_is_written_in_the_docs_notation(written, value, expected) -> None:
    assert render_like(written, value) == expected


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("[]", [1]),
        ("{}", {"a": 1}),
        ('"x"', 'say "hi"'),
        ("x", " padded"),
        ("1", float("nan")),
        ("x", "a|b"),
        ("x", "a`b"),
        ("x", "two\nlines"),
    ],
)
def test_a_value_without_a_safe_spelling_is_left_alone(written, value) -> None:
    assert render_like(written, value) is None


def test_fix_shows_a_diff_and_apply_writes_only_those_lines(cli, tmp_path) -> None:
    root = _project(tmp_path, _MARKDOWN)
    before = _codes(cli, root)
    assert [k for c, k in before if c == "CD104"] == [
        "server.backlog",
        "server.bucket",
        "server.mode",
        "server.ratio",
        "server.verbose",
    ]
    shown = cli("fix", str(root))
    assert shown.code == 1
    assert "-| `bucket` | Bytes per bucket. | `5e8`   |" in shown.out
    assert "+| `bucket` | Bytes per bucket. | `5e7`   |" in shown.out
    assert "+| `verbose` | Log more. | `False` |" in shown.out
    assert "+| `ratio` | A share. | `0.25` |" in shown.out
    # `slow` and `32` are written more than once in their rows: which one is
    # the default is not certain, so those rows are left alone.
    for key in ("mode", "backlog"):
        assert f"+| `{key}`" not in shown.out and f"server.{key}` not fixed" in shown.err
    page = root / "docs" / "configuration.md"
    assert page.read_bytes() == _MARKDOWN.encode(), "the diff writes nothing"
    assert cli("fix", str(root), "--apply").code == 0
    after = page.read_bytes().decode()
    assert after.count("\r\n") == _MARKDOWN.count("\r\n") and "\n" not in after.replace("\r\n", "")
    changed = [
        (old, new)
        for old, new in zip(_MARKDOWN.split("\r\n"), after.split("\r\n"), strict=True)
        if old != new
    ]
    assert len(changed) == 3
    assert [c for c in _codes(cli, root) if c[0] == "CD104"] == [
        ("CD104", "server.backlog"),
        ("CD104", "server.mode"),
    ]
    assert set(_codes(cli, root)) <= set(before)


def test_a_second_apply_changes_nothing(cli, tmp_path) -> None:
    root = _project(tmp_path, _MARKDOWN)
    cli("fix", str(root), "--apply")
    page = root / "docs" / "configuration.md"
    once = page.read_bytes()
    again = cli("fix", str(root), "--apply")
    assert again.code == 0 and "Fixed 0 findings" in again.err
    assert page.read_bytes() == once
    assert cli("fix", str(root)).code == 0


def test_restructuredtext_fields_are_fixed_in_place(cli, tmp_path) -> None:
    root = _project(tmp_path, _RST, "docs/configuration.rst")
    assert ("CD104", "server.bucket") in _codes(cli, root)
    assert cli("fix", str(root), "--apply").code == 0
    text = (root / "docs" / "configuration.rst").read_text()
    assert "   :default: ``5e7``\n" in text
    assert "   :default: ``False``\n" in text, "a default that agrees is not touched"
    assert text.replace("``5e7``", "``5e8``") == _RST
    assert not [c for c in _codes(cli, root) if c[0] == "CD104"]


def test_a_suppressed_finding_is_not_fixed(cli, tmp_path) -> None:
    page = _MARKDOWN.replace(
        "| `verbose` | Log more. | `True` |",
        "| `verbose` | Log more. | `True` | <!-- configdrift: ignore[CD104] -->",
    )
    root = _project(tmp_path, page)
    cli("fix", str(root), "--apply")
    assert "| `verbose` | Log more. | `True` |" in (root / "docs" / "configuration.md").read_text()


def test_a_page_changed_since_it_was_read_is_skipped(cli, tmp_path, monkeypatch) -> None:
    from configdrift.edits import fix

    root = _project(tmp_path, _MARKDOWN)
    page = root / "docs" / "configuration.md"
    real = fix.plan

    def plan_then_edit(analysis, findings, unsafe=False):
        planned = real(analysis, findings, unsafe)
        page.write_bytes(page.read_bytes() + b"\r\nEdited meanwhile.\r\n")
        stat = page.stat()
        os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
        return planned

    monkeypatch.setattr(fix, "plan", plan_then_edit)
    result = cli("fix", str(root), "--apply", "--no-cache")
    assert "changed since it was read, skipped" in result.err
    assert page.read_bytes() == _MARKDOWN.encode() + b"\r\nEdited meanwhile.\r\n"


def test_a_linked_page_is_not_replaced(cli, tmp_path) -> None:
    root = _project(tmp_path, _MARKDOWN, "docs/real.md")
    link = root / "docs" / "configuration.md"
    link.symlink_to("real.md")
    config = root / "pyproject.toml"
    config.write_text(config.read_text().replace("docs/real.md", "docs/configuration.md"))
    result = cli("fix", str(root), "--apply")
    assert link.is_symlink()
    assert (root / "docs" / "real.md").read_bytes() == _MARKDOWN.encode()
    assert "not written" in result.err


def test_a_tree_with_nothing_to_fix(cli, tmp_path) -> None:
    page = "# Configuration\n\n## `server`\n\n- `backlog` (int): Queued. Default: `64`\n"
    root = _project(tmp_path, page)
    result = cli("fix", str(root))
    assert result.code == 0 and result.out == "" and "Nothing to fix." in result.err


_STRICT = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "localhost"
    port: int = 8080
    workers: int = 1


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
"""

_ENTRIES_MD = """# Configuration

## `server`

<i>**host**</i>: [string]

| Description | Default |
| --- | --- |
| Where to listen. | `localhost` |

<i>**keepalive**</i>: [boolean]

| Description | Default |
| --- | --- |
| Keep connections open. | `true` |

<i>**port**</i>: [integer]

| Description | Default |
| --- | --- |
| The port. | `8080` |

- `workers` (int): How many workers. Default: `1`
- `greeting` (str): What to say first. Default: `hi`
- `workerz` (int): A typo of the workers. Default: `1`

| Key | Description | Default |
| --- | --- | --- |
| `host` | Where to listen. | `localhost` |
| `banner` | A banner. | `hello` |
| `motto` | A motto. | |
"""


def _strict_project(tmp_path: Path, page: str, name: str = "docs/configuration.md") -> Path:
    root = _project(tmp_path, page, name)
    (root / "app" / "config.py").write_text(_STRICT)
    return root


def _entries(path: Path) -> list[str]:
    from configdrift.extract.docs.markdown import extract_markdown, extract_mdx
    from configdrift.extract.docs.rst import extract_rst

    extract = {".md": extract_markdown, ".mdx": extract_mdx, ".rst": extract_rst}[path.suffix]
    return [e.name for e in extract(path.read_bytes()).entries]


@pytest.mark.parametrize("name", ["docs/configuration.md", "docs/configuration.mdx"])
def test_cd101_entries_are_deleted_with_their_blocks(cli, tmp_path, name) -> None:
    root = _strict_project(tmp_path, _ENTRIES_MD, name)
    page = root / name
    cd101 = [k for c, k in _codes(cli, root) if c == "CD101"]
    assert cd101 == [
        "server.banner",
        "server.greeting",
        "server.keepalive",
        "server.motto",
        "server.workerz",
    ]
    before = _entries(page)
    result = cli("fix", str(root), "--apply")
    assert result.code == 0
    after = page.read_text()
    assert "keepalive" not in after and "Keep connections open." not in after
    assert "greeting" not in after and "banner" not in after
    # A misspelt key is a real key's entry under a wrong name: kept.
    assert "`workerz`" in after and "server.workerz` not fixed" in result.err
    # An entry with neither a type nor a default may list something else.
    assert "| `motto` | A motto. | |" in after and "server.motto` not fixed" in result.err
    lost = [e for e in before if e not in _entries(page)]
    assert sorted(lost) == ["banner", "greeting", "keepalive"]
    # The neighbours are whole: the page reads as before without the three.
    assert "<i>**host**</i>: [string]\n\n| Description | Default |" in after
    assert "| Where to listen. | `localhost` |\n\n<i>**port**</i>: [integer]" in after
    assert "- `workers` (int): How many workers. Default: `1`\n- `workerz`" in after
    assert "| `host` | Where to listen. | `localhost` |\n| `motto`" in after
    assert [k for c, k in _codes(cli, root) if c == "CD101"] == ["server.motto", "server.workerz"]
    again = cli("fix", str(root), "--apply")
    assert "Fixed 0 findings" in again.err and page.read_text() == after


_ENTRIES_RST = """Configuration
=============

.. confval:: server.host
   :type: str
   :default: ``localhost``

   Where to listen.

.. confval:: server.keepalive
   :type: bool
   :default: ``true``

   Keep connections open.

   Two paragraphs of it.

.. confval:: server.port
   :type: int
   :default: ``8080``

   The port.
"""


def test_a_restructuredtext_directive_is_deleted_with_its_body(cli, tmp_path) -> None:
    root = _strict_project(tmp_path, _ENTRIES_RST, "docs/configuration.rst")
    assert ("CD101", "server.keepalive") in _codes(cli, root)
    assert cli("fix", str(root), "--apply").code == 0
    text = (root / "docs" / "configuration.rst").read_text()
    start = _ENTRIES_RST.index(".. confval:: server.keepalive")
    end = _ENTRIES_RST.index(".. confval:: server.port")
    assert text == _ENTRIES_RST[:start] + _ENTRIES_RST[end:]
    assert _entries(root / "docs" / "configuration.rst") == ["server.host", "server.port"]


def test_an_entry_that_titles_a_section_is_left_alone(cli, tmp_path) -> None:
    page = "# Configuration\n\n## `server`\n\n### `keepalive`\n\nKeep connections open.\n\n### `port`\n\nThe port. Default: `8080`\n"
    root = _strict_project(tmp_path, page)
    assert ("CD101", "server.keepalive") in _codes(cli, root)
    result = cli("fix", str(root), "--apply")
    assert "### `keepalive`" in (root / "docs" / "configuration.md").read_text()
    assert "a section's title" in result.err


def test_the_last_item_of_a_list_keeps_the_blank_line_after_the_list(cli, tmp_path) -> None:
    page = (
        "# Configuration\n\n## `server`\n\n"
        "- `host` (str): Where to listen.\n- `greeting` (str): What to say first.\n\n"
        "| Key | Description |\n| --- | --- |\n| `port` | The port. |\n"
    )
    root = _strict_project(tmp_path, page)
    assert cli("fix", str(root), "--apply").code == 0
    after = (root / "docs" / "configuration.md").read_text()
    assert after == page.replace("- `greeting` (str): What to say first.\n", "")
    assert _entries(root / "docs" / "configuration.md") == ["server", "host", "port"]


def test_a_code_span_that_is_a_command_is_no_entry_to_delete(cli, tmp_path) -> None:
    page = (
        "# Configuration\n\n## `server`\n\n- `host` (str): Where to listen.\n"
        "- `port` (int): The port.\n- `greeting 5 --loud` (default values)\n"
    )
    root = _strict_project(tmp_path, page)
    cd101 = [k for c, k in _codes(cli, root) if c == "CD101"]
    result = cli("fix", str(root), "--apply")
    assert (root / "docs" / "configuration.md").read_text() == page
    if cd101:
        assert "not written alone" in result.err


def test_names_alone() -> None:
    from configdrift.edits.pages import names_alone

    assert names_alone("- `workers` (int): How many.\n", "workers")
    assert names_alone("<i>**grad_hooks**</i>: [boolean]\n", "grad_hooks")
    assert names_alone(".. confval:: server.keepalive\n", "server.keepalive")
    assert names_alone("| `banner` | A banner. |", "banner")
    assert not names_alone("* `--ctr 0.25 --rcfg 1.0` (default values)\n", "--ctr")
    assert not names_alone("- `bannerline` text\n", "banner")


def test_a_file_argument_fixes_that_file_alone(cli, tmp_path) -> None:
    root = _project(tmp_path, _MARKDOWN)
    other = root / "docs" / "other.md"
    other.write_text("# Other\n\n## `server`\n\n- `ratio` (float): A share. Default: `0.5`\n")
    config = root / "pyproject.toml"
    config.write_text(config.read_text().replace('"docs/configuration.md"]', '"docs/*.md"]'))
    assert "docs/other.md" in cli("fix", str(root)).out
    result = cli("fix", str(other), "--apply")
    assert result.code == 0 and "Fixed 1 finding in 1 file." in result.err
    assert "Default: `0.25`" in other.read_text()
    assert (root / "docs" / "configuration.md").read_bytes() == _MARKDOWN.encode()


_DEPRECATING = """
from pydantic import BaseModel, ConfigDict, Field


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "localhost"
    max_conn: int = Field(100, json_schema_extra={"deprecated": True, "new_param": "max_connections"})
    max_connections: int = 100
    legacy: bool = Field(False, json_schema_extra={"deprecated": True, "new_param": "tls"})
    tls: dict = {}


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
"""

_EXAMPLE_PAGE = """# Configuration

## `server`

- `host` (str): Where to listen. Default: `localhost`
- `max_connections` (int): How many connections. Default: `100`
- `tls` (dict): TLS settings.

```json
{
  "server": {
    "host": "example.org",
    "max_conn": 20,
    "legacy": true
  }
}
```
"""


def test_a_deprecated_key_in_an_example_is_renamed_when_its_value_fits(cli, tmp_path) -> None:
    root = _project(tmp_path, _EXAMPLE_PAGE)
    (root / "app" / "config.py").write_text(_DEPRECATING)
    cd402 = [k for c, k in _codes(cli, root) if c == "CD402"]
    assert cd402 == ["server.legacy", "server.max_conn"]
    result = cli("fix", str(root), "--apply")
    assert result.code == 0
    text = (root / "docs" / "configuration.md").read_text()
    assert text == _EXAMPLE_PAGE.replace('"max_conn": 20', '"max_connections": 20')
    # `tls` is a section: `legacy: true` cannot become it.
    assert "server.legacy` not fixed: `tls` does not take the example's value" in result.err
    assert [k for c, k in _codes(cli, root) if c == "CD402"] == ["server.legacy"]


def test_the_entries_of_every_surface_bound_a_block() -> None:
    from types import SimpleNamespace

    from configdrift.edits.entries import entry_lines, markdown_block

    def entry(line: int, path: str = "docs/a.md") -> SimpleNamespace:
        return SimpleNamespace(location=SimpleNamespace(path=path, line=line))

    config = SimpleNamespace(entries=[entry(3), entry(9), entry(2, "docs/b.md")])
    cli = SimpleNamespace(entries=[entry(7), entry(3)])
    analysis = SimpleNamespace(everything=[config, cli])
    assert entry_lines(analysis, "docs/a.md") == [3, 7, 9]
    page = [
        "# Page\n",
        "\n",
        "<i>**gone**</i>: [boolean]\n",
        "\n",
        "Described here.\n",
        "\n",
        "- `--flag`: an option of the command line.\n",
        "\n",
        "<i>**kept**</i>: [boolean]\n",
    ]
    others = [n for n in entry_lines(analysis, "docs/a.md") if n != 3]
    # The command line's entry on line 7 ends the block, not the next
    # entry of the config on line 9.
    assert markdown_block(page, 3, "html-bold", others, "docs/a.md") == (3, 7)


_NEAR_PAGE = """\
# Configuration

## `server`

| Key | Description | Default |
| --- | --- | --- |
| `bucket` | Bytes per bucket. | `50000000` |
| `verbos` | Log more. | `false` |

```json
{"server": {"baklog": 32, "mode": "fast"}}
```

```json
{"server": {"baklog": 32, "backlog": 16}}
```

```json
{"server": {"rattio": "half"}}
```
"""


def test_unsafe_fixes_rename_a_key_to_its_near_spelling(cli, tmp_path) -> None:
    root = _project(tmp_path, _NEAR_PAGE)
    page = root / "docs" / "configuration.md"
    safe = cli("fix", str(root))
    assert "verbos" not in safe.out and "baklog" not in safe.out
    assert "(--unsafe-fixes renames it)" in safe.err
    assert (
        "not deleted: the entry may name a real key wrongly (did you mean `verbose`?); "
        "correct it by hand (--unsafe-fixes renames it)"
    ) in safe.err
    assert "with --unsafe-fixes" in safe.err
    shown = cli("fix", str(root), "--unsafe-fixes")
    assert shown.code == 1
    assert "-| `verbos` | Log more. | `false` |\n+| `verbose` | Log more. | `false` |" in shown.out
    assert page.read_text() == _NEAR_PAGE  # a diff writes nothing
    assert "`backlog` is set beside it already" in shown.err
    assert "`ratio` does not take the example's value" in shown.err
    assert cli("fix", str(root), "--unsafe-fixes", "--apply").code == 0
    text = page.read_text()
    assert "| `verbose` | Log more. | `false` |" in text
    assert '{"server": {"backlog": 32, "mode": "fast"}}' in text
    # Not where the near spelling is set beside it, nor where its type
    # refuses the value.
    assert '{"server": {"baklog": 32, "backlog": 16}}' in text
    assert '{"server": {"rattio": "half"}}' in text
    codes = _codes(cli, root)
    assert ("CD101", "server.verbos") not in codes
    assert ("CD301", "server.baklog") in codes  # the one left, beside backlog
    again = cli("fix", str(root), "--unsafe-fixes", "--apply")
    assert page.read_text() == text
    assert "Fixed 0 findings" in again.err


def test_the_first_row_of_a_table_is_deleted_too(cli, tmp_path) -> None:
    page = (
        "# Configuration\n\n## `server`\n\n| Key | Description | Default |\n| --- | --- | --- |\n"
        "| `keepalive` | Seconds. | `5` |\n| `bucket` | Bytes. | `50000000` |\n"
    )
    root = _project(tmp_path, page)
    assert cli("fix", str(root), "--apply").code == 0
    assert (root / "docs" / "configuration.md").read_text() == page.replace(
        "| `keepalive` | Seconds. | `5` |\n", ""
    )


def test_the_check_after_the_edits_names_a_new_finding() -> None:
    import io

    from configdrift.commands.writing import recheck as _recheck
    from configdrift.model import Finding, Location

    def finding(code: str, key: str, line: int) -> Finding:
        return Finding(code, key, Location("docs/c.md", line), f"{code} of {key}")

    before = [finding("CD101", "a", 3), finding("CD104", "b", 9)]
    after = [finding("CD104", "b", 7), finding("CD105", "c", 12)]
    err = io.StringIO()
    _recheck(before, after, "", err)
    assert err.getvalue() == (
        "Re-checked: 1 finding gone, 1 new.\n  new: docs/c.md:12: CD105 CD105 of c\n"
    )


def test_ruffs_spellings_check_fix_fix_diff_and_output_format(cli, tmp_path) -> None:
    root = _project(tmp_path, _MARKDOWN)
    page = root / "docs" / "configuration.md"
    before = page.read_bytes()
    # ``fix --diff`` is the default made explicit: a diff, nothing written.
    shown = cli("fix", str(root), "--diff")
    assert shown.code == 1 and "+| `verbose`" in shown.out and page.read_bytes() == before
    assert cli("fix", str(root), "--diff", "--apply").code == 2  # one or the other
    # ``--output-format`` is ``--format``.
    report = json.loads(cli("check", str(root), "--output-format", "json").out)
    assert {f["code"] for f in report["findings"]} == {"CD104"}
    assert len(report["findings"]) == 5
    # ``check --fix`` writes the fixes, then reports what is left: the two
    # defaults no edit can write safely.
    fixed = cli("check", str(root), "--fix", "--output-format", "json")
    assert page.read_bytes() != before
    left = {f["key"] for f in json.loads(fixed.out)["findings"]}
    assert left == {"server.mode", "server.backlog"}
    assert "Fixed 3 findings" in fixed.err
    # ``--unsafe-fixes`` alone is a usage error, as in ruff it does nothing.
    assert cli("check", str(root), "--unsafe-fixes").code == 2
