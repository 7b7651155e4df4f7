"""A dict the code reads key by key as the configuration's root, where no
model is: of the dicts the flow reaches, the one under which the docs
document most of the keys read (and where it comes from)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from configdrift.extract.python.dict_sources import LOADED
from configdrift.extract.python.facts import DictArg, DictRead, DictStore
from configdrift.model import Location, Mount
from configdrift.resolve.flow_graph import Scope, scope_of
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder, render_scope


def dict_origin(builder: SchemaBuilder, chosen: Scope) -> Location | None:
    """Where a dict root found by the docs comes from, when the code does
    not show it: None if configuration reaches a dict loaded from a file
    (all of its readers are then followed), else the root's place. A
    dict handed in from code not followed (a local from an unknown call,
    a ``getattr`` dispatch) may be read there too."""
    if any(scope[2] == LOADED for scope in builder.flow.config):
        return None
    return builder.scope_location(chosen)


def overrides(builder: SchemaBuilder, scope: Scope) -> set[Scope]:
    """The same parameter of the methods that override one another: a
    config read by ``read_config(builder, config)`` of every class derived
    from one base (called through ``getattr`` on each in turn) is read
    by all of them."""
    cached = builder.override_memo.get(scope)
    if cached is None:
        cached = builder.override_memo[scope] = find_overrides(builder, scope)
    return cached


def find_overrides(builder: SchemaBuilder, scope: Scope) -> set[Scope]:
    module, function, param = scope
    owner, _, method = function.rpartition(".")
    info = builder.project.modules[module]
    params = info.facts.functions.get(function, [])
    if owner not in info.classes or param not in params or method.startswith("__"):
        return set()
    index = params.index(param)
    project = builder.project
    family = {s for s in project.mro(Symbol("class", module, owner))[1:] if s.kind == "class"}
    if not family:
        return set()
    out: set[Scope] = set()
    for name, other in project.modules.items():
        for qualname in other.classes:
            overriding = other.facts.functions.get(f"{qualname}.{method}")
            if overriding is None or len(overriding) <= index:
                continue
            if family.intersection(project.mro(Symbol("class", name, qualname))[1:]):
                out.add((name, f"{qualname}.{method}", overriding[index]))
    out.discard(scope)
    return out


def readable(builder: SchemaBuilder) -> set[str]:
    """Every key some code of the project reads from some dict, or hands
    to a helper that reads it: all that any dict root could explain."""
    project = builder.project
    out: set[str] = set()
    for name, info in project.modules.items():
        exprs = [read.source.keys[-1] for read in info.facts.dict_reads if read.source.keys]
        exprs += [e for arg in info.facts.dict_args for e in arg.key_args.values()]
        for expr in exprs:
            # A literal, or a constant (``Project.string`` resolves each once a module).
            key = project.string(name, expr) if expr[0] in ("c", "n") else None
            if key is not None:
                out.add(key)
    return out


def model_fields(builder: SchemaBuilder) -> set[str]:
    """The field names of every model of the project (a dict read by a
    model's own ``from_dict`` is that model's section, not the root)."""
    known: set[str] = set()
    for symbol in builder.project.class_symbols():
        model = builder.model(symbol)
        if model is not None:
            known.update(fact.name for _, fact in model.fields)
    return known


def dict_root(
    builder: SchemaBuilder, seeds: set[Scope], doc_names: Callable[[], frozenset[str]]
) -> Scope | None:
    """The dict that holds the whole configuration, when no model does.

    Candidates are the dicts the code reads most keys from or hands on
    most often (a config class's ``param_dict``, a dict loaded from a
    file) that configuration does not reach yet. Each is tried as a seed:
    configuration flows from it as from a model, and the keys read under
    it (at any depth) that the code does not know yet are counted against
    the keys the docs document. A key read under another path or
    declared by a model is not new, so a dict that holds one section
    (``aio_config``) is not taken for the whole. The one with most
    documented keys wins, if at least ``ROOT_MIN_KEYS`` of them and a
    third of its new keys are documented, and more keys than the seeds
    already read; a tie is never
    guessed.
    """
    flow = builder.flow
    # Option spellings (``--flag``) are never keys of a dict.
    names = {name for name in doc_names() if not name.startswith("-")}
    if not names:
        return None
    read = {key for site in flow.reads()[0] for key in site.path}
    # What the seeds already read: a dict root must explain more
    # documented keys than that, or it is a section read apart.
    present = len(read & names)
    met = {fact.name for model in builder.known_models() for _, fact in model.fields}
    unexplained = names - read - met
    # No dict can explain more than the seeds already do: checked first
    # against the docs, then against the keys any code reads at all.
    if len(unexplained) <= present or len(unexplained & readable(builder)) <= present:
        return None
    known = read | model_fields(builder)
    fan_out: Counter[Scope] = Counter()
    for name, info in builder.project.modules.items():
        facts = info.facts
        records: list[DictRead | DictArg | DictStore] = [
            *facts.dict_reads,
            *facts.dict_args,
            *facts.dict_stores,
        ]
        fan_out.update(scope_of(r.function, r.source.base, name) for r in records)
    candidates = sorted(
        (
            (count, scope)
            for scope, count in fan_out.items()
            if count >= ROOT_MIN_KEYS and scope not in flow.config
        ),
        key=lambda item: (-item[0], item[1]),
    )
    tried: set[Scope] = set()
    scored: list[tuple[int, int, Scope]] = []
    for _, scope in candidates[:ROOT_TRIALS]:
        if scope in tried:
            continue  # reached from a candidate already tried: the same config
        flow.mark(seeds | {scope} | overrides(builder, scope))
        tried |= flow.config
        new = {key for site in flow.reads(sites_only=True)[0] for key in site.path} - known
        documented = len(new & names)
        # A dict loaded from a file is plainly a config file: fewer
        # documented keys confirm it than a dict of unknown origin.
        loaded = any(reached[2] == LOADED for reached in flow.config)
        least = LOADED_MIN_KEYS if loaded else ROOT_MIN_KEYS
        if documented >= max(least, present + 1) and 3 * documented >= len(new):
            scored.append((documented, len(new), scope))
    if tried:
        flow.mark(seeds)
    if not scored:
        return None
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    if len(scored) > 1 and scored[1][:2] == scored[0][:2]:
        return None
    documented, new_keys, chosen = scored[0]
    how = f"docs: {documented} of the {new_keys} keys read under it are documented"
    overriding = len(overrides(builder, chosen))
    if overriding:
        how += f", with the {overriding} method(s) that override it"
    module, function, base = chosen
    target = "" if base.startswith("builder.") or base == LOADED else f"{module}:{function}.{base}"
    location = builder.scope_location(chosen)
    builder.mounts.append(Mount((), render_scope(chosen), location, how, target))
    return chosen


#: A dict root needs this many documented keys read under it (and is tried
#: only where the code reads or hands on the dict this many times).
ROOT_MIN_KEYS = 5


#: The same for a dict the flow shows loaded from a file (``json.load``).
LOADED_MIN_KEYS = 3


#: How many candidate dicts are tried as the root, the busiest first.
ROOT_TRIALS = 12
