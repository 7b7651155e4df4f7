"""Settings read by name from a settings object (Django's
``django.conf.settings``, Scrapy-style getters, a defaults module), and
what is not a config file (an HTTP response's body)."""

from __future__ import annotations

from helpers import by_key, check_project

_APP = """
from django.conf import settings

TIMEOUT = getattr(settings, "SHOP_TIMEOUT", 30)
CURRENCY = getattr(settings, "SHOP_CURRENCY", "EUR")
MODE = getattr(settings, "SHOP_MODE", "live")
LOCALE = getattr(settings, "SHOP_LOCALE", "en")
SIGNED = getattr(settings, "AWS_QUERYSTRING_AUTH", False)
BACKENDS_SETTING = "SHOP_BACKENDS"


def debug():
    return settings.DEBUG


def backends():
    return getattr(settings, BACKENDS_SETTING, {})
"""
_DOC = """
# Settings

| Setting | Default | Description |
| --- | --- | --- |
| `SHOP_TIMEOUT` | `60` | Seconds before a request gives up. |
| `SHOP_CURRENCY` | `EUR` | The currency. |
| `SHOP_LOCALE` | `en` | The language. |
| `SHOP_BACKENDS` | `{}` | Payment backends. |
| `SHOP_COLOR` | `blue` | Nothing reads it. |
"""


def test_django_settings_read_by_name_are_a_surface(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"shop/conf.py": _APP, "docs/settings.md": _DOC}, "shop"
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert set(surface.schema.children) == {
        "SHOP_TIMEOUT",
        "SHOP_CURRENCY",
        "SHOP_MODE",
        "SHOP_LOCALE",
        "AWS_QUERYSTRING_AUTH",
    }
    assert surface.schema.children["SHOP_TIMEOUT"].default.value == 30
    found = by_key(findings)
    assert ("CD104", "SHOP_TIMEOUT") in found
    assert ("CD102", "SHOP_COLOR") in found
    assert ("CD103", "SHOP_MODE") in found
    # Read through a constant that spells it: not "never read".
    assert ("CD102", "SHOP_BACKENDS") not in found
    # Another package's setting, and Django's own: not the app's to document.
    assert ("CD103", "AWS_QUERYSTRING_AUTH") not in found
    assert not any(key == "DEBUG" for _, key in found)


def test_a_setting_read_alone_in_a_module_is_one_of_the_object_s(tmp_path) -> None:
    # The docs describe settings read in conf.py; one read only in
    # another module is the same object's, undocumented.
    app = _APP.replace('MODE = getattr(settings, "SHOP_MODE", "live")\n', "")
    mode = 'from django.conf import settings\n\nMODE = getattr(settings, "SHOP_MODE", "live")\n'
    _, findings = check_project(
        tmp_path,
        {"shop/conf.py": app, "shop/mode.py": mode, "docs/settings.md": _DOC},
        "shop",
    )
    assert ("CD103", "SHOP_MODE") in by_key(findings)


def test_an_attribute_of_some_other_settings_is_no_setting(tmp_path) -> None:
    code = """
    class Holder:
        pass


    settings = Holder()


    def read():
        return settings.SHOP_TIMEOUT, settings.SHOP_CURRENCY, settings.SHOP_MODE
    """
    analysis, findings = check_project(
        tmp_path, {"shop/conf.py": code, "docs/settings.md": _DOC}, "shop"
    )
    assert all(s.surface != "settings object" for s in analysis.everything)
    assert not any(f.key.startswith("SHOP_") for f in findings)


def test_a_defaults_module_declares_the_settings_and_getters_read_them(tmp_path) -> None:
    defaults = """
    BOT_NAME = "bot"
    BOT_DELAY = 0
    BOT_RETRIES = 2
    BOT_AGENT = "agent"
    """
    reader = """
    def start(crawler):
        settings = crawler.settings
        return settings.getint("BOT_DELAY", 0), settings["BOT_NAME"], settings.getbool("BOT_DEBUG")
    """
    doc = (
        "# Settings\n\n### `BOT_NAME`\n\nDefault: `bot`\n\n### `BOT_DELAY`\n\n"
        "### `BOT_RETRIES`\n\n### `BOT_TIMEOUT`\n"
    )
    analysis, findings = check_project(
        tmp_path,
        {
            "bot/settings/__init__.py": "",
            "bot/settings/default_settings.py": defaults,
            "bot/core.py": reader,
            "docs/settings.md": doc,
        },
        "bot",
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert {"BOT_NAME", "BOT_DELAY", "BOT_RETRIES", "BOT_AGENT", "BOT_DEBUG"} <= set(
        surface.schema.children
    )
    assert surface.schema.children["BOT_RETRIES"].default.value == 2
    found = by_key(findings)
    assert ("CD102", "BOT_TIMEOUT") in found
    assert ("CD103", "BOT_AGENT") in found


_LOAD = """
import json
from urllib.request import urlopen


def load(path):
    with open(path) as fh:
        cfg = json.load(fh)
    return cfg.get("name"), cfg.get("size"), cfg.get("depth"), cfg.get("mode"), cfg.get("seed")
"""
_FETCH = """
import json
from urllib.request import urlopen


def fetch(url):
    r = urlopen(url)
    data = json.loads(r.read().decode("utf-8"))
    return data.get("name"), data.get("size"), data.get("depth"), data.get("mode"), data.get("seed")
"""
_KEYS_DOC = "# Config\n\n" + "".join(
    f"- `{k}`: x.\n" for k in ("name", "size", "depth", "mode", "seed")
)


def test_a_response_body_is_data_not_a_config_file(tmp_path) -> None:
    analysis, _ = check_project(
        tmp_path / "file", {"app/io.py": _LOAD, "docs/c.md": _KEYS_DOC}, "app"
    )
    assert set(analysis.schema.children) == {"name", "size", "depth", "mode", "seed"}
    analysis, _ = check_project(
        tmp_path / "net", {"app/io.py": _FETCH, "docs/c.md": _KEYS_DOC}, "app"
    )
    assert not analysis.schema.children


def test_a_block_that_assigns_settings_is_an_example_of_them(tmp_path) -> None:
    block = (
        "\n## Example\n\n```python\n# settings.py\nimport os\n\nSHOP_TIMEOUT = 10\n"
        'SHOP_CURRENCY = "USD"\nSHOP_LOCAL = "fr"\nSHOP_MODE = "test"\n```\n'
    )
    page = _DOC + block
    analysis, findings = check_project(
        tmp_path, {"shop/conf.py": _APP, "docs/settings.md": page}, "shop"
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert len(surface.blocks) == 1
    ignored = [(f.key, f.location.line) for f in findings if f.code == "CD302"]
    line = page.splitlines().index('SHOP_LOCAL = "fr"') + 1
    assert ignored == [("SHOP_LOCAL", line)]


def test_statements_or_lowercase_names_make_no_settings_block() -> None:
    from configdrift.extract.docs.python_config import read_settings_module

    assert read_settings_module("SHOP_TIMEOUT = 10\nSHOP_MODE = 'test'\n") is not None
    for text in (
        "timeout = 10\nmode = 'test'\n",  # a script's variables
        "SHOP_TIMEOUT = 10\nprint(SHOP_TIMEOUT)\n",  # code
        "TIMEOUT = 10\n",  # one assignment of a name in one part
        "REST_FRAMEWORK = {'PAGE_SIZE': 10}\nDEBUG_TOOLBAR = {'X': 1}\n",  # the dicts' reader's
    ):
        assert read_settings_module(text) is None
    # One setting named in parts is a block of its own (``SILKY_META = True``).
    one = read_settings_module("SHOP_TIMEOUT = 10  # seconds\n")
    assert one is not None and [k.path for k in one.keys] == [("SHOP_TIMEOUT",)]
    # A config file names its settings in any case, beside its hooks.
    hooks = "bind = '0.0.0.0:80'\nworkers = 4\n\ndef post_fork(server, worker):\n    pass\n"
    read = read_settings_module(hooks, config_file=True)
    assert read is not None and [k.path for k in read.keys] == [("bind",), ("workers",)]


_ENV_DEFAULTS = """
from app.loaders import lookup


def get(key, default=None):
    value = lookup(key.upper())
    return value if value is not None else default


AUTO_CAST_FOR_DYNACONF = get("AUTO_CAST_FOR_DYNACONF", True)
CORE_LOADERS_FOR_DYNACONF = get("CORE_LOADERS_FOR_DYNACONF", ["YAML", "TOML"])
SKIP_FILES_FOR_DYNACONF = get("SKIP_FILES_FOR_DYNACONF", [])
MAIN_ENV_FOR_DYNACONF = get("MAIN_ENV_FOR_DYNACONF", "MAIN")
REDIS_URL_FOR_DYNACONF = get("REDIS_URL_FOR_DYNACONF", None)
ROOT_PATH_FOR_DYNACONF = get("SOMETHING_ELSE", "here")
"""

_PLAIN_DOC = (
    "# Configuration\n\n"
    "### **auto_cast**\n\n> type=`bool`, default=`True`\n\nCast values.\n\n"
    "### **core_loaders**\n\n> type=`list`, default=`['YAML', 'TOML']`\n\nLoaders.\n\n"
    "### **skip_files**\n\n> type=`list`, default=`None`\n\nFiles to skip.\n\n"
    "### **redis_enabled**\n\n> type=`bool`, default=`False`\n\nUse redis.\n\n"
    "### **root_path**\n\n> type=`str`, default=`elsewhere`\n\nThe root.\n"
)


def test_a_defaults_module_of_getters_is_documented_without_its_affix(tmp_path) -> None:
    """``X_FOR_APP = get("X_FOR_APP", d)``: the getter's default is the
    setting's, and the page's plain ``x`` spells it."""
    analysis, findings = check_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/default_settings.py": _ENV_DEFAULTS,
            "docs/config.md": _PLAIN_DOC,
        },
        "app",
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    node = surface.schema.children["SKIP_FILES_FOR_DYNACONF"]
    assert "skip_files" in node.spellings and node.default.value == []
    found = by_key(findings)
    assert ("CD104", "skip_files") in found  # None documented, [] in the code
    assert ("CD104", "auto_cast") not in found and ("CD104", "core_loaders") not in found
    # Undocumented although no documented key begins like it: its affix
    # makes it the project's own.
    assert ("CD103", "REDIS_URL_FOR_DYNACONF") in found
    # A getter called with another name gives no default of the setting's.
    assert surface.schema.children["ROOT_PATH_FOR_DYNACONF"].default is None
    assert ("CD104", "root_path") not in found


def test_a_variable_with_the_container_s_affix_is_the_project_s(tmp_path) -> None:
    # ``MAIN_ENV_FOR_DYNACONF``: no documented key begins with ``main``, yet
    # the affix its siblings share makes it the project's own; ``AWS_REGION``
    # carries no affix and no documented key begins like it: another
    # program's variable.
    defaults = _ENV_DEFAULTS + 'AWS_REGION = get("AWS_REGION", "eu")\n'
    _, findings = check_project(
        tmp_path,
        {"app/default_settings.py": defaults, "docs/config.md": _PLAIN_DOC},
        "app",
    )
    found = by_key(findings)
    assert ("CD103", "MAIN_ENV_FOR_DYNACONF") in found
    assert ("CD103", "AWS_REGION") not in found


def test_a_variable_s_plain_spelling_in_a_guide_names_it(tmp_path) -> None:
    guide = "# Loading\n\n```py\nsettings = Settings(main_env='PROD')\n```\n"
    _, findings = check_project(
        tmp_path,
        {
            "app/default_settings.py": _ENV_DEFAULTS,
            "docs/config.md": _PLAIN_DOC,
            "docs/loading.md": guide,
        },
        "app",
    )
    # Named by its plain spelling; no page holds ten entries, so the guide
    # describes it.
    assert ("CD103", "MAIN_ENV_FOR_DYNACONF") not in by_key(findings)


def test_a_plain_spelling_on_the_reference_page_describes_the_variable(tmp_path) -> None:
    words = [
        "ALPHA",
        "BETA",
        "GAMMA",
        "DELTA",
        "EPSILON",
        "ZETA",
        "ETA",
        "THETA",
        "IOTA",
        "KAPPA",
        "LAMBDA",
    ]
    ends = [
        "SIZE",
        "COUNT",
        "PATH",
        "MODE",
        "RATE",
        "NAME",
        "FLAG",
        "DEPTH",
        "URL",
        "WIDTH",
        "LEVEL",
    ]
    names = [f"{w}_{e}_FOR_APP" for w, e in zip(words, ends, strict=True)]
    names.append("MAIN_ENV_FOR_APP")
    defaults = "from app.loaders import lookup\n\n\ndef get(key, default=None):\n"
    defaults += "    value = lookup(key)\n    return value if value is not None else default\n\n\n"
    defaults += "".join(f'{n} = get("{n}", 1)\n' for n in names)
    page = "# Configuration\n\n" + "".join(
        f"### **{n[:-8].lower()}**\n\n> type=`int`, default=`1`\n\nWhat it does.\n\n"
        for n in names[:-1]
    )
    guide = "# Loading\n\nStart with `main_env` set to `PROD`.\n"
    files = {"app/default_settings.py": defaults, "docs/config.md": page, "docs/load.md": guide}
    _, findings = check_project(tmp_path / "a", files, "app")
    finding = by_key(findings)[("CD103", "MAIN_ENV_FOR_APP")]
    assert "docs/load.md:3 names it" in finding.message
    # Named on the reference page itself (its plain spelling): described.
    files["docs/config.md"] = page + "Set `main_env` to choose the environment.\n"
    _, findings = check_project(tmp_path / "b", files, "app")
    assert ("CD103", "MAIN_ENV_FOR_APP") not in by_key(findings)


def test_a_setting_read_around_the_defaults_module_is_reported(tmp_path) -> None:
    defaults = "".join(
        f"BOT_{name} = {value!r}\n"
        for name, value in (
            ("NAME", "bot"),
            ("DELAY", 0),
            ("RETRIES", 2),
            ("AGENT", "a"),
            ("DEPTH", 3),
        )
    )
    reader = (
        "def start(crawler):\n    settings = crawler.settings\n"
        '    return settings.getint("BOT_DELAY", 0), settings.getbool("BOT_DEBUG", True)\n'
    )
    # A test project of its own defaults and reads: another program.
    fixture = (
        "def run(crawler):\n    settings = crawler.settings\n"
        '    return settings.get("DEMO_COLOR")\n'
    )
    doc = "# Settings\n\n" + "".join(
        f"### `BOT_{name}`\n\nA setting.\n\n" for name in ("NAME", "DELAY", "RETRIES", "DEBUG")
    )
    _, findings = check_project(
        tmp_path,
        {
            "bot/default_settings.py": defaults,
            "bot/core.py": reader,
            "demo/__init__.py": "",
            "demo/global_settings.py": "DEMO_A = 1\nDEMO_B = 2\n",
            "demo/run.py": fixture,
            "docs/settings.md": doc,
        },
        "bot",
    )
    found = by_key(findings)
    around = found[("CD201", "BOT_DEBUG")]
    assert around.severity.value == "warning"
    assert "bot.default_settings does not declare it" in around.message
    assert "(True)" in around.message
    assert ("CD201", "BOT_DELAY") not in found and ("CD201", "DEMO_COLOR") not in found


def test_two_fallbacks_of_a_setting_read_by_name_are_a_conflict(tmp_path) -> None:
    """``settings.getint("BOT_DELAY", 1)`` here and ``2`` there; the other
    settings are read with one fallback each."""
    defaults = "".join(f"BOT_{n} = {v!r}\n" for n, v in (("NAME", "a"), ("DELAY", 0), ("DEPTH", 4)))
    reader = (
        "def start(crawler):\n    settings = crawler.settings\n"
        '    return settings.getint("BOT_DELAY", 1), settings.get("BOT_NAME", "a")\n\n\n'
        "def stop(crawler):\n    settings = crawler.settings\n"
        '    return settings.getint("BOT_DELAY", 2), settings.get("BOT_DEPTH", 4)\n'
    )
    doc = "# Settings\n\n" + "".join(
        f"### `BOT_{name}`\n\nA setting.\n\n" for name in ("NAME", "DELAY", "DEPTH")
    )
    _, findings = check_project(
        tmp_path,
        {
            "bot/settings/default_settings.py": defaults,
            "bot/core.py": reader,
            "docs/settings.md": doc,
        },
        "bot",
    )
    assert [f.key for f in findings if f.code == "CD106"] == ["BOT_DELAY"]


_EXTENSION = """
class Cache:
    def __init__(self, app=None):
        if app is not None:
            self.init_app(app)

    def init_app(self, app):
        app.config.setdefault("CACHE_TYPE", "simple")
        app.config.setdefault("CACHE_DEFAULT_TIMEOUT", 300)
        app.config.setdefault("CACHE_THRESHOLD", 500)
        self.timeout = app.config["CACHE_DEFAULT_TIMEOUT"]
        self.kind = app.config["CACHE_TYPE"]
        self.redis = app.config.get("CACHE_REDIS_URL")
        self.debug = app.config["DEBUG"] or current_app.config.get("SERVER_NAME")
"""

_TABLE = """Flask-Cache
===========

=============================== ==================================================
``CACHE_TYPE``                  The type of cache. Default: ``"simple"``.
``CACHE_DEFAULT_TIMEOUT``       The default timeout. Default: ``600``.
``CACHE_THRESHOLD``             The maximum number of items. Default: ``500``.
``CACHE_REDIS_HOST``            A Redis server host.
=============================== ==================================================
"""


def test_an_extensions_settings_on_the_apps_config_are_a_surface(tmp_path) -> None:
    # Flask's shape: ``app.config.setdefault("X", d)`` declares a setting
    # with its default, ``app.config["X"]`` reads it; a table without a
    # header documents them, a key in code and its description per row.
    files = {"flask_cache/__init__.py": _EXTENSION, "docs/index.rst": _TABLE}
    analysis, findings = check_project(tmp_path, files, "flask_cache")
    surface = {s.surface: s for s in analysis.everything}["settings object"]
    # Flask's own settings, read beside, are the application's.
    assert set(surface.schema.children) == {
        "CACHE_TYPE",
        "CACHE_DEFAULT_TIMEOUT",
        "CACHE_THRESHOLD",
        "CACHE_REDIS_URL",
    }
    found = by_key(findings)
    assert "300" in found["CD104", "CACHE_DEFAULT_TIMEOUT"].message
    assert found["CD104", "CACHE_DEFAULT_TIMEOUT"].location.line == 6
    assert ("CD102", "CACHE_REDIS_HOST") in found
    assert ("CD103", "CACHE_REDIS_URL") in found
    assert ("CD104", "CACHE_TYPE") not in found


def test_a_table_without_a_header_is_read_only_when_every_row_opens_with_a_key() -> None:
    from configdrift.extract.docs.rst import extract_rst

    names = [e.name for e in extract_rst(_TABLE.encode()).entries]
    assert names == ["CACHE_TYPE", "CACHE_DEFAULT_TIMEOUT", "CACHE_THRESHOLD", "CACHE_REDIS_HOST"]
    # A row whose first cell holds more than a key: a table of something else.
    worded = _TABLE.replace("``CACHE_THRESHOLD``  ", "``CACHE_THRESHOLD`` n")
    assert extract_rst(worded.encode()).entries == []
    # The entries end with the table: a later "Default:" is none of theirs.
    after = _TABLE + "\nDefault: ``10``.\n"
    assert [e.default for e in extract_rst(after.encode()).entries][-1] is None


_CHAIN = """
from django.conf import settings

settings.SHOP_ORDER = getattr(
    settings,
    "SHOP_ORDER",
    getattr(settings, "SHOP_META_ORDER", getattr(settings, "OLD_ORDER", ("REMOTE_ADDR",))),
)
settings.SHOP_TIMEOUT = getattr(settings, "SHOP_TIMEOUT", 30)
settings.SHOP_CURRENCY = getattr(settings, "SHOP_CURRENCY", "EUR")


def order():
    return settings.SHOP_ORDER, settings.SHOP_TIMEOUT, settings.SHOP_CURRENCY
"""

_CHAIN_DOC = """
# Settings

| Setting | Default | Description |
| --- | --- | --- |
| `SHOP_ORDER` | `("REMOTE_ADDR",)` | The headers, in order. |
| `SHOP_TIMEOUT` | `30` | Seconds. |
| `SHOP_CURRENCY` | `EUR` | The currency. |
"""


def test_a_setting_read_as_anothers_fallback_is_its_older_spelling(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"shop/conf.py": _CHAIN, "docs/settings.md": _CHAIN_DOC}, "shop"
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert set(surface.schema.children) == {"SHOP_ORDER", "SHOP_TIMEOUT", "SHOP_CURRENCY"}
    assert surface.schema.children["SHOP_ORDER"].spellings == (
        "SHOP_ORDER",
        "SHOP_META_ORDER",
        "OLD_ORDER",
    )
    # Read where the newer one is: never "nothing reads it".
    assert not [f for f in findings if f.code in ("CD103", "CD202") and "ORDER" in f.key]
    # Read apart, by a statement of its own: a setting of its own.
    apart = (
        _CHAIN.replace(
            'getattr(settings, "SHOP_META_ORDER", getattr(settings, "OLD_ORDER", ("REMOTE_ADDR",)))',
            '("REMOTE_ADDR",)',
        )
        + '\nLEGACY = getattr(settings, "OLD_ORDER", None)\n'
    )
    analysis, _ = check_project(
        tmp_path / "apart", {"shop/conf.py": apart, "docs/settings.md": _CHAIN_DOC}, "shop"
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert "OLD_ORDER" in surface.schema.children


def test_a_default_another_call_computes_from_a_name_is_no_fallback_setting(tmp_path) -> None:
    picked = (
        _CHAIN.replace(
            'getattr(settings, "SHOP_META_ORDER", getattr(settings, "OLD_ORDER", ("REMOTE_ADDR",)))',
            'pick(settings, "OLD_ORDER")',
        )
        + '\nLEGACY = getattr(settings, "OLD_ORDER", None)\n'
    )
    analysis, _ = check_project(
        tmp_path, {"shop/conf.py": picked, "docs/settings.md": _CHAIN_DOC}, "shop"
    )
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert "OLD_ORDER" in surface.schema.children
    assert surface.schema.children["SHOP_ORDER"].spellings == ("SHOP_ORDER",)
