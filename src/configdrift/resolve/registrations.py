"""Options declared by registration calls: ``parser.add_argument("--flag",
default=..., type=..., dest=...)`` of argparse.

Each option becomes a schema node: its key is the attribute the code reads
(``dest``), its spellings are the option strings users write (``--flag``,
``-f``), with the default and type the call gives. argparse rejects an
option it does not know ("unrecognized arguments"), so the options form a
strict section. Positional arguments are not options and are left out.
"""

from __future__ import annotations

from configdrift.extract.python.facts import RegistrationCall
from configdrift.model import Location, SchemaNode, TypeInfo, Value
from configdrift.resolve.project import Project

#: What an ``action`` makes of an option: its default and its kind.
_ACTIONS: dict[str, tuple[Value | None, str]] = {
    "store_true": (Value.of(False, "False"), "bool"),
    "store_false": (Value.of(True, "True"), "bool"),
    "count": (None, "int"),
    "append": (None, "list"),
    "extend": (None, "list"),
}
#: Actions that take no value a user configures.
_NOT_OPTIONS = frozenset({"help", "version"})
_TYPES = {"int": "int", "float": "float", "str": "str", "bool": "bool"}
#: The parser's own name for itself in findings.
PARSER = "the argument parser"


def argparse_options(project: Project) -> tuple[list[SchemaNode], list[Location]]:
    """Every ``add_argument`` option of the project, one node per ``dest``
    (an option declared by two parsers keeps the first, with both
    spellings), and the calls whose option strings are not known
    statically (``add_argument(*names)``, generated from a dataclass)."""
    nodes: dict[str, SchemaNode] = {}
    dynamic: list[Location] = []
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            if call.method != "add_argument":
                continue
            where = Location(info.path, call.line)
            if _dynamic(call):
                dynamic.append(where)
                continue
            node = _option(project, name, call, where)
            if node is None:
                continue
            known = nodes.get(node.key)
            if known is None:
                nodes[node.key] = node
            else:
                known.spellings = tuple(dict.fromkeys((*known.spellings, *node.spellings)))
    return list(nodes.values()), dynamic


def _dynamic(call: RegistrationCall) -> bool:
    """Option strings built at runtime: a starred or computed first argument
    (a positional argument's name is a plain string)."""
    first = call.args[0] if call.args else None
    return first is None or first[0] != "c"


def _option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    flags = [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str)]
    if not flags or len(flags) != len(call.args) or not all(f.startswith("-") for f in flags):
        return None  # a positional argument, or option strings not known statically
    action = project.string(module, call.kwargs["action"]) if "action" in call.kwargs else None
    if action in _NOT_OPTIONS:
        return None
    dest_expr = call.kwargs.get("dest")
    dest = project.string(module, dest_expr) if dest_expr is not None else None
    longs = [f for f in flags if f.startswith("--")]
    if dest is None:
        dest = (longs or flags)[0].lstrip("-").replace("-", "_")
    if not dest:
        return None
    default, kind = _ACTIONS.get(action or "", (None, ""))
    if "default" in call.kwargs:
        default = project.evaluate(module, call.kwargs["default"])
    # Without ``type=``, argparse hands the code the string the user typed:
    # the default's type says nothing of it.
    type_expr = call.kwargs.get("type")
    if type_expr is not None and type_expr[0] == "n":
        kind = _TYPES.get(type_expr[1], "")
    choices = _choices(project, module, call)
    kinds = frozenset({kind}) if kind else frozenset()
    spellings = tuple(dict.fromkeys([*longs, *flags]))
    return SchemaNode(
        # The key is the attribute the code reads; the path is what users write.
        key=dest,
        path=(spellings[0],),
        spellings=spellings,
        type=TypeInfo(kind, kinds, choices),
        default=default,
        location=where,
        # The declaring function (or module): CD103 reports a parser's
        # undocumented options only where the docs describe some of its others.
        origin=f"option of {module}:{call.function}"
        if call.function != "<module>"
        else f"option of {module}",
    )


def _choices(project: Project, module: str, call: RegistrationCall) -> tuple[object, ...] | None:
    expr = call.kwargs.get("choices")
    if expr is None:
        return None
    value = project.evaluate(module, expr)
    if value.known and isinstance(value.value, list | tuple):
        return tuple(value.value)
    return None


def mount_options(root: SchemaNode, options: list[SchemaNode], complete: bool) -> None:
    """Make the options the children of the root: strict when every option
    is known (``complete``), open when some are declared at runtime."""
    for node in options:
        root.children[node.key] = node
    root.model = PARSER
    root.model_kind = "argparse"
    first = options[0].location
    root.model_location = first
    root.strict = True if complete else None
    if complete:
        root.strict_location = first
        root.strict_owner = PARSER
