"""A page's section that lists the keyword arguments of one of the
project's classes or functions (``## CORSMiddleware``, a Python block that
builds it, then "The following arguments are supported:" and a list of
``allow_origins``, ``max_age`` ...), against the callee's signature.

The section is about the callee for certain where a Python block of it
calls the callee (one the docs' calls name for certain: ``doc_calls``),
or where its title is the callee's name, one class of the project of that
name or a function its package exports, spelt as no word is
(``CORSMiddleware``, ``run_app``) or written as code (`` `serve()` ``).
A subsection is about what its section is about, unless it is about
another callee itself. Its entries (list items, table rows, definitions,
headings) must be mostly the callee's keywords: three at least, and three
quarters of them. An entry a surface places is that surface's to judge.

- CD101: an entry the callee's closed signature does not take, and that
  is no attribute of the class (a method, a field, one its ``__init__``
  sets): a reader who passes it gets ``TypeError``.
- CD104: a default an entry states that differs from the signature's,
  both values known.
- CD103: an optional keyword argument no entry of the page names, nor
  its docstring, nor any page as a word of its own, where the section's
  entries name two thirds of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.extract.docs.facts import NO_EVIDENCE_FORMS
from configdrift.model import Finding, Location, Related
from configdrift.resolve.project import Symbol
from configdrift.rules.doc_calls import (
    callables,
    callees,
    exported_names,
    keywords_taken,
    left_out,
)
from configdrift.rules.doc_signatures import code_defaults
from configdrift.rules.docstrings import DESCRIBED_SHARE
from configdrift.rules.evidence import once, words_in_pages
from configdrift.rules.registry import make
from configdrift.rules.values import parse_doc_value, shown_default, values_equal

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import DocFacts, RawEntry

#: The fewest of a section's entries that must be the callee's keywords,
#: and the share of its entries they must be.
MIN_LISTED = 3
LISTED_SHARE = 0.75
#: The most levels of sections walked up to find what one is about.
MAX_DEPTH = 12

#: A title that names a callable: ``CORSMiddleware``, `` `serve()` ``,
#: ``class pkg.Thing(a, b)``.
_TITLE = re.compile(
    r"^(?:class\s+|def\s+)?(`{0,2})((?:[A-Za-z_]\w{0,80}\.){0,8}[A-Za-z_]\w{0,80})(\(|`)?"
)
#: An entry's name that is a keyword's: a Python name.
_NAME = re.compile(r"^[A-Za-z_]\w{0,80}$")


@dataclass(frozen=True, slots=True)
class Listed:
    """A section of a page that lists a callable's keyword arguments."""

    page: str
    #: The callable as findings name it (``CORSMiddleware``).
    name: str
    module: str
    qualname: str
    is_class: bool
    entries: tuple[RawEntry, ...]
    #: Every name the page's entries and calls of the callee give.
    named: frozenset[str]

    @property
    def function(self) -> str:
        """The function whose signature takes the keywords."""
        return f"{self.qualname}.__init__" if self.is_class else self.qualname

    def signature(self, analysis: Analysis) -> tuple[set[str], Related] | None:
        return keywords_taken(analysis, self.module, self.qualname, self.is_class)


def listed(analysis: Analysis) -> list[Listed]:
    """Each section of a page that lists a callable's keyword arguments,
    for certain; once a project."""
    if analysis.first is not None:
        return []  # the project's docs, judged once

    def derive() -> list[Listed]:
        placed = {
            (e.location.path, e.location.line, e.name)
            for a in analysis.everything
            for e in a.entries
        }
        pages = {**analysis.calling_pages, **analysis.pages_read}
        out: list[Listed] = []
        for rel, doc in sorted(pages.items()):
            if doc.entries:
                out.extend(_page(analysis, rel, doc, placed))
        return out

    return once(analysis, "listed_keywords.listed", derive)


def _page(
    analysis: Analysis, rel: str, doc: DocFacts, placed: set[tuple[str, int, str]]
) -> Iterator[Listed]:
    """The sections of one page that list a callable's keywords."""
    about = _about(analysis, rel, doc)
    if not about:
        return
    by_section: dict[int, list[RawEntry]] = {}
    for entry in doc.entries:
        by_section.setdefault(entry.section, []).append(entry)
    for index, entries in sorted(by_section.items()):
        callee = _owner(doc, about, index)
        if callee is None:
            continue
        module, qualname, is_class = callee
        name = qualname.rsplit(".", 1)[-1]
        mine = [
            e
            for e in entries
            if e.form not in NO_EVIDENCE_FORMS
            and _NAME.match(e.name)
            and e.name != name
            and (rel, e.line, e.name) not in placed
        ]
        signature = keywords_taken(analysis, module, qualname, is_class)
        if signature is None:
            continue  # ``**kwargs``, a decorator: what it takes is not known
        taken = signature[0]
        keywords = [e for e in mine if e.name in taken]
        if len(keywords) < MIN_LISTED or len(keywords) < LISTED_SHARE * len(mine):
            continue
        named = {e.name for e in doc.entries} | {
            key.path[0]
            for block in doc.calls
            if block.call.split(".")[-1] == name
            for key in block.keys
        }
        yield Listed(rel, name, module, qualname, is_class, tuple(mine), frozenset(named))


def _about(analysis: Analysis, rel: str, doc: DocFacts) -> dict[int, tuple[str, str, bool]]:
    """The callable each section of the page is about by itself: the one
    its title names, else the one its Python blocks call, where they call
    one alone."""
    calls: dict[int, set[tuple[str, str, bool]]] = {}
    for _, block, module, qualname, is_class in callees(analysis, [(rel, b) for b in doc.calls]):
        calls.setdefault(block.section, set()).add((module, qualname, is_class))
    out: dict[int, tuple[str, str, bool]] = {}
    for index, section in enumerate(doc.sections):
        titled = _titled(analysis, section.title)
        called = calls.get(index, set())
        if titled is not None:
            out[index] = titled
        elif len(called) == 1:
            out[index] = next(iter(called))
    return out


def _titled(analysis: Analysis, title: str) -> tuple[str, str, bool] | None:
    """The callable of the project a section's title names for certain."""
    match = _TITLE.match(title.strip())
    if match is None:
        return None
    code, dotted, after = match.groups()
    rest = title.strip()[match.end() :].strip()
    if after != "(" and rest and not rest.startswith("("):
        return None  # a title of words (``CORSMiddleware options``)
    parts = dotted.split(".")
    name = parts[-1]
    if not (code or after == "(" or _no_word(name)):
        return None  # a word (``Session``): the title of a topic, maybe
    found = callables(analysis).get(name, [])
    if len(found) != 1:
        return None
    module, _, is_class = found[0]
    if len(parts) > 1 and not (
        module.endswith(".".join(parts[:-1])) or parts[0] == module.split(".", 1)[0]
    ):
        return None  # ``app.run()``: a method of something else
    if not is_class and not any(name in names for names in exported_names(analysis).values()):
        return None  # a function of a module: a method of that name may be meant
    return found[0]


def _no_word(name: str) -> bool:
    """Is a name spelt as no word is: with an underscore, or a capital
    inside beside small letters (``CORSMiddleware``, not ``CORS``)?"""
    inner = name[1:]
    return "_" in inner or (inner != inner.lower() and name != name.upper())


def _owner(
    doc: DocFacts, about: dict[int, tuple[str, str, bool]], index: int
) -> tuple[str, str, bool] | None:
    """What a section is about: its own callee, else its nearest
    section's above it that has one."""
    current: int | None = index
    for _ in range(MAX_DEPTH):
        if current is None:
            return None
        if current in about:
            return about[current]
        current = doc.sections[current].parent if current < len(doc.sections) else None
    return None


def _attributes(analysis: Analysis, module: str, qualname: str) -> set[str]:
    """The names the class's instances have beside its keywords: its
    methods, its class attributes and fields, those its methods set on
    ``self``, in the project's classes it inherits from."""
    project = analysis.project
    out: set[str] = set()
    for ancestor in project.mro(Symbol("class", module, qualname)):
        cls = project.class_fact(ancestor) if ancestor.kind == "class" else None
        if cls is None:
            continue
        facts = project.modules[ancestor.module].facts
        prefix = f"{ancestor.qualname}."
        out.update(f[len(prefix) :] for f in facts.functions if f.startswith(prefix))
        out.update(cls.assigns)
        out.update(f.name for f in cls.fields)
        out.update(a for f, a, *_ in facts.attr_assigns if f.startswith(prefix))
    return out


def listed_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each entry a section lists among a callable's keyword
    arguments that its closed signature does not take."""
    for item in listed(analysis):
        signature = item.signature(analysis)
        if signature is None:
            continue
        taken, declared = signature
        attributes = _attributes(analysis, item.module, item.qualname) if item.is_class else set()
        for entry in item.entries:
            if entry.name in taken or entry.name in attributes:
                continue
            yield make(
                "CD101",
                f"{item.name}({entry.name}=)",
                Location(item.page, entry.line),
                f"the page lists `{entry.name}` among the keyword arguments of `{item.name}`, "
                f"but {item.qualname} does not take it: following the docs raises TypeError "
                "(unexpected keyword argument)",
                (declared,),
            )


def listed_defaults_differ(analysis: Analysis) -> Iterator[Finding]:
    """CD104 for each default an entry states that differs from the one
    the callable's signature gives, both values known."""
    for item in listed(analysis):
        facts = analysis.project.modules[item.module].facts
        given = code_defaults(analysis, item.module, item.function)
        line = facts.function_lines.get(item.function, (1, 1))[0]
        for entry in item.entries:
            expr = given.get(entry.name)
            if entry.default is None or expr is None:
                continue
            code = analysis.project.evaluate(item.module, expr)
            doc = parse_doc_value(entry.default)
            if not code.known or code.value is None or values_equal(doc, code.value) is not False:
                continue
            yield make(
                "CD104",
                f"{item.name}({entry.name}=)",
                Location(item.page, entry.line),
                f"`{entry.name}` of `{item.name}` is documented with default {entry.default}, "
                f"but the code's default is {shown_default(code.value, code.text)}",
                (
                    Related(
                        analysis.project.modules[item.module].path,
                        line,
                        f"{item.function} sets it",
                    ),
                ),
            )


def listed_left_out(analysis: Analysis) -> Iterator[Finding]:
    """CD103 for each optional keyword argument of the callable that no
    entry of the page names, where the section's entries name two thirds
    of them."""
    for item in listed(analysis):
        facts = analysis.project.modules[item.module].facts
        optional = [p for p in facts.optional_params.get(item.function, ()) if p[0] != "_"]
        named = set(item.named & set(optional))
        listed_here = {e.name for e in item.entries} & set(optional)
        if not optional or len(listed_here) < DESCRIBED_SHARE * len(optional):
            continue
        # Its docstring (what autodoc renders), or any page that spells it
        # as a word of its own (``background=task`` in a guide), names it.
        named |= set(facts.described_params.get(item.function, ()))
        named |= words_in_pages(analysis, set(optional) - named)
        where = facts.function_lines.get(item.function, (1, 1))[0]
        declared = (
            Related(
                analysis.project.modules[item.module].path, where, f"{item.function} declares it"
            ),
        )
        first = Location(item.page, min(e.line for e in item.entries))
        yield from left_out(item.name, optional, named, first, "the page's list names", declared)
