"""The spellings of a project's settings, read off its surfaces: every
flag of a command line, every environment variable (read by name, a
settings class's field, a flag's ``envvar=``), every config key.

A flag can declare a variable beside itself: click's and typer's
``envvar="APP_PORT"``, or argparse's ``default=os.environ.get("APP_PORT",
8000)``. Such a variable is a spelling of its own, declared by the flag's
call, and linked to it explicitly (``declared``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.extract.python.registration_calls import ENV_CALLS
from configdrift.model import (
    BUILTIN,
    CLI_KINDS,
    DocEntry,
    Location,
    SchemaNode,
    Spelling,
    Value,
    resolve_path,
)
from configdrift.resolve.mechanisms.environment import environment_variables
from configdrift.resolve.project import Project

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: How an environment variable is written: upper case, digits, underscores.
ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z][A-Z0-9]{2,}")

#: A link a flag's own call makes: (flag, variable, why, where).
Declared = tuple[Spelling, Spelling, str, Location]


def spellings(analysis: Analysis) -> tuple[list[Spelling], list[Declared]]:
    """Every spelling the project's surfaces declare, and the variables
    flags declare beside themselves (with their links)."""
    out: list[Spelling] = []
    declared: list[Declared] = []
    calls = _calls_by_place(analysis.project)
    for surface in analysis.everything:
        docs: dict[int, DocEntry] = {}
        for entry in surface.entries:
            found = resolve_path(surface.schema, entry.path)[0]
            if found is not None:
                docs.setdefault(id(found), entry)
        cli = surface.schema.model_kind in CLI_KINDS
        for node in surface.schema.walk():
            if node.location is None or not node.path or node.origin == BUILTIN:
                continue
            if node.children and not cli:
                continue  # a section: its keys are the settings
            documented = docs.get(id(node))
            doc = (documented.location, documented.default) if documented else (None, None)
            spelling = _spelling(surface.surface, node, cli, doc)
            out.append(spelling)
            if cli:
                module, call = calls.get((node.location.path, node.location.line), ("", None))
                for variable, why in _flag_variables(call):
                    env = Spelling(
                        "env",
                        variable,
                        surface.surface,
                        node.path,
                        node.location,
                        _variable_default(analysis.project, module, node, call),
                        node.type,
                        declared_by=f"`{spelling.name}`'s {why}",
                        flag=spelling.name,
                    )
                    out.append(env)
                    declared.append((spelling, env, why, node.location))
    if not any(surface.surface == "env" for surface in analysis.everything):
        # Variables read by name are spellings even where they are too few
        # to be a surface of their own.
        named = {env.name for _, env, _, _ in declared}
        for node in environment_variables(analysis.project):
            if node.key not in named:
                out.append(_spelling("env", node, False, (None, None)))
    return out, declared


def _spelling(
    surface: str, node: SchemaNode, cli: bool, doc: tuple[Location | None, str | None]
) -> Spelling:
    assert node.location is not None
    if cli:
        kind, name = "flag", node.path[0]
    else:
        env = [s for s in node.spellings if s != node.key and ENV_NAME.fullmatch(s)]
        if surface == "env" or env:
            kind, name = "env", env[0] if env else node.key
        else:
            kind, name = "key", ".".join(node.path)
    return Spelling(
        kind,
        name,
        surface,
        node.path,
        node.location,
        node.default,
        node.type,
        doc[0],
        doc[1],
        _declared_by(surface, node),
        dest=node.key if cli else "",
    )


def _declared_by(surface: str, node: SchemaNode) -> str:
    """What declares a spelling, as ``map`` shows it: ``field of Settings``;
    a variable read by name is read in its module."""
    if surface == "env" and node.origin.startswith("option of "):
        return "read in " + node.origin.removeprefix("option of ")
    return node.origin


def _calls_by_place(project: Project) -> dict[tuple[str, int], tuple[str, RegistrationCall]]:
    """The calls that declare options, by file and line, with their module."""
    out: dict[tuple[str, int], tuple[str, RegistrationCall]] = {}
    for name, info in project.modules.items():
        for call in info.facts.registrations:
            if call.method not in ("env", "named_call"):
                out.setdefault((info.path, call.line), (name, call))
    return out


def _flag_variables(call: RegistrationCall | None) -> Iterator[tuple[str, str]]:
    """The environment variables a flag's call names: ``envvar="X"`` (or a
    list of them), or a default read from the environment."""
    if call is None:
        return
    envvar = call.kwargs.get("envvar")
    if envvar is not None:
        items = envvar[2] if envvar[0] == "seq" else [envvar]
        for item in items:
            if item[0] == "c" and isinstance(item[1], str) and item[1]:
                yield item[1], "envvar="
    variable = env_read(call.kwargs.get("default"))
    if variable is not None:
        yield variable, "default"


def env_read(expr: Expr | None) -> str | None:
    """The variable ``os.environ.get("X", d)`` or ``os.getenv("X")`` reads."""
    if expr is None or expr[0] != "call" or expr[1][0] != "n" or expr[1][1] not in ENV_CALLS:
        return None
    args = expr[2]
    if args and args[0][0] == "c" and isinstance(args[0][1], str) and args[0][1]:
        return str(args[0][1])
    return None


def _variable_default(
    project: Project, module: str, node: SchemaNode, call: RegistrationCall | None
) -> Value | None:
    """What the variable declared beside a flag defaults to: the flag's
    default for ``envvar=``; the read's fallback for a default that reads
    the environment (``os.environ.get("X", d)``: ``d``, None without one)."""
    expr = call.kwargs.get("default") if call is not None else None
    if expr is None or env_read(expr) is None:
        return node.default
    if len(expr[2]) < 2:
        return Value.of(None)
    return project.evaluate(module, expr[2][1])
