"""click, cloup, rich-click and typer: options declared with ``@option``
decorators or typer parameters, and click's builtin flags."""

from __future__ import annotations

from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.extract.python.registration_calls import CLICK_BUILTINS, TYPES, click_parameter
from configdrift.model import BUILTIN, Location, SchemaNode, Value
from configdrift.resolve.mechanisms.option_nodes import (
    hide_or_deprecate,
    option_group,
    option_node,
    with_variables,
)
from configdrift.resolve.project import ModuleInfo, Project

#: Libraries whose ``option`` decorator declares a command's option.
CLICK_LIKE = frozenset({"click", "cloup", "rich_click", "asyncclick"})


def beside_click(project: Project, module: str, call: RegistrationCall) -> bool:
    """Is ``@x.option("--flag", ...)`` of another library one of a click
    command's options: on a function that click's own ``@option``
    decorates too (``@optgroup.option`` of click-option-group beside
    ``@click.option``)?"""
    for other in project.modules[module].facts.registrations:
        if other.function != call.function or other.method != "option" or other is call:
            continue
        if of_click(project.external(module, other.callee)):
            return True
    return False


def wraps_click_option(project: Project, module: str, callee: str) -> bool:
    """Is the callee a function of the project's that returns a click-like
    library's ``option`` (a wrapper that sets some keywords first)?"""
    symbol = project.resolve(module, callee)
    if symbol is None or symbol.kind != "function":
        return False
    for function, returned in project.modules[symbol.module].facts.return_calls:
        head, _, last = project.external(symbol.module, returned).rpartition(".")
        if function == symbol.qualname and last == "option" and of_click(head):
            return True
    return False


def of_click(qualname: str) -> bool:
    """Is the name one of a click-like library's?"""
    return qualname.split(".")[0] in CLICK_LIKE


_CLICK_TYPES = {"INT": "int", "FLOAT": "float", "STRING": "str", "BOOL": "bool", "Path": "str"}


def click_option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    """``@click.option("-n", "--count", "name", default=1, type=int,
    is_flag=..., multiple=..., type=click.Choice([...]))``: the parameter
    the command receives is its destination."""
    texts = [text for a in call.args if (text := project.string(module, a)) is not None]
    if len(texts) != len(call.args):
        return None
    flags, dest = click_parameter(texts)
    if not flags:
        return None
    is_flag = project.evaluate(module, call.kwargs.get("is_flag")).value is True
    default: Value | None = Value.of(False, "False") if is_flag else None
    if "default" in call.kwargs:
        default = project.evaluate(module, call.kwargs["default"])
    kind = "bool" if is_flag else ""
    choices: tuple[object, ...] | None = None
    type_expr = call.kwargs.get("type")
    if type_expr is not None and type_expr[0] == "n":
        last = type_expr[1].rsplit(".", 1)[-1]
        kind = TYPES.get(last) or _CLICK_TYPES.get(last, "")
    elif (
        type_expr is not None
        and type_expr[0] == "call"
        and type_expr[1][0] == "n"
        and type_expr[1][1].rsplit(".", 1)[-1] == "Choice"
        and type_expr[2]
    ):
        choices = project.sequence(module, type_expr[2][0])
        if choices is not None:
            kind = "str"
    if project.evaluate(module, call.kwargs.get("multiple")).value is True:
        kind, choices = "list", None
    # A command receives its options as parameters, not attributes: what
    # reads them is not judged (CD202).
    group = option_group(module, call.function)
    node = option_node(dest, flags, kind, default, where, group, "click", choices)
    hide_or_deprecate(project, module, call.kwargs, node)
    return with_variables(node, call)


def click_builtin(module: str, call: RegistrationCall, where: Location) -> SchemaNode:
    """An option click adds (``--version``, ``--help``, or the names a
    command gives them): a documented spelling is accepted, with nothing to
    configure or read."""
    flags = [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str) and a[1][:1] == "-"]
    flags = flags or [CLICK_BUILTINS[call.method]]
    key = call.method.removesuffix("_option")
    node = option_node(key, flags, "", None, where, option_group(module, call.function), "click")
    node.origin = BUILTIN
    return node


def typer_option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    """A command's parameter declared as ``typer.Option(default, "--name")``
    (or in ``Annotated``): spelt ``--param-name`` unless it names its flags;
    a bool also takes ``--no-param-name``."""
    param = call.kwargs["__param__"][1]
    texts = [a[1] if a[0] == "c" and isinstance(a[1], str) else None for a in call.args]
    flags = [t for t in texts if t is not None and t.startswith("-")]
    default_expr = call.kwargs.get("default") or call.kwargs.get("__default__")
    if call.args and not (texts[0] or "").startswith("-"):
        default_expr = call.args[0]  # the older ``Option(default, *flags)``
    default = None
    if default_expr is not None and not (default_expr[0] == "src" and default_expr[1] == "..."):
        default = project.evaluate(module, default_expr)
    type_expr = call.kwargs.get("__type__")
    kind = TYPES.get(type_expr[1], "") if type_expr is not None and type_expr[0] == "n" else ""
    if not flags:
        flags = ["--" + param.replace("_", "-")]
        if kind == "bool":
            flags.append("--no-" + param.replace("_", "-"))
    # typer is built on click: its parameters arrive as the command's.
    node = option_node(
        param, flags, kind, default, where, option_group(module, call.function), "click"
    )
    return with_variables(node, call)


#: click's ``context_settings`` under which a command takes what it does not declare.
_TAKES_UNKNOWN = frozenset({"ignore_unknown_options", "allow_extra_args"})


def takes_unknown(info: ModuleInfo, settings: Expr) -> bool:
    """Does a command's ``context_settings`` (a dict, or a module's name for
    one) let it take unknown options or extra arguments?"""
    if settings[0] == "n":
        settings = info.facts.assigns.get(settings[1], settings)
    if settings[0] == "dict":
        keys = {key[1] for key, value in settings[1] if key[0] == "c" and value != ["c", False]}
        named = sum(1 for key, _ in settings[1] if key[0] == "c")
        return bool(keys & _TAKES_UNKNOWN) or named < len(settings[1])
    if settings[0] == "call" and settings[1] == ["n", "dict"] and not settings[2]:
        given = {k for k, value in settings[3].items() if value != ["c", False]}
        return bool(_TAKES_UNKNOWN & given)  # ``dict(help_option_names=...)``
    return True  # not known statically: it may


def adds_unseen_options(project: Project, module: str, callee: str) -> bool:
    """Does a decorator named ``*_option`` add options no call of the
    project declares: one of another library's but click's own (whose
    ``password_option`` and the like add the flags their names say), or
    one that cannot be told?"""
    symbol = project.resolve(module, callee)
    return symbol is None or (symbol.kind == "external" and not of_click(symbol.qualname))
