"""Reading models statically: which classes are config models, and what their
fields accept (names, aliases, types, defaults, deprecation, strictness).

Models are pydantic models (v1 and v2 spellings) and dataclasses. Nothing is
imported: classes, fields and options are read from the extracted facts.
"""

from __future__ import annotations

from dataclasses import replace

from configdrift.extract.python.exprs import assigned, attrs_alias, has_validator, render
from configdrift.extract.python.facts import ClassFact, Expr, FieldFact
from configdrift.extract.python.help_texts import replacement_named
from configdrift.model import ConfigPath, SchemaNode, TypeInfo, Value
from configdrift.resolve.model_descriptors import (
    DESCRIPTOR_KINDS,
    MKDOCS_BASES,
    MKDOCS_PLUGIN_BASES,
    DescriptorReader,
)
from configdrift.resolve.model_types import (
    ModelInfo,
    TypeFacts,
    described,
    last_name,
    string_of,
)
from configdrift.resolve.project import Project, Symbol

#: Settings classes: fed from the environment, ``.env`` files and keywords.
SETTINGS_BASES = frozenset({"pydantic_settings.BaseSettings", "pydantic.BaseSettings"})
PYDANTIC_BASES = SETTINGS_BASES | {
    "pydantic.BaseModel",
    "pydantic.main.BaseModel",
    "pydantic.v1.BaseModel",
    "pydantic.v1.main.BaseModel",
}
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
#: Bases that bring a class no fields.
PLAIN_BASES = frozenset(
    {"object", "typing.Generic", "typing.Protocol", "abc.ABC", "typing_extensions.Protocol"}
)
#: A NamedTuple built with ``**d`` rejects an unknown key (a TypeError).
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
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


class ModelReader(DescriptorReader):
    """Models and their fields, resolved on demand and remembered."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._models: dict[Symbol, ModelInfo | None] = {}
        self._packages: set[str] | None = None
        #: Models being filled down the current path, with how often.
        self._filling: dict[Symbol, int] = {}
        #: The last names of the project's classes, once asked.
        self._own_class_names: set[str] | None = None

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
        if symbol not in self._models:
            self._models[symbol] = None  # guards recursion, as ``Project.lookup`` does
            self._models[symbol] = self._model(symbol)
        return self._models[symbol]

    def _model(self, symbol: Symbol) -> ModelInfo | None:
        project = self.project
        cls = project.class_fact(symbol)
        if cls is None:
            return None
        kind = None
        # The class's external bases, walked once for every kind's test.
        # A library's own repository declares its bases itself (MkDocs's
        # ``mkdocs.config.base.Config``): they count by their full names too.
        external = {project.full_name(s) for s in project.mro(symbol)[1:]}
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
        location = project.location(symbol.module, cls.line)
        strict = kind in ("dataclass", "attrs", "mkdocs", "namedtuple")
        strict_location = location if strict else None
        strict_owner = symbol.qualname if strict else None
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
                strict, strict_owner, strict_location = True, symbol.qualname, location
            elif settings:
                strict = False
            by_name = self._config_value(
                mro, ("populate_by_name", "validate_by_name", "allow_population_by_field_name")
            )
            populate = bool(by_name and by_name[0] is True)
        fields: dict[str, tuple[str, FieldFact]] = {}
        before: set[str] = set()
        rewritten: set[str] = set()
        for ancestor in reversed(mro):
            fact = project.class_fact(ancestor)
            if fact is None:
                continue
            before.update(fact.before_validated)
            rewritten.update(fact.rewritten)
            found = (
                self._descriptor_fields(ancestor.module, fact, kind)
                if kind in DESCRIPTOR_KINDS
                else [*fact.fields, *self._attrib_fields(ancestor.module, fact)]
            )
            for f in found:
                if kind == "attrs" and f.name.startswith("_"):
                    # attrs takes ``_package_name`` as ``package_name=`` (or its ``alias=``).
                    call = self._field_call(ancestor.module, f)
                    f = replace(f, name=attrs_alias(call) or f.name.lstrip("_"))
                if _no_key(kind, f):
                    continue
                if kind in ("dataclass", "attrs") and self._not_in_init(ancestor.module, f):
                    continue  # ``field(init=False)``: no keyword sets it
                fields[f.name] = (ancestor.module, f)
        return ModelInfo(
            symbol,
            kind,
            location,
            strict,
            strict_location,
            strict_owner,
            populate,
            list(fields.values()),
            frozenset(before),
            frozenset(rewritten),
            env_prefix,
        )

    def _attrib_fields(self, module: str, cls: ClassFact) -> list[FieldFact]:
        """attrs' unannotated fields: ``x = attr.ib(default=1)``."""
        return [
            FieldFact(name, line, ["src", ""], value)
            for name, value, line in assigned(cls)
            if value[0] == "call" and self._is_field_call(module, value)
        ]

    def inherits_unknown_fields(self, symbol: Symbol) -> bool:
        """Does a dataclass or attrs class inherit from a class outside the
        project (``TrainingArguments``), whose fields are not known? A
        mixin (``PushToHubMixin``) brings methods, and a base the project
        declares under that name is its own, though its import was not
        followed (``from template import NeoXArgsTemplate``)."""
        info = self.model(symbol)
        if info is None or info.kind not in ("dataclass", "attrs"):
            return False
        if self._own_class_names is None:
            self._own_class_names = {
                s.qualname.rpartition(".")[2] for s in self.project.class_symbols()
            }
        own = self._own_class_names
        return any(
            base.kind == "external"
            and base.qualname not in PLAIN_BASES
            and not (name := base.qualname.rpartition(".")[2]).endswith("Mixin")
            and name not in own
            for base in self.project.mro(symbol)
        )

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
        return any(
            function == found.qualname
            and self._is_dataclass_decorator(found.module, callee, names, depth + 1)
            for function, callee in self.project.modules[found.module].facts.return_calls
        )

    def _config_value(
        self, mro: list[Symbol], names: tuple[str, ...]
    ) -> tuple[object, Symbol, int] | None:
        """A model-config option, looked up through the class and its bases."""
        for owner in mro:
            cls = self.project.class_fact(owner)
            if cls is None:
                continue
            annotated = next((f for f in cls.fields if f.name == "model_config" and f.value), None)
            config = cls.assigns.get("model_config")
            if config is None and annotated is not None:
                config = annotated.value  # model_config: ConfigDict = ConfigDict(...)
            marker = cls.assigns.get("__line__model_config")
            line = marker[1] if marker else annotated.line if annotated is not None else cls.line
            for name in names:
                expr = cls.config_class.get(name)
                if expr is None and config is not None:
                    expr = _option(config, name)
                if expr is None:
                    continue
                if expr[0] == "n" and expr[1] not in ("True", "False", "None"):
                    return last_name(expr[1]), owner, line  # Extra.forbid
                value = self.project.evaluate(owner.module, expr)
                return value.value if value.known else None, owner, line
        return None

    # -- fields --------------------------------------------------------------

    def field_node(
        self, info: ModelInfo, module: str, fact: FieldFact, parent: ConfigPath, depth: int
    ) -> SchemaNode:
        if info.kind in DESCRIPTOR_KINDS:
            return self._descriptor_node(info, module, fact, parent, depth)
        project = self.project
        call = self._field_call(module, fact)
        kwargs: dict[str, Expr] = call[3] if call else {}
        spellings: list[str] = []
        path_aliases: list[str] = []
        alias = string_of(project, module, kwargs.get("alias"))
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
        if not deprecated and fact.deprecation:
            # ``# Deprecated: use `lint.args` instead.`` above the field.
            deprecated, replacement = True, replacement_named(fact.deprecation)
        types = self.type_facts(module, fact.annotation)
        if "converter" in kwargs:
            # attrs converts the value first: what it accepts is not its type.
            types = TypeFacts(TypeInfo(types.info.text), types.models)
        node = SchemaNode(
            key=fact.name,
            path=(*parent, fact.name),
            spellings=tuple(dict.fromkeys(spellings)),
            path_aliases=tuple(path_aliases),
            type=types.info,
            default=default,
            location=project.location(module, fact.line),
            deprecated=deprecated,
            replacement=replacement,
            origin=f"field of {info.symbol.qualname}",
            # A dataclass's ``_name`` is a keyword, though none for users to learn.
            hidden=fact.name.startswith("_"),
            described=fact.docstring or described(kwargs),
            checked=info.kind == "pydantic"
            and not {"*", fact.name} & info.before_validated
            and not has_validator(fact.annotation),
        )
        factory = kwargs.get("default_factory")
        nested = list(types.models)
        if factory is not None and factory[0] == "n" and not nested:
            symbol = project.resolve(module, factory[1])
            if symbol is not None and self.model(symbol) is not None:
                nested.append((None, symbol))
        for marker, symbol in nested:
            # A model of a list's items or of a dict's values (``list[Model]``)
            # fills a node below the field's.
            if marker is not None and marker not in node.children:
                node.children[marker] = SchemaNode(
                    key=marker, path=(*node.path, marker), spellings=(marker,), origin="item"
                )
                node.strict = None
            self.fill(node if marker is None else node.children[marker], symbol, depth + 1)
        if fact.name in info.rewritten:
            # A validator writes it anew before its model sees it (drops a
            # prefix of its keys): what the input sets below is not known.
            for below in node.walk():
                below.strict = None
        return node

    def _not_in_init(self, module: str, fact: FieldFact) -> bool:
        """Is a dataclass's or attrs class's field left out of its
        ``__init__`` (``field(init=False)``, ``attrs.field(init=False)``)?"""
        call = self._field_call(module, fact)
        return call is not None and call[3].get("init") == ["c", False]

    def field_default(self, module: str, fact: FieldFact) -> Value | None:
        """A field's default as its model gives it (through ``Field(...)``,
        ``field(default=...)``); None where it has none."""
        return self._default(module, fact, self._field_call(module, fact))

    def _field_call(self, module: str, fact: FieldFact) -> Expr | None:
        """The field function a field's value calls (``Field(8, ...)``), if any."""
        value = fact.value
        if value and value[0] == "call" and self._is_field_call(module, value):
            return value
        return None

    def _is_field_call(self, module: str, call: Expr) -> bool:
        return call[1][0] == "n" and self.project.external(module, call[1][1]) in FIELD_FUNCTIONS

    def _alias_choices(self, module: str, expr: Expr, path_aliases: list[str]) -> list[str]:
        if expr[0] == "call" and expr[1][0] == "n":
            head = last_name(expr[1][1])
            if head == "AliasChoices":
                return [
                    s for arg in expr[2] for s in self._alias_choices(module, arg, path_aliases)
                ]
            if head == "AliasPath":
                first = string_of(self.project, module, expr[2][0]) if expr[2] else None
                if first and len(expr[2]) > 1:
                    path_aliases.append(first)
                return [first] if first else []
        value = string_of(self.project, module, expr)
        return [value] if value else []

    def _default(self, module: str, fact: FieldFact, call: Expr | None) -> Value | None:
        project = self.project
        if call is None:
            return None if fact.value is None else project.evaluate(module, fact.value)
        args, kwargs = call[2], call[3]
        expr = args[0] if args else kwargs.get("default")
        if expr is not None:
            if expr[0] == "src" and expr[1] == "...":
                return None
            return project.evaluate(module, expr)
        factory = kwargs.get("default_factory") or kwargs.get("factory")  # attrs: factory=
        if factory is None:
            return None
        if factory[0] == "n" and factory[1] in ("list", "dict", "set", "tuple"):
            empty: object = {"list": [], "dict": {}, "set": [], "tuple": []}[factory[1]]
            return Value.of(empty, f"{factory[1]}()")
        return Value.unknown(f"{render(factory)}()")

    def _deprecation(self, module: str, kwargs: dict[str, Expr]) -> tuple[bool, str | None]:
        value = self.project.evaluate(module, kwargs.get("deprecated"))
        if value.known and value.value not in (False, None):
            return True, None
        extra = kwargs.get("json_schema_extra")
        if extra is not None and extra[0] == "dict":
            items = {string_of(self.project, module, k): v for k, v in extra[1]}
            value = self.project.evaluate(module, items.get("deprecated"))
            if value.known and value.value:
                return True, string_of(self.project, module, items.get("new_param"))
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
        if (
            (info.kind in ("dataclass", "attrs", "namedtuple") and not direct)
            or info.kind == "typeddict"
            or self.inherits_unknown_fields(symbol)
        ):
            strict = None
        union = node.model is not None and node.model != info.symbol.qualname
        if union:
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
            for module, fact in info.fields:
                if fact.name in node.children:
                    if union:
                        # The other model's field of the same name: keys
                        # either of them takes below it are accepted.
                        _merge(
                            node.children[fact.name],
                            self.field_node(info, module, fact, node.path, depth),
                        )
                    continue
                if depth > 8 and fact.name in node.path:
                    continue
                node.children[fact.name] = self.field_node(info, module, fact, node.path, depth)
        finally:
            self._filling[symbol] -= 1


def _merge(into: SchemaNode, other: SchemaNode) -> None:
    """Join a field of a Union's other model to the field of that name:
    a key is accepted below it if either accepts it."""
    if not other.children:
        return
    if into.children or into.model:
        into.strict = bool(into.strict and other.strict)
    else:
        # A plain value in one model, a section of a model in the other.
        into.strict = None
        into.model, into.model_kind = other.model, other.model_kind
        into.model_location = other.model_location
    for key, child in other.children.items():
        if key in into.children:
            _merge(into.children[key], child)
        else:
            into.children[key] = child


def _option(config: Expr, name: str) -> Expr | None:
    if config[0] == "call":
        return config[3].get(name)  # type: ignore[no-any-return]
    if config[0] == "dict":
        return next((v for k, v in config[1] if k[0] == "c" and k[1] == name), None)
    return None


#: The types of pydantic v2's ``model_config``, the model's own configuration.
MODEL_CONFIGS = frozenset({"ConfigDict", "SettingsConfigDict", "dict", "Dict"})


def _no_key(kind: str, fact: FieldFact) -> bool:
    """Is a field no keyword: a ``ClassVar`` or ``InitVar``, pydantic v2's
    ``model_config`` (in v1, ``model_config: ModelConfig`` is a field) or
    private ``_name``? A dataclass's or TypedDict's ``_name`` is a keyword,
    but a name Python mangles (``__name``)."""
    head = fact.annotation[1] if fact.annotation[0] == "sub" else fact.annotation
    if fact.name.startswith("__" if kind in ("dataclass", "typeddict") else "_"):
        return True
    if head[0] == "n" and last_name(head[1]) in ("ClassVar", "InitVar"):
        return True
    return fact.name == "model_config" and (head[0] != "n" or last_name(head[1]) in MODEL_CONFIGS)
