"""A registry made of classes: subclasses of one base, each an option whose
class attributes name it and carry its default, help or type
(``class Workers(Setting): name = "workers"; default = 1; cli = ["-w"]``),
collected by a metaclass or a list.

The family is found by its shape, not by a name: five subclasses of one
project class or more, one attribute that holds a distinct key-like string
in each (the key), and attributes that describe an option (``default``,
``help``, ``validator``, ``type``, ``cli``, ...) in most of them. A key's
default and type are the class's or the nearest base's attribute.
"""

from __future__ import annotations

from configdrift.extract.python.facts import ClassFact, Expr
from configdrift.extract.python.registration_calls import variable_read
from configdrift.model import SchemaNode, Surface, value_kind
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import KINDS
from configdrift.resolve.mechanisms.option_tables import (
    MIN_TABLE,
    OPTION_KEY,
    table_option,
    table_root,
)
from configdrift.resolve.model_types import HELP_ARGUMENTS, mark_deprecated
from configdrift.resolve.project import Project, Symbol
from configdrift.resolve.schema import SchemaBuilder

#: Attributes that say a class describes an option.
OPTION_ATTRIBUTES = frozenset(
    {
        "default",
        "help",
        "desc",
        "description",
        "short_desc",
        "doc",
        "validator",
        "validate",
        "type",
        "cli",
        "flags",
        "env",
        "envvar",
        "choices",
        "meta",
        "action",
    }
)
#: Attributes that usually hold the key, preferred when several could.
NAME_ATTRIBUTES = ("name", "key", "option", "setting", "config_name")


def families(project: Project) -> dict[Symbol, list[Symbol]]:
    """The project's classes that name something (a class attribute holding
    a string), by the project class they derive from directly."""
    out: dict[Symbol, list[Symbol]] = {}
    for module in sorted(project.modules):
        for qualname, cls in project.modules[module].classes.items():
            if not any(v[0] == "c" and isinstance(v[1], str) for v in cls.assigns.values()):
                continue  # no key of its own: resolving its bases is wasted
            symbol = Symbol("class", module, qualname)
            for base in project.bases(symbol):
                if base.kind == "class":
                    out.setdefault(base, []).append(symbol)
    return out


def _attribute(project: Project, symbol: Symbol, attr: str) -> tuple[str, Expr] | None:
    """The nearest class attribute ``attr`` of ``symbol`` or a base: (module, value)."""
    for ancestor in project.mro(symbol):
        cls = project.class_fact(ancestor)
        if cls is not None and attr in cls.assigns:
            return ancestor.module, cls.assigns[attr]
    return None


def _own(cls: ClassFact) -> set[str]:
    return {a for a in cls.assigns if not a.startswith("__")}


def key_attribute(project: Project, members: list[Symbol]) -> str | None:
    """The attribute that holds a distinct key-like string in four of five
    members at least: the registry's key."""
    counts: dict[str, list[str]] = {}
    for cls in map(project.class_fact, members):
        if cls is None:
            continue
        for attr in _own(cls):
            value = cls.assigns[attr]
            if value[0] == "c" and isinstance(value[1], str) and OPTION_KEY.fullmatch(value[1]):
                counts.setdefault(attr, []).append(value[1])
    usable = [
        attr
        for attr, values in counts.items()
        if 5 * len(values) >= 4 * len(members) and len(set(values)) == len(values)
    ]
    preferred = [a for a in NAME_ATTRIBUTES if a in usable]
    return preferred[0] if preferred else (sorted(usable)[0] if len(usable) == 1 else None)


def registry_root(builder: SchemaBuilder, base: Symbol, members: list[Symbol]) -> SchemaNode | None:
    """The options of one family of classes, or None when its shape is not
    a registry's."""
    project = builder.project
    if len(members) < MIN_TABLE:
        return None
    key = key_attribute(project, members)
    if key is None:
        return None
    base_cls = project.class_fact(base)
    inherited = _own(base_cls) if base_cls is not None else set()
    described = 0
    for member in members:
        cls = project.class_fact(member)
        if cls is not None and (_own(cls) | inherited) & OPTION_ATTRIBUTES:
            described += 1
    if 2 * described < len(members):
        return None  # classes with names (plugins, commands), not options
    root, _, _ = table_root(builder, base.module, base.qualname, base_cls.line if base_cls else 1)
    for member in members:
        cls = project.class_fact(member)
        if cls is None or key not in cls.assigns:
            continue
        name = project.string(member.module, cls.assigns[key])
        if name is None or name.startswith("_"):
            continue
        found = _attribute(project, member, "default")
        default = project.evaluate(*found) if found is not None else None
        kind = ""
        typed = _attribute(project, member, "type")
        if typed is not None and typed[1][0] == "n":
            kind = KINDS.get(str(typed[1][1]), "")
        if not kind and default is not None and default.value is not None:
            kind = value_kind(default.value)
        marker = cls.assigns.get("__line__" + key)
        line = marker[1] if marker and isinstance(marker[1], int) else cls.line
        where = project.location(member.module, line)
        kinds = frozenset({kind}) if kind else frozenset()
        node = root.children[name] = table_option((name,), default, where, base.qualname, kinds)
        node.also = _also(project, member.module, cls)
        # ``deprecated = True``, or a help text that says so, on the class
        # or a base.
        said = {
            word: found[1]
            for word in ("deprecated", *HELP_ARGUMENTS)
            if (found := _attribute(project, member, word)) is not None
        }
        mark_deprecated(project, member.module, node, said)
    return root if len(root.children) >= MIN_TABLE else None


#: Attributes of an option class that spell it for another surface.
_ALSO = {"cli": "cli", "flags": "cli", "env": "env", "envvar": "env", "env_var": "env"}


def _also(project: Project, module: str, cls: ClassFact) -> tuple[tuple[str, str], ...]:
    """The flags and variables an option class names besides its key
    (``cli = ["-b", "--bind"]``, ``env = "APP_BIND"``), and a variable its
    default reads (``default = int(os.environ.get("WEB_CONCURRENCY", 1))``);
    only the class's own attributes: a base's are its family's."""
    out: list[tuple[str, str]] = []
    for attr, why in _ALSO.items():
        value = cls.assigns.get(attr)
        if value is None:
            continue
        items = value[2] if value[0] == "seq" else [value]
        names = [n for n in (project.string(module, item) for item in items) if n]
        if why == "cli":
            # One flag stands for its short forms: ``--bind`` for ``-b``.
            names = [n for n in names if n.startswith("--")][:1] or names[:1]
        out += [(name, why) for name in names]
    variable = variable_read(cls.assigns.get("default"))
    if variable is not None:
        out.append((variable, "default"))
    return tuple(dict.fromkeys(out))


def surfaces(discovery: Discovery) -> list[Surface]:
    """The families of classes shaped as a registry of options that the
    docs document (three fresh keys)."""
    found: list[Surface] = []
    for base, members in families(discovery.builder.project).items():
        root = registry_root(discovery.builder, base, members)
        if root is not None and discovery.claim(root):
            how = f"a registry of {len(root.children)} option classes deriving from {base.qualname}"
            found.append(Surface(base.qualname, root, how, [], ""))
    return found
