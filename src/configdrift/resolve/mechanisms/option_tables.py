"""Declarative tables of options: a dict literal whose values are all calls
of one option class (``{"name": Opt(default, ...), ...}``) or whose name
says it holds the defaults (``DEFAULT_CONFIG = {...}``, ``def
get_default_config(): return {...}``), and tables of
tuples (``CONFIG_FILE_OPTIONS = (("branch", "run:branch", ...), ...)``)."""

from __future__ import annotations

import re

from configdrift.extract.python.exprs import assigned, render, spec_rows
from configdrift.extract.python.facts import Expr
from configdrift.model import ConfigPath, Location, SchemaNode, Surface, TypeInfo, Value, value_kind
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.model_types import mark_deprecated
from configdrift.resolve.project import Project
from configdrift.resolve.schema import MIN_OPTIONS, SchemaBuilder, ensure_path, new_root


def option_tables(builder: SchemaBuilder) -> list[Surface]:
    """Declarative tables of options: a dict literal of five string keys
    or more whose values are all calls of one option class
    (``{"name": Opt(default, ...), ...}``), or whose name says it holds
    the defaults (``DEFAULT_CONFIG = {"KEY": value, ...}``, or the dict a
    module-level function so named returns: ``def get_default_config():
    return {...}``; three or four
    keys are enough where a page documents every one, ``surfaces``). Each key is
    an option with the call's first argument (or ``default=``) or the
    value as its default; nothing is known of unknown keys."""
    project = builder.project
    out: list[Surface] = []
    families: dict[str, list[tuple[str, str, Expr, int]]] = {}
    for name in sorted(project.modules):
        info = project.modules[name]
        tables = [(q, e, info.facts.assign_lines.get(q, 1)) for q, e in info.facts.assigns.items()]
        # A function that builds the defaults afresh (``def get_default_config():
        # return {...}``), named for them: a table as a module's dict is.
        tables += [
            (q, e, min(info.facts.dict_key_lines.get(q, {}).values(), default=1))
            for q, e in info.facts.returned_dicts.items()
        ]
        for cls in info.facts.classes:
            for attr, value, at in assigned(cls):
                if spec_rows(value):
                    # ``options = (("jobs", {"default": 4}), ...)`` in a class
                    # of a family each member of which declares its own.
                    families.setdefault(attr, []).append((name, f"{cls.name}.{attr}", value, at))
                else:
                    tables.append((f"{cls.name}.{attr}", value, at))
            for fact in cls.fields:
                # An annotated class attribute holding a table of option
                # calls (``_config_map: ClassVar[dict[str, Item]] = {...}``).
                if fact.value is not None and fact.value[0] == "dict":
                    tables.append((f"{cls.name}.{fact.name}", fact.value, fact.line))
                elif fact.value is not None and spec_rows(fact.value):
                    member = (name, f"{cls.name}.{fact.name}", fact.value, fact.line)
                    families.setdefault(fact.name, []).append(member)
        for qualname, expr, line in tables:
            if expr[0] == "call" and len(expr[2]) == 1 and not expr[3] and expr[2][0][0] in WRAPPED:
                # A table wrapped to freeze it: ``ImmutableDict({...})``.
                expr = expr[2][0]
            merged = expr[0] == "b" and expr[1] == "|" and expr[3][0] == "dict"
            if merged:
                # A table that extends another (``Base.defaults | {...}``):
                # its own keys, and others not known here.
                expr = expr[3]
            if expr[0] == "call":
                # A table of option calls handed to the call that makes the
                # settings object (``Settings(validators=[Validator("PORT",
                # default=80), ...])``): what the callee does with other keys
                # is not known, so none is judged absent.
                found = (call_table(builder, name, qualname, r, line) for r in handed_tables(expr))
                node = next((table for table in found if table is not None), None)
                if node is not None:
                    node.strict = False
            elif expr[0] == "seq" and len(expr[2]) >= MIN_TABLE:
                node = tuple_table(builder, name, qualname, expr[2], line) or call_table(
                    builder, name, qualname, expr[2], line
                )
            elif expr[0] != "dict" or len(expr[1]) < MIN_OPTIONS:
                continue  # fewer than MIN_TABLE: a page must document it whole
            else:
                node = option_table(builder, name, qualname, expr, line)
            if node is not None:
                if merged:
                    node.strict = None
                leaves = sum(1 for n in node.walk() if n is not node and not n.children)
                how = f"a table of {leaves} options"
                owner, _, last = qualname.rpartition(".")
                # A class's private table is the class's (``Adjustments._params``).
                named = owner.rsplit(".", 1)[-1] if owner and last.startswith("_") else last
                out.append(Surface(named, node, how, [], ""))
    for attr, members in sorted(families.items()):
        if (joined := _joined(builder, attr, members)) is not None:
            out.append(joined)
    return out


def _joined(
    builder: SchemaBuilder, attr: str, members: list[tuple[str, str, Expr, int]]
) -> Surface | None:
    """The tables of options that the classes of one family each declare
    under the same name (pylint's checkers' ``options``): one
    configuration, the union of their keys, each where its class declares
    it (a key two classes declare with two defaults has none known); one
    class's table is a table of its own."""
    tables = [tuple_table(builder, m, q, expr[2], line, least=1) for m, q, expr, line in members]
    found = [table for table in tables if table is not None]
    if not found:
        return None
    root = found[0]
    for node in found[1:]:
        for key, child in node.children.items():
            held = root.children.setdefault(key, child)
            if held is not child and held.default != child.default:
                held.default = None  # two classes, two defaults: not known
    if len(root.children) < MIN_TABLE:
        return None
    if len(found) == 1:
        # A class's private table is the class's (``Checker._options``).
        named = members[0][1].split(".")[-2] if attr.startswith("_") else attr
        return Surface(named, root, f"a table of {len(root.children)} options", [], "")
    root.model = attr
    how = f"the `{attr}` tables of {len(found)} classes ({len(root.children)} options)"
    return Surface(attr, root, how, [], "")


def handed_tables(call: Expr) -> list[list[Expr]]:
    """The lists and tuples of five calls or more among a call's arguments."""
    items = [*call[2], *call[3].values()]
    return [
        i[2] for i in items if i[0] == "seq" and len(i[2]) >= MIN_TABLE and i[2][0][0] == "call"
    ]


def option_table(
    builder: SchemaBuilder, module: str, qualname: str, expr: Expr, line: int
) -> SchemaNode | None:
    project = builder.project
    values = [value for _, value in expr[1]]
    callees = {render(v[1]) for v in values if v[0] == "call"}
    calls = len(callees) == 1 and all(v[0] == "call" for v in values)
    if not calls and not _DEFAULTS_NAME.search(qualname.rsplit(".", 1)[-1]):
        return None
    if calls and any(
        v[2] and v[2][0][0] == "c" and str(v[2][0][1]).startswith("-") for v in values
    ):
        return None  # a table of command-line flags (``Arg("-v", "--verbose")``)
    if not calls and _records(project, module, values):
        return None  # a table of records (worker templates), not of options
    root, _, lines = table_root(builder, module, qualname, line)
    # Where the option class takes its default: its parameter ``default``,
    # else its first.
    position = default_position(builder, module, values[0][1]) if calls else None
    for key_expr, value in expr[1]:
        key = project.string(module, key_expr)
        if key is None:
            return None  # keys not known statically: not a table to judge by
        if key.startswith("_"):
            continue  # private, as a model's ``_name`` is
        if calls:
            args, kwargs = value[2], value[3]
            at = position if position is not None else 0
            default_expr = kwargs.get("default") or (args[at] if len(args) > at else None)
        else:
            default_expr = value
        default = project.evaluate(module, default_expr) if default_expr else None
        where = project.location(module, lines.get(key, line))
        node = root.children[key] = table_option((key,), default, where, qualname)
        if calls:
            mark_deprecated(project, module, node, value[3])
        elif value[0] == "dict":
            # A section of the defaults (``"virtualenvs": {"create": True}``):
            # its keys are options under it, written ``virtualenvs.create``.
            _section(builder, module, node, value, qualname, 1)
    return root


#: How deep the sections of a table of defaults are followed.
MAX_SECTION_DEPTH = 4


def _section(
    builder: SchemaBuilder, module: str, node: SchemaNode, expr: Expr, qualname: str, depth: int
) -> None:
    """The keys of a section of a table of defaults, each with its default."""
    project = builder.project
    if depth > MAX_SECTION_DEPTH:
        return
    for key_expr, value in expr[1]:
        key = project.string(module, key_expr)
        if key is None or key.startswith("_"):
            continue
        child = node.children[key] = table_option(
            (*node.path, key), project.evaluate(module, value), node.location, qualname
        )
        if value[0] == "dict":
            _section(builder, module, child, value, qualname, depth + 1)


def _records(project: Project, module: str, values: list[Expr]) -> bool:
    """Are most values dicts of the same keys (``{"pusher": {"app": ...},
    "reader": {"app": ...}}``): records of one shape, not sections of a
    configuration's defaults?"""
    dicts = [v for v in values if v[0] == "dict"]
    if 2 * len(dicts) <= len(values):
        return False
    shapes = [{project.string(module, k) for k, _ in d[1]} for d in dicts]
    union = set().union(*shapes)
    common = set.intersection(*shapes) if shapes else set()
    return len(dicts) < 2 or 2 * len(common) >= len(union)


def table_option(
    path: ConfigPath,
    default: Value | None,
    location: Location | None,
    qualname: str,
    kinds: frozenset[str] | None = None,
) -> SchemaNode:
    """An option of the table ``qualname``: its default when known, and its
    type that of the default unless ``kinds`` says otherwise."""
    known = default if default is not None and default.known else None
    if kinds is None:
        kinds = frozenset({value_kind(known.value)}) if known is not None else frozenset()
    return SchemaNode(
        key=path[-1],
        path=path,
        spellings=(path[-1],),
        type=TypeInfo(next(iter(kinds), ""), kinds),
        default=known,
        location=location,
        origin=f"option of {qualname}",
    )


def default_position(builder: SchemaBuilder, module: str, callee: Expr) -> int | None:
    """The position of the parameter named ``default`` of an option class:
    its fields' order (a dataclass, attrs class or NamedTuple) or its
    ``__init__``'s parameters. None when it is not known."""
    project = builder.project
    if callee[0] != "n":
        return None
    symbol = project.resolve(module, str(callee[1]))
    if symbol is None or symbol.kind != "class":
        return None
    model = builder.model(symbol)
    if model is not None:
        names = [fact.name for _, fact in model.fields]
    else:
        params = project.modules[symbol.module].facts.functions.get(f"{symbol.qualname}.__init__")
        if params is None:
            return None
        names = list(params[1:])  # without ``self``
    return names.index("default") if "default" in names else None


def table_root(
    builder: SchemaBuilder, module: str, qualname: str, line: int
) -> tuple[SchemaNode, Location, dict[str, int]]:
    """The root of a table of options, where it is declared, and the
    line of each of its keys."""
    where = builder.project.location(module, line)
    root = new_root()
    # A key a table of defaults lacks is set to no effect unless the code
    # reads it some other way (CD102 weighs the reads before it says so); a
    # table named for options alone may be data looked up by a value
    # (``XINDY_LANG_OPTIONS[language]``): nothing is said of what it lacks.
    if _LENIENT_NAME.search(qualname.rsplit(".", 1)[-1]):
        root.strict = False
    root.model, root.model_kind, root.model_location = qualname, "table", where
    return root, where, builder.project.modules[module].facts.dict_key_lines.get(qualname, {})


def tuple_table(
    builder: SchemaBuilder, module: str, qualname: str, rows: list[Expr], line: int, least: int = 0
) -> SchemaNode | None:
    """A table of options as tuples of strings, named for options
    (``CONFIG_FILE_OPTIONS = (("branch", "run:branch", "boolean"), ...)``)
    or pairs of a name and a conversion whatever its name (``_params =
    (("port", int), ...)``; ``surfaces`` keeps either only where the docs
    describe half of its keys): the column spelt ``section:option``
    in every row, else the first column of strings, names the keys; a
    dict in a row may give the default (``("jobs", {"default": 4,
    ...})``), else the class that holds the table, by an attribute of the
    key's name (``port = 8080`` beside ``_params``); in pairs of a key and
    a value (``config_defaults = (("workers", 1), ...)``), the value."""
    casts = all(len(r[2]) == 2 and r[2][1][0] == "n" for r in rows if r[0] == "seq")
    if not casts and not _DEFAULTS_NAME.search(qualname.rsplit(".", 1)[-1]):
        # Pairs of a name and a conversion (``("port", int)``) are a schema
        # whatever the table's name; other tuples of strings are options
        # only where the name says so (``CHOICES`` may be values).
        return None
    if not all(r[0] == "seq" and r[1] == "tuple" and r[2] for r in rows):
        return None
    width = min(len(r[2]) for r in rows)
    columns = [
        i
        for i in range(width)
        if all(r[2][i][0] == "c" and isinstance(r[2][i][1], str) for r in rows)
    ]
    sectioned = [i for i in columns if all(_SECTIONED.fullmatch(r[2][i][1]) for r in rows)]
    column = sectioned[0] if sectioned else columns[0] if columns else None
    if column is None:
        return None
    keys = [r[2][column][1] for r in rows]
    if len(set(keys)) < (least or MIN_TABLE) or not all(_TABLE_KEY.fullmatch(k) for k in keys):
        return None
    project = builder.project
    root, where, lines = table_root(builder, module, qualname, line)
    # The attributes the class holding the table (``Class._params``)
    # assigns in its body; none for a module's table.
    owner = project.modules[module].classes.get(qualname.rpartition(".")[0])
    attributes = {name: value for name, value, _ in assigned(owner)} if owner else {}
    for row, key in zip(rows, keys, strict=True):
        path = tuple(key.split(":")) if sectioned else (key,)
        if path[-1].startswith("_"):
            continue  # private, as a model's ``_name`` is
        parent = ensure_path(root, path[:-1], where, f"section of {qualname}")
        spec = next((item for item in row[2] if item[0] == "dict"), None)
        default: Value | None = None
        for k, v in spec[1] if spec is not None else []:
            if k[0] == "c" and k[1] == "default":
                default = project.evaluate(module, v)
        converters = {item[1] for item in row[2] if item[0] == "n"}
        if spec is None and width == 2 and not casts and column == 0:
            # Pairs of a key and its default (``("workers", 1)``).
            default = project.evaluate(module, row[2][1])
        elif spec is None and key in attributes and converters <= _PLAIN_CASTS:
            # A default the table converts with a function of its own
            # (``asoctal``: ``"600"`` is written, 384 is held) is not
            # the text users write, and is not compared.
            default = project.evaluate(module, attributes[key])
        at = project.location(module, lines.get(key, line))
        parent.children[path[-1]] = table_option(path, default, at, qualname)
    return root


def call_table(
    builder: SchemaBuilder, module: str, qualname: str, rows: list[Expr], line: int
) -> SchemaNode | None:
    """A list or tuple of calls of one option class, each naming its key
    first (``SETTINGS = (Setting("page_size", 100, "help"), ...)``): the
    call's ``default=``, else its second argument, is the default. Taken
    where the name says it holds options or a call says ``default=`` or
    ``help=``."""
    if not all(r[0] == "call" for r in rows):
        return None
    if len({render(r[1]) for r in rows}) != 1:
        return None
    described = any({"default", "help"} & set(r[3]) for r in rows)
    if not described and not _DEFAULTS_NAME.search(qualname.rsplit(".", 1)[-1]):
        return None
    project = builder.project
    keys = [project.string(module, r[2][0]) if r[2] else None for r in rows]
    if any(k is None or not _TABLE_KEY.fullmatch(k) for k in keys) or len(set(keys)) != len(keys):
        return None
    root, _, lines = table_root(builder, module, qualname, line)
    position = default_position(builder, module, rows[0][1])
    for row, key in zip(rows, keys, strict=True):
        assert key is not None
        if key.startswith("_"):
            continue
        args, kwargs = row[2], row[3]
        at = position if position is not None else 1
        default_expr = kwargs.get("default") or (args[at] if len(args) > at else None)
        default = project.evaluate(module, default_expr) if default_expr else None
        where = project.location(module, lines.get(key, line))
        node = root.children[key] = table_option((key,), default, where, qualname)
        mark_deprecated(project, module, node, kwargs)
    return root


#: Conversions in a table's row that keep the value as users write it.
_PLAIN_CASTS = frozenset({"int", "float", "str", "bool"})


#: A declarative table of options has this many keys at least.
MIN_TABLE = 5
#: What a table can be wrapped in: a dict, or a dict that extends another.
WRAPPED = frozenset({"dict", "b"})


#: Names of dicts that hold a configuration's defaults.
_DEFAULTS_NAME = re.compile(r"(?i)default|settings|options|config")


#: Names of tables that hold a configuration's defaults, whole.
_LENIENT_NAME = re.compile(r"(?i)default|settings|config")


#: A key of a table of tuples: ``branch``, ``run:branch`` (a section's option).
_TABLE_KEY = re.compile(r"[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?")


#: A key an option names: ``workers``, ``log-level``, ``array.chunk_size``.
OPTION_KEY = re.compile(r"[A-Za-z_][\w.-]*")


_SECTIONED = re.compile(r"(?<![\w-])[A-Za-z_][\w-]*+:[A-Za-z_][\w.-]*+")


def _spelt_as_flags(root: SchemaNode, names: frozenset[str]) -> None:
    """A table's options are spelt as flags too (``--max-line-length``)
    where the docs spell half of its keys so (a tool whose table of
    options makes its command line)."""
    keys = [key for key, child in root.children.items() if not child.children]
    if 2 * sum(1 for key in keys if f"--{key}" in names) < len(keys):
        return
    for key in keys:
        node = root.children[key]
        node.spellings = (*node.spellings, f"--{key}")


def distinct_tables(surfaces: list[Surface]) -> list[Surface]:
    """The tables whose keys no other table mostly shares: two tables of
    defaults with the same keys (a parameter offload's and an optimizer
    offload's ``device``, ``buffer_count`` ...) cannot tell which of them a
    doc entry describes by its name. A table that holds another's keys as
    a section (``"colors": {"body": ...}`` beside ``get_default_colors()``)
    is not the same: the keys sit at other paths."""
    keys = [{n.path for n in s.root.walk() if not n.children} for s in surfaces]
    return [
        surface
        for i, surface in enumerate(surfaces)
        if not any(
            j != i and 2 * len(keys[i] & other) >= min(len(keys[i]), len(other))
            for j, other in enumerate(keys)
        )
    ]


def surfaces(discovery: Discovery) -> list[Surface]:
    """Tables of options the docs describe half of at least; the
    table they describe most claims its keys first."""
    found: list[Surface] = []
    tables: list[tuple[int, int, Surface, set[str]]] = []
    # The keys the docs' examples set at the top of a block are documented
    # too (``SILKY_META = True`` in a settings module shown on a page).
    evidence = discovery.names | discovery.set_at_top()
    for surface in distinct_tables(option_tables(discovery.builder)):
        _spelt_as_flags(surface.root, evidence)
        # Each key as the docs spell it: its flag where they spell flags.
        keys = {n.spellings[-1] for n in surface.root.walk() if not n.children}
        # A small table: one page documents every one of its keys.
        tops = set(surface.root.children)
        if len(tops) < MIN_TABLE and not any(p.has_entries(tops) for p in discovery.page_keys()):
            continue
        if 2 * len(keys & evidence) >= len(keys):
            tables.append((-len(keys & evidence), len(tables), surface, keys))
    for _, _, surface, keys in sorted(tables, key=lambda t: t[:2]):
        if discovery.claim(surface.root, evidence):
            # Where the entries alone are too few, its examples document it.
            surface.exemplified = 2 * len(keys & discovery.names) < len(keys)
            found.append(surface)
    return found
