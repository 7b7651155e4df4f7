"""Markdown's other ways to document a key: plain and decorated key
headings, Default/Type lines and sub-bullets, defaults in prose, MDX pages."""

from __future__ import annotations

from configdrift.extract.docs.markdown import extract_markdown
from helpers import by_key, check_project


def _entries(page: str) -> list[tuple[str, str | None, str | None]]:
    facts = extract_markdown(page.encode())
    return [(e.name, e.default, e.doc_type) for e in facts.entries]


def test_headings_that_are_keys() -> None:
    page = (
        "# Options\n\n"
        "## Usage\n\nHow to use it.\n\n"  # a word, capitalised: not a key
        "## install\n\nRun pip.\n\n"  # a lowercase word with no label: not a key
        "## max_retries\n\nHow often.\n\n"  # spelt as a key
        "## parse\n\nDefault: `(?P<major>\\d+)`\n\n"  # a word a Default line makes a key
        "### :material-toggle-switch: `enabled`: turn it off { #enabled }\n\n"
        "#### `opening_tag` and `closing_tag`\n\n"
        "## `ADMINS` {: #ADMINS }\n\n"
        "## Using `cache` with care\n\n"  # prose around a code span: not a key
    )
    facts = extract_markdown(page.encode())
    names = [e.name for e in facts.entries if e.form != "word"]
    # A heading's other keys are entries before its own (its aliases).
    assert names == ["max_retries", "parse", "enabled", "closing_tag", "opening_tag", "ADMINS"]
    # A lowercase word with no label is a key only where the schema has one.
    assert [e.name for e in facts.entries if e.form == "word"] == ["install"]


def test_a_plain_heading_of_keys_joined_by_and_names_each() -> None:
    page = (
        "# Options\n\n## default_hour and default_minute\n\nWhen.\n\n"
        "## log_dir, cache_dir / tmp_dir\n\nWhere.\n\n"
        # Words among the keys, a word alone joined, a joiner at either end:
        # prose, not keys.
        "## max_retries and more\n\nMore.\n\n## parse and lint\n\nBoth.\n\n"
        "## and min_size, max_size\n\nSize.\n\n## min_size, max_size and\n\nSize.\n\n"
        "## min_size max_size\n\nSizes.\n"
    )
    facts = extract_markdown(page.encode())
    assert [e.name for e in facts.entries] == [
        "default_minute",
        "default_hour",
        "cache_dir",
        "tmp_dir",
        "log_dir",
    ]


def test_default_and_type_lines_under_an_entry() -> None:
    page = (
        "# Settings\n\n"
        "### `timeout`\n\nSeconds to wait.\n\n**Default**: `30`\n\n"
        "### `retries`\n\n_Type_: int\n\nDefault: 3\n\n"
        "### `color`\n\nThe colour. Defaults to `blue`.\n\n"
        "- `size` (int): the size. Defaults to `10`.\n"
        "- `shape`: the shape.\n"
        "  - Type: `str`\n"
        "  - Default: `round`\n"
        "- `depth`: how deep.\n"
    )
    assert _entries(page) == [
        ("timeout", "`30`", None),
        ("retries", "3", "int"),
        ("color", "`blue`", None),
        ("size", "`10`", "int"),
        ("shape", "`round`", "`str`"),
        ("depth", None, None),
    ]


def test_a_default_in_a_later_item_is_not_the_earlier_items() -> None:
    page = (
        "# Email\n\n"
        "* `require_tls` (boolean): refuse plain text. Defaults to `false`.\n\n"
        "* `enable_tls` (boolean): use TLS. Defaults to `true`.\n"
    )
    assert [(n, d) for n, d, _ in _entries(page)] == [
        ("require_tls", "`false`"),
        ("enable_tls", "`true`"),
    ]


def test_mdx_pages_are_read_and_drift_is_found(tmp_path) -> None:
    code = """
    from pydantic import BaseModel, ConfigDict


    class Server(BaseModel):
        model_config = ConfigDict(extra="forbid")
        host: str = "localhost"
        port: int = 8000
        workers: int = 2


    def load(d):
        return Server(**d.get("server", {}))
    """
    page = (
        "---\ntitle: Server\n---\n\nimport Tabs from '@theme/Tabs';\n\n# Server\n\n"
        "<Tabs>\n</Tabs>\n\n"
        "## `server`\n\n"
        "### `host`\n\nDefault: `localhost`\n\n"
        "### `port`\n\nDefault: `8080`\n\n"
        "### `workers`\n\nDefault: `2`\n\n"
        "### `threads`\n\nDefault: `4`\n"
    )
    _, findings = check_project(tmp_path, {"app/server.py": code, "docs/server.mdx": page}, "app")
    found = by_key(findings)
    assert ("CD104", "server.port") in found
    assert ("CD101", "server.threads") in found
    assert ("CD104", "server.host") not in found


def test_sizes_and_durations_are_not_compared_as_text() -> None:
    from configdrift.rules.values import parse_doc_value, values_equal

    assert values_equal(parse_doc_value('`"500MiB"`'), "500M") is True
    assert values_equal(parse_doc_value('`"1G"`'), "512M") is False
    assert values_equal(parse_doc_value('`"1m"`'), 60000) is None
    assert values_equal(parse_doc_value('`"3"`'), 3) is False


def test_a_list_item_that_opens_with_an_anchor() -> None:
    page = (
        "# Reference\n\n"
        '- <a name="opt_dedent" href="#opt_dedent">#</a>\n'
        "  **dedent** (bool): dedent the content.\n"
        '- <a name="x" href="#x">see</a> the `other` page.\n'
    )
    assert [name for name, _, _ in _entries(page)] == ["dedent"]


def test_ini_blocks_in_markdown_and_rst() -> None:
    from configdrift.extract.docs.rst import extract_rst

    md = b"# Config\n\n```ini\n[run]\nbranch = True\n\n[report]\nshow_missing: yes\n```\n"
    rst = b"Config\n======\n\n.. code-block:: cfg\n\n   [run]\n   branch = True\n"
    (block,) = extract_markdown(md).blocks
    assert [k.path for k in block.keys] == [
        ("run",),
        ("run", "branch"),
        ("report",),
        ("report", "show_missing"),
    ]
    assert block.keys[1].line == 5
    (block,) = extract_rst(rst).blocks
    assert [k.path for k in block.keys] == [("run",), ("run", "branch")]
    # A key before any section is no INI: read as nothing, and not judged.
    assert extract_markdown(b"# C\n\n```ini\nbranch = True\n```\n").blocks == []


def test_configparser_headings_and_lead_ins_in_markdown() -> None:
    page = (
        "# Reference\n\n"
        "## [run]\n\nThe run command.\n\n"
        "### [run] branch\n\n(boolean, default False) Measure branches.\n\n"
        "### [run] omit\n\n(optional) Patterns to leave out.\n\n"  # no type
        "## [1]: a footnote heading\n\n"  # not a section's option
    )
    facts = extract_markdown(page.encode())
    assert [(e.parts, e.default, e.doc_type) for e in facts.entries] == [
        (("run",), None, None),
        (("run", "branch"), "False", "boolean"),
        (("run", "omit"), None, None),
    ]


_SMALL_MODEL = """
from pydantic import BaseModel


class Cache(BaseModel):
    ttl: int = 60
    size: int = 100


class Server(BaseModel):
    host: str = "localhost"
    port: int = 8000


class Config(BaseModel):
    cache: Cache = Cache()
    server: Server = Server()
    debug: bool = False


def load(raw: dict) -> Config:
    return Config(**raw)
"""

_SMALL_REFERENCE = (
    "# Reference\n\n## cache\n\n- `ttl` (int): seconds. Default: `60`.\n"
    "- `size` (int): entries. Default: `100`.\n\n"
    "## server\n\n- `host` (str): where. Default: `localhost`.\n"
    "- `port` (int): which. Default: `8000`.\n"
)


def test_a_page_of_one_or_two_key_headings_of_one_section_is_read(tmp_path) -> None:
    files = {
        "app/config.py": _SMALL_MODEL,
        "docs/reference.md": _SMALL_REFERENCE,
        # One key heading with its default: a page of its own.
        "docs/cache-ttl.md": "# Cache\n\n### `ttl`\n\nHow long entries live.\n\nDefault: `30`\n",
        # One list item naming a key: a mention, not a reference page.
        "docs/tuning.md": "# Tuning\n\n- `size` (int): try 10. Default: `10`.\n",
        # Two headings naming keys of two different sections.
        "docs/mixed.md": "# Mixed\n\n### `ttl`\n\nDefault: `1`\n\n### `host`\n\nDefault: `h`\n",
    }
    analysis, findings = check_project(tmp_path, files, "app", {"": "app.config:Config"})
    pages = {d.path for d in analysis.doc_sources}
    assert "docs/cache-ttl.md" in pages
    assert not {"docs/tuning.md", "docs/mixed.md"} & pages
    mismatched = {(f.key, f.location.path) for f in findings if f.code == "CD104"}
    assert ("cache.ttl", "docs/cache-ttl.md") in mismatched
    assert not {p for _, p in mismatched} - {"docs/cache-ttl.md"}


def test_entries_inside_mkdocs_admonitions() -> None:
    page = (
        "# Options\n\n"
        '!!! note "Caching"\n'
        "    ### `ttl`\n\n"
        "    Default: `5`\n\n"
        "??? info\n"
        "    - `size` (int): entries. Default: `3`\n\n"
        "    ```yaml\n"
        "    cache:\n"
        "      size: 3\n"
        "    ```\n\n"
        "    ttl: 9\n"  # an indented line in an admonition is text, not code
    )
    facts = extract_markdown(page.encode())
    assert [(e.name, e.default, e.line) for e in facts.entries] == [
        ("ttl", "`5`", 4),
        ("size", "`3`", 9),  # a default label inside the list item
    ]
    assert [(b.lang, b.line) for b in facts.blocks] == [("yaml", 12)]
    # Without the admonition, the same indented lines are a code block.
    assert extract_markdown(b"# Options\n\n    ### `ttl`\n\n    Default: `5`\n").entries == []


def test_a_table_of_renamed_keys_marks_the_old_spellings_deprecated(tmp_path) -> None:
    code = """
    from pydantic import BaseModel, ConfigDict


    class Offload(BaseModel):
        model_config = ConfigDict(extra="forbid")
        offload_optimizer: bool = False
        stage: int = 0


    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        zero: Offload = Offload()
        batch_size: int = 1
    """
    migration = (
        "# Migrating\n\n"
        "| Old name | New name |\n| --- | --- |\n"
        "| `cpu_offload` | `offload_optimizer` |\n"
        "| `run_fast` | `fast_path` |\n"  # the new name is no key: not this config's
    )
    reference = (
        "# Reference\n\n## zero\n\n"
        "- `stage` (int): the stage. Default: `0`.\n"
        "- `offload_optimizer` (bool): offload. Default: `false`.\n"
        "- `cpu_offload` (bool): offload too.\n\n"
        '```json\n{"zero": {"cpu_offload": true, "stage": 1}, "batch_size": 2}\n```\n'
    )
    _, findings = check_project(
        tmp_path,
        {"app/config.py": code, "docs/migrating.md": migration, "docs/reference.md": reference},
        "app",
        {"": "app.config:Config"},
    )
    deprecated = sorted(
        (f.key, f.location.path, f.location.line) for f in findings if f.code == "CD402"
    )
    assert deprecated == [
        ("zero.cpu_offload", "docs/reference.md", 7),
        ("zero.cpu_offload", "docs/reference.md", 10),
    ]
    hint = next(f for f in findings if f.code == "CD402")
    assert "offload_optimizer" in (hint.suggestion or "")
    assert any(r.path == "docs/migrating.md" for r in hint.related)
    # The table's rows are no entries: its old names are not "documented".
    assert not [f for f in findings if f.location.path == "docs/migrating.md"]


def test_a_default_continued_on_the_next_lines_in_markdown() -> None:
    page = (
        "# Options\n\n### `ignore`\n\nDefault: ['.pyc',\n'.pyo']\n\n"
        "### `paths`\n\nDefault: {'a': [1,\n2]\n"
    )
    assert [(name, default) for name, default, _ in _entries(page)] == [
        ("ignore", "['.pyc', '.pyo']"),
        ("paths", None),
    ]


def test_mdx_component_content_is_read_as_markdown_not_as_code() -> None:
    from configdrift.extract.docs.markdown import extract_mdx

    page = (
        'import { Tabs, Tab } from "docs/components";\n\n'
        "# LLM config\n\n"
        "<Tabs>\n"
        '  <Tab title="Python">\n'
        "    | Parameter | Description |\n"
        "    | --- | --- |\n"
        "    | `top_p` | nucleus sampling |\n"
        "    | `temperature` | heat |\n\n"
        "    ```yaml\n    llm:\n      top_p: 1\n    ```\n"
        "  </Tab>\n"
        "  <Tab\n"
        '    title="TypeScript">\n'
        "    - `max_tokens` (int): at most. Default: `100`.\n"
        "  </Tab>\n"
        "</Tabs>\n\n"
        "    indented outside any component: still code, `not_a_key`\n"
    )
    facts = extract_mdx(page.encode())
    assert [(e.name, e.line) for e in facts.entries] == [
        ("top_p", 9),
        ("temperature", 10),
        ("max_tokens", 19),
    ]
    assert [(b.lang, [k.path for k in b.keys]) for b in facts.blocks] == [
        ("yaml", [("llm",), ("llm", "top_p")])
    ]
    # The same page read as plain Markdown loses the indented content.
    assert not extract_markdown(page.encode()).entries


def test_hostile_mdx_is_read_never_raised() -> None:
    from configdrift.extract.docs.markdown import extract_mdx

    deep = "".join("  " * i + "<Tab>\n" for i in range(500)) + "  " * 500 + "- `key`: x\n"
    for page in (
        deep,
        "<Tabs\n" * 35_000,  # a tag never closed
        "</Tab>\n" * 35_000 + "- `k`: v\n",  # closings with nothing open
        "<Tab>\n```\n" * 17_000,  # fences never closed
    ):
        facts = extract_mdx(page.encode())
        assert facts.error is None


def test_an_option_heading_is_an_entry() -> None:
    facts = extract_markdown(
        b"# Command line\n\n### --dry-run\nDo nothing.\n\n### --config-file PATH\nWhere.\n\n"
        b"### --format [TYPE]\nHow.\n\n## --not a heading of an option, but prose\n\n### -v\n"
    )
    assert [(e.name, e.form) for e in facts.entries] == [
        ("--dry-run", "heading"),
        ("--config-file", "heading"),
        ("--format", "heading"),
    ]


def test_a_page_of_option_headings_is_read_without_configuration(tmp_path) -> None:
    from helpers import check_project

    cli_code = (
        "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--dry-run", action="store_true")\n'
        '    p.add_argument("--config-file")\n    p.add_argument("--format")\n'
        '    p.add_argument("--verbose", action="store_true")\n'
        "    args = p.parse_args()\n"
        "    print(args.dry_run, args.config_file, args.format, args.verbose)\n"
    )
    page = (
        "# Reference\n\n### --dry-run\nDo nothing.\n\n### --config-file PATH\nWhere.\n\n"
        "### --format TYPE\nHow.\n\n### --colour\nPaint it.\n"
    )
    _, findings = check_project(tmp_path, {"tool/cli.py": cli_code, "docs/cli.md": page}, "tool")
    found = {(f.code, f.key) for f in findings}
    assert ("CD103", "--verbose") in found  # the page is read: the others are documented
    assert not any(key in ("--dry-run", "--config-file", "--format") for _, key in found)
    # A page's option headings are judged together: one the parser lacks,
    # among the parser's own, is documented and rejected.
    assert ("CD101", "--colour") in found


def test_a_page_of_another_tools_option_headings_is_not_judged(tmp_path) -> None:
    from helpers import check_project

    cli_code = (
        "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--epochs", type=int)\n    p.add_argument("--lr", type=float)\n'
        '    p.add_argument("--seed", type=int)\n'
        "    args = p.parse_args()\n    print(args.epochs, args.lr, args.seed)\n"
    )
    ours = "# Training\n\n### --epochs N\nPasses.\n\n### --lr RATE\nStep.\n\n### --seed N\nSeed.\n"
    # The launcher's page: its flags, and one of ours in passing.
    theirs = (
        "# Launching\n\n### --nproc-per-node N\nProcesses.\n\n### --nnodes N\nNodes.\n\n"
        "### --master-port PORT\nPort.\n\n### --epochs N\nHanded on to the script.\n"
    )
    files = {"tool/cli.py": cli_code, "docs/train.md": ours, "docs/launch.md": theirs}
    _, findings = check_project(tmp_path, files, "tool")
    assert not any(f.code == "CD101" for f in findings), [(f.code, f.key) for f in findings]


def test_a_code_span_of_several_options_is_a_command_not_an_entry() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        "# Options\n\n* `--ctr 0.25 --rcfg 1.0` (default values)\n"
        "* `--model MODEL`: the model.\n* `--out=PATH`: where to write.\n"
    )
    names = [e.name for e in extract_markdown(page.encode()).entries]
    assert names == ["--model", "--out"]


def test_two_bare_names_one_of_them_a_key_are_no_claim(tmp_path) -> None:
    from helpers import by_key, check_project

    model = (
        "from pydantic import BaseModel, ConfigDict\n\n\nclass Config(BaseModel):\n"
        '    model_config = ConfigDict(extra="forbid")\n    image: str = ""\n'
        '    title: str = ""\n    feed_ttl: int = 1440\n    abstract_chars: int = 160\n'
    )
    page = (
        "# Configuration\n\n## Options\n\n- `title`: [string] The title.\n"
        "- `feed_ttl`: [integer] Minutes.\n- `abstract_chars`: [integer] Characters.\n\n"
        "## Item image\n\nThe page's meta image. Accepted keys:\n\n"
        "- `image`: preferred\n- `illustration`: an alternative name\n\n"
        "## Misspelt\n\n- `imagee`: the channel's image\n- `feed_tll`: minutes\n\n"
        "## Typed\n\n- `image`: [string] The channel's image.\n- `logo`: [string] The logo.\n"
    )
    files = {"pkg/config.py": model, "docs/configuration.md": page}
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    found = by_key(findings)
    # Two bare names, one a key: no claim that the list is the config's.
    assert ("CD101", "illustration") not in found
    # A near spelling, or a type, says the entries are the config's.
    assert ("CD101", "imagee") in found and ("CD101", "feed_tll") in found
    assert ("CD101", "logo") in found


def test_a_key_table_whose_header_is_emphasised() -> None:
    page = (
        "# Builtin values\n\n"
        "| **Variable** | **Default** | **Description** |\n|---|---|---|\n"
        "| ACCESS_LOG | True | Log each request |\n"
        "| KEEP_ALIVE | 5 | Seconds to keep a connection |\n"
        "| MOTD | on | A constant's spelling, one word |\n"
        "| Timeout | 5 | A capitalised word: prose |\n"
    )
    assert _entries(page) == [
        ("ACCESS_LOG", "True", None),
        ("KEEP_ALIVE", "5", None),
        ("MOTD", "on", None),
    ]


def test_a_table_whose_emphasised_header_names_no_key_column_has_no_entries() -> None:
    page = (
        "# Results\n\n"
        "| **Run** | **Default** | **Description** |\n|---|---|---|\n"
        "| ACCESS_LOG | True | Log each request |\n"
    )
    assert _entries(page) == []


def test_a_default_stated_by_default_in_prose_and_no_conditional_one() -> None:
    page = (
        "# Options\n\n"
        "## `alpha`\n\nTurns alpha on. This is set to `False` by default.\n\n"
        "## `beta`\n\nThe level. Defaults to `3` on Windows.\n\n"  # conditional
        "## `gamma`\n\nThe mode. It is `fast` by default when run in a terminal.\n\n"
        "## `delta`\n\nEnables `zstd` by default.\n\n"  # no verb before the value
        "## `epsilon`\n\nThe width. Defaults to `80`.\n\n"
        "## `zeta`\n\nDefaults to `a`, or when OIDC is on the default is `b`.\n\n"
    )
    assert _entries(page) == [
        ("alpha", "`False`", None),
        ("beta", None, None),
        ("gamma", None, None),
        ("delta", None, None),
        ("epsilon", "`80`", None),
        ("zeta", None, None),  # two defaults, each in its own case
    ]


def test_a_value_a_list_of_choices_marks_as_the_default_is_the_default() -> None:
    page = (
        "# Options\n\n"
        "- **type**: What the input must be. Options are: `bool`, `str`,\n"
        "  `yaml` (default).\n\n"
        "- **mode**: How it runs. One of `fast`, `safe` (the default), `off`.\n\n"
        "- **shell**: What runs it. One of `bash` (default on Linux), `cmd`.\n\n"
        "- **level**: How loud. `low` (default) or `high` (default when verbose).\n\n"
        "- **format**: How it is written. Either json (default) or yaml.\n"  # no code span
    )
    assert [(name, default) for name, default, _ in _entries(page)] == [
        ("type", "`yaml`"),
        ("mode", "`safe`"),
        ("shell", None),
        ("level", None),
        ("format", None),
    ]


def test_a_field_list_under_a_heading_names_its_key_and_default() -> None:
    page = (
        "# Virtual environments\n\n"
        "## Python sources\n\n"
        "**Config File Name:** `python-sources`\n\n"
        "**CLI Flags:**\n\n- `--python-sources`\n\n"
        "**Default:** `['external', 'internal']`\n\n"
        "## Installer\n\n"
        "**Option:** `installer`\n\n"
        "What installs packages.\n\n"
        "## Packaging\n\n"
        "**Package name:** `virtualenv`\n\n"  # names a package, not a key
        "**Command line:** `--system`\n\n"  # a command's flag in prose
        "**Default:** `false`\n\n"
    )
    assert _entries(page) == [
        ("python-sources", "`['external', 'internal']`", None),
        ("--python-sources", "`['external', 'internal']`", None),
        ("installer", None, None),
    ]
    forms = [e.form for e in extract_markdown(page.encode()).entries]
    assert forms == ["field", "list", "field"]


def test_a_field_lists_default_is_compared_with_the_code(tmp_path) -> None:
    from helpers import mounted_config

    files = mounted_config("retries: int = 3", "timeout: int = 0")
    files["docs/config.md"] = (
        "# Configuration\n\n"
        "## Retries\n\n**Config key:** `retries`\n\n**Default:** `7`\n\n"
        "## Timeout\n\n**Config key:** `timeout`\n\n**Default:** `0`\n"
    )
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    found = by_key(findings)
    assert ("CD104", "retries") in found
    assert ("CD104", "timeout") not in found and ("CD103", "timeout") not in found


def test_a_list_item_naming_a_key_in_prose_documents_it_only_where_it_is_a_key(
    tmp_path,
) -> None:
    from helpers import mounted_config

    page = (
        "# Configuration\n\n"
        "- `retry_count` sets how often a call is retried.\n"
        "- `max_wait` is how long to wait, in seconds.\n"
        "- `backoff_factor` grows the wait between calls.\n"
        "- `os.environ` is read at startup.\n"  # no key: never a finding
        "- `max_tries` is what older releases called it.\n"  # no key either
        "- `pip install` installs the package.\n"  # a command, no mention
    )
    forms = [(e.name, e.form) for e in extract_markdown(page.encode()).entries]
    assert forms == [
        ("retry_count", "mention"),
        ("max_wait", "mention"),
        ("backoff_factor", "mention"),
        ("os.environ", "mention"),
        ("max_tries", "mention"),
    ]
    files = mounted_config(
        "retry_count: int = 3", "max_wait: int = 5", "backoff_factor: int = 2", "timeout: int = 1"
    )
    files["docs/config.md"] = page
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    # The three keys are documented; the other names are no claims.
    assert {(f.code, f.key) for f in findings} == {("CD103", "timeout")}


def test_a_heading_wrapped_whole_in_emphasis_is_a_key() -> None:
    page = (
        "# Options\n\n"
        "### **auto_cast**\n\nCast.\n\n"
        "### *core_loaders*\n\nLoaders.\n\n"
        "### **Note** on max_size\n\nOnly part of it is bold: not a key.\n\n"
        "### **Usage**\n\nA word, capitalised: not a key.\n"
    )
    assert [e.name for e in extract_markdown(page.encode()).entries] == [
        "auto_cast",
        "core_loaders",
    ]


def test_two_labels_on_one_line_each_give_their_value() -> None:
    page = (
        "# Options\n\n"
        "### `auto_cast`\n\n> type=`bool`, default=`False`\n\nCast.\n\n"
        "### `retries`\n\nDefault: `3`, or `5` on slow links\n"
    )
    assert _entries(page) == [
        ("auto_cast", "`False`", "`bool`"),
        # One label: its value runs to the end of the line.
        ("retries", "`3`, or `5` on slow links", None),
    ]


def test_a_default_label_may_name_what_it_is_the_default_of() -> None:
    page = (
        "# Options\n\n### `include`\n\nWhat to include.\n\nDefault Inclusions: `['.pyi']`\n\n"
        "### `exclude`\n\nWhat to leave out.\n\nDefault exclusions and more: `x`\n"
    )
    # A label of two words or more past "Default" is prose.
    assert _entries(page) == [("include", "`['.pyi']`", None), ("exclude", None, None)]


def test_a_naming_label_later_in_a_field_paragraph_names_the_key() -> None:
    # isort's generated options page: type and default first, then the key
    # bare after a label of naming words.
    page = (
        "# Options\n\n## Virtual Env\n\nThe environment to use.\n\n"
        "**Type:** String  \n**Default:** `venv`  \n**Config default:** `x`  \n"
        "**Python & Config File Name:** virtual_env  \n**CLI Flags:**\n\n- --virtual-env\n\n"
        "## Notes\n\n**Type:** String  \n**Written by:** Somebody Else\n\n"
        "## Shown\n\n**Type:** String  \n**Config File Name:** Not A Key\n"
    )
    entries = [
        (e.name, e.line, e.default, e.doc_type, e.form)
        for e in extract_markdown(page.encode()).entries
    ]
    assert ("virtual_env", 10, "`venv`", "String", "field") in entries
    assert not any(name in ("Somebody Else", "Not A Key", "Not") for name, *_ in entries)


def test_a_hyphenated_key_beside_its_underscored_field_is_that_field(tmp_path) -> None:
    # ``heading-offset`` is how a directive's option spells ``heading_offset``.
    from helpers import mounted_config

    files = mounted_config("heading_offset: int = 0", "title: str = 'x'", "depth: int = 2")
    files["docs/config.md"] = (
        "# Configuration\n\n- `heading-offset`: shift the headings.\n"
        "- `title`: the title.\n- `depth`: how deep.\n- `max-width`: the width.\n"
    )
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    found = by_key(findings)
    assert ("CD101", "heading-offset") not in found
    # A hyphenated key with no underscored field beside it is still rejected.
    assert ("CD101", "max-width") in found


def test_a_default_rewritten_after_init_is_not_compared(tmp_path) -> None:
    from helpers import mounted_config

    files = mounted_config(
        "version: str = '3'",
        "width: int = 80",
        "def model_post_init(self, context):",
        "    object.__setattr__(self, 'version', 'py' + self.version)",
    )
    files["docs/config.md"] = (
        "# Configuration\n\n## Version\n\n**Config key:** `version`\n\n**Default:** `py3`\n\n"
        "## Width\n\n**Config key:** `width`\n\n**Default:** `79`\n"
    )
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    found = by_key(findings)
    # A page made from an instance shows what the hook made of the default.
    assert ("CD104", "version") not in found
    assert ("CD104", "width") in found


def test_a_bare_number_or_truth_value_that_ends_its_clause_is_a_prose_default() -> None:
    page = (
        "# Options\n\n"
        "* `--num-workers <n>`: defaults to 2.\n"
        "* `--burst`: defaults to true, which stops when the queue is empty.\n"
        "* `--pool`: defaults to 2 workers per CPU.\n"
        "* `--limit`: defaults to 2.5GB.\n"
        "* `--path`: defaults to the current folder.\n"
    )
    assert _entries(page) == [
        ("--num-workers", "2", None),
        ("--burst", "true", None),
        ("--pool", None, None),
        ("--limit", None, None),
        ("--path", None, None),
    ]


def test_a_default_value_column_gives_defaults() -> None:
    page = (
        "# Options\n\n| Key | Default value |\n| --- | --- |\n| `port` | `80` |\n| `host` | `x` |\n"
    )
    assert _entries(page) == [("port", "`80`", None), ("host", "`x`", None)]


def test_a_block_after_default_alone_is_the_default() -> None:
    page = (
        "# Settings\n\n## `middlewares`\n\n**Type:** dict\n\n**Default:**\n\n"
        '```python\n{"a.B": 1, "c.D": 2}\n```\n\n'
        "## `other`\n\n**Type:** dict\n\nDefault:\n\nSome prose, not a block.\n\n"
        '```python\n{"x": 1}\n```\n'
    )
    defaults = {e.name: e.default for e in extract_markdown(page.encode()).entries}
    assert defaults["middlewares"] == '{"a.B": 1, "c.D": 2}'
    # Prose between the label and the block: the block is an example.
    assert defaults["other"] is None


def test_a_code_span_titled_as_the_default_value_gives_the_default() -> None:
    # Material for MkDocs' option pages: the type, an ``equal`` icon, then
    # the default in code titled by an attribute list.
    page = (
        "# Options\n\n## `preload_modules`\n\n"
        '- **Type <code>list[str] | None</code> :material-equal: `None`{ title="default value" }**\n\n'
        "Modules to load first.\n\n## `show_source`\n\n"
        '- **Type <code>bool</code> :material-equal: `True`{ title="the type" }**\n\n'
        "Show the source.\n"
    )
    entries = {e.name: e.default for e in extract_markdown(page.encode()).entries}
    assert entries["preload_modules"] == "None"
    # Code titled otherwise is no default.
    assert entries["show_source"] is None


def test_a_heading_that_names_two_keys_documents_each(tmp_path) -> None:
    """``### `build`, `skip` {: #build-skip }``: ``skip`` is ``build``'s
    sibling, documented, not a second spelling of ``build``."""
    code = (
        "DEFAULT_CONFIG = {\n    'build': '*',\n    'skip': '',\n    'archs': 'auto',\n"
        "    'test-command': '',\n    'environment': {},\n}\n"
    )
    page = (
        "# Options\n\n## `build`, `skip` {: #build-skip }\n\nWhat to build.\n\n"
        "## `archs`\n\nThe architectures.\n\n## `test-command`\n\nThe tests.\n\n"
        "## `environment`\n\nThe variables.\n"
    )
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": code, "docs/options.md": page}, "pkg"
    )
    (table,) = [s for s in analysis.everything if s.surface == "DEFAULT_CONFIG"]
    paths = {e.name: e.path for e in table.entries}
    assert paths["skip"] == ("skip",) and paths["build"] == ("build",)
    assert ("CD103", "skip") not in by_key(findings)


_TABLE = (
    "DEFAULT_CONFIG = {\n    'build': '*',\n    'skip': '',\n    'archs': 'auto',\n"
    "    'test-command': '',\n    'environment': {},\n}\n"
)
_OPTIONS = (
    "# Options\n\n## `build`\n\nWhat to build.\n\n## `skip`\n\nWhat not to.\n\n"
    "## `archs`\n\nThe architectures.\n\n## `test-command`\n\nThe tests.\n\n"
    "## `environment`\n\nThe variables.\n\n## Example\n\n```toml\nTABLE\n```\n"
)


def _ignored(tmp_path, table: str) -> set[str]:
    page = _OPTIONS.replace("TABLE", table)
    _, findings = check_project(tmp_path, {"pkg/config.py": _TABLE, "docs/options.md": page}, "pkg")
    return {k for c, k in by_key(findings) if c == "CD302"}


def test_a_pyproject_block_holds_the_configuration_in_its_tools_table(tmp_path) -> None:
    table = '[tool.shop]\nbuild = "*"\narchs = "auto"\ntest-command = ""\nbogus = 1'
    assert _ignored(tmp_path, table) == {"bogus"}


def test_a_pyproject_block_of_two_tools_or_one_key_is_not_placed(tmp_path) -> None:
    two = '[tool.shop]\nbuild = "*"\narchs = "auto"\ntest-command = ""\n\n[tool.other]\nbogus = 1'
    assert _ignored(tmp_path / "two", two) == set()
    one = '[tool.shop]\nbuild = "*"\nbogus = 1'
    assert _ignored(tmp_path / "one", one) == set()


def test_a_bold_key_with_its_type_in_parentheses_is_an_entry() -> None:
    """Hugging Face's docstring form: ``- **num_fewshot** (`int`,
    *optional*, defaults to 0) — ...``; a bold word followed by prose is
    none."""
    page = (
        "# Task\n\n"
        "- **num_fewshot** (`int`, *optional*, defaults to 0) — examples before the input.\n"
        "- **output_type** (`str`, *optional*, defaults to `generate_until`) — what it outputs.\n"
        "- **Note** (see below) the rest is prose.\n"
    )
    assert _entries(page) == [
        ("num_fewshot", "0", "int"),
        ("output_type", "`generate_until`", "str"),
    ]


def test_a_nested_key_written_as_an_annotation_gives_its_type_and_default() -> None:
    page = (
        "# Groups\n\n- **aggregate** (`list`) - what to aggregate:\n"
        "  - `weight_by_size: bool = True` - weigh by size.\n"
        '  - `filter_list: Union[str, List[str]] = "none"` - the filters.\n'
        "  - `metric: str` - the metric.\n"
        "  - `cached: true` - a value, no type.\n"
    )
    assert _entries(page) == [
        ("aggregate", None, "list"),
        ("weight_by_size", "`True`", "bool"),
        # A type with commas inside its brackets is one type.
        ("filter_list", '`"none"`', "Union[str, List[str]]"),
        ("metric", None, "str"),
        ("cached", None, None),
    ]


_MODELS = """
from dataclasses import dataclass


@dataclass
class Metric:
    metric: str = "acc"
    weight_by_size: bool = True


@dataclass
class TaskConfig:
    task: str = ""
    dataset_path: str = ""
    num_fewshot: int = 0
    metadata: dict = None


@dataclass
class GroupConfig:
    group: str = ""
    group_alias: str = ""
    task: list = None
    aggregate_metric_list: list[Metric] = None
    metadata: dict = None


def task(raw: dict) -> TaskConfig:
    return TaskConfig(**raw)


def group(raw: dict) -> GroupConfig:
    return GroupConfig(**raw)
"""

_GUIDE = """# Configuration

## Task configuration

Tasks are configured with the `TaskConfig` object.

### Parameters

- **task** (`str`) — the task.
- **dataset_path** (`str`) — the dataset.
- **num_fewshot** (`int`) — the examples.
- **batch_size** (`int`) — the batch.

## Group configuration

Groups are configured with the `GroupConfig` object.

### Parameters

- **group** (`str`) — the group.
- **group_alias** (`str`) — its alias.
- **task** (`list`) — its tasks.
- **aggregate_metric_list** (`list`) — the metrics, each with:
  - `metric: str` - the metric.
  - `weight_by_size: bool = True` - weigh by size.
"""


def test_a_page_that_names_a_model_and_documents_its_keys_documents_it(tmp_path) -> None:
    """A model built from a whole dict is a configuration where a page
    names it (`GroupConfig`) and documents its keys, whatever the page's
    path; the keys of a typed list nested in an entry's item are that
    key's (``aggregate_metric_list[].metric``)."""
    analysis, findings = check_project(
        tmp_path, {"pkg/config.py": _MODELS, "docs/guide.md": _GUIDE}, "pkg"
    )
    models = {s.schema.model for s in analysis.everything}
    assert {"TaskConfig", "GroupConfig"} <= models
    found = by_key(findings)
    assert {k for c, k in found if c == "CD101"} == {"batch_size"}
    # The nested keys are documented; ``metadata`` is not.
    assert {k for c, k in found if c == "CD103"} == {"metadata"}
    # Unnamed, the model is not taken for one by a page of no reference's path.
    unnamed = _GUIDE.replace("with the `GroupConfig` object", "with another object")
    analysis, _ = check_project(
        tmp_path / "unnamed", {"pkg/config.py": _MODELS, "docs/guide.md": unnamed}, "pkg"
    )
    assert "GroupConfig" not in {s.schema.model for s in analysis.everything}


def test_a_key_annotated_in_code_is_an_entry_only_nested_in_anothers_item() -> None:
    """``metric: str`` under an entry's item names a key of it with its
    type (``cache: true`` a key with a value, no type); at the top of a
    list, whose keys it names is not known."""
    page = (
        "# Options\n\n"
        "- `environment: dict` - variables of the service.\n"
        "- `aggregate` (list): the metrics, each with:\n"
        "  - `metric: str` - the metric.\n"
        "  - `cache: true` - keep them.\n"
    )
    facts = extract_markdown(page.encode())
    found = [(e.name, e.doc_type, e.parent_entry) for e in facts.entries]
    assert found == [("aggregate", "list", None), ("metric", "str", 0), ("cache", None, 0)]


def test_a_table_with_no_default_column_states_defaults_in_its_prose() -> None:
    page = (
        "# Environment\n\n| Variable | Description |\n|---|---|\n"
        "| `APP_CACHE` | Where the cache lives (default: `.cache`). |\n"
        "| `APP_LEVEL` | The level. Defaults to `3` on Windows. |\n"
        "| `APP_PLAIN` | No default stated. |\n\n"
        "| Key | Default | Description |\n|---|---|---|\n"
        "| `workers` | `4` | How many (default: `8` in the old release). |\n\n"
        "| Key | Description | Notes |\n|---|---|---|\n"
        "| `mode` | The mode (default: `fast`). | Was (default: `slow`). |\n"
    )
    defaults = {e.name: e.default for e in extract_markdown(page.encode()).entries}
    # A Default column wins over the prose; a default that holds only
    # sometimes is none.
    assert defaults == {
        "APP_CACHE": "`.cache`",
        "APP_LEVEL": None,
        "APP_PLAIN": None,
        "workers": "`4`",
        # Two cells that state one each: which holds is not said.
        "mode": None,
    }


def test_a_parenthesis_that_states_the_default_alone_gives_it() -> None:
    page = (
        "# Options\n\n"
        "* `--workers` - Number of worker processes (default: 2).\n"
        "* `--log-level` - The log level (default `INFO`).\n"
        "* `--burst` - Stop when the queue is empty (default: true)\n"
        # Not the default alone: two values, or a number of something.
        "* `--mode` - How to run (default `a` or `b`).\n"
        "* `--pool` - Workers to start (default: 2 per CPU).\n"
        "* `--limit` - Memory per worker (default: 2.5GB).\n"
    )
    assert _entries(page) == [
        ("--workers", "2", None),
        ("--log-level", "`INFO`", None),
        ("--burst", "true", None),
        ("--mode", None, None),
        ("--pool", None, None),
        ("--limit", None, None),
    ]


def test_a_flag_an_item_opens_with_before_prose_is_a_mention_with_its_default() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        "# Options\n\n"
        "* `--no-color` - disables colors.\n"
        "* `-v` is used to talk more (default `0`).\n"
        "* `--log-level` is used to set a log level (default `INFO`).\n"
    )
    found = [(e.name, e.form, e.default) for e in extract_markdown(page.encode()).entries]
    # The item's default is its own flag's, never the entry's before it;
    # a short flag is no mention (too short to tell from prose).
    assert found == [("--no-color", "list", None), ("--log-level", "mention", "`INFO`")]


def test_a_table_row_of_an_options_spellings_is_its_long_one() -> None:
    page = (
        "# Options\n\n| Option | Default |\n| --- | --- |\n"
        "| `--jobs`, `-j` | `2` |\n"
        "| `-q` / `--quiet` | |\n"
        "| `-v`, `-d` | |\n"
        # Not an option's spellings: prose after them, or other keys.
        "| `--depth`, `-d` or more | |\n"
        "| `name`, `other` | |\n"
        "| `Not a key` | |\n"
    )
    assert _entries(page) == [("--jobs", "`2`", None), ("--quiet", None, None), ("-v", None, None)]


def test_a_heading_of_an_ini_section_in_code_names_it() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = "# Settings\n\n## `[database]`\n\n## [server]\n\n## `[not a section]`\n"
    sections = extract_markdown(page.encode()).sections
    assert [s.heading_key for s in sections[2:]] == ["database", "server", None]


def test_a_lead_in_after_the_key_on_its_own_line_gives_type_and_default() -> None:
    page = (
        "# Options\n\n"
        "- **server.port** (int, default `8080`): the port.\n"
        "- **server.host** (str): the address.\n\n"
        "# Notes\n\n"
        "- **workers**: how many.\n\n"
        # Another paragraph under the entry: no lead-in of the entry's key.
        "  Retries (int, default `3`): how often.\n"
    )
    assert _entries(page) == [
        ("server.port", "`8080`", "int"),
        ("server.host", None, "str"),
        ("workers", None, None),
    ]


def test_definition_lists_give_defaults_and_types() -> None:
    # ``default`` then ``: value``: a definition list, plain or indented under
    # a container CommonMark does not know (``::: field-list``), which it
    # reads as code.
    page = (
        "# Settings\n\n"
        "## commit\n\n::: field-list\n\n    required\n    : No\n\n"
        "    default\n    : `True`\n\n    type\n    : boolean\n\nWhether to commit.\n\n"
        "## tag\n\ndefault\n: `False`\n\ntype\n: boolean\n\nWhether to tag.\n\n"
        "## message\n\nSee below.\n\n    default\n    x = 1\n"
    )
    facts = extract_markdown(page.encode())
    keys = [(e.name, e.default, e.doc_type) for e in facts.entries if e.form != "word"]
    # ``message``'s block is code: its heading stays a word, with no labels.
    assert keys == [("commit", "`True`", "boolean"), ("tag", "`False`", "boolean")]


def test_a_code_block_that_is_no_definition_list_gives_no_labels() -> None:
    from configdrift.extract.docs.label_values import definition_labels

    assert definition_labels("default\n: `1`\ntype\n: int\n") == [
        ("default", "`1`"),
        ("type", "int"),
    ]
    assert definition_labels("default\n: `1`\nprint(x)\n") == []  # an odd line
    assert definition_labels("default: 1\n: `2`\n") == []  # a term with a colon
    assert definition_labels("default\nnot a definition\n") == []
    assert definition_labels("default\n") == []


def test_a_myst_fence_of_an_object_directive_for_settings_is_an_entry() -> None:
    page = (
        "# Options\n\n"
        "```{confval} timeout\n:type: int\n:default: 5\n\nHow long.\n```\n\n"
        # Options open the body: a field after its prose is the prose's.
        "```{envvar} APP_CACHE_DIR\nWhere the cache lives.\n:default: none here\n```\n\n"
        "```{themeconf} site_url\nWhere the site lives.\n```\n\n"
        "```{note} retries\nA note's title is no key.\n```\n\n"
        "```{code-block} python\nx = 1\n```\n"
    )
    assert _entries(page) == [
        ("timeout", "5", "int"),
        ("APP_CACHE_DIR", None, None),
        ("site_url", None, None),
    ]


def test_object_directives_in_embedded_rst_are_entries_of_their_section() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        "# Options\n\n## build\n\n"
        "```{eval-rst}\n.. confval:: build.verbose\n\n  :Type: ``bool``\n  :Default: false\n\n"
        "  Talk more.\n```\n\n"
        "```{eval-rst}\n.. note::\n\n  A note names no key.\n```\n\n"
        # Only the object directives' keys: a list beside them is prose's.
        "```{eval-rst}\n.. confval:: build.jobs\n\n  How many.\n\n``retries``\n   Retries.\n```\n"
    )
    facts = extract_markdown(page.encode())
    # (the heading names a key too: a word entry)
    assert [(e.name, e.line, e.section, e.doc_type, e.default) for e in facts.entries] == [
        ("build", 3, 2, None, None),
        ("build.verbose", 6, 2, "bool", "false"),
        ("build.jobs", 21, 2, None, None),
    ]
    assert facts.sections[2].title == "build"


def test_a_default_ends_its_sentence_with_a_period_but_an_ellipsis_is_its_own() -> None:
    from configdrift.extract.docs.label_values import definition_labels
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    rst = (
        ".. confval:: tooltip_content\n\n   Default: ``Loading...``\n\n"
        ".. confval:: retries\n\n   Default: 5.\n\n"
        ".. confval:: motto\n\n   The default is ``Wait...``.\n\n"
        ".. confval:: modal\n\n   Default: ``a.b.``\n"
    )
    assert [(e.name, e.default) for e in extract_rst(rst.encode()).entries] == [
        ("tooltip_content", "Loading..."),
        ("retries", "5"),
        ("motto", "Wait..."),
        ("modal", "a.b"),
    ]
    md = "# Options\n\n## `tooltip_content`\n\nDefault: Loading...\n\n## `retries`\n\nDefault: 5.\n"
    assert [(e.name, e.default) for e in extract_markdown(md.encode()).entries] == [
        ("tooltip_content", "Loading..."),
        ("retries", "5"),
    ]
    assert definition_labels("default\n: Loading...\ntype\n: str.\n") == [
        ("default", "Loading..."),
        ("type", "str"),
    ]


def test_a_heading_that_names_a_script_library_or_a_file_is_no_key() -> None:
    page = (
        "# Options\n\n## Chart.js\n\nPassed to the charts.\n\n"
        "## settings.toml\n\nThe file.\n\n## site.url\n\nThe address.\n"
    )
    facts = extract_markdown(page.encode())
    assert [s.heading_key for s in facts.sections][-4:] == [None, None, None, "site.url"]
    assert [e.name for e in facts.entries] == ["site.url"]


def test_a_default_under_a_subheading_of_a_key_s_heading_is_the_key_s() -> None:
    page = (
        "# Options\n\n"
        "### `abstract_chars_count`: item length { #abstract_chars_count }\n\n"
        "How many characters.\n\n"
        "#### Override per page\n\n"
        "```markdown\n---\ndescription: x\n---\n```\n\n"
        "Default: `150`\n\n"
        # A subheading that names a key of its own keeps its default.
        "### `cache_dir`\n\nWhere.\n\n#### `cache_ttl`\n\nDefault: `60`\n\n"
        # One whose section above holds more entries than its heading's
        # tells of none of them.
        "### `feeds`\n\n- `rss`: the RSS feed.\n\n#### Naming\n\nDefault: `feed.xml`\n\n"
        # Nor one two levels below the key's heading.
        "### `ttl`\n\nHow long.\n\n#### Caching\n\n##### Details\n\nDefault: `5`\n\n"
    )
    assert _entries(page) == [
        ("abstract_chars_count", "`150`", None),
        ("cache_dir", None, None),
        ("cache_ttl", "`60`", None),
        ("feeds", None, None),
        ("rss", None, None),
        ("ttl", None, None),
    ]
    # As the page is read, a section's entry is its heading's, or the one
    # of the heading right above a section with no entry of its own.
    from configdrift.extract.docs.facts import DocFacts, RawEntry, Section

    sections = [Section("", 0, 1, None), Section("`ttl`", 3, 1, 0, "ttl")]
    sections += [Section("Caching", 4, 3, 1), Section("Details", 5, 5, 2)]
    facts = DocFacts(sections=sections, entries=[RawEntry("ttl", ("ttl",), 1, 1, "heading")])
    assert [facts.heading_entry(section) for section in (1, 2, 3)] == [0, 0, None]
    facts.entries.append(RawEntry("rss", ("rss",), 2, 1, "list"))
    assert facts.heading_entry(2) is None


def test_a_key_heading_may_carry_a_note_in_brackets() -> None:
    facts = extract_markdown(
        b"# Hooks\n\n### allow_shell_hooks (compatibility opt-in)\n\nText.\n\n"
        b"### Usage (advanced)\n\n### retries (optional)\n\n"
        b"### max_retries (optional) and more\n\n### log_level (see (below))\n"
    )
    # A word that may be a key, a capitalised word, more words after the
    # note, or a note in notes: no entry.
    assert [(e.name, e.form) for e in facts.entries] == [("allow_shell_hooks", "heading")]


def test_key_headings_with_notes_count_for_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_document

    page = b"# Hooks\n\n### allow_shell_hooks (opt-in)\n\nx\n\n### max_retries (optional)\n\n"
    page += b"y\n\n### log.level (deprecated)\n"
    assert may_document(page, 3)
    assert not may_document(page.replace(b" (", b" ["), 3)
