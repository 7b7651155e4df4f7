"""Options a plugin registers by name: pytest's addoption/addini, Sphinx's
add_config_value."""

from __future__ import annotations

from helpers import by_key, check_project

_PLUGIN = """
def pytest_addoption(parser):
    group = parser.getgroup("timer")
    group.addoption("--timer-limit", type=float, default=1.5, help="seconds")
    group.addoption("--timer-quiet", action="store_true")
    parser.addini("timer_format", "how to print", type="string", default="short")
    parser.addini("timer_paths", "where", type="linelist")


def pytest_configure(config):
    limit = config.getoption("--timer-limit")
    quiet = config.getoption("timer_quiet")
    fmt = config.getini("timer_format")
    return limit, quiet, fmt
"""

_PLUGIN_DOCS = """
# Configuration

- `--timer-limit` (float): slow test threshold. Default: 1.5.
- `--timer-quiet` (bool): no report.
- `timer_format` (string): `short` or `long`.
- `timer_color` (bool): documented, never registered.
"""


def _run(tmp_path, files):
    analysis, findings = check_project(tmp_path, files, "plug")
    return analysis, by_key(findings)


def test_a_pytest_plugins_options_and_ini_keys(tmp_path) -> None:
    analysis, found = _run(tmp_path, {"plug/plugin.py": _PLUGIN, "docs/config.md": _PLUGIN_DOCS})
    root = analysis.schema
    assert set(root.children) - {"help"} == {
        "timer_limit",
        "timer_quiet",
        "timer_format",
        "timer_paths",
    }
    assert root.children["timer_format"].default.value == "short"
    assert root.children["timer_paths"].type.kinds == frozenset({"list"})
    # An unknown ini key is a warning in pytest, not an error: nothing is
    # claimed about the undeclared `timer_color`.
    assert root.strict is None
    assert not [key for code, key in found if code in ("CD101", "CD102")]
    assert ("CD103", "timer_paths") in found
    # getoption/getini read by name: none of the read options is inert.
    assert [key for code, key in found if code == "CD202"] == ["timer_paths"]


_EXTENSION = """
def setup(app):
    app.add_config_value("gallery_dirs", [], "html")
    app.add_config_value("gallery_columns", 3, "html")
    app.add_config_value("gallery_title", "Gallery", "env")
    app.add_config_value("gallery_backrefs", False, "env")
    app.connect("builder-inited", build)


def build(app):
    return app.config.gallery_dirs, app.config.gallery_columns
"""

_EXT_DOCS = """
# Settings

- `gallery_dirs` (list): where the examples are.
- `gallery_columns` (int): columns per row. Default: 4.
- `gallery_title` (str): the heading.
"""


def test_a_sphinx_extensions_config_values(tmp_path) -> None:
    analysis, found = _run(tmp_path, {"plug/ext.py": _EXTENSION, "docs/settings.md": _EXT_DOCS})
    root = analysis.schema
    assert root.model == "the registered options"
    assert set(root.children) == {
        "gallery_dirs",
        "gallery_columns",
        "gallery_title",
        "gallery_backrefs",
    }
    assert root.children["gallery_columns"].default.value == 3
    assert ("CD103", "gallery_backrefs") in found
    assert ("CD202", "gallery_title") in found
    assert ("CD202", "gallery_dirs") not in found


def test_a_key_a_constant_names_is_registered_under_its_value(tmp_path) -> None:
    code = _EXTENSION.replace(
        '    app.add_config_value("gallery_backrefs", False, "env")',
        '    app.add_config_value(_BACKREFS, default=False, rebuild="env")',
    )
    code = '_BACKREFS = "gallery_backrefs"\n\n' + code
    analysis, found = _run(tmp_path, {"plug/ext.py": code, "docs/settings.md": _EXT_DOCS})
    assert analysis.schema.children["gallery_backrefs"].default.value is False
    assert ("CD103", "gallery_backrefs") in found


def test_a_flag_a_constant_names_is_an_option_of_a_strict_parser(tmp_path) -> None:
    code = (
        "import argparse\n\nVERBOSE = '--verbose'\n\n\ndef main(flag):\n"
        "    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument(VERBOSE, action='store_true', help='Talk.')\n"
        "    parser.add_argument('--limit', type=int, default=3, help='Limit.')\n"
        "    parser.add_argument('--out', help='Where.')\n"
        "    parser.add_argument({extra}, help='More.')\n"
        "    args = parser.parse_args()\n"
        "    return args.verbose, args.limit, args.out\n"
    )
    docs = (
        "# Configuration\n\n- `--verbose` (bool): talk.\n- `--limit` (int): limit.\n"
        "- `--out` (str): where.\n- `--quiet` (bool): hush.\n"
    )
    strict, found = _run(
        tmp_path, {"plug/cli.py": code.format(extra="'--more'"), "docs/config.md": docs}
    )
    assert "verbose" in strict.schema.children
    assert ("CD101", "--quiet") in found
    # A flag a parameter names is known at run time only: the parser is open.
    _, found = _run(
        tmp_path / "open", {"plug/cli.py": code.format(extra="flag"), "docs/config.md": docs}
    )
    assert ("CD101", "--quiet") not in found


def test_a_call_of_the_same_name_with_a_computed_name_declares_nothing(tmp_path) -> None:
    code = "def setup(app, names):\n" + "".join(
        f"    app.add_config_value(names[{i}], None, 'env')\n" for i in range(4)
    )
    analysis, _ = _run(tmp_path, {"plug/ext.py": code})
    assert analysis.schema.children == {}


def test_a_configured_registration_call_declares_keys(tmp_path) -> None:
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules
    from helpers import make_project

    code = """
    from app.registry import register_option

    register_option("timeout", 30, help="seconds")
    register_option("retries", 3)
    register_option("colour", "auto")
    register_option("mode", "fast")
    """
    registry = """
    OPTIONS = {}


    def register_option(name, default, help=""):
        OPTIONS[name] = default
    """
    page = (
        "# Options\n\n| Option | Default |\n| --- | --- |\n| `timeout` | `60` |\n"
        "| `retries` | `3` |\n| `colour` | `auto` |\n"
    )
    files = {
        "app/__init__.py": "",
        "app/options.py": code,
        "app/registry.py": registry,
        "docs/options.md": page,
    }
    root = make_project(tmp_path / "a", files)
    bare = analyse(Config(root=root), jobs=1, cache=False)
    assert not {"timeout", "retries"} & set(bare.schema.children)
    configured = Config(
        root=root, registrations={"register_option": (0, 1)}, docs=("docs/options.md",)
    )
    analysis = analyse(configured, jobs=1, cache=False)
    assert {"timeout", "retries", "colour", "mode"} <= set(analysis.schema.children)
    found = {(f.code, f.key) for f in run_rules(analysis)}
    assert ("CD104", "timeout") in found
    assert ("CD103", "mode") in found


def test_tornado_define_is_in_the_catalogue(tmp_path) -> None:
    code = """
    from tornado.options import define, options

    define("port", default=8888, help="the port")
    define("debug", False)
    define("workers", default=2)


    def define_nothing(name):
        return name


    define_nothing("LOCAL")
    """
    page = "# Options\n\n- `port`: the port.\n- `debug`: debug mode.\n- `workers`: processes.\n"
    analysis, _ = check_project(tmp_path, {"app/server.py": code, "docs/o.md": page}, "app")
    assert set(analysis.schema.children) == {"port", "debug", "workers"}
    assert analysis.schema.children["debug"].default.value is False


def test_the_fact_cache_follows_the_configured_registrations(tmp_path) -> None:
    from configdrift.config import Config
    from configdrift.engine import analyse
    from helpers import make_project

    root = make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/o.py": 'from app.r import reg\nreg("alpha", 1)\nreg("beta", 2)\nreg("gamma", 3)\n',
            "app/r.py": "def reg(name, default):\n    return name\n",
            "docs/o.md": "# Options\n\n- `alpha`: a.\n- `beta`: b.\n- `gamma`: c.\n",
        },
    )
    plain = analyse(Config(root=root), jobs=1)
    declared = analyse(Config(root=root, registrations={"reg": (0, 1)}), jobs=1)
    again = analyse(Config(root=root), jobs=1)
    assert "alpha" not in plain.schema.children
    assert {"alpha", "beta", "gamma"} <= set(declared.schema.children)
    assert "alpha" not in again.schema.children


_TOX_LIKE = """
import argparse


def register_config(conf, core):
    conf.add_config(
        keys=["env_dir", "envdir"], of_type=str, default=".tox", desc="where it lives"
    )
    conf.add_config(keys="args_are_paths", of_type=bool, default=True, desc="rewrite paths")
    conf.add_config("labels", list[str], [], "labels of the environment")
    conf.add_config(keys=["recreate"], of_type=bool, default=False, desc="start afresh")
    conf.add_constant(keys=["env_python"], desc="the interpreter", value="python")
    conf.add_config(keys=core.extra_keys, of_type=str, default="", desc="computed")


def cli():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--root", default=".")
    parser.add_argument("--colour", default="auto")
    return parser
"""

_TOX_DOCS = """
Configuration
=============

.. code-block:: ini

    [testenv]
    envdir = build
    labels = fast

Environment options
-------------------

.. code-block:: ini

    [testenv]
    args_are_paths = false

.. conf::
   :keys: env_dir, envdir
   :default: .tox

   Where the environment lives.

.. conf::
   :keys: args_are_paths
   :default: False

   Rewrite relative paths.

.. conf::
   :keys: labels

   Labels of the environment.

.. conf::
   :keys: env_python
   :constant:

   The interpreter of the environment.

Command line
------------

.. option:: --quiet

   Say less.

.. option:: --parallel

   How many at once.

.. option:: --root

   Where to start.
"""


def test_keys_registered_with_add_config_are_a_surface_of_their_own(tmp_path) -> None:
    """tox's ``add_config(keys=[key, alias], of_type=, default=, desc=)``:
    the first key is the key, the others its spellings; the file's keys and
    the command line's flags are two surfaces, each judged on its own."""
    analysis, findings = check_project(
        tmp_path, {"plug/config.py": _TOX_LIKE, "docs/config.rst": _TOX_DOCS}, "plug"
    )
    names = {s.surface: s for s in analysis.everything}
    registered = next(s for s in analysis.everything if "env_dir" in s.schema.children)
    cli = next(s for s in analysis.everything if "quiet" in s.schema.children)
    assert registered is not cli
    assert set(registered.schema.children) == {
        "env_dir",
        "args_are_paths",
        "labels",
        "recreate",
        "env_python",
    }
    assert registered.schema.children["env_dir"].spellings == ("env_dir", "envdir")
    assert registered.schema.children["labels"].type.kinds == frozenset({"list"})
    assert registered.schema.children["env_python"].default is None
    assert "env_dir" not in cli.schema.children
    assert set(names) == {"config", "cli"}
    found = {(f.code, f.key, f.surface) for f in findings}
    # The documented default disagrees with the code's.
    assert ("CD104", "args_are_paths", registered.surface) in found
    assert ("CD103", "recreate", registered.surface) in found
    assert ("CD103", "--colour", cli.surface) in found
    # The ini examples' [testenv] is the file's section, not a config path.
    assert not [f for f in findings if f.code in ("CD101", "CD102", "CD301", "CD302")]
    assert ("CD104", "env_dir", registered.surface) not in found


def test_add_config_without_a_known_name_declares_nothing(tmp_path) -> None:
    code = """
    def register(conf, names, kinds):
        conf.add_config(keys=names, of_type=str, default="", desc="a")
        conf.add_config(names[0], str, "", "b")
        conf.add_config(keys=[names[1], "alias"], of_type=str, default="", desc="c")
        conf.add_config(of_type=str, default="", desc="no keys")
    """
    analysis, _ = check_project(tmp_path, {"plug/c.py": code}, "plug")
    assert analysis.schema.children == {}


def test_a_falsy_default_that_the_code_replaces_is_documented_by_its_replacement(
    tmp_path,
) -> None:
    code = """
    _DEFAULT_IGNORE = ["*migrations*"]
    _DEFAULT_PATTERNS = ["*.py", "*.pyi"]


    def setup(app):
        app.add_config_value("scan_ignore", [], "html")
        app.add_config_value("scan_patterns", [], "html")
        app.add_config_value("scan_depth", 0, "html")
        app.add_config_value("scan_root", "", "html")


    def run(app):
        if app.config.scan_ignore:
            ignore = app.config.scan_ignore
        else:
            ignore = _DEFAULT_IGNORE
        patterns = app.config.scan_patterns or _DEFAULT_PATTERNS
        if app.config.scan_depth:
            print("deep")
        else:
            depth = 5
        return ignore, patterns, app.config.scan_root
    """
    page = (
        "Settings\n========\n\n"
        ".. confval:: scan_ignore\n\n   Default: ``['*migrations*']``\n\n"
        ".. confval:: scan_patterns\n\n   Default: ``['*.rst']``\n\n"
        ".. confval:: scan_depth\n\n   Default: ``5``\n\n"
        ".. confval:: scan_root\n\n   Default: ``'src'``\n"
    )
    _, findings = check_project(tmp_path, {"plug/ext.py": code, "docs/settings.rst": page}, "plug")
    mismatched = {f.key for f in findings if f.code == "CD104"}
    # The docs give the replacement of an empty list: no drift. A wrong
    # replacement, an if whose else assigns something else, and a plain
    # falsy default are still compared.
    assert mismatched == {"scan_patterns", "scan_depth", "scan_root"}


_TOOL = """
def pytest_addoption(parser):
    group = parser.getgroup("general")
    group.addoption("--max-warnings", type=int, dest="max_warnings")
    group.addoption("--markers", action="store_true")
    group.addoption("--verbose-level", type=int, default=0)
    group.addoption("--tool-quiet", action="store_true")
    parser.addini("max_warnings", help="fail above this many warnings")
    parser.addini("markers", "the markers", "linelist")
    parser.addini("timeout", help="seconds", type="float", default=0.0)
    parser.addini("strict", help="strict mode", type=bool, default=False)


def pytest_configure(config):
    return (
        config.getoption("max_warnings"), config.getoption("markers"),
        config.getoption("verbose_level"), config.getoption("tool_quiet"),
        config.getini("max_warnings"), config.getini("markers"),
        config.getini("timeout"), config.getini("strict"),
    )
"""

_TOOL_DOCS = """
# Command line

- `--max-warnings` (int): fail above this many warnings.
- `--markers` (bool): list the markers.
- `--verbose-level` (int): how much to say.
- `--tool-quiet` (bool): say nothing.

# Configuration file

- `max_warnings` (int): fail above this many warnings.
- `markers` (list): the markers.
- `timeout` (float): seconds.
- `strict` (bool): strict mode.
"""


def test_a_key_registered_by_name_is_not_the_flag_of_its_name(tmp_path) -> None:
    files = {"plug/plugin.py": _TOOL, "docs/config.md": _TOOL_DOCS}
    analysis, found = _run(tmp_path, files)
    registered = next(s for s in analysis.everything if s.schema.model_kind == "named")
    keys = registered.schema.children
    assert set(keys) == {"max_warnings", "markers", "timeout", "strict"}
    # pytest reads a key registered with no type as a string; a type given
    # by position, or as a plain type, is read too.
    assert keys["max_warnings"].type.kinds == frozenset({"str"})
    assert keys["markers"].type.kinds == frozenset({"list"})
    assert keys["strict"].type.kinds == frozenset({"bool"})
    assert keys["timeout"].type.kinds == frozenset({"float"})
    # The flag keeps its own type: `markers` (list) is the ini key's entry.
    assert [key for code, key in found if code == "CD105"] == ["max_warnings"]


def test_a_key_registered_by_name_beside_its_flag_in_one_surface_is_one_option(
    tmp_path,
) -> None:
    plugin = """
def pytest_addoption(parser):
    parser.addoption("--rsync-ignore", dest="rsync_ignore")
    parser.addoption("--rsync-dir")
    parser.addoption("--workers", type=int)
    parser.addini("rsync_ignore", "globs", type="paths")


def pytest_configure(config):
    return config.getoption("rsync_ignore"), config.getoption("rsync_dir"), config.getoption("workers")
"""
    docs = (
        "# Options\n\n- `--rsync-ignore`: globs.\n- `--rsync-dir`: dirs.\n- `--workers` (int): n.\n"
    )
    analysis, found = _run(tmp_path, {"plug/plugin.py": plugin, "docs/config.md": docs})
    node = analysis.schema.children["rsync_ignore"]
    assert node.spellings == ("--rsync-ignore", "rsync_ignore")
    assert node.type.kinds != frozenset({"list"})  # the flag's node, first declared
    assert [key for code, key in found if code == "CD103"] == []


def test_a_key_registered_where_the_host_lacks_it_is_the_hosts(tmp_path) -> None:
    # ``try: ... except: pass``: the registration may fail because Sphinx
    # has the key already; its own docs describe it.
    guarded = _EXTENSION.replace(
        '    app.add_config_value("gallery_backrefs", False, "env")\n',
        '    try:\n        app.add_config_value("gallery_backrefs", False, "env")\n'
        "    except BaseException:\n        pass\n",
    )
    _, found = _run(tmp_path / "guarded", {"plug/ext.py": guarded, "docs/settings.md": _EXT_DOCS})
    assert ("CD103", "gallery_backrefs") not in found
    # A call in such a ``try`` that registers nothing guards nothing.
    other = _EXTENSION.replace(
        '    app.connect("builder-inited", build)\n',
        '    app.connect("builder-inited", build)\n    try:\n        app.setup_extension("x")\n'
        "    except BaseException:\n        pass\n",
    )
    _, found = _run(tmp_path / "other", {"plug/ext.py": other, "docs/settings.md": _EXT_DOCS})
    assert ("CD103", "gallery_backrefs") in found
    # A handler that does something is no such guard.
    handled = guarded.replace("        pass\n", "        raise\n")
    _, found = _run(tmp_path / "handled", {"plug/ext.py": handled, "docs/settings.md": _EXT_DOCS})
    assert ("CD103", "gallery_backrefs") in found


_SETUPS = """
def setup(app):
    app.add_config_value("gallery_dirs", [], "html")
    app.add_config_value("gallery_columns", 3, "html")
    app.add_config_value("gallery_title", "Gallery", "env")


def setup_links(app):
    app.add_config_value("gallery_link_style", "plain", "html")
    app.add_config_value("gallery_link_target", "_blank", "html")
"""

_SETUP_DOCS = """
# Configuration

- `gallery_dirs` (list): where the galleries are.
- `gallery_columns` (int): the columns. Default: 3.
- `gallery_title` (str): the title. Default: `Gallery`.
"""


def test_keys_registered_in_another_setup_are_one_file_s_keys(tmp_path) -> None:
    # The docs describe the keys of one setup: those of the other are
    # undocumented, not a script's own flags.
    files = {"plug/ext.py": _SETUPS, "docs/config.md": _SETUP_DOCS}
    _, found = _run(tmp_path, files)
    assert ("CD103", "gallery_link_style") in found
    assert ("CD103", "gallery_link_target") in found


def test_a_key_an_entry_of_its_own_names_on_a_page_not_read_is_described(tmp_path) -> None:
    links = (
        "Links\n=====\n\n.. confval:: gallery_link_style\n\n   How links look.\n\n"
        "   .. confval:: plain\n\n      Text.\n\n   .. confval:: boxed\n\n      A box.\n\n"
        "   .. confval:: shaded\n\n      Shade.\n"
    )
    files = {"plug/ext.py": _SETUPS, "docs/config.md": _SETUP_DOCS, "docs/links.rst": links}
    _, found = _run(tmp_path, files)
    assert ("CD103", "gallery_link_style") not in found
    assert ("CD103", "gallery_link_target") in found
    # So is one a heading names, above the headings of its values.
    targets = "# Targets\n\n## gallery_link_target\n\nWhere links open.\n\n" + "".join(
        f"### {name}\n\nText.\n\n" for name in ("new_window", "same_window", "parent_frame")
    )
    _, found = _run(tmp_path / "heading", {**files, "docs/targets.md": targets})
    assert ("CD103", "gallery_link_target") not in found


def test_a_key_registered_by_name_a_guide_writes_in_code_is_missing_from_the_reference(
    tmp_path,
) -> None:
    # A reference of ten keys and more, and a guide that writes one more in code.
    more = "".join(f'    app.add_config_value("gallery_opt{i}", 0, "html")\n' for i in range(8))
    reference = _SETUP_DOCS + "".join(f"- `gallery_opt{i}` (int): an option.\n" for i in range(8))
    guide = "# Guide\n\nSet `gallery_link_style` to `boxed` for boxes.\n"
    files = {"plug/ext.py": _SETUPS + more, "docs/config.md": reference, "docs/guide.md": guide}
    _, found = _run(tmp_path, files)
    message = found[("CD103", "gallery_link_style")].message
    assert "docs/guide.md:3 names it" in message and "docs/config.md" in message
    assert "no doc describes it" in found[("CD103", "gallery_link_target")].message
