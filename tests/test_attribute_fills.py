"""A plain class a loop fills by name behind ``hasattr`` (``if
hasattr(cfg, key): setattr(cfg, key, value)``) is a configuration its
loader fills: three documented attributes are evidence enough, and where
every such loop raises on a name the class lacks, it is strict."""

from __future__ import annotations

import ast

from configdrift.extract.python.attribute_fills import attribute_fills
from helpers import by_key, check_project

_CONFIG = """
import tomllib


class Config:
    host = "localhost"
    port = 8080
    debug = False
    workers = 4
    log_file = None
    retries = 3


def load(path):
    cfg = Config()
    with open(path, "rb") as f:
        data = tomllib.load(f)
    for key, value in data.items():
        if hasattr(cfg, key):
            setattr(cfg, key, value)
        else:
            raise ValueError(f"unknown option {key}")
    return cfg
"""

_PAGE = """# Configuration

The file `app.toml` sets:

- `host`: the address. Default: `localhost`.
- `port`: the port. Default: `8000`.
- `workers`: how many workers. Default: `4`.
- `timeout`: request timeout. Default: `30`.
"""


def _check(tmp_path, config: str = _CONFIG, page: str = _PAGE):
    files = {"app/config.py": config, "docs/config.md": page}
    return check_project(tmp_path, files, "app")


def _fills(source: str) -> list[tuple[str, str, bool, int]]:
    tree = ast.parse(source)
    return [
        fill
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for fill in attribute_fills(node, node.name)
    ]


def test_a_class_a_raising_loop_fills_is_strict(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "Config" in [s.surface for s in analysis.everything]
    found = by_key(findings)
    error = found[("CD101", "timeout")]
    assert error.severity == "error"
    assert [(r.path, r.line, r.note) for r in error.related] == [
        ("app/config.py", 5, "Config declares the accepted keys"),
        ("app/config.py", 18, "the loop of `load` that fills it forbids unknown keys"),
    ]
    assert "the code's default is 8080" in found[("CD104", "port")].message


def test_a_loop_that_skips_a_name_the_class_lacks_leaves_it_open(tmp_path) -> None:
    lenient = _CONFIG.replace('raise ValueError(f"unknown option {key}")', "continue")
    analysis, findings = _check(tmp_path, lenient)
    assert "Config" in [s.surface for s in analysis.everything]
    assert ("CD101", "timeout") not in by_key(findings)
    assert ("CD104", "port") in by_key(findings)


def test_one_lenient_loop_leaves_it_open(tmp_path) -> None:
    other = (
        "def merge(data):\n"
        "    cfg = Config()\n"
        "    for key, value in data.items():\n"
        "        if hasattr(cfg, key):\n"
        "            setattr(cfg, key, value)\n\n\n"
    )
    # Before the strict one and after it alike.
    _, findings = _check(tmp_path, _CONFIG.replace("def load(path):", other + "def load(path):"))
    assert ("CD101", "timeout") not in by_key(findings)
    _, findings = _check(tmp_path, _CONFIG + "\n\n" + other)
    assert ("CD101", "timeout") not in by_key(findings)


def test_without_a_loop_three_documented_attributes_are_no_evidence(tmp_path) -> None:
    unfilled = _CONFIG.split("def load")[0]
    analysis, findings = _check(tmp_path, unfilled)
    assert "Config" not in [s.surface for s in analysis.everything]
    assert not {f.code for f in findings} & {"CD101", "CD103", "CD104"}


def test_the_guards_a_fill_takes() -> None:
    assert _fills(_CONFIG) == [("load", "Config", True, 18)]
    # ``if not hasattr(...): raise`` before the ``setattr``.
    early = """
def update(self, data):
    for key in data:
        if not hasattr(self, key):
            raise KeyError(key)
        setattr(self, key, data[key])
"""
    assert _fills(early) == [("update", "self", True, 3)]
    # Skipped, not refused: the class takes no more, but fails on none.
    assert _fills(early.replace("raise KeyError(key)", "continue"))[0][2] is False
    # A test that guards something else than the ``setattr`` after it.
    unguarded = early.replace("if not hasattr(self, key):", "if hasattr(self, key):")
    assert not _fills(unguarded)
    # A class method's ``cls()`` is the class it is a method of.
    assert _fills(_CONFIG.replace("cfg = Config()", "cfg = cls()"))[0][1] == "self"
    # Not guarded by the name it sets.
    assert not _fills(_CONFIG.replace("hasattr(cfg, key)", "hasattr(cfg, value)"))
    # Another object set than the one tested.
    assert not _fills(_CONFIG.replace("setattr(cfg, key", "setattr(other, key"))
    # An object handed in: its class is not known.
    assert not _fills(_CONFIG.replace("def load(path):", "def load(path, cfg):"))
    # Bound twice: which class is not known.
    assert not _fills(_CONFIG.replace("    return cfg", "    cfg = Other()\n    return cfg"))


_INIT = """
    def __init__(self):
        self.host = "localhost"
        self.port = 8080
        self.debug = False
        self.workers = 4
        self.log_file = None
        self.retries = make_retries()
"""


def test_the_literal_values_a_filled_class_starts_with_are_its_attributes(tmp_path) -> None:
    body = '    host = "localhost"\n    port = 8080\n    debug = False\n'
    body += "    workers = 4\n    log_file = None\n    retries = 3\n"
    config = _CONFIG.replace(body, _INIT.lstrip("\n"))
    analysis, findings = _check(tmp_path, config)
    surface = next(s for s in analysis.everything if s.surface == "Config")
    # A computed value (a call) is no attribute it is known to start with.
    assert sorted(surface.schema.children) == ["debug", "host", "log_file", "port", "workers"]
    found = by_key(findings)
    assert found[("CD104", "port")].related[0].line == 8
    assert ("CD101", "timeout") in found


def test_an_unfilled_class_is_not_read_for_what_its_init_sets(tmp_path) -> None:
    body = '    host = "localhost"\n    port = 8080\n    debug = False\n'
    body += "    workers = 4\n    log_file = None\n    retries = 3\n"
    config = _CONFIG.replace(body, _INIT.lstrip("\n")).split("def load")[0]
    # Five documented: enough for a class's own body, not for its __init__.
    page = _PAGE + "- `debug`: debug mode.\n- `log_file`: the log.\n"
    analysis, _ = _check(tmp_path, config, page)
    assert "Config" not in [s.surface for s in analysis.everything]
