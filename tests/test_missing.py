"""``configdrift fix --add-missing``: an entry for each undocumented key, in
the format of its section, from the code's description, type and default;
left alone where the code says nothing or the section has no entry."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import make_project

_MODEL = '''
from pydantic import BaseModel, ConfigDict, Field


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    port: int = Field(8080, description="The port to listen on.")
    verbose: bool = False
    backlog: int = 64
    """Connections queued before the server refuses more.

    A longer story that stays in the code.
    """
    workers: int = Field(2, description="Worker processes | at most 64.")
    secret: str = "x"


class Log(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str = Field("info", description="How much to log.")
    colour: bool = Field(True, description="Colour the log.")


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
    log: Log = Log()
'''


def _project(tmp_path: Path, page: str, name: str = "docs/configuration.md") -> Path:
    return make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/config.py": _MODEL,
            name: page,
            "pyproject.toml": '[project]\nname = "t"\n\n[tool.configdrift]\n'
            f'docs = ["{name}"]\nmount = {{"" = "app.config:Config"}}\n',
        },
    )


def _findings(cli, root: Path) -> set[tuple[str, str]]:
    report = json.loads(cli("check", str(root), "--format", "json").out)
    return {(f["code"], f["key"]) for f in report["findings"]}


_TABLE = """\
# Configuration

## `server`

| Key | Type | Description | Default |
| --- | --- | --- | --- |
| `port` | integer | The port to listen on. | `8080` |
| `verbose` | boolean | Log more. | `false` |

After the table.
"""


def test_a_table_section_gets_rows_written_like_its_own(cli, tmp_path) -> None:
    root = _project(tmp_path, _TABLE)
    before = _findings(cli, root)
    assert {("CD103", "server.backlog"), ("CD103", "server.workers")} <= before
    shown = cli("fix", str(root), "--add-missing")
    assert shown.code == 1
    assert (
        "+| `backlog` | integer | Connections queued before the server refuses more. | `64` |"
        in (shown.out)
    )
    # A bar in a description is escaped; a key the code does not describe
    # is left for a person.
    assert "+| `workers` | integer | Worker processes \\| at most 64. | `2` |" in shown.out
    assert "`server.secret` not fixed: the code gives no description" in shown.err
    applied = cli("fix", str(root), "--add-missing", "--apply")
    assert applied.code == 0
    # The check after the edits: the two findings gone, none new.
    assert "Re-checked: 2 findings gone, 0 new." in applied.err
    text = (root / "docs/configuration.md").read_text()
    assert text.endswith(
        "| `verbose` | boolean | Log more. | `false` |\n"
        "| `backlog` | integer | Connections queued before the server refuses more. | `64` |\n"
        "| `workers` | integer | Worker processes \\| at most 64. | `2` |\n\nAfter the table.\n"
    )
    after = _findings(cli, root)
    assert ("CD103", "server.backlog") not in after and ("CD103", "server.workers") not in after
    assert after - before == set()
    # A second run adds nothing.
    again = cli("fix", str(root), "--add-missing", "--apply")
    assert (root / "docs/configuration.md").read_text() == text
    assert "Fixed 0 findings" in again.err


_PARAGRAPHS = """\
# Configuration

### `log`

<i>**level**</i>: [string]

| Description | Default |
| ----------- | ------- |
| How much to log. | `"info"` |

### `server`

<i>**port**</i>: [integer]

| Description | Default |
| ----------- | ------- |
| The port. | `8080` |

<i>**verbose**</i>: [boolean]

| Description | Default |
| ----------- | ------- |
| Log more. | `false` |
"""


def test_an_entry_paragraph_with_its_table_is_the_template(cli, tmp_path) -> None:
    root = _project(tmp_path, _PARAGRAPHS)
    assert cli("fix", str(root), "--add-missing", "--apply").code == 0
    text = (root / "docs/configuration.md").read_text()
    # The type in the page's words ([boolean], [integer]), the default in
    # the template's notation.
    assert text.endswith(
        "| Log more. | `false` |\n\n<i>**backlog**</i>: [integer]\n\n"
        "| Description | Default |\n| ----------- | ------- |\n"
        "| Connections queued before the server refuses more. | `64` |\n\n"
        "<i>**workers**</i>: [integer]\n\n| Description | Default |\n| ----------- | ------- |\n"
        "| Worker processes \\| at most 64. | `2` |\n"
    )
    # In the middle of the page, after the section's last entry.
    assert (
        '| How much to log. | `"info"` |\n\n<i>**colour**</i>: [boolean]\n\n'
        "| Description | Default |\n| ----------- | ------- |\n| Colour the log. | `true` |\n\n"
        "### `server`"
    ) in text
    after = _findings(cli, root)
    assert not {k for c, k in after if c == "CD103"} - {"server.secret"}


_RST = """\
Configuration
=============

.. confval:: log.level
   :type: str
   :default: ``"info"``

   How much to log.

Server
------

.. confval:: server.port
   :type: int
   :default: ``8080``

   The port.
"""


def test_a_restructuredtext_directive_is_the_template(cli, tmp_path) -> None:
    root = _project(tmp_path, _RST, "docs/configuration.rst")
    assert cli("fix", str(root), "--add-missing", "--apply").code == 0
    text = (root / "docs/configuration.rst").read_text()
    assert (
        ".. confval:: server.backlog\n   :type: int\n   :default: ``64``\n\n"
        "   Connections queued before the server refuses more.\n"
    ) in text
    # Each block apart from the one before it, at the end of the page too.
    assert "   The port.\n\n.. confval:: server.backlog\n" in text
    assert "refuses more.\n\n.. confval:: server.workers\n" in text
    after = _findings(cli, root)
    assert ("CD103", "server.backlog") not in after
    assert not [f for f in after if f[0] in ("CD101", "CD104", "CD105")]


def test_without_the_flag_nothing_is_added_and_the_count_is_named(cli, tmp_path) -> None:
    root = _project(tmp_path, _TABLE)
    result = cli("fix", str(root))
    assert "+| `backlog`" not in result.out
    assert "undocumented key" in result.err
    assert ": --add-missing writes their entries." in result.err


def test_a_section_without_an_entry_is_left_alone(cli, tmp_path) -> None:
    page = "# Configuration\n\n## `server`\n\n| Key | Description | Default |\n| --- | --- | --- |\n| `port` | The port. | `8080` |\n"
    root = _project(tmp_path, page)
    result = cli("fix", str(root), "--add-missing", "--apply")
    assert "`log` not fixed: a section: document it and its keys by hand" in result.err
    assert "log.level" not in result.err  # a section's fields wait for the section
    text = (root / "docs/configuration.md").read_text()
    assert "| `backlog` | Connections queued before the server refuses more. | `64` |" in text
    assert "level" not in text


_CLI = {
    "tools/__init__.py": "",
    "tools/fetch.py": """\
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output-dir", help="Where to write.")
    parser.add_argument("--workers", type=int, default=4, help="Worker processes.")
    parser.add_argument("--retries", type=int, default=3, help="Attempts per file.")
    parser.add_argument("--timeout", type=int, default=30, help="Seconds per request.")
    return parser.parse_args()
""",
    "tools/route.py": """\
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output-dir", help="Where to write the plots.")
    parser.add_argument("--top-k", type=int, default=2, help="Experts per token.")
    parser.add_argument("--plot-style", default="bars", help="How to plot.")
    return parser.parse_args()
""",
}


def test_an_option_goes_to_its_own_command_s_page_only(cli, tmp_path) -> None:
    page = (
        "# fetch\n\n- `--plot-style`\n  - How to plot.\n- `--output-dir`\n  - Where to write.\n- `--workers`\n  - Worker processes.\n"
        "- `--timeout`\n  - Seconds per request.\n\nMore text.\n"
    )
    root = make_project(tmp_path, {**_CLI, "docs/fetch.md": page})
    result = cli("fix", str(root), "--add-missing", "--apply")
    text = (root / "docs/fetch.md").read_text()
    # The list stays tight, the item keeps its nested marker.
    assert (
        "- `--timeout`\n  - Seconds per request.\n- `--retries`\n  - Attempts per file.\n\n" in text
    )
    # ``--top-k`` is route's, documented beside route's ``--plot-style``:
    # the page is fetch's all the same.
    assert "--top-k" not in text
    assert "`--top-k` not fixed: its page documents other commands' options" in result.err


def test_a_row_with_a_column_the_code_cannot_fill_is_left_alone(cli, tmp_path) -> None:
    page = (
        "# fetch\n\n| Argument | Short | Description |\n| --- | --- | --- |\n"
        "| `--output-dir` | `-o` | Where to write. |\n| `--workers` | `-w` | Worker processes. |\n"
        "| `--timeout` | `-t` | Seconds per request. |\n"
    )
    root = make_project(tmp_path, {**_CLI, "docs/fetch.md": page})
    result = cli("fix", str(root), "--add-missing", "--apply")
    assert (root / "docs/fetch.md").read_text() == page
    assert "a column the code cannot fill" in result.err


def test_an_mdx_page_gets_its_entry_and_a_jsx_line_stays(cli, tmp_path) -> None:
    page = (
        "import Tabs from '@theme/Tabs';\n\n# Configuration\n\n## `server`\n\n<Tabs>\n\n"
        "| Key | Type | Description | Default |\n| --- | --- | --- | --- |\n"
        "| `port` | integer | The port to listen on. | `8080` |\n"
        "| `verbose` | boolean | Log more. | `false` |\n\n</Tabs>\n"
    )
    root = _project(tmp_path, page, "docs/configuration.mdx")
    assert cli("fix", str(root), "--add-missing", "--apply").code == 0
    text = (root / "docs/configuration.mdx").read_text()
    assert text.startswith("import Tabs from '@theme/Tabs';\n")
    assert (
        "| `verbose` | boolean | Log more. | `false` |\n"
        "| `backlog` | integer | Connections queued before the server refuses more. | `64` |\n"
    ) in text
    assert text.endswith("\n\n</Tabs>\n")


def test_a_crlf_page_gets_crlf_entries(cli, tmp_path) -> None:
    root = _project(tmp_path, _PARAGRAPHS.replace("\n", "\r\n"))
    assert cli("fix", str(root), "--add-missing", "--apply").code == 0
    data = (root / "docs/configuration.md").read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert b"<i>**backlog**</i>: [integer]\r\n\r\n| Description | Default |\r\n" in data
    assert data.startswith(_PARAGRAPHS.replace("\n", "\r\n").encode()[:120])


def test_the_description_of_a_declaration_over_several_lines() -> None:
    import ast

    from configdrift.edits.missing import _described_at

    source = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument(\n        "--fp8",\n        action="store_true",\n'
        '        help="use fp8",\n    )\n    return parser\n\n\n'
        'class C:\n    x: int = 1\n    """The x."""\n    y: int = 2\n'
    )
    tree = ast.parse(source)
    assert _described_at(tree, 6) == "use fp8"  # the call's line
    assert _described_at(tree, 7) == "use fp8"  # the option's own line
    assert _described_at(tree, 15) == "The x."
    assert _described_at(tree, 17) is None  # no docstring after the last field
