"""The types of a model's fields: an annotation read as the kinds of value
it takes (``int``, ``list``, a nested model), its choices (``Literal``, an
enum), and whether pydantic coerces it; and what a model is found to be
(``ModelInfo``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from configdrift.extract.python.exprs import parse_annotation, render
from configdrift.extract.python.facts import Expr, FieldFact
from configdrift.extract.python.help_texts import replacement_named, says_deprecated
from configdrift.model import ANY_KEY, LIST_ITEM, Location, SchemaNode, TypeInfo, Value, value_kind
from configdrift.resolve.project import Project, Symbol

ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})


_SCALAR_KINDS = {
    "bool": "bool",
    "int": "int",
    "float": "float",
    "str": "str",
    "bytes": "str",
    "None": "null",
    "NoneType": "null",
    "dict": "dict",
    "list": "list",
    "tuple": "list",
    "set": "list",
    "frozenset": "list",
}


#: The kind of value each container type holds, ``typing``'s and the builtins.
_TYPING_CONTAINERS = {
    **dict.fromkeys(("dict", "Dict", "Mapping", "MutableMapping"), "dict"),
    **dict.fromkeys(("OrderedDict", "DefaultDict"), "dict"),
    **dict.fromkeys(("list", "List", "Sequence", "Iterable", "tuple", "Tuple"), "list"),
    **dict.fromkeys(("set", "Set", "frozenset", "FrozenSet"), "list"),
}


@dataclass(slots=True)
class ModelInfo:
    symbol: Symbol
    kind: str
    location: Location
    strict: bool
    strict_location: Location | None
    strict_owner: str | None
    populate_by_name: bool
    fields: list[tuple[str, FieldFact]]
    #: Fields a validator may change before their type is checked (``*``: all).
    before_validated: frozenset[str] = frozenset()
    #: Fields whose value a model validator that runs before writes anew
    #: (``ClassFact.rewritten``): the keys set below them are not known.
    rewritten: frozenset[str] = frozenset()
    #: A settings class's ``env_prefix`` ("" when it has none); None for
    #: other models. Its fields are also spelt as environment variables.
    env_prefix: str | None = None


@dataclass(slots=True)
class TypeFacts:
    info: TypeInfo
    models: list[tuple[str | None, Symbol]] = field(default_factory=list)


def last_name(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def joined(left: list[Any] | None, right: list[Any] | None) -> list[Any] | None:
    return None if left is None or right is None else left + right


def string_of(project: Project, module: str, expr: Expr | None) -> str | None:
    return None if expr is None else project.string(module, expr)


#: The arguments an option call describes itself with.
HELP_ARGUMENTS = ("help", "description", "doc", "help_text")


def mark_deprecated(
    project: Project, module: str, node: SchemaNode, described: dict[str, Expr]
) -> None:
    """Mark ``node`` deprecated where its declaration says so: a truthy
    ``deprecated`` (``deprecated=True``, ``deprecated="use workers"``) or a
    help text that opens with "Deprecated"; the option it names instead is
    the replacement. ``described`` is a call's keywords or a class's
    attributes."""
    flag = described.get("deprecated")
    if flag is not None:
        value = project.evaluate(module, flag)
        if not value.known or not value.value:
            return
        text = value.value if isinstance(value.value, str) else ""
    else:
        helps = (help_text(project, module, described.get(w)) for w in HELP_ARGUMENTS)
        text = next((h for h in helps if h), "")
        if not says_deprecated(text):
            return
    node.deprecated = True
    node.replacement = replacement_named(text)


def help_text(project: Project, module: str, expr: Expr | None) -> str | None:
    """A help text, also where a call of its one argument wraps it (a
    translation, ``_i18n("DEPRECATED. Use ...")``, or ``dedent(...)``):
    the text the call is given is the one shown."""
    if expr is not None and expr[0] == "call" and len(expr[2]) == 1 and not expr[3]:
        expr = expr[2][0]
    return string_of(project, module, expr)


class TypeReader:
    """The types of fields: a model's annotation read as the kinds of value
    it takes, the models it holds, its choices (``Literal``, an enum)."""

    project: Project

    def model(self, symbol: Symbol) -> ModelInfo | None:
        raise NotImplementedError  # the model reader's

    def type_facts(self, module: str, annotation: Expr | None) -> TypeFacts:
        if annotation is None:
            return TypeFacts(TypeInfo(""))
        kinds: set[str] = set()
        models: list[tuple[str | None, Symbol]] = []
        text = render(annotation)
        if self._kinds(module, annotation, kinds, models, None, 0):
            return TypeFacts(TypeInfo(text), models)
        choices = self._choices(module, annotation, 0)
        return TypeFacts(
            TypeInfo(text, frozenset(kinds), None if choices is None else tuple(choices)), models
        )

    def _choices(self, module: str, expr: Expr, depth: int) -> list[Any] | None:
        """The values a type allows when it is made of ``Literal``s, enums and
        ``None`` only; None when any other type is part of it."""
        if depth > 10:
            return None
        kind = expr[0]
        if kind == "c" and expr[1] is None:
            return [None]
        if kind == "b" and expr[1] == "|":
            return joined(
                self._choices(module, expr[2], depth + 1),
                self._choices(module, expr[3], depth + 1),
            )
        if kind == "n":
            if last_name(expr[1]) in ("None", "NoneType"):
                return [None]
            symbol = self.project.resolve(module, expr[1])
            if (alias := self._alias(symbol)) is not None:
                return self._choices(alias[0], alias[1], depth + 1)
            if (
                symbol is None
                or symbol.kind != "class"
                or not self.project.inherits_external(symbol, ENUM_BASES)
            ):
                return None
            members = self._members(symbol)
            if not all(member.known for member in members):
                return None
            return [member.value for member in members] or None
        if kind == "sub" and expr[1][0] == "n":
            head = last_name(expr[1][1])
            args = expr[2][2] if expr[2][0] == "seq" and expr[2][1] == "tuple" else [expr[2]]
            if head == "Literal":
                literals = [self.project.evaluate(module, arg) for arg in args]
                return [v.value for v in literals] if all(v.known for v in literals) else None
            if head == "Optional":
                return joined([None], self._choices(module, args[0], depth + 1))
            if head == "Annotated" and args:
                return self._choices(module, args[0], depth + 1)
            if head == "Union":
                result: list[Any] | None = []
                for arg in args:
                    result = joined(result, self._choices(module, arg, depth + 1))
                return result
        return None

    def _kinds(
        self,
        module: str,
        expr: Expr,
        kinds: set[str],
        models: list[tuple[str | None, Symbol]],
        marker: str | None,
        depth: int,
    ) -> bool:
        """Add the categories of a type to ``kinds``; True if any part is unknown."""
        if depth > 10:
            return True
        d = depth + 1
        kind = expr[0]
        if kind == "c":
            if expr[1] is None:
                kinds.add("null")
                return False
            if isinstance(expr[1], str):  # a forward reference
                parsed = parse_annotation(expr[1])
                return parsed is None or self._kinds(module, parsed, kinds, models, marker, d)
            return True
        if kind == "b" and expr[1] == "|":
            left = self._kinds(module, expr[2], kinds, models, marker, d)
            right = self._kinds(module, expr[3], kinds, models, marker, d)
            return left or right
        if kind == "n":
            alias = self._alias(self.project.resolve(module, expr[1]))
            if alias is not None and self._choices(alias[0], alias[1], d) is not None:
                # An alias of values (``Order = Literal["a", "b"]``); one of
                # models is not followed (their union is not one model).
                return self._kinds(alias[0], alias[1], kinds, models, marker, d)
            return self._named_kind(module, expr[1], kinds, models, marker)
        if kind == "sub" and expr[1][0] == "n":
            head = last_name(expr[1][1])
            args = expr[2][2] if expr[2][0] == "seq" and expr[2][1] == "tuple" else [expr[2]]
            if head == "Optional":
                kinds.add("null")
                return self._kinds(module, args[0], kinds, models, marker, d)
            if head == "Union":
                # Every member adds its kinds: a list, not a lazy generator.
                return any([self._kinds(module, arg, kinds, models, marker, d) for arg in args])
            if head == "Annotated" and args:
                return self._kinds(module, args[0], kinds, models, marker, d)
            if head == "Literal":
                for arg in args:
                    value = self.project.evaluate(module, arg)
                    if not value.known:
                        return True
                    kinds.add(value_kind(value.value))
                return False
            container = _TYPING_CONTAINERS.get(head)
            if container is not None:
                kinds.add(container)
                if not args:
                    # ``tuple[()]``: a container of nothing to follow.
                    return False
                item = args[-1] if container == "dict" else args[0]
                sub_marker = ANY_KEY if container == "dict" else LIST_ITEM
                sub_models: list[tuple[str | None, Symbol]] = []
                self._kinds(module, item, set(), sub_models, sub_marker, d)
                models.extend((sub_marker, s) for _, s in sub_models)
                return False
            return True
        return True

    def _alias(self, symbol: Symbol | None) -> tuple[str, Expr] | None:
        """The expression a module's constant names, and its module: a type
        where it is a type alias (``Order = Literal["a", "b"]``)."""
        if symbol is None or symbol.kind != "const":
            return None
        expr = self.project.modules[symbol.module].facts.assigns.get(symbol.qualname)
        return None if expr is None else (symbol.module, expr)

    def _named_kind(
        self,
        module: str,
        name: str,
        kinds: set[str],
        models: list[tuple[str | None, Symbol]],
        marker: str | None,
    ) -> bool:
        last = last_name(name)
        symbol = self.project.resolve(module, name)
        if symbol is None or symbol.kind == "external":
            kind = _SCALAR_KINDS.get(last) or _TYPING_CONTAINERS.get(last)
            if symbol is not None and symbol.qualname in ("pathlib.Path", "os.PathLike"):
                kind = kind or "str"
            if kind is None:
                return True
            kinds.add(kind)
            return False
        if symbol.kind != "class":
            return True
        if self.model(symbol) is not None:
            kinds.add("dict")
            models.append((marker, symbol))
            # A model that turns other values into itself (v1's
            # ``__get_validators__``, a core-schema hook, a root validator
            # that runs first) accepts more than a dict: its type is unknown.
            return self._coerces(symbol)
        for ancestor in self.project.mro(symbol):
            if ancestor.kind == "external" and ancestor.qualname in _SCALAR_KINDS:
                kinds.add(_SCALAR_KINDS[ancestor.qualname])
                return False
        if self.project.inherits_external(symbol, ENUM_BASES):
            known = [member for member in self._members(symbol) if member.known]
            kinds.update(value_kind(member.value) for member in known)
            return not known
        return True

    def _members(self, symbol: Symbol) -> list[Value]:
        """The values of an enum's public members, known or not."""
        cls = self.project.class_fact(symbol)
        assigns = cls.assigns.items() if cls else ()
        return [
            self.project.evaluate(symbol.module, v) for a, v in assigns if not a.startswith("_")
        ]

    def _coerces(self, symbol: Symbol) -> bool:
        info = self.model(symbol)
        if info is not None and "*" in info.before_validated:
            return True
        return any(
            f"{ancestor.qualname}.{hook}" in self.project.modules[ancestor.module].facts.functions
            for ancestor in self.project.mro(symbol)
            if ancestor.kind == "class"
            for hook in ("__get_validators__", "__get_pydantic_core_schema__")
        )


def described(kwargs: dict[str, Expr]) -> bool:
    """Does a field call describe its field (``Field(description=...)``,
    ``field(metadata={"help": ...})``, ``Field(json_schema_extra={"description":
    ...})``, ``help=``)?"""
    if any(kwargs.get(k) for k in ("description", "help", "doc", "desc")):
        return True
    return any(
        metadata
        and metadata[0] == "dict"
        and any(k[0] == "c" and k[1] in ("help", "description") for k, _ in metadata[1])
        for metadata in (kwargs.get("metadata"), kwargs.get("json_schema_extra"))
    )
