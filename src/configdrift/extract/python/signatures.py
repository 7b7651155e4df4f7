"""A function's signature: its parameters with their defaults and
annotations, and the options its decorators and parameters declare
(``@click.option``, ``name: str = typer.Option(...)``)."""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import (
    MIN_OPTIONAL,
    defaulted,
    deprecated_keywords,
    described_keywords,
    dotted,
    last_name,
    optional_keywords,
    to_expr,
)
from configdrift.extract.python.facts import ModuleFacts, RegistrationCall
from configdrift.extract.python.registration_calls import (
    HANDLER,
    OPTION_DECORATORS,
    click_builtin,
    context_settings,
    registration_call,
)

_PARAMETER_OPTIONS = frozenset({"Option"})
#: Decorators that leave a function's keyword arguments as its parameters.
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "overload", "abstractmethod", "override", "final"}
)


def all_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    """The parameters a call can name: positional-only, positional and
    keyword-only (not ``*args`` or ``**kwargs``)."""
    args = node.args
    return [*args.posonlyargs, *args.args, *args.kwonlyargs]


def read_signature(
    facts: ModuleFacts,
    source: str,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    qualname: str,
    deprecates: bool,
) -> set[str]:
    """Record what ``node``'s decorators and signature say in ``facts``;
    the names of its annotated parameters."""
    for deco in node.decorator_list:
        if isinstance(deco, ast.Call):
            option = registration_call(deco, source, qualname, OPTION_DECORATORS)
            if option is not None:
                if option.method not in OPTION_DECORATORS:
                    option.kwargs[HANDLER] = ["c", qualname]  # a flag handed to the function
                facts.registrations.append(option)
        builtin = click_builtin(deco, source, qualname)
        if builtin is not None:
            facts.registrations.append(builtin)
        settings = context_settings(deco, source, qualname)
        if settings is not None:
            facts.registrations.append(settings)
    args = node.args
    parameters = all_parameters(node)
    facts.functions[qualname] = [a.arg for a in parameters]
    if len(optional := optional_keywords(args)) >= MIN_OPTIONAL:
        facts.optional_params[qualname] = optional
        facts.described_params[qualname] = described_keywords(node, optional)
    if deprecates and (deprecated := deprecated_keywords(node)):
        facts.deprecated_params[qualname] = deprecated
    if args.kwarg is not None or any(
        last_name(d) not in _PLAIN_DECORATORS for d in node.decorator_list
    ):
        facts.open_signatures.append(qualname)
    facts.function_lines[qualname] = (node.lineno, node.end_lineno or node.lineno)
    annotated: set[str] = set()
    for a in parameters:
        if a.annotation is not None and a.arg not in ("self", "cls"):
            annotation = dotted(a.annotation)
            if annotation is not None:
                facts.local_types.append((qualname, a.arg, annotation))
                annotated.add(a.arg)
    pairs = defaulted(args)
    _parameter_options(facts, source, node, qualname, pairs)
    defaults = {
        a.arg: to_expr(d, source)
        for a, d in pairs
        if (isinstance(d, ast.Constant) and isinstance(d.value, str)) or dotted(d) is not None
    }
    if defaults:
        facts.param_defaults[qualname] = defaults
    if "." not in qualname and parameters:
        # A module's function: its signature may be a command line
        # (``jsonargparse.CLI(main)``, ``fire.Fire(main)``).
        given = {id(a): to_expr(d, source) for a, d in pairs}
        facts.signatures[qualname] = [
            (
                a.arg,
                a.lineno,
                to_expr(a.annotation, source) if a.annotation is not None else None,
                given.get(id(a)),
            )
            for a in parameters
        ]
    return annotated


#: The calls that make command lines of functions' signatures, by the
#: text a module must hold to make one.
SIGNATURE_COMMANDS = frozenset(
    {"CLI", "auto_cli", "Fire", "cli", "subcommand_cli_from_dict", "run"}
)
#: The decorators that make a function a command of an app (typer's
#: ``@app.command()``, ``@app.callback()``), by the method's name.
COMMAND_DECORATORS = frozenset({"command", "callback"})
#: The method a command line made of signatures is recorded as.
COMMAND_FUNCTIONS = "command_functions"


def command_line_calls(tree: ast.Module, source: str) -> list[RegistrationCall]:
    """``CLI(main)``, ``CLI({"train": train, ...})``, ``fire.Fire(main)``,
    ``tyro.cli(main)``, ``typer.run(main)``: calls that may build a
    command line of the signatures of the functions they are given, as
    ``command_functions`` registrations (the functions as the argument,
    the callee as ``callee``), wherever the module makes them; and a
    module's function decorated ``@app.command()``, as if ``app.command``
    were called with it."""
    if not any(word in source for word in ("jsonargparse", "fire", "tyro", "typer")):
        return []
    calls: list[RegistrationCall] = []
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for deco in stmt.decorator_list:
            func = deco.func if isinstance(deco, ast.Call) else deco
            if isinstance(func, ast.Attribute) and func.attr in COMMAND_DECORATORS:
                calls.append(
                    RegistrationCall(
                        COMMAND_FUNCTIONS,
                        [["n", stmt.name]],
                        {},
                        deco.lineno,
                        "<module>",
                        dotted(func) or "",
                    )
                )
    # ``commands = {"train": train, ...}`` then ``CLI(commands)``: the
    # collections a name is bound to, anywhere in the module, found in the
    # same walk as the calls.
    bound: dict[str, ast.expr] = {}
    made: list[ast.Call] = []
    for node in ast.walk(tree):
        if (
            type(node) is ast.Assign
            and len(node.targets) == 1
            and type(node.targets[0]) is ast.Name
            and type(node.value) in (ast.Dict, ast.List, ast.Tuple)
        ):
            bound[node.targets[0].id] = node.value
        elif type(node) is ast.Call and node.args and last_name(node.func) in SIGNATURE_COMMANDS:
            made.append(node)
    for call in made:
        given = call.args[0]
        if type(given) is ast.Name:
            given = bound.get(given.id, given)
        calls.append(
            RegistrationCall(
                COMMAND_FUNCTIONS,
                [to_expr(given, source)],
                {},
                call.lineno,
                "<module>",
                dotted(call.func) or "",
            )
        )
    return calls


def _parameter_options(
    facts: ModuleFacts,
    source: str,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    qualname: str,
    pairs: list[tuple[ast.arg, ast.expr]],
) -> None:
    """A command's parameters declared as options: ``name: str =
    typer.Option("World", "--name")`` or ``name: Annotated[str,
    typer.Option("--name")] = "World"``, as registrations ``Option``
    with ``__param__`` (and ``__default__``, ``__type__``) added."""
    defaults = {id(a): d for a, d in pairs}
    for a in all_parameters(node):
        default = defaults.get(id(a))
        call = _option_call(default)
        annotation = a.annotation
        if call is None and isinstance(annotation, ast.Subscript):
            inner = annotation.slice
            items = inner.elts if isinstance(inner, ast.Tuple) else []
            for item in items[1:]:
                call = call or _option_call(item)
            if call is not None:
                annotation = items[0]
        if call is None:
            continue
        option = registration_call(call, source, qualname, _PARAMETER_OPTIONS)
        if option is None:  # ``typer.Option(envvar="X", help="...")``: keywords only
            keywords = {k.arg: to_expr(k.value, source) for k in call.keywords if k.arg}
            option = RegistrationCall(
                "Option", [], keywords, call.lineno, qualname, dotted(call.func) or ""
            )
        option.kwargs["__param__"] = ["c", a.arg]
        if default is not None and default is not call:
            option.kwargs["__default__"] = to_expr(default, source)
        if annotation is not None:
            option.kwargs["__type__"] = to_expr(annotation, source)
        facts.registrations.append(option)


def _option_call(node: ast.expr | None) -> ast.Call | None:
    """``typer.Option(...)`` as a default, or inside ``Annotated[T, ...]``."""
    if isinstance(node, ast.Call):
        func = node.func
        return node if last_name(func) in _PARAMETER_OPTIONS else None
    return None


#: The method the console scripts a ``setup.py`` lists are recorded as.
CONSOLE_SCRIPTS = "console_scripts"


def console_scripts(tree: ast.Module, source: str) -> list[RegistrationCall]:
    """The console scripts a ``setup.py`` lists literally
    (``"console_scripts": ["coverage = coverage.cmdline:main"]``), as one
    ``console_scripts`` registration whose arguments are the entries."""
    if CONSOLE_SCRIPTS not in source:
        return []
    out: list[RegistrationCall] = []
    for node in ast.walk(tree):
        if type(node) is not ast.Dict:
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and key.value == CONSOLE_SCRIPTS
                and isinstance(value, ast.List | ast.Tuple)
            ):
                entries = [
                    to_expr(item, source)
                    for item in value.elts
                    if isinstance(item, ast.Constant) and isinstance(item.value, str)
                ]
                out.append(RegistrationCall(CONSOLE_SCRIPTS, entries, {}, value.lineno, "<module>"))
    return out
