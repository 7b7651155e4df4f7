"""Nested namespaces of option objects, spelt as the docs spell them
(resolve/mechanisms/option_namespaces)."""

from __future__ import annotations

from helpers import by_key, check_project

_DEFAULTS = """
class Option:
    def __init__(self, default=None, type=None, old=None):
        self.default = default


def Namespace(**options):
    return options


NAMESPACES = Namespace(
    timezone=Option(type="string"),
    enable_utc=Option(True, type="bool"),
    task=Namespace(
        acks_late=Option(False, type="bool"),
        default_queue=Option("default"),
        time_limit=Option(type="float"),
    ),
    broker=Namespace(
        pool_limit=Option(10, type="int"),
        heartbeat=Option(120, type="int"),
    ),
)
"""

_JOINED = """
Configuration
=============

``timezone``
~~~~~~~~~~~~

Default: ``"UTC"``.

``task_acks_late``
~~~~~~~~~~~~~~~~~~

Default: Disabled.

``task_default_queue``
~~~~~~~~~~~~~~~~~~~~~~

Default: ``"default"``.

``broker_pool_limit``
~~~~~~~~~~~~~~~~~~~~~

Default: 5.

``broker_heartbeat``
~~~~~~~~~~~~~~~~~~~~

Default: 120.

``worker_concurrency``
~~~~~~~~~~~~~~~~~~~~~~

Default: 4.
"""


def test_namespaces_of_options_are_joined_as_the_docs_write_them(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}, "app"
    )
    (surface,) = analysis.surfaces
    keys = set(surface.schema.children)
    assert "task_acks_late" in keys and "broker_pool_limit" in keys and "task" not in keys
    assert surface.schema.children["enable_utc"].type.kinds == frozenset({"bool"})
    found = by_key(findings)
    assert ("CD104", "broker_pool_limit") in found  # documented 5, declared 10
    assert ("CD103", "task_time_limit") in found
    # Each option is found at its own keyword's line.
    line = _DEFAULTS.splitlines().index('        time_limit=Option(type="float"),') + 1
    assert found[("CD103", "task_time_limit")].location.line == line
    assert ("CD103", "enable_utc") in found
    # Not a key of the namespaces; they are read by name, so unknown keys
    # are ignored rather than rejected.
    assert found[("CD102", "worker_concurrency")].severity.value == "warning"
    assert not any(code == "CD104" and key == "broker_heartbeat" for code, key in found)


def test_namespaces_documented_as_paths_stay_nested(tmp_path) -> None:
    dotted = _JOINED.replace("task_", "task.").replace("broker_", "broker.")
    analysis, _ = check_project(
        tmp_path, {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": dotted}, "app"
    )
    (surface,) = analysis.surfaces
    assert set(surface.schema.children["task"].children) == {
        "acks_late",
        "default_queue",
        "time_limit",
    }


def test_calls_of_several_kinds_or_without_nesting_are_no_namespaces(tmp_path) -> None:
    mixed = _DEFAULTS.replace('pool_limit=Option(10, type="int")', "pool_limit=Pool(10)")
    mixed = "class Pool:\n    def __init__(self, size):\n        pass\n" + mixed
    flat = """
class Option:
    def __init__(self, default=None):
        self.default = default


def build(**options):
    return options


WIDGETS = build(
    timezone=Option(),
    task_acks_late=Option(False),
    task_default_queue=Option("default"),
    broker_pool_limit=Option(10),
    broker_heartbeat=Option(120),
)
"""
    for code in (mixed, flat):
        analysis, _ = check_project(
            tmp_path, {"app/defaults.py": code, "docs/configuration.rst": _JOINED}, "app"
        )
        assert analysis.surfaces == []


def test_a_name_getattr_builds_from_parts_may_read_a_documented_key(tmp_path) -> None:
    # ``worker_concurrency`` is read as ``getattr(conf, f"{command}_{name}")``.
    built = 'def daemon(conf, command, name):\n    return getattr(conf, f"{command}_{name}")\n'
    whole = "def daemon(conf, name):\n    return getattr(conf, name)\n"
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    _, findings = check_project(tmp_path, {**files, "app/daemon.py": built}, "app")
    assert ("CD102", "worker_concurrency") not in by_key(findings)
    # A name computed whole says nothing of which key it reads.
    _, findings = check_project(tmp_path, {**files, "app/daemon.py": whole}, "app")
    assert ("CD102", "worker_concurrency") in by_key(findings)


_BACKEND = """
class Backend:
    def __init__(self, app):
        self.zone = app.conf.get("timezone")
        self.acks = app.conf.get("task_acks_late")
        self.concurrency = app.conf.get("worker_concurrency", 4)
"""


def test_a_documented_key_read_around_the_registry_is_reported(tmp_path) -> None:
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    _, findings = check_project(tmp_path, {**files, "app/backend.py": _BACKEND}, "app")
    found = by_key(findings)
    finding = found[("CD201", "worker_concurrency")]
    assert finding.severity.value == "warning"
    assert (finding.location.path, finding.location.line) == ("app/backend.py", 6)
    doc_line = _JOINED.splitlines().index("``worker_concurrency``") + 1
    assert {(r.path, r.line) for r in finding.related} == {
        ("docs/configuration.rst", doc_line),
        ("app/defaults.py", _DEFAULTS.splitlines().index("NAMESPACES = Namespace(") + 1),
    }
    # Read, so not "never read" as well.
    assert ("CD102", "worker_concurrency") not in found


def test_a_read_around_the_registry_needs_an_accessor_of_its_keys(tmp_path) -> None:
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    # An accessor that reads one of the registry's keys only may be any dict.
    one = _BACKEND.replace('        self.zone = app.conf.get("timezone")\n', "")
    _, findings = check_project(tmp_path, {**files, "app/backend.py": one}, "app")
    assert ("CD201", "worker_concurrency") not in by_key(findings)
    # A getter that reads the registry's keys is one too.
    getter = _BACKEND.replace("app.conf.get(", "_get(").replace(
        "(self, app):", "(self, app):\n        _get = app.conf.get"
    )
    _, findings = check_project(tmp_path, {**files, "app/backend.py": getter}, "app")
    assert ("CD201", "worker_concurrency") in by_key(findings)


def test_the_accessor_reads_the_registrys_keys_in_the_same_file(tmp_path) -> None:
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    # ``conf`` reads the registry's keys in one module, another dict of
    # that name reads the documented key in another.
    apart = {
        "app/backend.py": _BACKEND.replace(
            '        self.concurrency = app.conf.get("worker_concurrency", 4)\n', ""
        ),
        "app/pool.py": 'def size(app):\n    return app.conf.get("worker_concurrency", 4)\n',
    }
    _, findings = check_project(tmp_path, {**files, **apart}, "app")
    assert ("CD201", "worker_concurrency") not in by_key(findings)


def test_a_documented_word_read_by_name_is_any_dicts(tmp_path) -> None:
    # ``url`` documented beside the settings and read by the registry's
    # accessor: a word read by name is as likely another dict's.
    docs = _JOINED + "\n``url``\n~~~~~~~\n\nThe address.\n"
    code = _BACKEND + '        self.url = app.conf.get("url")\n'
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": docs, "app/backend.py": code}
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert ("CD201", "worker_concurrency") in found
    assert ("CD201", "url") not in found


def test_a_read_in_the_tests_or_a_name_of_another_case_is_no_read_around(tmp_path) -> None:
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    _, findings = check_project(tmp_path, {**files, "app/tests/test_backend.py": _BACKEND}, "app")
    assert ("CD201", "worker_concurrency") not in by_key(findings)
    # A class's name documented among the settings is no setting of them.
    cased = _JOINED + "\n``Worker``\n~~~~~~~~~~\n\nThe worker class.\n"
    code = _BACKEND + '        self.worker = app.conf.get("Worker")\n'
    _, findings = check_project(
        tmp_path,
        {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": cased, "app/backend.py": code},
        "app",
    )
    assert ("CD201", "Worker") not in by_key(findings)


_OTHER_BACKEND = """
class Other:
    def __init__(self, app):
        self.acks = app.conf.get("task_acks_late", True)
        self.zone = app.conf.get("timezone", "UTC")
"""


def test_two_reads_by_name_with_other_fallbacks_are_a_conflict(tmp_path) -> None:
    files = {"app/defaults.py": _DEFAULTS, "docs/configuration.rst": _JOINED}
    backend = _BACKEND.replace('get("task_acks_late")', 'get("task_acks_late", False)')
    _, findings = check_project(
        tmp_path, {**files, "app/backend.py": backend, "app/other.py": _OTHER_BACKEND}, "app"
    )
    finding = by_key(findings)[("CD106", "task_acks_late")]
    assert (finding.location.path, finding.location.line) == ("app/other.py", 4)
    assert [(r.path, r.line) for r in finding.related] == [("app/backend.py", 5)]
    # ``None`` is no fallback (computed later), another accessor is another
    # dict, one that reads no other key of the registry may be any dict,
    # and a computed fallback is not compared.
    lone = (
        "def first(cache):\n    return cache.get('task_acks_late', False)\n\n\n"
        "def second(cache):\n    return cache.get('task_acks_late', True)\n"
    )
    _, findings = check_project(tmp_path / "lone", {**files, "app/cache.py": lone}, "app")
    assert ("CD106", "task_acks_late") not in by_key(findings)
    for other in (
        _OTHER_BACKEND.replace('"task_acks_late", True', '"task_acks_late", None'),
        _OTHER_BACKEND.replace("app.conf.get(", "options.get(").replace(
            "(self, app):", "(self, app, options):"
        ),
        _OTHER_BACKEND.replace('"task_acks_late", True', '"task_acks_late", bool(1)'),
    ):
        _, findings = check_project(
            tmp_path, {**files, "app/backend.py": backend, "app/other.py": other}, "app"
        )
        assert ("CD106", "task_acks_late") not in by_key(findings), other
