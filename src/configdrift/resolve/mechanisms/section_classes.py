"""Classes of option objects, one section of a file each: ``class
worker(Config): keep_alive = BoolParameter(default=False)`` read from the
``[worker]`` section, ``class core(Config)`` from ``[core]``.

Found by its shape and the docs together, never by a name: classes whose
own attributes are mostly calls of one family of the project's option
classes (``IntParameter`` and ``BoolParameter`` both derive from one
``Parameter``), ``MIN_SECTIONS`` of them or more named by the headings of
the docs' sections (``[worker]``), each such section documenting one of
its class's attributes at least. Each class is a section of one surface,
keyed by the class's name, its attributes the options: a call's
``default=`` (or the position of the option class's parameter
``default``) is the default. A name the call gives the option in its own
section (``config_path=dict(section="core",
name="default-scheduler-host")`` in ``core``) is another spelling of it,
an old one where the option class warns it is deprecated where it is
used (``ClassFact.warned_keywords``); one in another section is not
followed. A file's section takes what
the option classes read, so nothing is said of a documented key a class
lacks (the surface is open).
"""

from __future__ import annotations

from configdrift.extract.python.exprs import assigned
from configdrift.extract.python.facts import ClassFact, Expr
from configdrift.index.pages import gathered
from configdrift.index.spellings import normal
from configdrift.model import SchemaNode, Surface, TypeInfo
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_attributes import (
    call_option,
    option_family,
    option_spellings,
)
from configdrift.resolve.mechanisms.option_tables import default_position
from configdrift.resolve.project import Project, Symbol
from configdrift.resolve.schema import SchemaBuilder, new_root

#: What the surface and each of its sections are (``SchemaNode.model_kind``).
SECTIONS = "sections"
#: The fewest classes the docs' headings name, each a section.
MIN_SECTIONS = 2
#: A keyword whose value names the option's place elsewhere: a dict of
#: these two keys (``dict(section="core", name="worker-keep-alive")``).
_PLACE_KEYS = frozenset({"section", "name"})

Row = tuple[str, Expr, int]


def option_rows(builder: SchemaBuilder, symbol: Symbol) -> tuple[str, list[Row]] | None:
    """The family of option classes most of the class's own attributes
    are calls of, with those attributes; None where it has none."""
    project = builder.project
    fact = project.class_fact(symbol)
    if fact is None or builder.model(symbol) is not None:
        return None
    own = [row for row in assigned(fact) if not row[0].startswith("_")]
    by_family: dict[str, list[Row]] = {}
    for name, value, line in own:
        if value[0] != "call" or value[1][0] != "n":
            continue
        callee = project.resolve(symbol.module, str(value[1][1]))
        if callee is None or callee.kind != "class" or builder.model(callee) is not None:
            continue
        by_family.setdefault(option_family(project, symbol.module, value[1]), []).append(
            (name, value, line)
        )
    if not by_family:
        return None
    family, rows = max(by_family.items(), key=lambda item: len(item[1]))
    return (family, rows) if 2 * len(rows) > len(own) else None


def _places(project: Project, module: str, call: Expr) -> list[tuple[str, str, str]]:
    """The (keyword, section, name) each keyword of the call names the
    option by elsewhere."""
    out: list[tuple[str, str, str]] = []
    for keyword, value in call[3].items():
        pairs: list[tuple[Expr, Expr]] = []
        if value[0] == "dict":
            pairs = list(value[1])
        elif value[0] == "call" and value[1][0] == "n" and value[1][1] == "dict" and not value[2]:
            pairs = [(["c", k], v) for k, v in value[3].items()]
        named = {project.string(module, k): project.string(module, v) for k, v in pairs}
        if set(named) == _PLACE_KEYS and all(named.values()):
            out.append((keyword, str(named["section"]), str(named["name"])))
    return out


def _option_classes(project: Project, module: str, call: Expr) -> list[ClassFact]:
    """The facts of the option class a call makes and of its bases."""
    callee = project.resolve(module, str(call[1][1]))
    found = project.mro(callee) if callee is not None else []
    return [f for f in map(project.class_fact, found) if f is not None]


def _section(builder: SchemaBuilder, symbol: Symbol, rows: list[Row]) -> SchemaNode:
    """The class's section: its options, each with its default."""
    project = builder.project
    module = symbol.module
    fact = project.class_fact(symbol)
    where = project.location(module, fact.line if fact is not None else rows[0][2])
    section = SchemaNode(
        key=symbol.qualname,
        path=(symbol.qualname,),
        spellings=(symbol.qualname,),
        type=TypeInfo("section", frozenset({"dict"})),
        model=symbol.qualname,
        model_kind=SECTIONS,
        model_location=where,
        location=where,
        origin=f"section class {symbol.qualname}",
    )
    positions: dict[str, int | None] = {}
    for attr, call, line in rows:
        callee = str(call[1][1])
        if callee not in positions:
            positions[callee] = default_position(builder, module, call[1])
        path = (symbol.qualname, attr)
        node = call_option(builder, module, symbol.qualname, path, call, line, positions[callee])
        places = [(k, n) for k, s, n in _places(project, module, call) if s == symbol.qualname]
        own = [spelling for _, n in places for spelling in (n, n.replace("-", "_"))]
        fresh = option_spellings(attr, call)
        node.spellings = tuple(dict.fromkeys([*fresh, *own]))
        # A name the option class warns of where it is used: an old spelling.
        warned = {w for c in _option_classes(project, module, call) for w in c.warned_keywords}
        old = [x for k, n in places if k in warned for x in (n, n.replace("-", "_"))]
        node.deprecated_spellings = tuple(dict.fromkeys(x for x in old if x not in fresh))
        section.children[attr] = node
    return section


def surfaces(discovery: Discovery) -> list[Surface]:
    """One surface of each family of option classes whose classes the
    docs' section headings name (``MIN_SECTIONS``), each with one of its
    attributes documented under its heading."""
    builder = discovery.builder
    project = builder.project
    documented = gathered(page.sections for page in discovery.page_keys())
    if len(documented) < MIN_SECTIONS:
        return []
    families: dict[str, list[tuple[Symbol, list[Row]]]] = {}
    for symbol in project.class_symbols():
        under = documented.get(normal(symbol.qualname), set())
        if not under or "." in symbol.qualname:
            continue
        found = option_rows(builder, symbol)
        if found is None:
            continue
        family, rows = found
        if any(normal(attr) in under for attr, _, _ in rows):
            families.setdefault(family, []).append((symbol, rows))
    out: list[Surface] = []
    for family, classes in sorted(families.items()):
        names = {symbol.qualname for symbol, _ in classes}
        if len(names) < MIN_SECTIONS or len(names) != len(classes):
            continue  # too few, or two classes of one name: which is read is not known
        root = new_root()
        root.model, root.model_kind = f"the sections of {family}", SECTIONS
        for symbol, rows in sorted(classes, key=lambda c: c[0].qualname):
            root.children[symbol.qualname] = _section(builder, symbol, rows)
        root.model_location = min(
            (c.model_location for c in root.children.values() if c.model_location),
            key=lambda where: (where.path, where.line),
        )
        if discovery.claim(root):
            how = f"{len(classes)} classes of {family} options, one section each"
            out.append(Surface(family.rpartition(":")[2].rsplit(".", 1)[-1], root, how, [], ""))
    return out
