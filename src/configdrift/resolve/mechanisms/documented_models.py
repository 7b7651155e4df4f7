"""Models whose fields the docs document, wherever the code fills them.

A dataclass, a pydantic or an attrs model can be filled where the code
cannot be followed statically (a merge of files, flags and defaults
handed on as ``Config(**merged)``; a subclass's own ``__init__``). When
the pages document most of its fields, five at least, the model is a
configuration by that evidence alone: the page says what users write,
the model what the code accepts.

The bar is the page's, never the model's name: at least ``MIN_FIELDS``
of its keys, and half of them, are documented on pages whose path says
they are a configuration reference (``options.md``, ``settings.rst``; a
page of a view's template context or an API's records is not). Two models that hold the
same keys (a base and a subclass that adds none) are one configuration,
taken once; two with different keys and the same
evidence are never guessed between. A model found so is lenient: the
code may take keys the model does not declare before it is built, so a
documented key it lacks is said to be ignored, never to fail.

A page whose entries are most of a model's fields, half of them and
``MIN_LISTED`` at least, documents it whatever its path (a guide that
pastes the model's fields with their types and defaults). So does a page
that links the model's file (``[FSDP config file](../src/fsdp.py)
provides settings such as:``) and names half its fields, ``MIN_LINKED``
at least, in entries or list items that open with them
(``Surface.file_linked``): a field any page writes in code is described.

A model is also one the docs' example blocks are written for, though
no page lists its keys (a trainer's YAML recipes, each guide showing a
few): on ``MIN_EXAMPLE_PAGES`` pages at least, its fields are most of
what the blocks set at their top, ``MIN_EXAMPLE_FIELDS`` of them at least
in all; else the repository's YAML files do so, and a key they leave out
is not judged undocumented. Such a model is lenient, and its examples
document it. A subclass that only adds keys no page spells (its
capabilities found at run time) is its base's configuration.

A model is also one where a page constructs it (a Python block calls the
class with keyword arguments) and is about it: ``ABOUT_SHARE`` of the
page's entries are its fields (BentoML's ``Image`` and its constructor
parameters). That page is evidence of its own: the model is taken though
another surface holds the same keys, or a model holds it in a field, and
never guessed between. A key the page documents that it lacks is not
judged (the page may list an environment variable beside).
"""

from __future__ import annotations

from collections import Counter

from configdrift.index.pages import (
    MIN_EXAMPLE_FIELDS,
    best_page,
    calling,
    example_tops,
    exemplified_fields,
    linked_best_page,
)
from configdrift.index.spellings import dashed_tree, normal
from configdrift.model import Surface, Value
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Symbol

#: The documented keys a model needs to be a surface by the docs alone.
MIN_FIELDS = 5


#: The share of a page's entries that must be a model's fields for the
#: page that constructs it to be about it.
ABOUT_SHARE = 0.75
#: A page about a model documents a part of its fields this large at
#: least (a third): a guide that shows three of forty is about its use.
ABOUT_PART = 3


#: The fields a page must list, most of its entries, to document a model
#: whatever its path says; or, where it links the model's file, half of
#: them and this many at least.
MIN_LISTED = 10
MIN_LINKED = 3


def surfaces(discovery: Discovery) -> list[Surface]:
    """The models the docs document most of the keys of (``MIN_FIELDS`` at
    least, and half), best documented first, one per set of keys."""
    builder = discovery.builder
    mounted = discovery.mounted()
    if discovery.references is None:
        return []
    # Written with dashes too, as a TOML table's keys are (``line-length``).
    names = discovery.references() | {n.replace("-", "_") for n in discovery.references()}
    # The pages by each name their Python blocks call (a class they construct).
    constructed = calling(discovery.page_keys())
    # The keys each page's examples set at their top, each YAML file's, all.
    tops, files = example_tops(discovery.page_keys()), discovery.files()
    every_top = frozenset().union(*tops, *files)
    # The models a page that constructs them is about, with the fields it documents.
    about: dict[Symbol, frozenset[str]] = {}
    # The models the docs' examples are of, with no page listing their keys.
    exemplified: dict[Symbol, frozenset[str]] = {}
    # The models a page that links their file lists half the fields of.
    linked: dict[Symbol, frozenset[str]] = {}
    by_files: set[Symbol] = set()  # of those, the ones only its YAML files show
    best: dict[frozenset[str], tuple[int, Symbol]] = {}
    alike: dict[frozenset[str], list[Symbol]] = {}
    for symbol in builder.project.class_symbols():
        model = builder.model(symbol)
        if model is None or symbol.qualname in mounted:
            continue
        keys = frozenset(f.name for _, f in model.fields if not f.name.startswith("_"))
        # Of its public keys, those a surface found before holds are that one's evidence.
        documented = len(keys & names - discovery.taken)
        if documented < MIN_FIELDS or 2 * documented < len(keys):
            # A page that constructs the model and is about it, else one
            # that lists most of its fields, whatever its path.
            pages = constructed.get(symbol.qualname.rpartition(".")[2], ())
            fresh = keys - discovery.taken
            if spelt := best_page(pages, keys, len(keys) / ABOUT_PART, ABOUT_SHARE):
                about[symbol] = spelt
                documented = len(spelt)
            elif spelt := best_page(
                discovery.page_keys(), fresh, max(len(fresh) / 2, MIN_LISTED), ABOUT_SHARE
            ):
                documented = len(spelt)
            elif spelt := linked_best_page(
                discovery.page_keys(), model.location.path, keys, max(len(keys) / 2, MIN_LINKED)
            ):
                documented = len(spelt)  # a page that links its file lists half its fields
                linked[symbol] = spelt
            elif len({normal(k) for k in keys} & every_top) >= MIN_EXAMPLE_FIELDS and (
                set_fields := (by_page := exemplified_fields(tops, fresh))
                or exemplified_fields(tops + files, fresh)
            ):
                documented = len(set_fields)
                exemplified[symbol] = set_fields
                if not by_page:
                    by_files.add(symbol)
            else:
                continue
        # Models of the same keys (a base and a subclass that adds
        # none) are one configuration: the first found stands for it.
        best.setdefault(keys, (documented, symbol))
        alike.setdefault(keys, []).append(symbol)
    # A model another one holds in a field (``PythonOptions`` in
    # ``BuildConfig.python``) is part of that configuration, not one of its
    # own to guess between.
    trees = {symbol: builder.model_root(symbol) for _, symbol in best.values()}
    nested = {n.model for node in trees.values() for n in node.walk() if n is not node and n.model}
    # A page about a model's constructor documents it on its own.
    best = {
        keys: found
        for keys, found in best.items()
        if found[1].qualname not in nested or found[1] in about
    }
    # A subclass that adds fields the docs do not spell (a model with the
    # capabilities found at run time) is the same configuration as its base.
    best = {
        keys: found
        for keys, found in best.items()
        if not any(other < keys and best[other][0] == found[0] for other in best)
    }
    ranked = sorted(best.items(), key=lambda t: (-t[1][0], t[1][1].module, t[1][1].qualname))
    # The keys as the pages write them: a tree they write with dashes takes them.
    written = [s.path[-1] for p in discovery.page_keys() for f in p.spelt.values() for s in f]
    evidence = Counter(documented for _, (documented, symbol) in ranked if symbol not in about)
    found: list[Surface] = []
    for mine, (documented, symbol) in ranked:
        if evidence[documented] > 1 and symbol not in about:
            continue  # two models of other keys with the same evidence: never guessed
        node = trees[symbol]
        for other in (o for keys, same in alike.items() if keys <= mine for o in same):
            if other == symbol:
                continue
            # A model of its keys or some (its base) that gives them other
            # defaults: which the pages document is not known (the codec of
            # ``DepthEncoderConfig`` and of the ``VideoEncoderConfig`` it extends).
            given = builder.model_root(other).children
            for key, child in node.children.items():
                if key in given and given[key].default != child.default:
                    child.default = Value.unknown(f"{other.qualname} gives another")
        # A page about a model's constructor may list other settings
        # beside (an environment variable): a key the model lacks is not
        # judged there.
        # So is one whose class inherits fields from outside the project.
        node.strict = None if symbol in about or builder.inherits_unknown_fields(symbol) else False
        evidence_of = about.get(symbol, exemplified.get(symbol, linked.get(symbol)))
        if dashed_tree((n.key for n in node.walk()), written):
            for n in node.walk():
                if "_" in n.key:
                    n.spellings = (*dict.fromkeys((*n.spellings, n.key, n.key.replace("_", "-"))),)
        if discovery.claim(node, evidence_of, shared=symbol in about):
            shown = symbol in exemplified
            said = "the docs' examples set" if shown else "its page documents"
            said = "the repository's YAML files set" if symbol in by_files else said
            how = f"{said} {documented} of its {len(node.children)} keys"
            surface = Surface(symbol.qualname, node, how, [], symbol.target, exemplified=shown)
            surface.file_linked, surface.by_files = symbol in linked, symbol in by_files
            found.append(surface)
    return found
