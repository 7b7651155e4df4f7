"""The nodes of options declared by name: one per option (its flags or
name, type, default, where), grouped by where they are declared, and a
lenient root of keys read by name. Shared by the command-line,
environment and settings mechanisms."""

from __future__ import annotations

from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.extract.python.help_texts import replacement_named, says_deprecated
from configdrift.extract.python.registration_calls import HANDLER, TYPES, option_variables
from configdrift.model import Location, ReadSite, SchemaNode, TypeInfo, Value
from configdrift.resolve.project import Project

#: The builtin types an option's declared type may name, containers too.
KINDS = {**TYPES, "list": "list", "dict": "dict"}


def option_node(
    key: str,
    flags: list[str],
    kind: str,
    default: Value | None,
    where: Location,
    group: str,
    model_kind: str | None = None,
    choices: tuple[object, ...] | None = None,
) -> SchemaNode:
    """A registered option: the key is what the code reads, the path what
    users write (a long flag first). ``group`` is the declaring function or
    module: CD103 reports a group's undocumented options only where the docs
    describe some of its others."""
    spellings = tuple(dict.fromkeys([*(f for f in flags if f.startswith("--")), *flags]))
    return SchemaNode(
        key=key,
        path=(spellings[0],),
        spellings=spellings,
        type=TypeInfo(kind, frozenset({kind}) if kind else frozenset(), choices),
        default=default,
        location=where,
        origin=f"option of {group}",
        model_kind=model_kind,
    )


def option_group(module: str, function: str) -> str:
    return module if function == "<module>" else f"{module}:{function}"


def mount_by_name(root: SchemaNode, keys: list[SchemaNode], model: str, kind: str) -> None:
    """Keys the code reads by name (environment variables, a settings
    object's names), as the children of a lenient root: an unknown one is
    never asked for, and nothing says so."""
    for node in keys:
        root.children[node.key] = node
    root.model, root.model_kind = model, kind
    root.model_location = keys[0].location
    root.strict = False


def hide_or_deprecate(
    project: Project, module: str, kwargs: dict[str, Expr], node: SchemaNode
) -> None:
    """Mark an option its declaration hides from the help (``help=
    argparse.SUPPRESS``, click's ``hidden=True``), and one it deprecates:
    argparse's and click's ``deprecated=True`` (or a message), a ``help``
    that says so (``"Deprecated: use --x"``)."""
    help_expr = kwargs.get("help")
    if (help_expr is not None and help_expr[0] == "n" and help_expr[1].endswith("SUPPRESS")) or (
        project.evaluate(module, kwargs.get("hidden")).value is True
    ):
        node.hidden = True
    said = project.evaluate(module, kwargs.get("deprecated")).value
    helped = project.string(module, help_expr) if help_expr is not None else None
    text = said if isinstance(said, str) else helped or ""
    if said or says_deprecated(text):
        node.deprecated = True
        # Only a flag it names instead is a spelling of the parser's.
        instead = replacement_named(text)
        node.replacement = instead if instead and instead.startswith("-") else None


def with_variables(node: SchemaNode, call: RegistrationCall, module: str = "") -> SchemaNode:
    """The option's node, spelt also by the variables its call names; read
    by the function its call decorates (plumbum's ``@cli.switch([...])``),
    which is handed the value."""
    named = [v for v, _ in option_variables(call) if v not in node.spellings]
    node.spellings = (*node.spellings, *named)
    if HANDLER in call.kwargs and node.location is not None:
        node.reads.append(ReadSite((node.key,), node.location, module, call.function, "handed"))
    return node
