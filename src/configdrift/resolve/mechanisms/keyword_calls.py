"""A function whose keyword arguments build a configuration model:
``def init_inference(model, config=None, **kwargs)`` that updates a dict
with ``kwargs`` and builds ``InferenceConfig(**config_dict)`` from it, or
``def setup(app, timeout=5, retries=3)`` that builds ``Config(timeout=timeout,
retries=retries)``. Users write the model's keys as the function's
keywords, so a call of it in the docs (``deepspeed.init_inference(model,
mp_size=2)``) is an example of the model, checked as a JSON example is,
deprecations included. A surface of its own when the root does not hold
the model and the docs call the function with three of its keys."""

from __future__ import annotations

from dataclasses import dataclass

from configdrift.extract.docs.facts import imported_elsewhere
from configdrift.model import Location, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder


@dataclass(frozen=True, slots=True)
class KeywordFunction:
    """A function whose keyword arguments build a model of the project."""

    #: The dotted names a call of it may be written with (``pkg.mod.init``,
    #: ``pkg.init`` where the package is its top, ``init``).
    names: tuple[str, ...]
    model: Symbol
    #: Where the model is built from the keywords.
    location: Location
    #: Keywords that are the function's own, not the model's (``model`` in
    #: ``init_inference(model, **kwargs)``).
    own: frozenset[str]
    #: The keywords passed on, where only some are (``timeout=timeout``);
    #: empty for ``**kwargs``.
    passed: frozenset[str]

    def keys(self, keyword: str) -> bool:
        """Is ``keyword`` of a call a key of the model?"""
        return keyword in self.passed if self.passed else keyword not in self.own


def keyword_functions(builder: SchemaBuilder) -> list[KeywordFunction]:
    """Each function whose keyword arguments build a model of the project."""
    out: list[KeywordFunction] = []
    project = builder.project
    for module in sorted(project.modules):
        info = project.modules[module]
        for function, model, line, passed in info.facts.keyword_models:
            if model[0] != "n":
                continue
            symbol = project.resolve(module, model[1])
            if symbol is None or builder.model(symbol) is None:
                continue  # a class that is no configuration model
            top = module.split(".", 1)[0]
            names = tuple(dict.fromkeys((f"{module}.{function}", f"{top}.{function}", function)))
            own = frozenset(info.facts.functions.get(function, ()))
            where = Location(info.path, line)
            out.append(KeywordFunction(names, symbol, where, own, frozenset(passed)))
    return out


def called(callee: str, origin: str, names: tuple[str, ...]) -> bool:
    """Is ``callee`` (as a page writes it, its first name imported from
    ``origin``) a call of the function known by ``names``? A bare name must
    be the function's own (not a method's), and not one imported from
    another package."""
    return callee in names and not imported_elsewhere(origin, {names[0].split(".", 1)[0]})


def surfaces(discovery: Discovery) -> list[Surface]:
    """The models functions build from their keyword arguments that the
    root does not hold, where the docs call the function with three of
    the model's keys."""
    calls = discovery.calls() if discovery.calls is not None else {}
    if not calls:
        return []
    found: list[Surface] = []
    mounted = discovery.mounted()
    builder = discovery.builder
    for target in keyword_functions(builder):
        symbol, where = target.model, target.location
        if symbol.qualname in mounted:
            continue
        used = frozenset(
            k
            for (callee, origin), keys in calls.items()
            if called(callee, origin, target.names)
            for k in keys
            if target.keys(k)
        )
        if not used:
            continue
        node = builder.model_root(symbol)
        if discovery.claim(node, used):
            function = target.names[-1]
            how = f"the keyword arguments of {function} build it ({where.path}:{where.line})"
            surface = Surface(function, node, how, [], symbol.target)
            surface.calls = target.names
            found.append(surface)
    return found
