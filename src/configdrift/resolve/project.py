"""Project-wide name resolution and static evaluation over module facts.

Names are followed through imports, re-exports and star imports; constants are
evaluated when they are literals, arithmetic, other constants, enum members,
or wrappers around one of those (``pp_int(5e8)``, ``int(1e9)``). Anything else
stays unknown, with its source text.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from configdrift.extract.python.dict_sources import LOADED, LOADERS
from configdrift.extract.python.exprs import render
from configdrift.extract.python.facts import ClassFact, DictSource, Expr, ModuleFacts
from configdrift.extract.python.module_paths import import_names
from configdrift.model import Location, Value

_BUILTIN_SCALARS = {"int": int, "float": float, "str": str, "bool": bool}
_BUILTIN_NAMES = frozenset(dir(builtins))
_BUILTIN_BASES = frozenset({"int", "float", "str", "bool", "dict", "list", "object"})
_ARITH = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "**": operator.pow,
    "%": operator.mod,
    "<<": operator.lshift,
}


#: The largest value folded statically: a string, list or tuple of this many
#: items (``"zero" * 10**9`` is not built), an int of this many bits.
MAX_FOLDED_ITEMS = 100_000
MAX_FOLDED_BITS = 10_000


def _check_size(op: str, left: Any, right: Any) -> None:
    """Refuse to build a sequence larger than ``MAX_FOLDED_ITEMS``."""
    sized = (str, bytes, list, tuple)
    size = 0
    if op == "*":
        count, items = (left, right) if isinstance(left, int) else (right, left)
        if isinstance(items, sized) and isinstance(count, int):
            size = len(items) * max(count, 0)
    elif op == "+" and isinstance(left, sized) and isinstance(right, sized):
        size = len(left) + len(right)
    if size > MAX_FOLDED_ITEMS:
        raise _NotStatic


@dataclass(frozen=True, slots=True)
class Symbol:
    """What a name refers to.

    kind is one of ``module``, ``class``, ``const``, ``function``,
    ``member`` (an attribute of a project class), ``external`` (a name from a
    module outside the project: ``qualname`` is its full dotted name).
    """

    kind: str
    module: str
    qualname: str

    @property
    def target(self) -> str:
        """How the configuration names it (``mount``, ``surfaces``): ``module:qualname``."""
        return f"{self.module}:{self.qualname}"


@dataclass(slots=True)
class ModuleInfo:
    name: str
    path: str
    facts: ModuleFacts
    is_package: bool
    classes: dict[str, ClassFact] = field(init=False)

    def __post_init__(self) -> None:
        self.classes = {c.name: c for c in self.facts.classes}


class Project:
    """All Python modules of the analysed code, indexed by module name."""

    def __init__(self, modules: list[ModuleInfo]) -> None:
        self._strings: dict[tuple[str, str], str | None] = {}
        self.modules: dict[str, ModuleInfo] = {}
        later: list[ModuleInfo] = []
        for info in modules:
            # Two files can claim one name (scripts in different folders); the
            # first one found keeps it, deterministically by path order, and
            # the other is known by its whole dotted path.
            if self.modules.setdefault(info.name, info) is not info:
                later.append(info)
        for info in later:
            full = import_names(info.path)[0]
            if full not in self.modules:
                info.name = full
                self.modules[full] = info
        claims: dict[str, set[str]] = {}
        # A name that starts inside a package is no name the module can be
        # imported by (``traitlets`` is not ``pkg/traitlets.py`` when ``pkg``
        # has an ``__init__.py``): it would shadow the library of that name.
        packages = {
            info.path.rsplit("/", 1)[0] for info in self.modules.values() if info.is_package
        }
        for name, info in self.modules.items():
            for alias in import_names(info.path):
                if alias == name or alias in self.modules:
                    continue
                depth = len(info.path.split("/")) - len(alias.split("."))
                if info.is_package:
                    depth -= 1
                if depth > 0 and "/".join(info.path.split("/")[:depth]) in packages:
                    continue
                claims.setdefault(alias, set()).add(name)
        #: Other names a module is imported by (``pkg.mod`` for
        #: ``src/pkg/mod.py`` when ``src/pkg`` has no ``__init__.py``): each
        #: name that only one module can take.
        self.aliases: dict[str, str] = {
            alias: next(iter(names)) for alias, names in claims.items() if len(names) == 1
        }
        self._cache: dict[tuple[str, str], Symbol | None] = {}
        self._resolved: dict[tuple[str, str], Symbol | None] = {}
        self._mros: dict[Symbol, list[Symbol]] = {}
        self._eval_cache: dict[tuple[str, str], Value] = {}
        self._rebase_loaded()

    def _rebase_loaded(self) -> None:
        """A call of the project's own function that returns what a loader
        parsed (``def load_config(path): return yaml.safe_load(f)``) hands
        back that file's dict: what its caller reads of it (``config =
        load_config(p); config.get("token")``) is read of a loaded dict, as
        though the caller had called the loader itself."""
        loaders = {
            (name, function)
            for name, info in self.modules.items()
            for function, callee in info.facts.return_calls
            if callee in LOADERS
        }
        if not loaders:
            return
        for name, info in self.modules.items():
            facts = info.facts

            def rebased(record: Any, name: str = name) -> Any:
                keys = record.source.keys
                if not keys or keys[0][0] != "ret":
                    return record
                symbol = self.resolve(name, str(keys[0][1]))
                if symbol is None or (symbol.module, symbol.qualname) not in loaders:
                    return record
                return replace(record, source=DictSource(LOADED, keys[1:], True))

            reads = [rebased(r) for r in facts.dict_reads]
            args = [rebased(r) for r in facts.dict_args]
            stores = [rebased(r) for r in facts.dict_stores]
            old = [*facts.dict_reads, *facts.dict_args, *facts.dict_stores]
            if any(a is not b for a, b in zip([*reads, *args, *stores], old, strict=True)):
                info.facts = replace(facts, dict_reads=reads, dict_args=args, dict_stores=stores)

    # -- names -------------------------------------------------------------

    def absolute(self, module: str, target: str, level: int) -> str:
        if level == 0:
            return target
        info = self.modules.get(module)
        base = module.split(".")
        if not (info and info.is_package):
            base = base[:-1]
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, target] if target else base)

    def canonical(self, name: str) -> str | None:
        """The module a dotted name imports, under its own name."""
        return name if name in self.modules else self.aliases.get(name)

    def lookup(self, module: str, name: str, depth: int = 0) -> Symbol | None:
        """Resolve a plain name as seen from inside ``module``."""
        key = (module, name)
        if key not in self._cache:
            self._cache[key] = None  # guards import cycles
            self._cache[key] = self._lookup(module, name, depth)
        return self._cache[key]

    def _lookup(self, module: str, name: str, depth: int) -> Symbol | None:
        info = self.modules.get(module)
        if info is None or depth > 30:
            return None
        facts = info.facts
        if name in info.classes:
            return Symbol("class", module, name)
        if name in facts.functions:
            return Symbol("function", module, name)
        for imp in reversed(facts.imports):
            if imp.local != name:
                continue
            target = self.absolute(module, imp.module, imp.level)
            known = self.canonical(target)
            if imp.name is None:
                if known is None:
                    return Symbol("external", "", target)
                return Symbol("module", known, "")
            sub = f"{target}.{imp.name}" if target else imp.name
            # What the package binds the name to wins over its submodule of
            # that name, as in Python (``from pkg.models import Model``
            # where ``pkg/models/__init__.py`` imports the class from
            # ``pkg/models/Model.py``).
            found = self.lookup(known, imp.name, depth + 1) if known is not None else None
            if found is not None:
                return found
            known_sub = self.canonical(sub)
            if known_sub is not None:
                return Symbol("module", known_sub, "")
            if known is not None:
                return None
            return Symbol("external", "", sub)
        if name in facts.assigns:
            return Symbol("const", module, name)
        external: str | None = None
        for star, _line in facts.star_imports:
            level = len(star) - len(star.lstrip("."))
            target = self.absolute(module, star.lstrip("."), level)
            target = self.canonical(target) or target
            target_info = self.modules.get(target)
            if target_info is None:
                # ``from pydantic.v1 import *`` (a compatibility module, often
                # in ``try: ... except ImportError:``): a name found nowhere
                # in the project comes from the first such module.
                if external is None and level == 0 and target:
                    external = target
                continue
            exported = target_info.facts.all_names
            if exported is not None and name not in exported:
                continue
            if exported is None and name.startswith("_"):
                continue
            found = self.lookup(target, name, depth + 1)
            if found is not None:
                return found
        if external is not None and not name.startswith("_") and name not in _BUILTIN_NAMES:
            return Symbol("external", "", f"{external}.{name}")
        return None

    def resolve(self, module: str, dotted: str) -> Symbol | None:
        """Resolve ``a.b.c`` from inside ``module`` (remembered: the
        project does not change once indexed)."""
        key = (module, dotted)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(module, dotted)
        return self._resolved[key]

    def external(self, module: str, dotted: str) -> str:
        """The full name of what ``dotted`` names from outside the project
        (``pydantic.Field``), as seen from inside ``module``; "" where it
        names something of the project's, or nothing known."""
        symbol = self.resolve(module, dotted)
        return symbol.qualname if symbol is not None and symbol.kind == "external" else ""

    def _resolve(self, module: str, dotted: str) -> Symbol | None:
        parts = dotted.split(".")
        symbol = self.lookup(module, parts[0])
        for i, part in enumerate(parts[1:], start=1):
            if symbol is None:
                return None
            if symbol.kind == "module":
                sub = self.canonical(f"{symbol.module}.{part}")
                symbol = (
                    self.lookup(symbol.module, part) if sub is None else Symbol("module", sub, "")
                )
            elif symbol.kind == "external":
                return Symbol("external", "", ".".join([symbol.qualname, *parts[i:]]))
            elif symbol.kind == "class":
                cls = self.modules[symbol.module].classes.get(symbol.qualname)
                nested = f"{symbol.qualname}.{part}"
                if nested in self.modules[symbol.module].classes:
                    symbol = Symbol("class", symbol.module, nested)
                elif cls is not None and part in cls.assigns:
                    symbol = Symbol("member", symbol.module, nested)
                else:
                    return Symbol("member", symbol.module, nested)
            else:
                return None
        return symbol

    def class_symbols(self) -> Iterator[Symbol]:
        """Every class of the project, module by module in name order."""
        for name in sorted(self.modules):
            for qualname in self.modules[name].classes:
                yield Symbol("class", name, qualname)

    def class_fact(self, symbol: Symbol) -> ClassFact | None:
        if symbol.kind != "class":
            return None
        return self.modules[symbol.module].classes.get(symbol.qualname)

    def class_of(self, module: str, function: str) -> str | None:
        """The innermost class of ``module`` that defines ``function`` (a qualname)."""
        owner = function
        while "." in owner:
            owner = owner.rsplit(".", 1)[0]
            if owner in self.modules[module].classes:
                return owner
        return None

    def location(self, module: str, line: int) -> Location:
        return Location(self.modules[module].path, line)

    # -- classes -----------------------------------------------------------

    def bases(self, symbol: Symbol) -> list[Symbol]:
        cls = self.class_fact(symbol)
        if cls is None:
            return []
        out = []
        for base in self._unstarred(symbol.module, cls.bases):
            target = base[1] if base[0] == "sub" else base  # Generic[T], BasePlugin[Config]
            if target[0] == "n":
                found = self.resolve(symbol.module, target[1])
                if found is None and target[1] in _BUILTIN_BASES:
                    found = Symbol("external", "", target[1])
                if found is not None:
                    out.append(found)
        return out

    def _unstarred(self, module: str, bases: list[Expr]) -> list[Expr]:
        """The bases, a starred global list of classes spread out
        (``class Args(*BASE_CLASSES)``, ``BASE_CLASSES = [Model, Training]``)."""
        out: list[Expr] = []
        for base in bases:
            text = base[1] if base[0] == "src" else ""
            held = self.modules[module].facts.assigns.get(text[1:]) if text[:1] == "*" else None
            if held is not None and held[0] == "seq":
                out.extend(held[2])
            else:
                out.append(base)
        return out

    @staticmethod
    def full_name(symbol: Symbol) -> str:
        """A class's dotted name, from its module (``pkg.config.Settings``),
        whether the project declares it or another package does."""
        return (
            symbol.qualname if symbol.kind == "external" else f"{symbol.module}.{symbol.qualname}"
        )

    def mro(self, symbol: Symbol) -> list[Symbol]:
        """The class and its ancestors, depth first, without repeats (a
        copy of what was worked out once)."""
        known = self._mros.get(symbol)
        if known is None:
            known = self._mros[symbol] = []
            stack = [symbol]
            while stack and len(known) < 64:
                current = stack.pop(0)
                if current not in known:
                    known.append(current)
                    stack[0:0] = self.bases(current)
        return list(known)

    def inherits_external(self, symbol: Symbol, names: frozenset[str]) -> bool:
        return any(s.kind == "external" and s.qualname in names for s in self.mro(symbol))

    # -- values ------------------------------------------------------------

    def evaluate(self, module: str, expr: Expr | None, depth: int = 0) -> Value:
        """The value of an expression, or its text when it is not static."""
        if expr is None:
            return Value.unknown("")
        text = render(expr)
        if depth > 20:
            return Value.unknown(text)
        try:
            value = self._eval(module, expr, depth)
        except (_NotStatic, ArithmeticError, TypeError, ValueError, OverflowError):
            return Value.unknown(text)
        return Value.of(value, text)

    def sequence(self, module: str, expr: Expr | None) -> tuple[object, ...] | None:
        """The items of a list or tuple known statically (``choices=[...]``)."""
        value = self.evaluate(module, expr)
        return tuple(value.value) if value.known and isinstance(value.value, list | tuple) else None

    def known(self, module: str, expr: Expr | None) -> Value | None:
        """The value of an expression where it is known statically; None
        where it is not, or there is no expression."""
        value = self.evaluate(module, expr)
        return value if value.known else None

    def _eval(self, module: str, expr: Expr, depth: int) -> Any:
        kind = expr[0]
        if kind == "c":
            return expr[1]
        if kind == "n":
            name = expr[1]
            if name in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[name]
            if name == "sys.maxsize":
                return 2**63 - 1
            return self._symbol_value(self.resolve(module, name), depth)
        if kind == "u":
            operand = self._eval(module, expr[2], depth + 1)
            if expr[1] == "-":
                return -operand
            if expr[1] == "+":
                return +operand
            return not operand
        if kind == "b":
            if expr[1] not in _ARITH:
                raise _NotStatic
            left = self._eval(module, expr[2], depth + 1)
            right = self._eval(module, expr[3], depth + 1)
            if expr[1] == "**" and isinstance(right, int | float) and abs(right) > 1000:
                raise _NotStatic
            _check_size(expr[1], left, right)
            result = _ARITH[expr[1]](left, right)
            if isinstance(result, int) and result.bit_length() > MAX_FOLDED_BITS:
                raise _NotStatic  # ``(10**999)**999``: no setting's value
            return result
        if kind == "seq":
            items = [self._eval(module, e, depth + 1) for e in expr[2]]
            return tuple(items) if expr[1] == "tuple" else items
        if kind == "dict":
            return {
                self._eval(module, k, depth + 1): self._eval(module, v, depth + 1)
                for k, v in expr[1]
            }
        if kind == "call":
            return self._eval_call(module, expr, depth)
        raise _NotStatic

    def _eval_call(self, module: str, expr: Expr, depth: int) -> Any:
        func = expr[1]
        args = expr[2]
        if func[0] != "n" or not args:
            raise _NotStatic
        name = func[1]
        if name in _BUILTIN_SCALARS and len(args) == 1:
            return _BUILTIN_SCALARS[name](self._eval(module, args[0], depth + 1))
        symbol = self.resolve(module, name)
        if symbol is not None and symbol.kind == "class":
            # A project subclass of a builtin scalar, such as DeepSpeed's
            # pp_int(5e8), stands for the scalar it wraps.
            for ancestor in self.mro(symbol):
                if ancestor.kind == "external" and ancestor.qualname in _BUILTIN_SCALARS:
                    return _BUILTIN_SCALARS[ancestor.qualname](
                        self._eval(module, args[0], depth + 1)
                    )
        raise _NotStatic

    def _symbol_value(self, symbol: Symbol | None, depth: int) -> Any:
        if symbol is None:
            raise _NotStatic
        if symbol.kind == "const":
            key = (symbol.module, symbol.qualname)
            cached = self._eval_cache.get(key)
            if cached is None:
                expr = self.modules[symbol.module].facts.assigns[symbol.qualname]
                self._eval_cache[key] = Value.unknown("")  # guards cycles
                cached = self._eval_cache[key] = self.evaluate(symbol.module, expr, depth + 1)
            if not cached.known:
                raise _NotStatic
            return cached.value
        if symbol.kind == "member":
            cls_name, _, attr = symbol.qualname.rpartition(".")
            cls = self.modules[symbol.module].classes.get(cls_name)
            if cls is None or attr not in cls.assigns:
                raise _NotStatic
            return self._eval(symbol.module, cls.assigns[attr], depth + 1)
        raise _NotStatic

    def string(self, module: str, expr: Expr) -> str | None:
        """The string an expression stands for (a key literal or constant)."""
        if expr[0] == "c":
            return expr[1] if isinstance(expr[1], str) else None
        if expr[0] == "n":
            # A constant is looked up from many places: once per module.
            key = (module, expr[1])
            if key not in self._strings:
                value = self.evaluate(module, expr)
                known = value.known and isinstance(value.value, str)
                self._strings[key] = value.value if known else None
            return self._strings[key]
        value = self.evaluate(module, expr)
        return value.value if value.known and isinstance(value.value, str) else None


class _NotStatic(Exception):
    pass
