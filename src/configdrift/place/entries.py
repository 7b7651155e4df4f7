"""Which config path each documented entry describes.

Every doc section gets a context path, decided in this order:

1. an explicit mapping in the configuration (``sections``);
2. a heading that is itself a key (``### `offload_param```);
3. the section's example block, when it shows one key holding an object
   (``"zero_optimization": {...}``); the key is located in the schema, or in
   another block of the page, or else taken from the parent section;
4. a first entry typed as a dictionary that the following entries fit;
5. the schema node whose keys best fit the section's entries;
6. the parent section's context, else the root.

Each entry is then placed by its own spelling (``fp16:enabled``), by the
table it sits in, by the example block of its section, or by the innermost
open dictionary entry whose schema accepts it, else by the section context.
"""

from __future__ import annotations

import dataclasses

from configdrift.config import Config
from configdrift.extract.docs.entry_text import split_name
from configdrift.extract.docs.facts import DocFacts, RawEntry
from configdrift.index.spellings import normal
from configdrift.model import (
    ANY_KEY,
    LIST_ITEM,
    ConfigPath,
    DocEntry,
    Location,
    SchemaNode,
    SectionMap,
    format_path,
)

_DICT_TYPES = frozenset({"dictionary", "dict", "object", "mapping", "table"})
_LIST_TYPES = frozenset({"list", "array"})
_FALLBACK = "example block"
#: How a section is mapped whose keys are none of this configuration's.
FOREIGN = "not this configuration's: none of its keys is accepted here (not judged)"
#: The fewest keys of its own a section needs to be taken for another
#: configuration's.
_MIN_FOREIGN = 3


def node_at(root: SchemaNode, path: ConfigPath) -> SchemaNode | None:
    node: SchemaNode | None = root
    for key in path:
        if node is None:
            return None
        node = node.child(key)
    return node


def _index_by_key(root: SchemaNode) -> dict[str, list[SchemaNode]]:
    index: dict[str, list[SchemaNode]] = {}
    for node in root.walk():
        if node is root:
            continue
        for spelling in node.spellings or (node.key,):
            index.setdefault(spelling, []).append(node)
    return index


def _accepts(root: SchemaNode, path: ConfigPath, key: str) -> bool:
    node = node_at(root, path)
    return node is not None and node.child(key) is not None


def _overlap(base: ConfigPath, parts: tuple[str, ...]) -> ConfigPath:
    """Join a context and an entry's parts, sharing any common run."""
    for k in range(min(len(base), len(parts)), 0, -1):
        if base[len(base) - k :] == parts[:k]:
            return (*base[: len(base) - k], *parts)
    return (*base, *parts)


def section_names(rel: str, facts: DocFacts, sid: int) -> list[str]:
    """The names ``sections`` may give a page's section, the most precise
    first: its heading path on the page (``page#Server/Options``, any
    tail of it down to ``page#Options``), then the same without the page
    (two headings with one title are told apart by their parents)."""
    chain: list[str] = []
    at: int | None = sid
    while at is not None:
        section = facts.sections[at]
        if section.title:
            chain.append(section.title)
        at = section.parent
    chain.reverse()
    tails = ["/".join(chain[i:]) for i in range(len(chain))]
    if not tails or tails[-1] != facts.sections[sid].title:
        tails.append(facts.sections[sid].title)
    return [f"{rel}#{tail}" for tail in tails] + tails


def configured_sections(
    config: Config, surface: str, first: bool
) -> tuple[dict[str, str], frozenset[str]]:
    """The ``sections`` entries a surface's pages are placed by, and the
    sections the configuration gives another surface (not placed on it):
    the first surface takes the entries that name no surface, one
    ``surfaces`` names those that name it, any other none."""
    if first:
        return config.sections_of(None), config.sections_elsewhere(None)
    if surface in config.surfaces:
        return config.sections_of(surface), config.sections_elsewhere(surface)
    return {}, config.sections_elsewhere(None)


class DocPlacer:
    def __init__(
        self,
        root: SchemaNode,
        sections: dict[str, str],
        elsewhere: frozenset[str] = frozenset(),
        only_named: frozenset[str] = frozenset(),
    ) -> None:
        """``sections`` maps doc sections to config paths on this surface;
        the sections ``elsewhere`` names document another surface (their
        entries are not placed here); on the pages ``only_named``, only the
        sections ``sections`` names are (a page read for them alone)."""
        self.root = root
        self.elsewhere = elsewhere
        self.only_named = only_named
        self.index = _index_by_key(root)
        #: A schema of leaves only (registered options, variables, a flat
        #: settings class): an example's tables are the file's own sections
        #: (``[testenv]``, ``[tool.pytest.ini_options]``), not config paths.
        self.flat = bool(root.children) and all(
            not child.children for child in root.children.values()
        )
        self.explicit = sections
        #: The context of the page being placed when it is a small page.
        self.page_context: ConfigPath | None = None
        #: The ``sections`` entries that named a section of a page.
        self.used: set[str] = set()
        self.maps: list[SectionMap] = []
        #: Example blocks whose place a section decided: (page, block index,
        #: the config path the block's keys sit under).
        self.blocks: list[tuple[str, int, ConfigPath]] = []
        #: Sections (page, index) that document another configuration:
        #: their entries are not judged here.
        self.foreign: set[tuple[str, int]] = set()
        #: The console scripts the project installs whose code is not read
        #: (``analysis.other_programs``): a ``--help`` output of one
        #: (``usage: app-diff``) lists flags none of its surfaces declares.
        self.other_programs: frozenset[str] = frozenset()

    def _claims(self, rel: str, facts: DocFacts) -> None:
        """The sections of the page another surface's ``sections`` entry
        takes (with their subsections, unless one is named here), and on a
        page read for its named sections alone, every other one: not
        placed here."""
        if not self.elsewhere and rel not in self.only_named:
            return
        mine: dict[int, bool | None] = {}
        for sid, section in enumerate(facts.sections):
            names = section_names(rel, facts, sid)
            if any(name in self.explicit for name in names):
                mine[sid] = True
            elif any(name in self.elsewhere for name in names):
                mine[sid] = False
            else:
                mine[sid] = mine.get(section.parent) if section.parent is not None else None
            if mine[sid] is False or (rel in self.only_named and not mine[sid]):
                self.foreign.add((rel, sid))

    def _locate(
        self, key: str, parent: ConfigPath, page_blocks: dict[str, ConfigPath]
    ) -> tuple[ConfigPath, str]:
        if key in parent:
            # A subsection's full example repeats the key its parent section documents.
            return parent[: parent.index(key) + 1], "example block, the parent section's key"
        if parent and _accepts(self.root, parent, key):
            return (*parent, key), "example block, key of the parent section's node"
        if self.root.child(key) is not None:
            return (key,), "example block, top-level key"
        candidates = [n for n in self.index.get(key, []) if n.children]
        paths = {n.path for n in candidates}
        if len(paths) == 1:
            return next(iter(paths)), "example block, the only schema node with that key"
        if key in page_blocks:
            return page_blocks[key], "example block, nested there in another block of the page"
        return (*parent, key), _FALLBACK

    @staticmethod
    def _titled_keys(facts: DocFacts, sid: int, by_section: dict[int, list[int]]) -> list[str]:
        """The keys the titles of a section's subsections are: key headings
        and titles of one word."""
        out: list[str] = []
        for child, section in enumerate(facts.sections):
            if section.parent != sid or child == sid:
                continue
            if section.heading_key is not None and "." not in section.heading_key:
                out.append(section.heading_key)
                continue
            for i in by_section.get(child, []):
                if facts.entries[i].form == "word":
                    out.append(facts.entries[i].name)
                    break
        return out

    def _word_path(self, name: str, parent: ConfigPath) -> ConfigPath | None:
        """Where a section titled with the one word ``name`` sits: under
        its parent section's node, else at the top."""
        if _accepts(self.root, parent, name):
            return (*parent, name)
        return None

    def _best_fit(self, names: list[str]) -> ConfigPath | None:
        if len(names) < 2:
            return None
        counts: dict[ConfigPath, int] = {}
        for name in set(names):
            for node in self.index.get(name, []):
                parent = node.path[:-1]
                counts[parent] = counts.get(parent, 0) + 1
        if not counts:
            return None
        best = max(counts.values())
        winners = [p for p, c in counts.items() if c == best]
        if len(winners) != 1 or best < 2 or best * 2 < len(set(names)):
            return None
        return winners[0]

    def _small_page(self, facts: DocFacts) -> ConfigPath | None:
        """Where a page of one or two key entries (headings, object
        directives) sits: the one schema node holding all of them."""
        entries = facts.entries
        if not 1 <= len(entries) <= 2 or any(
            e.form not in ("heading", "directive", "word") or len(e.parts) != 1 for e in entries
        ):
            return None
        common: set[ConfigPath] | None = None
        for entry in entries:
            found = {n.path[:-1] for n in self.index.get(entry.parts[0], [])}
            common = found if common is None else common & found
        return next(iter(common)) if common is not None and len(common) == 1 else None

    def place(self, rel: str, facts: DocFacts) -> list[DocEntry]:
        sections = facts.sections
        self.page_context = self._small_page(facts)
        by_section: dict[int, list[int]] = {}
        for idx, entry in enumerate(facts.entries):
            if (entry.program or "").split(" ", 1)[0] not in self.other_programs:
                by_section.setdefault(entry.section, []).append(idx)
        blocks_by_section: dict[int, list[int]] = {}
        for idx, block in enumerate(facts.blocks):
            blocks_by_section.setdefault(block.section, []).append(idx)
        # Keys nested in a block under a one-key top, for fragments elsewhere
        # on the page: ``"offload_param": {...}`` inside the ZeRO example.
        # Only a block of the same language: ``[tool.app]`` of a
        # pyproject.toml says nothing of ``{"app": ...}`` in a JSON file.
        nested_in_page: dict[tuple[str, str], tuple[str, ...]] = {}
        for block in facts.blocks:
            for key in block.keys:
                if len(key.path) >= 2:
                    nested_in_page.setdefault((_family(block.lang), key.path[-1]), key.path)

        contexts: dict[int, ConfigPath] = {}
        block_top: dict[int, tuple[ConfigPath, int] | None] = {}
        for sid, section in enumerate(sections):
            parent = contexts.get(section.parent, ()) if section.parent is not None else ()
            path, how, top = self._context(
                rel, sid, facts, parent, by_section, blocks_by_section, nested_in_page
            )
            contexts[sid] = path
            block_top[sid] = top
            if top is not None and top[0] and how != _FALLBACK:
                # A one-key example that placed its section places itself.
                self.blocks.append((rel, top[1], top[0][:-1]))
            if sid and (by_section.get(sid) or blocks_by_section.get(sid)):
                node = node_at(self.root, path)
                self.maps.append(
                    SectionMap(
                        Location(rel, section.line),
                        section.title,
                        path,
                        how,
                        node.model if node else None,
                    )
                )

        self._claims(rel, facts)
        out: list[DocEntry] = []
        paths: dict[int, ConfigPath] = {}
        for sid, section in enumerate(sections):
            if (rel, sid) in self.foreign:
                continue
            context = contexts[sid]
            scopes: list[ConfigPath] = []
            block_paths = self._block_paths(
                facts, blocks_by_section.get(sid, []), block_top[sid], nested_in_page
            )
            block_parents = {p[:-1] for found in block_paths.values() for p in found}
            names_section = False
            for idx in by_section.get(sid, []):
                entry = facts.entries[idx]
                if entry.form == "word":
                    # A title of one word is a key only where the schema has it.
                    if context[-1:] != (entry.name,) or node_at(self.root, context) is None:
                        continue
                    entry = dataclasses.replace(entry, form="heading")
                path, how = self._entry_path(
                    entry, context, scopes, block_paths, paths, names_section
                )
                if entry.form in ("mention", "signature"):
                    # A key named in a list item's prose, or a function's
                    # keyword argument, is a key only where the schema has
                    # it: never one the docs get wrong.
                    if node_at(self.root, path) is None:
                        continue
                    if entry.form == "mention":
                        entry = dataclasses.replace(entry, form="list")
                paths[idx] = path
                kind = (entry.doc_type or "").lower()
                if path == context and kind in _DICT_TYPES:
                    names_section = True
                elif kind in _DICT_TYPES:
                    scopes.append(path)
                elif kind in _LIST_TYPES and (*path, LIST_ITEM) in block_parents:
                    scopes.append((*path, LIST_ITEM))
                out.append(
                    DocEntry(
                        name=entry.name,
                        path=path,
                        location=Location(rel, entry.line),
                        section=section.title,
                        doc_type=entry.doc_type,
                        default=entry.default,
                        form=entry.form,
                        placed_by=how,
                        choices=entry.choices,
                        variable=entry.variable,
                    )
                )
        return out

    def _context(
        self,
        rel: str,
        sid: int,
        facts: DocFacts,
        parent: ConfigPath,
        by_section: dict[int, list[int]],
        blocks_by_section: dict[int, list[int]],
        nested_in_page: dict[tuple[str, str], tuple[str, ...]],
    ) -> tuple[ConfigPath, str, tuple[ConfigPath, int] | None]:
        section = facts.sections[sid]
        for key in section_names(rel, facts, sid) if self.explicit else ():
            if key in self.explicit:
                self.used.add(key)
                return tuple(p for p in self.explicit[key].split(".") if p), "configuration", None
        if section.heading_key is not None:
            key = section.heading_key
            return (
                _overlap(parent, tuple(key.split(".")) if key[:1] == "-" else split_name(key)),
                "heading names the key",
                None,
            )
        word = next(
            (facts.entries[i] for i in by_section.get(sid, []) if facts.entries[i].form == "word"),
            None,
        )
        if word is not None and self._word_path(word.name, parent) is not None:
            return (*parent, word.name), "heading names the key", None
        for bid in [] if self.flat else blocks_by_section.get(sid, []):
            block = facts.blocks[bid]
            tops = [k.path[0] for k in block.keys if len(k.path) == 1]
            has_children = any(len(k.path) >= 2 for k in block.keys)
            if len(set(tops)) == 1 and has_children:
                top = tops[0]
                if (
                    top == "plugins"
                    and self.root.model_kind == "mkdocs"
                    and self.root.child(top) is None
                ):
                    # ``plugins: - name: {...}`` in mkdocs.yml: the plugin's
                    # own options, at the top of its surface.
                    return parent, "a MkDocs plugin's entry in mkdocs.yml", None
                lang = _family(block.lang)
                page_paths = {
                    k: self._page_path(v, parent)
                    for (family, k), v in nested_in_page.items()
                    if k == top and family == lang
                }
                path, how = self._locate(top, parent, page_paths)
                return path, how, (path, bid)
            if len(set(tops)) > 1:
                return parent, "example block at the top of the config", ((), bid)
        entries = [facts.entries[i] for i in by_section.get(sid, [])]
        names = [e.parts[-1] for e in entries if len(e.parts) == 1 and e.parent_entry is None]
        if entries and (entries[0].doc_type or "").lower() in _DICT_TYPES and len(entries) > 1:
            head = _overlap(parent, entries[0].parts)
            rest = names[1:]
            fits_head = sum(_accepts(self.root, head, n) for n in rest)
            fits_parent = sum(_accepts(self.root, parent, n) for n in rest)
            if fits_head >= fits_parent:
                return head, "first entry is a dictionary that holds the rest", None
        fit = self._best_fit(names)
        if fit is not None and fit != parent:
            return fit, "schema fit: the node whose keys best match the section", None
        titled = self._titled_keys(facts, sid, by_section)
        fit = self._best_fit(titled) if not names and len(titled) >= 3 else None
        if fit is not None and fit != parent:
            # "Importer Options" over sections titled ``write``, ``copy``,
            # ``move``: the node that holds those keys.
            return fit, "schema fit: the node whose keys its subsections name", None
        if not parent and self.page_context:
            return self.page_context, "the one schema node holding the page's keys", None
        if (
            len(set(names)) >= _MIN_FOREIGN
            and not any(_accepts(self.root, parent, n) for n in names)
            and self._best_fit(names) is None
        ):
            # Three keys or more, none of them this configuration's: the
            # section documents another configuration (a dict the code hands
            # around), not drift here.
            self.foreign.add((rel, sid))
            return parent, FOREIGN, None
        return parent, "parent section" if parent else "top level", None

    def _page_path(self, block_path: tuple[str, ...], parent: ConfigPath) -> ConfigPath:
        first = block_path[0]
        if self.root.child(first) is not None:
            return block_path
        return (*parent, *block_path)

    def _block_paths(
        self,
        facts: DocFacts,
        bids: list[int],
        top: tuple[ConfigPath, int] | None,
        nested_in_page: dict[tuple[str, str], tuple[str, ...]],
    ) -> dict[str, list[ConfigPath]]:
        """Full config paths of every key in the section's example blocks."""
        out: dict[str, list[ConfigPath]] = {}
        if top is None:
            return out
        context, main = top
        for bid in [main, *(b for b in bids if b != main)]:
            block = facts.blocks[bid]
            tops = {k.path[0] for k in block.keys if len(k.path) == 1}
            base: ConfigPath = context
            if context and len(tops) == 1:
                first = next(iter(tops))
                if first == context[-1]:
                    base = context[:-1]
                else:
                    # Another one-key example in the section: locate its key;
                    # when nothing places it, it sits beside the section's key
                    # (the tensorboard, wandb and comet examples of one section).
                    page = {
                        k: self._page_path(v, context)
                        for (family, k), v in nested_in_page.items()
                        if k == first and family == _family(block.lang)
                    }
                    located, how = self._locate(first, context, page)
                    base = located[:-1] if how != _FALLBACK else context[:-1]
            for key in block.keys:
                out.setdefault(key.path[-1], []).append((*base, *key.path))
        return out

    def _open(self, path: ConfigPath) -> bool:
        """Is ``path`` inside a free-form dict (no declared keys, not strict)?"""
        node = self.root
        for key in path:
            if node is not self.root and not node.children and node.strict is not True:
                return True
            nxt = node.child(key) or node.children.get(ANY_KEY) or node.children.get(LIST_ITEM)
            if nxt is None:
                return False
            node = nxt
        return node is not self.root and not node.children and node.strict is not True

    def _entry_path(
        self,
        entry: RawEntry,
        context: ConfigPath,
        scopes: list[ConfigPath],
        block_paths: dict[str, list[ConfigPath]],
        paths: dict[int, ConfigPath],
        names_section: bool,
    ) -> tuple[ConfigPath, str]:
        if entry.parent_entry is not None and entry.parent_entry in paths:
            return (*paths[entry.parent_entry], *entry.parts), "table under its entry"
        if entry.form == "heading":
            name = entry.parts[-1]
            if context and normal(name) != normal(context[-1]):
                # A heading that names two keys (``build``, ``skip``): the
                # second is the first's sibling.
                return (*context[:-1], *entry.parts), "heading"
            return context, "heading"
        if len(entry.parts) > 1:
            return _overlap(context, entry.parts), "spelled as a path"
        name = entry.parts[0]
        if context and context[-1] == name:
            return context, "names the section"
        found = block_paths.get(name)
        if found:
            shortest = min(found, key=len)
            return shortest, "example block"
        known_elsewhere = name in self.index
        for scope in reversed(scopes):
            if _accepts(self.root, scope, name):
                return (*scope, name), f"schema fit under {format_path(scope)}"
            if not known_elsewhere and self._open(scope):
                return (*scope, name), f"inside the free-form dictionary {format_path(scope)}"
        kind = (entry.doc_type or "").lower()
        if (
            names_section
            and context
            and kind in _DICT_TYPES
            and not _accepts(self.root, context, name)
        ):
            # The section documents its own key as a dictionary entry; another
            # dictionary entry beside it is a sibling (tensorboard, wandb, ...).
            return (*context[:-1], name), "a dictionary entry beside the section's own"
        return (*context, name), "section context"


def place_entries(
    schema: SchemaNode,
    config: Config,
    pages: list[tuple[str, DocFacts]],
    other_programs: frozenset[str] = frozenset(),
) -> tuple[DocPlacer, list[DocEntry]]:
    placer = DocPlacer(schema, *configured_sections(config, "", first=True))
    placer.other_programs = other_programs
    entries: list[DocEntry] = []
    for rel, doc in pages:
        entries.extend(placer.place(rel, doc))
    return placer, entries


#: Languages of one file format, as example blocks tag them.
_FAMILIES = {"yml": "yaml", "jsonc": "json", "json5": "json", "cfg": "ini", "py": "python"}


def _family(lang: str) -> str:
    """The file format a block's language is (``yml`` is ``yaml``)."""
    return _FAMILIES.get(lang, lang)
