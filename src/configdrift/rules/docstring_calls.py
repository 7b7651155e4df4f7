"""The calls of the docstrings a page renders (a class's or a module
function's: its doctests, its prose's literals), judged as the docs'
calls are: a keyword the project's own callee does not take (CD301) or
deprecates (CD402). A call that imports nothing names its callee through
the docstring's module, or the nearest package above it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Finding
from configdrift.rules import docstrings, function_docstrings
from configdrift.rules.doc_calls import calls_deprecated, calls_not_taken

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.docs.facts import Block


def _calls(analysis: Analysis) -> list[tuple[str, Block]]:
    """The rendered docstrings' calls, each with its file."""
    return [*docstrings.example_calls(analysis), *function_docstrings.example_calls(analysis)]


def example_calls_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each keyword the calls of a rendered docstring give the
    project's own callee that it does not take."""
    yield from calls_not_taken(analysis, _calls(analysis))


def deprecated_in_calls(analysis: Analysis) -> Iterator[Finding]:
    """CD402 for each keyword the docs' calls or the calls of a rendered
    docstring give the project's own callee that it deprecates."""
    if analysis.first is not None:
        return  # the project's docs, judged once
    yield from calls_deprecated(analysis, [*analysis.doc_calls, *_calls(analysis)])
