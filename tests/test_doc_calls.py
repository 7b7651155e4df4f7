"""A call in the docs of the project's own function or class with a
keyword its signature does not take is CD301: following the docs raises
TypeError. Only where the callee is certain and its signature complete."""

from __future__ import annotations

from helpers import check_project

_INIT = (
    "from app.server import serve, start, wrapped\n"
    "from app.core import App, Base, Manual, Settings\n"
)
_SERVER = """
import functools


def serve(app, port=8000, host="127.0.0.1"):
    return app


def start(app, **options):
    return app


def retry(f):
    @functools.wraps(f)
    def inner(*a, **k):
        return f(*a, **k)
    return inner


@retry
def wrapped(app, port=1):
    return app


def to_dict(data):
    return dict(data)
"""
_CORE = """
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class Base:
    def __init__(self, name, env_prefix="APP_"):
        self.name = name


class App(Base):
    def __init__(self, name, env_prefix="APP_", strict=False):
        super().__init__(name, env_prefix)


class Plain(Base):
    pass


@dataclass
class Settings(Generic[T]):
    debug: bool = False


@dataclass(init=False)
class Manual(Base):
    level: int = 0
"""


def _calls(tmp_path, block: str, **extra: str):
    page = f"# Use\n\n```python\n{block}\n```\n"
    files = {
        "app/__init__.py": _INIT,
        "app/server.py": _SERVER,
        "app/core.py": _CORE,
        "docs/use.md": page,
        **extra,
    }
    _, findings = check_project(tmp_path, files, "app")
    return {f.key: f for f in findings if f.code == "CD301"}


def test_a_keyword_the_callee_does_not_take_is_an_error(tmp_path) -> None:
    found = _calls(
        tmp_path,
        "from app import App, serve\napp = App(__name__, load_env=False)\n"
        "serve(app, port=8080, colour='red')\napp.server.serve(app, host='h')",
    )
    assert set(found) == {"App(load_env=)", "serve(colour=)"}
    app = found["App(load_env=)"]
    assert app.severity.value == "error" and app.location.line == 5
    assert "raises TypeError" in app.message
    assert "App.__init__ takes env_prefix, name, strict" in app.related[0].note


def test_the_docs_a_site_keeps_of_a_past_release_are_history(tmp_path) -> None:
    # Docusaurus keeps each release's docs as they were: an old keyword
    # there is no drift; the same call on a current page is.
    block = "from app import App\napp = App(__name__, load_env=False)"
    page = f"# Use\n\n```python\n{block}\n```\n"
    old = {"website/versioned_docs/version-0.1/use.md": page}
    assert "App(load_env=)" not in _calls(tmp_path / "old", "", **old)
    now = {"website/docs/use.md": page}
    assert "App(load_env=)" in _calls(tmp_path / "now", "", **now)


def test_a_migration_guide_s_call_is_told_as_a_warning(tmp_path) -> None:
    # A guide to an upgrade shows the code of the version it leads to,
    # which a later version may change again.
    block = "from app import App\napp = App(__name__, load_env=False)"
    for page in ("docs/migration.md", "docs/upgrading-to-2.md"):
        found = _calls(
            tmp_path / page.replace("/", "_"),
            "",
            **{page: f"# Upgrade\n\n```python\n{block}\n```\n"},
        )
        assert found["App(load_env=)"].severity.value == "warning", page


def test_an_open_or_uncertain_signature_is_not_judged(tmp_path) -> None:
    found = _calls(
        tmp_path,
        # **options, a decorator, no __init__ of its own, a dataclass that
        # generates none, a method of another object, another library, a
        # name no package exports.
        "start(app, anything=1)\nwrapped(app, port=2, other=3)\nPlain('x', more=1)\n"
        "Manual('x', level=1, more=2)\nsettings.to_dict(env='dev')\n"
        "requests.get('u', timeout=3)\nto_dict(data, deep=True)",
    )
    assert found == {}


def test_a_dataclass_takes_its_fields_only(tmp_path) -> None:
    found = _calls(tmp_path, "from app import Settings\nSettings(debug=True, extra=1)")
    assert set(found) == {"Settings(extra=)"}
    assert (
        "Settings is a dataclass: it takes its fields (debug)"
        in found["Settings(extra=)"].related[0].note
    )


def test_a_name_two_callables_share_is_not_judged(tmp_path) -> None:
    twin = "def serve(app, size=1):\n    return app\n"
    found = _calls(tmp_path, "serve(app, colour='red')", **{"app/other.py": twin})
    assert found == {}


def test_a_name_two_callables_share_is_the_one_the_block_imports(tmp_path) -> None:
    # ``serve`` of ``app.server`` (imported there, or through the package
    # that imports it), not ``app.other``'s: that one is named by a
    # block that imports it, and takes ``size``.
    twin = {"app/other.py": "def serve(app, size=1):\n    return app\n"}
    block = "from app.server import serve\nserve(app, colour='red', size=2)"
    found = _calls(tmp_path / "module", block, **twin)
    assert set(found) == {"serve(colour=)", "serve(size=)"}
    assert "serve takes app, host, port" in found["serve(size=)"].related[0].note
    block = "from app import serve\nserve(app, colour='red')"
    assert set(_calls(tmp_path / "package", block, **twin)) == {"serve(colour=)"}
    block = "from app import server\nserver.serve(app, colour='red')"
    assert set(_calls(tmp_path / "modules", block, **twin)) == {"serve(colour=)"}
    block = "from app.other import serve\nserve(app, size=2, colour='red')"
    assert set(_calls(tmp_path / "other", block, **twin)) == {"serve(colour=)"}
    # Imported from a module that binds the name to no callable of the
    # project's top level: not judged.
    block = "from app.core import serve\nserve(app, colour='red')"
    assert _calls(tmp_path / "none", block, **twin) == {}


def test_an_example_script_s_calls_of_what_it_imports_are_judged(tmp_path) -> None:
    script = "from app.core import App\n\n\napp = App('x', load_env=False)\n"
    found = _calls(tmp_path, "x = 1", **{"examples/demo/run.py": script})
    assert found["App(load_env=)"].location.path == "examples/demo/run.py"
    assert found["App(load_env=)"].location.line == 4
    # Not a test's, nor a script outside the examples and docs, nor a
    # name the script defines itself (``serve``, though the package
    # exports one).
    own = (
        "from app import App\n\n\ndef serve(app, colour=None):\n    return app\n\n\n"
        "serve(None, colour='red')\n"
    )
    others = {
        "examples/tests/test_run.py": script,
        "scripts/run.py": script,
        "examples/own.py": own,
        "examples/plain.py": "import json\n\nprint(json.dumps({}, indent=2))\n",
    }
    assert _calls(tmp_path / "others", "x = 1", **others) == {}
    # A script that imports nothing of the project's is not read at all.
    analysis, _ = check_project(tmp_path / "plain", {**others, "app/core.py": _CORE}, "app")
    assert set(analysis.calling_pages) == {"examples/own.py"}


def test_a_call_spelt_through_the_package_it_imports_is_judged(tmp_path) -> None:
    # ``app.storages.Storage``: the package the block imports binds
    # ``storages``, which imports the class from a private module.
    files = {
        "app/__init__.py": _INIT + "from app import storages\n",
        "app/storages/__init__.py": "from app.storages._rdb import Storage\n",
        "app/storages/_rdb.py": "class Storage:\n    def __init__(self, url, retries=3):\n        pass\n",
    }
    block = "import app\napp.storages.Storage(url='x', colour=1)"
    assert set(_calls(tmp_path, block, **files)) == {"Storage(colour=)"}
    # A name the block binds no import to says nothing of its module.
    block = "storages.Storage(url='x', colour=1)"
    assert _calls(tmp_path / "bare", block, **files) == {}


def test_a_page_no_surface_reads_is_read_for_its_calls(tmp_path) -> None:
    # The configuration's reference is another page; this one names none
    # of its keys, and calls the project's class with a keyword it lacks.
    model = (
        "from pydantic import BaseModel\n\n\nclass Options(BaseModel):\n"
        "    alpha: int = 1\n    beta: int = 2\n    gamma: int = 3\n"
    )
    reference = "# Options\n\n" + "".join(
        f"- `{key}` (int): the {key}. Default: `{n}`.\n"
        for n, key in enumerate(("alpha", "beta", "gamma"), start=1)
    )
    api = ".. sourcecode:: python\n\n    from app.core import App\n    App('x', load_env=False)\n"
    files = {"app/options.py": model, "docs/options.md": reference, "docs/api.rst": api}
    found = _calls(tmp_path, "x = 1", **files)
    assert found["App(load_env=)"].location.path == "docs/api.rst"
    # Nor one of the project's history: the calls of a past release.
    found = _calls(
        tmp_path / "history", "x = 1", **{**files, "docs/api.rst": "", "docs/changelog.rst": api}
    )
    assert "App(load_env=)" not in found
    # A page that imports no package of the project is not read for it.
    other = api.replace("from app.core", "from elsewhere")
    found = _calls(tmp_path / "other", "x = 1", **{**files, "docs/api.rst": other})
    assert "App(load_env=)" not in found


def test_a_callee_the_block_imports_from_another_library_is_not_judged(tmp_path) -> None:
    # ``App`` of another package, though the project has one; and the
    # project's own, imported from it or from one of its modules.
    found = _calls(
        tmp_path,
        "from other_lib import App\nimport other_lib as serve\n"
        "App('x', load_env=False)\nserve.serve(app, colour='red')",
    )
    assert found == {}
    found = _calls(tmp_path / "own", "from app.core import App\nApp('x', load_env=False)")
    assert set(found) == {"App(load_env=)"}


def test_a_call_in_a_fence_indented_under_a_tab_is_judged(tmp_path) -> None:
    page = (
        '# Use\n\n=== "Python"\n\n    ```python\n    from app import App\n'
        "    App('x', load_env=False)\n    ```\n"
    )
    found = _calls(tmp_path, "x = 1", **{"docs/tabs.md": page})
    assert found["App(load_env=)"].location.line == 7


def test_a_keyword_the_callee_deprecates_is_reported_where_the_docs_pass_it(tmp_path) -> None:
    source = (
        "import warnings\n\n\n"
        'def evaluate(data, margin="deprecated", scale=1):\n    return data\n\n\n'
        "class Triplet:\n"
        "    def __init__(self, name, old_metric=None, metric=None):\n"
        "        if old_metric is not None:\n"
        '            warnings.warn("`old_metric` is deprecated, use `metric` instead")\n'
        "\n\nclass Target:\n"
        "    def __init__(self, path, format=None, mode='r'):\n"
        "        if hasattr(format, 'writer'):\n"
        '            warnings.warn("the writer method for format is deprecated")\n'
    )
    block = (
        "from app.tools import evaluate, Target, Triplet\n"
        "evaluate([1], margin=0.5, scale=2)\nTriplet('t', old_metric='cos', metric='dot')\n"
        "Target('p', format=None)"
    )
    files = {
        "app/__init__.py": "",
        "app/tools.py": source,
        "docs/use.md": f"# Use\n\n```python\n{block}\n```\n",
    }
    _, findings = check_project(tmp_path, files, "app")
    deprecated = {(f.key, f.location.line) for f in findings if f.code == "CD402"}
    # The name the message calls deprecated, not the one it points to nor
    # one a deprecated thing belongs to; a callee imported from its
    # module is certain.
    assert deprecated == {("evaluate(margin=)", 5), ("Triplet(old_metric=)", 6)}


def test_an_untagged_rst_block_that_imports_is_python_also_embedded_in_markdown() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    rst = (
        ".. tab:: One\n\n    ::\n\n        from app import App\n        App('x', strict=True)\n\n"
        "::\n\n    App('y', strict=False)\n"
    )
    # The block that imports is Python; the one that does not may be any
    # language's.
    assert [(b.call, b.line) for b in extract_rst(rst.encode()).calls] == [("App", 6)]
    page = f"# Use\n\nText.\n\n```{{eval-rst}}\n{rst}```\n"
    calls = extract_markdown(page.encode()).calls
    assert [(b.call, b.line, [k.line for k in b.keys]) for b in calls] == [("App", 11, [11])]


def test_code_shown_through_a_myst_directive_or_a_braced_language_is_read() -> None:
    from configdrift.extract.docs.markdown import extract_markdown

    page = (
        "# Use\n\n"  # 1-2
        "```{code-block} python\n"  # 3
        ":caption: Serving\n"  # 4
        ":linenos:\n"  # 5
        "App('x', strict=True)\n"  # 6
        "```\n\n"  # 7-8
        "```{python}\n"  # 9
        "App('y', port=1)\n"  # 10
        "```\n\n"  # 11-12
        "```{code-cell} ipython\n"  # 13
        "App('z', host='h')\n"  # 14
        "```\n\n"  # 15-16
        "```{note}\n"  # 17
        "App('w', color=1)\n"  # 18
        "```\n"
    )
    calls = extract_markdown(page.encode()).calls
    # An admonition's text is prose, not code; the directive's options are
    # not the code's lines.
    assert [(b.call, [(k.path[0], k.line) for k in b.keys]) for b in calls] == [
        ("App", [("strict", 6)]),
        ("App", [("port", 10)]),
        ("App", [("host", 14)]),
    ]
    # Another language shown the same way is not Python.
    rst = "# Use\n\n```{code-block} yaml\nApp('x', strict=True)\n```\n"
    assert extract_markdown(rst.encode()).calls == []


_FORWARDING = """
from app.core import App, Plain
from other_lib import Thing


def run(app, reload=False, **kwargs):
    config = App(app, **kwargs)
    return config, reload


def launch(app, **kwargs):
    debug = kwargs.pop("debug", False)
    return App(app, **kwargs), debug


def spread(app, **kwargs):
    App(app, **kwargs)
    return Other(**kwargs)


def loose(app, **kwargs):
    return Plain(app, **kwargs)


def foreign(app, **kwargs):
    return Thing(app, **kwargs)


class Relay:
    def __init__(self, app, **kwargs):
        self.app = App(app, **kwargs)


def relayed(app, **kwargs):
    return Relay(app, **kwargs)
"""


def test_keywords_handed_on_whole_to_a_class_are_its_constructors(tmp_path) -> None:
    # ``run(app, **kwargs)`` builds ``App(app, **kwargs)``: it takes its own
    # keywords and App's.
    init = _INIT + "from app.runner import foreign, launch, loose, relayed, run, spread\n"
    extra = {"app/__init__.py": init, "app/runner.py": _FORWARDING}
    found = _calls(tmp_path, "run(app, strict=True, reload=True, colour='red')", **extra)
    assert set(found) == {"run(colour=)"}
    assert "run hands its keywords on to App: App.__init__ takes" in (
        found["run(colour=)"].related[0].note
    )
    # A function that takes a keyword out first, hands them to two callees,
    # to a class whose constructor is open or hands them on again, or to
    # another library's: not judged.
    others = (
        "launch(app, debug=True)\nspread(app, colour=1)\nloose(app, colour=2)\n"
        "relayed(app, colour=3)\nforeign(app, colour=4)"
    )
    assert _calls(tmp_path / "others", others, **extra) == {}
