"""A page's own description of the project's function or class (``..
py:class:: Queue(name='q', retries=3)`` and its ``:param:`` fields)
against the code's signature: a keyword it gives a default that the
closed signature does not take is CD101; one the code takes that it
leaves out, where it names two thirds of them, is CD103; a default it
writes that differs from the code's is CD104."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.rst import extract_rst
from helpers import by_key, check_project

_CODE = """
class Queue:
    def __init__(self, name="q", retries=3, timeout=10, backoff=2, priority=0, _pool=None):
        self.name = name
"""

_PAGE = """API
===

.. py:class:: Queue(name='q', retries=3, timeout=10, delay=5)

   :param str name: the queue's name.
   :param int priority: how urgent.

   .. py:method:: put(item, backoff=2)

      :param backoff: a method's own field.
"""


def _found(tmp_path, code: str = _CODE, page: str = _PAGE, **more: str) -> set[tuple[str, str]]:
    files = {
        "shop/__init__.py": "from shop.queue import Queue\n",
        "shop/queue.py": code,
        "docs/api.rst": page,
        **more,
    }
    _, findings = check_project(tmp_path, files, "shop")
    return {(c, k) for c, k in by_key(findings) if "(" in k}


def test_a_description_is_judged_against_the_signature(tmp_path) -> None:
    assert _found(tmp_path) == {("CD101", "Queue(delay=)"), ("CD103", "Queue(backoff=)")}


def test_a_signature_that_takes_any_keyword_takes_the_described_one(tmp_path) -> None:
    code = _CODE.replace("_pool=None)", "_pool=None, **options)")
    assert _found(tmp_path, code) == {("CD103", "Queue(backoff=)")}


def test_a_description_that_names_few_of_the_keywords_leaves_none_out(tmp_path) -> None:
    page = _PAGE.replace("   :param int priority: how urgent.\n", "")
    assert ("CD103", "Queue(backoff=)") not in _found(tmp_path, page=page)


def test_a_parameter_given_by_position_is_not_judged(tmp_path) -> None:
    page = _PAGE.replace("delay=5)", "item)")
    assert ("CD101", "Queue(item=)") not in _found(tmp_path, page=page)


def test_a_name_two_callables_share_is_not_judged(tmp_path) -> None:
    other = "class Queue:\n    def __init__(self, size=1):\n        pass\n"
    assert _found(tmp_path, **{"shop/other.py": other}) == set()


_FETCH = "\n\ndef fetch(task_id, wait=0, cached=False):\n    return task_id\n"


@pytest.mark.parametrize(
    "description",
    [
        # A method of the class the page describes, nested in its body.
        ".. py:class:: Chain(chain=None)\n\n   .. py:method:: fetch(failures=True, wait=0)\n",
        ".. py:class:: Task\n\n   .. py:classmethod:: fetch(group_id, failures=False)\n",
        # A method's directive, wherever it stands.
        ".. py:method:: fetch(failures=True, wait=0)\n",
        # A function's directive that names the method by its class.
        ".. py:function:: Queue.fetch(failures=True, wait=0)\n",
    ],
)
def test_a_method_s_description_is_not_the_function_s(tmp_path, description) -> None:
    # ``fetch`` is one top-level function; the page describes a method.
    found = _found(tmp_path, _CODE + _FETCH, _PAGE + "\n" + description)
    assert ("CD101", "Queue(delay=)") in found
    assert ("CD101", "fetch(failures=)") not in found


@pytest.mark.parametrize("name", ["fetch", "shop.queue.fetch"])
def test_a_function_s_description_is_judged(tmp_path, name) -> None:
    # By its name, or its module's dotted path (no class's method).
    page = _PAGE + f"\n.. py:function:: {name}(task_id, failures=True, wait=0)\n"
    found = _found(tmp_path, _CODE + _FETCH, page)
    assert any(code == "CD101" and key.endswith("fetch(failures=)") for code, key in found)


@pytest.mark.parametrize(
    ("directive", "params", "opened"),
    [
        # A name without a default after one with: no Python, still read.
        (
            "py:class:: Huey(name='huey', results=True, storage_kwargs)",
            [("name", "'huey'"), ("results", "True"), ("storage_kwargs", None)],
            False,
        ),
        ("py:function:: enable(huey, db[, **options])", [("huey", None), ("db", None)], True),
        ("function:: run(x: int = 3, *args, key='a,b')", [("x", "3"), ("key", "'a,b'")], True),
    ],
)
def test_signatures_are_read_as_text(directive, params, opened) -> None:
    (api,) = extract_rst(f"T\n=\n\n.. {directive}\n\n   Body.\n".encode()).api
    assert (list(api.params), api.open) == (params, opened)


def test_a_signature_that_is_no_python_names_nothing() -> None:
    page = "T\n=\n\n.. py:function:: run(the host, port)\n\n   Body.\n"
    assert extract_rst(page.encode()).api == []


_OPEN = """
import redis

from shop.queue import Queue


def connect(**options):
    return redis.Redis(**options)


def open_queue(**options):
    return Queue(**options)


def open_pool(size, **options):
    return Pool(**options)


def record(huey, db, **kwargs):
    return Recorder(huey, db, **kwargs)


def quick(retention=48, events=2000, **options):
    return Recorder(retention=retention, events=events)


class Recorder:
    def __init__(self, huey, db, retention=48, events=2000, capture=False, create=True,
                 interval=0.5, most=200):
        pass


class Pool:
    def __init__(self, workers=1, threads=2, queue_size=5, **extra):
        pass
"""

_OPEN_PAGE = """API
===

.. py:function:: open_queue(name='q', retries=3, timeout=10, **options)

   :param int priority: how urgent.

.. py:function:: connect(host='localhost', **options)

.. py:function:: open_pool(size, workers=1, **options)

   :param int threads: how many threads.

.. py:function:: record(huey, db, retention=48, events=2000, **options)

   :param bool capture: keep the arguments.
   :param bool create: create the tables.

.. py:function:: quick(retention=48, events=2000, **options)

   :param bool capture: keep the arguments.
   :param bool create: create the tables.
   :param float interval: how often.
"""


def test_a_function_that_hands_its_keywords_to_a_class_takes_the_class_s(tmp_path) -> None:
    # ``open_queue`` takes Queue's keywords through ``**options``; the page
    # names four of its five (two thirds and more), not ``backoff``. A
    # class that hands them on again takes keywords no one can list.
    found = _found(tmp_path, page=_OPEN_PAGE, **{"shop/open.py": _OPEN})
    # ``record`` names two thirds of Recorder's keywords: the reference.
    # ``quick`` builds a Recorder of its own two keywords: it takes none
    # of the others; ``connect`` hands them to another library's class.
    assert found == {
        ("CD103", "open_queue(backoff=)"),
        ("CD103", "record(interval=)"),
        ("CD103", "record(most=)"),
    }


def test_a_default_the_description_writes_against_the_codes(tmp_path) -> None:
    # ``retries=5`` where the code gives 3: CD104, at the description.
    page = _PAGE.replace("retries=3", "retries=5")
    files = {"shop/__init__.py": "from shop.queue import Queue\n", "shop/queue.py": _CODE}
    _, findings = check_project(tmp_path, {**files, "docs/api.rst": page}, "shop")
    found = by_key(findings)
    finding = found["CD104", "Queue(retries=)"]
    assert (finding.location.path, finding.location.line) == ("docs/api.rst", 4)
    assert "retries=5" in finding.message and "is 3" in finding.message
    assert finding.related[0].path == "shop/queue.py"
    # A module function's signature, and a constant the code names.
    code = (
        _CODE
        + "\n\nPORT = 8080\n\n\ndef serve(app, host='127.0.0.1', port=PORT):\n    return app\n"
    )
    page = _PAGE + "\n.. py:function:: serve(app, host='127.0.0.1', port=8000)\n"
    files = {"shop/__init__.py": "from shop.queue import Queue, serve\n", "shop/queue.py": code}
    _, findings = check_project(tmp_path / "f", {**files, "docs/api.rst": page}, "shop")
    found = by_key(findings)
    assert "8080 (PORT)" in found["CD104", "serve(port=)"].message
    assert ("CD104", "serve(host=)") not in found


def test_a_default_the_code_computes_or_leaves_unset_is_not_judged(tmp_path) -> None:
    code = _CODE.replace('name="q"', "name=make_name()").replace("timeout=10", "timeout=None")
    page = _PAGE.replace("name='q'", "name='jobs'").replace("timeout=10", "timeout=30")
    files = {"shop/__init__.py": "from shop.queue import Queue\n", "shop/queue.py": code}
    _, findings = check_project(tmp_path, {**files, "docs/api.rst": page}, "shop")
    assert not [f for f in findings if f.code == "CD104"]
