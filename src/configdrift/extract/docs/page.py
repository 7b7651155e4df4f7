"""A doc page's text, within the bounds every markup is read in: its size
and its number of lines."""

from __future__ import annotations

from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.text import NotText, decode

#: The largest doc page parsed (a parser's time grows with the page: a page
#: this large is generated data, not prose).
MAX_PAGE_BYTES = 2 * 1024 * 1024


#: The most lines of a doc page parsed: the parsers' trees take a few
#: kilobytes a line at worst (a table row, a reStructuredText definition),
#: so a page stays near 150 MB.
MAX_PAGE_LINES = 40_000


def page_text(data: bytes, facts: DocFacts) -> str | None:
    """A page's text, or None with ``facts``' error set: a page over
    ``MAX_PAGE_BYTES`` or ``MAX_PAGE_LINES``, or one that is not text."""
    if len(data) > MAX_PAGE_BYTES:
        facts.error = f"larger than {MAX_PAGE_BYTES >> 20} MiB: not read as a page"
        facts.error_line = 1
        return None
    if (lines := data.count(b"\n")) > MAX_PAGE_LINES:
        facts.error = f"{lines:,} lines, more than {MAX_PAGE_LINES:,}: not read as a page"
        facts.error_line = 1
        return None
    try:
        return decode(data)
    except NotText as exc:
        facts.error, facts.error_line = str(exc), exc.line
        return None
