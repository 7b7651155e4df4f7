"""reStructuredText embedded in a Markdown page (MyST's ```` ```{eval-rst} ````
fence): the generators and autodoc directives it holds, found line by
line, and the calls of its literal blocks (``::`` then Python) and the
keys its object directives document, read by the reStructuredText reader
at the page's lines."""

from __future__ import annotations

from dataclasses import replace

from configdrift.extract.docs.directives import names_key
from configdrift.extract.docs.entry_text import AUTODOC_DIRECTIVES, GENERATORS
from configdrift.extract.docs.facts import DocFacts

#: The most lines of one embedded block scanned for directives.
MAX_SCANNED = 10_000


#: The most option lines read after a directive's.
MAX_OPTIONS = 20


def autodoc_directive(
    name: str, target: str, options: set[str], line: int, facts: DocFacts
) -> None:
    """An autodoc directive's object, into ``facts``; an ``automodule``
    with ``:members:`` renders what its module's ``__all__`` names too."""
    facts.autodoc.append((target, line))
    listed = "members" in options and "ignore-module-all" not in options
    if name.endswith("automodule") and listed:
        facts.module_members.append((target, line))


def fence_options(content: str) -> set[str]:
    """The options a MyST directive's fence opens with (``:members:``)."""
    return _options(content.splitlines()[:MAX_OPTIONS])


def _options(lines: list[str]) -> set[str]:
    """The names of the options (``:members:``) the lines open with, up to
    the first that is none."""
    names: set[str] = set()
    for line in lines:
        text = line.strip()
        if not text.startswith(":") or text.count(":") < 2:
            break
        names.add(text[1:].split(":", 1)[0])
    return names


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
                options = _options(lines[offset + 1 : offset + 1 + MAX_OPTIONS])
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
