"""The interface of a mechanism that finds surfaces beside the root.

A mechanism is a module of this package with a function
``surfaces(discovery: Discovery) -> list[Surface]``: the configurations of
its kind the project declares (each a ``model.Surface``: a name, a root of
schema nodes, how it was found for ``map``, what could not be resolved,
and what ``surfaces`` in the configuration would name to configure it),
each kept only when ``discovery.claim`` accepts its keys: evidence that
users write it. The mechanisms are asked in the order of
``configdrift.resolve.mechanisms.SURFACES``; a key claimed by one is not
evidence for those after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from configdrift.index.pages import PageKeys
from configdrift.index.spellings import VARIABLE
from configdrift.model import CLI_KINDS, SchemaNode, spellings_of
from configdrift.resolve.schema import MIN_OPTIONS, SchemaBuilder


@dataclass(slots=True)
class Discovery:
    """What a mechanism is handed: the builder (the project's code, its
    models, options and reads), the root already built, the names the doc
    pages document, whether a page is generated from a parser, and the
    keys claimed so far."""

    builder: SchemaBuilder
    root: SchemaNode
    #: The key names the doc pages document.
    names: frozenset[str]
    #: Is a page generated from a command line's parser (``.. argparse::``)?
    generated: bool = False
    #: The doc titles of one word besides the names (evidence for a
    #: configuration declared by its defaults alone).
    doc_words: Callable[[], frozenset[str]] | None = None
    #: The options example config files and blocks set on a config object
    #: (``c.Class.option = value``): evidence that users write them.
    written: Callable[[], frozenset[str]] | None = None
    #: The calls the docs' Python blocks make, each callee (with the module
    #: the block imports its first name from) with the keyword arguments it
    #: is given: evidence for a model a function builds from them.
    calls: Callable[[], dict[tuple[str, str], frozenset[str]]] | None = None
    #: The key names the pages that look like configuration references
    #: (by their path: ``docs/options.md``) document.
    references: Callable[[], frozenset[str]] | None = None
    #: The key names documented on pages that render no code (an API page's
    #: ``.. attribute::`` of a module is no configuration's entry).
    hand_written: Callable[[], frozenset[str]] | None = None
    #: The keys each page spells, by role (the doc side of the key index):
    #: evidence for a container whose keys one page documents or sets.
    pages: Callable[[], tuple[PageKeys, ...]] | None = None
    #: Which of these names (a command line's flags) the doc pages spell
    #: whole, in prose or in command lines: evidence where no page lists
    #: them as entries.
    spelt: Callable[[frozenset[str]], frozenset[str]] | None = None
    #: The keys each of the repository's YAML files sets at its top (``normal``).
    files: Callable[[], list[frozenset[str]]] = list
    #: The spellings claimed so far: the root's, then each surface's.
    taken: set[str] = field(default_factory=set)

    def words(self) -> frozenset[str]:
        """The names, with the doc titles of one word."""
        return self.doc_words() if self.doc_words is not None else self.names

    def page_keys(self) -> tuple[PageKeys, ...]:
        """The keys each page spells (none where no pages are handed in)."""
        return self.pages() if self.pages is not None else ()

    def set_at_top(self) -> frozenset[str]:
        """The keys the docs' example blocks set at their top, as written
        (``SILKY_META = True``; ``html_theme_options = {...}``'s keys)."""
        return frozenset(key for page in self.page_keys() for key in page.set_at_top())

    def mounted(self) -> set[str]:
        """The models the root holds already."""
        return {node.model for node in self.root.walk() if node.model}

    def claim(
        self,
        node: SchemaNode,
        evidence: frozenset[str] | None = None,
        least: int = MIN_OPTIONS,
        *,
        shared: bool = False,
    ) -> bool:
        """Does ``evidence`` (the doc names by default) name three of the
        keys under ``node`` (``least``, and half of its keys) that no
        surface before holds (or, ``shared``, any: a page about the node
        documents them, whatever else holds them)? If so, they are this
        surface's."""
        spelt = spellings_of(node)
        fresh = spelt & (self.names if evidence is None else evidence)
        if not shared:
            fresh -= self.taken
        if len(fresh) < min(least, MIN_OPTIONS) or 2 * len(fresh) < min(
            len(node.children), 2 * MIN_OPTIONS
        ):
            return False
        self.taken.update(owned(node))
        return True


def owned(node: SchemaNode) -> set[str]:
    """The spellings a surface takes for its own: all, but the variables a
    command line's options name (``envvar="APP_PORT"``), which the
    environment's surface of variables read by name may hold too."""
    spelt = spellings_of(node)
    if node.model_kind in CLI_KINDS:
        spelt -= {s for n in node.walk() for s in n.spellings[1:] if VARIABLE.fullmatch(s)}
    return spelt
