"""A call written in a code span of the prose (``Evaluator(const=0)``), on
a page or in a rendered docstring, is judged as the calls of a Python
block are: a keyword the project's own callee does not take is CD301."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.markups import extract_markdown, extract_rst
from configdrift.extract.docs.python_config import MAX_INLINE_CALL, MAX_INLINE_CALLS
from helpers import check_project

_INIT = "from pkg.errors import Evaluator\nfrom pkg.stagnation import Stagnation\n"
_ERRORS = """
class Evaluator:
    def __init__(self, constant=0.0):
        self.constant = constant


class Hidden:
    def __init__(self, level=1):
        self.level = level
"""


def _stagnation(docstring: str, imports: str = "") -> str:
    return (
        f"{imports}\n\nclass Stagnation:\n"
        f'    """Stops a study that no longer improves.\n\n{docstring}\n\n'
        "    Args:\n        patience: How long.\n        floor: The least.\n"
        '        window: How far back.\n    """\n\n'
        "    def __init__(self, patience=30, floor=0.0, window=5):\n"
        "        self.patience = patience\n"
    )


def _check(tmp_path, page: str = "", docstring: str = "", imports: str = "", top: bool = True):
    files = {
        "pkg/__init__.py": _INIT,
        "pkg/errors.py": _ERRORS,
        "pkg/stagnation.py": _stagnation(docstring, imports),
        "docs/reference.rst": "Reference\n=========\n\n.. autoclass:: pkg.Stagnation\n",
    }
    if not top:
        # The classes under a subpackage that exports them, the top none.
        moved = imports.replace("pkg.", "pkg.sub.")
        files = {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": _INIT.replace("pkg.", "pkg.sub."),
            "pkg/sub/errors.py": _ERRORS,
            "pkg/sub/stagnation.py": _stagnation(docstring, moved),
            "docs/reference.rst": "Reference\n=========\n\n.. autoclass:: pkg.sub.Stagnation\n",
        }
    if page:
        files["docs/use.md"] = page
    _, findings = check_project(tmp_path, files, "pkg")
    return {(f.key, f.location.path, f.location.line) for f in findings if f.code == "CD301"}


def test_a_code_span_of_a_page_that_calls_with_a_keyword_the_callee_lacks(tmp_path) -> None:
    # A page read for its calls: it imports the package.
    page = (
        "# Use\n\nBuild one with `Evaluator(constant=1)`, or\n"
        "with `Evaluator(const=1)` on a second line.\n\n```python\nimport pkg\n```\n"
    )
    assert _check(tmp_path, page) == {("Evaluator(const=)", "docs/use.md", 4)}


def test_a_literal_of_an_rst_page_is_read_at_its_line() -> None:
    text = (
        "Title\n=====\n\nThe default is ``Evaluator(const=0)`` and ``foo(1)``\n"
        "and on a second line ``pkg.Bar(x=1, y={'a': 2})``.\n"
    )
    calls = extract_rst(text.encode()).calls
    assert [(c.call, c.line, [(k.path, k.line) for k in c.keys]) for c in calls] == [
        ("Evaluator", 4, [(("const",), 4)]),
        ("pkg.Bar", 5, [(("x",), 5), (("y",), 5), (("y", "a"), 5)]),
    ]


@pytest.mark.parametrize(
    "span",
    [
        # No keyword, no call, code around a call, a statement.
        "Evaluator(1)",
        "Evaluator",
        "Evaluator(const=1).run()",
        "x = Evaluator(const=1)",
        "a == Evaluator(const=1)",
        "Evaluator(const=1",
    ],
)
def test_a_code_span_that_is_no_call_with_keywords_is_not_read(span: str) -> None:
    assert extract_markdown(f"# Use\n\nWrite `{span}` here.\n".encode()).calls == []


def test_a_code_span_longer_than_a_call_is_not_read() -> None:
    padded = "Evaluator(const=1" + ", x=1" * (MAX_INLINE_CALL // 5) + ")"
    assert extract_markdown(f"# Use\n\nWrite `{padded}`.\n".encode()).calls == []
    short = "Evaluator(const=1, x=1)"
    assert len(extract_markdown(f"# Use\n\nWrite `{short}`.\n".encode()).calls) == 1
    many = " ".join(f"`Evaluator(const={n})`" for n in range(MAX_INLINE_CALLS + 5))
    assert len(extract_markdown(f"# Use\n\n{many}\n".encode()).calls) == MAX_INLINE_CALLS


@pytest.mark.parametrize(
    "prose",
    [
        "`Evaluator(const=1)`: use `Evaluator(constant=1)` instead.",
        "The deprecated `Evaluator(const=1)` still warns.",
        "``Evaluator(const=1)`` was removed in 2.0.",
    ],
)
def test_prose_that_tells_of_a_retired_call_is_no_example(tmp_path, prose: str) -> None:
    page = f"# Use\n\n{prose}\n\n```python\nimport pkg\n```\n"
    assert _check(tmp_path, page) == set()


def test_a_rendered_docstring_s_literal_is_judged_through_its_module_s_names(tmp_path) -> None:
    docstring = "    The default is ``Evaluator(const=0)``, or\n    ``Hidden(lvl=2)``."
    # Through the package above the docstring's module (``pkg.sub``
    # exports Evaluator, the top nothing); Hidden is named by no scope of
    # the docstring.
    assert _check(tmp_path / "a", docstring=docstring, top=False) == {
        ("Evaluator(const=)", "pkg/sub/stagnation.py", 6)
    }
    # Imported into the docstring's own module, Hidden is certain too.
    imports = "from pkg.errors import Hidden"
    found = _check(tmp_path / "b", docstring=docstring, imports=imports, top=False)
    assert found == {
        ("Evaluator(const=)", "pkg/sub/stagnation.py", 6),
        ("Hidden(lvl=)", "pkg/sub/stagnation.py", 7),
    }
    # Told as retired, the docstring's literal is no example either.
    retired = "    The old ``Evaluator(const=0)`` is deprecated."
    assert _check(tmp_path / "c", docstring=retired) == set()


def test_a_rendered_function_s_docstring_literal_is_judged_through_its_module(tmp_path) -> None:
    function = (
        "from pkg.sub.errors import Hidden\n\n\n"
        "def stagnate(study, patience=30):\n"
        '    """Stops the study, as ``Hidden(lvl=2)`` would."""\n'
        "    return study\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/errors.py": _ERRORS,
        "pkg/sub/stop.py": function,
        "docs/reference.rst": "Reference\n=========\n\n.. autofunction:: pkg.sub.stop.stagnate\n",
    }
    _, findings = check_project(tmp_path / "rendered", files, "pkg")
    found = {(f.key, f.location.path, f.location.line) for f in findings if f.code == "CD301"}
    assert found == {("Hidden(lvl=)", "pkg/sub/stop.py", 5)}
    # A function no page renders is no doc.
    files["docs/reference.rst"] = "Reference\n=========\n\nNothing rendered.\n"
    _, findings = check_project(tmp_path / "unrendered", files, "pkg")
    assert not [f for f in findings if f.code == "CD301"]


@pytest.mark.parametrize(
    ("signature", "found"),
    [
        # ``Hidden`` is the callable the function is given: none of the project's.
        ("def stagnate(Hidden, patience=30):", set()),
        ("def stagnate(study, *, Hidden=None):", set()),
        # Negative case: a parameter of another name; the project's ``Hidden``.
        ("def stagnate(study, patience=30):", {"Hidden(lvl=)"}),
    ],
)
def test_a_docstring_s_call_of_a_parameter_is_none_of_the_projects(
    tmp_path, signature: str, found: set
) -> None:
    function = (
        "from pkg.sub.errors import Hidden\n\n\n"
        f"{signature}\n"
        '    """Calls it, as ``Hidden(lvl=2)`` would."""\n'
        "    return Hidden\n"
    )
    assert _rendered_stop(tmp_path, function, "autofunction:: pkg.sub.stop.stagnate") == found


@pytest.mark.parametrize(("param", "found"), [("Hidden", set()), ("study", {"Hidden(lvl=)"})])
def test_a_class_docstring_s_call_of_its_keyword_is_none_of_the_projects(
    tmp_path, param: str, found: set
) -> None:
    cls = (
        "from pkg.sub.errors import Hidden\n\n\n"
        "class Stop:\n"
        '    """Calls it, as ``Hidden(lvl=2)`` would."""\n\n'
        f"    def __init__(self, {param}=None):\n"
        f"        self.{param} = {param}\n"
    )
    assert _rendered_stop(tmp_path, cls, "autoclass:: pkg.sub.stop.Stop") == found


def _rendered_stop(tmp_path, source: str, directive: str) -> set[str]:
    """The keys of CD301 of ``pkg/sub/stop.py``, which a page renders."""
    files = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/errors.py": _ERRORS,
        "pkg/sub/stop.py": source,
        "docs/reference.rst": f"Reference\n=========\n\n.. {directive}\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    return {f.key for f in findings if f.code == "CD301"}


def test_a_doctest_s_own_import_names_its_callee(tmp_path) -> None:
    # The doctest imports another library's Evaluator: the project's,
    # which the docstring's package exports, is not the one it calls.
    docstring = "    >>> from otherlib import Evaluator\n    >>> Evaluator(const=0)"
    assert _check(tmp_path, docstring=docstring, top=False) == set()


def test_a_docstring_s_literal_is_read_in_two_backticks_alone(tmp_path) -> None:
    # reST's literal; one backtick is interpreted text, a role's target.
    docstring = "    The default is `Evaluator(const=0)`, of ``Evaluator``."
    assert _check(tmp_path, docstring=docstring, top=False) == set()
