"""Keys the code warns are deprecated: a message in a string of the
project's code that says a key of a surface is deprecated (``"The
analytics_id option is deprecated, use ..."``, ``"`max_conn` has been
deprecated"``, ``"APP_MODE environment variable is no longer
supported"``). The project says so where a user meets it, when the key
is set; a doc that teaches the key should say so too (CD402).

Only the key the message opens with and says is deprecated counts: the
words before "is deprecated" (a key named after it is the replacement,
``"X is deprecated, use Y"``), with nothing before it but "The" or
"option" (``"Using '--platform' in 'create_args' is deprecated"`` is about
the flag); only a key spelt in parts (``analytics_id``, not ``debug``)
or a flag (``"The --pastebin option is deprecated"``); inside a string:
a comment is no message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from configdrift.index.spellings import distinctive
from configdrift.model import DEPRECATED, ConfigPath, LifecycleEntry, Location
from configdrift.rules.evidence import bounded_files, code_files, once

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: A key, then (an "option" or "setting" noun, quoted or not) "is
#: deprecated" or "is no longer supported".
_SAYS_DEPRECATED = re.compile(
    rb"""((?:--)?[A-Za-z_][\w.-]{0,80}+)[`'"]?[ \t]{1,3}"""
    rb"""(?:(?:option|setting|parameter|key|config|configuration|value|item|environment|variable)"""
    rb"""[ \t]{1,3}){0,2}"""
    rb"""(?:is|are|has been|have been|was|were)[ \t]{1,3}"""
    rb"""(?:(?:now[ \t]{1,3})?deprecated|no[ \t]{1,3}longer[ \t]{1,3}supported)""",
    re.IGNORECASE,
)
#: What a message may say before the key it calls deprecated: it opens
#: with the key ("Using '--platform' in 'create_args' is deprecated" is
#: about the flag, not the key).
_OPENINGS = frozenset(
    {
        b"",
        b"the",
        b"option",
        b"the option",
        b"setting",
        b"the setting",
        b"parameter",
        b"the parameter",
    }
    | {b"key", b"the key", b"config", b"config key", b"the config key", b"warning:"}
)
#: How the finding names the evidence (``LifecycleEntry.source``).
SOURCE = "a warning in the code"


def _may_say(text: bytes) -> bool:
    """May ``text`` say a key is deprecated, or no longer supported?"""
    return b"eprecat" in text or b"EPRECAT" in text or b"longer supported" in text


def warned(analysis: Analysis) -> dict[str, Location]:
    """The names the project's code says are deprecated, in a string, with
    the first place of each; searched once for the project."""

    def search() -> dict[str, Location]:
        found: dict[str, Location] = {}
        for rel, data in bounded_files(analysis, code_files(analysis)):
            if not _may_say(data):
                continue
            lines = data.split(b"\n")
            for line_number, line in enumerate(lines, 1):
                if not _may_say(line):
                    continue
                if not _SAYS_DEPRECATED.search(line) and line.lstrip()[:1] in _QUOTES:
                    # A message cut into strings the parser joins:
                    # ``"The core.tmp-dir item is"`` then ``" deprecated"``.
                    line = _joined(lines, line_number - 1)
                for match in _SAYS_DEPRECATED.finditer(line):
                    name = match.group(1).decode("utf-8", "replace").rstrip(".-").strip(".")
                    quote = _opening_quote(line, match.start())
                    if quote < 0 or line.lstrip().startswith(b"#"):
                        continue  # not in a string, or in a comment
                    opening = line[quote + 1 : match.start()].strip(b"`'\" \t").lower()
                    if opening not in _OPENINGS:
                        continue  # the key is not what the message is about
                    found.setdefault(name, Location(rel, line_number))
        return found

    return once(analysis, "deprecation warnings", search)


#: The quotes a string opens with.
_QUOTES = (b'"', b"'")
#: The most lines of one message cut into strings that are joined.
_MAX_JOINED = 8


def _joined(lines: list[bytes], index: int) -> bytes:
    """The strings the parser joins into one message, up to the line at
    ``index``: it and the lines of strings alone before it."""
    first = index
    while first > 0 and index - first < _MAX_JOINED and lines[first - 1].lstrip()[:1] in _QUOTES:
        first -= 1
    joined = lines[first].rstrip()
    for line in lines[first + 1 : index + 1]:
        joined = joined[:-1] + line.strip()[1:]
    return joined


def _opening_quote(line: bytes, at: int) -> int:
    """Where the string that holds ``at`` opens: the last quote before it,
    unless that quote is within a string of the other quote (``"using a
    boolean for 'x' is deprecated"`` opens at the double quote); -1 where
    no quote comes before it."""
    double, single = line.rfind(b'"', 0, at), line.rfind(b"'", 0, at)
    if double < 0 or single < 0:
        return max(double, single)
    outer, inner = min(double, single), max(double, single)
    nested = line.count(line[inner : inner + 1], outer + 1, at) % 2 == 1
    return outer if nested else inner


def warned_deprecations(analysis: Analysis) -> dict[ConfigPath, LifecycleEntry]:
    """The keys of this surface spelt in parts that the code warns are
    deprecated, each as a lifecycle entry at the warning."""
    said = warned(analysis)
    if not said:
        return {}
    out: dict[ConfigPath, LifecycleEntry] = {}
    for node in analysis.schema.walk():
        if not node.path:
            continue
        for spelling in (*(node.spellings or (node.key,)), ".".join(node.path)):
            if distinctive(spelling) and spelling in said:
                out[node.path] = LifecycleEntry(
                    node.path, DEPRECATED, SOURCE, said[spelling], None, None, None
                )
                break
    return out
