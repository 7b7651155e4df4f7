"""reStructuredText embedded in a Markdown page (MyST's ```` ```{eval-rst} ````
fence): the generators and autodoc directives it holds, found line by
line, and the calls of its literal blocks (``::`` then Python) and the
keys its object directives document, read by the reStructuredText reader
at the page's lines."""

from __future__ import annotations

from dataclasses import replace

from configdrift.extract.docs.directives import (
    MAX_OPTIONS,
    autodoc_directive,
    names_key,
    options_of,
)
from configdrift.extract.docs.entry_text import AUTODOC_DIRECTIVES, GENERATORS
from configdrift.extract.docs.facts import DocFacts

#: The most lines of one embedded block scanned for directives.
MAX_SCANNED = 10_000


def embedded_rst(content: str, first: int, facts: DocFacts, section: int = 0) -> None:
    """Add to ``facts`` what the reStructuredText ``content``, whose first
    line is the page's line ``first``, documents: the pages it generates
    from the code, the objects it renders, its Python calls, and the keys
    its object directives document (``.. confval:: build-dir``, with their
    fields), as entries of the page's ``section``."""
    from configdrift.extract.docs.rst import extract_rst

    keys = False
    lines = content.splitlines()[:MAX_SCANNED]
    for offset, line in enumerate(lines):
        words = line.split()
        if len(words) >= 2 and words[0] == ".." and words[1].endswith("::"):
            name = words[1][:-2]
            if name in GENERATORS:
                facts.generated.append((GENERATORS[name], first + offset))
            elif name in AUTODOC_DIRECTIVES and len(words) >= 3:
                options = options_of(lines[offset + 1 : offset + 1 + MAX_OPTIONS])
                autodoc_directive(name, words[2], options, first + offset, facts)
            keys = keys or names_key(name)
    if not keys and ("(" not in content or "=" not in content):
        return  # no key documented, no call with keyword arguments
    inner = extract_rst(content.encode())
    for call in inner.calls:
        call.line += first - 1
        call.keys = [key.at(first - 1) for key in call.keys]
        facts.calls.append(call)
    for entry in inner.entries:
        if entry.form == "directive":
            facts.entries.append(
                replace(entry, line=entry.line + first - 1, section=section, parent_entry=None)
            )
