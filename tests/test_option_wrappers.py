"""Options a project's own helper declares for its caller
(``extract.python.wrappers``): ``add_flag("--port", 8000, "Port.")`` is
the ``parser.add_argument(flag, default=default, help=help)`` its body
makes, with the caller's arguments in place of its parameters."""

from __future__ import annotations

from helpers import by_key, check_project

_HELPER = """
def add_flag(flag, default, help, **kwargs):
    parser.add_argument(flag, default=default, help=help, **kwargs)
"""

_CALLS = """
add_flag("--host", "localhost", "Host to bind.")
add_flag("--port", 8000, "Port to bind.", type=int)
add_flag("--workers", 1, "Worker count.", type=int)
add_flag("--reload", False, "Reload on change.", action="store_true")
"""


def _indented(text: str) -> str:
    return "".join(f"    {line}\n" if line else "\n" for line in text.splitlines())


# The helper defined in the function that makes the parser, called there.
_LOCAL = (
    "import argparse\n\n\ndef build():\n    parser = argparse.ArgumentParser()\n"
    + _indented(_HELPER)
    + _indented(_CALLS)
    + "    return parser\n"
)

_DOCS = """
# Usage

## Options

- `--host`: Host to bind. Default: `localhost`.
- `--port`: Port to bind. Default: `8080`.
- `--workers`: Worker count. Default: `1`.
- `--timeout`: Seconds to wait. Default: `30`.
"""


def _check(tmp_path, code: str):
    return check_project(tmp_path, {"app/cli.py": code, "docs/usage.md": _DOCS}, "app")


def test_each_call_of_a_local_helper_declares_what_its_body_declares(tmp_path) -> None:
    analysis, findings = _check(tmp_path, _LOCAL)
    options = analysis.schema.children
    assert {"host", "port", "workers", "reload"} <= set(options)
    # The default given in the helper's second place, the type through **kwargs.
    assert options["port"].default.value == 8000
    assert options["port"].type.text == "int"
    found = by_key(findings)
    assert "8000" in found[("CD104", "--port")].message
    assert ("CD103", "--reload") in found
    # Every use of the helper is a call that declares: the parser's keys
    # are all known, so an option no call declares is refused.
    assert found[("CD101", "--timeout")].severity == "error"


def test_a_helper_used_otherwise_than_called_leaves_the_parser_open(tmp_path) -> None:
    code = _LOCAL.replace("    return parser", "    register(add_flag)\n    return parser")
    _, findings = _check(tmp_path, code)
    found = by_key(findings)
    assert ("CD101", "--timeout") not in found
    assert ("CD102", "--timeout") in found
    assert ("CD104", "--port") in found


def test_a_helper_of_the_module_may_be_called_elsewhere(tmp_path) -> None:
    code = "import argparse\n\nparser = argparse.ArgumentParser()\n\n" + _HELPER + _CALLS
    _, findings = _check(tmp_path, code)
    found = by_key(findings)
    assert ("CD104", "--port") in found
    assert ("CD101", "--timeout") not in found


def test_a_call_the_helper_cannot_take_declares_nothing(tmp_path) -> None:
    code = _LOCAL.replace(
        '    add_flag("--reload"',
        '    add_flag("--port", 8000, "Port.", 1)\n    add_flag("--reload"',
    ).replace('add_flag("--port", 8000, "Port to bind.", type=int)', "")
    # The only call of ``--port`` passes a fourth positional argument the
    # helper has no place for (``**kwargs`` takes keywords alone).
    analysis, findings = _check(tmp_path, code)
    assert "port" not in analysis.schema.children
    assert ("CD104", "--port") not in by_key(findings)


def test_a_helper_binds_keywords_defaults_and_positional_names(tmp_path) -> None:
    code = """
import argparse


class Cli:
    def __init__(self):
        self.parser = argparse.ArgumentParser()
        self.add_flag("--host", help="Host to bind.")
        self.add_flag("--port", "-p", default=8000, help="Port to bind.")
        self.add_flag("--workers", help="Worker count.", default=2)

    def add_flag(self, *names, default=None, help=""):
        self.parser.add_argument(*names, default=default, help=help)
"""
    analysis, findings = _check(tmp_path, code)
    options = analysis.schema.children
    assert options["host"].default.value is None
    assert options["port"].default.value == 8000
    assert "-p" in options["port"].spellings
    found = by_key(findings)
    assert "8000" in found[("CD104", "--port")].message
    assert "2" in found[("CD104", "--workers")].message


def test_two_functions_of_one_name_are_no_helper(tmp_path) -> None:
    code = """
import argparse

parser = argparse.ArgumentParser()


def add_flag(flag, default, help=""):
    parser.add_argument(flag, default=default, help=help)


class Recorder:
    def add_flag(self, flag, default, help=""):
        self.seen[flag] = default

    def record(self):
        self.add_flag("--port", 9000)


add_flag("--host", "localhost", "Host to bind.")
add_flag("--workers", 1, "Worker count.")
add_flag("--reload", False, "Reload on change.")
"""
    # ``self.add_flag`` is the recorder's, which declares nothing; were the
    # name one helper's, ``--port`` would be declared with 9000.
    analysis, findings = _check(tmp_path, code)
    assert "port" not in analysis.schema.children
    assert ("CD104", "--port") not in by_key(findings)


_INI = """
def pytest_addoption(parser):
    def add_ini(name, help, default=None, type=None):
        parser.addini(name, help, type=type, default=default)

    add_ini("cache_dir", "Cache directory.", default="cache")
    add_ini("strict_mode", "Fail on unknown marks.", default=False, type="bool")
    add_ini("timeout_seconds", "Time limit.", default="30", type="string")
    add_ini("plugins_order", "Plugin order.", type="linelist", default=[])
"""

_INI_DOCS = """
Configuration
=============

.. confval:: cache_dir

   Cache directory. Default: ``pytest_cache``.

.. confval:: strict_mode

   Fail on unknown marks. Default: ``False``.

.. confval:: timeout_seconds

   Time limit. Default: ``30``.
"""


def test_a_helper_declares_keys_that_are_no_flags(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"plug/hooks.py": _INI, "docs/reference.rst": _INI_DOCS}, "plug"
    )
    assert {"cache_dir", "strict_mode", "timeout_seconds", "plugins_order"} <= set(
        analysis.schema.children
    )
    found = by_key(findings)
    assert "pytest_cache" in found[("CD104", "cache_dir")].message
    assert ("CD104", "timeout_seconds") not in found
    assert ("CD103", "plugins_order") in found


def test_an_unknown_keyword_or_a_missing_argument_declares_nothing(tmp_path) -> None:
    # ``add_ini`` takes no ``**kwargs`` and needs its help: neither call
    # runs, so neither declares its key.
    code = (
        _INI
        + """
    add_ini("colour_mode", "Colours.", colour=True)
    add_ini("quiet_mode")
"""
    )
    analysis, _ = check_project(
        tmp_path, {"plug/hooks.py": code, "docs/reference.rst": _INI_DOCS}, "plug"
    )
    assert "cache_dir" in analysis.schema.children
    assert "colour_mode" not in analysis.schema.children
    assert "quiet_mode" not in analysis.schema.children


def test_a_function_defined_in_the_helper_is_not_the_helper() -> None:
    from configdrift.extract.python.extractor import extract_source

    code = """
def build(parser):
    def add_flag(flag, default):
        def later():
            parser.add_argument(flag, default=default)
        return later

    add_flag("--port", 8000)
"""
    declared = [r.args[0] for r in extract_source(code).registrations]
    assert ["c", "--port"] not in declared


def test_a_helper_of_names_called_with_none_declares_nothing_named() -> None:
    from configdrift.extract.python.extractor import extract_source

    code = """
def build(parser):
    def add_flag(*names, default=None):
        parser.add_argument(*names, default=default)

    add_flag("--port", default=8000)
    add_flag(default=1)
"""
    # The second call binds no name: it declares nothing, and reading it
    # does not fail.
    declared = [r.args[:1] for r in extract_source(code).registrations if r.line > 4]
    assert declared == [[["c", "--port"]]]


def test_an_argument_nested_past_copying_declares_nothing_and_fails_nothing() -> None:
    from configdrift.extract.python.extractor import extract_python

    chain = " + ".join(['"a"'] * 1500)
    code = (
        "def build(parser):\n    def add_flag(flag, default):\n"
        f"        parser.add_argument(flag, default=default, help={chain})\n\n"
        '    add_flag("--port", 8000)\n'
    )
    facts = extract_python(code.encode())
    assert facts.error is None
    assert [["c", "--port"]] not in [r.args[:1] for r in facts.registrations]
