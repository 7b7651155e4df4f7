"""A page's section that lists the keyword arguments of the project's
class or function (``## CORSMiddleware`` and its list of ``allow_origins``,
``max_age`` ...) against the callee's signature: an entry the closed
signature does not take is CD101, a default that differs is CD104, an
optional keyword no page names where the section lists two thirds is
CD103."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_CODE = """
class CORSMiddleware:
    def __init__(self, app, allow_origins=(), allow_methods=("GET",), allow_headers=(),
                 allow_credentials=False, max_age=600):
        self.app = app
        self.allow_origins = allow_origins

    def is_allowed(self, origin):
        return origin in self.allow_origins


def serve(app, host="127.0.0.1", port=8000, reload=False, workers=1):
    return app
"""

_BLOCK = """```python
from webby.cors import CORSMiddleware

app = CORSMiddleware(app, allow_origins=["*"])
```
"""

_LIST = """The following arguments are supported:

* `allow_origins` - A list of origins that should be permitted.
* `allow_methods` - A list of HTTP methods. Defaults to `['GET']`.
* `allow_headers` - A list of HTTP request headers. Defaults to `[]`.
* `allow_credentials` - Whether cookies are supported. Defaults to `True`.
* `expose_headers` - Response headers the browser may read. Defaults to `[]`.
* `max_age` - How long browsers cache the answer. Defaults to `600`.
"""

_PAGE = "# Middleware\n\n## CORSMiddleware\n\nAdds CORS headers.\n\n" + _BLOCK + "\n" + _LIST


def _findings(tmp_path, page: str, code: str, **more: str):
    files = {
        "webby/__init__.py": "from webby.cors import CORSMiddleware, serve\n",
        "webby/cors.py": code,
        "docs/middleware.md": page,
        **more,
    }
    return check_project(tmp_path, files, "webby")[1]


def _found(tmp_path, page: str = _PAGE, code: str = _CODE, **more: str) -> set[tuple[str, str]]:
    return {(c, k) for c, k in by_key(_findings(tmp_path, page, code, **more)) if "(" in k}


_JUDGED = {
    ("CD101", "CORSMiddleware(expose_headers=)"),
    ("CD104", "CORSMiddleware(allow_credentials=)"),
}


def test_a_section_that_lists_a_class_keywords_is_judged_against_its_signature(tmp_path) -> None:
    assert _found(tmp_path) == _JUDGED


_IMPORT = "# Middleware\n\n```python\nimport webby\n```\n"


def test_the_title_alone_says_what_the_section_lists(tmp_path) -> None:
    # The page is read for the project's calls: it imports the package.
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    assert _found(tmp_path, page) == _JUDGED


def test_the_call_alone_says_what_the_section_lists(tmp_path) -> None:
    page = _PAGE.replace("## CORSMiddleware", "## Cross-origin requests")
    assert _found(tmp_path, page) == _JUDGED


def test_a_subsection_lists_for_its_section(tmp_path) -> None:
    page = _PAGE.replace("The following arguments", "### Arguments\n\nThe following arguments")
    assert _found(tmp_path, page) == _JUDGED


def test_a_section_about_nothing_certain_is_not_judged(tmp_path) -> None:
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    page = page.replace("## CORSMiddleware", "## Cross-origin requests")
    assert _found(tmp_path, page) == set()


@pytest.mark.parametrize(
    ("name", "title"),
    [
        # A word is the title of a topic, maybe.
        ("Middleware", "## Middleware"),
        # Words around the name.
        ("CORSMiddleware", "## CORSMiddleware options"),
        ("CORSMiddleware", "## `CORSMiddleware` options"),
        # ``app.run()``: a method of something else.
        ("CORSMiddleware", "## `other.CORSMiddleware()`"),
    ],
)
def test_a_title_that_names_no_callable_for_certain_binds_nothing(tmp_path, name, title) -> None:
    code = _CODE.replace("class CORSMiddleware", f"class {name}")
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    page = page.replace("## CORSMiddleware", title)
    init = f"from webby.cors import {name}, serve\n"
    assert _found(tmp_path, page, code, **{"webby/__init__.py": init}) == set()


@pytest.mark.parametrize(
    "title",
    ["## `CORSMiddleware`", "## CORSMiddleware(app, max_age=600)", "## `webby.CORSMiddleware`"],
)
def test_a_title_that_names_the_class_binds_it(tmp_path, title) -> None:
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    assert _found(tmp_path, page.replace("## CORSMiddleware", title)) == _JUDGED


def test_a_name_two_classes_share_is_not_judged(tmp_path) -> None:
    other = "class CORSMiddleware:\n    def __init__(self, app, origins=()):\n        pass\n"
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    assert _found(tmp_path, page, **{"webby/other.py": other}) == set()


def test_a_signature_that_takes_any_keyword_takes_the_listed_one(tmp_path) -> None:
    code = _CODE.replace("max_age=600):", "max_age=600, **options):")
    assert ("CD101", "CORSMiddleware(expose_headers=)") not in _found(tmp_path, code=code)


def test_a_list_of_few_keywords_is_no_list_of_them(tmp_path) -> None:
    page = _PAGE
    for key in ("allow_origins", "allow_methods", "allow_headers"):
        page = page.replace(f"`{key}`", f"`other_{key}`")
    assert _found(tmp_path, page) == set()


def test_a_list_mostly_of_other_names_is_no_list_of_the_keywords(tmp_path) -> None:
    extra = "".join(f"* `header_{n}` - a header.\n" for n in range(3))
    assert _found(tmp_path, _PAGE + extra) == set()


def test_an_attribute_of_the_class_is_no_keyword_listed(tmp_path) -> None:
    page = _PAGE.replace("`expose_headers`", "`is_allowed`")
    assert ("CD101", "CORSMiddleware(is_allowed=)") not in _found(tmp_path, page)


def test_a_default_written_alike_is_no_mismatch(tmp_path) -> None:
    page = _PAGE.replace("Defaults to `True`", "Defaults to `False`")
    assert ("CD104", "CORSMiddleware(allow_credentials=)") not in _found(tmp_path, page)


_SERVE = """# Running

## `serve()`

* `host` - The interface to bind. Defaults to `0.0.0.0`.
* `port` - The port. Defaults to `8000`.
* `reload` - Restart on changes.
"""


def test_a_function_is_judged_as_a_class_is(tmp_path) -> None:
    assert _found(tmp_path, _SERVE) == {
        ("CD104", "serve(host=)"),
        ("CD103", "serve(workers=)"),
    }


def test_a_keyword_another_page_spells_is_documented(tmp_path) -> None:
    guide = "# Guide\n\nStart more with `workers=4`.\n"
    found = _found(tmp_path, _SERVE, **{"docs/guide.md": guide})
    assert ("CD103", "serve(workers=)") not in found


def test_a_function_its_package_does_not_export_is_not_named_by_a_title(tmp_path) -> None:
    init = "from webby.cors import CORSMiddleware\n"
    assert _found(tmp_path, _SERVE, **{"webby/__init__.py": init}) == set()


def test_an_entry_a_surface_places_is_that_surface_s(tmp_path) -> None:
    # A dataclass a page builds and lists the fields of is a surface: its
    # rules judge the entries (CD104 ``host``; ``timeout`` beside may be
    # another setting), not this band.
    code = _CODE + (
        "\n\nfrom dataclasses import dataclass\n\n@dataclass\nclass Settings:\n"
        "    host: str = '127.0.0.1'\n    port: int = 8000\n    reload: bool = False\n"
        "    workers: int = 1\n    debug: bool = False\n"
    )
    block = "```python\nfrom webby.cors import Settings\n\nSettings(port=80)\n```\n\n"
    page = _SERVE.replace("## `serve()`\n\n", "## Running it\n\n" + block)
    page += "* `debug` - Debug mode.\n* `workers` - How many.\n* `timeout` - Seconds.\n"
    found = set(by_key(_findings(tmp_path, page, code)))
    assert ("CD104", "host") in found
    assert not any(key.startswith("Settings(") for _, key in found)


def test_a_title_in_capitals_is_a_word(tmp_path) -> None:
    code = _CODE.replace("class CORSMiddleware", "class CORS")
    page = _PAGE.replace(_BLOCK, "").replace("# Middleware\n", _IMPORT)
    page = page.replace("## CORSMiddleware", "## CORS")
    init = "from webby.cors import CORS, serve\n"
    assert _found(tmp_path, page, code, **{"webby/__init__.py": init}) == set()


def test_a_list_of_two_keywords_is_too_short_to_say(tmp_path) -> None:
    page = _PAGE.split("The following")[0] + (
        "* `allow_credentials` - Cookies. Defaults to `True`.\n* `max_age` - Cache time.\n"
    )
    assert _found(tmp_path, page) == set()


def test_a_section_that_calls_two_callees_is_about_neither(tmp_path) -> None:
    # Two classes that take the same keywords: the list is either's.
    twin = _CODE.split("\n\ndef serve")[0].replace("class CORSMiddleware", "class StrictCORS")
    block = _BLOCK.replace("CORSMiddleware\n", "CORSMiddleware, StrictCORS\n")
    block = block.replace("```\n", "StrictCORS(app, max_age=1)\n```\n", 1)
    page = _PAGE.replace(_BLOCK, block).replace("## CORSMiddleware", "## Cross-origin requests")
    assert _found(tmp_path, page, _CODE + twin) == set()


def test_a_list_of_few_of_the_optional_keywords_leaves_none_out(tmp_path) -> None:
    code = _CODE.replace("workers=1):", "workers=1, backlog=10, timeout=5):")
    assert ("CD103", "serve(workers=)") not in _found(tmp_path, _SERVE, code)


def test_a_keyword_the_docstring_describes_is_documented(tmp_path) -> None:
    docstring = '    """Serve.\n\n    Args:\n        workers: how many processes.\n    """\n'
    code = _CODE.replace("    return app\n", docstring + "    return app\n")
    assert ("CD103", "serve(workers=)") not in _found(tmp_path, _SERVE, code)


@pytest.mark.parametrize("entry", ["* `--reload` - Restart.\n", "* `app.reload` - Restart.\n"])
def test_an_entry_that_is_no_python_name_is_no_keyword(tmp_path, entry) -> None:
    page = _PAGE.replace("* `expose_headers`", entry + "* `expose_headers`")
    assert _found(tmp_path, page) == _JUDGED


def test_a_title_of_one_word_is_no_entry_listed(tmp_path) -> None:
    # ``### options``: a word, a key only where a surface has it.
    page = _PAGE.replace("The following arguments are supported:", "### options")
    assert _found(tmp_path, page) == _JUDGED
