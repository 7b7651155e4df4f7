"""Reading models statically: which classes are config models, and what their
fields accept (names, aliases, types, defaults, deprecation, strictness).

Models are pydantic models (v1 and v2 spellings) and dataclasses. Nothing is
imported: classes, fields and options are read from the extracted facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from configdrift.extract.python.facts import ClassFact, Expr, FieldFact
from configdrift.model import ANY_KEY, LIST_ITEM, ConfigPath, Location, SchemaNode, TypeInfo, Value
from configdrift.resolve.project import Project, Symbol, render

PYDANTIC_BASES = frozenset(
    {
        "pydantic.BaseModel",
        "pydantic.main.BaseModel",
        "pydantic.v1.BaseModel",
        "pydantic.v1.main.BaseModel",
        "pydantic_settings.BaseSettings",
        "pydantic.BaseSettings",
    }
)
#: Settings classes: fed from the environment, ``.env`` files and keywords.
SETTINGS_BASES = frozenset({"pydantic_settings.BaseSettings", "pydantic.BaseSettings"})
DATACLASS_DECORATORS = frozenset(
    {
        "dataclasses.dataclass",
        "pydantic.dataclasses.dataclass",
        "pydantic.v1.dataclasses.dataclass",
    }
)
#: attrs classes take their fields as keywords as dataclasses do. Projects
#: use them for much internal data (replication rows, events): an attrs
#: class is a model where a model holds it as a field or ``mount`` names
#: it, never mounted because some code builds it from a dict.
ATTRS_DECORATORS = frozenset(
    {
        "attr.s",
        "attr.attrs",
        "attr.define",
        "attr.frozen",
        "attr.mutable",
        "attrs.define",
        "attrs.frozen",
        "attrs.mutable",
    }
)
#: A TypedDict only describes a dict to a type checker: at run time any key
#: passes, so it rejects nothing for sure.
TYPED_DICT_BASES = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
#: A NamedTuple built with ``**d`` rejects an unknown key (a TypeError).
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
#: MkDocs' config classes: each option a class attribute built by a
#: ``config_options`` constructor (``enabled = c.Type(bool, default=True)``).
MKDOCS_BASES = frozenset({"mkdocs.config.base.Config", "mkdocs.config.Config"})
#: A plugin that declares its options the old way: ``config_scheme = (("name",
#: config_options.Type(...)), ...)``.
MKDOCS_PLUGIN_BASES = frozenset({"mkdocs.plugins.BasePlugin"})
_MKDOCS_OPTIONS = "mkdocs.config.config_options."
#: Kinds of model whose fields are option objects (descriptors) assigned as
#: class attributes, not annotated fields.
DESCRIPTOR_KINDS = frozenset({"mkdocs", "traitlets"})
_TRAIT_KINDS = {
    "Unicode": "str",
    "CUnicode": "str",
    "Bytes": "str",
    "ObjectName": "str",
    "DottedObjectName": "str",
    "Integer": "int",
    "Int": "int",
    "CInt": "int",
    "Long": "int",
    "CLong": "int",
    "Float": "float",
    "CFloat": "float",
    "Bool": "bool",
    "CBool": "bool",
    "List": "list",
    "Tuple": "list",
    "Set": "list",
    "Dict": "dict",
    "Enum": "",
    "CaselessStrEnum": "str",
    "UseEnum": "",
}
_MKDOCS_KINDS = {
    "File": "str",
    "Dir": "str",
    "FilesystemObject": "str",
    "URL": "str",
    "ListOfItems": "list",
    "ListOfPaths": "list",
    "DictOfItems": "dict",
    "MarkdownExtensions": "list",
    "Plugins": "list",
}
FIELD_FUNCTIONS = frozenset(
    {
        "pydantic.Field",
        "pydantic.fields.Field",
        "pydantic.v1.Field",
        "pydantic.v1.fields.Field",
        "dataclasses.field",
        "attr.ib",
        "attr.attrib",
        "attr.field",
        "attrs.field",
    }
)
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
_TYPING_CONTAINERS = {
    "Dict": "dict",
    "dict": "dict",
    "Mapping": "dict",
    "MutableMapping": "dict",
    "OrderedDict": "dict",
    "DefaultDict": "dict",
    "List": "list",
    "list": "list",
    "Sequence": "list",
    "Tuple": "list",
    "tuple": "list",
    "Set": "list",
    "set": "list",
    "FrozenSet": "list",
    "frozenset": "list",
    "Iterable": "list",
}
_UNKNOWN_TYPES = frozenset({"Any", "object", "Callable", "Type", "type"})


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
    #: A settings class's ``env_prefix`` ("" when it has none); None for
    #: other models. Its fields are also spelt as environment variables.
    env_prefix: str | None = None


@dataclass(slots=True)
class TypeFacts:
    info: TypeInfo
    models: list[tuple[str | None, Symbol]] = field(default_factory=list)


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class ModelReader:
    """Models and their fields, resolved on demand and remembered."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._models: dict[Symbol, ModelInfo | None] = {}
        self._packages: set[str] | None = None
        #: Models being filled down the current path, with how often.
        self._filling: dict[Symbol, int] = {}

    # -- models --------------------------------------------------------------

    def imported(self, package: str) -> bool:
        """Does any module of the project import ``package`` (or a module
        of it)? A cheap gate before looking for what only it defines."""
        if self._packages is None:
            self._packages = {
                fact.module.split(".")[0]
                for info in self.project.modules.values()
                for fact in info.facts.imports
                if fact.level == 0
            }
        return package in self._packages

    def known_models(self) -> list[ModelInfo]:
        """The models resolved so far (every model the tree or a lookup met)."""
        return [info for info in self._models.values() if info is not None]

    def model(self, symbol: Symbol) -> ModelInfo | None:
        if symbol in self._models:
            return self._models[symbol]
        self._models[symbol] = None
        info = self._model(symbol)
        self._models[symbol] = info
        return info

    def _model(self, symbol: Symbol) -> ModelInfo | None:
        project = self.project
        cls = project.class_fact(symbol)
        if cls is None:
            return None
        kind = None
        # The class's external bases, walked once for every kind's test.
        external = {s.qualname for s in project.mro(symbol) if s.kind == "external"}
        if external & PYDANTIC_BASES:
            kind = "pydantic"
        elif self._is_dataclass(symbol.module, cls, DATACLASS_DECORATORS):
            kind = "dataclass"
        elif self._is_dataclass(symbol.module, cls, ATTRS_DECORATORS):
            kind = "attrs"
        elif external & TYPED_DICT_BASES:
            kind = "typeddict"
        elif external & NAMED_TUPLE_BASES:
            kind = "namedtuple"
        elif external & MKDOCS_BASES or (
            "config_scheme" in cls.assigns and external & MKDOCS_PLUGIN_BASES
        ):
            kind = "mkdocs"
        elif self.imported("traitlets") and any(
            self._descriptor(ancestor.module, "traitlets", value) is not None
            for ancestor in project.mro(symbol)
            if ancestor.kind == "class" and (fact := project.class_fact(ancestor)) is not None
            for value in fact.assigns.values()
        ):
            kind = "traitlets"
        if kind is None:
            return None
        mro = [s for s in project.mro(symbol) if s.kind == "class"]
        # MkDocs reports an option a plugin does not declare (an error with
        # ``--strict``); traitlets warns and goes on.
        strict = kind in ("dataclass", "attrs", "mkdocs", "namedtuple")
        strict_location: Location | None = (
            project.location(symbol.module, cls.line) if strict else None
        )
        strict_owner: str | None = symbol.qualname if strict else None
        populate = False
        settings = kind == "pydantic" and bool(external & SETTINGS_BASES)
        env_prefix: str | None = None
        if settings:
            prefix = self._config_value(mro, ("env_prefix",))
            env_prefix = prefix[0] if prefix is not None and isinstance(prefix[0], str) else ""
        if kind == "pydantic":
            extra = self._config_value(mro, ("extra",))
            if extra is not None:
                value, owner, line = extra
                strict = value == "forbid"
                strict_owner = owner.qualname
                strict_location = project.location(owner.module, line)
            elif settings and self._config_value(mro, ("env_file",)) is not None:
                # pydantic-settings forbids unknown keys unless told otherwise
                # (in a .env file); an unknown environment variable is not read.
                strict = True
                strict_owner = symbol.qualname
                strict_location = project.location(symbol.module, cls.line)
            elif settings:
                strict = False
            by_name = self._config_value(
                mro, ("populate_by_name", "validate_by_name", "allow_population_by_field_name")
            )
            populate = bool(by_name and by_name[0] is True)
        fields: dict[str, tuple[str, FieldFact]] = {}
        before: set[str] = set()
        for ancestor in reversed(mro):
            fact = project.class_fact(ancestor)
            if fact is None:
                continue
            before.update(fact.before_validated)
            found = (
                self._descriptor_fields(ancestor.module, fact, kind)
                if kind in DESCRIPTOR_KINDS
                else [*fact.fields, *self._attrib_fields(ancestor.module, fact)]
            )
            for f in found:
                if f.name.startswith("_") or _is_classvar(f.annotation) or _is_model_config(f):
                    continue
                fields[f.name] = (ancestor.module, f)
        return ModelInfo(
            symbol,
            kind,
            project.location(symbol.module, cls.line),
            strict,
            strict_location,
            strict_owner,
            populate,
            list(fields.values()),
            frozenset(before),
            env_prefix,
        )

    def _attrib_fields(self, module: str, cls: ClassFact) -> list[FieldFact]:
        """attrs' unannotated fields: ``x = attr.ib(default=1)``."""
        out: list[FieldFact] = []
        for name, value in cls.assigns.items():
            if name.startswith("__line__") or value[0] != "call":
                continue
            if self._is_field_call(module, value):
                line_expr = cls.assigns.get("__line__" + name)
                line = line_expr[1] if line_expr else cls.line
                out.append(FieldFact(name, line, ["src", ""], value))
        return out

    def _descriptor_fields(self, module: str, cls: ClassFact, kind: str) -> list[FieldFact]:
        """Options assigned as class attributes: ``port = Integer(8888,
        config=True)``, ``enabled = c.Type(bool, default=True)``."""
        out: list[FieldFact] = []
        scheme = cls.assigns.get("config_scheme") if kind == "mkdocs" else None
        if scheme is not None and scheme[0] == "seq":
            line_expr = cls.assigns.get("__line__config_scheme")
            line = line_expr[1] if line_expr else cls.line
            for item in scheme[2]:
                if item[0] != "seq" or len(item[2]) != 2:
                    continue
                name = _string(self.project, module, item[2][0])
                if name and self._descriptor(module, kind, item[2][1]) is not None:
                    out.append(FieldFact(name, line, ["src", ""], item[2][1]))
        for name, value in cls.assigns.items():
            if name.startswith("__line__") or self._descriptor(module, kind, value) is None:
                continue
            line_expr = cls.assigns.get("__line__" + name)
            line = line_expr[1] if line_expr else cls.line
            out.append(FieldFact(name, line, ["src", ""], value))
        return out

    def _descriptor(self, module: str, kind: str, value: Expr) -> str | None:
        """The option constructor's name (``Type``, ``Unicode``) when
        ``value`` builds an option of ``kind``: a ``config_options`` call
        for MkDocs (``Private`` is not one users set); for traitlets, a
        trait tagged ``config=True``."""
        if value[0] != "call" or value[1][0] != "n":
            return None
        symbol = self.project.resolve(module, value[1][1])
        if symbol is None:
            return None
        if symbol.kind != "external":
            # A project's own option type (``log_level = _LogLevel(...)``,
            # ``tags_allowed = TagSet()``, a custom trait).
            if symbol.kind != "class":
                return None
            prefixes = (
                (_MKDOCS_OPTIONS, "mkdocs.config.base.BaseConfigOption")
                if kind == "mkdocs"
                else ("traitlets.",)
            )
            if not any(
                s.kind == "external" and s.qualname.startswith(prefixes)
                for s in self.project.mro(symbol)
            ):
                return None
            if kind == "traitlets" and value[3].get("config") != ["c", True]:
                return None
            return "custom"
        name = _last(symbol.qualname)
        if kind == "mkdocs":
            # ``config_options.Type``, or MkDocs' own option types elsewhere
            # (``mkdocs.config.defaults._LogLevel``).
            if (
                symbol.qualname.startswith("mkdocs.config.")
                and name not in ("Private", "Config")
                and symbol.qualname not in MKDOCS_BASES
            ):
                return name
            return None
        config = value[3].get("config")
        if symbol.qualname.startswith("traitlets.") and config == ["c", True]:
            return name
        return None

    def _descriptor_node(
        self, info: ModelInfo, module: str, fact: FieldFact, parent: ConfigPath, depth: int
    ) -> SchemaNode:
        """A field whose value is an option object: its type, choices and
        default from the constructor's arguments."""
        project = self.project
        value = fact.value
        assert value is not None
        node = SchemaNode(
            key=fact.name,
            path=(*parent, fact.name),
            spellings=(fact.name,),
            location=project.location(module, fact.line),
            origin=f"field of {info.symbol.qualname}",
            described=_described(value[3]) if value[0] == "call" else False,
        )
        self._describe(node, module, info.kind, value, depth)
        return node

    def _describe(self, node: SchemaNode, module: str, kind: str, call: Expr, depth: int) -> None:
        name = self._descriptor(module, kind, call) or ""
        args, kwargs = call[2], call[3]
        project = self.project
        if kind == "traitlets":
            text = _TRAIT_KINDS.get(name)
            if name in ("Enum", "CaselessStrEnum", "UseEnum") and args:
                choices = project.evaluate(module, args[0])
                if choices.known and isinstance(choices.value, list | tuple):
                    node.type = TypeInfo(name, frozenset(), tuple(choices.value))
                args = args[1:]
            elif text:
                node.type = TypeInfo(text, frozenset({text}))
            expr = args[0] if args else kwargs.get("default_value")
            if expr is not None:
                node.default = project.evaluate(module, expr)
            return
        if name == "Deprecated":
            node.deprecated = True
            moved = kwargs.get("moved_to")
            node.replacement = _string(project, module, moved) if moved else None
            return
        if name in ("Optional",) and args:
            if args[0][0] == "call":
                self._describe(node, module, kind, args[0], depth)
            node.default = Value.of(None, "None")
            return
        if name == "SubConfig" and args and args[0][0] == "n":
            symbol = project.resolve(module, args[0][1])
            if symbol is not None and self.model(symbol) is not None:
                self.fill(node, symbol, depth + 1)
        elif name == "Type" and args:
            kinds = self.type_facts(module, args[0]).info
            node.type = kinds
        elif name == "Choice" and args:
            choices = project.evaluate(module, args[0])
            if choices.known and isinstance(choices.value, list | tuple):
                node.type = TypeInfo("Choice", frozenset(), tuple(choices.value))
        elif name in _MKDOCS_KINDS:
            text = _MKDOCS_KINDS[name]
            node.type = TypeInfo(text, frozenset({text}))
        if "default" in kwargs:
            node.default = project.evaluate(module, kwargs["default"])

    def _is_dataclass(self, module: str, cls: ClassFact, names: frozenset[str]) -> bool:
        for deco in cls.decorators:
            target = deco[1] if deco[0] == "call" else deco
            if target[0] == "n" and self._is_dataclass_decorator(module, target[1], names, 0):
                return True
        return False

    def _is_dataclass_decorator(
        self, module: str, name: str, names: frozenset[str], depth: int
    ) -> bool:
        """One of ``names`` (``dataclass``), under any import name, or a
        project function that returns what it returns (a wrapper that sets
        the project's defaults)."""
        found = self.project.resolve(module, name)
        if found is None or depth > 4:
            return False
        if found.kind == "external":
            return found.qualname in names
        if found.kind != "function":
            return False
        facts = self.project.modules[found.module].facts
        return any(
            function == found.qualname
            and self._is_dataclass_decorator(found.module, callee, names, depth + 1)
            for function, callee in facts.return_calls
        )

    def _config_value(
        self, mro: list[Symbol], names: tuple[str, ...]
    ) -> tuple[object, Symbol, int] | None:
        """A model-config option, looked up through the class and its bases."""
        project = self.project
        for owner in mro:
            cls = project.class_fact(owner)
            if cls is None:
                continue
            for name in names:
                expr = cls.config_class.get(name)
                annotated = next(
                    (f for f in cls.fields if f.name == "model_config" and f.value), None
                )
                if expr is None:
                    config = cls.assigns.get("model_config")
                    if config is None and annotated is not None:
                        config = annotated.value  # model_config: ConfigDict = ConfigDict(...)
                    if config is not None:
                        expr = _option(config, name)
                if expr is not None:
                    line_expr = cls.assigns.get("__line__model_config")
                    line = (
                        line_expr[1]
                        if line_expr
                        else annotated.line
                        if annotated is not None
                        else cls.line
                    )
                    return self._option_value(owner.module, expr), owner, line
        return None

    def _option_value(self, module: str, expr: Expr) -> object:
        if expr[0] == "n" and expr[1] not in ("True", "False", "None"):
            return _last(expr[1])  # Extra.forbid
        value = self.project.evaluate(module, expr)
        return value.value if value.known else None

    # -- types ---------------------------------------------------------------

    def type_facts(self, module: str, annotation: Expr | None) -> TypeFacts:
        if annotation is None:
            return TypeFacts(TypeInfo(""))
        kinds: set[str] = set()
        models: list[tuple[str | None, Symbol]] = []
        unknown = self._kinds(module, annotation, kinds, models, None, 0)
        text = render(annotation)
        if unknown:
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
            return _joined(
                self._choices(module, expr[2], depth + 1),
                self._choices(module, expr[3], depth + 1),
            )
        if kind == "n":
            if _last(expr[1]) in ("None", "NoneType"):
                return [None]
            symbol = self.project.resolve(module, expr[1])
            if (
                symbol is None
                or symbol.kind != "class"
                or not self.project.inherits_external(symbol, ENUM_BASES)
            ):
                return None
            cls = self.project.class_fact(symbol)
            values: list[Any] = []
            for attr, value in cls.assigns.items() if cls else ():
                if attr.startswith("_"):
                    continue
                evaluated = self.project.evaluate(symbol.module, value)
                if not evaluated.known:
                    return None
                values.append(evaluated.value)
            return values or None
        if kind == "sub" and expr[1][0] == "n":
            head = _last(expr[1][1])
            args = expr[2][2] if expr[2][0] == "seq" and expr[2][1] == "tuple" else [expr[2]]
            if head == "Literal":
                out: list[Any] = []
                for arg in args:
                    literal = self.project.evaluate(module, arg)
                    if not literal.known:
                        return None
                    out.append(literal.value)
                return out
            if head == "Optional":
                return _joined([None], self._choices(module, args[0], depth + 1))
            if head == "Union":
                result: list[Any] | None = []
                for arg in args:
                    result = _joined(result, self._choices(module, arg, depth + 1))
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
                parsed = _parse_annotation(expr[1])
                return (
                    True
                    if parsed is None
                    else self._kinds(module, parsed, kinds, models, marker, d)
                )
            return True
        if kind == "b" and expr[1] == "|":
            left = self._kinds(module, expr[2], kinds, models, marker, d)
            right = self._kinds(module, expr[3], kinds, models, marker, d)
            return left or right
        if kind == "n":
            return self._named_kind(module, expr[1], kinds, models, marker)
        if kind == "sub" and expr[1][0] == "n":
            head = _last(expr[1][1])
            args = expr[2][2] if expr[2][0] == "seq" and expr[2][1] == "tuple" else [expr[2]]
            if head == "Optional":
                kinds.add("null")
                return self._kinds(module, args[0], kinds, models, marker, d)
            if head == "Union":
                unknown = False
                for arg in args:
                    unknown = self._kinds(module, arg, kinds, models, marker, d) or unknown
                return unknown
            if head == "Annotated":
                return self._kinds(module, args[0], kinds, models, marker, d)
            if head == "Literal":
                for arg in args:
                    if arg[0] == "c":
                        kinds.add(value_kind(arg[1]))
                    else:
                        value = self.project.evaluate(module, arg)
                        if not value.known:
                            return True
                        kinds.add(value_kind(value.value))
                return False
            container = _TYPING_CONTAINERS.get(head)
            if container is not None:
                kinds.add(container)
                item = args[-1] if container == "dict" else args[0]
                sub_marker = ANY_KEY if container == "dict" else LIST_ITEM
                sub_models: list[tuple[str | None, Symbol]] = []
                self._kinds(module, item, set(), sub_models, sub_marker, d)
                models.extend((sub_marker, s) for _, s in sub_models)
                return False
            return True
        return True

    def _named_kind(
        self,
        module: str,
        name: str,
        kinds: set[str],
        models: list[tuple[str | None, Symbol]],
        marker: str | None,
    ) -> bool:
        last = _last(name)
        symbol = self.project.resolve(module, name)
        if symbol is None or symbol.kind == "external":
            if last in _SCALAR_KINDS:
                kinds.add(_SCALAR_KINDS[last])
                return False
            if last in _TYPING_CONTAINERS:
                kinds.add(_TYPING_CONTAINERS[last])
                return False
            if symbol is not None and symbol.qualname in ("pathlib.Path", "os.PathLike"):
                kinds.add("str")
                return False
            return True
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
            cls = self.project.class_fact(symbol)
            found = False
            for attr, value in cls.assigns.items() if cls else ():
                if attr.startswith("_"):
                    continue
                evaluated = self.project.evaluate(symbol.module, value)
                if evaluated.known:
                    kinds.add(value_kind(evaluated.value))
                    found = True
            return not found
        return True

    def _coerces(self, symbol: Symbol) -> bool:
        info = self.model(symbol)
        if info is not None and "*" in info.before_validated:
            return True
        for ancestor in self.project.mro(symbol):
            if ancestor.kind != "class":
                continue
            functions = self.project.modules[ancestor.module].facts.functions
            if any(
                f"{ancestor.qualname}.{hook}" in functions
                for hook in ("__get_validators__", "__get_pydantic_core_schema__")
            ):
                return True
        return False

    # -- fields --------------------------------------------------------------

    def field_node(
        self, info: ModelInfo, module: str, fact: FieldFact, parent: ConfigPath, depth: int
    ) -> SchemaNode:
        if info.kind in DESCRIPTOR_KINDS:
            return self._descriptor_node(info, module, fact, parent, depth)
        project = self.project
        call = (
            fact.value
            if fact.value and fact.value[0] == "call" and self._is_field_call(module, fact.value)
            else None
        )
        kwargs: dict[str, Expr] = call[3] if call else {}
        spellings: list[str] = []
        path_aliases: list[str] = []
        alias = _string(project, module, kwargs.get("alias"))
        validation = kwargs.get("validation_alias")
        if validation is not None:
            spellings.extend(self._alias_choices(module, validation, path_aliases))
        elif alias is not None:
            spellings.append(alias)
        if not spellings or info.populate_by_name or info.kind not in ("pydantic",):
            spellings.insert(0, fact.name)
        if info.env_prefix is not None:
            # The environment variable: the prefix and the name, in any case
            # (pydantic-settings matches them case-insensitively); an alias
            # is taken as it is.
            env = [a.upper() for a in spellings if a != fact.name]
            env.append((info.env_prefix + fact.name).upper())
            spellings.extend(e for e in env if e not in spellings)
        default = self._default(module, fact, call)
        deprecated, replacement = self._deprecation(module, kwargs)
        types = self.type_facts(module, fact.annotation)
        if "converter" in kwargs:
            # attrs converts the value first: what it accepts is not its type.
            types = TypeFacts(TypeInfo(types.info.text), types.models)
        path = (*parent, fact.name)
        node = SchemaNode(
            key=fact.name,
            path=path,
            spellings=tuple(dict.fromkeys(spellings)),
            path_aliases=tuple(path_aliases),
            type=types.info,
            default=default,
            location=project.location(module, fact.line),
            deprecated=deprecated,
            replacement=replacement,
            origin=f"field of {info.symbol.qualname}",
            described=fact.docstring or _described(kwargs),
            checked=info.kind == "pydantic"
            and not {"*", fact.name} & info.before_validated
            and not _has_validator(fact.annotation),
        )
        factory = kwargs.get("default_factory")
        nested = list(types.models)
        if factory is not None and factory[0] == "n" and not nested:
            symbol = project.resolve(module, factory[1])
            if symbol is not None and self.model(symbol) is not None:
                nested.append((None, symbol))
        for marker, symbol in nested:
            self._attach(node, marker, symbol, depth)
        return node

    def _attach(self, node: SchemaNode, marker: str | None, symbol: Symbol, depth: int) -> None:
        if marker is None:
            self.fill(node, symbol, depth + 1)
            return
        child = node.children.get(marker)
        if child is None:
            child = SchemaNode(
                key=marker, path=(*node.path, marker), spellings=(marker,), origin="item"
            )
            node.children[marker] = child
            node.strict = None
        self.fill(child, symbol, depth + 1)

    def _is_field_call(self, module: str, call: Expr) -> bool:
        func = call[1]
        if func[0] != "n":
            return False
        symbol = self.project.resolve(module, func[1])
        return (
            symbol is not None and symbol.kind == "external" and symbol.qualname in FIELD_FUNCTIONS
        )

    def _alias_choices(self, module: str, expr: Expr, path_aliases: list[str]) -> list[str]:
        if expr[0] == "call" and expr[1][0] == "n":
            head = _last(expr[1][1])
            if head == "AliasChoices":
                out: list[str] = []
                for arg in expr[2]:
                    out.extend(self._alias_choices(module, arg, path_aliases))
                return out
            if head == "AliasPath":
                first = _string(self.project, module, expr[2][0]) if expr[2] else None
                if first and len(expr[2]) > 1:
                    path_aliases.append(first)
                return [first] if first else []
        value = _string(self.project, module, expr)
        return [value] if value else []

    def _default(self, module: str, fact: FieldFact, call: Expr | None) -> Value | None:
        project = self.project
        if call is None:
            if fact.value is None:
                return None
            return project.evaluate(module, fact.value)
        args, kwargs = call[2], call[3]
        expr = args[0] if args else kwargs.get("default")
        if expr is not None:
            if expr[0] == "src" and expr[1] == "...":
                return None
            return project.evaluate(module, expr)
        factory = kwargs.get("default_factory") or kwargs.get("factory")  # attrs: factory=
        if (
            factory is not None
            and factory[0] == "n"
            and factory[1] in ("list", "dict", "set", "tuple")
        ):
            empty: object = {"list": [], "dict": {}, "set": [], "tuple": []}[factory[1]]
            return Value.of(empty, f"{factory[1]}()")
        if factory is not None:
            return Value.unknown(f"{render(factory)}()")
        return None

    def _deprecation(self, module: str, kwargs: dict[str, Expr]) -> tuple[bool, str | None]:
        flag = kwargs.get("deprecated")
        if flag is not None:
            value = self.project.evaluate(module, flag)
            if value.known and value.value not in (False, None):
                return True, None
        extra = kwargs.get("json_schema_extra")
        if extra is not None and extra[0] == "dict":
            items = {_string(self.project, module, k): v for k, v in extra[1]}
            dep = items.get("deprecated")
            if dep is not None:
                value = self.project.evaluate(module, dep)
                if value.known and value.value:
                    new = items.get("new_param")
                    return True, _string(self.project, module, new) if new else None
        return False, None

    # -- tree ----------------------------------------------------------------

    def fill(self, node: SchemaNode, symbol: Symbol, depth: int = 0, direct: bool = False) -> None:
        """Give ``node`` the fields of the model ``symbol`` as children.

        ``direct`` says the code calls the model with ``**dict``. A pydantic
        model enforces its ``extra`` policy however it is built; a dataclass
        rejects unknown keys only when called with ``**dict``: built by a
        ``from_dict`` of its own, or nested in another model, nothing is
        known about unknown keys.
        """
        info = self.model(symbol)
        if info is None or depth > 12:
            return
        strict: bool | None = info.strict
        if (info.kind in ("dataclass", "attrs", "namedtuple") and not direct) or (
            info.kind == "typeddict"
        ):
            strict = None
        if node.model is not None and node.model != info.symbol.qualname:
            # Two models at one path (a Union): a key is accepted if either
            # accepts it, so the node is only strict if both are.
            node.strict = bool(node.strict and strict)
            node.model_symbol = None
        else:
            if info.kind == "pydantic" and node.model is None:
                node.model_symbol = (info.symbol.module, info.symbol.qualname)
            node.model_kind = node.model_kind or info.kind
            node.strict = strict
            node.strict_location = info.strict_location if strict else None
            node.strict_owner = info.strict_owner if strict else None
        node.model = node.model or info.symbol.qualname
        node.model_location = node.model_location or info.location
        if node.type.text == "":
            node.type = TypeInfo(info.symbol.qualname, frozenset({"dict"}))
        if self._filling.get(symbol, 0) >= 2:
            # A recursive model (a tree of itself) is expanded twice down one
            # path: past that, nothing is known about the keys.
            node.strict = None
            return
        self._filling[symbol] = self._filling.get(symbol, 0) + 1
        try:
            lineage = {n for n in node.path}
            for module, fact in info.fields:
                if fact.name in node.children:
                    continue
                if depth > 8 and fact.name in lineage:
                    continue
                node.children[fact.name] = self.field_node(info, module, fact, node.path, depth)
        finally:
            self._filling[symbol] -= 1


def _described(kwargs: dict[str, Expr]) -> bool:
    """Does a field call describe its field (``Field(description=...)``,
    ``field(metadata={"help": ...})``, ``help=``)?"""
    if any(kwargs.get(k) for k in ("description", "help", "doc", "desc")):
        return True
    metadata = kwargs.get("metadata")
    return bool(
        metadata
        and metadata[0] == "dict"
        and any(k[0] == "c" and k[1] in ("help", "description") for k, _ in metadata[1])
    )


def _option(config: Expr, name: str) -> Expr | None:
    if config[0] == "call":
        return config[3].get(name)  # type: ignore[no-any-return]
    if config[0] == "dict":
        for k, v in config[1]:
            if k[0] == "c" and k[1] == name:
                return v  # type: ignore[no-any-return]
    return None


def _is_model_config(fact: FieldFact) -> bool:
    """pydantic v2's ``model_config: ConfigDict = ...`` is the model's own
    configuration; in a v1 model, ``model_config: ModelConfig`` is a field."""
    if fact.name != "model_config":
        return False
    head = fact.annotation[1] if fact.annotation[0] == "sub" else fact.annotation
    return head[0] != "n" or _last(head[1]) in ("ConfigDict", "SettingsConfigDict", "dict", "Dict")


def _is_classvar(annotation: Expr) -> bool:
    head = annotation[1] if annotation[0] == "sub" else annotation
    return head[0] == "n" and _last(head[1]) in ("ClassVar", "InitVar")


def _has_validator(annotation: Expr | None) -> bool:
    """Does an ``Annotated[...]`` type carry a validator that runs first?"""
    text = render(annotation) if annotation is not None else ""
    return any(name in text for name in ("BeforeValidator", "WrapValidator", "PlainValidator"))


def _joined(left: list[Any] | None, right: list[Any] | None) -> list[Any] | None:
    return None if left is None or right is None else left + right


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


def _string(project: Project, module: str, expr: Expr | None) -> str | None:
    return None if expr is None else project.string(module, expr)


def _parse_annotation(text: str) -> Expr | None:
    import ast

    from configdrift.extract.python.exprs import to_expr

    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return to_expr(node, text)
