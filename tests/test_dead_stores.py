"""A documented environment variable the code reads only to keep its
value on ``self`` under a name nothing reads is CD102: setting it does
nothing. Never where the value is read: through the object, by the class
itself, by a name built at run time, or by another read that uses it."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_SETTINGS = """
import os


class Settings:
    def __init__(self):
        self.APP_PORT = int(os.getenv("APP_PORT", "80"))
        self.APP_HOST = os.getenv("APP_HOST", "localhost")
        self.APP_TIMEOUT = int(
            os.getenv("APP_TIMEOUT", "30")
        )
        self.APP_WORKERS = os.getenv("APP_WORKERS", "2")


def serve(settings):
    return settings.APP_PORT, settings.APP_HOST, settings.APP_WORKERS
"""

_PAGE = """# Environment

| Variable | Default |
| --- | --- |
| `APP_PORT` | `80` |
| `APP_HOST` | `localhost` |
| `APP_TIMEOUT` | `30` |
| `APP_WORKERS` | `2` |
"""


def _found(tmp_path, code: str = _SETTINGS) -> dict:
    _, findings = check_project(tmp_path, {"app/settings.py": code, "docs/env.md": _PAGE}, "app")
    return {k: f for (c, k), f in by_key(findings).items() if c == "CD102"}


def test_a_variable_kept_where_nothing_reads_it_is_read_by_nothing(tmp_path) -> None:
    found = _found(tmp_path)
    assert set(found) == {"APP_TIMEOUT"}
    finding = found["APP_TIMEOUT"]
    assert (finding.location.path, finding.location.line) == ("docs/env.md", 7)
    assert "only into `self.APP_TIMEOUT`, which nothing reads" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("app/settings.py", 10)


@pytest.mark.parametrize(
    "reader",
    [
        # Through the object, or by the class itself.
        "\n\ndef timeout(settings):\n    return settings.APP_TIMEOUT\n",
        "\n\nclass Late(Settings):\n    def wait(self):\n        return self.APP_TIMEOUT\n",
        # By a name built at run time.
        '\n\ndef get(settings, name):\n    return getattr(settings, f"APP_{name}")\n',
        # Or another read uses the value as it is.
        '\n\nLIMIT = os.getenv("APP_TIMEOUT")\n',
    ],
)
def test_a_variable_whose_value_is_read_is_not_reported(tmp_path, reader) -> None:
    assert _found(tmp_path, _SETTINGS + reader) == {}


#: Settings kept under names of their own, and a name built at run time
#: on another object: a request's fields.
_NAMED = """
import os


class Settings:
    def __init__(self):
        self.port = int(os.getenv("APP_PORT", "80"))
        self.host = os.getenv("APP_HOST", "localhost")
        self.timeout = int(os.getenv("APP_TIMEOUT", "30"))
        self.workers = os.getenv("APP_WORKERS", "2")


def serve(settings):
    return settings.port, settings.host, settings.workers


def describe(req, name):
    return req.method, req.path, getattr(req, f"{name}")
"""


def test_a_name_built_on_another_object_leaves_the_variable_judged(tmp_path) -> None:
    assert set(_found(tmp_path, _NAMED)) == {"APP_TIMEOUT"}
    # Unless the code quotes the attribute's name: it may be the one built.
    assert _found(tmp_path / "quoted", _NAMED + '\nFIELDS = ["timeout"]\n') == {}
    # A name built on the settings' object may be it.
    on_settings = _NAMED.replace("getattr(req,", "getattr(settings,").replace(
        "def describe(req,", "def describe(settings, req,"
    )
    assert _found(tmp_path / "settings", on_settings) == {}
    # Kept by a function of no class: any object's built name may read it.
    classless = _NAMED.replace("class Settings:\n    def __init__(self):", "def init(self):")
    classless = classless.replace("\n        self.", "\n    self.")
    assert _found(tmp_path / "classless", classless) == {}
