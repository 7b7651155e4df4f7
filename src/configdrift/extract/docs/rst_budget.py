"""What parsing one reStructuredText page may cost.

docutils builds a tree of heavy nodes (a kilobyte or two each) and runs a
state machine of its own for every nested block (a list item, a table
cell, a directive's body: a fifth of a millisecond apiece); its inline
parser copies the rest of a paragraph at each markup it meets. A page is
not read (a CD503 note) when it holds a paragraph past
``MAX_RST_PARAGRAPH`` or its parse goes past ``MAX_RST_NODES`` nodes or
``MAX_RST_PARSES`` nested parses, so that one page stays under about
100 MB and a few seconds. Sphinx's own reference of its options (4,300
lines) holds 10,000 nodes and runs 1,100 parses, its page of deprecations
(a table of 2,000 lines) 2,300. The bounds are counts, not a time, so that
extraction stays a function of the page's bytes alone.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

MAX_RST_PARAGRAPH = 64 * 1024
MAX_RST_NODES = 60_000
MAX_RST_PARSES = 20_000

#: A line that starts a block of its own: a list item, a field, an option.
_BLOCK_START = re.compile(
    r"(?<![ \t])[ \t]*+(?:[-*+\u2022]\s|#\.|\(?[0-9a-zA-Z]{1,3}[.)]\s|:[^:\s][^:]*+:|--?\w)"
)


def longest_paragraph(text: str) -> int:
    """The length of the longest run of lines docutils would read as one
    paragraph: lines at one indentation with no blank line between them,
    none starting a list item, a field or an option."""
    longest = current = 0
    indent = -1
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not stripped:
            current, indent = 0, -1
            continue
        here = len(line) - len(stripped)
        if here != indent or _BLOCK_START.match(line):
            current, indent = 0, here
        current += len(line) + 1
        longest = max(longest, current)
    return longest


class PageTooLarge(Exception):
    """The page's parse went past ``MAX_RST_NODES`` or ``MAX_RST_PARSES``."""


class _Budget:
    """What is left of one page's nodes and nested parses."""

    def __init__(self) -> None:
        self.nodes = MAX_RST_NODES
        self.parses = MAX_RST_PARSES

    def node(self) -> None:
        self.nodes -= 1
        if self.nodes < 0:
            raise PageTooLarge(f"more than {MAX_RST_NODES:,} elements")

    def parse(self) -> None:
        self.parses -= 1
        if self.parses < 0:
            raise PageTooLarge(f"more than {MAX_RST_PARSES:,} nested blocks")


#: The budget of the parse under way (None outside ``budgeted``).
_budget: _Budget | None = None


@contextlib.contextmanager
def budgeted() -> Iterator[None]:
    """A page's parse, with a budget of its own (``PageTooLarge`` past it)."""
    global _budget
    _budget = _Budget()
    try:
        yield
    finally:
        _budget = None


def _counting(method: Any, spend: str) -> Any:
    """A docutils method that spends the parse's budget first."""

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _budget is not None:
            getattr(_budget, spend)()
        return method(self, *args, **kwargs)

    counted.configdrift_counted = True  # type: ignore[attr-defined]
    return counted


def install_budget() -> None:
    """Count, once per process, what every parse adds: ``Node.setup_child``
    is called for every node added to a tree, ``StateMachine.run`` for
    every nested parse (outside ``budgeted`` they count nothing)."""
    from docutils import nodes, statemachine

    if not getattr(nodes.Node.setup_child, "configdrift_counted", False):
        nodes.Node.setup_child = _counting(nodes.Node.setup_child, "node")  # type: ignore[method-assign]
        machine = statemachine.StateMachine
        machine.run = _counting(machine.run, "parse")  # type: ignore[method-assign]
