"""Dotted names the docs' prose spells in code (``c.configurableHTTPProxy.api_url``,
``zero_optimization.stage3_max_reuse_distanc``) that no configuration has,
where fixing one part's spelling gives a key of one: a reader who copies
the name sets nothing, or fails. Names of words too (``'example_dirs'``
for ``examples_dirs``), on any page, read or not, that names a key of the
same section as it is (``index.pages.misspelling_pages`` picks the pages
no surface reads that spell such a name). Shared by CD101 (a strict
parent) and CD102 (a lenient one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.docs.entry_text import class_name
from configdrift.files import read_or_none
from configdrift.index.pages import deletions
from configdrift.index.spellings import inflected, normal, one_edit
from configdrift.model import Finding, Location, SchemaNode
from configdrift.rules.evidence import code_files, every_spelling, loaded_names, once, quoted_in
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: Code files searched for a name before it is called a misspelling.
_MAX_CODE_FILES = 5000


def _spellings(node: SchemaNode) -> tuple[str, ...]:
    return tuple(s for s in (node.spellings or (node.key,)) if isinstance(s, str))


class _Children:
    """A node's children by spelling, by spelling in one case, and by
    length: what a part of a name is looked up in, built once a node."""

    def __init__(self, node: SchemaNode) -> None:
        self.exact: dict[str, SchemaNode] = {}
        self.folded: dict[str, list[SchemaNode]] = {}
        self.by_length: dict[int, list[str]] = {}
        #: Each spelling and its forms with one word put back to its stem.
        self.stems: dict[str, set[str]] = {}
        for child in node.children.values():
            for spelling in _spellings(child):
                self.exact.setdefault(spelling, child)
                self.folded.setdefault(spelling.casefold(), []).append(child)
                self.by_length.setdefault(len(spelling), []).append(spelling)
                for form in {spelling} | inflected(spelling):
                    self.stems.setdefault(form, set()).add(spelling)

    def near(self, part: str) -> SchemaNode | None:
        """The one child ``part`` misspells: the same letters in another
        case, one letter apart, or one word of it in another form
        (``collected_imported_tests`` for ``collect_imported_tests``)."""
        folded = self.folded.get(part.casefold(), [])
        if len(folded) == 1:
            return folded[0]
        size = len(part)
        close = [
            s
            for n in (size - 1, size, size + 1)
            for s in self.by_length.get(n, ())
            if one_edit(part, s)
        ]
        if not close:
            forms = {part} | inflected(part)
            close = sorted({s for f in forms for s in self.stems.get(f, ())} - {part})
        return self.exact[close[0]] if len(close) == 1 else None


class _Index:
    """The children of each node of a schema, built as they are asked for."""

    def __init__(self) -> None:
        self._by_node: dict[int, _Children] = {}

    def children(self, node: SchemaNode) -> _Children:
        found = self._by_node.get(id(node))
        if found is None:
            found = self._by_node[id(node)] = _Children(node)
        return found

    def resolve(
        self, root: SchemaNode, parts: list[str]
    ) -> tuple[SchemaNode, SchemaNode, str] | None:
        """Where ``parts`` lands when one part, and one only, is misspelt:
        the node it names, the parent of the misspelt part, and the
        spelling; None when the parts name a key as they are, or no key
        with one fix."""
        node, fixed = root, None
        for part in parts:
            children = self.children(node)
            child = children.exact.get(part)
            if child is None:
                if fixed is not None:
                    return None
                child = children.near(part)
                if child is None:
                    return None
                fixed = (node, part)
            node = child
        if fixed is None:
            return None
        return node, fixed[0], fixed[1]

    def moved(self, root: SchemaNode, parts: list[str]) -> tuple[SchemaNode, SchemaNode] | None:
        """Where ``parts`` lands when its last key is a key of another
        section beside the one named (``run.exclude_also`` for
        ``report.exclude_also``): the key's node and the section that
        lacks it; None unless exactly one section beside holds it."""
        node: SchemaNode | None = root
        for part in parts[:-2]:
            node = self.children(node).exact.get(part) if node is not None else None
        if node is None or len(parts) < 2:
            return None
        section = self.children(node).exact.get(parts[-2])
        key = parts[-1]
        if section is None or not section.children or key in self.children(section).exact:
            return None
        homes = [
            self.children(other).exact[key]
            for other in node.children.values()
            if other is not section and key in self.children(other).exact
        ]
        return (homes[0], section) if len(homes) == 1 else None

    def exists(self, root: SchemaNode, parts: list[str]) -> bool:
        node: SchemaNode | None = root
        for part in parts:
            node = self.children(node).exact.get(part) if node is not None else None
        return node is not None


def misspelt_mentions(analysis: Analysis, strict: bool) -> Iterator[Finding]:
    """CD101 (``strict``) or CD102 for each name the prose spells that is a
    misspelling of a key of this surface and of no key of any surface, or
    that puts a key of one section under another (``[run] exclude_also``
    for ``[report]``'s)."""
    first = analysis.first or analysis
    if not first.mentions:
        return
    root = analysis.schema
    traits = root.model_kind == "traitlets"
    index = _Index()
    candidates: list[tuple[str, str, int, SchemaNode, SchemaNode, str]] = []
    names_on: dict[str, set[str]] = {}
    for rel, name, _ in first.mentions:
        names_on.setdefault(rel, set()).add(name)
    for entry in analysis.entries:
        names_on.setdefault(entry.location.path, set()).add(entry.name)
    for rel, name, line in first.mentions:
        parts = name.split(".")
        if traits and parts[0] == "c":
            parts = parts[1:]  # ``c.Class.trait`` in a traitlets config file
        if len(parts) == 1 and not class_name(name):
            found = _misspelt_word(analysis, index, rel, name, names_on.get(rel, set()) - {name})
            if found is not None and (found[1].strict is True) == strict:
                candidates.append((rel, name, line, *found))
            continue
        if len(parts) < 2 or any(index.exists(s.schema, parts) for s in first.everything):
            continue
        found = index.resolve(root, parts)
        moved = index.moved(root, parts) if found is None else None
        if moved is not None and _known_strictness(root, moved[1]) is not None:
            # No part misspelt: the key sits in another section of a
            # configuration whose strictness is known (a table that lists
            # every option), so that nothing else reads it there.
            found = (*moved, "")
        if found is not None and (found[1].strict is True) == strict:
            candidates.append((rel, name, line, *found))
    # The code spells it: something real, not a misspelling.
    spelt = _spelt_in_code(analysis, {name for _, name, *_ in candidates if "." in name})
    words = _words_in_code(analysis, {name for _, name, *_ in candidates if "." not in name})
    for rel, name, line, node, parent, wrong in candidates:
        if name in spelt or name in words:
            continue
        right = ".".join(node.path)
        said = f"c.{right}" if traits and name.startswith("c.") else right
        section = ".".join(parent.path)
        if not wrong:
            wrong = node.key
            what = (
                f"the docs name `{name}`, but `{wrong}` is a key of "
                f"`{'.'.join(node.path[:-1])}`, not of `{section}`"
            )
        else:
            what = f"the docs name `{name}`, which no configuration has"
        if strict:
            owner = parent.model or "the schema"
            consequence = (
                f"{owner} forbids unknown keys, so following the docs {parent.rejection()}"
            )
        else:
            where = f"under `{section}`" if parent.path else "at the top level"
            consequence = f"nothing reads `{wrong}` {where}, so setting it does nothing"
        yield make(
            "CD101" if strict else "CD102",
            name,
            Location(rel, line),
            f"{what}: {consequence}",
            (),
            f"did you mean `{said}`?",
        )


def _misspelt_word(
    analysis: Analysis, index: _Index, rel: str, name: str, named: set[str]
) -> tuple[SchemaNode, SchemaNode, str] | None:
    """The key of this surface, at any depth, that a name of words the
    prose spells (``example_dirs``, ``--extras``) misspells by one letter,
    on a page that names another key beside it as it is (``named``: what
    the page names); None where the name is a key of any configuration, at
    any depth, in any case and with ``-`` or ``_``, or differs from the key
    only so or by its number."""
    shorts = {name} | deletions(name) | inflected(name)
    if normal(name) in every_spelling(analysis) or not shorts & _near_keys(analysis):
        return None
    found = [
        (near, parent)
        for parent in _sections(analysis.schema)
        if (near := index.children(parent).near(name)) is not None
    ]
    if len(found) != 1:
        return None
    near, parent = found[0]
    if any(_alike(name, spelling) for spelling in _spellings(near)):
        return None
    if not named & index.children(parent).exact.keys():
        return None
    return near, parent, name


def _near_keys(analysis: Analysis) -> frozenset[str]:
    """The keys of this surface, the keys with one letter left out and
    with one word put back to its stem: a quick test before a name is
    looked up section by section."""
    schema = analysis.schema
    return once(
        analysis,
        f"near keys of {id(schema)}",
        lambda: frozenset(
            short
            for node in schema.walk()
            for spelling in _spellings(node)
            for short in {spelling} | deletions(spelling) | inflected(spelling)
        ),
    )


def _alike(name: str, key: str) -> bool:
    """Is ``name`` the key in the singular or the plural (``gallery_dir``,
    a path of ``gallery_dirs``): another word, not a misspelling?"""
    a, b = normal(name), normal(key)
    return a + "s" == b or b + "s" == a


def _sections(root: SchemaNode) -> Iterator[SchemaNode]:
    """The nodes of a schema that have keys, the root first."""
    return (node for node in root.walk() if node.children)


def _words_in_code(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` some code file spells as a key is spelt: a whole
    string literal or an attribute read, in any case and with ``-`` or
    ``_`` (``"in_place"`` for ``--in-place``); a bare word of a docstring
    or a comment is no key."""
    forms: dict[str, str] = {}
    for name in names:
        bare = name.lstrip("-")
        for form in {name, bare, bare.replace("-", "_"), bare.replace("_", "-")}:
            forms.update({form: name, form.lower(): name, form.upper(): name})
    code = code_files(analysis)[:_MAX_CODE_FILES]
    spelt = quoted_in(analysis, code, set(forms)) | (loaded_names(analysis) & forms.keys())
    return {forms[form] for form in spelt}


def _known_strictness(root: SchemaNode, node: SchemaNode) -> bool | None:
    """Whether ``node`` rejects unknown keys, as it or its nearest ancestor
    says; None where nothing says (a section defaults define, which code
    may read beyond)."""
    known = root.strict
    current = root
    for key in node.path:
        nxt = current.children.get(key)
        if nxt is None:
            break
        current = nxt
        if current.strict is not None:
            known = current.strict
    return known


def _spelt_in_code(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` some code file of the project spells, read one file at
    a time, stopping once all are found."""
    found: set[str] = set()
    if not names:
        return found
    root = analysis.config.root
    for path in code_files(analysis)[:_MAX_CODE_FILES]:
        data = read_or_none(root, path)
        if data is not None:
            found |= {name for name in names - found if name.encode() in data}
            if found == names:
                break
    return found
