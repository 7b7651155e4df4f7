"""CD103 for an optional keyword argument of the project's own function
that the docs' calls and pages never name, where they name three quarters
of them: the docs' reference of the function leaves it out."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_SERVER = '''
def serve(app, host="localhost", port=8080, workers=1, debug=False, reload=False):
    """Serve the app."""
    return app, host, port, workers, debug, reload
'''

_PAGE = """# Serving

```python
import shop

shop.serve(app, host="0.0.0.0", port=80, workers=4)
```

Pass `debug=True` to see more.
"""


def _found(tmp_path, server: str = _SERVER, page: str = _PAGE) -> dict:
    files = {
        "shop/__init__.py": "from shop.server import serve\n",
        "shop/server.py": server,
        "docs/serving.md": page,
    }
    _, findings = check_project(tmp_path, files, "shop")
    return by_key(findings)


def test_a_keyword_the_docs_never_name(tmp_path) -> None:
    found = _found(tmp_path)
    finding = found["CD103", "serve(reload=)"]
    assert (finding.location.path, finding.location.line) == ("shop/server.py", 2)
    assert "4 of its 5 optional keyword arguments" in finding.message
    # The first parameter is given by position: not judged.
    assert ("CD103", "serve(host=)") not in found
    # Named as a word of its own anywhere in the pages, it is described.
    found = _found(tmp_path, page=_PAGE + "\nWith `reload`, changes restart it.\n")
    assert ("CD103", "serve(reload=)") not in found


def test_an_attribute_of_another_object_names_no_keyword(tmp_path) -> None:
    found = _found(tmp_path, page=_PAGE + "\nSet `shop.options.reload` instead.\n")
    assert ("CD103", "serve(reload=)") in found


def test_docs_that_name_few_keywords_have_no_reference(tmp_path) -> None:
    page = _PAGE.replace(", workers=4", "").replace("Pass `debug=True` to see more.", "")
    assert not [k for c, k in _found(tmp_path, page=page) if c == "CD103" and "(" in k]


@pytest.mark.parametrize(
    "server",
    [
        # The docstring, which autodoc renders, names it.
        _SERVER.replace('"""Serve the app."""', '"""Serve the app; reload: restart on change."""'),
        # A deprecation message names it.
        _SERVER.replace(
            "    return app,",
            '    if reload:\n        warn("reload is deprecated")\n    return app,',
        ),
        # ``**kwargs``: the signature may take more, and may be another's.
        _SERVER.replace("reload=False)", "reload=False, **options)"),
        # A decorator may change the signature.
        "import functools\n\n\n@functools.lru_cache\n" + _SERVER.lstrip(),
    ],
)
def test_a_keyword_said_elsewhere_or_a_signature_not_known_is_not_judged(tmp_path, server) -> None:
    assert ("CD103", "serve(reload=)") not in _found(tmp_path, server=server)


def test_the_first_parameter_is_given_by_position(tmp_path) -> None:
    # A decorator's function, a request's URL: passed by position.
    server = _SERVER.replace("def serve(app,", "def serve(target=None,")
    found = _found(tmp_path, server=server)
    assert ("CD103", "serve(target=)") not in found
    assert ("CD103", "serve(reload=)") in found


def test_a_class_is_judged_by_its_init_past_self(tmp_path) -> None:
    server = (
        "class Server:\n"
        '    def __init__(self, target=None, host="localhost", port=8080, workers=1, debug=False,'
        " reload=False):\n"
        "        self.target = target\n"
    )
    files = {
        "shop/__init__.py": "from shop.server import Server\n",
        "shop/server.py": server,
        "docs/serving.md": _PAGE.replace("shop.serve(app, ", "shop.Server(app, "),
    }
    _, findings = check_project(tmp_path, files, "shop")
    found = by_key(findings)
    assert ("CD103", "Server(reload=)") in found
    assert ("CD103", "Server(target=)") not in found


def test_optional_keywords_are_those_with_a_default_a_caller_may_name() -> None:
    import ast

    from configdrift.extract.python.exprs import optional_keywords

    tree = ast.parse("def f(func, /, a, b=1, *args, c, d=2, **kw): pass")
    assert optional_keywords(tree.body[0].args) == ["b", "d"]
    tree = ast.parse("def f(func=None, /, b=1): pass")
    assert optional_keywords(tree.body[0].args) == ["b"]


def test_the_project_is_judged_once(tmp_path) -> None:
    import dataclasses

    from configdrift.rules.doc_calls import unnamed_keywords

    files = {
        "shop/__init__.py": "from shop.server import serve\n",
        "shop/server.py": _SERVER,
        "docs/serving.md": _PAGE,
    }
    analysis, _ = check_project(tmp_path, files, "shop")
    assert list(unnamed_keywords(analysis))
    # Another surface of the project says nothing: the first said it.
    assert not list(unnamed_keywords(dataclasses.replace(analysis, first=analysis)))
