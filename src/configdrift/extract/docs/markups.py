"""Each doc markup's extractor, by the page's suffix.

A markup is a module of ``extract/docs`` with a function from a page's
bytes to its ``DocFacts`` (``extract_markdown``, ``extract_rst``); a new
markup adds its module, a line here, and its suffix to
``discover.DOC_SUFFIXES`` (a test holds the two lists equal). A shell
script is read for its command lines alone, an example script (``.py``)
for its calls of what it imports and what its docstring renders alone.
A page of any other suffix is read as Markdown.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.docs.markdown import extract_markdown, extract_mdx
from configdrift.extract.docs.python_config import script_facts
from configdrift.extract.docs.rst import extract_rst
from configdrift.extract.docs.shell import extract_shell

MARKUPS: dict[str, Callable[[bytes], DocFacts]] = {
    ".md": extract_markdown,
    ".markdown": extract_markdown,
    ".mdx": extract_mdx,
    # Quarto's pages: Markdown, with code cells (```` ```{python} ````).
    ".qmd": extract_markdown,
    ".rst": extract_rst,
    # A Sphinx project's pages where its ``source_suffix`` says so
    # (``sphinx_sources.SPHINX_TEXT``): no other ``.txt`` file is a page.
    ".txt": extract_rst,
    # A fragment a reST page includes (``sphinx_sources.SPHINX_FRAGMENT``).
    ".inc": extract_rst,
    # Shell scripts (``discover.SHELL_SUFFIX``): read for their command lines.
    ".sh": extract_shell,
    # Example scripts (``index.pages.example_scripts``): read for their
    # calls, and a sphinx-gallery example's docstring, a reST page, for
    # what it renders from docstrings; the scripts the docs run
    # (``index.programs.scripts_run``) for the flags their parser declares.
    ".py": partial(script_facts, page=extract_rst),
}


def extractor_for(rel: str) -> Callable[[bytes], DocFacts]:
    """The extractor of the page at ``rel``, by its suffix."""
    dot = rel.rfind(".")
    return MARKUPS.get(rel[dot:] if dot >= 0 else "", extract_markdown)
