"""What a module of the project exports, as Sphinx's ``automodule`` with
``:members:`` renders it: the names its ``__all__`` lists, its own and
those imported into it (``from .retry import Retries``); where ``__all__``
is built from the module's globals (``[k for k in globals() if not
k.startswith("_")]``), every public name it defines or imports, through
its star imports of the project's modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from configdrift.extract.python.exprs import render

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.resolve.project import Project

#: How deep star imports are followed for a module's public names.
MAX_STAR_DEPTH = 4


def exported(analysis: Analysis, target: str, kind: str = "class") -> list[tuple[str, str]]:
    """The classes (or functions, by ``kind``) of the project the one
    module of the project an ``automodule`` names (with ``:members:``)
    exports: Sphinx renders them all there."""
    project = analysis.project
    modules = [m for m in project.modules if m == target or m.endswith("." + target)]
    if len(modules) != 1:
        return []
    module = modules[0]
    out: list[tuple[str, str]] = []
    for name in module_exports(project, module):
        symbol = project.resolve(module, name)
        if symbol is not None and symbol.kind == kind:
            out.append((symbol.module, symbol.qualname))
    return out


def module_exports(project: Project, module: str) -> list[str]:
    """The names ``module`` exports: its ``__all__``, or the public names
    of its globals where ``__all__`` is built from them; none where it has
    no ``__all__``."""
    facts = project.modules[module].facts
    if facts.all_names is not None:
        return facts.all_names
    built = facts.assigns.get("__all__")
    if built is None or "globals()" not in render(built):
        return []
    return sorted(_public(project, module, 0))


def _public(project: Project, module: str, depth: int) -> set[str]:
    """The public names a module defines or imports, with those of the
    project's modules it imports with ``*``."""
    facts = project.modules[module].facts
    names = {c.name for c in facts.classes if "." not in c.name}
    names |= {f for f in facts.functions if "." not in f}
    names |= {imp.local for imp in facts.imports}
    names |= set(facts.assigns)
    if depth < MAX_STAR_DEPTH:
        for star, _ in facts.star_imports:
            level = len(star) - len(star.lstrip("."))
            target = project.absolute(module, star.lstrip("."), level)
            target = project.canonical(target) or target
            if target in project.modules:
                # What its ``__all__`` leaves out, the import does not bind
                # (``Project.resolve`` says so).
                names |= _public(project, target, depth + 1)
    return {n for n in names if not n.startswith("_")}
