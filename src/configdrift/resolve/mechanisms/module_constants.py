"""A module whose upper-case constants users override
(``locust.stats.CSV_STATS_INTERVAL_SEC = 5``): a configuration where the
docs document three of them, each constant's value its default. An API
page that renders the module (``.. automodule::``) and lists its
attributes documents an interface, not a configuration: it is no evidence.

Only a module another module of the package imports: a sample
configuration (``samples/pelican.conf.py``) holds example values, not
defaults. Whether a name the module lacks is set to no effect is not known (the
module may assign it in a branch, or compute it): nothing is said of a
documented constant it lacks. Its constants the docs leave out are
undocumented; a documented default is compared with the constant's value.
"""

from __future__ import annotations

from configdrift.model import Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_tables import table_option, table_root
from configdrift.resolve.mechanisms.settings_module import own_default
from configdrift.resolve.project import Project

#: The constants a module must assign a known value to.
MIN_CONSTANTS = 5


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each module that assigns ``MIN_CONSTANTS`` upper-case names or more
    a value known statically, where the docs name three of them no
    surface before holds."""
    builder = discovery.builder
    project = builder.project
    imported = _imported(project)
    found: list[Surface] = []
    for module in sorted(project.modules):
        if module not in imported:
            continue  # a sample configuration, a script: no module of the package
        info = project.modules[module]
        constants = {}
        for name, expr in info.facts.assigns.items():
            if "." in name or not name.isupper() or name.startswith("_"):
                continue
            value = project.evaluate(module, own_default(name, expr))
            if value.known:
                constants[name] = value
        evidence = discovery.hand_written() if discovery.hand_written else discovery.names
        if len(constants) < MIN_CONSTANTS or not (set(constants) & evidence):
            continue
        root, _, _ = table_root(builder, module, module, 1)
        root.strict = None  # a name it lacks may be assigned where it is not seen
        for name, value in constants.items():
            where = project.location(module, info.facts.assign_lines.get(name, 1))
            root.children[name] = table_option((name,), value, where, module)
        if discovery.claim(root, evidence):
            how = f"{len(constants)} constants of the module {module}"
            found.append(Surface(module, root, how, [], ""))
    return found


def _imported(project: Project) -> set[str]:
    """The project's modules another of its modules imports (``import
    locust.stats``, ``from locust import stats``, ``from . import stats``)."""
    last = {module.rsplit(".", 1)[-1]: module for module in project.modules}
    out: set[str] = set()
    for name, info in project.modules.items():
        for imp in info.facts.imports:
            for target in (imp.module, f"{imp.module}.{imp.name}" if imp.name else ""):
                if target in project.modules and target != name:
                    out.add(target)
            found = last.get(imp.name or imp.module.rsplit(".", 1)[-1]) if imp.level else None
            if found is not None and found != name:
                out.add(found)
    return out
