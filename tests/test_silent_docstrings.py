"""A rendered class whose docstring describes none of its keywords, on a
page whose other classes describe theirs (CD103), and each case that
stays quiet."""

from __future__ import annotations

import pytest

from helpers import check_project

_DESCRIBED = '''
class Retries:
    """Retry failed messages.

    Parameters:
      max_retries(int): How many times.
      min_backoff(int): The least backoff.
    """

    def __init__(self, max_retries=20, min_backoff=15):
        self.max_retries = max_retries
        self.min_backoff = min_backoff


class TimeLimit:
    """Cancel slow actors.

    Parameters:
      time_limit(int): The limit in milliseconds.
      interval(int): How often to check.
    """

    def __init__(self, time_limit=600, interval=1000):
        self.time_limit = time_limit
        self.interval = interval
'''

_SILENT = '''
class Callbacks:
    """Run callbacks when a group of messages completes."""

    def __init__(self, backend, *, barrier_ttl=86400):
        self.backend = backend
        self.barrier_ttl = barrier_ttl
'''

_PAGE = (
    "Middleware\n==========\n\n.. autoclass:: pkg.middleware.Retries\n"
    ".. autoclass:: pkg.middleware.TimeLimit\n.. autoclass:: pkg.middleware.Callbacks\n"
)


def _silent(tmp_path, source: str, page: str = _PAGE) -> set[tuple[str, int]]:
    files = {"pkg/middleware.py": source, "docs/reference.rst": page}
    _, findings = check_project(tmp_path, files, "pkg")
    return {
        (f.key, f.location.line)
        for f in findings
        if f.code == "CD103" and "describes none" in f.message
    }


def test_a_class_that_describes_no_keyword_beside_classes_that_describe_theirs(
    tmp_path,
) -> None:
    files = {"pkg/middleware.py": _DESCRIBED + _SILENT, "docs/reference.rst": _PAGE}
    _, findings = check_project(tmp_path, files, "pkg")
    silent = [f for f in findings if f.code == "CD103" and "describes none" in f.message]
    # Each keyword, the required one too, at the ``__init__``.
    assert {(f.key, f.location.line) for f in silent} == {
        ("Callbacks(backend=)", 30),
        ("Callbacks(barrier_ttl=)", 30),
    }
    first = silent[0]
    assert first.location.path == "pkg/middleware.py"
    assert "Retries, TimeLimit" in first.message
    assert (first.related[0].path, first.related[0].line) == ("docs/reference.rst", 6)


def test_one_other_class_that_describes_its_keywords_is_no_reference(tmp_path) -> None:
    one = _DESCRIBED.split("class TimeLimit")[0]
    page = _PAGE.replace(".. autoclass:: pkg.middleware.TimeLimit\n", "")
    assert _silent(tmp_path, one + _SILENT, page) == set()


def test_a_page_whose_classes_mostly_describe_nothing_is_no_reference(tmp_path) -> None:
    # Two classes describe theirs, two (of four) do not: under two thirds.
    other = _SILENT.replace("Callbacks", "Barrier").replace("backend", "store")
    page = _PAGE + ".. autoclass:: pkg.middleware.Barrier\n"
    assert _silent(tmp_path, _DESCRIBED + _SILENT + other, page) == set()
    # Three that describe theirs beside one that does not: three quarters.
    third = (
        'class AgeLimit:\n    """Skip old messages.\n\n    Parameters:\n'
        '      max_age(int): The age.\n    """\n\n'
        "    def __init__(self, max_age=None):\n        self.max_age = max_age\n"
    )
    page = _PAGE + ".. autoclass:: pkg.middleware.AgeLimit\n"
    source = _DESCRIBED + _SILENT + "\n\n" + third
    assert {key for key, _ in _silent(tmp_path / "3", source, page)} == {
        "Callbacks(backend=)",
        "Callbacks(barrier_ttl=)",
    }


def test_a_class_rendered_with_its_whole_module_is_not_judged(tmp_path) -> None:
    # ``automodule`` renders every class of the module, those meant for
    # users and those the framework builds alike.
    page = "Middleware\n==========\n\n.. automodule:: pkg.middleware\n   :members:\n"
    assert _silent(tmp_path, _DESCRIBED + _SILENT, page) == set()


@pytest.mark.parametrize(
    "docstring",
    [
        # Its keywords in prose, or in part in an entry of their own.
        "Run callbacks; barrier_ttl sets how long a group is kept.",
        "Run callbacks.\n\n    Args:\n        backend: where groups are kept.\n",
    ],
)
def test_a_docstring_that_names_a_keyword_is_not_silent(tmp_path, docstring) -> None:
    source = _SILENT.replace("Run callbacks when a group of messages completes.", docstring)
    assert _silent(tmp_path, _DESCRIBED + source) == set()


def test_a_class_whose_keywords_have_no_default_takes_inputs_not_options(tmp_path) -> None:
    source = _SILENT.replace("*, barrier_ttl=86400", "barrier_ttl")
    assert _silent(tmp_path, _DESCRIBED + source) == set()


def test_a_class_with_no_init_of_its_own_is_not_judged(tmp_path) -> None:
    # A dataclass's fields: a model, whose keywords other rules read.
    source = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Callbacks:\n"
        '    """Run callbacks when a group of messages completes."""\n\n'
        "    barrier_ttl: int = 86400\n"
    )
    assert _silent(tmp_path, _DESCRIBED + source) == set()
