"""Calls in the docs' Python blocks of the project's own functions and
classes, with a keyword argument the callee does not take: following the
docs raises ``TypeError: unexpected keyword argument`` (reported by CD301).
A code span of the prose that is one such call (```Evaluator(const=0)```)
counts as a block, unless its paragraph tells of it as retired
("deprecated", "removed", "use ... instead").

The calls are those of every page read, of the pages that import one of
the project's packages (read for them alone), and of the scripts of its
examples' and docs' folders that import it (of what they import alone:
a name a script defines is its own).

The callee must be certain: a name the package exports at its top
(``from sanic import Sanic``) or spelt with the package's name
(``pkg.server.serve``), one function or class of that name in the whole
project, or the one the block imports it from where two share the name
(``from pkg.lint import Run``; ``import pkg`` then
``pkg.storages.Storage``), whose signature names every keyword it takes: its own, or the
``__init__`` a dataclass or attrs generates from its fields; a
function that hands its ``**kwargs`` whole to one class of the project
and uses them for nothing else (``run(app, **kwargs)`` building
``Config(app, **kwargs)``) takes that class's keywords too. Another
``**kwargs``, a decorator that may change the signature, a class with no
``__init__`` of its own that is no such model (a subclass, a pydantic
model that may ignore what it does not know): the call is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.analysis import top_packages
from configdrift.files import read_or_none
from configdrift.model import Finding, Location, Related
from configdrift.resolve.project import Project, Symbol
from configdrift.rules.evidence import MAX_OTHER_BYTES, once
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import Block

#: The parameters no caller passes by keyword.
_BOUND = frozenset({"self", "cls"})


def callables(analysis: Analysis) -> dict[str, list[tuple[str, str, bool]]]:
    """Every top-level function and class of the project by its name:
    (module, qualname, is_class); once a project."""

    def derive() -> dict[str, list[tuple[str, str, bool]]]:
        out: dict[str, list[tuple[str, str, bool]]] = {}
        for module, info in analysis.project.modules.items():
            for qualname in info.facts.functions:
                if "." not in qualname:
                    out.setdefault(qualname, []).append((module, qualname, False))
            for qualname in info.classes:
                if "." not in qualname:
                    out.setdefault(qualname, []).append((module, qualname, True))
        return out

    return once(analysis, "doc_calls.callables", derive)


def _names_in(analysis: Analysis, module: str) -> set[str]:
    """The names the project's ``module`` defines or imports."""
    info = analysis.project.modules.get(module)
    if info is None:
        return set()
    return {*info.facts.functions, *info.classes, *(i.local for i in info.facts.imports)}


def exported_names(analysis: Analysis) -> dict[str, set[str]]:
    """The names each top-level package of the project exports: defined or
    imported in its ``__init__``."""
    return {module: _names_in(analysis, module) for module in top_packages(analysis.project)}


def _names_callee(parts: list[str], module: str, exported: dict[str, set[str]]) -> bool:
    """Does the call's spelling name the callee of ``module`` for certain:
    a name a package exports, bare (``Sanic``) or after the package's
    name (``sanic.Sanic``), or the callee's module spelt out
    (``pkg.server.serve``)?"""
    name = parts[-1]
    if len(parts) == 1:
        return any(name in names for names in exported.values())
    prefix = ".".join(parts[:-1])
    return prefix == module or name in exported.get(prefix, ())


def doc_call_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each keyword a doc call gives the project's own callee
    that its signature does not take."""
    # The docs and the pages read for their examples (a tutorial beside
    # configured docs) alike: a reader follows either.
    if analysis.first is not None:
        return  # the project's docs, judged once
    yield from calls_not_taken(analysis, analysis.doc_calls)


def callees(
    analysis: Analysis, calls: list[tuple[str, Block]]
) -> Iterator[tuple[str, Block, str, str, bool]]:
    """Each call whose callee is the project's own for certain, with it:
    (file, call, module, qualname, is_class)."""
    project = analysis.project
    by_name = callables(analysis)
    exported = exported_names(analysis)
    packages = {module.split(".", 1)[0] for module in project.modules}
    for rel, block in calls:
        if block.foreign(packages):
            continue  # imported from another library (``from other import Config``)
        parts = block.call.split(".")
        found = by_name.get(parts[-1], [])
        if not found:
            continue  # no callable of the project's (another library's, a method)
        imported = _imported(project, block) if block.origin else None
        if len(found) > 1:
            # A name two modules define (``Run``): the one the block
            # imports it from (``from pkg.lint import Run``) says which.
            found = [f for f in found if f[:2] == imported]
            if len(found) == 1:
                yield rel, block, *found[0]
            continue
        # ``from pkg.evaluation import TripletEvaluator``: its module names it.
        named = block.origin and len(parts) == 1 and parts[0] in _names_in(analysis, block.origin)
        if named or _names_callee(parts, found[0][0], exported) or imported == found[0][:2]:
            yield rel, block, *found[0]


def _imported(project: Project, block: Block) -> tuple[str, str] | None:
    """What a call names through the module its block imports the call's
    first name from (``from pkg.lint import Run``; ``import pkg`` for
    ``pkg.storages.Storage``; ``from pkg import server`` for
    ``server.serve``), as (module, qualname); None where it names nothing
    of the project's from there."""
    symbol = project.resolve(block.origin, block.call)
    head, _, rest = block.call.partition(".")
    if symbol is None and rest:
        # The package ``import pkg.sub`` binds (``pkg``), or a submodule
        # the package does not import itself (``from pkg import server``
        # imports ``pkg.server``).
        bound = head if head == block.origin.split(".", 1)[0] else f"{block.origin}.{head}"
        module = project.canonical(bound)
        symbol = project.resolve(module, rest) if module is not None else None
    return None if symbol is None else (symbol.module, symbol.qualname)


def calls_not_taken(analysis: Analysis, calls: list[tuple[str, Block]]) -> Iterator[Finding]:
    """CD301 for each keyword of these calls (each with the file it is
    written in) that the project's own callee does not take."""
    for rel, block, module, qualname, is_class in callees(analysis, calls):
        name = block.call.split(".")[-1]
        signature = keywords_taken(analysis, module, qualname, is_class)
        if signature is None:
            continue
        taken, declared = signature
        for key in block.keys:
            keyword = key.path[0]
            if keyword in taken:
                continue
            yield make(
                "CD301",
                f"{name}({keyword}=)",
                Location(rel, key.line),
                f"the example calls `{name}` with `{keyword}=`, which {qualname} does not "
                "take: following the docs raises TypeError (unexpected keyword argument)",
                (declared,),
            )


def calls_deprecated(analysis: Analysis, calls: list[tuple[str, Block]]) -> Iterator[Finding]:
    """CD402 for each keyword of these calls that the project's own callee
    deprecates (a default that says so, a deprecation message that names
    it)."""
    for rel, block, module, qualname, is_class in callees(analysis, calls):
        function = f"{qualname}.__init__" if is_class else qualname
        facts = analysis.project.modules[module].facts
        deprecated = set(facts.deprecated_params.get(function, ()))
        if not deprecated:
            continue
        name = block.call.split(".")[-1]
        where = facts.function_lines.get(function, (1, 1))[0]
        said = Related(analysis.project.modules[module].path, where, f"{function} deprecates it")
        for key in block.keys:
            if key.path[0] in deprecated:
                yield make(
                    "CD402",
                    f"{name}({key.path[0]}=)",
                    Location(rel, key.line),
                    f"the example calls `{name}` with `{key.path[0]}=`, which is deprecated",
                    (said,),
                )


def keywords_taken(
    analysis: Analysis, module: str, qualname: str, is_class: bool
) -> tuple[set[str], Related] | None:
    """The keywords a class (its constructor) or a function of the project
    takes, and where it says so, where it names every one; None
    otherwise."""
    if is_class:
        return constructor(analysis, module, qualname)
    return closed_signature(analysis, module, qualname)


def closed_signature(
    analysis: Analysis, module: str, function: str, forward: bool = True
) -> tuple[set[str], Related] | None:
    """The keywords a function of the project takes, and where it says so,
    where its signature names every one (no ``**kwargs``, no decorator
    that may change it); None otherwise."""
    facts = analysis.project.modules[module].facts
    if function not in facts.functions:
        return None
    if function in facts.open_signatures:
        return _forwarding(analysis, module, function) if forward else None
    taken = set(facts.functions[function]) - _BOUND
    where = facts.function_lines.get(function, (1, 1))[0]
    path = analysis.project.modules[module].path
    return taken, Related(path, where, f"{function} takes {', '.join(sorted(taken))}")


def _forwarding(analysis: Analysis, module: str, function: str) -> tuple[set[str], Related] | None:
    """The keywords a function takes that hands its ``**kwargs`` whole to
    one class of the project (``def run(app, **kwargs): config =
    Config(app, **kwargs)``) and reads none of them itself: its own and
    those the class's constructor names; None where either is open."""
    facts = analysis.project.modules[module].facts
    models = [m for f, m, _, passed in facts.keyword_models if f == function and not passed]
    if len(models) != 1 or models[0][0] != "n":
        return None
    own = set(facts.functions[function]) - _BOUND
    uses = once(
        analysis,
        f"doc_calls.uses_keywords {module}:{function}",
        lambda: _uses_keywords(analysis, module, function),
    )
    if uses:
        return None  # ``kwargs.pop("debug")``: a keyword the function takes itself
    symbol = analysis.project.resolve(module, models[0][1])
    if symbol is None or symbol.kind != "class":
        return None
    # One hand-over is followed: the class's own must be closed.
    inner = constructor(analysis, symbol.module, symbol.qualname, forward=False)
    if inner is None:
        return None
    taken, said = inner
    note = f"{function} hands its keywords on to {symbol.qualname}: {said.note}"
    return own | taken, Related(said.path, said.line, note)


def function_text(analysis: Analysis, module: str, function: str) -> bytes | None:
    """The text of a function of the project (its lines, decorators
    aside); None where it has none on record or its file cannot be read
    (bounded)."""
    info = analysis.project.modules[module]
    first, last = info.facts.function_lines.get(function, (0, 0))
    data = read_or_none(analysis.config.root, info.path, MAX_OTHER_BYTES)
    if data is None or not first:
        return None
    return b"\n".join(data.split(b"\n")[first - 1 : last])


#: The ``**`` parameter of a signature, and a use of a name as a word.
_DOUBLE_STAR = re.compile(rb"\*\*\s*(\w+)")


def _uses_keywords(analysis: Analysis, module: str, function: str) -> bool:
    """Does the function use its ``**kwargs`` but to hand it on
    (``kwargs.pop("debug")``, ``"debug" in kwargs``)? Yes where its text
    cannot be read."""
    text = function_text(analysis, module, function)
    if text is None:
        return True
    holder = _DOUBLE_STAR.search(text)
    if holder is None:
        return True
    name = re.escape(holder.group(1))
    uses = re.findall(rb"(\*\*\s*)?\b%b\b" % name, text)
    return any(not starred for starred in uses)


#: The models whose generated ``__init__`` takes their fields, and only them.
_FIELD_CONSTRUCTORS = frozenset({"dataclass", "attrs"})


def constructor(
    analysis: Analysis, module: str, qualname: str, forward: bool = True
) -> tuple[set[str], Related] | None:
    """The keywords a class of the project takes, and where it says so,
    where its constructor names every one: its own ``__init__``'s closed
    signature, else a dataclass's or attrs' fields (what the ``__init__``
    they generate takes); None otherwise (``init=False``, a subclass of
    another class, a model that may take more)."""
    if f"{qualname}.__init__" in analysis.project.modules[module].facts.functions:
        return closed_signature(analysis, module, f"{qualname}.__init__", forward)
    symbol = Symbol("class", module, qualname)
    model = analysis.code.model(symbol)
    cls = analysis.project.class_fact(symbol)
    if model is None or cls is None or model.kind not in _FIELD_CONSTRUCTORS:
        return None
    if analysis.code.inherits_unknown_fields(symbol):
        return None  # a base of another library's may give it fields (``TrainingArguments``)
    for deco in cls.decorators:
        if deco[0] == "call" and deco[3].get("init", ("c", True))[1] is False:
            return None  # ``@dataclass(init=False)``: an ``__init__`` of a base, or none
    taken = {fact.name for _, fact in model.fields}
    path = analysis.project.modules[module].path
    note = f"{qualname} is a {model.kind}: it takes its fields ({', '.join(sorted(taken))})"
    return taken, Related(path, cls.line, note)


#: The share of a function's optional keyword arguments the docs must name
#: (pass in their calls, or write as code) for one never named to be left out.
NAMED_SHARE = 0.75


def unnamed_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each optional keyword argument of the project's own
    function (``nox.session``, spelt with its package's name) that no doc
    call passes and no page spells as a word of its own (not an
    attribute: ``nox.options.name``), where the docs name three quarters
    of them: the docs' own reference of the function leaves it out. Its
    first parameter is given by position; its docstring (what autodoc
    renders) and a deprecation message of its body name what they spell.
    A function whose signature may change (a decorator, ``**kwargs``) is
    not judged."""
    from configdrift.rules.evidence import words_in_pages

    pages = analysis.pages_read
    if analysis.first is not None or not pages:
        return
    project = analysis.project
    packages = set(top_packages(project))

    def callee(dotted: str) -> tuple[str, str] | None:
        """The module and function a dotted name spelt with one of the
        project's packages names (a class: its ``__init__``)."""
        parts = dotted.split(".")
        if len(parts) < 2 or parts[0] not in packages:
            return None
        symbol = project.resolve(parts[0], ".".join(parts[1:]))
        if symbol is None or symbol.kind not in ("function", "class"):
            return None
        init = symbol.kind == "class"
        return symbol.module, f"{symbol.qualname}.__init__" if init else symbol.qualname

    passed: dict[tuple[str, str, str], set[str]] = {}
    for _rel, doc in sorted(pages.items()):
        for block in doc.calls:
            found = callee(block.call)
            if found is not None:
                keys = passed.setdefault((*found, block.call.rsplit(".", 1)[-1]), set())
                keys.update(key.path[0] for key in block.keys)
    for (module, function, name), given in sorted(passed.items()):
        facts = project.modules[module].facts
        params = [p for p in facts.functions.get(function, ()) if p not in _BOUND]
        optional = [p for p in facts.optional_params.get(function, ()) if not p.startswith("_")]
        if not optional or function in facts.open_signatures:
            continue
        # The first parameter is given by position (a decorator's function,
        # a request's URL): left to the call's reader. Its docstring (what
        # autodoc renders) and a deprecation message name the others.
        optional = [p for p in optional if p != params[0]]
        named = (given | set(facts.described_params.get(function, ()))) & set(optional)
        named |= words_in_pages(analysis, set(optional) - named)
        if len(named) < NAMED_SHARE * len(optional):
            continue
        where = Location(project.modules[module].path, facts.function_lines[function][0])
        yield from left_out(name, optional, named, where, "the docs and its docstring name", ())


def left_out(
    name: str,
    optional: list[str],
    named: set[str],
    where: Location,
    said: str,
    related: tuple[Related, ...],
) -> Iterator[Finding]:
    """CD103 for each of a callable's optional keyword arguments the docs
    leave out (``said``: who names the others)."""
    for keyword in optional:
        if keyword in named:
            continue
        yield make(
            "CD103",
            f"{name}({keyword}=)",
            where,
            f"`{name}` takes `{keyword}=`, and {said} {len(named)} of its {len(optional)} "
            "optional keyword arguments, but not this one",
            related,
        )
