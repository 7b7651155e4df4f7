"""A module function's docstring, where a page renders it, against its
signature (CD101): a parameter it describes that the function does not
take, a name it writes one letter from a parameter; each with the cases
that stay quiet."""

from __future__ import annotations

import pytest

from helpers import check_project

_SERVE = '''
def serve(host, port=8000, backlog=100):
    """Start the server.

    :param host: Address to host on.
    :param port: Port to host on.
    :param before_start: Run before the server starts.
    :param backlog: How many connections wait.
    """
'''

_PAGE = "Server\n======\n\n.. autofunction:: pkg.server.serve\n"


def _found(tmp_path, files: dict[str, str]) -> set[tuple[str, str, int]]:
    _, findings = check_project(tmp_path, files, "pkg")
    return {
        (f.key, f.location.path, f.location.line)
        for f in findings
        if f.code == "CD101" and "docstring of" in f.message
    }


def test_a_parameter_a_rendered_docstring_describes_that_the_function_lacks(tmp_path) -> None:
    files = {"pkg/server.py": _SERVE, "docs/api.rst": _PAGE}
    _, findings = check_project(tmp_path, files, "pkg")
    (found,) = [f for f in findings if f.code == "CD101" and "docstring of" in f.message]
    assert (found.key, found.location.path, found.location.line) == (
        "serve(before_start=)",
        "pkg/server.py",
        7,
    )
    assert found.severity == "error"
    assert "docs/api.rst" in found.message
    assert (found.related[0].path, found.related[0].line) == ("pkg/server.py", 2)


def test_a_docstring_no_page_renders_is_not_judged(tmp_path) -> None:
    files = {"pkg/server.py": _SERVE, "docs/api.rst": "Server\n======\n\nText.\n"}
    assert _found(tmp_path, files) == set()


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ([("backlog=100):", "backlog=100, **options):")], "a **kwargs may take it"),
        ([("\ndef serve", "\n@wrapped\ndef serve")], "a decorator may change the signature"),
        (
            [
                ("    :param port: Port to host on.\n", ""),
                ("    :param backlog: How many connections wait.\n", ""),
            ],
            "two parameters described: no reference",
        ),
        ([("backlog=100):", "backlog=100, *before_start):")], "the name of its *args"),
    ],
)
def test_what_stays_quiet(tmp_path, changes, why) -> None:
    source = _SERVE
    for old, new in changes:
        assert old in source, why
        source = source.replace(old, new)
    files = {"pkg/server.py": "wrapped = print\n" + source, "docs/api.rst": _PAGE}
    assert _found(tmp_path, files) == set(), why


def test_a_field_list_in_a_quote_describes_something_else(tmp_path) -> None:
    source = '''
def build_tracer(name, task, loader=None, eager=False):
    """Return a function that traces a task.

    :param name: The task's name.
    :param task: The task.
    :param loader: Its loader.

    Return a function that takes the following arguments:

        :param uuid: The id of the task.
        :param args: Positional arguments.
    """
'''
    page = "Trace\n=====\n\n.. autofunction:: pkg.trace.build_tracer\n"
    assert _found(tmp_path, {"pkg/trace.py": source, "docs/api.rst": page}) == set()
    # The same field at the docstring's own depth is the function's.
    flat = source.replace("        :param uuid", "    :param uuid")
    assert _found(tmp_path / "flat", {"pkg/trace.py": flat, "docs/api.rst": page}) == {
        ("build_tracer(uuid=)", "pkg/trace.py", 11)
    }


_PARETO = '''
def plot_pareto_front(study, target_names=None, include_dominated=True):
    """Plot the Pareto front.

    Args:
        study: The study.
        target_names: The axis titles. When the study has no trial,
            ``target_name`` must be given.
    """
'''


def test_a_name_written_one_letter_from_a_parameter(tmp_path) -> None:
    files = {
        "pkg/__init__.py": "from pkg._pareto import plot_pareto_front\n",
        "pkg/_pareto.py": _PARETO,
        # Another function of that name elsewhere: the page's dotted path
        # says which, through the package's import.
        "pkg/mpl/__init__.py": "",
        "pkg/mpl/_pareto.py": _PARETO,
        "docs/plot.rst": "Plot\n====\n\n.. autofunction:: pkg.plot_pareto_front\n",
    }
    assert _found(tmp_path, files) == {("plot_pareto_front(target_name=)", "pkg/_pareto.py", 8)}
    # A name its module spells as its own (another function's parameter)
    # may be that one.
    files["pkg/_pareto.py"] += "\n\ndef plot_slice(study, target_name=None):\n    pass\n"
    assert _found(tmp_path / "spelt", files) == set()


def test_a_bare_name_two_functions_share_is_not_certain(tmp_path) -> None:
    files = {
        "pkg/a.py": _PARETO,
        "pkg/b.py": _PARETO,
        "docs/plot.rst": "Plot\n====\n\n.. autofunction:: plot_pareto_front\n",
    }
    assert _found(tmp_path, files) == set()


def test_a_gallery_example_s_docstring_renders_the_function(tmp_path) -> None:
    example = (
        '"""\nplot_pareto_front\n=================\n\n'
        '.. autofunction:: pkg.plot_pareto_front\n\nHow to plot.\n"""\n\n'
        "import pkg\n\npkg.plot_pareto_front(study=None)\n"
    )
    files = {
        "pkg/__init__.py": "from pkg._pareto import plot_pareto_front\n",
        "pkg/_pareto.py": _PARETO,
        "docs/examples/plot_pareto_front.py": example,
        "docs/index.rst": "Docs\n====\n\nText.\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    (found,) = [f for f in findings if f.code == "CD101" and "docstring of" in f.message]
    assert found.key == "plot_pareto_front(target_name=)"
    assert "docs/examples/plot_pareto_front.py" in found.message
    # A script that does not import the project is no example of it.
    files["docs/examples/plot_pareto_front.py"] = example.replace("import pkg\n", "")
    assert _found(tmp_path / "foreign", files) == set()


def test_a_module_rendered_with_its_members_renders_what_all_lists(tmp_path) -> None:
    files = {
        "pkg/server.py": '__all__ = ["serve"]\n' + _SERVE,
        "docs/api.rst": "Server\n======\n\n.. automodule:: pkg.server\n   :members:\n",
    }
    assert _found(tmp_path, files) == {("serve(before_start=)", "pkg/server.py", 8)}


def test_module_functions_and_methods_are_read() -> None:
    # A method's docstring is kept as a function's; a nested class's
    # method's is not (no page renders it as its class's).
    from configdrift.extract.python.extractor import extract_source

    method = "class Server:\n" + _SERVE.replace("\n", "\n    ").replace("(host", "(self, host")
    assert extract_source(_SERVE).doc_untaken == {"serve": (4, [("before_start", 7)])}
    assert extract_source(method).doc_untaken == {"Server.serve": (4, [("before_start", 8)])}
    nested = extract_source("class Outer:\n    " + method.replace("\n", "\n    "))
    assert "Outer.Server.serve" in nested.functions and nested.doc_untaken == {}


def test_an_autosummary_row_in_small_letters_renders_a_function(tmp_path) -> None:
    # ``:toctree:`` writes a page for each row: a function's renders its
    # docstring. A module's row (``pkg.retries``) renders no docstring of
    # its classes.
    retries = (
        "class Retries:\n"
        '    """Retries.\n\n    :param count: How many.\n    :param delay: How long.\n'
        '    :param jitter: How random.\n    """\n\n'
        "    def __init__(self, count=1, delay=0):\n        pass\n"
    )
    page = (
        "API\n===\n\n.. currentmodule:: pkg.server\n\n"
        ".. autosummary::\n   :toctree: generated/\n\n   serve\n   pkg.retries\n"
    )
    files = {"pkg/server.py": _SERVE, "pkg/retries.py": retries, "docs/api.rst": page}
    _, findings = check_project(tmp_path / "toctree", files, "pkg")
    found = {(f.code, f.key) for f in findings if f.code == "CD101"}
    assert found == {("CD101", "serve(before_start=)")}
    # An autosummary that only lists them in a table renders none.
    files["docs/api.rst"] = page.replace("   :toctree: generated/\n", "")
    assert _found(tmp_path / "table", files) == set()


_CLIENT = '''
class Client:
    """A client."""

    def fetch(self, url, timeout=5, retries=1):
        """Fetch a page.

        :param url: The page.
        :param timeout: How long.
        :param verify: Whether to check the certificate.
        """

    def send(self, body, retries=1, delay=0):
        """Send a body.

        :param body: What.
        :param retries: How often.
        :param jitter: How random.
        """

    def _private(self, a, b=1, c=2):
        """Not rendered.

        :param a: A.
        :param b: B.
        :param gone: Gone.
        """

    class Inner:
        def nested(self, a, b=1, c=2):
            """A nested class's method.

            :param a: A.
            :param b: B.
            :param gone: Gone.
            """
'''


@pytest.mark.parametrize(
    ("page", "found"),
    [
        (".. autoclass:: pkg.client.Client\n   :members:\n", {"fetch(verify=)", "send(jitter=)"}),
        (".. autoclass:: pkg.client.Client\n   :members: send\n", {"send(jitter=)"}),
        (".. automethod:: pkg.client.Client.fetch\n", {"fetch(verify=)"}),
        # A bare class name: the one class of the project of that name.
        (".. autoclass:: Client\n   :members:\n", {"fetch(verify=)", "send(jitter=)"}),
        # Without its members a class's directive renders no method.
        (".. autoclass:: pkg.client.Client\n", set()),
    ],
)
def test_a_method_a_page_renders_is_judged_as_a_function(tmp_path, page, found) -> None:
    files = {"pkg/client.py": _CLIENT, "docs/api.rst": f"API\n===\n\n{page}"}
    assert {key for key, _, _ in _found(tmp_path, files)} == {f"Client.{k}" for k in found}


def test_mkdocstrings_renders_a_class_s_methods(tmp_path) -> None:
    files = {"pkg/client.py": _CLIENT, "docs/api.md": "# API\n\n::: pkg.client.Client\n"}
    found = {key for key, _, _ in _found(tmp_path, files)}
    assert found == {"Client.fetch(verify=)", "Client.send(jitter=)"}


def test_a_module_s_members_render_no_method(tmp_path) -> None:
    # An automodule with :members: names no class: its classes' methods
    # are rendered only where a directive of the class says so.
    files = {
        "pkg/__init__.py": "",
        "pkg/client.py": _CLIENT,
        "docs/api.rst": "API\n===\n\n.. automodule:: pkg.client\n   :members:\n",
    }
    assert _found(tmp_path, files) == set()


def test_a_class_of_another_library_renders_no_method_of_the_project(tmp_path) -> None:
    files = {
        "pkg/__init__.py": "from otherlib import Client\n",
        "pkg/client.py": _CLIENT,
        "docs/api.rst": "API\n===\n\n.. autoclass:: pkg.Client\n   :members:\n",
    }
    assert _found(tmp_path, files) == set()


_TEMPLATED = (
    "API\n===\n\n.. currentmodule:: pkg.client\n\n"
    ".. autosummary::\n   :toctree: generated\n   :template: {template}\n\n   Client\n"
)


@pytest.mark.parametrize(
    ("template", "text", "found"),
    [
        # The class's page renders its members through the template.
        ("classtemplate.rst", ".. autoclass:: {{ name }}\n    :members:\n", True),
        ("classtemplate.rst", ".. autoclass:: {{ name }}\n    :show-inheritance:\n", False),
        # A template the page's folders hold none of, or one outside them.
        ("missing.rst", ".. autoclass:: {{ name }}\n    :members:\n", False),
        ("../_templates/classtemplate.rst", ".. autoclass:: {{ name }}\n    :members:\n", False),
    ],
)
def test_an_autosummary_template_that_renders_members(tmp_path, template, text, found) -> None:
    files = {
        "pkg/client.py": _CLIENT,
        "docs/en/api/client.rst": _TEMPLATED.format(template=template),
        "docs/en/_templates/classtemplate.rst": text,
    }
    keys = {key for key, _, _ in _found(tmp_path, files)}
    assert keys == ({"Client.fetch(verify=)", "Client.send(jitter=)"} if found else set())


def test_a_template_named_by_an_absolute_path_is_never_read(tmp_path) -> None:
    # The tree's reader refuses a path outside the tree.
    outside = tmp_path / "outside.rst"
    outside.write_text(".. autoclass:: {{ name }}\n    :members:\n")
    files = {
        "pkg/client.py": _CLIENT,
        "docs/api/client.rst": _TEMPLATED.format(template=str(outside)),
    }
    assert _found(tmp_path / "project", files) == set()
