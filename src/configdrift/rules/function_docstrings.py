"""A module function's docstring against its signature, where a page
renders the function from it (``.. autofunction:: pkg.serve``, an
autosummary's row, ``::: pkg.serve``, or an ``automodule`` with
``:members:`` of a module whose ``__all__`` lists it): what its ``Args:``
(``Parameters``, ``:param x:``) describe is what users pass. A method's
likewise, where a page renders its class with its members
(``.. autoclass::`` with ``:members:``, ``::: pkg.Client``, an
autosummary's row through a template of the project whose ``autoclass``
has ``:members:``) or the method itself (``.. automethod::``); its
private methods are not rendered.

The function must be certain (one top-level function of that name in the
whole project; a method, of one such class) and its signature closed (no
``**kwargs``, no decorator that may change it). The findings name a keyword as the function's
(``plot_pareto_front(target_name=)``).

- CD101: a parameter the docstring describes that the function does not
  take, where it describes three parameters or more.
- CD101: a name its docstring writes in code one letter from one of its
  parameters (``target_name`` of ``target_names``), where neither the
  function's module nor the parameter names of its functions spell it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from configdrift.extract.docs.directives import renders_members
from configdrift.files import read_or_none
from configdrift.model import Finding, Location
from configdrift.rules.doc_calls import callables, closed_signature
from configdrift.rules.docstrings import scoped
from configdrift.rules.evidence import once
from configdrift.rules.exports import exported
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import Block

#: The most bytes of a template read.
MAX_BYTES = 64 * 1024

#: The fewest parameters a docstring describes for one it describes and
#: the function lacks to be judged: a reference of them.
MIN_PARAMS = 3


def _rendered(analysis: Analysis) -> dict[tuple[str, str], str]:
    """Each module function a page renders from its docstring, for
    certain, with the first page; once a project."""

    def derive() -> dict[tuple[str, str], str]:
        found = callables(analysis)
        out: dict[tuple[str, str], str] = {}
        for rel, doc in sorted({**analysis.rendered_pages, **analysis.doc_facts}.items()):
            for target, _ in (*doc.autodoc, *doc.summarised):
                function = _named(analysis, found, target, "function")
                if function is not None:
                    out.setdefault(function, rel)
            for target, _ in doc.module_members:
                for function in exported(analysis, target, "function"):
                    out.setdefault(function, rel)
            members = [t for t, _ in doc.members]
            members += [f"{t}." for t, name, _ in doc.templated if _template(analysis, rel, name)]
            for target in members:
                for method in _methods(analysis, found, target):
                    out.setdefault(method, rel)
        return out

    if analysis.first is not None:
        return {}  # the project's docs, judged once
    return once(analysis, "function_docstrings.rendered", derive)


def _template(analysis: Analysis, page: str, name: str) -> bool:
    """Does the template an autosummary of ``page`` names render its
    classes' members? Found in a ``_templates`` folder of the page's
    folder or one above it, as Sphinx's ``templates_path`` has it."""
    if ".." in PurePosixPath(name).parts:
        return False  # a template outside the templates' folder

    folder = PurePosixPath(page).parent

    def derive() -> bool:
        for above in (folder, *folder.parents):
            data = read_or_none(analysis.config.root, str(above / "_templates" / name), MAX_BYTES)
            if data is not None:
                return renders_members(data.decode("utf-8", "replace"))
        return False

    # Read once for the pages of a folder, which find the same template.
    return once(analysis, f"function_docstrings.template {folder} {name}", derive)


def _named(
    analysis: Analysis, found: dict[str, list[tuple[str, str, bool]]], target: str, kind: str
) -> tuple[str, str] | None:
    """The function (or class, by ``kind``) of the project an autodoc
    target names for certain: the one its dotted path resolves to from a
    module of the project (``optuna.visualization.plot_pareto_front``
    through the package's imports), else the one top-level one of the
    project of its name."""
    module, _, name = target.rpartition(".")
    if module in analysis.project.modules:
        symbol = analysis.project.resolve(module, name)
        if symbol is not None:
            return (symbol.module, symbol.qualname) if symbol.kind == kind else None
    owners = found.get(name, [])
    if len(owners) == 1 and owners[0][2] == (kind == "class"):
        return owners[0][0], owners[0][1]
    return None


def _methods(
    analysis: Analysis, found: dict[str, list[tuple[str, str, bool]]], target: str
) -> list[tuple[str, str]]:
    """The methods a page renders for certain: each public one a class
    defines, where the target is the class's with its members
    (``pkg.Retries.``), else the one it names (``pkg.Retries.delay``)."""
    head, _, method = target.rpartition(".")
    cls = _named(analysis, found, head, "class")
    if cls is None:
        return []
    module, qualname = cls
    if method:
        return [(module, f"{qualname}.{method}")]
    functions = analysis.project.modules[module].facts.functions
    return [
        (module, name)
        for name in functions
        if name.rpartition(".")[0] == qualname and not name.rpartition(".")[2].startswith("_")
    ]


def params_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each parameter a rendered function's docstring describes
    that its closed signature does not take, and each name it writes in
    code one letter from one of its parameters."""
    for (module, qualname), page in sorted(_rendered(analysis).items()):
        facts = analysis.project.modules[module].facts
        untaken = facts.doc_untaken.get(qualname)
        misspelt = facts.doc_misspelt.get(qualname, [])
        if untaken is None and not misspelt:
            continue
        signature = closed_signature(analysis, module, qualname, forward=False)
        if signature is None:
            continue  # ``**kwargs``, or a decorator: any keyword may be taken
        taken, declared = signature
        path = analysis.project.modules[module].path
        if untaken is not None and untaken[0] >= MIN_PARAMS:
            for name, line in untaken[1]:
                yield make(
                    "CD101",
                    f"{qualname}({name}=)",
                    Location(path, line),
                    f"the docstring of `{qualname}`, rendered at {page}, describes `{name}`, "
                    f"but {qualname} does not take it: following the docs raises TypeError "
                    "(unexpected keyword argument)",
                    (declared,),
                )
        used = _spelt_in(analysis, module)
        for word, keyword, line in misspelt:
            if word in used or word in taken or keyword not in taken:
                continue
            yield make(
                "CD101",
                f"{qualname}({word}=)",
                Location(path, line),
                f"the docstring of `{qualname}`, rendered at {page}, writes `{word}`, one "
                f"letter from its parameter `{keyword}`: {qualname} does not take it, and "
                "following the docs raises TypeError (unexpected keyword argument)",
                (declared,),
            )


def _spelt_in(analysis: Analysis, module: str) -> set[str]:
    """The names a module spells as its own: the attributes it reads, the
    names it assigns, and its functions' parameters."""
    facts = analysis.project.modules[module].facts
    return {
        *facts.attr_loads,
        *facts.assigns,
        *(name for params in facts.functions.values() for name in params),
    }


def example_calls(analysis: Analysis) -> list[tuple[str, Block]]:
    """The calls of the rendered functions' docstrings (their doctests,
    their prose's literals), each with its file and the scope that names
    its callee."""
    out: list[tuple[str, Block]] = []
    for module, qualname in sorted(_rendered(analysis)):
        info = analysis.project.modules[module]
        for call in info.facts.doc_calls.get(qualname, ()):
            out.append((info.path, scoped(analysis, module, call)))
    return out
