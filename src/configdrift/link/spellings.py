"""The spellings of a project's settings, read off its surfaces: every
flag of a command line, every environment variable (read by name, a
settings class's field, a flag's ``envvar=``), every config key.

A declaration can name other spellings beside its own: click's and
typer's ``envvar="APP_PORT"``, a command's or parser's automatic
variables, configargparse's config-file keys, a registry entry's ``cli``
and ``env``. Each is a spelling of its own, declared there, and linked to
it explicitly (``declared``). A default read from the environment
(``default=os.environ.get("APP_PORT", 8000)``) links to the read itself,
which falls back to that default."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.facts import RegistrationCall
from configdrift.extract.python.registration_calls import AUTOMATIC, option_variables, variable_read
from configdrift.index.spellings import VARIABLE
from configdrift.model import (
    BUILTIN,
    CLI_KINDS,
    DocEntry,
    Location,
    SchemaNode,
    Spelling,
    resolve_path,
)
from configdrift.resolve.mechanisms.environment import environment_variables
from configdrift.resolve.project import Project

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: How an environment variable is written: upper case, digits, underscores.
#: (``VARIABLE``'s names, and one word of three characters or more.)
ENV_NAME = re.compile(rf"{VARIABLE.pattern}|[A-Z][A-Z0-9]{{2,}}")

#: A link a declaration makes between its spellings: (the spelling it
#: declares, another it names, why, where).
Declared = tuple[Spelling, Spelling, str, Location]


def spellings(analysis: Analysis) -> tuple[list[Spelling], list[Declared]]:
    """Every spelling the project's surfaces declare, and the others each
    declaration names (with their links)."""
    out: list[Spelling] = []
    declared: list[Declared] = []
    #: Variables a default reads: (the flag or key, the variable, its node).
    reading: list[tuple[Spelling, str, SchemaNode]] = []
    calls = _calls_by_place(analysis.project)
    automatic = _AutomaticVariables(analysis.project)
    for surface in analysis.everything:
        if surface.schema.model_kind == "action":
            # An action hands its inputs on as its steps write them (an
            # empty one may pass no flag at all): no setting of the others.
            continue
        docs: dict[int, list[DocEntry]] = {}
        for entry in surface.entries:
            found = resolve_path(surface.schema, entry.path)[0]
            if found is not None:
                docs.setdefault(id(found), []).append(entry)
        cli = surface.schema.model_kind in CLI_KINDS
        for node in surface.schema.walk():
            if node.location is None or not node.path or node.origin == BUILTIN:
                continue
            if node.children and not cli:
                continue  # a section: its keys are the settings
            spelling = _spelling(surface.surface, node, cli)
            # Only an entry of the spelling itself: ``-l, --follow-links``
            # of one command is no entry of another's ``-l, --language``.
            own = [e for e in docs.get(id(node), ()) if e.path[-1] in (spelling.name, node.key)]
            if own:
                spelling = dataclasses.replace(
                    spelling, doc=own[0].location, doc_default=own[0].default
                )
            out.append(spelling)
            named = list(node.also)
            if cli:
                call = calls.get((node.location.path, node.location.line))
                named += _flag_variables(call)
                if call is not None and not any(why != "default" for _, why in named):
                    variable = automatic(node.location.path, call.function, node.path[0], node.key)
                    if variable:
                        named.append((variable, "automatic"))
                if call is not None and automatic.config_files(node.location.path):
                    # configargparse reads ``--map-tokens`` as ``map-tokens``
                    # of its config files too.
                    named.append((node.path[0].lstrip("-"), "config file"))
            for name, why in named:
                if why == "default":
                    # The read itself is the variable's spelling, with the
                    # default it falls back to.
                    reading.append((spelling, name, node))
                    continue
                other = _named_spelling(spelling, node, name, why)
                out.append(other)
                declared.append((spelling, other, why, node.location))
    if not any(surface.surface == "env" for surface in analysis.everything):
        # Variables read by name are spellings even where they are too few
        # to be a surface of their own.
        out += [_spelling("env", node, False) for node in environment_variables(analysis.project)]
    for owner, name, node in reading:
        assert node.location is not None
        index = _read_of(out, name, node.location)
        if index is not None:
            # Ranked as the flag whose default it is.
            read = out[index] = dataclasses.replace(
                out[index], flag=owner.name if owner.kind == "flag" else None
            )
        else:
            read = _named_spelling(owner, node, name, "default")
            out.append(read)
        declared.append((owner, read, "default", node.location))
    return out, declared


def _read_of(spelt: list[Spelling], name: str, where: Location) -> int | None:
    """The index of the read of variable ``name`` that a default declared
    at ``where`` makes: the first read of it after ``where`` in its file."""
    reads = [
        (s.location.line, i)
        for i, s in enumerate(spelt)
        if s.kind == "env"
        and s.name == name
        and s.location.path == where.path
        and s.location.line >= where.line
        and s.declared_by.startswith("read in ")
    ]
    return min(reads)[1] if reads else None


def _named_spelling(spelling: Spelling, node: SchemaNode, name: str, why: str) -> Spelling:
    """A spelling a declaration names besides its own: a variable
    (``envvar="APP_PORT"``), or a flag (a registry's ``cli``)."""
    kind = "flag" if name.startswith("-") else "key" if why == "config file" else "env"
    return Spelling(
        kind,
        name,
        spelling.surface,
        spelling.path,
        spelling.location,
        None if why == "default" else spelling.default,
        spelling.type,
        declared_by=f"`{spelling.name}`'s {why}",
        flag=spelling.name if spelling.kind == "flag" else None,
        dest=node.key if kind == "flag" else "",
    )


def _spelling(surface: str, node: SchemaNode, cli: bool) -> Spelling:
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
        declared_by=_declared_by(surface, node),
        dest=node.key if cli else "",
    )


def _declared_by(surface: str, node: SchemaNode) -> str:
    """What declares a spelling, as ``map`` shows it: ``field of Settings``;
    a variable read by name is read in its module."""
    if surface == "env" and node.origin.startswith("option of "):
        return "read in " + node.origin.removeprefix("option of ")
    return node.origin


class _AutomaticVariables:
    """Variables every option of a command or parser is read from: click's
    ``auto_envvar_prefix`` (in the command's ``context_settings``, or
    handed to the command when it is called: ``PREFIX_NAME`` for the
    parameter ``name``) and configargparse's ``auto_env_var_prefix`` (the
    prefix and the long flag, upper-cased: ``APP_`` and ``--log-file`` make
    ``APP_LOG_FILE``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.modules = {info.path: name for name, info in project.modules.items()}
        self.found: dict[tuple[str, str], tuple[str, str] | None] = {}
        #: The files that make a parser reading config files.
        self.reading = {
            info.path
            for info in project.modules.values()
            if any(call.method == "default_config_files" for call in info.facts.registrations)
        }

    def __call__(self, path: str, function: str, flag: str, dest: str) -> str | None:
        """The variable of the option ``flag`` (``dest``) of the command or
        parser ``function`` of the file ``path``."""
        module = self.modules.get(path)
        if module is None:
            return None
        if (module, function) not in self.found:
            self.found[(module, function)] = self._prefix(module, function)
        found = self.found[(module, function)]
        if found is None:
            return None
        prefix, style = found
        if style == "click":
            return f"{prefix}_{dest.upper()}"
        return (prefix + flag.lstrip("-")).upper().replace("-", "_")

    def config_files(self, path: str) -> bool:
        """Does the file ``path`` make a parser that reads config files
        (configargparse's ``default_config_files``)?"""
        return path in self.reading

    def _prefix(self, module: str, function: str) -> tuple[str, str] | None:
        command = function.rsplit(".", 1)[-1]
        for call in self.project.modules[module].facts.registrations:
            prefix: object = None
            if call.method == "context_settings" and call.function == function:
                settings = self.project.evaluate(module, call.args[0])
                if settings.known and isinstance(settings.value, dict):
                    prefix = settings.value.get("auto_envvar_prefix")
            elif call.method == "auto_envvar_prefix" and call.callee.endswith(command):
                prefix = self.project.evaluate(module, call.args[0]).value
            elif call.method == "auto_env_var_prefix":
                # A parser's: every option the module adds to it.
                prefix = self.project.evaluate(module, call.args[0]).value
                if isinstance(prefix, str) and prefix:
                    return prefix, "configargparse"
            if isinstance(prefix, str) and prefix:
                return prefix.upper().replace("-", "_"), "click"
        return None


#: Calls recorded beside the options that declare none.
_NOT_OPTIONS = frozenset({"env", "named_call", "context_settings", *AUTOMATIC})


def _calls_by_place(project: Project) -> dict[tuple[str, int], RegistrationCall]:
    """The calls that declare options, by file and line."""
    out: dict[tuple[str, int], RegistrationCall] = {}
    for info in project.modules.values():
        for call in info.facts.registrations:
            if call.method not in _NOT_OPTIONS:
                out.setdefault((info.path, call.line), call)
    return out


def _flag_variables(call: RegistrationCall | None) -> Iterator[tuple[str, str]]:
    """The environment variables a flag's call names: ``envvar="X"`` (or a
    list of them), or a default read from the environment."""
    if call is None:
        return
    for name, keyword in option_variables(call):
        yield name, f"{keyword}="
    variable = variable_read(call.kwargs.get("default"))
    if variable is not None:
        yield variable, "default"
