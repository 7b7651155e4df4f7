"""The keys a heading's plain text names, in either markup: an option
alone (``--dry-run``, ``--config-file PATH``), or a word spelt as a key
with a note in brackets after it (``max_retries (optional)``)."""

from __future__ import annotations

import re

from configdrift.extract.docs.entry_text import spelt_as_key

#: A long option spelt alone: ``--dry-run``, ``--config-file``.
LONG_OPTION = re.compile(r"--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: What follows an option in its heading: ``PATH``, ``CONFIG_KEY``, ``[N]``, ``<file>``.
#: (A bracket does not hold another of its kind: so each one is read once.)
METAVAR = re.compile(r"[A-Z][A-Z0-9_]*+|\[[^\[\]\s]++\]|<[^<>\s]++>")


def flag_title(words: list[str]) -> str | None:
    """The option a heading of plain text is the entry of: a long option
    alone or with up to three metavariables (``--dry-run``, ``--config-file
    PATH``); None for any other title."""
    if not words or len(words) > 4 or not LONG_OPTION.fullmatch(words[0]):
        return None
    return words[0] if all(METAVAR.fullmatch(w) for w in words[1:]) else None


#: A note in brackets after a key in its heading: ``(deprecated)``, ``(optional)``.
_NOTE = re.compile(r"\([^()]{1,60}\)")


def noted_key(words: list[str]) -> str | None:
    """The key a heading names with a note in brackets after it
    (``allow_shell_hooks (compatibility opt-in)``): a word spelt as a key."""
    if len(words) > 1 and spelt_as_key(words[0]) and _NOTE.fullmatch(" ".join(words[1:])):
        return words[0]
    return None
