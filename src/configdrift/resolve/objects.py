"""What config objects hold: the types of attribute chains such as
``self._config.zero_config.grad_hooks``.

A member's type comes from the assignments that set it: ``self.zero_config =
get_zero_config(d)`` (a function that returns a model), ``self._config =
config_class`` (a parameter, typed by the constructor calls that pass it,
``DeepSpeedEngine(config_class=DeepSpeedConfig(...))``), or a model field's
annotation. What cannot be known stays unknown, and chains through it are
not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from configdrift.extract.python.facts import DictArg, DictRead
from configdrift.model import Location
from configdrift.resolve.flow_graph import scope_of
from configdrift.resolve.model_descriptors import DESCRIPTOR_KINDS
from configdrift.resolve.model_types import ModelInfo
from configdrift.resolve.project import Project, Symbol
from configdrift.resolve.schema import SchemaBuilder

#: What a dict instance has as attributes (a TypedDict's instances are dicts).
_DICT_API = frozenset(name for name in dir(dict) if not name.startswith("__"))

#: Attributes every pydantic model or dataclass instance has.
MODEL_API = frozenset(
    {
        "model_dump",
        "model_dump_json",
        "model_copy",
        "model_fields",
        "model_fields_set",
        "model_config",
        "model_extra",
        "model_validate",
        "model_json_schema",
        "model_post_init",
        "model_computed_fields",
        "dict",
        "json",
        "copy",
        "parse_obj",
        "schema",
        "construct",
        "fields",
        "__fields__",
        "__fields_set__",
        "__dict__",
        "__class__",
        "__dataclass_fields__",
    }
)
#: Methods that hand a model's every field on at once.
DUMPS = frozenset({"model_dump", "model_dump_json", "dict", "json", "__dict__", "asdict"})


@dataclass(frozen=True, slots=True)
class Chain:
    """An attribute chain whose receivers have known types."""

    location: Location
    module: str
    function: str
    text: str
    receivers: tuple[frozenset[Symbol], ...]


class ObjectTypes:
    def __init__(self, project: Project, builder: SchemaBuilder) -> None:
        self.project = project
        self.builder = builder
        self.ctor: dict[Symbol, dict[str, set[tuple[str, str]]]] = {}
        self.assigns: dict[Symbol, dict[str, list[tuple[str, str, str, str]]]] = {}
        self.returns: dict[tuple[str, str], list[str]] = {}
        self.locals: dict[tuple[str, str, str], list[str]] = {}
        self._memo: dict[tuple[object, ...], frozenset[Symbol]] = {}
        self._chains: list[Chain] | None = None
        #: Results the rules derive from the code alone, once for all the
        #: surfaces of a project (by the deriving function's name).
        self.derived: dict[str, object] = {}
        #: Classes whose attributes some method sets at runtime by name.
        self.dynamic: set[Symbol] = set()
        #: Attribute names some code stores on an object from outside it.
        self.stored_outside: set[str] = set()
        #: The expressions each function tests the type of: (module, function) -> texts.
        self.narrowed: dict[tuple[str, str], set[str]] = {}
        self._subclasses: dict[Symbol, set[Symbol]] | None = None
        self._index()
        self.config_classes = self._config_classes()

    def _index(self) -> None:
        project = self.project
        for name, info in project.modules.items():
            facts = info.facts
            for callee, position, values in facts.ctor_args:
                symbol = project.resolve(name, callee)
                if symbol is not None and symbol.kind == "class":
                    slot = self.ctor.setdefault(symbol, {}).setdefault(position, set())
                    slot.update((name, v) for v in values)
            for function, attr, kind, value, _line in facts.attr_assigns:
                cls = function.rsplit(".", 1)[0]
                if cls in info.classes:
                    symbol = Symbol("class", name, cls)
                    self.assigns.setdefault(symbol, {}).setdefault(attr, []).append(
                        (kind, value, name, function)
                    )
            self.stored_outside.update(facts.attr_stores)
            for function in facts.dynamic_setattr:
                self.dynamic.add(Symbol("class", name, function.rsplit(".", 1)[0]))
            for function, callee in facts.return_calls:
                self.returns.setdefault((name, function), []).append(callee)
            for function, local, value in facts.local_types:
                self.locals.setdefault((name, function, local), []).append(value)
            for function, text in facts.narrowed:
                self.narrowed.setdefault((name, function), set()).add(text)

    def _config_classes(self) -> set[Symbol]:
        """Plain classes that hold parsed config values: a method reads a
        config dict (a parameter or ``self._param_dict`` that configuration
        reaches) and sets two attributes of the object or more, as
        ``self.gradient_clipping = get_gradient_clipping(param_dict)`` does.
        Such an object has exactly the attributes its class sets."""
        methods: dict[Symbol, set[str]] = {}
        for module, function, base in self.builder.flow.config:
            classes = self.project.modules[module].classes
            # ``self._param_dict`` is scoped to its class, a parameter to its method.
            owner = function if base.startswith("self.") else function.rpartition(".")[0]
            if owner in classes:
                methods.setdefault(Symbol("class", module, owner), set()).add(function)
        from_config = self._assigned_from_config()
        out: set[Symbol] = set()
        for symbol, functions in methods.items():
            if self.model(symbol) is not None:
                continue
            assigned = self.assigns.get(symbol, {})
            parsed = {
                attr
                for attr, values in assigned.items()
                for _, _, module, function in values
                if (function in functions or symbol.qualname in functions)
                and (module, function, attr) in from_config
            }
            # Mostly parsed values (half at least): not an engine or a
            # trainer that merely receives the config among other things.
            if len(parsed) >= 2 and 2 * len(parsed) >= len(assigned):
                out.add(symbol)
        return out

    def _assigned_from_config(self) -> set[tuple[str, str, str]]:
        """(module, method, attribute) for ``self.A = ...`` on a line that
        reads a config dict or hands one to a function."""
        config = self.builder.flow.config
        out: set[tuple[str, str, str]] = set()
        modules = {module for module, _, _ in config}
        for name, info in self.project.modules.items():
            if name not in modules:
                continue  # no configuration is read in this module
            facts = info.facts
            lines: set[tuple[str, int]] = set()
            records: list[DictRead | DictArg] = [*facts.dict_reads, *facts.dict_args]
            for record in records:
                if scope_of(record.function, record.source.base, name) in config:
                    lines.add((record.function, record.line))
            for function, attr, _kind, _value, line in facts.attr_assigns:
                if (function, line) in lines:
                    out.add((name, function, attr))
        return out

    # -- types ---------------------------------------------------------------

    def model(self, symbol: Symbol) -> ModelInfo | None:
        return self.builder.model(symbol)

    def call_types(
        self, module: str, function: str, callee: str, depth: int = 0
    ) -> frozenset[Symbol]:
        """Classes a call can return: a constructor, or a function's returns."""
        key = ("call", module, function if callee.startswith("self.") else "", callee)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = frozenset()
        out: set[Symbol] = set()
        if depth < 6:
            symbol: Symbol | None
            if callee.startswith("self.") and callee.count(".") == 1:
                cls = function.rsplit(".", 1)[0]
                symbol = Symbol("function", module, f"{cls}.{callee[5:]}")
            else:
                symbol = self.project.resolve(module, callee)
            if symbol is not None and symbol.kind == "class":
                out.add(symbol)
            elif symbol is not None and symbol.kind == "function":
                for returned in self.returns.get((symbol.module, symbol.qualname), ()):
                    out |= self.call_types(symbol.module, symbol.qualname, returned, depth + 1)
        result = self._memo[key] = frozenset(out)
        return result

    def member_types(self, owner: Symbol, attr: str, depth: int = 0) -> frozenset[Symbol]:
        """Classes ``owner().attr`` can hold."""
        key = ("member", owner, attr)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = frozenset()
        out: set[Symbol] = set()
        info = self.model(owner)
        if info is not None:
            for module, fact in info.fields:
                if fact.name == attr:
                    types = self.builder.type_facts(module, fact.annotation)
                    out.update(s for marker, s in types.models if marker is None)
        for ancestor in self.project.mro(owner):
            for kind, value, module, function in self.assigns.get(ancestor, {}).get(attr, ()):
                if kind == "call":
                    out |= self.call_types(module, function, value, depth + 1)
                elif kind == "param":
                    out |= self._param_types(ancestor, module, function, value, depth)
        result = self._memo[key] = frozenset(out)
        return result

    def _param_types(
        self, owner: Symbol, module: str, function: str, param: str, depth: int
    ) -> frozenset[Symbol]:
        """A constructor parameter's classes, from the calls that build ``owner``."""
        if not function.endswith(".__init__"):
            return frozenset()
        params = self.project.modules[module].facts.functions.get(function, [])
        index = params.index(param) - 1 if param in params else -1
        out: set[Symbol] = set()
        for position in (str(index), param):
            for caller_module, callee in self.ctor.get(owner, {}).get(position, ()):
                out |= self.call_types(caller_module, "", callee, depth + 1)
        return frozenset(out)

    def base_types(self, module: str, function: str, base: str) -> frozenset[Symbol]:
        """The class of ``self`` in a method, or what a typed local holds."""
        if base != "self":
            out: set[Symbol] = set()
            for value in self.locals.get((module, function, base), ()):
                symbol = self.project.resolve(module, value)
                if symbol is not None and symbol.kind == "class":
                    out.add(symbol)
                else:
                    out |= self.call_types(module, function, value)
            return frozenset(out)
        cls = self.project.class_of(module, function)
        return frozenset({Symbol("class", module, cls)}) if cls else frozenset()

    # -- declarations ----------------------------------------------------------

    def declares(self, owner: Symbol, attr: str) -> bool | None:
        """Does an instance of ``owner`` have ``attr``? None when unknowable."""
        info = self.model(owner)
        if info is not None and info.kind == "typeddict":
            # An instance is a plain dict: its attributes are the dict's
            # methods (``cfg.get``), never its keys.
            return attr in _DICT_API
        project = self.project
        dynamic = False
        for ancestor in project.mro(owner):
            if ancestor.kind != "class":
                if ancestor.kind == "external" and info is None and ancestor.qualname != "object":
                    return None  # a plain class with a base we cannot see
                continue
            if ancestor in self.dynamic:
                return None  # attributes set by names built at runtime
            facts = project.modules[ancestor.module].facts
            cls = project.modules[ancestor.module].classes.get(ancestor.qualname)
            if cls is None:
                continue
            if f"{ancestor.qualname}.{attr}" in facts.functions or attr in cls.assigns:
                return True
            if any(f.name == attr for f in cls.fields) or attr in self.assigns.get(ancestor, {}):
                return True
            if f"{ancestor.qualname}.__getattr__" in facts.functions:
                dynamic = True
        if info is not None and info.kind in DESCRIPTOR_KINDS:
            # MkDocs' ``Config`` and traitlets' classes bring an API of
            # their own (``load_dict``, ``items``, ``observe``).
            return None
        if info is not None:
            return attr in MODEL_API or attr.startswith("model_")
        if dynamic or attr in self.stored_outside:
            return None  # set by code outside the class, or by computed names
        return False

    def is_narrowed(self, module: str, function: str, receiver: str) -> bool:
        """Does the function test the type of ``receiver``, or of an
        expression it is read through (``isinstance(cfg.backend, Special)``
        before ``cfg.backend.depth``)? Its type there is the narrowed one."""
        tested = self.narrowed.get((module, function), ())
        return any(receiver == text or receiver.startswith(text + ".") for text in tested)

    def declared_below(self, owner: Symbol, attr: str) -> bool:
        """Does a subclass of ``owner`` in the project declare ``attr``? An
        instance of it may stand wherever ``owner`` is expected."""
        if self._subclasses is None:
            self._subclasses = {}
            for symbol in self.project.class_symbols():
                for base in self.project.bases(symbol):
                    self._subclasses.setdefault(base, set()).add(symbol)
        seen: set[Symbol] = set()
        stack = list(self._subclasses.get(owner, ()))
        while stack and len(seen) < 256:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            if self.declares(current, attr) is not False:
                return True
            stack.extend(self._subclasses.get(current, ()))
        return False

    def is_config_object(self, owner: Symbol, mounted: set[str]) -> bool:
        """A model mounted in the config tree, or a plain class holding one."""
        if self.model(owner) is not None:
            return owner.qualname in mounted
        if owner in self.config_classes:
            return True
        return any(
            any(t.qualname in mounted for t in self.member_types(owner, attr))
            for attr in self.assigns.get(owner, {})
        )

    # -- chains ----------------------------------------------------------------

    def chains(self) -> list[Chain]:
        """Every recorded chain, with the types of each receiver along it."""
        if self._chains is None:
            self._chains = self._all_chains()
        return self._chains

    def _typed_names(self) -> set[str]:
        """Attribute names that can carry a type: typed assignments anywhere,
        and the fields of models. A chain through any other name cannot
        reach a config object, so it is not followed at all."""
        names = {
            attr
            for assigns in self.assigns.values()
            for attr, values in assigns.items()
            if any(kind != "other" for kind, _, _, _ in values)
        }
        for info in self.builder.known_models():
            names.update(fact.name for _, fact in info.fields)
        return names

    def _all_chains(self) -> list[Chain]:
        out: list[Chain] = []
        typed = self._typed_names()
        for name, info in self.project.modules.items():
            for line, function, text in info.facts.chains:
                parts = text.split(".")
                if parts[0] == "self" and len(parts) < 3:
                    continue  # ``self.x``: the class's own member, not a config read
                if any(attr not in typed for attr in parts[1:-1]):
                    continue
                types = self.base_types(name, function, parts[0])
                receivers: list[frozenset[Symbol]] = []
                for attr in parts[1:]:
                    if not types:
                        break
                    receivers.append(types)
                    types = frozenset(t for owner in types for t in self.member_types(owner, attr))
                if receivers:
                    out.append(
                        Chain(Location(info.path, line), name, function, text, tuple(receivers))
                    )
        return out
