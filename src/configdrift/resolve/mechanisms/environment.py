"""Environment variables the code reads by name (``os.environ.get``,
``os.getenv``, a helper that reads the variable its parameter names, a
library's reader: python-decouple's ``config``, environs' ``Env``): a
surface of their own, lenient (an unknown variable is never read)."""

from __future__ import annotations

import re

from configdrift.extract.python.facts import Expr
from configdrift.extract.python.registration_calls import CONVERSIONS, ENV_CALLS
from configdrift.model import Location, SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import mount_by_name, option_node
from configdrift.resolve.project import Project
from configdrift.resolve.schema import MIN_OPTIONS, new_root

#: Variables every process has: the platform's, not the project's settings.
_SYSTEM_VARIABLES = frozenset(
    {
        "HOME",
        "PATH",
        "USER",
        "USERNAME",
        "LOGNAME",
        "PWD",
        "SHELL",
        "TERM",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "TEMP",
        "TMP",
        "HOSTNAME",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "CI",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "APPDATA",
        "LOCALAPPDATA",
        "USERPROFILE",
        "COLUMNS",
        "NO_COLOR",
    }
)


#: The keys of a WSGI or CGI request's ``environ``: a web app reads them
#: from its request, not from the process environment.
_CGI = re.compile(
    r"^(?:HTTP_\w+|PATH_INFO|SCRIPT_NAME|QUERY_STRING|REQUEST_METHOD|REQUEST_URI|REMOTE_\w+"
    r"|SERVER_(?:NAME|PORT|PROTOCOL|SOFTWARE)|CONTENT_(?:TYPE|LENGTH)|wsgi\.\w+)$"
)


#: How findings name the environment as a configuration.
ENVIRONMENT = "the environment"


def variable_read(expr: Expr | None) -> str | None:
    """The variable an expression reads: ``os.environ.get("X", d)``,
    ``os.getenv("X")``, also inside a conversion (``int(...)``)."""
    if expr is None or expr[0] != "call" or expr[1][0] != "n":
        return None
    if expr[1][1] in CONVERSIONS and len(expr[2]) == 1:
        return variable_read(expr[2][0])
    args = expr[2]
    if expr[1][1] in ENV_CALLS and args and args[0][0] == "c" and isinstance(args[0][1], str):
        return str(args[0][1]) or None
    return None


def environment_variables(project: Project) -> list[SchemaNode]:
    """The environment variables the code reads by name
    (``os.environ.get("X", d)``, ``os.getenv``, ``os.environ["X"]``), one
    node per name, with the first default a read gives."""
    nodes: dict[str, SchemaNode] = {}
    helpers = _env_helpers(project)
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            suffixes = {""}
            if call.method == "named_call":
                symbol = project.resolve(name, call.callee)
                if symbol is not None and (symbol.module, symbol.qualname) in helpers:
                    suffixes = helpers[(symbol.module, symbol.qualname)]
                elif not _library_read(project, name, call.callee):
                    continue
            elif call.method != "env" or call.args[0][0] == "n":
                continue
            base = project.string(name, call.args[0])
            if not base or base in _SYSTEM_VARIABLES or base.startswith("_"):
                continue  # the platform's, or private (``_APP_TEST_HOOK``)
            if _CGI.match(base):
                continue  # a WSGI request's ``environ``, not the process's
            known = project.known(name, call.args[1]) if len(call.args) > 1 else None
            where = Location(info.path, call.line)
            for suffix in sorted(suffixes):
                variable = base + suffix
                if variable not in nodes:
                    # Grouped by module; a variable the helper suffixes takes no default.
                    nodes[variable] = option_node(
                        variable, [variable], "", None if suffix else known, where, name, "env"
                    )
    return list(nodes.values())


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


def _env_helpers(project: Project) -> dict[tuple[str, str], set[str]]:
    """Functions that read the environment variable their first parameter
    names (``def envbool(s, d): return os.getenv(s, d) == "1"``), with the
    suffixes they add to it (``os.getenv(s + "_FILE")``; ``""`` for the
    name itself)."""
    out: dict[tuple[str, str], set[str]] = {}
    for name, info in project.modules.items():
        for call in info.facts.registrations:
            if call.method == "env" and call.args and call.args[0][0] == "n":
                params = info.facts.functions.get(call.function, [])
                if params and params[0] == call.args[0][1]:
                    suffix = call.kwargs.get("suffix", ["c", ""])[1]
                    out.setdefault((name, call.function), set()).add(str(suffix))
    return out


def surfaces(discovery: Discovery) -> list[Surface]:
    """The environment variables read by name, unless they are the root."""
    found: list[Surface] = []
    if discovery.builder.primary != "env":
        variables = environment_variables(discovery.builder.project)
        if len(variables) >= MIN_OPTIONS:
            env = new_root()
            mount_by_name(env, variables, ENVIRONMENT, "env")
            if discovery.claim(env):
                how = f"{len(variables)} variables read with os.environ or os.getenv"
                found.append(Surface("env", env, how, [], "env"))
    return found
