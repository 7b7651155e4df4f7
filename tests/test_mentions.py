"""Dotted names the docs' prose spells in code that no configuration has,
where one part is a near spelling of a key (rules/mentions)."""

from __future__ import annotations

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
