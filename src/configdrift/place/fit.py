"""Mount models the code does not place, where the docs' structure shows them.

Some models are built where static analysis cannot follow the dict (a dict
comprehension, a value handed through an object). When a doc section
documents keys under a config path that no model covers, and one unmounted
model declares nearly all of them, that model is mounted there. The bar is
high, because a wrong mount makes a strict node out of thin air:

- at least two of the section's keys, and three quarters of them, are fields
  of the model;
- the model is the only best fit; a tie between models of the same shape is
  broken only by the model's name matching the key (``wandb`` and
  ``WandbConfig``), else nothing is mounted.

Every such mount is listed by ``configdrift map`` with the section it came
from, and an explicit ``mount`` in the configuration always wins.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from configdrift.model import ConfigPath, DocEntry, SchemaNode, format_path, top_spellings
from configdrift.place.entries import node_at
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder

MIN_KEYS = 2
MIN_SHARE = 0.75


def _norm(text: str) -> str:
    return text.replace("_", "").replace("-", "").lower()


def _fields(builder: SchemaBuilder, symbol: Symbol) -> set[str]:
    probe = SchemaNode(key="", path=())
    builder.fill(probe, symbol)
    return top_spellings(probe)


def _taken(node: SchemaNode | None) -> bool:
    """Does a node already hold keys (a model, or children)?"""
    return node is not None and bool(node.model or node.children)


def mount_by_docs(builder: SchemaBuilder, root: SchemaNode, entries: list[DocEntry]) -> int:
    """Mount unmounted models that doc sections fit; return how many."""
    mounted = {n.model for n in root.walk() if n.model}
    groups: dict[ConfigPath, list[DocEntry]] = defaultdict(list)
    for entry in entries:
        if len(entry.path) >= 2:
            groups[entry.path[:-1]].append(entry)
    open_groups = [p for p in groups if not _taken(node_at(root, p))]
    if not open_groups:
        return 0  # every documented section sits on a node already: nothing to fit
    symbols: list[Symbol] = []
    for name, info in sorted(builder.project.modules.items()):
        for qualname in info.classes:
            symbol = Symbol("class", name, qualname)
            model = builder.model(symbol)
            # attrs classes are mounted as fields of models, or by ``mount``.
            if model is not None and model.kind != "attrs" and qualname not in mounted:
                symbols.append(symbol)
    if not symbols:
        return 0
    fields_of: dict[Symbol, set[str]] = {}

    def candidates() -> Iterator[tuple[Symbol, set[str]]]:
        for symbol in symbols:
            if symbol not in fields_of:
                fields_of[symbol] = _fields(builder, symbol)
            yield symbol, fields_of[symbol]

    count = 0
    # Shallow paths first: a model mounted there may bring nested models with it.
    for parent in sorted(groups, key=len):
        if _taken(node_at(root, parent)):
            continue
        names = {e.path[-1] for e in groups[parent]}
        if len(names) < MIN_KEYS:
            continue
        scored = []
        for symbol, fields in candidates():
            score = len(names & fields)
            if score >= MIN_KEYS and score >= MIN_SHARE * len(names):
                named = _norm(parent[-1]) in _norm(symbol.qualname.rsplit(".", 1)[-1])
                scored.append((score, named, symbol))
        if not scored:
            continue
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        best = scored[0]
        if len(scored) > 1 and scored[1][:2] == best[:2]:
            continue  # a tie that the name does not break: never guessed
        symbol = best[2]
        first = min(groups[parent], key=lambda e: e.location.line)
        how = (
            f"docs: the section {first.section!r} documents {best[0]} of its {len(names)} keys "
            f"under {format_path(parent)}"
        )
        model = builder.model(symbol)
        assert model is not None
        builder.mount(root, parent, symbol, (parent[-1],), how, model.location)
        mounted.add(symbol.qualname)
        symbols.remove(symbol)
        count += 1
    return count
