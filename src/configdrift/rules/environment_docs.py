"""The environment of a project no page lists as entries, whose
variables the pages name in prose and command lines (CD103 judges it
beside them): which variables are named, which are the package's own
read beside a named one, and which another spelling documents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from configdrift.discover import in_tests
from configdrift.extract.python.named_variables import variables_named
from configdrift.extract.python.registration_calls import variable_read
from configdrift.index.platform_variables import named_for_package, test_switch
from configdrift.model import Related, SchemaNode
from configdrift.resolve.mechanisms.environment import variable_reads
from configdrift.rules.evidence import bounded_files, named_in_pages, once

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def named_variables(analysis: Analysis) -> set[str]:
    """The keys of a surface the pages spell whole, searched once."""
    root = analysis.schema
    return once(
        analysis, f"named keys of {id(root)}", lambda: named_in_pages(analysis, set(root.children))
    )


def unjudged_variables(analysis: Analysis, keys: Iterable[str]) -> set[str]:
    """Of an environment admitted by the variables its pages name, the
    ``keys`` that are not the package's own beside a named one. A
    variable is the package's own where its first word abbreviates the
    name of the package that reads it (``CIBW_`` read in ``cibuildwheel``,
    ``DS_`` in ``deepspeed``; ``WANDB_`` read in ``torchtitan`` is
    wandb's, ``DS_`` read by a build script at the root its builder's);
    and the pages name ``FLOWER_GITLAB_OAUTH_DOMAIN`` and leave out the
    ``FLOWER_GITHUB_OAUTH_DOMAIN`` the same module reads, while one read
    apart (a test switch) says nothing of the docs. A variable named for
    its package, whole, is judged wherever the package reads it, where the
    pages name another of that name the package reads (``COPIER_CACHE_DIR``
    beside ``COPIER_SETTINGS_PATH``). A test's switch (a word of it begins
    ``TEST``: ``APP_TESTONLY_FAST_KDF``) is not the docs' to describe. One
    the code names in an option's help text (a generated reference
    shows it) or writes itself, or a script beside it writes (for a
    process it starts), is not left to the pages, nor one
    read as another's fallback (``os.getenv("NEW", os.getenv("OLD"))``:
    the older spelling)."""
    modules = _reads(analysis)
    named = named_variables(analysis)
    beside = {
        (path, name.split("_", 1)[0]) for name in named for path, _, _ in modules.get(name, ())
    }
    packages = {
        module.split(".", 1)[0]
        for name in named
        for _, module, _ in modules.get(name, ())
        if named_for_package(name, module)
    }
    written = once(analysis, "variables the code names", lambda: _named_by_code(analysis))
    out: set[str] = set()
    for key in keys:
        word = key.split("_", 1)[0]
        if (
            key in written
            or test_switch(key)
            or not any(
                ((path, word) in beside and abbreviates(word, module.split(".", 1)[0]))
                or (named_for_package(key, module) and module.split(".", 1)[0] in packages)
                for path, module, _ in modules.get(key, ())
            )
        ):
            out.add(key)
    return out


#: How many other reads of a variable a finding names.
MAX_READS = 5


def other_reads(analysis: Analysis, node: SchemaNode) -> list[Related]:
    """The places besides its first where the code reads the variable of
    ``node`` (``_py/path.py`` and ``pathlib.py`` both read
    ``PY_IGNORE_IMPORTMISMATCH``): each is where the variable matters."""
    first = (node.location.path, node.location.line) if node.location else None
    places = sorted({(path, line) for path, _, line in _reads(analysis).get(node.key, ())})
    return [
        Related(path, line, "the code reads it here too")
        for path, line in places
        if (path, line) != first
    ][:MAX_READS]


def _reads(analysis: Analysis) -> dict[str, set[tuple[str, str, int]]]:
    """The modules (each its file, its name and the line) that read each
    environment variable by name, once."""

    def derive() -> dict[str, set[tuple[str, str, int]]]:
        out: dict[str, set[tuple[str, str, int]]] = {}
        for variable, module, where, _ in variable_reads(analysis.project):
            out.setdefault(variable, set()).add((where.path, module, where.line))
        return out

    return once(analysis, "modules reading variables", derive)


def abbreviates(word: str, name: str) -> bool:
    """Is ``word`` a short form of ``name``: its letters in order, from the
    first (``CIBW`` of ``cibuildwheel``, ``DS`` of ``deepspeed``)?"""
    word, name = word.lower(), name.lower().replace("_", "")
    if not word or not name.startswith(word[0]):
        return False
    letters = iter(name)
    return all(letter in letters for letter in word)


def linked_variables(analysis: Analysis) -> set[str]:
    """The variables one setting links to a key or flag of another
    surface (``envvar=``, or the convention: ``FLOWER_OAUTH2_KEY`` of the
    option ``oauth2_key``): each is that setting's, documented with it."""
    from configdrift.link import settings_of

    return {
        spelling.name
        for setting in settings_of(analysis)
        if any(s.kind != "env" for s in setting.spellings)
        for spelling in setting.spellings
        if spelling.kind == "env"
    }


def _named_by_code(analysis: Analysis) -> set[str]:
    """The variables the code names in help texts or writes as keys, and
    those it reads as another's fallback."""
    out: set[str] = set()
    for info in analysis.project.modules.values():
        out.update(info.facts.variables_named)
        for call in info.facts.registrations:
            if call.method == "env" and len(call.args) > 1:
                older = variable_read(call.args[1])
                if older is not None:
                    out.add(older)
    # A script beside the package that sets one for the program it runs.
    scripts = [rel for rel in analysis.other_python if not in_tests(rel)]
    for _, data in bounded_files(analysis, scripts):
        out.update(variables_named(data.decode("utf-8", "replace")))
    return out
