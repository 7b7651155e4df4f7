"""A key a reference page lists that no file of the project spells in any
form is CD102, where one file spells the page's other keys; never a key
spelt whole, as a part of a longer name, or as a name the code builds or
matches, one whose description tells of its removal, a name in capitals, a single word, nor a key of a page no
surface reads, of a list too often unspelt, or of one no file holds."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import argparse

from shop.names import KNOWN


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--host", default="127.0.0.1", help="the address")
    parser.add_argument("--port", type=int, default=8000, help="the port")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    return parser.parse_args(argv), KNOWN
"""

_NAMES = """
KNOWN = [
    "cache_dir",
    "max_workers",
    "log_level",
    "retry_count",
    "page_size",
]
"""

_KEYS = ("cache_dir", "max_workers", "log_level", "retry_count", "page_size")


def _page(*extra: tuple[str, str]) -> str:
    rows = [(key, "A setting.") for key in _KEYS] + list(extra)
    flags = "".join(f"## --{flag}\n\nThe {flag}.\n\n" for flag in ("host", "port", "workers"))
    table = "".join(f"| `{key}` | {text} |\n" for key, text in rows)
    return f"# Shop\n\n{flags}## Settings\n\n| Key | Meaning |\n| --- | --- |\n{table}"


_PAGE = _page(("spool_size", "How large the spool grows."))


def _unread(tmp_path, page: str = _PAGE, names: str = _NAMES, **files: str) -> dict:
    base = {
        "shop/__init__.py": "",
        "shop/cli.py": _CLI,
        "shop/names.py": names,
        "docs/usage.md": page,
    }
    _, findings = check_project(tmp_path, {**base, **files}, "shop")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD102"}


def test_a_listed_key_no_file_spells_is_read_by_nothing(tmp_path) -> None:
    found = _unread(tmp_path)
    assert set(found) == {"spool_size"}
    finding = found["spool_size"]
    assert (finding.location.path, finding.location.line) == ("docs/usage.md", 24)
    assert "no file of the project spells it in any form" in finding.message
    assert "5 of the 5 other keys its page lists so are spelt in shop/names.py" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("shop/names.py", 3)]
    assert finding.suggestion is None


def test_a_near_spelling_the_container_spells_is_offered(tmp_path) -> None:
    found = _unread(tmp_path, page=_page(("page_sise", "Rows.")))
    assert found["page_sise"].suggestion == "the code spells `page_size`"


def test_a_key_some_file_spells_whole_is_left_alone(tmp_path) -> None:
    assert _unread(tmp_path, **{"shop/spool.py": "# the SPOOL-SIZE is set here\n"}) == {}
    assert _unread(tmp_path, **{"shop.yaml": "spool_size: 10\n"}) == {}


def test_a_key_spelt_inside_a_longer_name_is_left_alone(tmp_path) -> None:
    env = 'import os\nSPOOL = os.environ.get("SPOOL_SIZE_FOR_SHOP")\n'
    assert _unread(tmp_path, **{"shop/spool.py": env}) == {}


def test_a_key_the_code_may_build_or_match_is_left_alone(tmp_path) -> None:
    built = 'def size(config, kind):\n    return config.get(f"spool_{kind}")\n'
    assert _unread(tmp_path, **{"shop/spool.py": built}) == {}
    matched = 'def sizes(config):\n    return [k for k in config if k.endswith("_size")]\n'
    assert _unread(tmp_path, **{"shop/spool.py": matched}) == {}


def test_a_key_a_package_template_spells_is_left_alone(tmp_path) -> None:
    template = "{% if spool_size %}big{% endif %}\n"
    assert _unread(tmp_path, **{"shop/templates/page.rst": template}) == {}


def test_a_key_whose_description_tells_of_its_removal_is_left_alone(tmp_path) -> None:
    page = _page(("spool_size", "Removed in 2.0: the spool is gone."))
    assert _unread(tmp_path, page=page) == {}


def test_names_in_capitals_and_single_words_are_not_judged(tmp_path) -> None:
    assert _unread(tmp_path, page=_page(("SPOOL_SIZE", "A variable."))) == {}
    assert _unread(tmp_path, page=_page(("spooling", "A word."))) == {}


def test_a_list_too_often_unspelt_is_left_alone(tmp_path) -> None:
    extra = [(name, "A setting.") for name in ("spool_size", "spool_depth", "spool_rate")]
    assert _unread(tmp_path, page=_page(*extra)) == {}


def test_a_list_no_one_file_holds_is_left_alone(tmp_path) -> None:
    # Each file spells two of the page's keys: no container.
    files = {
        "shop/a.py": 'A = ["cache_dir", "max_workers"]\n',
        "shop/b.py": 'B = ["log_level", "retry_count"]\n',
        "shop/c.py": 'C = ["page_size"]\n',
    }
    assert _unread(tmp_path, names="KNOWN = []\n", **files) == {}


def test_a_page_no_surface_reads_is_left_alone(tmp_path) -> None:
    # The same list on a page of its own that no surface reads.
    files = {"docs/notes.md": "# Notes\n\n" + _PAGE.split("## Settings", 1)[1]}
    page = _PAGE.split("## Settings", 1)[0]
    assert _unread(tmp_path, page=page, **files) == {}


def test_a_file_too_large_to_search_may_spell_any_key(tmp_path) -> None:
    big = "x: 1\n" * (1024 * 1024 // 5 + 1) + "spool_size: 1\n"
    assert _unread(tmp_path, **{"shop.yaml": big}) == {}


_THEME = """[theme]
inherit = {inherit}

[options]
use_download_button = True
show_depth = 1
toc_title = Contents
footer_items = author.html
"""

_THEME_PAGE = """# Theme options

| Key | Type | Description |
| --- | --- | --- |
| `use_download_button` | bool | Add a download button. |
| `show_depth` | int | How deep the navigation goes. |
| `toc_title` | str | The title of the contents. |
| `footer_items` | list | The footer's templates. |
| `spool_size` | int | How large the spool grows. |
"""


def test_a_key_a_surface_places_is_left_to_its_rules(tmp_path) -> None:
    # A theme inheriting one from outside the project takes options no
    # file of the project spells: its surface says nothing of them.
    files = {
        "shop/__init__.py": "",
        "shop/theme/shop/theme.conf": _THEME.format(inherit="pydata_sphinx_theme"),
        "docs/options.md": _THEME_PAGE,
    }
    _, findings = check_project(tmp_path, files, "shop")
    assert not [f for f in findings if f.key == "spool_size"]


def test_a_lowercase_key_on_a_settings_object_is_judged(tmp_path) -> None:
    # Settings read by name in capitals with a suffix; the page lists them
    # in small letters, and one of them is spelt nowhere.
    names = ("cache_dir", "max_workers", "log_level", "retry_count", "page_size")
    module = "".join(f'{n.upper()}_FOR_SHOP = get("{n.upper()}_FOR_SHOP")\n' for n in names)
    module = "import os\nget = os.environ.get\n" + module
    page = "# Settings\n\n" + "".join(f"## {n}\n\nA setting.\n\n" for n in (*names, "spool_size"))
    files = {"shop/__init__.py": "", "shop/defaults.py": module, "docs/settings.md": page}
    _, findings = check_project(tmp_path, files, "shop")
    assert [(f.code, f.key) for f in findings if f.key == "spool_size"] == [("CD102", "spool_size")]


def test_a_history_page_is_left_alone(tmp_path) -> None:
    # A changelog the configuration names as docs lists keys of its day.
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules
    from helpers import make_project

    files = {
        "shop/__init__.py": "",
        "shop/cli.py": _CLI,
        "shop/names.py": _NAMES,
        "docs/usage.md": _PAGE.replace("spool_size", "page_size"),
        "docs/changelog.md": _PAGE,
    }
    make_project(tmp_path, files)
    analysis = analyse(Config(root=tmp_path, docs=("docs/*.md",)), jobs=1)
    found = {f.location.path for f in run_rules(analysis) if f.code == "CD102"}
    assert "docs/changelog.md" not in found


def test_a_new_name_of_a_table_of_renamed_keys_no_file_spells_is_read_by_nothing(
    tmp_path,
) -> None:
    renames = (
        "\n## Renamed settings\n\n| Old name | New name |\n| --- | --- |\n"
        "| `CACHE` | `cache_dir` |\n| `WORKERS` | `max_workers` |\n"
        "| `LEVEL` | `log_level` |\n| `SPOOL` | `spool_bytes` |\n"
    )
    found = _unread(tmp_path, page=_page() + renames)
    assert set(found) == {"spool_bytes"}
    assert found["spool_bytes"].location.line == _page().count("\n") + 9


def test_a_package_with_more_files_than_are_read_may_spell_any_key(tmp_path, monkeypatch) -> None:
    # The package's other files are read up to a bound: past it, one of
    # those left unread may spell the key.
    import configdrift.discover
    import configdrift.rules.spelt_nowhere

    monkeypatch.setattr(configdrift.discover, "MAX_TEMPLATES", 3)
    monkeypatch.setattr(configdrift.rules.spelt_nowhere, "MAX_TEMPLATES", 3)
    data = {f"shop/data/{n}.txt": "nothing here\n" for n in range(4)}
    assert _unread(tmp_path, **data) == {}
