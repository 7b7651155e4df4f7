"""How one key is spelt on each side, and the affixes a container's keys
share.

A settings module writes ``AUTO_CAST_FOR_DYNACONF``, an environment
``MYAPP_AUTO_CAST``, a page ``auto_cast`` or ``--auto-cast``: one key.
``normal`` compares spellings whatever their case, separators or a flag's
dashes; ``shared_affixes`` finds the prefix and suffix nearly all of one
container's keys carry (its spelling convention, not part of any key), and
``bare`` strips them, so that the docs' plain spelling can be an alias of
the code's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

# An environment variable's name (``APP_PORT``), as the docs' labels read it.
from configdrift.extract.docs.label_values import VARIABLE as VARIABLE

# Two names one letter apart (a misspelling), as extraction tells them too.
from configdrift.extract.names import one_edit as one_edit

#: The least share of a container's keys that must carry an affix for it
#: to be the container's convention rather than a word some keys share.
AFFIX_SHARE = 0.75
#: The fewest keys a container holds for its affixes to be learned: in
#: fewer, a shared word (``MAX_``) is as likely as a convention.
AFFIX_MIN_KEYS = 5


def normal(spelling: str) -> str:
    """A spelling as comparisons read it: no flag dashes, ``-`` as ``_``,
    lower case (``--Auto-Cast`` and ``auto_cast`` are one)."""
    return spelling.strip().lstrip("-").replace("-", "_").lower()


def _most_shared(candidates: Iterable[str], total: int) -> str:
    counts = Counter(candidates)
    best = ""
    for affix, count in counts.items():
        if count >= AFFIX_SHARE * total and len(affix) > len(best):
            best = affix
    return best


def shared_affixes(names: Iterable[str]) -> tuple[str, str]:
    """(prefix, suffix) that at least three quarters of ``names`` carry, each
    whole words between underscores (``MYAPP_``, ``_FOR_DYNACONF``), the
    longest such; ``""`` where there is none. A name that is only the
    affix does not count for it."""
    names = [n for n in names if "_" in n.strip("_")]
    if len(names) < AFFIX_MIN_KEYS:
        return "", ""
    prefixes: list[str] = []
    suffixes: list[str] = []
    for name in names:
        words = name.split("_")
        for cut in range(1, len(words)):
            prefixes.append("_".join(words[:cut]) + "_")
            suffixes.append("_" + "_".join(words[cut:]))
    total = len(names)
    return _most_shared(prefixes, total), _most_shared(suffixes, total)


def bare(name: str, affixes: tuple[str, str]) -> str | None:
    """``name`` without the container's affixes, in lower case, when it
    carries one and something is left (``AUTO_CAST_FOR_DYNACONF`` ->
    ``auto_cast``); else None."""
    prefix, suffix = affixes
    core = name
    if prefix and core.startswith(prefix):
        core = core[len(prefix) :]
    if suffix and core.endswith(suffix):
        core = core[: -len(suffix)]
    if core == name or not core.strip("_"):
        return None
    return core.lower()


def separated(flag: str) -> str:
    """``--log_level`` for ``--log-level``: two flags to a parser, one
    option to a reader."""
    return "--" + flag[2:].replace("-", "_")


#: A name spelt whole in text (bytes): not part of a longer word or flag.
WHOLE = rb"(?<![\w-])(%b)(?![\w-])"


def alternation(names: set[str] | frozenset[str]) -> bytes:
    """The names as one alternation of a bytes pattern, escaped, in order."""
    return b"|".join(re.escape(n.encode()) for n in sorted(names))


#: The keys of words of a tree its pages must write with dashes, and more
#: of them than with underscores, for the dashed spelling to be its users'.
MIN_DASHED = 3


def dashed_tree(keys: Iterable[str], written: Iterable[str]) -> bool:
    """Do the pages write a tree's keys of words with dashes, as its
    loader reads them (``minimum-version`` for the field
    ``minimum_version``): ``MIN_DASHED`` of them at least, and more than
    they write with underscores? ``written``: the keys as the pages
    write them."""
    seen = set(written)
    worded = {k for k in keys if "_" in k.strip("_")}
    dashed = sum(1 for k in worded if k.replace("_", "-") in seen)
    return dashed >= MIN_DASHED and dashed > sum(1 for k in worded if k in seen)


def in_capitals(name: str) -> bool:
    """Is it a settings name, in capitals (``HOOKS``, ``CONF_SOURCE``)?"""
    return name[:1].isalpha() and name.isupper() and name.replace("_", "").isalnum()


def distinctive(key: str) -> bool:
    """Is a key unlikely to be an everyday word (``sparse_gradients``, not
    ``enabled``)? Only such keys are looked for as bare words in text."""
    return "_" in key or "-" in key


def split_key(text: str) -> tuple[str, ...]:
    """A dotted key as a config path: ``a.b`` is ``b`` under ``a``."""
    return tuple(part for part in text.split(".") if part)


#: The endings of a verb's forms (``collected``, ``ignored``, ``sorting``):
#: a word of a key so ended and its stem are one word, misspelt.
_ENDINGS = ("ed", "d", "ing")
#: The shortest stem an ending is taken off.
_MIN_STEM = 3


def inflected(name: str) -> set[str]:
    """The name of words (``_`` or ``-`` between them) with one word put
    back to its stem: ``collected_imported_tests`` gives
    ``collect_imported_tests`` and ``collected_import_tests``; the plural
    is another word (``gallery_dirs``), never one of these."""
    words = re.split(r"([_-])", name)
    if len(words) < 3:
        return set()
    return {
        "".join([*words[:at], word[: -len(end)], *words[at + 1 :]])
        for at in range(0, len(words), 2)
        if len(word := words[at]) <= 60
        for end in _ENDINGS
        if word.endswith(end) and len(word) - len(end) >= _MIN_STEM
    }
