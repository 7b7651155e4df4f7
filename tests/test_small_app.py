"""A small application: a strict pydantic model filled from a JSON file
whole, documented by a reStructuredText definition list of bare terms.
Each gate that lets it through has a case it must keep out."""

from __future__ import annotations

from helpers import by_key, check_project

_CONFIG = """
from pydantic import BaseModel, ConfigDict


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "localhost"
    port: int = 8000
    debug: bool = False
"""

_MAIN = """
import json

from app.config import Settings


def load(path):
    with open(path) as f:
        data = json.load(f)
    return Settings(**data)


def serve(path):
    settings = load(path)
    print(settings.host, settings.port, settings.debug)
"""

_PAGE = """
Configuration
=============

The settings file is a JSON object with these keys:

host
    The address to bind. Default: ``localhost``.

port
    The port to listen on. Default: ``8080``.

workers
    How many worker processes to start.
"""


def _app(**replace: str) -> dict[str, str]:
    files = {"app/config.py": _CONFIG, "app/main.py": _MAIN, "docs/configuration.rst": _PAGE}
    return {**files, **replace}


def test_a_small_app_is_checked_against_its_definition_list(tmp_path) -> None:
    _, findings = check_project(tmp_path, _app(), "app")
    found = by_key(findings)
    workers = found[("CD101", "workers")]
    assert workers.severity is not None and workers.severity.value == "error"
    assert (workers.location.path, workers.location.line) == ("docs/configuration.rst", 13)
    assert "forbids unknown keys" in workers.message
    assert "8000" in found[("CD104", "port")].message
    assert ("CD103", "debug") in found
    assert ("CD104", "host") not in found


def test_a_glossary_is_no_list_of_keys() -> None:
    from configdrift.extract.docs.rst import extract_rst

    glossary = b"Terms\n=====\n\nWorker\n    A process.\n\nAPI server\n    The server.\n"
    assert extract_rst(glossary).entries == []
    # One term that is not a bare key: the list is prose, none is a key.
    mixed = b"Keys\n====\n\nhost\n    The host.\n\nport number\n    The port.\n"
    assert extract_rst(mixed).entries == []
    keys = b"Keys\n====\n\nhost\n    The host.\n\nport\n    The port.\n"
    assert [e.name for e in extract_rst(keys).entries] == ["host", "port"]


def test_bare_terms_pass_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_document

    page = _PAGE.encode()
    assert may_document(page, 3)
    assert not may_document(page.replace(b"\n    ", b"\n"), 3)


def test_simple_table_rows_pass_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_document

    rule = b"=========  =======\n"
    rows = b"".join(f"key_{i}      {i}\n".encode() for i in range(4))
    page = b"Options\n-------\n\n" + rule + b"Attribute  Default\n" + rule + rows + rule
    assert may_document(page, 4)
    # The same lines without a simple table's borders are prose.
    assert not may_document(page.replace(rule, b""), 4)


def test_a_model_not_loaded_from_a_file_needs_three_documented_keys(tmp_path) -> None:
    # The same model built from keyword arguments: two keys named are not
    # enough to take it for a configuration.
    main = _MAIN.replace("data = json.load(f)", "data = {'host': f.name}")
    analysis, findings = check_project(tmp_path, _app(**{"app/main.py": main}), "app")
    assert [s.surface for s in analysis.everything] == ["config"]
    assert [f.code for f in findings if f.code != "CD501"] == []


def test_two_keys_of_a_larger_model_are_not_enough(tmp_path) -> None:
    # Two documented keys are half of three fields, not of six.
    config = _CONFIG + "    timeout: int = 5\n    retries: int = 3\n    user: str = 'x'\n"
    analysis, findings = check_project(tmp_path, _app(**{"app/config.py": config}), "app")
    assert [s.surface for s in analysis.everything] == ["config"]
    assert [f.code for f in findings if f.code != "CD501"] == []


def test_a_list_one_of_whose_three_terms_is_a_key_is_not_its_page(tmp_path) -> None:
    page = _PAGE + "\nlogs\n    Where logs go.\n\nuser\n    Who runs it.\n"
    _, findings = check_project(tmp_path, _app(**{"docs/configuration.rst": page}), "app")
    assert not any(f.code == "CD101" for f in findings)


_ADJUSTMENTS = """
def asoctal(s):
    return int(s, 8)


class Adjustments:
    _params = (
        ("host", str),
        ("port", int),
        ("threads", int),
        ("backlog", int),
        ("perms", asoctal),
    )

    host = "0.0.0.0"
    port = 8080
    threads = 4
    backlog = 1024
    perms = 0o600

    def __init__(self, **kw):
        for key, value in kw.items():
            setattr(self, key, dict(self._params)[key](value))
"""

_ARGUMENTS = """
Arguments
=========

host
    The host.

    Default: ``0.0.0.0``

port
    The port.

    Default: ``8000``

threads
    Threads.

    Default: ``4``

backlog
    Backlog.

    Default: ``1024``

perms
    Permissions.

    Default: ``600``
"""


def test_a_table_of_names_and_casts_takes_its_class_s_defaults(tmp_path) -> None:
    files = {"app/adjust.py": _ADJUSTMENTS, "docs/arguments.rst": _ARGUMENTS}
    analysis, findings = check_project(tmp_path, files, "app")
    assert "Adjustments" in [s.surface for s in analysis.everything]
    found = by_key(findings)
    assert "8080" in found[("CD104", "port")].message
    # ``asoctal`` turns the written "600" into 384: not compared.
    assert ("CD104", "perms") not in found
    assert {k for k in found if k[0] != "CD501"} == {("CD104", "port")}


def test_a_table_of_names_and_casts_the_docs_do_not_describe_is_nothing(tmp_path) -> None:
    page = _ARGUMENTS.replace("threads", "workers").replace("backlog", "queue")
    page = page.replace("perms", "mode")
    files = {"app/adjust.py": _ADJUSTMENTS, "docs/arguments.rst": page}
    analysis, _ = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything] == ["config"]


_API = """
API
===

.. function:: serve(app, host='0.0.0.0', port=8000, threads=4, debug=True)

   Serve ``app``.
"""


def test_a_hand_written_signature_s_defaults_are_compared(tmp_path) -> None:
    files = {"app/adjust.py": _ADJUSTMENTS, "docs/arguments.rst": _ARGUMENTS, "docs/api.rst": _API}
    _, findings = check_project(tmp_path, files, "app")
    signature = [f for f in findings if f.location.path == "docs/api.rst"]
    # ``port=8000`` against 8080; ``debug`` is the function's own argument,
    # no key: nothing is said of it.
    assert [(f.code, f.key) for f in signature] == [("CD104", "port")]
    assert signature[0].location.line == 5


def test_signature_defaults_are_read_as_python_never_run() -> None:
    from configdrift.extract.docs.rst_forms import signature_defaults

    assert signature_defaults("serve(app, port=8080, *, debug=False, quiet)") == [
        ("port", "8080"),
        ("debug", "False"),
    ]
    assert signature_defaults("serve(app, port=8080") == []
    assert signature_defaults("serve(app, port=[unclosed)") == []
    assert signature_defaults("Server") == []


def test_a_signature_alone_is_no_evidence_of_a_configuration(tmp_path) -> None:
    api = "API\n===\n\n.. function:: load(host='x', port=1, debug=False)\n\n   Load.\n"
    analysis, _ = check_project(tmp_path, _app(**{"docs/configuration.rst": api}), "app")
    assert [s.surface for s in analysis.everything] == ["config"]


def test_a_page_of_one_signature_passes_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_document

    assert may_document(_API.encode(), 3)
    assert not may_document(_API.replace("port=8000, threads=4, ", "").encode(), 3)


def test_a_signature_s_other_arguments_are_never_said_to_be_rejected(tmp_path) -> None:
    from helpers import mounted_config

    files = mounted_config("host: str = 'h'", "port: int = 80", "threads: int = 2")
    files["docs/config.md"] = "# Configuration\n\n- `host`: h.\n- `port`: p.\n- `threads`: t.\n"
    files["docs/api.rst"] = (
        "API\n===\n\n.. function:: serve(app, host='h', port=8080, threads=2, debug=True)\n"
    )
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    assert [(f.code, f.key) for f in findings if f.location.path == "docs/api.rst"] == [
        ("CD104", "port")
    ]


def test_a_term_s_classifier_is_its_type(tmp_path) -> None:
    # numpydoc's ``name : type``, its description indented under it.
    page = (
        _PAGE.replace("host\n", "host : str\n")
        .replace("port\n", "port : bool\n")
        .replace("workers\n", "workers : int\n")
    )
    _, findings = check_project(tmp_path, _app(**{"docs/configuration.rst": page}), "app")
    found = by_key(findings)
    assert "int" in found[("CD105", "port")].message
    assert ("CD105", "host") not in found
    assert ("CD101", "workers") in found


def test_classified_terms_pass_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_document

    page = _PAGE.replace("host\n", "host : str\n").replace("port\n", "port : int\n")
    page = page.replace("workers\n", "workers : int\n").encode()
    assert may_document(page, 3)
    # A term and its classifier with no description indented under them.
    assert not may_document(page.replace(b"\n    ", b"\n"), 3)
