"""Calls in the docs' Python blocks of the project's own functions and
classes, with a keyword argument the callee does not take: following the
docs raises ``TypeError: unexpected keyword argument`` (reported by CD301).

The callee must be certain: a name the package exports at its top
(``from sanic import Sanic``) or spelt with the package's name
(``pkg.server.serve``), one function or class of that name in the whole
project, whose signature names every keyword it takes. A ``**kwargs``, a
decorator that may change the signature, a class with no ``__init__`` of
its own (a dataclass, a model, a subclass): the call is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Finding, Location, Related
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The parameters no caller passes by keyword.
_BOUND = frozenset({"self", "cls"})


def _callables(analysis: Analysis) -> dict[str, list[tuple[str, str, bool]]]:
    """Every top-level function and class of the project by its name:
    (module, qualname, is_class)."""
    out: dict[str, list[tuple[str, str, bool]]] = {}
    for module, info in analysis.project.modules.items():
        for qualname in info.facts.functions:
            if "." not in qualname:
                out.setdefault(qualname, []).append((module, qualname, False))
        for qualname in info.classes:
            if "." not in qualname:
                out.setdefault(qualname, []).append((module, qualname, True))
    return out


def _exported(analysis: Analysis) -> dict[str, set[str]]:
    """The names each top-level package of the project exports: defined or
    imported in its ``__init__``."""
    out: dict[str, set[str]] = {}
    for module, info in analysis.project.modules.items():
        if "." in module or not info.is_package:
            continue
        names = out.setdefault(module, set())
        names.update(info.facts.functions, info.classes, (i.local for i in info.facts.imports))
    return out


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
    pages = analysis.pages_read
    if analysis.first is not None or not pages:
        return  # the project's docs, judged once
    project = analysis.project
    callables = _callables(analysis)
    exported = _exported(analysis)
    for rel, doc in sorted(pages.items()):
        for block in doc.calls:
            parts = block.call.split(".")
            name = parts[-1]
            found = callables.get(name, [])
            if len(found) != 1 or not _names_callee(parts, found[0][0], exported):
                continue  # not one callee for certain (another library's, a method)
            module, qualname, is_class = found[0]
            facts = project.modules[module].facts
            function = f"{qualname}.__init__" if is_class else qualname
            if function not in facts.functions or function in facts.open_signatures:
                continue
            taken = set(facts.functions[function]) - _BOUND
            where = facts.function_lines.get(function, (1, 1))[0]
            info = project.modules[module]
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
                    (Related(info.path, where, f"{function} takes {', '.join(sorted(taken))}"),),
                )
