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

from configdrift.extract.docs.facts import Block

Expr = list[Any]
#: A tree built by assigning attributes: the function that builds it
#: (``<module>`` for the module's body), its root's name, the call that
#: makes the root (None where the function is handed it) and its line (the
#: first assignment's where it is handed), and each path assigned below
#: the root (``MODEL.DEVICE``) with its line and value.
AttributeTree = tuple[str, str, Expr | None, int, list[tuple[str, int, Expr]]]


@dataclass(slots=True)
class FieldFact:
    """An annotated attribute in a class body."""

    name: str
    line: int
    annotation: Expr
    value: Expr | None
    #: A string right after the field (an attribute docstring) describes it.
    docstring: bool = False
    #: The comment right above the field when it says the field is
    #: deprecated (``# Deprecated: use `lint.args` instead.``).
    deprecation: str = ""


@dataclass(frozen=True, slots=True)
class DocParam:
    """A parameter a docstring describes: its name, line, type as written
    and the default its text states (its text, or None)."""

    name: str
    line: int
    type: str | None = None
    default: str | None = None
    #: Described as an attribute (an ``Attributes:`` section), not as a
    #: parameter the constructor takes.
    attribute: bool = False


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
    #: The keys a model validator that runs before writes on its input
    #: (``data["fsdp_config"] = {...}``): what is set there is rewritten
    #: before the fields see it.
    rewritten: list[str] = field(default_factory=list)
    #: The parameters its docstring (else its ``__init__``'s) describes.
    doc_params: list[DocParam] = field(default_factory=list)
    #: The calls with keyword arguments of its docstring's examples.
    doc_calls: list[Block] = field(default_factory=list)
    #: The defaults its ``__init__`` gives its parameters, by name.
    init_defaults: dict[str, Expr] = field(default_factory=dict)
    #: The annotations its ``__init__`` gives its parameters, by name.
    init_annotations: dict[str, Expr] = field(default_factory=dict)
    #: The literal values its ``__init__`` gives ``self``'s attributes
    #: (``attribute_fills.init_values``), each line as ``__line__`` and the name.
    init_values: dict[str, Expr] = field(default_factory=dict)
    #: Its own keywords its docstrings spell anywhere.
    doc_mentions: list[str] = field(default_factory=list)
    #: Where its docstrings describe no parameter: its own keywords they
    #: spell anywhere, in prose too (``barrier_ttl``).
    doc_spelt: list[str] = field(default_factory=list)
    #: Names its docstrings write in code one letter from one of its own
    #: keywords, each with that keyword and its line (``use_chile_gene_prob``
    #: for ``use_child_gene_prob``): the keyword misspelt.
    doc_misspelt: list[tuple[str, str, int]] = field(default_factory=list)
    #: The keywords of its ``__init__`` a method warns are deprecated where
    #: they are used (``config_path`` of luigi's ``Parameter``).
    warned_keywords: list[str] = field(default_factory=list)


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
    #: How: ``kwargs``, a validating method's name, or the library that
    #: builds it (``omegaconf``, ``dacite``, ``cattrs``).
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


#: The keys a class must read of a dict it holds for the reads to be kept.
HELD_MIN_KEYS = 3


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
    #: Made in a ``try`` whose handlers pass: a registration that may fail
    #: because the key is registered already (the host's own key).
    guarded: bool = False


@dataclass(slots=True)
class ImportFact:
    """``local`` is bound to ``module`` (``name`` None) or to ``module.name``."""

    local: str
    module: str
    name: str | None
    level: int
    line: int


@dataclass(slots=True)
class ParserUses:
    """What one module does with its subcommands' parsers, each named by a
    token: the subcommand's name, or ``@function`` for a parameter of a
    function (a helper that is handed a parser)."""

    #: Each subcommand the module declares, with the line of its ``add_parser``.
    subcommands: dict[str, int] = field(default_factory=dict)
    #: The token of the parser each ``add_argument`` call is made on, by its line.
    options: dict[int, str] = field(default_factory=dict)
    #: Parsers handed to a function: (token, the callee as written, line).
    handed: list[tuple[str, str, int]] = field(default_factory=list)
    #: Parsers used some other way (returned, stored, made with
    #: ``parents=``): what options they take is not known here.
    escaped: list[str] = field(default_factory=list)
    #: The function each click subcommand is (``@cli.command("run")`` on
    #: ``def run_cmd``), by the subcommand's name: its options are the
    #: ``@click.option``\ s that decorate it (a token ``@function``).
    functions: dict[str, str] = field(default_factory=dict)


#: A dict that names the class it builds by its ``type``: the type as
#: written (a string, or a name), its line, its other keys with their
#: lines, and the typed dict it is a value of (its index among the
#: module's, and the key), None at the top.
TypedDict = tuple[Expr, int, list[tuple[str, int]], tuple[int, str] | None]


@dataclass(slots=True)
class ModuleFacts:
    """Everything configdrift needs from one Python file."""

    imports: list[ImportFact] = field(default_factory=list)
    star_imports: list[tuple[str, int]] = field(default_factory=list)
    assigns: dict[str, Expr] = field(default_factory=dict)
    assign_lines: dict[str, int] = field(default_factory=dict)
    #: The line of each string key of a module-level dict literal, by name
    #: (and of the dict a module-level function returns, by its name).
    dict_key_lines: dict[str, dict[str, int]] = field(default_factory=dict)
    #: The dict literal a module-level function returns as its last
    #: statement and only return (``def get_default_config(): return
    #: {...}``), by the function's name.
    returned_dicts: dict[str, Expr] = field(default_factory=dict)
    #: Dict literals a function binds and then updates with what it is
    #: given (``self.config = {...}`` then ``self.config.update(kwargs)``):
    #: (function, the dict, the line of each key).
    merged_defaults: list[tuple[str, Expr, dict[str, int]]] = field(default_factory=list)
    #: Trees of settings built by assigning attributes (``_C = CN()`` then
    #: ``_C.MODEL.DEVICE = "cuda"``; ``attribute_trees``).
    attribute_trees: list[AttributeTree] = field(default_factory=list)
    all_names: list[str] | None = None
    classes: list[ClassFact] = field(default_factory=list)
    functions: dict[str, list[str]] = field(default_factory=dict)
    #: The parameters a caller may give by keyword or leave out, by function
    #: (``MIN_OPTIONAL`` of them or more).
    optional_params: dict[str, list[str]] = field(default_factory=dict)
    #: Of those, the ones its docstring spells (what autodoc shows) or a
    #: deprecation message of its body names.
    described_params: dict[str, list[str]] = field(default_factory=dict)
    #: What a module function's docstring describes that its signature
    #: lacks, by function: how many parameters it describes, and each name
    #: it describes that is no parameter, with its line.
    doc_untaken: dict[str, tuple[int, list[tuple[str, int]]]] = field(default_factory=dict)
    #: Names a module function's docstring writes in code one letter from
    #: one of its parameters (``target_name`` of ``target_names``), each
    #: with that parameter and its line, by function.
    doc_misspelt: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    #: The calls with keyword arguments of a module function's docstring
    #: (its doctests, its prose's literals), by function.
    doc_calls: dict[str, list[Block]] = field(default_factory=dict)
    #: The parameters a function deprecates, by function.
    deprecated_params: dict[str, list[str]] = field(default_factory=dict)
    #: The parameters of the module's functions: (name, line, annotation,
    #: default), by function.
    signatures: dict[str, list[tuple[str, int, Expr | None, Expr | None]]] = field(
        default_factory=dict
    )
    #: Parameter defaults that look like keys (string literals, names), by function.
    param_defaults: dict[str, dict[str, Expr]] = field(default_factory=dict)
    placements: list[Placement] = field(default_factory=list)
    dict_args: list[DictArg] = field(default_factory=list)
    dict_reads: list[DictRead] = field(default_factory=list)
    #: Reads of a dict a class holds on ``self`` without storing it there
    #: (a property or a base class provides it: ``self.config.get("k", 1)``),
    #: kept apart from the dicts the flow follows, where the class reads
    #: ``HELD_MIN_KEYS`` keys of it or more.
    held_reads: list[DictRead] = field(default_factory=list)
    #: Reads by literal keys of a local a function binds to what one call
    #: returns (``opts = load_options(path)`` then ``opts.get("exclude")``),
    #: base ``callee()``, where the function reads ``HELD_MIN_KEYS`` keys
    #: of it or more: no flow follows them.
    call_reads: list[DictRead] = field(default_factory=list)
    dict_stores: list[DictStore] = field(default_factory=list)
    registrations: list[RegistrationCall] = field(default_factory=list)
    #: The subcommands an argparse or click program declares and the
    #: parser each option is added to (``subcommands.parser_uses``); None
    #: where the module makes none.
    parsers: ParserUses | None = None
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
    #: Expressions a function tests the type of (``isinstance(x.y, C)``,
    #: ``hasattr``, ``type(x) is``): (function, expression).
    narrowed: list[tuple[str, str]] = field(default_factory=list)
    #: Locals bound to calls and annotated parameters: (function, name, callee or type).
    local_types: list[tuple[str, str, str]] = field(default_factory=list)
    #: ``self.A = ...`` in a method: (function, A, "call" or "param", name, line).
    attr_assigns: list[tuple[str, str, str, str, int]] = field(default_factory=list)
    #: Functions returning a call: (function, callee).
    return_calls: list[tuple[str, str]] = field(default_factory=list)
    #: Loops that fill an object's attributes by name behind ``hasattr``
    #: (``attribute_fills``): (function, the object's class, raises on an
    #: unknown name, line).
    attribute_fills: list[tuple[str, str, bool, int]] = field(default_factory=list)
    #: Functions every return of which hands back a module imported at
    #: runtime (``importlib.util.module_from_spec(spec)``).
    module_returns: list[str] = field(default_factory=list)
    #: Calls of capitalised callees with call-valued arguments:
    #: (callee, position, callees of the argument's value).
    ctor_args: list[tuple[str, str, list[str]]] = field(default_factory=list)
    #: Models a function builds from its own keyword arguments (``def
    #: init(**kwargs): Config(**kwargs)``, through a dict they update, or
    #: ``Config(timeout=timeout, retries=retries)`` of its parameters): the
    #: function, the model, the line, and the parameters passed on (none for
    #: ``**kwargs``: every keyword but the function's own parameters). A call
    #: of the function in the docs is an example of the model.
    keyword_models: list[tuple[str, Expr, int, list[str]]] = field(default_factory=list)
    #: Line spans of functions: qualname -> (first, last).
    function_lines: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Functions whose keyword arguments are not all their parameters: a
    #: ``**kwargs``, or a decorator that may change the signature.
    open_signatures: list[str] = field(default_factory=list)
    #: ``getattr`` calls with a name built at runtime: their line, function
    #: and the literal parts of the name (``built_name_matches``).
    dynamic_getattr: list[tuple[int, str, tuple[str, ...], str]] = field(default_factory=list)
    #: Functions that set attributes of ``self`` by a name built at runtime
    #: (``setattr(self, name, v)``, ``self.__dict__.update(d)``): what such a
    #: class holds is not known statically.
    dynamic_setattr: list[str] = field(default_factory=list)
    #: Values used in place of an option when it is falsy: ``x.opt or V``,
    #: ``if x.opt: ... else: y = V`` (option's attribute, V, line).
    fallbacks: list[tuple[str, Expr, int]] = field(default_factory=list)
    #: A value copied between an attribute and a key (``env["PORT"] =
    #: str(args.port)``, ``args.port = cfg.get("port")``,
    #: ``config.port = args.port``): (line, ``key`` when the key is written,
    #: ``attr`` when the attribute is, ``object`` when another object's
    #: attribute is, the dict's or object's dotted name, the key, the
    #: attribute's owner, the attribute).
    copies: list[tuple[int, str, str, str, str, str]] = field(default_factory=list)
    #: Loops that take every environment variable with a prefix
    #: (``for k, v in os.environ.items(): if k.startswith(prefix): ...``):
    #: (function, line, the prefix as written).
    env_prefix_loops: list[tuple[str, int, Expr]] = field(default_factory=list)
    #: The environment variables the module names in an option's help
    #: text or writes as a key (``named_variables.variables_named``).
    variables_named: list[str] = field(default_factory=list)
    #: Dicts of its top-level assignments that name the class they build
    #: by a ``type`` key (``dict(type="ResNet", depth=50)``; ``typed_dicts``).
    typed_dicts: list[TypedDict] = field(default_factory=list)
    #: Does the module run itself (``if __name__ == "__main__":``)?
    main_guard: bool = False
    error: str | None = None
    error_line: int = 0


#: The one empty list and the one empty dict that compacted facts share:
#: nothing mutates facts once extracted.
_EMPTY_LIST: list[Any] = []
_EMPTY_DICT: dict[str, Any] = {}
_LEAF_TAGS = frozenset({"n", "c"})
_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})
_MODULE_FIELDS = tuple(ModuleFacts.__dataclass_fields__)


class Memo:
    """What ``compact`` shares among the facts of one chunk of files: each
    leaf expression (``["n", name]``, ``["c", value]``), each dict of leaf
    expressions (a call's other arguments) and each dict source without
    keys, one object per value. Facts a worker sends (pickled once per
    chunk, each object once) then take a fraction of the memory."""

    def __init__(self) -> None:
        self.shared: dict[tuple[Any, ...], Any] = {}
        #: The ids of the shared objects (alive as long as the memo is).
        self.ids: set[int] = set()

    def _share(self, key: tuple[Any, ...], value: Any) -> Any:
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = value
            self.ids.add(id(found))
        return found

    def expr(self, expr: Any) -> Any:
        """An expression with its leaves shared."""
        if type(expr) is not list:
            return expr
        if (
            len(expr) == 2
            and type(expr[0]) is str
            and expr[0] in _LEAF_TAGS
            and type(expr[1]) in _LEAF_TYPES
        ):
            leaf = expr[1]
            # repr tells 0.0 from -0.0 (equal, and of one hash).
            key = (expr[0], type(leaf), repr(leaf) if type(leaf) is float else leaf)
            return self._share(key, expr)
        if not expr:
            return _EMPTY_LIST
        expr[:] = [self.expr(item) if type(item) is list else item for item in expr]
        return expr

    def args(self, args: dict[str, Any]) -> dict[str, Any]:
        """A dict of expressions; shared when all of them are."""
        if not args:
            return _EMPTY_DICT
        out = {key: self.expr(value) for key, value in args.items()}
        if all(id(value) in self.ids for value in out.values()):
            return self._share(("args", *((k, id(v)) for k, v in out.items())), out)  # type: ignore[no-any-return]
        return out

    def source(self, source: DictSource) -> DictSource:
        if not source.keys:
            return self._share(("source", source.base, source.is_param), source)  # type: ignore[no-any-return]
        source.keys = [self.expr(key) for key in source.keys]
        return source


def compact(facts: ModuleFacts, memo: Memo) -> ModuleFacts:
    """``facts`` with every empty list or dict one object and the records
    that come by the thousand (dict hand-overs, reads and stores) sharing
    what ``memo`` shares. Done when extraction is over: the facts are
    read-only after."""
    for name in _MODULE_FIELDS:
        value = getattr(facts, name)
        if not value and (type(value) is list or type(value) is dict):
            setattr(facts, name, _EMPTY_LIST if type(value) is list else _EMPTY_DICT)
    expr, args, source = memo.expr, memo.args, memo.source
    for arg in facts.dict_args:
        arg.callee = expr(arg.callee)
        arg.source = source(arg.source)
        arg.key_args = args(arg.key_args)
        arg.values = args(arg.values)
    for read in facts.dict_reads:
        read.source = source(read.source)
        read.default = expr(read.default)
    for store in facts.dict_stores:
        store.source = source(store.source)
    for placement in facts.placements:
        placement.sources = [source(s) for s in placement.sources]
    # Names that recur across files: one string each per chunk.
    intern = sys.intern
    facts.attr_loads = [intern(name) for name in facts.attr_loads] or _EMPTY_LIST
    facts.attr_counts = {intern(k): v for k, v in facts.attr_counts.items()} or _EMPTY_DICT
    facts.attr_stores = [intern(name) for name in facts.attr_stores] or _EMPTY_LIST
    facts.chains = [(line, intern(f), intern(c)) for line, f, c in facts.chains] or _EMPTY_LIST
    facts.narrowed = [(intern(f), intern(e)) for f, e in facts.narrowed] or _EMPTY_LIST
    facts.local_types = [tuple(map(intern, t)) for t in facts.local_types] or _EMPTY_LIST  # type: ignore[misc]
    facts.functions = {
        intern(name): [intern(p) for p in params] or _EMPTY_LIST
        for name, params in facts.functions.items()
    } or _EMPTY_DICT
    facts.function_lines = {intern(k): v for k, v in facts.function_lines.items()} or _EMPTY_DICT
    facts.attr_assigns = [
        (intern(f), intern(a), how, intern(n), line) for f, a, how, n, line in facts.attr_assigns
    ] or _EMPTY_LIST
    facts.assigns = {intern(k): expr(v) for k, v in facts.assigns.items()} or _EMPTY_DICT
    for cls in facts.classes:
        cls.bases = [expr(b) for b in cls.bases] or _EMPTY_LIST
        cls.decorators = [expr(d) for d in cls.decorators] or _EMPTY_LIST
        cls.assigns = {k: expr(v) for k, v in cls.assigns.items()} or _EMPTY_DICT
        cls.config_class = cls.config_class or _EMPTY_DICT
        cls.before_validated = cls.before_validated or _EMPTY_LIST
        cls.rewritten = cls.rewritten or _EMPTY_LIST
        cls.fields = cls.fields or _EMPTY_LIST
        for f in cls.fields:
            f.annotation = expr(f.annotation)
            f.value = expr(f.value)
    return facts


#: Encloses, in a part of a built name, the name of a module's constant
#: that holds that text (``f"{KNOWN_PREFIX}{x}"``), filled in where
#: constants are known (``rules.evidence.built_names``).
CONSTANT_PART = "\0"


def built_name_matches(parts: tuple[str, ...], name: str) -> bool:
    """Can a name built from ``parts``, anything in each hole between two
    of them, be ``name``? The parts are found in order with ``str.find``
    (the leftmost place of each leaves the most room for the rest): linear
    in the name, whatever the f-string holds. ``("", "")`` matches any."""
    if len(parts) == 1:
        return name == parts[0]
    first, last = parts[0], parts[-1]
    end = len(name) - len(last)
    if end < len(first) or not name.startswith(first) or not name.endswith(last):
        return False
    at = len(first)
    for part in parts[1:-1]:
        found = name.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True
