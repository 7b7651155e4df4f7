"""Dotted names the docs' prose spells in code that no configuration has,
where one part is a near spelling of a key (rules/mentions)."""

from __future__ import annotations

import pytest

from helpers import check_project

_MODEL = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    server: Server = Server()
    debug: bool = False
    name: str = "app"
"""

_PAGE = """# Configuration

- `server.host` (str): the address.
- `server.port` (int): the port.
- `server.workers` (int): processes.
- `debug` (bool): verbose errors.
- `name` (str): the app's name.

To listen elsewhere, set `server.prot` in the config file, or `server.Host`.
The helpers live in `os.path.join` and `app.loader.read`; `server.port` is
the one most change, and `server.timeout_seconds` is no key at all.
"""


def _check(tmp_path, **extra: str):
    files = {"app/config.py": _MODEL, "docs/config.md": _PAGE, **extra}
    return check_project(tmp_path, files, "app", {"": "app.config:Config"})


def test_a_misspelt_key_in_prose_is_reported_with_the_key_it_misspells(tmp_path) -> None:
    _, findings = _check(tmp_path)
    named = {f.key: f for f in findings if f.message.startswith("the docs name")}
    # A near spelling and the same letters in another case; a name that is
    # a key, one of no configuration's shape and one with no near key are
    # prose.
    assert set(named) == {"server.prot", "server.Host"}
    prot = named["server.prot"]
    assert (prot.code, prot.location.path, prot.location.line) == ("CD101", "docs/config.md", 9)
    assert prot.suggestion == "did you mean `server.port`?"
    assert named["server.Host"].suggestion == "did you mean `server.host`?"


def test_a_name_the_code_spells_is_no_misspelling(tmp_path) -> None:
    _, findings = _check(tmp_path, **{"app/legacy.py": 'OLD = "server.prot"\n'})
    assert {f.key for f in findings if f.message.startswith("the docs name")} == {"server.Host"}


def test_mentions_are_read_from_prose_in_both_markups_at_their_lines() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    md = "# A\n\nFirst line,\nthen `c.Server.prot` and `a b` and `f()` and `x.yaml`.\n"
    assert extract_markdown(md.encode()).mentions == [("c.Server.prot", 4)]
    rst = "A\n=\n\nFirst line,\nthen ``c.Server.prot`` and :mod:`pkg.mod` and ``x.yaml``.\n"
    assert extract_rst(rst.encode()).mentions == [("c.Server.prot", 5)]


def test_a_misspelt_name_under_a_section_the_code_reads_freely_is_cd102(tmp_path) -> None:
    code = """
import yaml


def read_config(path):
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    run(cfg)


def run(cfg):
    cache = cfg.get("cache", {})
    print(cfg["name"], cfg.get("seed"), cache.get("expiry", 60), cache.get("backend", "memory"))
"""
    page = (
        "# Settings\n\n- `name` (str): the name.\n- `seed` (int): the seed.\n"
        "- `cache.expiry` (int): seconds.\n- `cache.backend` (str): where.\n\n"
        "Raise `cache.expirey` for slow disks.\n"
    )
    _, findings = check_project(tmp_path, {"app/load.py": code, "docs/s.md": page}, "app")
    named = [(f.code, f.key, f.suggestion) for f in findings if f.message.startswith("the docs")]
    assert named == [("CD102", "cache.expirey", "did you mean `cache.expiry`?")]


def test_a_section_whose_keys_are_all_documented_as_dotted_entries_is_documented(
    tmp_path,
) -> None:
    page = (
        "# Configuration\n\n"
        "- `server.host` (str): the address.\n- `server.port` (int): the port.\n"
        "- `server.workers` (int): processes.\n- `debug` (bool): verbose errors.\n"
        "- `name` (str): the app's name.\n"
    )
    _, findings = check_project(
        tmp_path / "all",
        {"app/config.py": _MODEL, "docs/config.md": page},
        "app",
        {"": "app.config:Config"},
    )
    assert not any(f.code == "CD103" for f in findings)
    # One key left out: it is undocumented, and so is the section as a whole.
    partial = page.replace("- `server.workers` (int): processes.\n", "")
    _, findings = check_project(
        tmp_path / "some",
        {"app/config.py": _MODEL, "docs/config.md": partial},
        "app",
        {"": "app.config:Config"},
    )
    assert {f.key for f in findings if f.code == "CD103"} == {"server.workers", "server"}


_SECTIONS = """
from pydantic import BaseModel, ConfigDict


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "127.0.0.1"
    port: int = 8000


class Client(BaseModel):
    model_config = ConfigDict(extra="forbid")
    timeout: int = 5
    retries: int = 1


class Proxy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    retries: int = 2


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    server: Server = Server()
    client: Client = Client()
    proxy: Proxy = Proxy()
"""

_SECTIONS_PAGE = """# Configuration

- `server.host` (str): the address.
- `server.port` (int): the port.
- `client.timeout` (int): seconds.
- `client.retries` (int): tries.
- `proxy.retries` (int): tries.

Slow networks want a longer `[server] timeout`; flaky ones more `[server] retries`.
"""


def test_a_key_named_under_another_section_is_reported_with_its_own(tmp_path) -> None:
    files = {"app/config.py": _SECTIONS, "docs/config.md": _SECTIONS_PAGE}
    _, findings = check_project(tmp_path, files, "app", {"": "app.config:Config"})
    named = {f.key: f for f in findings if f.message.startswith("the docs name")}
    # ``retries`` is a key of two other sections: which one was meant is
    # not known.
    assert set(named) == {"server.timeout"}
    found = named["server.timeout"]
    assert (found.code, found.location.line) == ("CD101", 9)
    assert "`timeout` is a key of `client`, not of `server`" in found.message
    assert found.suggestion == "did you mean `client.timeout`?"


def test_a_section_of_unknown_strictness_is_not_said_to_lack_a_key() -> None:
    from configdrift.model import SchemaNode
    from configdrift.rules.mentions import _known_strictness

    root = SchemaNode(key="", path=())
    section = SchemaNode(key="convert", path=("convert",))
    root.children["convert"] = section
    assert _known_strictness(root, section) is None
    root.strict = False
    assert _known_strictness(root, section) is False
    section.strict = True
    assert _known_strictness(root, section) is True


def test_an_ini_section_and_key_in_prose_is_a_mention() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    md = "# A\n\nFirst line,\nthen the `[run] branch` setting and `[run]`.\n"
    assert extract_markdown(md.encode()).mentions == [("run.branch", 4)]
    rst = "A\n=\n\nFirst line,\nthen the ``[run] branch`` setting.\n"
    assert extract_rst(rst.encode()).mentions == [("run.branch", 5)]


def test_a_key_under_another_section_of_a_configuration_of_unknown_strictness_is_not_reported(
    tmp_path,
) -> None:
    # confuse reads any key its code names, beyond the defaults: ``audio``
    # may well take a ``codec`` the defaults do not list.
    app = (
        "import confuse\n\nconfig = confuse.LazyConfig('player', __name__)\n\n\n"
        "def volume():\n    return config['audio']['volume'].get(int)\n"
    )
    defaults = "audio:\n    volume: 80\n    device: default\nvideo:\n    codec: h264\n"
    page = (
        "Configuration\n=============\n\n- ``audio.volume``: loudness.\n"
        "- ``audio.device``: where.\n- ``video.codec``: which codec.\n\n"
        "Set ``audio.codec`` for lossless sound.\n"
    )
    files = {
        "player/__init__.py": app,
        "player/config_default.yaml": defaults,
        "docs/config.rst": page,
    }
    _, findings = check_project(tmp_path, files, "player")
    assert not [f for f in findings if "is a key of" in f.message]


_WORDS_MODEL = """
from pydantic import BaseModel, ConfigDict


class Output(BaseModel):
    model_config = ConfigDict(extra="forbid")

    log_enable: bool = True


class Gallery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    examples_dirs: list[str] = []
    gallery_dirs: list[str] = []
    log_enabled: bool = True
    max_workers: int = 1
    output: Output = Output()
"""

_WORDS_REFERENCE = """# Configuration

- `examples_dirs` (list): where the examples are.
- `gallery_dirs` (list): where the galleries go.
- `log_enabled` (bool): log the build.
- `max_workers` (int): processes.
- `output.log_enable` (bool): log the output.
"""


def _words(tmp_path, guide: str, discovered: bool = False, **extra: str):
    files = {
        "app/config.py": _WORDS_MODEL,
        "docs/config.md": _WORDS_REFERENCE,
        "docs/guide.md": guide,
        **extra,
    }
    surfaces = None if discovered else {"": "app.config:Gallery"}
    _, findings = check_project(tmp_path, files, "app", surfaces)
    return [
        (f.code, f.key, f.location.path, f.location.line, f.suggestion)
        for f in findings
        if f.message.startswith("the docs name")
    ]


_GUIDE = (
    "# Getting started\n\nSet the examples folder (`'example_dirs'`) and the output\n"
    "folder (`gallery_dirs`).\n"
)


def test_a_name_of_words_one_letter_from_a_key_on_a_guide_is_reported(tmp_path) -> None:
    # The guide has no entries: no surface reads it but for such names.
    assert _words(tmp_path, _GUIDE) == [
        ("CD101", "example_dirs", "docs/guide.md", 3, "did you mean `examples_dirs`?")
    ]


def test_a_name_on_a_page_that_names_no_key_beside_it_is_prose(tmp_path) -> None:
    guide = "# Getting started\n\nSet the examples folder (`example_dirs`).\n"
    assert _words(tmp_path, guide) == []


def test_a_name_on_a_page_of_history_is_no_misspelling(tmp_path) -> None:
    assert _words(tmp_path / "news", "# Guide\n", **{"docs/changelog.md": _GUIDE}) == []
    assert _words(tmp_path / "guide", "# Guide\n", **{"docs/howto.md": _GUIDE}) != []


def test_a_name_the_code_quotes_or_reads_as_an_attribute_is_no_misspelling(tmp_path) -> None:
    quoted = {"app/old.py": 'RENAMED = {"example_dirs": "examples_dirs"}\n'}
    assert _words(tmp_path / "quoted", _GUIDE, **quoted) == []
    read = {"app/old.py": "def f(conf):\n    return conf.example_dirs\n"}
    assert _words(tmp_path / "read", _GUIDE, **read) == []
    # A docstring's word is no key.
    said = {"app/old.py": 'def f(conf):\n    """Reads `example_dirs`."""\n'}
    assert _words(tmp_path / "said", _GUIDE, **said) != []


def test_a_name_that_is_a_key_anywhere_or_another_form_of_one_is_no_misspelling(
    tmp_path,
) -> None:
    guide = (
        "# Guide\n\nSet `gallery_dirs`, then `log_enable` (a key of `output`),\n"
        "`gallery_dir` (one of them), `Max-Workers` and `max_worker`.\n"
    )
    assert _words(tmp_path, guide) == []


def test_a_name_one_letter_from_two_keys_names_neither(tmp_path) -> None:
    guide = "# Guide\n\nSet `gallery_dirs` and `max_workerz`.\n"
    assert [k for _, k, *_ in _words(tmp_path / "one", guide)] == ["max_workerz"]
    model = _WORDS_MODEL + "    max_workerx: int = 2\n"
    files = {"app/config.py": model}
    assert _words(tmp_path / "two", guide, **files) == []
    # One key of each of two sections: `log_enabled` and `output.log_enable`.
    guide = "# Guide\n\nSet `gallery_dirs` and `log_enablez`.\n"
    assert _words(tmp_path / "sections", guide) == []


def test_a_name_another_configuration_has_is_no_misspelling(tmp_path) -> None:
    # A flag whose value the code reads by another name (``dest``): the
    # code neither quotes `example_dirs` nor reads it as an attribute.
    cli = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--example-dirs", dest="dirs")\n'
        '    parser.add_argument("--epochs", type=int, default=10)\n'
        '    parser.add_argument("--verbose", action="store_true")\n'
        "    args = parser.parse_args()\n    print(args.dirs, args.epochs, args.verbose)\n"
    )
    page = "# Command line\n\n- `--example-dirs`: the examples.\n- `--epochs` (int): passes.\n"
    files = {"app/cli.py": cli, "docs/cli.md": page + "- `--verbose`: say more.\n"}
    assert _words(tmp_path, _GUIDE, discovered=True, **files) == []


def test_names_of_words_in_code_spans_are_mentions() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    md = "# A\n\nSet `'example_dirs'`, `--in-place`, `--extras`, `LOG_ENABLE`, `words`, `a_b`, `--ab` and `-v`.\n"
    assert [n for n, _ in extract_markdown(md.encode()).mentions] == [
        "example_dirs",
        "--in-place",
        "--extras",
        "LOG_ENABLE",
        "--ab",  # a long flag of any length: a flag the prose names
    ]
    rst = "A\n=\n\nSet ``example_dirs`` and ``short``.\n"
    assert extract_rst(rst.encode()).mentions == [("example_dirs", 4)]


def test_the_pages_read_for_misspellings_spell_a_name_one_letter_from_a_key(tmp_path) -> None:
    from configdrift.index.pages import misspelling_pages

    pages = {
        "left_out.md": "Set `example_dirs`.",
        "added.md": "Set --max-workerss.",
        "changed.md": "Set LOG_ENABLEX=1.",
        "exact.md": "Set `examples_dirs` and `max_workers`.",
        "far.md": "Set `example_dir` and `mx_workrs`.",
        "short.md": "Set `a_bc` for `a_b`.",
        "joined.md": "Set LOGENABLED, a word of prose.",
    }
    for name, text in pages.items():
        (tmp_path / name).write_text(text)
    keys = ["examples_dirs", "--max-workers", "LOG_ENABLED", "a_bc", "plain"]
    assert misspelling_pages(tmp_path, sorted(pages), keys) == [
        "added.md",
        "changed.md",
        "left_out.md",
    ]


@pytest.mark.parametrize(
    ("named", "key"),
    [
        ("collected_imported_tests", "collect_imported_tests"),
        ("sort_imported_keys", "sorting_imported_keys"),
    ],
)
def test_a_name_with_one_word_in_another_form_is_a_misspelling(tmp_path, named, key) -> None:
    model = _WORDS_MODEL + f"    {key}: bool = True\n"
    reference = _WORDS_REFERENCE + f"- `{key}` (bool): tests.\n\nSet `{named}` to false.\n"
    found = _words(tmp_path, "# Guide\n", **{"app/config.py": model, "docs/config.md": reference})
    assert found == [("CD101", named, "docs/config.md", 10, f"did you mean `{key}`?")]


@pytest.mark.parametrize(
    "named",
    [
        # Two words in another form, or a word's plural: another name.
        "collecting_imported_test",
        "collect_imported_testings",
        # A stem too short to be a word's.
        "collect_imported_ted",
    ],
)
def test_a_name_with_more_than_one_word_changed_is_no_misspelling(tmp_path, named) -> None:
    model = _WORDS_MODEL + "    collect_imported_tests: bool = True\n"
    reference = _WORDS_REFERENCE + f"- `collect_imported_tests` (bool): tests.\n\nSet `{named}`.\n"
    found = _words(tmp_path, "# Guide\n", **{"app/config.py": model, "docs/config.md": reference})
    assert found == []


def test_the_forms_of_a_name_with_one_word_put_back_to_its_stem() -> None:
    from configdrift.index.spellings import inflected

    assert inflected("collected_imported_tests") == {
        "collect_imported_tests",
        "collecte_imported_tests",
        "collected_import_tests",
        "collected_importe_tests",
    }
    assert inflected("ignored-checks") == {"ignore-checks", "ignor-checks"}
    assert inflected("sorting_keys") == {"sort_keys"}
    # A single word, or a word whose stem would be too short.
    assert inflected("collected") == set()
    assert inflected("red_key") == set()
