"""A key a reference page documents that no file of the project spells in
any form (part of CD102), where the page's other keys are spelt by one
file of the code.

A page some surface reads (one of its entries is placed) lists keys in
one form, a heading each or the rows of a table. Where all but a third of
them are spelt by the project's files, and one file spells half of them
(three at least: the configuration's container, whatever built it), a key
of that list that no file spells is read by nothing: not whole, in any
case and with ``-`` or ``_`` (``filtering_strategy``), nor as a part of a
longer name between separators (``FILTERING_STRATEGY_FOR_DYNACONF`` spells
``filtering_strategy``), nor as a name the code may build (``f"{name}_report"``,
``key.endswith("_report")``). The files searched are the code, the
project's other Python, its config files and everything else inside the
code's folders (a package's templates read keys too); where one is not
read, nothing is judged. A name in capitals (an environment variable a
library may read), a key whose description tells of its removal, and a
history page are never judged. A key a surface places is its own rules'
to judge, but a lowercase word placed on a settings object or the
environment (which spell their keys in capitals, and leave it alone).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.discover import HISTORY_PAGES, MAX_TEMPLATES
from configdrift.extract.docs.facts import NO_EVIDENCE_FORMS
from configdrift.files import read_or_none
from configdrift.index.spellings import one_edit
from configdrift.model import DocEntry, Finding, Location, Related, format_path, resolve_path
from configdrift.rules.evidence import MAX_OTHER_BYTES, MAX_OTHER_FILES, code_files
from configdrift.rules.lifecycle import HISTORY_WORDS, MAX_ENTRY_LINES, page_lines
from configdrift.rules.registry import make
from configdrift.rules.unspelled import built_keys

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: A key's name: words joined by ``_`` or ``-`` (a single word is as often
#: a value, a section's title or a term).
KEY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{0,60}+(?:[_-][A-Za-z0-9]{1,60}+){1,12}+")
#: At most one key in this many of a list may be spelt nowhere.
UNSPELT_SHARE = 3
#: The fewest of a list's keys one file must spell to be its container.
MIN_CONTAINED = 3
#: The longest word cut into its parts, and the most parts it is cut in.
MAX_WORD = 100
MAX_PARTS = 12

#: A key a page lists: its name, the line, and its path as written.
Listed = tuple[str, int, str]

_WORD = re.compile(rb"[\w-]++")
_SEPARATOR = re.compile(rb"[_-]")
#: A string literal of the code that begins or ends with a separator
#: (``"_report"``, ``"theme_"``): a part of names the code builds or matches.
_FRAGMENT = re.compile(rb"""["']([_-][\w-]{1,60}|[\w-]{1,60}[_-])["']""")


def spelt_nowhere(analysis: Analysis) -> Iterator[Finding]:
    """CD102 for each key of a reference page's list that no file of the
    project spells in any form (see the module's docs), on the first
    surface."""
    if analysis.first is not None:
        return
    lists = _lists(analysis)
    if not lists:
        return
    files = [
        *code_files(analysis),
        *analysis.other_python,
        *analysis.config_files,
        *analysis.templates,
        *analysis.package_data,
    ]
    if len(files) > MAX_OTHER_FILES or len(analysis.package_data) >= MAX_TEMPLATES:
        return  # not every file is searched: any name may be spelt
    code = set(code_files(analysis))
    found = _spellings(analysis, files, [{n for n, _, _ in e} for e in lists.values()], code)
    if found is None:
        return
    within, words_of, fragments = found
    placed = {
        (entry.location.path, entry.location.line): (entry, surface)
        for surface in analysis.everything
        for entry in surface.entries
    }
    told: dict[str, set[int]] = {}
    for (page, _form), entries in sorted(lists.items()):
        listed = {name for name, _, _ in entries}
        unspelt = {
            name for name in listed if not within.get(name) and not _fragment_of(name, fragments)
        }
        unspelt -= built_keys(analysis, unspelt) if unspelt else set()
        if not unspelt or UNSPELT_SHARE * len(unspelt) > len(listed):
            continue
        container, count = _container(listed - unspelt, within)
        if container is None or count < MIN_CONTAINED or 2 * count < len(listed):
            continue
        words = {w.decode(errors="replace") for w in words_of[container]}
        first = _first_line(analysis, container, listed - unspelt)
        if page not in told:
            told[page] = _told_retired(analysis, page)
        for name, line, written in entries:
            if name not in unspelt or line in told[page]:
                continue
            held = placed.get((page, line))
            if held is not None and not _left_over(*held):
                continue  # the surface's rules judge its keys (CD101, CD102)
            key = format_path(held[0].path) if held is not None else written
            close = next((w for w in sorted(words) if one_edit(w, name.lower())), None)
            yield make(
                "CD102",
                key,
                Location(page, line),
                f"`{name}` is documented, but no file of the project spells it in any form, "
                f"while {count} of the {len(listed) - 1} other keys its page lists so are "
                f"spelt in {container}: nothing reads it, and a config that sets it is "
                "silently ignored",
                (Related(container, first, "spells the page's other keys"),),
                f"the code spells `{close}`" if close else None,
            )


def _left_over(entry: DocEntry, surface: Analysis) -> bool:
    """Is an entry placed on a surface one its rules leave alone as no key
    of theirs: a lowercase word on the environment or a settings object,
    which spell their keys in capitals? Every other entry a surface
    places is its own to judge: a strict or lenient node that lacks it
    says so, and an open one may hand it to code that reads it (a dict
    handed whole to another library, a theme that inherits another's
    options)."""
    node, _, parent = resolve_path(surface.schema, entry.path)
    return node is None and parent.model_kind in ("env", "setting")


def _lists(analysis: Analysis) -> dict[tuple[str, str], list[Listed]]:
    """The keys each page some surface reads lists in one form (headings,
    a table's rows, the new names of a table of renamed keys): (page,
    form) to each key's name, line and path as written."""
    read = {entry.location.path for s in analysis.everything for entry in s.entries}
    lists: dict[tuple[str, str], list[Listed]] = {}
    for page, facts in sorted(analysis.doc_facts.items()):
        if page not in read or HISTORY_PAGES.search(page):
            continue
        written = [
            (entry.form, entry.parts[-1] if entry.parts else entry.name, entry.line, entry.parts)
            for entry in facts.entries
            if entry.form not in NO_EVIDENCE_FORMS
        ]
        written += [("renamed", new, line, (new,)) for _, new, line in facts.renames]
        for form, last, line, parts in written:
            name = last.rsplit(".", 1)[-1]
            if KEY_NAME.fullmatch(name) and name != name.upper():
                listed = (name, line, ".".join(parts) or name)
                lists.setdefault((page, form), []).append(listed)
    return lists


def _told_retired(analysis: Analysis, page: str) -> set[int]:
    """The lines of a page's entries whose description tells of their
    key's removal or deprecation ("This option has been removed in v10"):
    the line up to the page's next entry, at most ``MAX_ENTRY_LINES``."""
    lines = page_lines(analysis, page, {}, limit=MAX_OTHER_BYTES)
    starts = sorted({entry.line for entry in analysis.doc_facts[page].entries})
    out: set[int] = set()
    for at, start in enumerate(starts):
        end = min([*starts[at + 1 : at + 2], start + MAX_ENTRY_LINES])
        if any(HISTORY_WORDS.search(text) for text in lines[start - 1 : end - 1]):
            out.add(start)
    return out


def _variants(names: set[str]) -> dict[bytes, set[str]]:
    """Each spelling of ``names`` in small letters, with ``-`` or ``_``."""
    out: dict[bytes, set[str]] = {}
    for name in names:
        lower = name.lower()
        for form in (lower, lower.replace("-", "_"), lower.replace("_", "-")):
            out.setdefault(form.encode(), set()).add(name)
    return out


def _spellings(
    analysis: Analysis, files: list[str], lists: list[set[str]], code: set[str]
) -> tuple[dict[str, set[str]], dict[str, set[bytes]], set[str]] | None:
    """One read of each file: the files that spell each name of ``lists``
    whole or as a part of a longer name (the parts are looked for only in
    the lists where some name is spelt nowhere whole), each file's words
    of more than one part (the near spellings offered), and the string
    literals of the ``code`` that begin or end with a separator
    (``"_report"``, in small letters with ``_`` for ``-``); None where a
    file is not read (too large, unreadable)."""
    wanted = _variants({name for names in lists for name in names})
    within: dict[str, set[str]] = {}
    words_of: dict[str, set[bytes]] = {}
    fragments: set[str] = set()
    for rel in files:
        data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES)
        if data is None:
            return None
        if rel in code:
            fragments.update(m.decode().lower().replace("-", "_") for m in _FRAGMENT.findall(data))
        words = set(_WORD.findall(data.lower()))
        words_of[rel] = {w for w in words if _SEPARATOR.search(w)}
        for word in words & wanted.keys():
            for name in wanted[word]:
                within.setdefault(name, set()).add(rel)
    parted = _variants({n for names in lists if not names <= within.keys() for n in names})
    # The first words of the names: where a part that may be one begins.
    heads = {_SEPARATOR.split(spelling, 1)[0] for spelling in parted}
    for rel, words in words_of.items() if parted else ():
        for word in words:
            for part in _inner_parts(word, heads):
                for name in parted.get(part, ()):
                    within.setdefault(name, set()).add(rel)
    return within, words_of, fragments


def _inner_parts(word: bytes, heads: set[bytes]) -> Iterator[bytes]:
    """The runs of a word's parts between separators that begin with one
    of ``heads``, other than the whole word (``redis_enabled`` of
    ``redis_enabled_for_dynaconf``)."""
    if len(word) > MAX_WORD or not _SEPARATOR.search(word):
        return
    cuts = [-1, *(m.start() for m in _SEPARATOR.finditer(word)), len(word)]
    if len(cuts) > MAX_PARTS + 1:
        return
    for i in range(len(cuts) - 1):
        if word[cuts[i] + 1 : cuts[i + 1]] not in heads:
            continue
        for j in range(i + 1, len(cuts)):
            if i == 0 and j == len(cuts) - 1:
                continue
            part = word[cuts[i] + 1 : cuts[j]]
            if part:
                yield part


def _fragment_of(name: str, fragments: set[str]) -> bool:
    """Does ``name`` end with a fragment that begins with a separator, or
    begin with one that ends with one: a name the code may build or match?"""
    spelt = name.lower().replace("-", "_")
    return any(
        (f[0] == "_" and spelt.endswith(f)) or (f[-1] == "_" and spelt.startswith(f))
        for f in fragments
        if len(f) < len(spelt)
    )


def _container(spelt: set[str], within: dict[str, set[str]]) -> tuple[str | None, int]:
    """The file that spells most of ``spelt``, and how many."""
    counts: dict[str, int] = {}
    for name in spelt:
        for rel in within.get(name, ()):
            counts[rel] = counts.get(rel, 0) + 1
    if not counts:
        return None, 0
    best = min(counts, key=lambda rel: (-counts[rel], rel))
    return best, counts[best]


def _first_line(analysis: Analysis, rel: str, names: set[str]) -> int:
    """The line of a file where it first spells one of ``names``."""
    data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES) or b""
    lower = data.lower()
    spellings = _variants(names)
    heads = {_SEPARATOR.split(spelling, 1)[0] for spelling in spellings}
    for line, text in enumerate(lower.split(b"\n"), 1):
        if any(
            word in spellings or any(part in spellings for part in _inner_parts(word, heads))
            for word in _WORD.findall(text)
        ):
            return line
    return 1
