"""A plain class of attributes (no model library declares it) is a surface
where a configuration reference page documents most of them: its
attributes are the keys, their values the defaults; a plain object takes
any attribute, so a documented key it lacks is never judged."""

from __future__ import annotations

from helpers import by_key, check_project

_NAMES = ("backlog", "certfile", "ciphers", "debug", "workers", "umask")

_CONFIG = (
    "class Base:\n    workers = 1\n\n\n"
    "class Config(Base):\n"
    "    _bind = ['127.0.0.1:8000']\n"
    "    backlog = 100\n"
    "    certfile: str | None = None\n"
    '    ciphers: str = "ECDHE"\n'
    "    debug = False\n"
    "    umask: int | None = None\n"
    "    daemon = True\n\n"
    "    def set_reqs(self, value):\n        self.reqs = value\n\n"
    "    reqs = property(None, set_reqs)\n"
)


def _table(rows: list[tuple[str, str]]) -> str:
    width = 20
    rule = "=" * width + " " + "=" * width
    body = "".join(f"{name.ljust(width)} {default}\n" for name, default in rows)
    return (
        "Configuration\n=============\n\n"
        + f"{rule}\n{'Attribute'.ljust(width)} Default\n{rule}\n{body}{rule}\n"
    )


def _rows(names: tuple[str, ...]) -> list[tuple[str, str]]:
    defaults = {"backlog": "100", "debug": "``False``", "workers": "1"}
    return [(name, defaults.get(name, "")) for name in names]


def test_a_plain_class_its_reference_page_documents_is_a_surface(tmp_path) -> None:
    rows = [*_rows(_NAMES), ("bind", ""), ("reqs", "")]
    rows[0] = ("backlog", "50")
    files = {"app/config.py": _CONFIG, "docs/configuring.rst": _table(rows)}
    analysis, findings = check_project(tmp_path, files, "app")
    surfaces = {s.surface: s for s in analysis.everything}
    surface = surfaces["Config"]
    # A base's attributes are the class's; private ones and computed ones
    # (``property(...)``) are not keys.
    assert set(surface.schema.children) == {*_NAMES, "daemon"}
    assert surface.schema.strict is None
    # The annotation types an attribute, else its value does.
    assert surface.schema.children["umask"].type.kinds == {"int", "null"}
    assert surface.schema.children["backlog"].type.kinds == {"int"}
    assert surface.schema.children["certfile"].type.text == "str | None"
    found = by_key(findings)
    assert ("CD103", "daemon") in found
    assert found[("CD103", "daemon")].location.line == 12
    assert "50" in found[("CD104", "backlog")].message
    # A documented key the class lacks (a property's setter, a computed
    # attribute) is not judged: a plain object takes any attribute.
    assert not [k for k in found if k[1] in ("bind", "reqs")]
    assert ("CD104", "debug") not in found


def test_four_documented_attributes_are_not_enough(tmp_path) -> None:
    files = {"app/config.py": _CONFIG, "docs/configuring.rst": _table(_rows(_NAMES[:4]))}
    analysis, findings = check_project(tmp_path, files, "app")
    assert "Config" not in {s.surface for s in analysis.everything}
    assert ("CD103", "daemon") not in by_key(findings)


def test_a_page_that_documents_less_than_half_is_no_evidence(tmp_path) -> None:
    config = _CONFIG + "".join(f"    extra_{i} = {i}\n" for i in range(9))
    files = {"app/config.py": config, "docs/configuring.rst": _table(_rows(_NAMES))}
    analysis, _ = check_project(tmp_path, files, "app")
    assert "Config" not in {s.surface for s in analysis.everything}


def test_a_page_that_is_no_configuration_reference_is_no_evidence(tmp_path) -> None:
    files = {"app/config.py": _CONFIG, "docs/tutorial.rst": _table(_rows(_NAMES))}
    analysis, _ = check_project(tmp_path, files, "app")
    assert "Config" not in {s.surface for s in analysis.everything}


def test_a_model_is_no_plain_class(tmp_path) -> None:
    # A dataclass's unannotated attributes are no fields: its model reader
    # says what it takes, never this mechanism.
    model = "from dataclasses import dataclass\n\n\n@dataclass\n" + _CONFIG.split("\n\n\n", 1)[1]
    files = {"app/config.py": model, "docs/configuring.rst": _table(_rows(_NAMES))}
    analysis, _ = check_project(tmp_path, files, "app")
    assert all(s.schema.model_kind != "attributes" for s in analysis.everything)


_OPTIONS = (
    "class Option:\n    def __init__(self, default=None, help=''):\n        self.default = default\n\n\n"
    "class IntOption(Option):\n    pass\n\n\n"
    "class Base:\n    workers = 1\n    daemon = True\n    timeout = 30\n    keepalive = 2\n\n\n"
    "class Config(Base):\n"
    "    backlog = IntOption(default=100)\n"
    "    certfile = Option(help='the certificate')\n"
    "    ciphers = Option(default='ECDHE')\n"
    "    debug = Option(default=False)\n"
    "    umask = IntOption()\n"
    "    started = time.time()\n"
)


def test_a_class_of_option_objects_is_no_plain_class(tmp_path) -> None:
    # Its own values are calls of the project's option classes: the calls
    # hold the defaults, not the attributes' values (a base's plain
    # attributes do not make it one).
    files = {
        "app/config.py": "import time\n\n" + _OPTIONS,
        "docs/configuring.rst": _table(_rows(_NAMES)),
    }
    analysis, findings = check_project(tmp_path, files, "app")
    assert all(s.schema.model_kind != "attributes" for s in analysis.everything)
    assert ("CD103", "daemon") not in by_key(findings)


def test_a_class_with_a_few_option_objects_is_still_a_plain_class(tmp_path) -> None:
    # Most of its own values are plain: a call or two of the project's
    # classes among them does not make it a class of option objects.
    config = _CONFIG.replace("    debug = False\n", "    debug = Flag()\n")
    config = "class Flag:\n    pass\n\n\n" + config
    files = {"app/config.py": config, "docs/configuring.rst": _table(_rows(_NAMES))}
    analysis, _ = check_project(tmp_path, files, "app")
    assert "Config" in {s.surface for s in analysis.everything}


_SERVER = """
class Config:
    def __init__(
        self,
        app,
        host: str = "127.0.0.1",
        port: int = 8000,
        workers: int = 1,
        backlog: int = 2048,
        log_level: str = "info",
        reload=False,
        timeout_keep_alive: int = 5,
    ):
        self.app = app
        self.host = host
        self.port = port
        self.workers = workers
        self.backlog = backlog
        self.log_level = log_level
        self.reload_enabled = reload
        self.timeout_keep_alive = timeout_keep_alive
        self.started = False


class Runner:
    def __init__(self, reload=True):
        self.reload = reload
"""


def test_a_class_that_keeps_its_constructors_keywords_is_a_surface(tmp_path) -> None:
    # uvicorn's shape: the keywords ``__init__`` takes and keeps as
    # attributes of the same name are the keys, with its defaults.
    rows = [
        ("host", "127.0.0.1"),
        ("port", "8080"),
        ("workers", "1"),
        ("backlog", "2048"),
        ("log_level", "info"),
    ]
    files = {"app/config.py": _SERVER, "docs/settings.rst": _table(rows)}
    analysis, findings = check_project(tmp_path, files, "app")
    surface = {s.surface: s for s in analysis.everything}["Config"]
    # ``app`` has no default, ``reload`` is kept under another name (the
    # ``Runner`` beside keeps its own) and ``started`` is no keyword: none
    # of them is a key.
    assert set(surface.schema.children) == {*(r[0] for r in rows), "timeout_keep_alive"}
    assert surface.schema.children["port"].type.kinds == {"int"}
    found = by_key(findings)
    assert "8000" in found[("CD104", "port")].message
    assert found[("CD103", "timeout_keep_alive")].location.line == 21
