"""Command lines made of functions' signatures: ``jsonargparse.CLI(main)``
(or a dict or list of functions, one subcommand each), ``fire.Fire(main)``,
``tyro.cli(main)``, and typer's commands (``@app.command()`` of ``app =
typer.Typer()``, ``typer.run(main)``).

Each parameter of such a function is an option: ``--name`` (fire and tyro
take ``--the-name`` too). A parameter whose type is a dataclass or a
pydantic model of the project is a group of options, one per field
(``--train.learning_rate``), whose defaults are the fields' unless the
parameter's default builds the model with others (``train: Train =
Train(lr=3e-4)``). jsonargparse and tyro reject a flag they do not know;
fire hands it to a ``**kwargs`` the function takes, and jsonargparse
takes a subclass of a parameter's class: such a command line is open.
Typer spells a parameter ``--the-name`` (a switch ``--no-the-name`` too);
one without a default, or one ``typer.Argument`` declares, is an
argument, and one ``typer.Option`` declares is read by ``options.py``.
"""

from __future__ import annotations

from configdrift.extract.python.facts import Expr
from configdrift.extract.python.registration_calls import declared_kind
from configdrift.extract.python.signatures import COMMAND_DECORATORS, COMMAND_FUNCTIONS
from configdrift.model import SIGNATURE, Location, SchemaNode, Value
from configdrift.resolve.mechanisms.option_nodes import option_group, option_node
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder, new_root

#: The calls that make a command line of signatures, by library, as the
#: dotted names they resolve to.
_LIBRARIES = {
    "jsonargparse.CLI": "jsonargparse",
    "jsonargparse.auto_cli": "jsonargparse",
    "fire.Fire": "fire",
    "tyro.cli": "tyro",
    "tyro.extras.subcommand_cli_from_dict": "tyro",
    "typer.run": "typer",
}
#: The deepest a dict of subcommands is followed.
_MAX_NESTING = 4


def signature_options(builder: SchemaBuilder) -> tuple[list[SchemaNode], list[Location]]:
    """The options of every command line the project makes of signatures,
    and the calls whose command line takes flags it does not declare (a
    function of fire's with ``**kwargs``, a callee not followed)."""
    project = builder.project
    nodes: list[SchemaNode] = []
    open_calls: list[Location] = []
    for module, info in project.modules.items():
        for call in info.facts.registrations:
            if call.method != COMMAND_FUNCTIONS or not call.args:
                continue
            library = _library(builder, module, call.callee)
            if library is None:
                continue
            where = Location(info.path, call.line)
            for function in _functions(builder, module, call.args[0], 0):
                # A class, or a name not followed, takes any flag.
                found, opened = (
                    _parameters(builder, function, library) if function is not None else ([], True)
                )
                nodes += found
                if opened:
                    open_calls.append(where)
    return nodes, open_calls


def _library(builder: SchemaBuilder, module: str, callee: str) -> str | None:
    """The library whose call (``jsonargparse.CLI``) or app's decorator
    (``app.command`` of ``app = typer.Typer()``) ``callee`` is, if one
    that makes a command line of signatures."""
    project = builder.project
    receiver, _, method = callee.rpartition(".")
    if method in COMMAND_DECORATORS:
        made = project.modules[module].facts.assigns.get(receiver)
        if made is None or made[0] != "call" or made[1][0] != "n":
            return None
        callee, method = made[1][1], ""
    name = project.external(module, callee)
    if method:
        return _LIBRARIES.get(name)
    return "typer" if name == "typer.Typer" else None


def _functions(builder: SchemaBuilder, module: str, expr: Expr, depth: int) -> list[Symbol | None]:
    """The project's functions a call is given: a name, or the values of a
    dict (``{"train": train}``) or the items of a list; None for anything
    else (a class, another library's function)."""
    if expr[0] == "n":
        symbol = builder.project.resolve(module, expr[1])
        return [symbol if symbol is not None and symbol.kind == "function" else None]
    if depth < _MAX_NESTING and expr[0] in ("dict", "seq"):
        items = [value for _, value in expr[1]] if expr[0] == "dict" else expr[2]
        return [f for item in items for f in _functions(builder, module, item, depth + 1)]
    return [None]


def _flags(name: str, library: str) -> list[str]:
    """How users write the option of the parameter (or field path) ``name``."""
    if library == "typer":
        return [f"--{name.replace('_', '-')}"]
    flags = [f"--{name}"]
    if library != "jsonargparse" and "_" in name:
        hyphened = f"--{name.replace('_', '-')}"
        flags = [hyphened, *flags] if library == "tyro" else [*flags, hyphened]
    return flags


def _parameters(
    builder: SchemaBuilder, function: Symbol, library: str
) -> tuple[list[SchemaNode], bool]:
    """The options of one function's parameters, and whether the function
    takes flags it does not name (fire's ``**kwargs``)."""
    project = builder.project
    module = function.module
    facts = project.modules[module].facts
    signature = facts.signatures.get(function.qualname, [])
    group = option_group(module, function.qualname) + SIGNATURE
    out: list[SchemaNode] = []
    opened = library == "fire" and function.qualname in facts.open_signatures
    for name, line, annotation, default in signature:
        if name in ("self", "cls"):
            continue
        if library == "typer" and (default is None or _typer_declared(annotation, default)):
            # An argument, or an option its ``typer.Option`` declares
            # (``options.py`` reads those).
            continue
        where = project.location(module, line)
        value = project.evaluate(module, default) if default is not None else None
        kind = declared_kind(annotation) if annotation is not None else ""
        flags = _flags(name, library)
        if library == "typer" and (kind == "bool" or isinstance(value and value.value, bool)):
            flags.append(f"--no-{flags[0][2:]}")  # a switch, and its negation
        model_kind = "click" if library == "typer" else None  # typer's command is click's
        out.append(option_node(name, flags, kind, value, where, group, model_kind))
        model = _model(builder, module, annotation)
        if model is not None:
            out += _fields(builder, module, (name, line), model, default, library, group)
            # jsonargparse takes a subclass: ``--data Alpaca --data.file_name x``.
            opened |= library == "jsonargparse" and any(
                model in project.bases(s) for s in project.class_symbols()
            )
    return out, opened


def _model(builder: SchemaBuilder, module: str, annotation: Expr | None) -> Symbol | None:
    """The one model of the project a parameter's type names (``Train``,
    ``Optional[Train]``, ``Train | None``)."""
    found = [s for marker, s in builder.type_facts(module, annotation).models if marker is None]
    return found[0] if len(found) == 1 else None


def _fields(
    builder: SchemaBuilder,
    module: str,
    parameter: tuple[str, int],
    model: Symbol,
    default: Expr | None,
    library: str,
    group: str,
) -> list[SchemaNode]:
    """One option per field of the model a parameter ``name`` holds
    (``--name.field``, ``--name.inner.field``), with the defaults the
    parameter's default gives."""
    name, line = parameter
    root = new_root()
    builder.fill(root, model, direct=True)
    at = builder.project.location(module, line)
    given: dict[str, Expr] | None = {}
    if default is not None and default[0] == "call" and default[1][:1] == ["n"]:
        built = builder.project.resolve(module, default[1][1])
        given = default[3] if built == model else None
    elif default is not None and default != ["c", None]:
        given = None  # built elsewhere: what the fields default to is not known
    out: list[SchemaNode] = []
    for node in root.walk():
        if node is root or not all(part.isidentifier() for part in node.path):
            continue  # a list's items (``[]``): no flag spells them
        key = ".".join((name, *node.path))
        where = node.location or builder.project.location(module, 1)
        option = option_node(key, _flags(key, library), "", node.default, where, group)
        option.type, option.deprecated = node.type, node.deprecated
        if given is None:
            option.default = Value.unknown("set by the parameter's default")
        elif len(node.path) == 1 and node.path[0] in given:
            option.default = builder.project.evaluate(module, given[node.path[0]])
            option.default_location = at
        out.append(option)
    return out


#: The calls that declare a typer parameter as an option or an argument.
_TYPER_PARAMETERS = frozenset({"Option", "Argument"})


def _typer_declared(annotation: Expr | None, default: Expr) -> bool:
    """Is a typer parameter declared by ``typer.Option`` or
    ``typer.Argument``, as its default or in ``Annotated[T, ...]``?"""
    calls = [expr for expr in (default, annotation) if expr is not None and expr[0] == "call"]
    for expr in (default, annotation):
        if expr is not None and expr[0] == "sub" and expr[2][0] == "seq":
            calls += [item for item in expr[2][2] if item[0] == "call"]
    return any(c[1][0] == "n" and c[1][1].rpartition(".")[2] in _TYPER_PARAMETERS for c in calls)
