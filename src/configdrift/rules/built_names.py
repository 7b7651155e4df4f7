"""The names ``getattr`` builds at runtime, and which configuration each
may read: the evidence CD202 and the rules on unspelled keys weigh before
they say nothing reads a key. A built name counts only where its object
may hold the model (``self`` in the model's line, a name typed as it, an
object nothing types), with its literal parts anchored."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import CONSTANT_PART, built_name_matches
from configdrift.extract.python.registration_calls import click_parameter
from configdrift.index.spellings import alternation, normal
from configdrift.rules.evidence import bounded_files, code_files, every_spelling, model_class, once

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import SchemaNode
    from configdrift.resolve.project import Project, Symbol


def built_names(analysis: Analysis) -> list[tuple[str, str, tuple[str, ...], str]]:
    """Each name ``getattr`` builds at runtime: (module, function, its
    literal parts with the project's constants filled in, what it reads
    from); one per value of an attribute of the instance its class gives.
    Once per analysis."""

    def build() -> list[tuple[str, str, tuple[str, ...], str]]:
        project = analysis.project
        return [
            (module, function, filled, receiver)
            for module, info in project.modules.items()
            for _line, function, parts, receiver in info.facts.dynamic_getattr
            for filled in _filled(project, module, function, parts)
        ]

    return once(analysis, "built names", build)


#: The most names one built name stands for, its attributes filled in.
_MAX_FILLED = 64

#: The bases of click's parameters: an instance's ``name`` is its option's.
_CLICK_PARAMETERS = frozenset(
    f"click.{where}{kind}" for where in ("", "core.") for kind in ("Option", "Parameter")
)


def _filled(
    project: Project, module: str, function: str, parts: tuple[str, ...]
) -> list[tuple[str, ...]]:
    """``parts`` with each constant's text in place of its name, and each
    attribute of the instance (``self.prefix``) with each value its class
    gives it (a name for each); one not known statically is a hole."""
    names: list[list[str]] = [[]]
    for part in parts:
        pieces = part.split(CONSTANT_PART)
        names = [[*done, pieces[0]] for done in names]
        for name, text in zip(pieces[1::2], pieces[2::2], strict=False):
            values = _values(project, module, function, name)
            if values is None or len(names) * len(values) > _MAX_FILLED:
                names = [[*done, text] for done in names]  # a hole
            else:
                names = [[*done[:-1], done[-1] + v + text] for done in names for v in values]
    return [tuple(done) for done in names]


def _values(project: Project, module: str, function: str, name: str) -> list[str] | None:
    """The values a constant or an attribute of the instance may have: a
    constant's text; the string the method's class (or a base) assigns the
    attribute; the names of the options the project builds of a click
    parameter class for its ``name``. None where they are not known."""
    from configdrift.extract.python.exprs import assigned
    from configdrift.resolve.project import Symbol

    if not name.startswith("self."):
        value = project.string(module, ["n", name])
        return None if value is None else [value]
    owner = project.class_of(module, function)
    if owner is None:
        return None
    attribute = name.removeprefix("self.")
    mro = project.mro(Symbol("class", module, owner))
    for symbol in mro:
        cls = project.class_fact(symbol)
        for key, expr, _line in assigned(cls) if cls else ():
            if key == attribute:
                value = project.string(symbol.module, expr)
                return None if value is None else [value]
    if attribute != "name" or not any(s.qualname in _CLICK_PARAMETERS for s in mro):
        return None
    names = {
        click_parameter(texts)[1]
        for other, info in project.modules.items()
        for call in info.facts.registrations
        if (made := project.resolve(other, call.callee)) is not None
        and made.kind == "class"
        and mro[0] in project.mro(made)
        and (texts := [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str)])
    }
    return sorted(names) or None


def built_reads_of(analysis: Analysis, model: SchemaNode) -> list[tuple[tuple[str, ...], bool]]:
    """The built names ``getattr`` may read from ``model``'s object, each
    with whether the object is shown to hold the model: ``self`` in a class
    of the model's line (itself, a base, a subclass), a name typed as one,
    or a name the code reads one of the model's fields through elsewhere
    (``cfg.timeout``); a loop over such an object's own attributes (a dump),
    or over those of an expression nothing spells. A dump of any other
    object (``module`` of ``sys.modules``) reads that object's attributes.
    Never from a module, nor from a name that is one of the project's
    modules, classes or functions other than the model; from anything else
    (an object nothing spells), not shown."""
    from configdrift.resolve.project import Symbol

    project = analysis.project
    name = model.model or ""
    line = _model_line(analysis, model)
    keys = {child.key for child in model.children.values()}
    bound_to = analysis.objects.locals
    out: list[tuple[tuple[str, ...], bool]] = []
    for module, function, parts, built_on in built_names(analysis):
        # A loop over an object's own attributes (a dump) reads all of that
        # object's, the model's where the object may be the model.
        dump = built_on.startswith("dump:")
        receiver = built_on.removeprefix("dump:")
        if receiver == "module":
            continue
        shown = receiver in ("self", "") if dump else receiver == "self"
        if receiver == "self":
            owner = function.rsplit(".", 1)[0] if "." in function else ""
            mro = (
                {s.qualname for s in project.mro(Symbol("class", module, owner))}
                if owner
                else set()
            )
            if name not in mro and owner not in line:
                continue
        elif receiver.startswith("name:"):
            # What the function binds the name to, or annotates it with.
            bound = bound_to.get((module, function, receiver[5:]), [])
            if _imported_module(project, module, function, receiver[5:], bound):
                continue  # ``getattr(torch, name)``
            symbol = project.resolve(module, receiver[5:])
            if (
                symbol is not None
                and symbol.kind in ("module", "class", "function")
                and symbol.qualname != name
            ):
                continue
            typed = None if symbol is not None else _typed(project, module, bound)
            if (
                typed is not None
                and typed.qualname not in line
                and name not in {s.qualname for s in project.mro(typed)}
            ):
                continue  # an object of another class of the project
            # The model's class itself, a name typed as it, or annotated
            # with the class of another library it derives from.
            shown = (
                (symbol is not None and symbol.kind == "class")
                or typed is not None
                or _annotated_as(project, module, bound, line)
            )
        if receiver.startswith(("name:", "spelt:")) and not shown:
            # Two of the model's keys read through the name, or one where
            # it reads little else (``step.include`` beside ``step.alias``,
            # ``step.name``, ``step.start``: a common word, not the model).
            read = _read_through(analysis).get(_spelling(receiver), set())
            through = len(read & keys)
            shown = through >= 2 or (through == 1 and len(read) <= 2)
        out.append((parts, shown))
    return out


def _spelling(receiver: str) -> str:
    """The name an object is read through, its last part (``cfg`` of
    ``name:ctx.cfg``, of ``spelt:cfg``)."""
    return receiver.split(":", 1)[1].rsplit(".", 1)[-1]


#: A name, and the attribute read through it (``cfg.timeout``,
#: ``self.cfg.timeout``): the name alone is taken, the attribute looked
#: ahead at, so each name of a chain is found.
_THROUGH = re.compile(rb"(?<!\w)([A-Za-z_]\w*)(?=[ \t]*\.[ \t]*([A-Za-z_]\w*))")
#: The most names searched for as one alternation of them (faster than
#: taking every name the text holds); past it, every name is taken and
#: kept where it is one of them, so the cost never grows with their count.
MAX_SEARCHED = 200


def _read_through(analysis: Analysis) -> dict[str, set[str]]:
    """The attributes the code reads through each name some ``getattr``
    with a built name reads from (``cfg`` -> ``{"timeout", ...}``), by the
    code's text; once a project."""

    def derive() -> dict[str, set[str]]:
        words = {
            _spelling(receiver)
            for _, _, _, receiver in built_names(analysis)
            if receiver.startswith(("name:", "spelt:"))
        }
        out: dict[str, set[str]] = {}
        if not words:
            return out
        pattern = _THROUGH
        if len(words) <= MAX_SEARCHED:
            pattern = re.compile(rb"\b(%b)(?=[ \t]*\.[ \t]*([A-Za-z_]\w*))" % alternation(words))
        wanted = {word.encode() for word in words}
        for _rel, data in bounded_files(analysis, code_files(analysis)):
            for match in pattern.finditer(data):
                if match.group(1) in wanted:
                    out.setdefault(match.group(1).decode(), set()).add(match.group(2).decode())
        return out

    return once(analysis, "read through", derive)


def _imported_module(
    project: Project, module: str, function: str, name: str, bound: list[str]
) -> bool:
    """Is ``name`` a module (no configuration object)? One that ``module``
    imports whole (``import torch``, ``import numpy as np``), which
    ``function`` neither takes as a parameter nor binds; or a local the
    function binds only to calls of the project's functions that return a
    module imported at runtime (``module = load_module_from_file(path)``).
    ``bound``: what the function binds or annotates the name with."""
    facts = project.modules[module].facts
    if name in facts.functions.get(function, ()):
        return False
    if bound:
        symbols = [project.resolve(module, callee) for callee in bound]
        return all(
            s is not None
            and s.kind == "function"
            and s.qualname in project.modules[s.module].facts.module_returns
            for s in symbols
        )
    last = next((imp for imp in reversed(facts.imports) if imp.local == name), None)
    return last is not None and last.name is None


def _annotated_as(project: Project, module: str, bound: list[str], line: set[str]) -> bool:
    """Is a name annotated (``bound``) with a class of another library that
    the model derives from (``c: BaseModel``)?"""
    symbols = [project.resolve(module, annotation) for annotation in bound]
    return any(s is not None and s.kind == "external" and s.qualname in line for s in symbols)


def _typed(project: Project, module: str, bound: list[str]) -> Symbol | None:
    """The one class of the project a parameter or local is annotated with
    or bound to an object of (``bound``: ``orm_service: orm.Service``)."""
    symbols = [project.resolve(module, t) for t in set(bound)]
    if len(symbols) == 1 and symbols[0] is not None and symbols[0].kind == "class":
        return symbols[0]
    return None


def _model_line(analysis: Analysis, model: SchemaNode) -> set[str]:
    """The qualified names of the model's class and its bases."""
    from configdrift.resolve.project import Symbol

    found = model_class(analysis, model)
    if found is None:
        return set()
    return {s.qualname for s in analysis.project.mro(Symbol("class", found[0], found[1].name))}


def built_variables(analysis: Analysis) -> list[tuple[str, ...]]:
    """The literal parts of each environment variable's name a read builds
    at run time (``os.environ.get(f"PIPENV_{dest.upper()}")``:
    ``("PIPENV_", "")``), once per analysis."""
    return once(
        analysis,
        "built variables",
        lambda: [
            tuple(str(part[1]) for part in name[2])
            for info in analysis.project.modules.values()
            for call in info.facts.registrations
            if call.method == "env" and "built" in call.kwargs
            for name in call.kwargs["built"][2]
        ],
    )


def variable_built(analysis: Analysis, name: str) -> bool:
    """May a read that builds its variable's name at run time read
    ``name``? A name of one hole after its text (``f"APP_{dest.upper()}"``)
    stands for a key of the project's configurations there (``APP_CLEAR``
    where a flag's destination is ``clear``, as a command line's options
    read from the environment); one of more holes, for any name it fits."""
    for parts in built_variables(analysis):
        if not built_name_matches(parts, name):
            continue
        if len(parts) != 2:
            return True
        if normal(name[len(parts[0]) : len(name) - len(parts[1])]) in every_spelling(analysis):
            return True
    return False
