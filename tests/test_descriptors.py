"""Config classes whose options are objects assigned as class attributes:
MkDocs' config classes (and the old ``config_scheme``) and traitlets'
configurable classes, each a surface of its own."""

from __future__ import annotations

from helpers import by_key, check_project

_TRAITS = """
from traitlets import Bool, Integer, Unicode
from traitlets.config import Configurable


class ServerApp(Configurable):
    port = Integer(8888, config=True, help="the port")
    ip = Unicode("localhost").tag(config=True)
    open_browser = Bool(True).tag(config=True)
    quiet = Bool(False).tag(config=True)
    internal = Bool(False)

    def start(self):
        print(self.port, self.ip, self.open_browser, self.internal, self.observe)
"""
_TRAITS_DOC = """
# Server options

| Option | Default | Description |
| --- | --- | --- |
| `ServerApp.port` | `8888` | The port. |
| `ServerApp.ip` | `anyhost` | The address. |
| `ServerApp.open_browser` | `true` | Open a browser. |
| `ServerApp.token` | `""` | Not a trait of ServerApp. |
| `ServerApp.internal` | `false` | Not configurable. |
"""


def test_traitlets_classes_are_a_surface_keyed_by_class(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"app/server.py": _TRAITS, "docs/options.md": _TRAITS_DOC}, "app"
    )
    surface = next(s for s in analysis.everything if s.surface == "traitlets")
    server = surface.schema.children["ServerApp"]
    assert set(server.children) == {"port", "ip", "open_browser", "quiet"}
    assert server.children["port"].default.value == 8888
    assert server.children["ip"].type.kinds == frozenset({"str"})
    found = by_key(findings)
    assert ("CD104", "ServerApp.ip") in found
    # traitlets warns about an unknown option and goes on: lenient.
    assert ("CD102", "ServerApp.token") in found
    assert ("CD102", "ServerApp.internal") in found
    assert ("CD103", "ServerApp.quiet") in found
    assert ("CD202", "ServerApp.quiet") in found
    assert ("CD103", "ServerApp") not in found  # a class is a namespace, not an option
    # ``observe`` is traitlets' API, not a missing trait.
    assert not any(code == "CD201" for code, _ in found)


def test_a_class_of_untagged_traits_is_no_configuration(tmp_path) -> None:
    code = _TRAITS.replace(", config=True", "").replace(".tag(config=True)", "")
    analysis, findings = check_project(
        tmp_path, {"app/server.py": code, "docs/options.md": _TRAITS_DOC}, "app"
    )
    assert all(s.surface != "traitlets" for s in analysis.everything)
    assert not any(f.key.startswith("ServerApp") for f in findings)


def test_tag_keywords_join_the_trait_call() -> None:
    from configdrift.extract.python.extractor import extract_python

    facts = extract_python(b"class A:\n    x = Unicode('a', help='h').tag(config=True)\n")
    call = facts.classes[0].assigns["x"]
    assert call[1] == ["n", "Unicode"] and call[3]["config"] == ["c", True]
    plain = extract_python(b"class A:\n    x = obj.tag(config=True)\n").classes[0].assigns["x"]
    assert plain[1] == ["n", "obj.tag"]


def test_mkdocs_options_have_types_choices_defaults_and_deprecations(tmp_path) -> None:
    code = """
    from mkdocs.config import config_options as c
    from mkdocs.config.base import Config


    class PluginConfig(Config):
        enabled = c.Type(bool, default=True)
        mode = c.Choice(("a", "b"), default="a")
        lang = c.Optional(c.Type(str))
        paths = c.ListOfItems(c.Type(str), default=[])
        old = c.Deprecated(moved_to="mode")
        _secret = c.Private()
        validation = c.SubConfig[Validation]()
    """
    doc = "# Plugin\n\n#### `enabled`\n\n#### `mode`\n\n#### `lang`\n\n#### `paths`\n"
    analysis, _ = check_project(tmp_path, {"app/config.py": code, "docs/p.md": doc}, "app")
    node = next(s for s in analysis.everything if s.surface == "PluginConfig").schema
    assert node.strict is True and node.model_kind == "mkdocs"
    assert node.children["enabled"].default.value is True
    assert node.children["mode"].type.choices == ("a", "b")
    assert node.children["lang"].default.value is None
    assert node.children["paths"].type.kinds == frozenset({"list"})
    assert node.children["old"].deprecated and node.children["old"].replacement == "mode"
    assert "_secret" not in node.children
    # An option type given its type argument (``c.SubConfig[Validation]()``).
    assert "validation" in node.children


def test_a_plugin_s_annotated_config_scheme_declares_its_options(tmp_path) -> None:
    code = """
    from typing import Tuple

    from mkdocs.config import config_options
    from mkdocs.plugins import BasePlugin


    class StampPlugin(BasePlugin):
        config_scheme: Tuple = (
            ("format", config_options.Type(str, default="%Y-%m-%d")),
            ("timezone", config_options.Type(str, default="UTC")),
            ("locale", config_options.Type(str, default="en")),
        )

        def on_page_markdown(self, markdown, page, config, files):
            return self.config["format"] + self.config["timezone"] + self.config["locale"]
    """
    doc = "# Stamp\n\n- `format`: how. Default: `%d`.\n- `timezone`: where.\n- `locale`: what.\n"
    analysis, findings = check_project(tmp_path, {"app/plugin.py": code, "docs/p.md": doc}, "app")
    node = next(s for s in analysis.everything if s.surface == "StampPlugin").schema
    assert set(node.children) == {"format", "timezone", "locale"}
    assert node.children["timezone"].default.value == "UTC"
    assert node.children["format"].location.line == 9  # the scheme's line
    assert ("CD104", "format") in {(f.code, f.key) for f in findings}


#: MkDocs's own repository: its configuration classes and option types are
#: the project's, not another package's.
_SELF_HOSTED = {
    "mkdocs/config/__init__.py": "",
    "mkdocs/config/base.py": "class BaseConfigOption:\n    pass\n\n\nclass Config:\n    pass\n",
    "mkdocs/config/config_options.py": (
        "from mkdocs.config.base import BaseConfigOption\n\n\n"
        "class Type(BaseConfigOption):\n    def __init__(self, kind, default=None):\n"
        "        self.kind = kind\n"
    ),
    "mkdocs/config/defaults.py": (
        "from mkdocs.config import base\nfrom mkdocs.config import config_options as c\n\n\n"
        "class MkDocsConfig(base.Config):\n"
        "    site_name = c.Type(str)\n    site_url = c.Type(str)\n"
        "    repo_url = c.Type(str)\n    edit_uri = c.Type(str)\n"
    ),
}
_SELF_HOSTED_DOC = "# Configuration\n\n### site_name\n\n### site_url\n\n### repo_url\n\n### edit_uri\n\n### site_author\n"


def test_a_librarys_own_config_classes_are_its_configuration(tmp_path) -> None:
    files = {**_SELF_HOSTED, "docs/configuration.md": _SELF_HOSTED_DOC}
    analysis, findings = check_project(tmp_path, files, "mkdocs")
    node = next(s for s in analysis.everything if s.surface == "MkDocsConfig").schema
    assert set(node.children) == {"site_name", "site_url", "repo_url", "edit_uri"}
    assert node.children["site_name"].type.kinds == frozenset({"str"})
    assert ("CD101", "site_author") in by_key(findings)


def test_a_config_class_a_typeddict_holds_is_a_surface_of_its_own(tmp_path) -> None:
    """A template's context (a TypedDict) that holds the config class as
    ``config`` does not take the configuration's keys under ``config``."""
    context = (
        "from typing import TypedDict\n\nfrom mkdocs.config.defaults import MkDocsConfig\n\n\n"
        "class TemplateContext(TypedDict):\n    config: MkDocsConfig\n    page_title: str\n"
        "    nav: list\n\n\n"
        "def render(context: TemplateContext) -> str:\n"
        "    config = context['config']\n"
        "    return f\"{context['page_title']} {context['nav']} {config['site_name']}\"\n"
    )
    files = {
        **_SELF_HOSTED,
        "mkdocs/templates.py": context,
        "docs/configuration.md": _SELF_HOSTED_DOC,
    }
    analysis, findings = check_project(tmp_path, files, "mkdocs")
    assert any(s.surface == "MkDocsConfig" for s in analysis.everything)
    assert ("CD101", "site_author") in by_key(findings)
    assert ("CD101", "config.site_author") not in by_key(findings)


def test_material_setting_macros_are_entries_with_defaults() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        b"# Plugin\n\n#### <!-- md:setting config.cache_dir -->\n\n"
        b"<!-- md:version 9.0 -->\n<!-- md:default `.cache` -->\n\nText.\n\n"
        b"#### <!-- md:setting meta.social.cards -->\n\n<!-- md:default `true` -->\n\n"
        b"#### <!-- md:setting config.size -->\n\nNo default given.\n\n<!-- md:default `3` -->\n"
    )
    entries = [(e.name, e.default) for e in extract_markdown(page).entries]
    # A page's front matter (``meta.``) is not a plugin option; a macro after
    # the prose is still under its heading.
    assert entries == [("cache_dir", "`.cache`"), ("size", "`3`")]


def test_typeddict_and_namedtuple_are_models(tmp_path) -> None:
    code = """
    from typing import NamedTuple, TypedDict

    from pydantic import BaseModel, ConfigDict


    class Retry(TypedDict, total=False):
        attempts: int
        backoff: float


    class Limits(NamedTuple):
        cpu: int = 1
        memory: str = "1G"


    class Job(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str = "job"
        retry: Retry = {}


    def load(d):
        return Job(**d.get("job", {})), Limits(**d.get("limits", {}))
    """
    doc = """
    # Configuration

    ## `job`

    - `name`: the job's name.
    - `retry`: how to retry.

    ## `retry`

    - `attempts`: how often.
    - `backoff`: seconds between attempts.
    - `jitter`: a TypedDict does not reject it for sure.

    ## `limits`

    - `cpu`: cores.
    - `memory`: memory.
    - `disk`: no such field.
    """
    analysis, findings = check_project(tmp_path, {"app/jobs.py": code, "docs/c.md": doc}, "app")
    schema = analysis.schema
    retry = schema.children["job"].children["retry"]
    assert retry.model == "Retry" and retry.strict is None
    assert set(retry.children) == {"attempts", "backoff"}
    limits = schema.children["limits"]
    assert limits.model_kind == "namedtuple" and limits.strict is True
    assert limits.children["memory"].default.value == "1G"
    found = by_key(findings)
    assert ("CD101", "limits.disk") in found
    assert not any(key.endswith("jitter") for _, key in found)


def test_a_table_of_option_calls_is_a_surface(tmp_path) -> None:
    code = """
    class Opt:
        def __init__(self, default, rebuild="", types=()):
            self.default = default


    config_values = {
        "project": Opt("Project", "env"),
        "version": Opt("", "env"),
        "language": Opt("en", "env"),
        "today_fmt": Opt(None, "env"),
        "nitpicky": Opt(False, ""),
    }
    """
    doc = (
        "# Options\n\n| Option | Default |\n| --- | --- |\n| `project` | `Project` |\n"
        "| `version` | `''` |\n| `language` | `de` |\n| `nitpicky` | `false` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"app/config.py": code, "docs/options.md": doc}, "app"
    )
    table = next(s for s in analysis.everything if s.surface == "config_values")
    assert set(table.schema.children) == {"project", "version", "language", "today_fmt", "nitpicky"}
    # Named for a configuration: a key it lacks that nothing reads is set
    # to no effect (none is documented here).
    assert table.schema.strict is False
    found = by_key(findings)
    assert ("CD104", "language") in found
    assert ("CD103", "today_fmt") in found


def test_tables_of_records_and_flags_and_undocumented_ones_are_no_surface(tmp_path) -> None:
    code = """
    WORKERS_CONFIG = {
        "pusher": {"app": "pusher"},
        "reader": {"app": "reader"},
        "writer": {"app": "writer"},
        "sender": {"app": "sender"},
        "media": {"app": "media"},
    }
    CLI_OPTIONS = {
        "verbose": Arg("-v", "--verbose"),
        "config": Arg("-c", "--config"),
        "quiet": Arg("-q", "--quiet"),
        "dry_run": Arg("--dry-run"),
        "user": Arg("--user"),
    }
    DEFAULT_SETTINGS = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}
    """
    doc = (
        "# Reference\n\n- `pusher`: a worker.\n- `reader`: a worker.\n- `writer`: a worker.\n"
        "- `verbose`: talk.\n- `config`: a file.\n- `quiet`: hush.\n- `a`: one.\n- `b`: two.\n"
        "- `c`: three.\n"
    )
    analysis, _ = check_project(tmp_path, {"app/tables.py": code, "docs/ref.md": doc}, "app")
    assert [s.surface for s in analysis.everything if s.surface != "config"] == []


def test_two_tables_of_defaults_with_the_same_keys_are_no_surface(tmp_path) -> None:
    """Which of two tables a doc entry ``buffer_count`` describes cannot be
    told by its name: neither becomes a surface of its own."""
    code = """
    PARAM_DEFAULTS = {"device": "none", "nvme_path": None, "buffer_count": 5, "buffer_size": 1e8, "pin_memory": False}
    OPTIMIZER_DEFAULTS = {"device": "none", "nvme_path": None, "buffer_count": 4, "pin_memory": False, "fast_init": False}
    """
    doc = (
        "# Offloading\n\n## Parameters\n\n- `device` (str): where.\n- `nvme_path` (str): path.\n"
        "- `buffer_count` (int): buffers. Default: `5`.\n- `buffer_size` (int): size.\n\n"
        "## Optimizer\n\n- `device` (str): where.\n- `buffer_count` (int): buffers. Default: `4`.\n"
        "- `pin_memory` (bool): pin.\n- `fast_init` (bool): fast.\n"
    )
    analysis, findings = check_project(tmp_path, {"app/t.py": code, "docs/o.md": doc}, "app")
    assert [s.surface for s in analysis.everything if s.surface != "config"] == []
    assert not [f for f in findings if f.code == "CD104"]


_SMALL = """
DEFAULT_CONFIG = {
    "cache_dir": "~/.cache/app",
    "replay_dir": "~/.replay",
    "default_context": {},
    "abbreviations": {"gh": "https://github.com/{0}.git"},
}
"""
_SMALL_DOC = (
    "# User config\n\n- `cache_dir`: where templates are kept. Default: `~/.app`.\n"
    "- `replay_dir`: where replays go.\n- `default_context`: values to inject.\n"
    "- `abbreviations`: short names of repositories.\n"
)


def test_a_small_table_of_defaults_a_page_documents_whole_is_a_surface(tmp_path) -> None:
    # Four keys, fewer than a table needs alone: every one an entry of the page.
    analysis, findings = check_project(
        tmp_path, {"app/config.py": _SMALL, "docs/user.md": _SMALL_DOC}, "app"
    )
    assert "DEFAULT_CONFIG" in [s.surface for s in analysis.everything]
    assert ("CD104", "cache_dir") in by_key(findings)


def test_a_small_table_a_page_documents_in_part_is_no_surface(tmp_path) -> None:
    doc = _SMALL_DOC.replace("- `abbreviations`: short names of repositories.\n", "")
    analysis, findings = check_project(
        tmp_path, {"app/config.py": _SMALL, "docs/user.md": doc}, "app"
    )
    assert "DEFAULT_CONFIG" not in [s.surface for s in analysis.everything]
    assert ("CD104", "cache_dir") not in by_key(findings)
