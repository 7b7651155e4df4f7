"""A shell script of the docs or the examples (``docs/examples/train.sh``),
read as a page that is one shell block: the command lines it runs, which
a reader copies as they are. Nothing else of it is a page's: no section,
no entry, no example config."""

from __future__ import annotations

from configdrift.extract.docs.commands import commands_at
from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.docs.page import page_text


def extract_shell(data: bytes) -> DocFacts:
    """The command lines of one shell script, at its lines."""
    facts = DocFacts()
    text = page_text(data, facts)
    if text is not None:
        facts.commands = commands_at(text, "sh", 1)
    return facts
