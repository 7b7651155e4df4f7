"""The doc side of the key index: every key one page spells, by role.

A page documents a configuration in two ways: entries (a table row, a
definition, a heading that names the key) and example blocks that set it
(``[tool.app.envs.test]`` then ``skip-install = true``). Both are evidence
that a code container holding the same keys is that configuration; the
examples also say the path users write it under (``tool.app.envs.*``).
``PageKeys`` holds, per page, each key's spellings by the last part of its
path, in ``normal`` form, with the role and the whole path as written.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from configdrift.discover import in_tests
from configdrift.extract.byte_tests import may_render_docstrings
from configdrift.extract.docs.entry_text import CONFIG_LANGS, class_name, words_name
from configdrift.extract.docs.facts import NO_EVIDENCE_FORMS, DocFacts
from configdrift.files import read_or_none
from configdrift.index.programs import may_run, may_run_script
from configdrift.index.spellings import WHOLE, alternation, normal

#: A key the page documents with an entry of its own.
ENTRY = "entry"
#: A key an example block of the page sets.
EXAMPLE = "example"
#: The part of a path standing for any key (``tool.app.envs.*``).
ANY = "*"
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Spelt:
    """One spelling of a key on a page: its whole path as written, its
    line and its role (``ENTRY`` or ``EXAMPLE``)."""

    path: tuple[str, ...]
    line: int
    role: str


@dataclass(frozen=True, slots=True)
class PageKeys:
    """The keys one page spells, by the ``normal`` form of their last part."""

    page: str
    spelt: Mapping[str, tuple[Spelt, ...]]
    #: The last part of each name the page's Python blocks call with
    #: keyword arguments (``Image`` of ``bentoml.images.Image(distro=...)``).
    calls: frozenset[str] = frozenset()
    #: The names the page writes as an object's attributes in code
    #: (``nox.options.envdir``), by the object (``("nox", "options")``).
    qualified: Mapping[tuple[str, ...], frozenset[str]] = field(default_factory=dict)
    #: The class names the page writes in code in its prose (``GroupConfig``).
    classes: frozenset[str] = frozenset()
    #: The keys each section whose heading names a key (``[core]``) has
    #: entries for, in ``normal`` form, by the heading's key in ``normal``
    #: form: a file's sections, each documented under its heading.
    sections: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: The project's Python files the page links, from the root
    #: (``src/configs/fsdp.py``): the code it says it documents.
    links: frozenset[str] = frozenset()
    #: The keys its list items open with in code and go on about in prose
    #: (``- `use_fp16` boolean flag to ...``), in ``normal`` form.
    mentioned: frozenset[str] = frozenset()

    def names(self, role: str | None = None) -> frozenset[str]:
        """The keys spelt (in ``normal`` form), of one role or of any."""
        return frozenset(
            key
            for key, found in self.spelt.items()
            if role is None or any(s.role == role for s in found)
        )

    def has_entries(self, keys: Iterable[str]) -> bool:
        """Has the page an entry for every one of ``keys``, however spelt?"""
        return {normal(key) for key in keys} <= self.names(ENTRY)

    def examples(self, keys: Iterable[str]) -> list[Spelt]:
        """The spellings of ``keys`` the page's examples set."""
        return [s for key in keys for s in self.spelt.get(key, ()) if s.role == EXAMPLE]

    def set_under(self, parent: str) -> frozenset[str]:
        """The keys its examples set right under a key of that name (an
        action's inputs under a workflow step's ``with:``)."""
        return frozenset(
            s.path[-1]
            for found in self.spelt.values()
            for s in found
            if s.role == EXAMPLE and len(s.path) >= 2 and s.path[-2] == parent
        )

    def set_at_top(self) -> frozenset[str]:
        """The keys its examples set at the top of a block, as written (the
        ``html_theme_options = {...}`` of a ``conf.py`` shown on the page)."""
        return frozenset(
            s.path[0] for found in self.spelt.values() for s in found if s.role == EXAMPLE
        )


def under(spellings: Iterable[Spelt]) -> tuple[str, ...]:
    """The path examples set their keys below, a part that differs between
    them (or is a placeholder, ``ENV_NAME``) as ``ANY``; ``()`` where most
    are set at the top, at paths of different depths, below a first part
    that differs or with two parts that differ."""
    prefixes = [s.path[:-1] for s in spellings]
    if not prefixes:
        return ()
    depth, count = Counter(len(p) for p in prefixes).most_common(1)[0]
    if depth == 0 or 2 * count <= len(prefixes):
        return ()
    same = [p for p in prefixes if len(p) == depth]
    parts: list[str] = []
    for i in range(depth):
        seen = {p[i] for p in same}
        only = next(iter(seen))
        parts.append(only if len(seen) == 1 and not _placeholder(only) else ANY)
    if parts[0] == ANY or parts.count(ANY) > 1:
        # Nothing fixed to place it by, or keys of several configurations
        # that share names (``build.targets.*`` beside ``build.hooks.*``).
        return ()
    return tuple(parts)


def _placeholder(part: str) -> bool:
    """Is a path part a name the reader replaces (``ENV_NAME``, ``<name>``)?"""
    bare = part.strip("<>{}")
    return bare != part or (bare.isupper() and "_" in bare)


def page_keys(page: str, doc: DocFacts) -> PageKeys:
    """The keys ``doc`` spells: its entries (but those that are no
    evidence, ``NO_EVIDENCE_FORMS``) and its config examples' keys; and
    the names its Python blocks call with keyword arguments."""
    spelt: dict[str, list[Spelt]] = {}
    for entry in doc.entries:
        if entry.form in NO_EVIDENCE_FORMS or not entry.parts:
            continue
        spelt.setdefault(normal(entry.parts[-1]), []).append(Spelt(entry.parts, entry.line, ENTRY))
    for block in doc.blocks:
        if block.lang not in CONFIG_LANGS or block.call:
            continue
        for key in block.keys:
            if key.path:
                spelt.setdefault(normal(key.path[-1]), []).append(
                    Spelt(key.path, key.line, EXAMPLE)
                )
    calls = frozenset(block.call.rpartition(".")[2] for block in doc.calls if block.call)
    qualified: dict[tuple[str, ...], set[str]] = {}
    named = [e.name for e in doc.entries if e.form == "mention"] + [n for n, _ in doc.mentions]
    for name in named:
        *owner, last = name.split(".")
        if owner:
            qualified.setdefault(tuple(owner), set()).add(last)
    sections: dict[str, set[str]] = {}
    for entry in doc.entries:
        heading = doc.sections[entry.section].heading_key if entry.parts else None
        if heading is not None and entry.form not in NO_EVIDENCE_FORMS:
            sections.setdefault(normal(heading), set()).add(normal(entry.parts[-1]))
    return PageKeys(
        page,
        {k: tuple(v) for k, v in spelt.items()},
        calls,
        {k: frozenset(v) for k, v in qualified.items()},
        frozenset(n for n, _ in doc.mentions if class_name(n)),
        {k: frozenset(v) for k, v in sections.items()},
        frozenset(filter(None, (linked_file(page, target) for target, _ in doc.code_links))),
        frozenset(normal(e.parts[-1]) for e in doc.entries if e.form == "mention" and e.parts),
    )


#: A link to a file of a repository on GitHub: the path after its ref.
_GITHUB_FILE = re.compile(
    r"^https://github\.com/[^/]{1,100}/[^/]{1,100}/(?:blob|tree)/[^/]{1,100}/"
)


def linked_file(page: str, target: str) -> str | None:
    """The file a page's link names, from the root: relative to the page's
    folder, from the root (``/src/app.py``), or a file of a repository on
    GitHub (the path after its ref); None for another site's, or one
    outside the tree."""
    github = _GITHUB_FILE.match(target)
    if github:
        path = target[github.end() :]
    elif "://" in target:
        return None
    elif target.startswith("/"):
        path = target[1:]
    else:
        path = posixpath.join(posixpath.dirname(page), target)
    path = posixpath.normpath(path)
    return None if path.startswith("..") or path == "." else path


def linked_best_page(
    pages: Iterable[PageKeys], path: str, keys: frozenset[str], least: float
) -> frozenset[str]:
    """The ``keys`` spelt by the entries of the page that links the file at
    ``path`` and spells most of them, ``least`` at least: a guide that says
    where the configuration is (``[FSDP config file](../src/fsdp.py)``) and
    lists part of its fields, in entries or list items that open with
    them; none where no page does."""
    linking = (p for p in pages if path in p.links)
    return best_page(linking, keys, least, 0.0, lambda p: p.names(ENTRY) | p.mentioned)


def best_page(
    pages: Iterable[PageKeys],
    keys: frozenset[str],
    least: float,
    share: float,
    names: Callable[[PageKeys], frozenset[str]] = lambda page: page.names(ENTRY),
) -> frozenset[str]:
    """The ``keys`` spelt by the page that spells most of them, where
    ``share`` of the page's entries (``names``, its entries by default)
    are of ``keys`` and they are ``least`` at least; none where no page is."""
    fields = {normal(k): k for k in keys}
    best: frozenset[str] = frozenset()
    for page in pages:
        entries = names(page)
        spelt = frozenset(fields[k] for k in fields.keys() & entries)
        if len(spelt) >= max(share * len(entries), least, len(best) + 1):
            best = spelt
    return best


def gathered(mappings: Iterable[Mapping[K, Iterable[str]]]) -> dict[K, set[str]]:
    """Each key's names over the pages' mappings, gathered: the keys
    documented under each heading (``PageKeys.sections``), the names
    written on each object (``PageKeys.qualified``)."""
    out: dict[K, set[str]] = {}
    for mapping in mappings:
        for key, names in mapping.items():
            out.setdefault(key, set()).update(names)
    return out


def calling(pages: Iterable[PageKeys]) -> dict[str, list[PageKeys]]:
    """The pages by each name their Python blocks call with keyword
    arguments (a class they construct, ``PageKeys.calls``)."""
    out: dict[str, list[PageKeys]] = {}
    for page in pages:
        for name in page.calls:
            out.setdefault(name, []).append(page)
    return out


def example_tops(pages: Iterable[PageKeys]) -> list[frozenset[str]]:
    """The keys each page's examples set at their top, in ``normal`` form;
    a page whose examples set none is left out."""
    return [top for page in pages if (top := frozenset(map(normal, page.set_at_top())))]


#: The fields the docs' example blocks must set, on this many pages at
#: least, for a model to be their configuration.
MIN_EXAMPLE_FIELDS = 10
MIN_EXAMPLE_PAGES = 3


def exemplified_fields(
    tops: list[frozenset[str]],
    keys: frozenset[str],
    least: int = MIN_EXAMPLE_FIELDS,
    pages: int = MIN_EXAMPLE_PAGES,
) -> frozenset[str]:
    """The model's fields the docs' examples set at the top of their
    blocks (``tops``, each page's, in ``normal`` form), on the pages whose
    blocks set more of its fields than other keys; none unless ``least``
    at least, on ``pages`` pages."""
    fields = {normal(k): k for k in keys}
    setting = [ours for top in tops if 2 * len(ours := top & fields.keys()) > len(top)]
    spelt = frozenset(fields[k] for ours in setting for k in ours)
    if len(spelt) < least or len(setting) < pages:
        return frozenset()
    return spelt


#: The pages, and the bytes of each, searched for names spelt whole.
MAX_SPELT_PAGES = 2000
MAX_SPELT_BYTES = 1 << 20


def spelt_whole(root: Path, pages: Iterable[str], names: frozenset[str]) -> frozenset[str]:
    """The ``names`` (``--extra-files``) the pages spell whole anywhere: in
    prose, as code, in a command line. The evidence a command line's flags
    give where no page lists them as entries."""
    if not names:
        return frozenset()
    pattern = re.compile(WHOLE % alternation(names))
    found: set[str] = set()
    for rel in list(pages)[:MAX_SPELT_PAGES]:
        data = read_or_none(root, rel, MAX_SPELT_BYTES)
        if data is not None:
            found.update(m.decode() for m in pattern.findall(data))
            if len(found) == len(names):
                break
    return frozenset(found)


#: A word, a flag or a name of words as a page spells it in prose or code
#: (``example_dirs``, ``--in-place``): what may misspell a key, where
#: ``words_name`` says it is a name.
_WORDS = re.compile(rb"(?<![\w-])(?:--)?[A-Za-z][A-Za-z0-9]*+(?:[_-][A-Za-z0-9]++)*+")


def deletions(word: str) -> set[str]:
    """The word with each letter left out: two words one letter apart
    (left out, added, changed or two swapped) share one of these, or one
    is the other's."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def misspelling_pages(root: Path, pages: Iterable[str], keys: Iterable[str]) -> list[str]:
    """The pages that spell a name of words one letter from a key of
    several words (a letter left out, added or changed), and not the key:
    the pages worth reading for a misspelt key where no entry is."""
    return pages_worth_reading(root, pages, keys)[0]


def pages_worth_reading(
    root: Path,
    pages: Iterable[str],
    keys: Iterable[str],
    programs: Iterable[str] = (),
    packages: Iterable[str] = (),
    scripts: AbstractSet[str] = frozenset(),
) -> tuple[list[str], list[str], list[str], list[str]]:
    """Of pages no surface reads, each read once: those that may misspell
    a key (``misspelling_pages``), those that may render a class from its
    docstring (an autodoc directive: its ``Args:`` are a reference,
    whatever else the page holds), those that may run one of the
    project's ``programs`` with a flag (``may_run``) or a script of one of
    the names of its ``scripts`` (``may_run_script``), and those that
    import one of its ``packages`` (``_importing``)."""
    wanted = {k for k in keys if words_name(k)}
    dropped: dict[str, set[str]] = {}
    for key in wanted:
        for short in deletions(key):
            dropped.setdefault(short, set()).add(key)
    programs = tuple(programs)
    spelt: list[str] = []
    rendering: list[str] = []
    running: list[str] = []
    calling: list[str] = []
    imports = _importing(packages)
    for rel in list(pages)[:MAX_SPELT_PAGES]:
        data = read_or_none(root, rel, MAX_SPELT_BYTES)
        if data is None:
            continue
        if wanted and _misspells(data, wanted, dropped):
            spelt.append(rel)
        if may_render_docstrings(data):
            rendering.append(rel)
        if (programs and may_run(data, programs)) or (scripts and may_run_script(data, scripts)):
            running.append(rel)
        if imports is not None and imports.search(data):
            calling.append(rel)
    return spelt, rendering, running, calling


#: The folders whose Python files show users the project's use.
EXAMPLE_FOLDERS = frozenset(
    {"examples", "example", "tutorials", "tutorial", "gallery", "docs", "doc"}
)


def example_scripts(root: Path, scripts: Iterable[str], packages: Iterable[str]) -> list[str]:
    """The Python files of the examples' and docs' folders (not a test's)
    that import one of the project's ``packages``, each read once and
    bounded as a page is: read for their calls of the project's own
    functions and classes (a gallery's tutorial, an example app)."""
    imports = _importing(packages)
    if imports is None:
        return []
    shown = [
        rel
        for rel in scripts
        if EXAMPLE_FOLDERS.intersection(rel.split("/")[:-1]) and not in_tests(rel)
    ]
    return [
        rel
        for rel in shown[:MAX_SPELT_PAGES]
        if (data := read_or_none(root, rel, MAX_SPELT_BYTES)) is not None and imports.search(data)
    ]


def _importing(packages: Iterable[str]) -> re.Pattern[bytes] | None:
    """What a page that imports one of the project's ``packages`` writes
    (``from pkg.lint import Run``, ``import pkg``): its Python may call
    the project's own functions and classes. None for no package."""
    names = sorted(re.escape(p.encode()) for p in packages)
    if not names:
        return None
    return re.compile(rb"(?m)^[ \t>.]*(?:from|import)[ \t]+(?:" + b"|".join(names) + rb")\b")


def pages_running(root: Path, pages: Iterable[str], scripts: AbstractSet[str]) -> list[str]:
    """The pages that may run a script of one of the names of ``scripts``
    with a flag (``may_run_script``), each read once and bounded as a page
    is: an example's README beside its script."""
    return [
        rel
        for rel in list(pages)[:MAX_SPELT_PAGES]
        if (data := read_or_none(root, rel, MAX_SPELT_BYTES)) is not None
        and may_run_script(data, scripts)
    ]


def scripts_running(root: Path, scripts: Iterable[str], programs: Iterable[str]) -> list[str]:
    """The shell scripts that may run one of the project's ``programs``
    with a flag (``may_run``), each read once and bounded as a page is."""
    programs = tuple(programs)
    if not programs:
        return []
    return [
        rel
        for rel in scripts
        if (data := read_or_none(root, rel, MAX_SPELT_BYTES)) is not None
        and may_run(data, programs)
    ]


def _misspells(data: bytes, wanted: set[str], dropped: dict[str, set[str]]) -> bool:
    """Does the page spell a name of words one letter from a wanted key
    (``dropped``: each key's spellings with a letter left out), and not
    the key?"""
    for raw in set(_WORDS.findall(data)):
        word = raw.decode()
        if word in wanted or not words_name(word):
            continue
        shorter = deletions(word)
        if word in dropped or shorter & wanted or any(s in dropped for s in shorter):
            return True
    return False
