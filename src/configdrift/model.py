"""The resolved model every rule works on: doc entries, schema nodes, findings.

Config paths are tuples of keys as a user writes them in the config file.
Two segments are special: ``*`` stands for any key of a mapping
(``Dict[str, Model]``) and ``[]`` for any item of a list (``List[Model]``).
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from configdrift.escape import printable

ConfigPath = tuple[str, ...]

ANY_KEY = "*"
LIST_ITEM = "[]"


def format_path(path: ConfigPath) -> str:
    """Render a config path the way users write it (``a.b[].c``)."""
    out = ""
    for part in path:
        if part == LIST_ITEM:
            out += "[]"
        elif out:
            out += "." + part
        else:
            out = part
    return out


class Severity(StrEnum):
    """How much a finding matters; ordered by ``rank``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Location:
    """A place in the repository: a path relative to the root, with ``/``."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Value:
    """A value known statically (``known``) or only as source text."""

    text: str
    known: bool = False
    value: Any = None

    @staticmethod
    def of(value: Any, text: str | None = None) -> Value:
        return Value(text if text is not None else repr(value), True, value)

    @staticmethod
    def unknown(text: str) -> Value:
        return Value(text, False, None)


#: How the text of a switch's default ends: the state it is in when not
#: given (``action="store_true"``), not a default anyone wrote.
IMPLIED = " (when not given)"


@dataclass(frozen=True, slots=True)
class TypeInfo:
    """A field's type reduced to the categories a doc can name.

    ``kinds`` holds any of ``bool int float str dict list null``; an empty set
    means the type is unknown or ``Any``, and nothing is compared.
    ``choices`` holds the values a ``Literal`` or an ``Enum`` allows (with
    ``None`` where the type is optional), or None when any value of the
    kinds is allowed.
    """

    text: str
    kinds: frozenset[str] = frozenset()
    choices: tuple[Any, ...] | None = None


@dataclass(slots=True)
class SchemaNode:
    """A key the schema accepts, with its children when it is a section.

    ``strict`` is True when unknown child keys are rejected, False when they
    are silently ignored and None when nothing is known about it.
    """

    key: str
    path: ConfigPath
    spellings: tuple[str, ...] = ()
    #: Spellings that name the head of an AliasPath: the value written there
    #: is a container the field's value is taken from, so its type differs.
    path_aliases: tuple[str, ...] = ()
    type: TypeInfo = TypeInfo("")
    default: Value | None = None
    strict: bool | None = None
    model: str | None = None
    #: (module, qualname) of a pydantic model this node is, when it is one
    #: model for sure (not a Union of two): what exact mode validates with.
    model_symbol: tuple[str, str] | None = None
    #: What the node is: ``pydantic``, ``dataclass``, ``dict`` (a registry
    #: of options mounted by the configuration), or None.
    model_kind: str | None = None
    model_location: Location | None = None
    strict_location: Location | None = None
    strict_owner: str | None = None
    location: Location | None = None
    #: Where the default comes from, when not from ``location`` (a read
    #: that falls back to it: ``d.get(K, D)``).
    default_location: Location | None = None
    deprecated: bool = False
    replacement: str | None = None
    origin: str = ""
    #: Is a value checked against ``type`` when the config is loaded? True
    #: for a pydantic field that no validator changes before its type check.
    checked: bool = False
    children: dict[str, SchemaNode] = field(default_factory=dict)
    #: Does the code describe the key (a field's docstring, ``description=``,
    #: ``help=``): what a page rendered from the code shows.
    described: bool = False
    #: Where the code reads this key from a config dict.
    reads: list[ReadSite] = field(default_factory=list)
    #: Other spellings of this option that its declaration names for other
    #: surfaces: (name, why), a flag (``cli = ["-b", "--bind"]``: ``cli``)
    #: or a variable (``env = "APP_BIND"``: ``env``; a default read from it:
    #: ``default``). ``link`` makes them one setting with the key.
    also: tuple[tuple[str, str], ...] = ()
    #: Spellings a declaration of their own adds to this option, one
    #: destination (``--no-color`` beside ``--color``): each a flag users
    #: write, documented or not on its own, with where it is declared.
    apart: tuple[tuple[str, Location], ...] = ()
    #: An option its declaration hides from the help
    #: (``help=argparse.SUPPRESS``, click's ``hidden=True``): not for users
    #: to find, never undocumented.
    hidden: bool = False
    #: Spellings a declaration of its own hides from the help where another
    #: of the destination shows (``--export`` beside ``--format``): an old
    #: spelling kept working, for no page to teach.
    hidden_spellings: tuple[str, ...] = ()
    #: Spellings the code warns are deprecated where they are used (a
    #: luigi option's ``config_path`` name): old ones, for no page to teach.
    deprecated_spellings: tuple[str, ...] = ()
    #: The converter an option's declaration passes (``convert=convert_bool``),
    #: ``""`` for none; None where the declaration has no such keywords.
    converter: str | None = None
    #: What merges config files into this model where that is not its own
    #: constructor: ``omegaconf`` for a structured config.
    loader: str | None = None

    def rejection(self) -> str:
        """What loading an unknown key under this node raises."""
        if self.loader == "omegaconf":
            return "raises an omegaconf ConfigKeyError"
        return {
            "pydantic": "raises a ValidationError",
            "dataclass": "raises a TypeError",
            "attrs": "raises a TypeError",
            "slots": "raises an AttributeError (its class has slots)",
            "namedtuple": "raises a TypeError",
            "argparse": "fails with 'unrecognized arguments'",
            "click": "fails with 'No such option'",
            "mkdocs": "gets 'Unrecognised configuration name' (an error with `mkdocs build --strict`)",
        }.get(self.model_kind or "", "is an error")

    def child(self, key: str) -> SchemaNode | None:
        """The child accepted under ``key``: its name or an alias, as accepted."""
        found = self.children.get(key)
        if found is not None and (not found.spellings or key in found.spellings):
            return found
        for node in self.children.values():
            if key in node.spellings:
                return node
        return None

    def current_spellings(self) -> list[str]:
        """Its spellings but the old ones (``hidden_spellings``,
        ``deprecated_spellings``): those the docs should teach."""
        old = {*self.hidden_spellings, *self.deprecated_spellings}
        return [s for s in self.spellings if s not in old]

    def walk(self) -> list[SchemaNode]:
        out: list[SchemaNode] = []
        stack = [self]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(list(node.children.values())))
        return out


@dataclass(frozen=True, slots=True)
class DocEntry:
    """A key described in a doc page."""

    name: str
    path: ConfigPath
    location: Location
    section: str
    doc_type: str | None = None
    default: str | None = None
    form: str = ""
    placed_by: str = ""
    #: The values the page lists as the key's possible ones.
    choices: tuple[str, ...] | None = None
    #: The environment variable the page gives it.
    variable: str | None = None


@dataclass(frozen=True, slots=True)
class Related:
    path: str
    line: int
    note: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement between two views of a key, with both places."""

    code: str
    key: str
    location: Location
    message: str
    related: tuple[Related, ...] = ()
    suggestion: str | None = None
    severity: Severity | None = None
    #: Where the drift came from in git history (``--provenance``).
    provenance: dict[str, Any] | None = None
    #: The configuration surface the finding belongs to (``config``,
    #: ``settings``, ``cli``, ``env`` or a configured name).
    surface: str = ""


def exit_code_for(findings: list[Finding], fail_on: str) -> int:
    """1 when a finding is at or above ``fail_on`` (``never``: always 0)."""
    if fail_on == "never":
        return 0
    threshold = Severity(fail_on).rank
    return (
        1 if any(f.severity is not None and f.severity.rank >= threshold for f in findings) else 0
    )


def step(node: SchemaNode, key: str) -> tuple[SchemaNode | None, SchemaNode]:
    """The child under ``key`` and the node that was asked.

    Docs often skip the list level (``layer_specs.patterns`` for an item of
    the list ``layer_specs``), so a key missing from a list node is looked
    up in its item.
    """
    found = node.child(key)
    if found is not None:
        return found, node
    if ANY_KEY in node.children:
        return node.children[ANY_KEY], node
    item = node.children.get(LIST_ITEM)
    if item is not None:
        return step(item, key)
    return None, node


def resolve_path(root: SchemaNode, path: ConfigPath) -> tuple[SchemaNode | None, int, SchemaNode]:
    """Walk ``path``: (node or None, index of the first missing key, the node that lacks it)."""
    node = root
    for i, key in enumerate(path):
        if key == LIST_ITEM:
            node = node.children.get(LIST_ITEM, node)
            continue
        nxt, asked = step(node, key)
        if nxt is None:
            return None, i, asked
        node = nxt
    return node, len(path), node


def near_spelling(key: str, parent: SchemaNode) -> str | None:
    """The spelling ``parent`` accepts that is closest to ``key``, if any is close."""
    accepted = [s for n in parent.children.values() for s in (n.spellings or (n.key,))]
    close = difflib.get_close_matches(key, accepted, n=1, cutoff=0.8)
    return close[0] if close else None


def fingerprint(finding: Finding) -> str:
    """Stable across unrelated edits: rule, key and file, not the line."""
    raw = "\0".join(
        (
            finding.code,
            printable(finding.key),
            printable(finding.location.path),
            printable(finding.message) if not finding.key else "",
        )
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def field_owner(node: SchemaNode) -> str | None:
    """The model whose field ``node`` is (its origin: ``field of Model``);
    None for a node that is no model's field."""
    owner = node.origin.removeprefix("field of ")
    return owner if owner != node.origin else None


def top_spellings(node: SchemaNode) -> set[str]:
    """Every spelling of the keys right under ``node``."""
    return {s for child in node.children.values() for s in child.spellings or (child.key,)}


def spellings_of(schema: SchemaNode) -> set[str]:
    """Every spelling of every key under ``schema`` (names and aliases)."""
    return {
        s for node in schema.walk() if node is not schema for s in node.spellings or (node.key,)
    }


@dataclass(slots=True)
class DocSource:
    """A doc page of a surface, and how many of its entries it documents
    (``explicit``: the configuration names it)."""

    path: str
    entries: int
    explicit: bool


@dataclass(frozen=True, slots=True)
class ReadSite:
    """A config key the code reads: its path, where, and in which function,
    with the default it falls back to and the type a use makes certain,
    where the code says."""

    path: ConfigPath
    location: Location
    module: str
    function: str
    how: str
    default: Value | None = None
    kind: str | None = None


#: The statuses of a key the project marks (``LifecycleEntry.status``).
REMOVED, DEPRECATED = "removed", "deprecated"


@dataclass(frozen=True, slots=True)
class LifecycleEntry:
    """A key the project marks removed or deprecated, and where it says so."""

    path: ConfigPath
    status: str
    source: str
    location: Location | None = None
    reason: str | None = None
    version: str | None = None
    replacement: str | None = None


@dataclass(frozen=True, slots=True)
class SectionMap:
    """How one doc section was mapped (for ``configdrift map``)."""

    location: Location
    title: str
    path: ConfigPath
    how: str
    model: str | None


@dataclass(slots=True)
class Mount:
    """How a model came to sit at a config path (for ``configdrift map``)."""

    path: ConfigPath
    model: str
    location: Location
    how: str
    #: What ``mount`` would name to place it by hand (``module:Model`` or
    #: ``module:function.param``), where there is such a name.
    target: str = ""


@dataclass(slots=True)
class Unresolved:
    """A placement whose path could not be known statically."""

    location: Location
    what: str


@dataclass(slots=True)
class Surface:
    """One configuration a user writes, with its own root: a config file's
    tree, a settings class, the command line, the environment."""

    name: str
    root: SchemaNode
    #: How discovery (or the configuration) decided it, for ``map``.
    how: str
    unresolved: list[Unresolved]
    #: What ``surfaces`` would name to configure it (``module:Model``,
    #: ``cli``, ``env``).
    target: str = ""
    #: Why the code alone shows it is a configuration (its options name
    #: environment variables), where no page documents it: then its keys
    #: are undocumented, not unknown.
    admitted: str = ""
    #: The dotted names a call of the function whose keyword arguments build
    #: it is written with (``deepspeed.init_inference``): such calls in the
    #: docs are its examples.
    calls: tuple[str, ...] = ()
    #: The dotted paths of its keys no code names in any way, where the
    #: code reads the others by their dotted paths (a defaults file).
    unread: frozenset[str] = frozenset()
    #: Documented by the examples that set its keys below the path it sits
    #: under, rather than by entries: every page's examples are its.
    exemplified: bool = False
    #: Documented by a page that links its file and names its keys in
    #: list items: a key any page names in code is described there.
    file_linked: bool = False
    #: Shown only by the repository's config files that set its keys (a
    #: trainer's recipes), no page: a key they leave out is not judged
    #: undocumented.
    by_files: bool = False


#: Who forbids unknown keys where the configuration says so (``open =
#: false`` on a mount or a surface): ``SchemaNode.strict_owner``.
CONFIGURED_STRICT = "the configuration (`open = false`)"


#: The origin of an option that only prints (``--version``, ``--help``).
BUILTIN = "an action of the parser"
#: How an option's origin (``option of pkg.cli:main()``) ends when it is a
#: parameter of a function whose signature is a command line
#: (``jsonargparse.CLI(main)``): such a command takes its parameters as
#: positional words too.
SIGNATURE = "()"


#: The kinds of root a command line makes.
CLI_KINDS = frozenset({"argparse", "click"})
#: The kinds of a model class whose fields are its keys.
CLASS_KINDS = frozenset({"pydantic", "dataclass", "attrs"})


def same_value(a: object, b: object) -> bool:
    """Are two static values equal as config values? ``1 == 1.0``, but a
    bool equals only a bool."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    return type(a) is type(b) and a == b


def value_kind(value: object) -> str:
    """The category of a static value (``bool int float str dict list null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, dict):
        return "dict"
    if isinstance(value, list | tuple):
        return "list"
    return "str"


def read_defaults(node: SchemaNode) -> list[ReadSite]:
    """The reads of a key that fall back to a known default other than
    ``None`` (``None`` means computed later, or not set)."""
    return [s for s in node.reads if s.default is not None and s.default.value is not None]


@dataclass(frozen=True, slots=True, eq=False)
class Spelling:
    """One way a user writes a setting: a config key (``timeout``), an
    environment variable (``APP_TIMEOUT``) or a flag (``--timeout``), with
    its own declaration, default, type and doc entry."""

    #: ``key``, ``env`` or ``flag``.
    kind: str
    name: str
    #: The surface that declares it (``config``, ``settings``, ``cli``, ``env``).
    surface: str
    #: Its path in that surface's tree.
    path: ConfigPath
    location: Location
    default: Value | None = None
    type: TypeInfo = TypeInfo("")
    #: Where a page documents it, with the default the page names.
    doc: Location | None = None
    doc_default: str | None = None
    #: What declares it, as ``map`` shows it (``field of Settings``).
    declared_by: str = ""
    #: The flag whose call declares this variable (``envvar=``), if one does.
    flag: str | None = None
    #: A flag's destination: the attribute the code reads (``log_level``).
    dest: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class SettingLink:
    """Why two spellings are one setting: ``explicit`` evidence in the code
    (``envvar=``, a flag whose default reads the variable, one name read
    in two places) or the project's ``convention`` (its prefix and the
    upper-cased key, ``--kebab-case`` for ``snake_case``)."""

    a: Spelling
    b: Spelling
    how: str
    why: str
    location: Location | None = None
    #: The name both spell by the convention (``log_level``).
    common: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class Setting:
    """One setting of a project with every spelling it has, and the links
    that make them one."""

    name: str
    spellings: tuple[Spelling, ...]
    links: tuple[SettingLink, ...] = ()


#: What each key the schema accepts is, as the docs go. One census, taken
#: once per surface (``coverage.census``), is what ``check``'s summary,
#: ``coverage`` and ``map`` count, so that their figures agree.
#: A doc entry (or a doc section) of its own describes it: compared.
COMPARED = "compared"
#: A page renders it from the code at build time (a generated reference).
RENDERED = "rendered"
#: No entry, and none is asked for: deprecated or removed, named in the
#: prose, a script's own flags, another program's variable.
EXEMPT = "exempt"
#: CD103 reports it, or it sits in a section CD103 reports.
UNDOCUMENTED = "undocumented"
STATES = (COMPARED, RENDERED, EXEMPT, UNDOCUMENTED)


@dataclass(frozen=True, slots=True)
class Census:
    """Each accepted key's path and state (``STATES``), in the schema's
    order (two command lines' options may share a path: each is counted),
    and the keys CD103 reports (a section stands for the keys under it)."""

    states: tuple[tuple[ConfigPath, str], ...]
    reported: tuple[str, ...] = ()

    def count(self, state: str) -> int:
        return sum(1 for _, s in self.states if s == state)

    def paths(self, state: str) -> list[ConfigPath]:
        return [path for path, s in self.states if s == state]

    @property
    def documented(self) -> int:
        """Accepted keys the docs leave nothing to ask of."""
        return len(self.states) - self.count(UNDOCUMENTED)
