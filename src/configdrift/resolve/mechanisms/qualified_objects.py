"""A model whose instance the package exports under a dotted name that the
docs write its fields on (``nox.options.envdir``): the configuration users
set as that object's attributes (``nox.options.reuse_venv = "yes"``).

The evidence is the docs': the pages write five of the object's attributes
or more in code (list items, prose), three quarters of what they write on
it are the model's fields, and a third of its fields at least. The object
is a module-level instance of a project model (``noxfile_options =
NoxfileOptions()``), reached from the package by that name (an import
alias counts). The model is placed under the dotted name, so that the
pages' names are its paths (a misspelt one is CD101 or CD102 as the model
is strict or not).
"""

from __future__ import annotations

from configdrift.index.pages import gathered
from configdrift.model import Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import placed_under

#: The fewest attributes the pages write on the object.
MIN_NAMED = 5
#: The share of them that must be the model's fields.
SHARE = 0.75
#: The part of the model's fields the pages must write at least.
PART = 3


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each exported instance of a model whose fields the pages write on it."""
    written = gathered(page.qualified for page in discovery.page_keys())
    found: list[Surface] = []
    for owner, names in sorted(written.items()):
        cls = _instance_of(discovery, owner)
        if cls is None:
            continue
        root = discovery.builder.model_root(cls)
        spelt = names & set(root.children)
        if len(spelt) < max(MIN_NAMED, SHARE * len(names), len(root.children) / PART):
            continue
        if not discovery.claim(root, frozenset(spelt), shared=True):
            continue
        # Set as attributes: a class with slots refuses an unknown one; any
        # other takes it, and nothing reads it.
        root.strict = None
        if _slotted(discovery, cls):
            root.strict, root.model_kind = True, "slots"
        dotted = ".".join(owner)
        how = f"the docs write {len(spelt)} of its {len(root.children)} fields on `{dotted}`"
        found.append(Surface(dotted, placed_under(root, dotted), how, [], cls.target))
    return found


def _instance_of(discovery: Discovery, owner: tuple[str, ...]) -> Symbol | None:
    """The model class whose instance the package's dotted name is, if any."""
    project = discovery.builder.project
    symbol = project.resolve(owner[0], ".".join(owner[1:]))
    if symbol is None or symbol.kind != "const":
        return None
    value = project.modules[symbol.module].facts.assigns.get(symbol.qualname)
    if not value or value[0] != "call" or value[1][0] != "n" or value[2] or value[3]:
        return None
    cls = project.resolve(symbol.module, str(value[1][1]))
    if cls is None or cls.kind != "class" or discovery.builder.model(cls) is None:
        return None
    return cls


#: Decorators that give a class slots unless told not to (attrs' own).
_SLOTTED = frozenset({"define", "frozen", "mutable"})


def _slotted(discovery: Discovery, cls: Symbol) -> bool:
    """Does the class have slots: attrs' ``define`` (``slots=False`` aside)
    or ``dataclass(slots=True)``?"""
    fact = discovery.builder.project.class_fact(cls)
    for deco in fact.decorators if fact is not None else ():
        call = deco[0] == "call"
        name = str((deco[1] if call else deco)[-1]).rsplit(".", 1)[-1]
        slots = deco[3].get("slots") if call else None
        if name in _SLOTTED and slots != ["c", False]:
            return True
        if name == "dataclass" and slots == ["c", True]:
            return True
    return False
