"""A dict a class holds on ``self`` and reads key by key
(``self.config.get("dev-mode", True)``): its keys are a configuration's
where the docs document most of them.

Plugin and builder classes often keep their section of a configuration
file as a plain dict and read each key in a method of its own, with its
default beside it. No model declares the keys; the reads do. A class's
dict is a surface when the docs name ``MIN_KEYS`` of the keys its
methods read by a literal name (five at least, and half), when one
page's entries name ``PAGE_MIN_KEYS`` of them (and half), or when the
docs' examples set ``PAGE_MIN_KEYS`` of them (and half) below one path,
where the surface is then placed; each time with ``MIN_DEFAULTS`` of
them read with a default (all but one of a smaller dict's): a request's
or a response's dict is read by name too, but with nothing to fall back
on (no default, or ``None``). Each key's default is the one it is read
with, when every read of it that gives one agrees and it is known
statically.

Whether a documented key it does not read is ignored is not known: the
dict may be handed whole to code that reads it, or read by a base class
(whose own keys are another page's). Nothing is said of it; a key it reads
that no page documents is undocumented.
"""

from __future__ import annotations

from collections import defaultdict

from configdrift.extract.python.facts import Expr
from configdrift.index.pages import ENTRY, under
from configdrift.index.spellings import normal
from configdrift.model import Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_tables import table_option, table_root
from configdrift.resolve.schema import placed_under

#: The keys the docs must name, over all pages, of one class's dict.
MIN_KEYS = 5
#: Of those read, how many must be read with a default.
MIN_DEFAULTS = 3
#: The keys one page must spell of a class's dict (and half of them),
#: by entries or by the keys its examples set: a page about the dict.
PAGE_MIN_KEYS = 3


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each dict a class holds and reads by literal keys, where the docs
    document it (``_documented``), placed under the path its examples set
    it below, if they are its documentation."""
    builder = discovery.builder
    project = builder.project
    found: list[Surface] = []
    for module in sorted(project.modules):
        info = project.modules[module]
        # (class, attribute) -> key -> [(line, default expression)]
        held: dict[tuple[str, str], dict[str, list[tuple[int, Expr | None]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for read in info.facts.held_reads:
            base = read.source.base
            owner = read.function.rpartition(".")[0]
            if not base.startswith("self.") or base.count(".") != 1 or owner not in info.classes:
                continue
            if len(read.source.keys) != 1:
                continue
            name = project.evaluate(module, read.source.keys[0])
            if not name.known or not isinstance(name.value, str) or not name.value:
                continue
            held[(owner, base[5:])][name.value].append((read.line, read.default))
        for (owner, attribute), keys in sorted(held.items()):
            defaults = sum(any(_fallback(d) for _, d in reads) for reads in keys.values())
            if defaults < min(MIN_DEFAULTS, len(keys) - 1):
                continue
            path = _documented(discovery, set(keys))
            if path is None:
                continue
            qualname = f"{owner}.{attribute}"
            first = min(line for reads in keys.values() for line, _ in reads)
            root, _, _ = table_root(builder, module, qualname, first)
            # A key it does not read may be read where the dict is handed
            # whole, or by a base class: nothing is said of it.
            root.strict = None
            for key, reads in sorted(keys.items()):
                given = {str(d) for _, d in reads if d is not None}
                default = None
                if len(given) == 1:
                    default = project.evaluate(module, next(d for _, d in reads if d is not None))
                line = min(line for line, _ in reads)
                root.children[key] = table_option(
                    (key,), default, project.location(module, line), qualname
                )
            if discovery.claim(root, _spelt(discovery, set(keys)), PAGE_MIN_KEYS):
                how = f"{len(keys)} keys the methods of {owner} read from self.{attribute}"
                if path:
                    root = placed_under(root, ".".join(path))
                    how += f", set under {'.'.join(path)} in the docs' examples"
                found.append(Surface(qualname, root, how, [], "", exemplified=bool(path)))
    return found


def _documented(discovery: Discovery, keys: set[str]) -> tuple[str, ...] | None:
    """Is a class's dict documented, and under which path? ``()`` where the
    docs name ``MIN_KEYS`` of its keys and half, or where one page's
    entries spell ``PAGE_MIN_KEYS`` of them and half; the path the docs'
    examples set them under where they set ``PAGE_MIN_KEYS`` of them and
    half, all below one path (``tool.app.envs.*``); None where no evidence
    is enough."""
    if len(keys) >= MIN_KEYS:
        documented = keys & discovery.names - discovery.taken
        if len(documented) >= MIN_KEYS and 2 * len(documented) >= len(keys):
            return ()
    if discovery.pages is None or len(keys) < PAGE_MIN_KEYS:
        return None
    fresh = {normal(k) for k in keys - discovery.taken}
    pages = discovery.pages()
    for page in pages:
        spelt = fresh & page.names(ENTRY)
        if len(spelt) >= PAGE_MIN_KEYS and 2 * len(spelt) >= len(keys):
            return ()
    examples = [s for page in pages for s in page.examples(fresh)]
    set_ = {normal(s.path[-1]) for s in examples}
    if len(set_) < PAGE_MIN_KEYS or 2 * len(set_) < len(keys):
        return None
    # Set at no one path: blocks of other configurations that share names.
    return under(examples) or None


def _spelt(discovery: Discovery, keys: set[str]) -> frozenset[str]:
    """The keys the docs spell, on any page, entries and examples alike:
    a surface's evidence."""
    pages = discovery.pages() if discovery.pages is not None else ()
    named = {n for page in pages for n in page.names()}
    return frozenset(k for k in keys if k in discovery.names or normal(k) in named)


def _fallback(default: Expr | None) -> bool:
    """Is a read's default one to fall back on (``None`` is not)?"""
    return default is not None and default != ["c", None]
