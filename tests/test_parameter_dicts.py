"""A dict a function takes as a parameter and reads key by key, each key
optional, is a configuration where the docs' examples set three of its
keys and half (a settings module a command loads and hands to a helper):
a key it reads that no example sets is undocumented, and a key an example
sets beside its keys that no file of the project spells in any form is
silently ignored. Never a record's dict (its keys required), never keys
an example sets that some code spells, never a block of another
program's settings."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.markdown import extract_markdown
from configdrift.extract.docs.python_config import block_language
from configdrift.extract.docs.rst import extract_rst
from configdrift.rules.evidence import keys_read
from configdrift.rules.unspelled import key_parts
from helpers import by_key, check_project

_HELPERS = """
def read_settings(module):
    import importlib
    return {k: v for k, v in vars(importlib.import_module(module)).items() if k.isupper()}


def connect(settings):
    if settings.get("STORE_URL") is not None:
        return settings["STORE_URL"]
    return (
        settings.get("STORE_HOST", "localhost"),
        settings.get("STORE_PORT", 7000),
        settings.get("STORE_DB", 0),
        settings.get("STORE_PASSWORD", None),
        settings.get("STORE_TLS", False),
        settings.get("STORE_TLS_KEYFILE", None),
    )
"""

_COMMAND = """
from app.helpers import connect, read_settings


def worker(config):
    settings = read_settings(config)
    queues = settings.get("QUEUES", ["default"])
    return connect(settings), queues
"""

_PAGE = """# Workers

Put the settings in a module:

```python
STORE_URL = 'store://localhost:7000/1'
QUEUES = ['high', 'default']
METRICS_DSN = 'http://public@example.com/1'
```

## Over TLS

The settings module looks like:

```console
STORE_HOST = "host"
STORE_PORT = 7001
STORE_PASSWORD = "secret"
STORE_TLS = True
STORE_DB = 0
```
"""


def _check(tmp_path, **files: str):
    base = {"app/helpers.py": _HELPERS, "app/worker.py": _COMMAND, "docs/workers.md": _PAGE}
    return check_project(tmp_path, {**base, **files}, "app")


def _surfaces(analysis) -> list[str]:
    return [s.surface for s in analysis.everything]


def test_a_parameter_dict_the_examples_set_is_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "connect(settings)" in _surfaces(analysis)
    found = by_key(findings)
    # Read, but set by no example: undocumented.
    assert ("CD103", "STORE_TLS_KEYFILE") in found
    assert not [k for c, k in found if c == "CD103" and k != "STORE_TLS_KEYFILE"]
    # Set beside its keys, and spelt by no code: ignored, with both sides.
    ignored = found[("CD302", "METRICS_DSN")]
    assert ignored.location.path == "docs/workers.md"
    assert ignored.related[0].path == "app/helpers.py"
    # Set beside them too, but read by another command: not judged.
    assert ("CD302", "QUEUES") not in found
    # Each of its keys is seen read, where the helper reads it.
    surface = next(s for s in analysis.everything if s.surface == "connect(settings)")
    assert keys_read(surface) == 7
    port = surface.schema.children["STORE_PORT"]
    assert [(r.location.path, r.function) for r in port.reads] == [("app/helpers.py", "connect")]


def test_a_key_some_code_spells_is_not_said_to_be_ignored(tmp_path) -> None:
    # The key is read where static analysis does not follow the dict.
    sentry = "def setup(s):\n    return s.metrics_dsn\n"
    _, findings = _check(tmp_path, **{"app/metrics.py": sentry})
    assert ("CD302", "METRICS_DSN") not in by_key(findings)


def test_a_block_of_another_programs_settings_is_not_judged(tmp_path) -> None:
    # Two keys of three are spelt nowhere: the block is not this project's.
    page = _PAGE.replace("QUEUES = ['high', 'default']", "INSTALLED_APPS = ['store']")
    _, findings = _check(tmp_path, **{"docs/workers.md": page})
    found = by_key(findings)
    assert ("CD302", "METRICS_DSN") not in found
    assert ("CD302", "INSTALLED_APPS") not in found


def test_a_key_read_by_a_computed_name_is_not_said_to_be_ignored(tmp_path) -> None:
    helpers = _HELPERS + '\n\ndef extra(settings, name):\n    return settings.get(f"{name}_DSN")\n'
    _, findings = _check(tmp_path, **{"app/helpers.py": helpers})
    assert ("CD302", "METRICS_DSN") not in by_key(findings)


def test_a_records_dict_is_no_configuration(tmp_path) -> None:
    # Three keys of seven read by ``d[KEY]`` alone: required, as a lock
    # file's entry or a request's scope requires them, though the others
    # fall back on defaults.
    helpers = _HELPERS.replace('settings.get("STORE_URL") is not None', 'settings["STORE_URL"]')
    for key in ("STORE_PASSWORD", "STORE_TLS_KEYFILE"):
        helpers = helpers.replace(f'settings.get("{key}", None)', f'settings["{key}"]')
    analysis, findings = _check(tmp_path, **{"app/helpers.py": helpers})
    assert "connect(settings)" not in _surfaces(analysis)
    assert not [k for c, k in by_key(findings) if c in ("CD103", "CD302")]
    # One key required of seven is a configuration's.
    helpers = _HELPERS.replace('settings.get("STORE_PASSWORD", None)', 'settings["STORE_PASSWORD"]')
    analysis, _ = _check(tmp_path, **{"app/helpers.py": helpers})
    assert "connect(settings)" in _surfaces(analysis)


def test_a_dict_no_example_sets_half_of_is_no_configuration(tmp_path) -> None:
    page = _PAGE[: _PAGE.index("## Over TLS")]
    analysis, _ = _check(tmp_path, **{"docs/workers.md": page})
    assert "connect(settings)" not in _surfaces(analysis)


def test_a_settings_module_labelled_as_a_console_is_read_as_python() -> None:
    text = 'STORE_HOST = "host"\nSTORE_PORT = 7001\n'
    assert block_language("console", text) == "python"
    assert block_language("", text) == "python"
    assert block_language("text", "# the store\n" + text) == "python"
    # A shell's or a .env file's assignments have no spaces around ``=``.
    assert block_language("console", "STORE_HOST=host\nSTORE_PORT=7001\n") == "console"
    assert block_language("bash", 'STORE_HOST = "host"\nrq worker\n') == "bash"
    assert block_language("console", 'STORE_HOST = "host"\n') == "console"
    # A block in a language of its own is never reread.
    assert block_language("yaml", text) == "yaml"
    facts = extract_markdown(b"# Settings\n\n```console\n" + text.encode() + b"```\n")
    assert [k.path for b in facts.blocks for k in b.keys] == [("STORE_HOST",), ("STORE_PORT",)]
    rst = b"Settings\n========\n\nThe module::\n\n    " + text.replace("\n", "\n    ").encode()
    facts = extract_rst(rst)
    assert [k.path for b in facts.blocks for k in b.keys] == [("STORE_HOST",), ("STORE_PORT",)]


def test_an_untagged_dict_assignment_that_elides_keys_is_read_as_python() -> None:
    """``conf = {\n    ...\n    'key': 1,\n}``: the ``...`` line stands for the
    keys the example leaves out; the block is still a dict assignment."""
    text = "gallery_conf = {\n    ...\n    'capture_repr': (),\n    'min_reported_time': 5,\n}\n"
    assert block_language("", text) == "python"
    assert block_language("", text.replace("    ...\n", "    ...,\n")) == "python"
    rst = b"Settings\n========\n\nSet it::\n\n    " + text.replace("\n", "\n    ").encode()
    facts = extract_rst(rst)
    assert [k.path for b in facts.blocks for k in b.keys] == [
        ("capture_repr",),
        ("min_reported_time",),
    ]
    # A line of prose with ``...`` in it is no elision.
    assert block_language("", text.replace("    ...\n", "    and so on ...\n")) == ""


def test_a_block_that_sets_none_of_the_surfaces_options_is_not_judged(tmp_path) -> None:
    # QUEUES is spelt by the code, METRICS_DSN nowhere, but nothing in the
    # block is an option the surface reads.
    page = _PAGE.replace("STORE_URL = 'store://localhost:7000/1'", "WORKER_NAME = 'w'")
    command = _COMMAND + '\n\ndef named(settings):\n    return settings.get("WORKER_NAME")\n'
    _, findings = _check(tmp_path, **{"docs/workers.md": page, "app/worker.py": command})
    assert ("CD302", "METRICS_DSN") not in by_key(findings)


def test_a_key_spelt_in_a_file_not_searched_may_be_read_there(tmp_path) -> None:
    # A Python file too large to search may spell it: nothing is said.
    big = "# " + "x" * (2 << 20) + "\n"
    _, findings = _check(tmp_path, **{"app/vendored.py": big})
    assert ("CD302", "METRICS_DSN") not in by_key(findings)


@pytest.mark.parametrize(
    ("expr", "parts"),
    [
        (["c", "STORE_HOST"], ("STORE_HOST",)),
        (["src", 'f"{name}_DSN"'], ("", "_DSN")),
        (["b", "+", ["c", "PRE_"], ["n", "name"]], ("PRE_", "")),
        (["b", "%", ["c", "X_%s_%(k)s"], ["n", "name"]], ("X_", "_", "")),
        (["n", "name"], ("", "")),
        (["call", "f"], None),
        (["c", 3], None),
    ],
)
def test_the_literal_parts_of_a_built_key(expr, parts) -> None:
    assert key_parts(expr) == parts


def test_a_block_of_two_keys_is_too_small_to_judge(tmp_path) -> None:
    page = _PAGE.replace("QUEUES = ['high', 'default']\n", "")
    _, findings = _check(tmp_path, **{"docs/workers.md": page})
    assert ("CD302", "METRICS_DSN") not in by_key(findings)


def test_a_name_read_with_no_literal_part_does_not_silence(tmp_path) -> None:
    # ``getattr(module, name)`` and ``d[key]`` read a value the code got
    # elsewhere, spelt where it is set: they may be any key, and say nothing.
    loader = (
        "def load(module, name):\n    return getattr(module, name)\n\n\n"
        "def pick(d, key):\n    return d[key]\n"
    )
    _, findings = _check(tmp_path, **{"app/loader.py": loader})
    assert ("CD302", "METRICS_DSN") in by_key(findings)
