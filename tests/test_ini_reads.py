"""Options read from an INI file section by section (configparser's
``parser.getint("server", "port", fallback=8000)``): a lenient surface of
sections, each key with the read's default and the getter's type."""

from __future__ import annotations

from helpers import by_key, check_project

_CODE = """
import configparser


def load(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    host = parser.get("server", "host", fallback="127.0.0.1")
    port = parser.getint("server", "port", fallback=8000)
    workers = parser.getint("server", "workers", fallback=2)
    level = parser.get("logging", "level")
    fmt = parser.get("logging", "log-format", fallback="%(message)s")
    path = parser.get("storage", "path", fallback="/var/lib/srv")
    return host, port, workers, level, fmt, path
"""

_PAGE = """# Configuration

## `[server]`

| Key | Default | Description |
|---|---|---|
| `host` | `127.0.0.1` | Bind address |
| `port` | `8080` | Port |
| `workers` | `2` | Workers |
| `timeout` | `30` | Timeout |

## `[logging]`

| Key | Default | Description |
|---|---|---|
| `level` | `INFO` | Level |
| `log_format` | `%(message)s` | Format |

```ini
[server]
host = 0.0.0.0
worker = 4
```
"""


def _found(tmp_path, code: str = _CODE, **more: str) -> tuple:
    files = {"srv/config.py": code, "docs/configuration.md": _PAGE, **more}
    return check_project(tmp_path, files, "srv")


def test_options_read_by_section_are_a_surface(tmp_path) -> None:
    analysis, findings = _found(tmp_path)
    surface = {s.surface: s for s in analysis.everything}["ini"]
    assert set(surface.schema.children) == {"server", "logging", "storage"}
    assert surface.schema.children["server"].children["port"].type.kinds == {"int"}
    found = by_key(findings)
    assert "8000" in found["CD104", "server.port"].message
    assert ("CD102", "server.timeout") in found
    assert found["CD302", "server.worker"].suggestion == "the code reads `workers`"
    assert ("CD103", "storage") in found
    # A parser may take ``log_format`` for ``log-format``: no finding.
    assert not [k for k in found if "format" in k[1]]


def test_only_a_parser_for_certain_is_read(tmp_path) -> None:
    # ``data.get("server", "x")`` of a dict is a default, not a section:
    # without a ``fallback=``, a typed getter, a third default or a
    # ``ConfigParser`` bound to the receiver, nothing is read.
    code = "def load(data):\n" + "".join(
        f'    data.get("{section}", "{key}")\n'
        for section, key in (("server", "host"), ("server", "port"), ("logging", "level"))
    )
    analysis, _ = _found(tmp_path, code)
    assert "ini" not in {s.surface for s in analysis.everything}


def test_a_section_read_under_a_computed_name_opens_the_others(tmp_path) -> None:
    # ``get(self.version, "driver-cores", None)``: any section's option, so
    # a documented option a section lacks may be read that way.
    more = "\n\ndef spark(self, parser):\n    return parser.get(self.version, 'cores', None)\n"
    _, findings = _found(tmp_path, _CODE + more)
    found = by_key(findings)
    assert ("CD102", "server.timeout") not in found
    assert ("CD104", "server.port") in found


def test_a_section_another_surface_reads_is_open(tmp_path) -> None:
    # The file's ``[server]`` table read key by key elsewhere reads what the
    # getters lack.
    reader = (
        "import tomllib\n\n\ndef read(path):\n"
        "    with open(path, 'rb') as f:\n        data = tomllib.load(f)\n"
        "    server = data['server']\n"
        "    return server['timeout'], server['host'], server['port'], server['bind']\n"
    )
    analysis, findings = _found(tmp_path, **{"srv/toml_conf.py": reader})
    ini = {s.surface: s for s in analysis.everything}["ini"]
    assert ini.schema.children["server"].strict is None
    assert ini.schema.children["logging"].strict is False
    assert ("CD102", "server.timeout") not in by_key(findings)


def test_the_environment_read_by_a_helper_is_no_ini_option() -> None:
    # ``os.environ.get(name, "")``: a variable the helper's callers name.
    from configdrift.extract.python.extractor import extract_source

    facts = extract_source("import os\n\n\ndef flag(name):\n    return os.environ.get(name, '')\n")
    assert [call.method for call in facts.registrations] == ["env"]


def test_an_option_the_code_warns_is_deprecated_by_its_dotted_path_needs_no_entry(tmp_path) -> None:
    code = _CODE.replace(
        "    return host,",
        '    if parser.get("server", "legacy-dir", fallback=None):\n'
        '        warnings.warn("The server.legacy-dir option is deprecated")\n'
        "    return host,",
    )
    _, findings = _found(tmp_path, "import warnings\n" + code)
    found = by_key(findings)
    assert ("CD103", "server.legacy-dir") not in found
    assert ("CD103", "storage") in found
