"""reStructuredText embedded in a Markdown page (MyST's ```` ```{eval-rst} ````
fence): the generators and autodoc directives it holds, found line by
line, and the calls of its literal blocks (``::`` then Python), read by
the reStructuredText reader at the page's lines."""

from __future__ import annotations

from configdrift.extract.docs.entry_text import AUTODOC_DIRECTIVES, GENERATORS
from configdrift.extract.docs.facts import DocFacts

#: The most lines of one embedded block scanned for directives.
MAX_SCANNED = 10_000


def embedded_rst(content: str, first: int, facts: DocFacts) -> None:
    """Add to ``facts`` what the reStructuredText ``content``, whose first
    line is the page's line ``first``, documents: the pages it generates
    from the code, the objects it renders, and its Python calls."""
    from configdrift.extract.docs.rst import extract_rst

    for offset, line in enumerate(content.splitlines()[:MAX_SCANNED]):
        words = line.split()
        if len(words) >= 2 and words[0] == ".." and words[1].endswith("::"):
            name = words[1][:-2]
            if name in GENERATORS:
                facts.generated.append((GENERATORS[name], first + offset))
            elif name in AUTODOC_DIRECTIVES and len(words) >= 3:
                facts.autodoc.append((words[2], first + offset))
    if "(" not in content or "=" not in content:
        return  # no call with keyword arguments
    inner = extract_rst(content.encode())
    for call in inner.calls:
        call.line += first - 1
        call.keys = [key.at(first - 1) for key in call.keys]
        facts.calls.append(call)
