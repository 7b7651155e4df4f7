"""A class's docstring against its constructor, where a page renders the
class from its docstring (``.. autoclass:: pkg.Retries``, ``[[autodoc]]
tuners.lora.LoraConfig``, ``::: pkg.Config``, an ``automodule`` of its
module, or one with ``:members:`` of a module whose ``__all__`` lists it):
what the docstring's
``Args:`` (``Parameters``, ``:param x:``) describe is the reference users
read.

The class must be certain: one top-level class of that name in the whole
project. For all but its examples, its docstring must describe three
parameters or more. The findings name a keyword as the class's
(``OFTConfig(r=)``).

- CD101: a parameter the docstring describes that the constructor does
  not take, where the constructor names every keyword it takes (a
  dataclass's or attrs' fields, an ``__init__`` with no ``**kwargs``): a
  reader who passes it gets ``TypeError``. Its ``*args`` (``*handlers``)
  is described by its name, and taken by position.
- CD103: a keyword the class itself declares (a field of its own body, or
  a parameter of its ``__init__``) that the docstring leaves
  out, where it describes two thirds of them. Inherited fields are the
  base class's to document, unless the class declares none of its own
  and its docstring says its bases' anew. Also each keyword of a class
  whose docstring describes none, where the page names it
  (``.. autoclass::``) beside classes that describe theirs.
- CD104: a default the docstring states as a value (``Default is
  `False`.``) that differs from the field's own; ``None`` where the
  ``__init__`` builds an instance, or another name (``util.pairwise_cos_sim``
  where the code has ``util.cos_sim``).
- CD105: a type it names as a word (``list``, ``bool``) that the field's
  annotation cannot accept; or one class of the project where the
  ``__init__`` annotates another that it does not subclass
  (``model (SentenceTransformer)``, ``model: CrossEncoder``).
- CD301: a keyword its doctest examples (``>>> LoraConfig(r=8)``) or a
  literal of its prose (````Evaluator(const=0)````) give the project's own
  callee that it does not take, as for the docs' calls, the callee named
  through the docstring's module or a package above it;
  CD402: one the callee deprecates, in those examples and the docs' calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from configdrift.model import Finding, Location, Related, Value
from configdrift.resolve.project import Symbol
from configdrift.rules.doc_calls import callables, constructor
from configdrift.rules.evidence import code_files, loaded_names, once, quoted_in
from configdrift.rules.exports import exported
from configdrift.rules.registry import make
from configdrift.rules.values import (
    DocValue,
    doc_kinds,
    kinds_compatible,
    parse_doc_value,
    shown_default,
    values_equal,
)

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import Block
    from configdrift.extract.python.facts import ClassFact, DocParam, Expr, FieldFact

#: The fewest parameters a docstring describes for it to be judged.
MIN_PARAMS = 3


@dataclass(frozen=True, slots=True)
class _Rendered:
    """A class of the project a page renders from its docstring."""

    page: str
    module: str
    qualname: str
    cls: ClassFact
    #: The line of the directive that names the class itself
    #: (``.. autoclass:: pkg.Backoff``, an autosummary's row); 0 where it
    #: renders a whole module's.
    named: int = 0

    @property
    def params(self) -> list[DocParam]:
        """The parameters its docstring describes."""
        return self.cls.doc_params

    @property
    def calls(self) -> list[Block]:
        """The calls of its docstring's examples."""
        return self.cls.doc_calls


def _rendered(analysis: Analysis) -> list[_Rendered]:
    """Each class a page renders from its docstring, for certain, with the
    parameters its docstring describes and the calls of its examples; once
    a project."""

    def derive() -> list[_Rendered]:
        found = callables(analysis)
        out: dict[tuple[str, str], _Rendered] = {}
        for rel, doc in sorted({**analysis.rendered_pages, **analysis.doc_facts}.items()):
            targets = [
                *(
                    (_classes(analysis, found, target), target, line)
                    for target, line in doc.autodoc
                ),
                *((exported(analysis, target), "", 0) for target, _ in doc.module_members),
            ]
            for classes, target, line in targets:
                for module, qualname in classes:
                    cls = analysis.project.class_fact(Symbol("class", module, qualname))
                    if cls is None:
                        continue
                    named = line if target.rsplit(".", 1)[-1] == qualname else 0
                    out.setdefault((module, qualname), _Rendered(rel, module, qualname, cls, named))
        return list(out.values())

    if analysis.first is not None:
        return []  # the project's docs, judged once
    return once(analysis, "docstrings.rendered", derive)


def _classes(
    analysis: Analysis, found: dict[str, list[tuple[str, str, bool]]], target: str
) -> list[tuple[str, str]]:
    """The classes an autodoc target renders, for certain: the one class of
    the project of its name (``pkg.Retries``), else the public top-level
    classes of the one module of the project it names (``.. automodule::
    pkg.connections``)."""
    owners = found.get(target.rsplit(".", 1)[-1], [])
    if len(owners) == 1 and owners[0][2]:
        return [(owners[0][0], owners[0][1])]
    modules = [m for m in analysis.project.modules if m == target or m.endswith("." + target)]
    if owners or len(modules) != 1:
        return []  # a name two classes share, a function, or no module for certain
    classes = analysis.project.modules[modules[0]].classes
    return [(modules[0], q) for q in classes if "." not in q and not q.startswith("_")]


def _described(analysis: Analysis) -> list[_Rendered]:
    """The rendered classes whose docstring describes three parameters or
    more: a reference of them."""
    return [item for item in _rendered(analysis) if len(item.params) >= MIN_PARAMS]


def _fields(analysis: Analysis, item: _Rendered) -> list[tuple[str, FieldFact]]:
    """The model's fields, with their modules; none for a class that is no
    model. A class that declares nothing of its own (no field, no
    ``__init__``: a subclass of a dataclass that only says its fields anew
    in its docstring) has its one base's, where that base is the
    project's."""
    symbol: Symbol | None = Symbol("class", item.module, item.qualname)
    for _ in range(MAX_BASES):
        assert symbol is not None
        model = analysis.code.model(symbol)
        if model is not None:
            return model.fields
        cls = analysis.project.class_fact(symbol)
        facts = analysis.project.modules[symbol.module].facts
        if cls is None or cls.fields or f"{symbol.qualname}.__init__" in facts.functions:
            return []
        bases = [b[1] for b in cls.bases if b[0] == "n"]
        symbol = analysis.project.resolve(symbol.module, bases[0]) if len(bases) == 1 else None
        if symbol is None or symbol.kind != "class":
            return []
    return []


#: The most bases followed up from a class that declares nothing of its own.
MAX_BASES = 5


def _init(item: _Rendered) -> str:
    return f"{item.qualname}.__init__"


def _init_line(analysis: Analysis, item: _Rendered) -> int:
    """The line of the class's own ``__init__`` (the class's, without one)."""
    lines = analysis.project.modules[item.module].facts.function_lines
    return lines.get(_init(item), (item.cls.line, item.cls.line))[0]


def params_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each parameter a rendered docstring describes that the
    class's closed constructor does not take."""
    for item in _described(analysis):
        signature = constructor(analysis, item.module, item.qualname)
        if signature is None:
            continue  # ``**kwargs``, a model that may take more: any keyword may be taken
        taken, declared = signature
        path = analysis.project.modules[item.module].path
        for param in item.params:
            if param.name in taken or param.attribute:
                continue  # taken, or an attribute the instance has (a property, a field)
            yield make(
                "CD101",
                f"{item.qualname}({param.name}=)",
                Location(path, param.line),
                f"the docstring of `{item.qualname}`, rendered at {item.page}, describes "
                f"`{param.name}`, but {item.qualname} does not take it: following the docs "
                "raises TypeError (unexpected keyword argument)",
                (declared,),
            )


def misspelt_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each name a rendered docstring writes in code one letter
    from a keyword of its class that the class's closed constructor does
    not take, and that the project's code never spells as a name of its
    own (an attribute it reads, a string it quotes, a parameter)."""
    misspelt = [(item, m) for item in _rendered(analysis) for m in item.cls.doc_misspelt]
    if not misspelt:
        return
    names = {word for _, (word, _, _) in misspelt}
    used = names & (loaded_names(analysis) | _parameters(analysis))
    used |= quoted_in(analysis, code_files(analysis), names - used)
    for item, (word, keyword, line) in misspelt:
        signature = constructor(analysis, item.module, item.qualname)
        if word in used or signature is None or word in signature[0]:
            continue  # a name of the code's own, or one the constructor may take
        if keyword not in signature[0]:
            continue  # the keyword it is near is no keyword the constructor takes
        yield make(
            "CD101",
            f"{item.qualname}({word}=)",
            Location(analysis.project.modules[item.module].path, line),
            f"the docstring of `{item.qualname}`, rendered at {item.page}, writes "
            f"`{word}`, one letter from its keyword `{keyword}`: {item.qualname} does not "
            "take it, and following the docs raises TypeError (unexpected keyword argument)",
            (signature[1],),
        )


def _parameters(analysis: Analysis) -> set[str]:
    """Every parameter name of the project's functions, once."""

    def derive() -> set[str]:
        return {
            name
            for info in analysis.project.modules.values()
            for params in info.facts.functions.values()
            for name in params
        }

    return once(analysis, "docstrings.parameters", derive)


def _own(analysis: Analysis, item: _Rendered) -> list[tuple[str, str, int]]:
    """The keywords the class itself declares, each with its file and
    line: its ``__init__``'s parameters (those it requires too), else its
    model fields of its own body; a model that declares none (a subclass
    that only says them anew in its docstring) takes those its bases in
    the project give it. A private one (``_raw``) is for no docstring."""
    info = analysis.project.modules[item.module]
    if _init(item) in info.facts.functions:
        line = _init_line(analysis, item)
        params = info.facts.functions[_init(item)][1:]  # ``self`` is no keyword
        return [(name, info.path, line) for name in params if not name.startswith("_")]
    own = {fact.name for fact in item.cls.fields}
    fields = [(m, fact) for m, fact in _fields(analysis, item) if not fact.name.startswith("_")]
    return [
        (fact.name, analysis.project.modules[module].path, fact.line)
        for module, fact in fields
        if (module == item.module and fact.name in own)
        or (not own and module in analysis.project.modules)
    ]


#: The share of a class's keywords its docstring must describe for one it
#: leaves out to be undocumented: an Args section that lists two thirds of
#: them is the class's reference, meant to list them all.
DESCRIBED_SHARE = 2 / 3


def undescribed_params(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each keyword the class declares that its rendered
    docstring leaves out, where it describes two thirds of them."""
    for item in _described(analysis):
        own, described, named = _keywords_described(analysis, item)
        if not _most(own, named):
            continue
        path = analysis.project.modules[item.module].path
        first = min(p.line for p in item.params)
        for name, where, line in own:
            if name in described:
                continue
            yield make(
                "CD103",
                f"{item.qualname}({name}=)",
                Location(where, line),
                f"{item.qualname} takes `{name}`, but its docstring, rendered at {item.page}, "
                f"describes {len(named)} of its {len(own)} keywords and not this one",
                (Related(path, first, "the docstring describes the others"),),
            )


def _keywords_described(
    analysis: Analysis, item: _Rendered
) -> tuple[list[tuple[str, str, int]], set[str], list[str]]:
    """The class's own keywords, the names its docstring describes, and
    those of its keywords it describes."""
    own = _own(analysis, item)
    described = {p.name for p in item.params} | set(item.cls.doc_mentions)
    return own, described, [name for name, _, _ in own if name in described]


def _most(own: list[tuple[str, str, int]], named: list[str]) -> bool:
    """Are the ``named`` keywords two thirds of the ``own`` (one at least)?"""
    return bool(named) and len(named) >= DESCRIBED_SHARE * len(own)


def _describes_own(analysis: Analysis, item: _Rendered) -> bool:
    """Does the class's docstring describe two thirds of its own keywords
    (one at least)?"""
    own, _, named = _keywords_described(analysis, item)
    return _most(own, named)


def silent_params(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each keyword of a rendered class whose docstring describes
    none of them, where two thirds of the classes with keywords the page
    names (two others at least) describe theirs: the page is a reference
    of keywords, and this class's are missing from it. Only a class with
    an ``__init__`` of its own is judged, and one none of whose keywords
    has a default takes inputs, not options (``Tuner(trainer)``, a
    connection the framework builds), and is left alone."""
    by_page: dict[str, list[_Rendered]] = {}
    for item in _rendered(analysis):
        if item.named and _own(analysis, item):
            by_page.setdefault(item.page, []).append(item)
    for page, items in sorted(by_page.items()):
        beside = [item for item in items if _describes_own(analysis, item)]
        if len(beside) < DESCRIBED_SHARE * len(items):
            continue
        for item in items:
            if item.params or item.cls.doc_mentions or item.cls.doc_spelt:
                continue  # described, in part or in prose
            if not item.cls.init_defaults:
                continue  # no ``__init__``, or inputs the caller must give, no option
            others = ", ".join(sorted(b.qualname for b in beside)[:3])
            for name, where, line in _own(analysis, item):
                yield make(
                    "CD103",
                    f"{item.qualname}({name}=)",
                    Location(where, line),
                    f"{item.qualname} takes `{name}`, but its docstring, rendered at {page}, "
                    f"describes none of its keywords, where the page's other classes "
                    f"({others}) describe theirs",
                    (Related(page, item.named, "the page renders the class"),),
                )


def _defaults(analysis: Analysis, item: _Rendered) -> dict[str, tuple[str, Value, int, str]]:
    """The default of each keyword of the class, by name, with its module,
    line and what sets it: its ``__init__``'s defaults where it has one of
    its own, else its fields' as its model gives them, but a field the hook
    after init sets (computed)."""
    facts = analysis.project.modules[item.module].facts
    if _init(item) in facts.functions:
        line = _init_line(analysis, item)
        return {
            name: (
                item.module,
                analysis.project.evaluate(item.module, expr),
                line,
                f"{_init(item)} sets the default",
            )
            for name, expr in item.cls.init_defaults.items()
        }
    hooked = {attr for f, attr, *_ in facts.attr_assigns if f == f"{item.qualname}.__post_init__"}
    out: dict[str, tuple[str, Value, int, str]] = {}
    for module, fact in _fields(analysis, item):
        default = analysis.code.field_default(module, fact)
        if default is not None and fact.name not in hooked:
            out[fact.name] = (module, default, fact.line, "the field sets the default")
    return out


def default_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """CD104 for each default a rendered docstring states as a value that
    differs from the code's own."""
    for item in _described(analysis):
        defaults = _defaults(analysis, item)
        path = analysis.project.modules[item.module].path
        for param in item.params:
            if param.default is None or param.name not in defaults:
                continue
            module, code, line, note = defaults[param.name]
            if param.default.strip() == code.text.strip():
                continue  # written as the code writes it (``BatchSamplers.BATCH_SAMPLER``)
            doc = parse_doc_value(param.default)
            if not _differs(analysis, item, param.name, doc, code):
                continue
            yield make(
                "CD104",
                f"{item.qualname}({param.name}=)",
                Location(path, param.line),
                f"`{param.name}` is documented with default {param.default} in the docstring of "
                f"`{item.qualname}`, but the code's default is "
                f"{shown_default(code.value, code.text) if code.known else code.text}",
                (Related(analysis.project.modules[module].path, line, note),),
            )


#: A name or a dotted name (``util.cos_sim``), as a default is written.
_DOTTED = re.compile(r"^[A-Za-z_]\w{0,80}(?:\.[A-Za-z_]\w{0,80}){0,8}$")


def _differs(analysis: Analysis, item: _Rendered, name: str, doc: DocValue, code: Value) -> bool:
    """Does a stated default differ from the code's for certain? Values
    are compared where both are known and neither is unset; a default
    documented as ``None`` differs from an instance the ``__init__``
    builds (``PListMLELambdaWeight()``, never ``None``) and from a switch's
    ``True`` or ``False`` (no sentinel for unset); two names differ
    by their last part (``util.pairwise_cos_sim`` against ``util.cos_sim``),
    not by the path they are reached through (``F.relu``)."""
    if doc.known and doc.value is None:
        if code.known and type(code.value) is bool:
            return True
        expr = item.cls.init_defaults.get(name)
        return expr is not None and _builds_instance(analysis, item.module, expr)
    if not code.known:
        stated = str(doc.value) if doc.word else ""
        return bool(
            _DOTTED.match(stated)
            and _DOTTED.match(code.text.strip())
            and stated.rsplit(".", 1)[-1] != code.text.strip().rsplit(".", 1)[-1]
        )
    return code.value is not None and values_equal(doc, code.value) is False


def _builds_instance(analysis: Analysis, module: str, expr: Expr) -> bool:
    """Is the expression a call of a class (a class of the project, or one
    of another library spelt as a class is, capitalised)?"""
    if expr[0] != "call" or expr[1][0] != "n":
        return False
    symbol = analysis.project.resolve(module, expr[1][1])
    if symbol is None:
        return False
    if symbol.kind == "class":
        return True
    return symbol.kind == "external" and symbol.qualname.rsplit(".", 1)[-1][:1].isupper()


def example_calls(analysis: Analysis) -> list[tuple[str, Block]]:
    """The calls of the rendered class docstrings' examples, each with its
    file and the scope that names its callee (``scoped``)."""
    return [
        (analysis.project.modules[item.module].path, scoped(analysis, item.module, call))
        for item in _rendered(analysis)
        for call in item.calls
    ]


def scoped(analysis: Analysis, module: str, call: Block) -> Block:
    """A docstring's call with the scope that names its callee where the
    example imports none: the docstring's module (a doctest runs in its
    globals), else the nearest package above it whose names hold the
    callee's first name."""
    if call.origin:
        return call
    head = call.call.split(".", 1)[0]
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        scope = ".".join(parts[:size])
        if scope in analysis.project.modules and analysis.project.resolve(scope, head):
            return replace(call, origin=scope)
    return call


def type_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """CD105 for each type a rendered docstring gives a field (``list``,
    ``bool``: a type it names as a word) that the field's annotation
    cannot accept."""
    for item in _described(analysis):
        fields = {fact.name: (module, fact) for module, fact in _fields(analysis, item)}
        path = analysis.project.modules[item.module].path
        for param in item.params:
            kinds = doc_kinds(param.type)
            if kinds is None or param.name not in fields:
                continue
            module, fact = fields[param.name]
            info = analysis.code.type_facts(module, fact.annotation).info
            code = info.kinds if "null" in kinds else info.kinds - {"null"}
            if not code or kinds_compatible(kinds, code):
                continue
            yield make(
                "CD105",
                f"{item.qualname}({param.name}=)",
                Location(path, param.line),
                f"`{param.name}` is documented as [{param.type}] in the docstring of "
                f"`{item.qualname}`, but the code declares {info.text}",
                (
                    Related(
                        analysis.project.modules[module].path,
                        fact.line,
                        "the field declares the type",
                    ),
                ),
            )
        yield from _other_classes(analysis, item)


#: A type written as one class's name (``SentenceTransformer``,
#: ``:class:`~pkg.models.CrossEncoder```), in backticks or not.
_CLASS_TYPE = re.compile(
    r"^(?::\w{1,20}:)?`{0,2}~?(?:[A-Za-z_]\w{0,80}\.){0,8}([A-Z]\w{0,80})`{0,2}$"
)


def _other_classes(analysis: Analysis, item: _Rendered) -> Iterator[Finding]:
    """CD105 for each ``__init__`` parameter a rendered docstring types as
    one class of the project (``model (SentenceTransformer)``) where the
    annotation names another (``model: CrossEncoder``, ``X | None``) that
    the documented one does not subclass: an instance of the documented
    class is refused, or takes the wrong path."""
    project = analysis.project
    by_name = callables(analysis)
    path = project.modules[item.module].path
    line = _init_line(analysis, item)
    for param in item.params:
        named = _CLASS_TYPE.match((param.type or "").strip())
        expr = item.cls.init_annotations.get(param.name)
        if named is None or expr is None:
            continue
        found = by_name.get(named.group(1), [])
        annotated = _annotated_class(analysis, item.module, expr)
        if len(found) != 1 or not found[0][2] or annotated is None:
            continue
        documented = Symbol("class", found[0][0], found[0][1])
        if annotated in project.mro(documented):
            continue  # the documented class, or a subclass of the annotated one
        yield make(
            "CD105",
            f"{item.qualname}({param.name}=)",
            Location(path, param.line),
            f"`{param.name}` is documented as a {named.group(1)} in the docstring of "
            f"`{item.qualname}`, but the code takes a {annotated.qualname}, which "
            f"{named.group(1)} does not subclass",
            (Related(path, line, f"{_init(item)} annotates it"),),
        )


def _annotated_class(analysis: Analysis, module: str, expr: Expr) -> Symbol | None:
    """The one class of the project an annotation names, also optional
    (``Optional[X]``, ``X | None``); None for anything else."""
    optional = expr[0] == "sub" and expr[1] == ["n", "Optional"]
    if optional or (expr[0] == "b" and expr[1] == "|" and expr[3] == ["c", None]):
        expr = expr[2]
    if expr[0] != "n":
        return None
    symbol = analysis.project.resolve(module, expr[1])
    return symbol if symbol is not None and symbol.kind == "class" else None
