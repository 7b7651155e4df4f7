"""Options declared as attributes: a class body or a module whose
attributes are calls of one option class again and again, each an option
(``port: Setting[int] = Setting("port", "APP_PORT", default=5006,
help=...)``; ``timeout = Param(30, aliases=("t",))``).

Found by its shape, not by a name: five attributes or more of one class
or module assigned calls of one callee, the callee a class of the project
or the calls described (``help=``), and most calls carrying a default
(``default=``, or the position of the callee's parameter ``default``),
a help text or the key as their first string. The attribute is the name
the code reads (``settings.port()``); the key users write is the first
string argument where there is one, else the attribute; an upper-case
string beside it (``"APP_PORT"``) or an ``env=`` keyword is the same
option's variable, and ``aliases=`` are its other names. A class the
model readers take (dataclass, attrs, pydantic) is theirs, not this.

Another library's option class counts where the calls describe the
options, or name settings in capitals with their defaults (dynaconf's
``_HOOKS = Validator("HOOKS", default=())``); a project class derived from
it is of its family. A private attribute is read by the key it names.
"""

from __future__ import annotations

from configdrift.extract.python.exprs import assigned, render
from configdrift.extract.python.facts import Expr
from configdrift.index.spellings import VARIABLE, in_capitals
from configdrift.model import SchemaNode, Surface, spellings_of
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_tables import (
    MIN_TABLE,
    OPTION_KEY,
    default_position,
    table_option,
    table_root,
)
from configdrift.resolve.model_types import mark_deprecated
from configdrift.resolve.project import Project, Symbol
from configdrift.resolve.schema import SchemaBuilder

#: Keywords that say a call describes an option.
_DESCRIBED = frozenset({"help", "doc", "description", "desc"})
#: Keywords that name the option's variable, and its other names.
_ENV_KEYWORDS = ("env", "envvar", "env_var", "environ")
_ALIAS_KEYWORDS = ("aliases", "alias", "old", "old_names")


def _attributes(
    builder: SchemaBuilder, module: str
) -> list[tuple[str, list[tuple[str, Expr, int]]]]:
    """(owner, [(attribute, call, line)]) for the module and each class of
    it that no model reader takes."""
    info = builder.project.modules[module]
    out: list[tuple[str, list[tuple[str, Expr, int]]]] = []
    top = [
        (q, e, info.facts.assign_lines.get(q, 1))
        for q, e in info.facts.assigns.items()
        if "." not in q and e[0] == "call"
    ]
    out.append(("", top))
    for cls in info.facts.classes:
        if builder.model(Symbol("class", module, cls.name)) is not None:
            continue  # a model's fields are the model readers'
        found = [
            row for row in assigned(cls) if not row[0].startswith("__") and row[1][0] == "call"
        ]
        found.extend(
            (f.name, f.value, f.line) for f in cls.fields if f.value and f.value[0] == "call"
        )
        out.append((cls.name, found))
    return out


def _strings(exprs: list[Expr]) -> list[str]:
    return [e[1] for e in exprs if e[0] == "c" and isinstance(e[1], str)]


def option_spellings(key: str, call: Expr) -> tuple[str, ...]:
    """The key, the variable named beside it and its other names."""
    args, kwargs = call[2], call[3]
    found = [key]
    found += [s for s in _strings(args[1:]) if VARIABLE.fullmatch(s)]
    for keyword in (*_ENV_KEYWORDS, *_ALIAS_KEYWORDS):
        value = kwargs.get(keyword)
        if value is None:
            continue
        items = value[2] if value[0] == "seq" else [value]
        found += [s for s in _strings(items) if OPTION_KEY.fullmatch(s)]
    return tuple(dict.fromkeys(found))


def option_family(project: Project, module: str, callee: Expr) -> str:
    """The option classes a call belongs with: the project class its
    callee derives from at the top (``c.Type`` and ``c.Choice`` both derive
    from one option base), else the callee as written."""
    if callee[0] == "n":
        symbol = project.resolve(module, str(callee[1]))
        if symbol is not None and symbol.kind == "class":
            return [s for s in project.mro(symbol) if s.kind == "class"][-1].target
    return render(callee)


def _external_base(project: Project, module: str, callee: Expr) -> str | None:
    """The name another library's class an option class of the project
    derives from is called by (``Validator``), if any."""
    symbol = project.resolve(module, str(callee[1])) if callee[0] == "n" else None
    if symbol is None or symbol.kind != "class":
        return None
    base = next((s.qualname for s in project.mro(symbol) if s.kind == "external"), None)
    return None if base is None else base.rsplit(".", 1)[-1]


def _singletons(project: Project) -> set[Symbol]:
    """The classes of the objects a module makes once, with no arguments
    (``settings = Settings()``): a configuration's holder, where a class
    whose objects are made with values for its attributes is an API's."""
    out: set[Symbol] = set()
    for module in project.modules:
        for qualname, expr in project.modules[module].facts.assigns.items():
            if "." in qualname or qualname.startswith("_") or expr[0] != "call":
                continue  # a private object is the module's own, not its users'
            if expr[2] or expr[3] or expr[1][0] != "n":
                continue  # made with values, or not by a class's name
            symbol = project.resolve(module, str(expr[1][1]))
            if symbol is not None and symbol.kind == "class":
                out.add(symbol)
    return out


def attribute_tables(builder: SchemaBuilder) -> list[Surface]:
    """Every class or module whose attributes are options of one class."""
    project = builder.project
    out: list[Surface] = []
    singletons = _singletons(project)
    for module in sorted(project.modules):
        for owner, attributes in _attributes(builder, module):
            families = {render(r[1][1]).rsplit(".", 1)[-1]: render(r[1][1]) for r in attributes}
            if owner and Symbol("class", module, owner) not in singletons:
                # Only the calls that name the option's environment variable or
                # other names: what users write, where an API's attributes have one.
                attributes = [a for a in attributes if len(option_spellings("", a[1])) > 1]
            by_callee: dict[str, list[tuple[str, Expr, int]]] = {}
            for row in attributes:
                family = option_family(project, module, row[1][1])
                # A project class of another library's option class is of its
                # family (``_IsSubclassValidator(Validator)`` beside ``Validator``).
                base = families.get(_external_base(project, module, row[1][1]) or "")
                by_callee.setdefault(base or family, []).append(row)
            for rows in by_callee.values():
                node = _table(builder, module, owner, rows)
                if node is not None:
                    name = owner or module.rsplit(".", 1)[-1]
                    how = f"{len(node.children)} options declared as attributes of {name}"
                    out.append(Surface(name, node, how, [], ""))
    return out


def _table(
    builder: SchemaBuilder, module: str, owner: str, rows: list[tuple[str, Expr, int]]
) -> SchemaNode | None:
    named = all(call[2] and call[2][0][0] == "c" for _, call, _ in rows)
    settings = named and all(
        in_capitals(str(call[2][0][1])) and "default" in call[3] for _, call, _ in rows
    )
    if len(rows) < MIN_TABLE or (not named and any(a.startswith("_") for a, _, _ in rows)):
        return None  # private attributes are the class's own, unless each names its key
    project = builder.project
    positions: dict[str, int | None] = {}
    for _, call, _ in rows:
        callee = call[1]
        symbol = project.resolve(module, str(callee[1])) if callee[0] == "n" else None
        if symbol is None or symbol.kind not in ("class", "external"):
            return None
        if symbol.kind == "class" and builder.model(symbol) is not None:
            return None  # a nested model (``sub = Sub()``), not an option
        if symbol.kind == "external" and not _DESCRIBED & set(call[3]) and not settings:
            # Another library's objects (columns, widgets), not options; but
            # a validator of a settings name (``Validator("HOOKS", default=())``).
            return None
        if render(callee) not in positions:
            positions[render(callee)] = default_position(builder, module, callee)
    described = sum(1 for _, call, _ in rows if _DESCRIBED & set(call[3]))
    keys = [project.string(module, call[2][0]) if named else attr for attr, call, _ in rows]
    if any(k is None or not OPTION_KEY.fullmatch(k) for k in keys) or len(set(keys)) != len(keys):
        return None
    defaulted = 0
    for _, call, _ in rows:
        args, kwargs = call[2], call[3]
        position = positions[render(call[1])]
        if "default" in kwargs or (position is not None and len(args) > position):
            defaulted += 1
    if 2 * max(defaulted, described) < len(rows) and not named:
        return None  # objects built from names (a class's widgets), not options
    root, _, _ = table_root(builder, module, owner or module, min(r[2] for r in rows))
    for (attr, call, at), key in zip(rows, keys, strict=True):
        assert key is not None
        position = positions[render(call[1])]
        # A private attribute (``_HOOKS = Validator("HOOKS")``) is read by its key.
        name = key if attr.startswith("_") else attr
        node = call_option(builder, module, owner or module, (name,), call, at, position, named)
        node.spellings = option_spellings(key, call)
        root.children[name] = node
    return root


def call_option(
    builder: SchemaBuilder,
    module: str,
    owner: str,
    path: tuple[str, ...],
    call: Expr,
    line: int,
    position: int | None,
    named: bool = False,
) -> SchemaNode:
    """The option a call declares (``IntParam(default=60, help=...)``):
    its default (``default=``, or the argument at the option class's
    parameter ``default``, ``position``; else the first, or the second
    where the first is the key, ``named``), whether it is described, its
    deprecation and its converter."""
    project = builder.project
    args, kwargs = call[2], call[3]
    where = position if position is not None else (1 if named else 0)
    default_expr = kwargs.get("default") or (args[where] if len(args) > where else None)
    if (
        position is None
        and default_expr is not None
        and default_expr[0] == "c"
        and isinstance(default_expr[1], str)
        and VARIABLE.fullmatch(default_expr[1])
    ):
        default_expr = None  # the variable, not a default
    default = project.evaluate(module, default_expr) if default_expr else None
    node = table_option(path, default, project.location(module, line), owner)
    node.described = bool(_DESCRIBED & set(kwargs))
    mark_deprecated(project, module, node, kwargs)
    node.converter = next((f"{k}={render(kwargs[k])}" for k in _CONVERTERS if k in kwargs), "")
    return node


#: Keywords that name what converts an option's value as read.
_CONVERTERS = ("convert", "converter", "cast", "type")


def surfaces(discovery: Discovery) -> list[Surface]:
    """The classes and modules of option attributes the docs document
    (three fresh keys), and those whose options name their environment
    variables, documented or not: the code reads them from the
    environment, so users set them."""
    found: list[Surface] = []
    for surface in attribute_tables(discovery.builder):
        options = list(surface.root.children.values())
        variables = sum(1 for n in options if any(VARIABLE.fullmatch(s) for s in n.spellings[1:]))
        loaded = 2 * variables >= len(options)
        if loaded:
            surface.admitted = f"{variables} of its options name an environment variable"
        if discovery.claim(surface.root) or (
            loaded and discovery.claim(surface.root, frozenset(spellings_of(surface.root)))
        ):
            found.append(surface)
    return found
