"""Keys a call registers by name for a file users write: pytest's
``parser.addini("timeout", "help", type="string", default="5")``,
Sphinx's ``app.add_config_value("autoapi_dirs", [], "html")``, tox's
``add_config(keys, of_type, default, desc)``, a catalogue's
(``define("port", default=8888)``) or a configured registration."""

from __future__ import annotations

from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.extract.python.registration_calls import declared_kind
from configdrift.model import Location, SchemaNode
from configdrift.resolve.mechanisms.option_nodes import option_group, option_node
from configdrift.resolve.project import Project

#: Calls that name a key and where its default is: (position, keyword).
NAMED = {
    "addini": (None, "default"),
    "add_config_value": (1, "default"),
    # tox's ``add_config(keys, of_type, default, desc)``; a constant
    # (``add_constant(keys, desc, value)``) is a key users read, never set.
    "add_config": (2, "default"),
    "add_constant": (None, ""),
}
#: pytest's ini ``type=`` values and the kind of value each takes.
_INI_TYPES = {
    "bool": "bool",
    "string": "str",
    "linelist": "list",
    "args": "list",
    "pathlist": "list",
    "paths": "list",
    "int": "int",
    "float": "float",
}


def _argument(call: RegistrationCall, spec: int | str | None) -> Expr | None:
    """The argument at a position or under a keyword."""
    if isinstance(spec, int):
        return call.args[spec] if len(call.args) > spec else None
    return None if spec is None else call.kwargs.get(spec)


def named_option(
    project: Project,
    module: str,
    call: RegistrationCall,
    where: Location,
    spec: tuple[int | str | None, int | str | None] = (0, None),
) -> SchemaNode | None:
    """The option a registration declares: its key (the others its
    aliases), its default and its kind."""
    key_expr = _argument(call, spec[0])
    if key_expr is None and call.method in ("add_config", "add_constant"):
        key_expr = call.kwargs.get("keys")
    names = [name] if key_expr is not None and (name := project.string(module, key_expr)) else []
    if key_expr is not None and key_expr[0] == "seq":
        # Several keys: the first is the key, the others its aliases.
        names = [project.string(module, item) or "" for item in key_expr[2]]
    if not names or not all(names) or names[0].startswith("-"):
        return None
    name = names[0]
    if call.method in NAMED:
        position, keyword = NAMED[call.method]
        expr = _argument(call, keyword) or _argument(call, position)
    else:
        expr = _argument(call, spec[1])
        if expr is None and call.method == "define":
            expr = _argument(call, 1)  # Tornado's ``define(name, default, ...)``
    default = project.evaluate(module, expr) if expr is not None else None
    kind = ""
    if call.method == "addini":
        # pytest reads a key registered with no type as a string; its
        # ``type`` is a tag (``"linelist"``) or a plain type (``int``).
        typed = call.kwargs.get("type") or (call.args[2] if len(call.args) > 2 else None)
        if typed is None:
            kind = "str"
        elif typed[0] == "n" and typed[1] in ("str", "bool", "int", "float"):
            kind = str(typed[1])
        else:
            kind = _INI_TYPES.get(project.string(module, typed) or "", "")
    of_type = call.kwargs.get("of_type") or (
        call.args[1] if call.method == "add_config" and len(call.args) > 1 else None
    )
    if of_type is not None:
        kind = declared_kind(of_type)
    node = option_node(
        name, names, kind, default, where, option_group(module, call.function), "named"
    )
    # Registered where the host lacks it (``try: ... except: pass``): the
    # host's key, which its own docs describe.
    node.hidden = call.guarded
    return node


def named_spec(
    call: RegistrationCall, declared: dict[str, tuple[int | str, int | str]]
) -> tuple[int | str | None, int | str | None]:
    """(the key's argument, the default's) of a named registration."""
    if call.method in NAMED:
        position, keyword = NAMED[call.method]
        return 0, keyword if position is None else position
    for name, spec in declared.items():
        if name.rsplit(".", 1)[-1] == call.method:
            return spec
    return 0, "default"
