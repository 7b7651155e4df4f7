"""A page's own description of the project's function or class
(``.. py:class:: Huey(name='huey', results=True)`` with its ``:param:``
fields) against the code's signature.

The callee must be certain, as for the docs' calls (``doc_calls``): one
top-level function or class of that name in the whole project; a
method's description (``.. py:method:: fetch(failures=True)``) is none. A keyword
the description gives a default (``retries=0``) that the code's signature
does not take, where the code names every keyword it takes, is CD101: a
reader who passes it gets ``TypeError``. A keyword argument the code
takes with a default that neither the signature nor the fields name, where
they name two thirds of the others, is CD103: the description is the
reference, and it leaves that one out. A default the signature writes
that differs from the code's, both known values, is CD104. A function that hands its
``**kwargs`` whole to one class of the project takes that class's
keywords too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Finding, Location, Related
from configdrift.resolve.project import Symbol
from configdrift.rules.doc_calls import callables, closed_signature, left_out
from configdrift.rules.docstrings import DESCRIBED_SHARE
from configdrift.rules.registry import make
from configdrift.rules.values import parse_doc_value, shown_default, values_equal

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.api_docs import ApiDoc
    from configdrift.extract.python.facts import Expr


def _described(analysis: Analysis) -> Iterator[tuple[str, ApiDoc, str, str]]:
    """Each description of a callable of the project for certain: (page,
    description, module, function: a class's ``__init__``) where the code
    declares the function's signature."""
    pages = analysis.pages_read
    if analysis.first is not None or not pages:
        return  # the project's docs, judged once
    found = callables(analysis)
    for rel, doc in sorted(pages.items()):
        for api in doc.api:
            head = api.name.rpartition(".")[0].rsplit(".", 1)[-1]
            if api.method or any(is_class for *_, is_class in found.get(head, [])):
                continue  # a method's (``Chain.fetch``): no top-level callable of its name
            owners = found.get(api.name.rsplit(".", 1)[-1], [])
            if len(owners) != 1:
                continue  # not one callable for certain (a method, another library's)
            module, qualname, is_class = owners[0]
            function = f"{qualname}.__init__" if is_class else qualname
            if function in analysis.project.modules[module].facts.functions:
                yield rel, api, module, function


def described_keywords_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each keyword a description gives a default that the
    code's closed signature does not take."""
    for rel, api, module, function in _described(analysis):
        signature = closed_signature(analysis, module, function)
        if signature is None:
            continue  # ``**kwargs`` or a decorator: it may take any keyword
        taken, declared = signature
        name = api.name.rsplit(".", 1)[-1]
        for param, default in api.params:
            if default is None or param in taken:
                continue
            yield make(
                "CD101",
                f"{name}({param}=)",
                Location(rel, api.line),
                f"the page describes `{name}` with `{param}={default}`, but {function} does "
                "not take it: following the docs raises TypeError (unexpected keyword argument)",
                (declared,),
            )


def described_defaults_differ(analysis: Analysis) -> Iterator[Finding]:
    """CD104 for each default a description writes in its signature
    (``serve(port=8000)``) that differs from the default the code's
    signature gives, both values known (literals, or constants the code
    names); a keyword the code gives no default, or one it computes, is
    not judged."""
    for rel, api, module, function in _described(analysis):
        facts = analysis.project.modules[module].facts
        given = code_defaults(analysis, module, function)
        line = facts.function_lines.get(function, (1, 1))[0]
        name = api.name.rsplit(".", 1)[-1]
        for param, written in api.params:
            expr = given.get(param)
            if written is None or expr is None:
                continue
            code = analysis.project.evaluate(module, expr)
            doc = parse_doc_value(written)
            if not code.known or code.value is None or values_equal(doc, code.value) is not False:
                continue
            yield make(
                "CD104",
                f"{name}({param}=)",
                Location(rel, api.line),
                f"the page describes `{name}` with `{param}={written}`, but the code's default "
                f"is {shown_default(code.value, code.text)}",
                (Related(analysis.project.modules[module].path, line, f"{function} sets it"),),
            )


def code_defaults(analysis: Analysis, module: str, function: str) -> dict[str, Expr]:
    """The defaults the code's signature gives: a class's ``__init__``'s,
    or a module function's."""
    qualname, _, method = function.rpartition(".")
    if method == "__init__":
        cls = analysis.project.class_fact(Symbol("class", module, qualname))
        return dict(cls.init_defaults) if cls is not None else {}
    signature = analysis.project.modules[module].facts.signatures.get(function, ())
    return {name: expr for name, _, _, expr in signature if expr is not None}


def undescribed_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each optional keyword argument of the code that the
    page's description of the callable leaves out, where it names two
    thirds of them."""
    for rel, api, module, function in _described(analysis):
        facts = analysis.project.modules[module].facts
        optional = [p for p in facts.optional_params.get(function, ()) if not p.startswith("_")]
        optional += [p for p in _forwarded(analysis, module, function) if p not in optional]
        named = ({p for p, _ in api.params} | set(api.fields)) & set(optional)
        if not optional or len(named) < DESCRIBED_SHARE * len(optional):
            continue
        name = api.name.rsplit(".", 1)[-1]
        where = facts.function_lines.get(function, (1, 1))[0]
        declared = (
            Related(analysis.project.modules[module].path, where, f"{function} declares it"),
        )
        said = "the page's description of it names"
        yield from left_out(name, optional, named, Location(rel, api.line), said, declared)


def _forwarded(analysis: Analysis, module: str, function: str) -> list[str]:
    """The optional keyword arguments a function takes through its
    ``**kwargs`` because it hands them whole to one class of the project
    (``def enable_stats(huey, db, **kwargs): HueyStats(huey, db, **kwargs)``):
    that class's ``__init__``'s. One that builds the class from some of its
    own parameters (``Recorder(retention=retention)``) hands on no others."""
    facts = analysis.project.modules[module].facts
    built = [
        (model, line)
        for f, model, line, passed in facts.keyword_models
        if f == function and not passed
    ]
    if len(built) != 1 or built[0][0][0] != "n":
        return []
    symbol = analysis.project.resolve(module, built[0][0][1])
    if symbol is None or symbol.kind != "class":
        return []
    # (An ``__init__`` that hands them on again has no optional keywords
    # on record: none are known.)
    init = f"{symbol.qualname}.__init__"
    target = analysis.project.modules[symbol.module].facts
    return [p for p in target.optional_params.get(init, ()) if not p.startswith("_")]
