"""Plain facts extracted from one Python file.

Expressions are kept in a small JSON-able form (``Expr``) rather than as AST
nodes, so that facts can be cached by content hash and sent between
processes:

- ``["c", value]``: a literal (str, int, float, bool, None, or bytes as text)
- ``["n", "a.b.c"]``: a dotted name
- ``["b", op, left, right]`` and ``["u", op, operand]``: arithmetic
- ``["call", func, [args], {kw: expr}]``
- ``["seq", "list"|"tuple"|"set", [items]]`` and ``["dict", [[k, v], ...]]``
- ``["sub", value, index]``: a subscript, as in ``Optional[int]``
- ``["src", text]``: anything else, kept as source text
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

Expr = list[Any]


@dataclass(slots=True)
class FieldFact:
    """An annotated attribute in a class body."""

    name: str
    line: int
    annotation: Expr
    value: Expr | None
    #: A string right after the field (an attribute docstring) describes it.
    docstring: bool = False


@dataclass(slots=True)
class ClassFact:
    name: str
    line: int
    bases: list[Expr]
    decorators: list[Expr]
    fields: list[FieldFact] = field(default_factory=list)
    assigns: dict[str, Expr] = field(default_factory=dict)
    config_class: dict[str, Expr] = field(default_factory=dict)
    docstring: bool = False
    #: Fields whose input a validator may change before its type is checked
    #: (``mode="before"``, ``"wrap"``, ``"plain"``, v1 ``pre=True``); ``*``
    #: stands for every field (a model validator that runs before).
    before_validated: list[str] = field(default_factory=list)


@dataclass(slots=True)
class DictSource:
    """Where a dict came from: ``base[k1][k2]``, ``base.get(k1)`` ...

    ``base`` is a parameter or variable name of the enclosing function; keys
    are expressions (string literals or names of constants).
    """

    base: str
    keys: list[Expr]
    is_param: bool


@dataclass(slots=True)
class Placement:
    """A model built from a dict: ``Model(**source)`` or ``Model.model_validate(source)``."""

    model: Expr
    sources: list[DictSource]
    line: int
    function: str
    via: str = "kwargs"


@dataclass(slots=True)
class DictArg:
    """A dict handed to a function: ``f(d)``, ``f(d[KEY])``, ``Cls(d)``.

    ``key_args`` holds the other arguments of the call that look like keys
    (string literals and names), by position or keyword: for a helper that
    reads ``d.get(name)`` with ``name`` a parameter, they are the key read.
    """

    callee: Expr
    position: int | str
    source: DictSource
    line: int
    function: str
    key_args: dict[str, Expr] = field(default_factory=dict)
    #: Is the call's result kept where it is followed (a local, ``self.x``, a
    #: return, a read)? A section returned into anything else escapes.
    consumed: bool = True
    #: Other arguments whose value may be known statically (literals,
    #: attributes, arithmetic), by position or keyword: a helper's default
    #: parameter. Names and strings are in ``key_args``.
    values: dict[str, Expr] = field(default_factory=dict)
    #: The type the call's result is converted to (``int(get(d, K, 1))``).
    kind: str | None = None


@dataclass(slots=True)
class DictRead:
    """A key read from a dict: ``d[K]``, ``d.get(K)``, ``K in d``, ``d.pop(K)``.

    The source's last key is the key read; ``how`` says which form.
    """

    source: DictSource
    line: int
    function: str
    how: str
    #: The default the read falls back to: ``d.get(K, D)``,
    #: ``d.setdefault(K, D)``, ``d[K] if K in d else D``.
    default: Expr | None = None
    #: The type a conversion or a use makes certain (``int``, ``float``,
    #: ``str``): ``int(d[K])``, ``d.get(K).lower()``, ``d[K] == "auto"``.
    kind: str | None = None


@dataclass(slots=True)
class DictStore:
    """A dict kept where other code reaches it: ``self.X = d[K]`` (``target``
    is ``self.X``) or ``return d[K]`` (``target`` is ``<return>``)."""

    target: str
    source: DictSource
    line: int
    function: str


@dataclass(slots=True)
class RegistrationCall:
    """A call that declares an option by name: ``parser.add_argument("--x",
    default=1)``, a ``@click.option("--x")`` decorator (``function`` is then
    the command it decorates). ``method`` is the name called, ``callee`` its
    dotted name; arguments are kept as expressions."""

    method: str
    args: list[Expr]
    kwargs: dict[str, Expr]
    line: int
    function: str
    callee: str = ""


@dataclass(slots=True)
class ImportFact:
    """``local`` is bound to ``module`` (``name`` None) or to ``module.name``."""

    local: str
    module: str
    name: str | None
    level: int
    line: int


@dataclass(slots=True)
class ModuleFacts:
    """Everything configdrift needs from one Python file."""

    imports: list[ImportFact] = field(default_factory=list)
    star_imports: list[tuple[str, int]] = field(default_factory=list)
    assigns: dict[str, Expr] = field(default_factory=dict)
    assign_lines: dict[str, int] = field(default_factory=dict)
    #: The line of each string key of a module-level dict literal, by name.
    dict_key_lines: dict[str, dict[str, int]] = field(default_factory=dict)
    all_names: list[str] | None = None
    classes: list[ClassFact] = field(default_factory=list)
    functions: dict[str, list[str]] = field(default_factory=dict)
    #: Parameter defaults that look like keys (string literals, names), by function.
    param_defaults: dict[str, dict[str, Expr]] = field(default_factory=dict)
    placements: list[Placement] = field(default_factory=list)
    dict_args: list[DictArg] = field(default_factory=list)
    dict_reads: list[DictRead] = field(default_factory=list)
    dict_stores: list[DictStore] = field(default_factory=list)
    registrations: list[RegistrationCall] = field(default_factory=list)
    #: Attribute names used in the file, as ``name`` when some use is on a
    #: receiver other than a bare ``self`` and as ``self.name`` for uses on
    #: ``self``; ``getattr(x, "name")`` counts. Over-approximate on purpose
    #: (comments and strings count too): it only ever makes rules quieter.
    attr_loads: list[str] = field(default_factory=list)
    #: How often each attribute name is loaded in the text (same counting).
    attr_counts: dict[str, int] = field(default_factory=dict)
    #: Attribute names stored on a receiver other than a bare ``self``
    #: (``engine.config.batch = 4``), from the text like ``attr_loads``.
    attr_stores: list[str] = field(default_factory=list)
    #: Attribute chains on ``self`` and on typed locals: (line, function, chain).
    chains: list[tuple[int, str, str]] = field(default_factory=list)
    #: Locals bound to calls and annotated parameters: (function, name, callee or type).
    local_types: list[tuple[str, str, str]] = field(default_factory=list)
    #: ``self.A = ...`` in a method: (function, A, "call" or "param", name, line).
    attr_assigns: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    #: Functions returning a call: (function, callee).
    return_calls: list[tuple[str, str]] = field(default_factory=list)
    #: Calls of capitalised callees with call-valued arguments:
    #: (callee, position, callees of the argument's value).
    ctor_args: list[tuple[str, str, list[str]]] = field(default_factory=list)
    #: Line spans of functions: qualname -> (first, last).
    function_lines: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Lines of ``getattr`` calls with a name built at runtime.
    dynamic_getattr: list[tuple[int, str, str]] = field(default_factory=list)
    #: Functions that set attributes of ``self`` by a name built at runtime
    #: (``setattr(self, name, v)``, ``self.__dict__.update(d)``): what such a
    #: class holds is not known statically.
    dynamic_setattr: list[str] = field(default_factory=list)
    #: Values used in place of an option when it is falsy: ``x.opt or V``,
    #: ``if x.opt: ... else: y = V`` (option's attribute, V, line).
    fallbacks: list[tuple[str, Expr, int]] = field(default_factory=list)
    error: str | None = None
    error_line: int = 0


#: The one empty list and the one empty dict that ``compact`` shares among
#: facts: nothing mutates facts once extracted.
_EMPTY_LIST: list[Any] = []
_EMPTY_DICT: dict[str, Any] = {}
_SLOTS: dict[type, tuple[str, ...]] = {}


class Memo:
    """What ``compact`` shares among the facts of one chunk of files."""

    def __init__(self) -> None:
        self.shared: dict[tuple[Any, ...], Any] = {}
        #: The ids of the shared objects (alive as long as the memo is).
        self.ids: set[int] = set()

    def share(self, key: tuple[Any, ...], make: Any) -> Any:
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = make
            self.ids.add(id(found))
        return found


def compact(value: Any, memo: Memo | None = None) -> Any:
    """``value`` with each string interned and every empty list or dict the
    same object; with a ``memo``, also each leaf expression (``["n",
    name]``, ``["c", value]``), each dict of leaf expressions (a call's
    other arguments) and each dict source without keys one object per
    value. Facts sent from a worker (pickled once per chunk, each object
    once) and held for a whole tree then take a fraction of the memory.
    Done when extraction is over: the facts are read-only after."""
    kind = type(value)
    if kind is str:
        return sys.intern(value)
    if kind is list:
        if not value:
            return _EMPTY_LIST
        if memo is not None and len(value) == 2 and type(value[0]) is str:
            leaf = value[1]
            if value[0] in _LEAF_TAGS and type(leaf) in _LEAF_TYPES:
                # repr tells 0.0 from -0.0 (equal, and of one hash).
                key = (value[0], type(leaf), repr(leaf) if type(leaf) is float else leaf)
                return memo.share(key, [value[0], compact(leaf)])
        value[:] = [compact(item, memo) for item in value]
        return value
    if kind is dict:
        if not value:
            return _EMPTY_DICT
        out = {sys.intern(k) if type(k) is str else k: compact(v, memo) for k, v in value.items()}
        if memo is not None and all(id(v) in memo.ids for v in out.values()):
            return memo.share(("dict", *((k, id(v)) for k, v in out.items())), out)
        return out
    if kind is tuple:
        return tuple(compact(item, memo) for item in value)
    if kind is DictSource and memo is not None and not value.keys:
        return memo.share(("source", sys.intern(value.base), value.is_param), value)
    names = _SLOTS.get(kind)
    if names is None:
        if not hasattr(kind, "__dataclass_fields__"):
            return value
        names = _SLOTS[kind] = tuple(kind.__dataclass_fields__)
    for name in names:
        setattr(value, name, compact(getattr(value, name), memo))
    return value


_LEAF_TAGS = frozenset({"n", "c"})
_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})
