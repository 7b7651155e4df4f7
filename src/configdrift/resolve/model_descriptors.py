"""Config classes of option objects: MkDocs config classes, whose options
are ``config_options`` descriptors (``c.Type(int, default=3)``), and
traitlets classes, whose traits are tagged ``config=True``; each option a
field with its type, default and description."""

from __future__ import annotations

from configdrift.extract.python.exprs import assigned
from configdrift.extract.python.facts import ClassFact, Expr, FieldFact
from configdrift.model import ConfigPath, SchemaNode, TypeInfo, Value
from configdrift.resolve.model_types import (
    ModelInfo,
    TypeReader,
    described,
    last_name,
    mark_deprecated,
    string_of,
)
from configdrift.resolve.project import Symbol

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


#: The kind of value each of traitlets' traits holds (an enum's, from its choices).
_TRAIT_KINDS = {
    **dict.fromkeys(("Unicode", "CUnicode", "Bytes", "ObjectName", "DottedObjectName"), "str"),
    **dict.fromkeys(("Integer", "Int", "CInt", "Long", "CLong"), "int"),
    **dict.fromkeys(("Float", "CFloat"), "float"),
    **dict.fromkeys(("Bool", "CBool"), "bool"),
    **dict.fromkeys(("List", "Tuple", "Set"), "list"),
    "Dict": "dict",
    "CaselessStrEnum": "str",
}


#: The kind of value each of MkDocs' option types holds (``Type`` says its own).
_MKDOCS_KINDS = {
    **dict.fromkeys(("File", "Dir", "FilesystemObject", "URL"), "str"),
    **dict.fromkeys(("ListOfItems", "ListOfPaths", "MarkdownExtensions", "Plugins"), "list"),
    "DictOfItems": "dict",
}


class DescriptorReader(TypeReader):
    """The fields of config classes of option objects: a MkDocs config
    class's ``config_options`` and traitlets' traits tagged ``config=True``."""

    def fill(self, node: SchemaNode, symbol: Symbol, depth: int = 0, direct: bool = False) -> None:
        raise NotImplementedError  # the model reader's

    def _descriptor_fields(self, module: str, cls: ClassFact, kind: str) -> list[FieldFact]:
        """Options assigned as class attributes, annotated or not: ``port =
        Integer(8888, config=True)``, ``enabled = c.Type(bool,
        default=True)``; and the (name, option) pairs of a plugin's
        ``config_scheme``."""
        rows: list[tuple[str | None, Expr, int]] = []
        scheme = cls.assigns.get("config_scheme") if kind == "mkdocs" else None
        if scheme is not None and scheme[0] == "seq":
            line_expr = cls.assigns.get("__line__config_scheme")
            line = line_expr[1] if line_expr else cls.line
            pairs = [item[2] for item in scheme[2] if item[0] == "seq" and len(item[2]) == 2]
            rows += [(string_of(self.project, module, name), value, line) for name, value in pairs]
        rows += assigned(cls)
        # An annotated one: ``remove_cell_tags: set[str] = Set(...).tag(config=True)``.
        rows += [
            (fact.name, fact.value, fact.line) for fact in cls.fields if fact.value is not None
        ]
        return [
            FieldFact(name, at, ["src", ""], value)
            for name, value, at in rows
            if name and self._descriptor(module, kind, value) is not None
        ]

    def _descriptor(self, module: str, kind: str, value: Expr) -> str | None:
        """The option constructor's name (``Type``, ``Unicode``) when
        ``value`` builds an option of ``kind``: a ``config_options`` call
        for MkDocs (``Private`` is not one users set); for traitlets, a
        trait tagged ``config=True``."""
        if value[0] != "call":
            return None
        callee = value[1]
        if callee[0] == "sub":
            callee = callee[1]  # ``c.SubConfig[Validation]()``
        if callee[0] != "n":
            return None
        symbol = self.project.resolve(module, callee[1])
        if symbol is None or symbol.kind not in ("external", "class"):
            return None
        tagged = value[3].get("config") == ["c", True]
        full = self.project.full_name(symbol)
        if symbol.kind == "class" and not full.startswith(_MKDOCS_OPTIONS):
            # A project's own option type (``log_level = _LogLevel(...)``,
            # ``tags_allowed = TagSet()``, a custom trait).
            prefixes = (
                (_MKDOCS_OPTIONS, "mkdocs.config.base.BaseConfigOption")
                if kind == "mkdocs"
                else ("traitlets.",)
            )
            bases = [self.project.full_name(s) for s in self.project.mro(symbol)[1:]]
            derived = any(base.startswith(prefixes) for base in bases)
            return "custom" if derived and (kind == "mkdocs" or tagged) else None
        name = last_name(full)
        if kind == "mkdocs":
            # ``config_options.Type``, or MkDocs' own option types elsewhere
            # (``mkdocs.config.defaults._LogLevel``).
            ours = (
                full.startswith("mkdocs.config.")
                and name not in ("Private", "Config")
                and full not in MKDOCS_BASES
            )
        else:
            ours = full.startswith("traitlets.") and tagged
        return name if ours else None

    def _descriptor_node(
        self, info: ModelInfo, module: str, fact: FieldFact, parent: ConfigPath, depth: int
    ) -> SchemaNode:
        """A field whose value is an option object: its type, choices and
        default from the constructor's arguments."""
        value = fact.value
        assert value is not None
        node = SchemaNode(
            key=fact.name,
            path=(*parent, fact.name),
            spellings=(fact.name,),
            location=self.project.location(module, fact.line),
            origin=f"field of {info.symbol.qualname}",
            described=described(value[3]) if value[0] == "call" else False,
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
                if (choices := project.sequence(module, args[0])) is not None:
                    node.type = TypeInfo(name, frozenset(), choices)
                args = args[1:]
            elif text:
                node.type = TypeInfo(text, frozenset({text}))
            expr = args[0] if args else kwargs.get("default_value")
            if expr is not None:
                node.default = project.evaluate(module, expr)
            if "help" in kwargs:
                # ``help="DEPRECATED since 0.8: use ConfigurableHTTPProxy.api_url"``
                mark_deprecated(project, module, node, {"help": kwargs["help"]})
            return
        if name == "Deprecated":
            node.deprecated = True
            node.replacement = string_of(project, module, kwargs.get("moved_to"))
            return
        if name == "Optional" and args:
            if args[0][0] == "call":
                self._describe(node, module, kind, args[0], depth)
            node.default = Value.of(None, "None")
            return
        if name == "SubConfig" and args and args[0][0] == "n":
            symbol = project.resolve(module, args[0][1])
            if symbol is not None and self.model(symbol) is not None:
                self.fill(node, symbol, depth + 1)
        elif name == "Type" and args:
            node.type = self.type_facts(module, args[0]).info
        elif name == "Choice" and args:
            if (choices := project.sequence(module, args[0])) is not None:
                # MkDocs refuses a string none of them when it loads the config.
                node.checked = all(isinstance(c, str) for c in choices)
                node.type = TypeInfo("Choice", frozenset({"str"} if node.checked else ()), choices)
        elif name in _MKDOCS_KINDS:
            text = _MKDOCS_KINDS[name]
            node.type = TypeInfo(text, frozenset({text}))
        if "default" in kwargs:
            node.default = project.evaluate(module, kwargs["default"])
