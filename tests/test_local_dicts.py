"""A dict a function binds to a local and reads by literal keys, with no
flow to follow it: what a call returns (``ini = options_from_ini(path)``)
or one key of another dict (``buttons = theme.get("launch_buttons", {})``).
It is a configuration where one page is about it (three of the page's
entries and three quarters of them are its keys), its keys then optional
without a default each; a key of another dict is also one where the
docs' examples set its keys below that very key. Never a record read by
required keys, a class's instance, a page that lists other keys too, nor
examples that set the keys below another path."""

from __future__ import annotations

from configdrift.extract.python.extractor import extract_source
from helpers import by_key, check_project, strict_model

_CLI = """
import configparser


def options_from_ini(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    return dict(parser.items("tool"))


def main(args):
    ini = options_from_ini(args.ini)
    if ini:
        targets = ini.get("targets")
        exclude = ini.get("exclude")
        skips = ini.get("skips")
        tests = ini.get("tests")
        recursive = ini.get("recursive")
        return targets, exclude, skips, tests, recursive
"""

_PAGE = """Configuration
=============

The ``.tool`` file holds the supported arguments:

``targets``
  comma separated list of targets to run on
``exclude``
  comma separated list of excluded paths
``exclude_dirs``
  excluded directories, in the YAML file only
``skips``
  comma separated list of tests to skip
``tests``
  comma separated list of tests to run
"""


def _check(tmp_path, cli: str = _CLI, page: str = _PAGE):
    return check_project(tmp_path, {"app/cli.py": cli, "docs/config.rst": page}, "app")


def _surfaces(analysis) -> list[str]:
    return [s.surface for s in analysis.everything]


def test_what_a_call_returns_read_key_by_key_is_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "options_from_ini() in main" in _surfaces(analysis)
    found = by_key(findings)
    finding = found[("CD103", "recursive")]
    assert (finding.location.path, finding.location.line) == ("app/cli.py", 18)
    assert "options_from_ini() in main" in finding.message
    # Documented, not read from this dict: it may be read elsewhere.
    assert not any(f.key == "exclude_dirs" for f in findings)
    assert not [k for c, k in found if c == "CD103" and k != "recursive"]


def test_a_page_that_lists_other_keys_too_is_not_about_it(tmp_path) -> None:
    # Four of the page's seven entries: not three quarters.
    page = _PAGE + "".join(f"``other{i}``\n  another option\n" for i in range(2))
    analysis, findings = _check(tmp_path, page=page)
    assert _surfaces(analysis) == ["config"]
    assert not any(f.key == "recursive" for f in findings)


def test_two_entries_make_no_page_about_it(tmp_path) -> None:
    # Both of one page's entries are keys of a dict of three (the page is
    # read for the root's key it names), but two are too few; another
    # page names the third among others.
    cli = _CLI.replace('        tests = ini.get("tests")\n', "")
    cli = cli.replace('        recursive = ini.get("recursive")\n', "")
    page = (
        "Configuration\n=============\n\nSee ``port``.\n\n"
        "``targets``\n  what to run on\n``exclude``\n  what not\n"
    )
    other = "Options\n=======\n\n" + "".join(
        f"``{name}``\n  an option\n" for name in ("skips", "a1", "a2", "a3", "a4")
    )
    files = {
        **strict_model("port: int = 1"),
        "app/cli.py": cli,
        "docs/config.rst": page,
        "docs/options.rst": other,
    }
    analysis, _ = check_project(tmp_path, files, "app")
    assert "docs/config.rst" in analysis.doc_facts
    assert _surfaces(analysis) == ["config"]


def test_a_record_read_by_required_keys_is_no_configuration(tmp_path) -> None:
    cli = _CLI.replace('ini.get("targets")', 'ini["targets"]')
    cli = cli.replace('ini.get("exclude")', 'ini["exclude"]')
    analysis, _ = _check(tmp_path, cli=cli)
    assert _surfaces(analysis) == ["config"]


def test_a_class_instance_is_no_dict_a_call_returns(tmp_path) -> None:
    cli = _CLI.replace("ini = options_from_ini(args.ini)", "ini = Options(args.ini)")
    analysis, _ = _check(tmp_path, cli=cli)
    assert _surfaces(analysis) == ["config"]


_THEME = """
def add_buttons(app, context):
    theme = app.config["html_theme_options"]
    buttons = theme.get("launch_buttons", {})
    hub = buttons.get("hub_url", "")
    binder = buttons.get("binder_url", "")
    colab = buttons.get("colab_url", "")
    lite = buttons.get("lite_ext", "lab")
    return hub, binder, colab, lite
"""

_LAUNCH = """# Launch buttons

Set the buttons in `conf.py`:

```toml
[launch_buttons]
hub_url = "https://hub.example.org"
binder_url = "https://mybinder.org"
colab_url = "https://colab.research.google.com"
```
"""


def _theme(tmp_path, page: str = _LAUNCH):
    return check_project(tmp_path, {"app/launch.py": _THEME, "docs/launch.md": page}, "app")


def test_a_key_of_another_dict_set_below_that_key_is_placed_there(tmp_path) -> None:
    analysis, findings = _theme(tmp_path)
    surface = next(s for s in analysis.everything if s.surface != "config")
    assert surface.surface == "theme['launch_buttons'] in add_buttons"
    assert ("launch_buttons", "lite_ext") in {n.path for n in surface.schema.walk()}
    assert ("CD103", "launch_buttons.lite_ext") in by_key(findings)


def test_keys_set_below_another_key_are_not_that_dict(tmp_path) -> None:
    analysis, findings = _theme(tmp_path, _LAUNCH.replace("[launch_buttons]", "[buttons]"))
    assert _surfaces(analysis) == ["config"]
    assert not any(f.key and f.key.endswith("lite_ext") for f in findings)


def test_extraction_keeps_a_local_read_by_three_literal_keys_or_more() -> None:
    def reads(body: str) -> list[tuple[str, list]]:
        facts = extract_source(f"def f(path, conf):\n{body}")
        return [(r.source.base, r.source.keys) for r in facts.call_reads]

    three = "    o.get('a')\n    o.get('b')\n    o['c']\n"
    assert reads("    o = load_options(PATH)\n" + three) == [
        ("load_options()", [["c", "a"]]),
        ("load_options()", [["c", "b"]]),
        ("load_options()", [["c", "c"]]),
    ]
    assert next(k for _, k in reads("    o = conf.main.get('app', {})\n" + three)) == [
        ["c", "app"],
        ["c", "a"],
    ]
    # Two keys: a record's; a class's instance; a loader's result (a
    # response's body here); two origins; a computed key: none is kept.
    assert reads("    o = load_options(PATH)\n    o.get('a')\n    o.get('b')\n") == []
    assert reads("    o = Options(PATH)\n" + three) == []
    assert reads("    o = json.loads(response.read())\n" + three) == []
    assert reads("    o = one(PATH)\n    o = two(PATH)\n" + three) == []
    assert reads("    o = CONF.get(key)\n" + three) == []
    assert reads("    o = CONF[key]\n" + three) == []
