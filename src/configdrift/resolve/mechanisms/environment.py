"""Environment variables the code reads by name (``os.environ.get``,
``os.getenv``, a helper that reads the variable its parameter names, a
library's reader: python-decouple's ``config``, environs' ``Env``): a
surface of their own, lenient (an unknown variable is never read)."""

from __future__ import annotations

from collections.abc import Iterator

from configdrift.extract.python.env_names import Affix, affix_of, given_to
from configdrift.extract.python.facts import RegistrationCall
from configdrift.index.platform_variables import not_the_projects, package_named
from configdrift.model import Location, SchemaNode, Surface, Value
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import mount_by_name, option_node
from configdrift.resolve.project import Project
from configdrift.resolve.schema import new_root

#: The variables read, and documented as entries, that make the
#: environment a configuration of the project.
MIN_VARIABLES = 2


#: How findings name the environment as a configuration.
ENVIRONMENT = "the environment"
#: How an environment its pages write in prose is admitted (``Surface.admitted``).
IN_PROSE = "the pages write its variables in prose and command lines"


def environment_variables(project: Project) -> list[SchemaNode]:
    """The environment variables the code reads by name
    (``os.environ.get("X", d)``, ``os.getenv``, ``os.environ["X"]``), one
    node per name, with the first default a read gives."""
    nodes: dict[str, SchemaNode] = {}
    for variable, module, where, known in variable_reads(project):
        if variable not in nodes or (nodes[variable].default is None and known is not None):
            # Grouped by module; a variable a helper adds to takes no default.
            nodes[variable] = option_node(variable, [variable], "", known, where, module, "env")
    return list(nodes.values())


def variable_reads(project: Project) -> Iterator[tuple[str, str, Location, Value | None]]:
    """Each read of a variable by name: the variable, the module, where,
    and the default it gives (none where a helper adds to the name, and no
    read where the caller gives a parameter the helper adds)."""
    helpers = _env_helpers(project)
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            affixes: set[Affix] = {("", "", frozenset())}
            if call.method == "named_call":
                symbol = project.resolve(name, call.callee)
                helper = helpers.get((symbol.module, symbol.qualname)) if symbol else None
                if helper is not None:
                    affixes = {a for a in helper if not given_to(call) & a[2]}
                elif not _library_read(project, name, call.callee):
                    continue
            elif call.method != "env" or (
                call.args[0][0] == "n" and (name, call.function) in helpers
            ):
                continue  # a helper's own read of the variable its caller names
            base = project.string(name, call.args[0])
            if not base or not_the_projects(base):
                continue  # the platform's, a request's or a runner's, or private
            known = project.known(name, call.args[1]) if len(call.args) > 1 else None
            where = Location(info.path, call.line)
            for before, after, _ in sorted(affixes, key=lambda a: a[:2]):
                yield before + base + after, name, where, None if before or after else known


#: Libraries' readers of a variable by name: python-decouple's ``config``.
_READERS = frozenset({"decouple.config"})
#: Classes whose instance reads one (``env = Env()``, then ``env.int("PORT",
#: 8000)`` or django-environ's ``env("SECRET_KEY")``).
_READER_CLASSES = frozenset({"environs.Env", "environ.Env"})


def _library_read(project: Project, module: str, callee: str) -> bool:
    """Is ``callee`` a library's reader of an environment variable?"""
    if project.external(module, callee) in _READERS:
        return True
    holder = project.modules[module].facts.assigns.get(callee.split(".", 1)[0])
    return (
        holder is not None
        and holder[0] == "call"
        and holder[1][0] == "n"
        and project.external(module, holder[1][1]) in _READER_CLASSES
    )


#: How many helpers deep a variable's name is followed.
_HELPER_DEPTH = 3


def _env_helpers(project: Project) -> dict[tuple[str, str], set[Affix]]:
    """Functions that read the environment variable their first parameter
    names (``def envbool(s, d): return os.getenv(s, d) == "1"``), with the
    text they put before and after it (``os.getenv(s + "_FILE")``,
    ``f"{prefix}_{arg}"`` of ``prefix="APP"``; ``""`` for none) and the
    parameters that text comes from; and those that hand their first
    parameter to one (``get_path(name)`` calling ``get_value(name)``), a
    few calls deep."""
    out: dict[tuple[str, str], set[Affix]] = {}
    handing: list[tuple[str, RegistrationCall]] = []
    for name, info in project.modules.items():
        for call in info.facts.registrations:
            if call.method not in ("env", "named_call") or not call.args or call.args[0][0] != "n":
                continue
            params = info.facts.functions.get(call.function, [])
            if not params or params[0] != call.args[0][1]:
                continue  # not the function's first parameter
            if call.method == "named_call":
                handing.append((name, call))
            else:
                out.setdefault((name, call.function), set()).add(affix_of(call))
    for _ in range(_HELPER_DEPTH if handing else 0):
        grown = False
        for name, call in handing:
            symbol = project.resolve(name, call.callee)
            inner = out.get((symbol.module, symbol.qualname)) if symbol is not None else None
            if inner is not None and (name, call.function) not in out:
                out[(name, call.function)] = set(inner)
                grown = True
        if not grown:
            break
    return out


def surfaces(discovery: Discovery) -> list[Surface]:
    """The environment variables read by name, unless they are the root."""
    found: list[Surface] = []
    if discovery.builder.primary != "env":
        # The variables an action the project ships hands its own steps.
        handed = {v for action in discovery.builder.actions for v in action.variables}
        variables = [
            node
            for node in environment_variables(discovery.builder.project)
            if node.key not in handed
        ]
        if len(variables) >= MIN_VARIABLES:
            env = new_root()
            mount_by_name(env, variables, ENVIRONMENT, "env")
            # Two variables the docs list as entries are evidence enough:
            # a page's "Environment variables" section of a small tool.
            claimed = discovery.claim(env, least=MIN_VARIABLES)
            admitted = ""
            if not claimed and discovery.spelt is not None:
                # Variables the pages write in prose or command lines.
                spelt = discovery.spelt(frozenset(n.key for n in variables))
                claimed = discovery.claim(env, discovery.names | spelt, least=MIN_VARIABLES)
                admitted = IN_PROSE if claimed else ""
                project = discovery.builder.project
                if not claimed and spelt & (own := package_named(variable_reads(project))):
                    # Variables named for the package, one of them in the
                    # pages: their name is evidence for the others.
                    variables, env = [n for n in variables if n.key in own], new_root()
                    mount_by_name(env, variables, ENVIRONMENT, "env")
                    claimed = discovery.claim(env, frozenset(own), least=1)
                    admitted = "its variables are named for the package"
            if claimed:
                how = f"{len(variables)} variables read with os.environ or os.getenv"
                found.append(Surface("env", env, how, [], "env", admitted=admitted))
    return found
