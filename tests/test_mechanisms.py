"""The mechanisms' registry: every module of ``resolve/mechanisms`` that
finds surfaces is registered, and none finds one where there is nothing; every
doc suffix discovered has its markup."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import configdrift.resolve.mechanisms as mechanisms
from configdrift.model import SchemaNode
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Project
from configdrift.resolve.schema import SchemaBuilder


def _modules():
    for info in pkgutil.iter_modules(mechanisms.__path__):
        yield importlib.import_module(f"{mechanisms.__name__}.{info.name}")


def test_every_mechanism_that_finds_surfaces_is_registered():
    finding = {m.__name__ for m in _modules() if hasattr(m, "surfaces")}
    assert finding == {m.__name__ for m in mechanisms.SURFACES}
    assert len(mechanisms.SURFACES) == len(set(mechanisms.SURFACES))


def test_no_mechanism_finds_a_surface_in_an_empty_project():
    builder = SchemaBuilder(Project([]))
    root = SchemaNode(key="", path=())
    names = frozenset({"alpha", "beta", "gamma", "delta"})
    for mechanism in mechanisms.SURFACES:
        assert mechanism.surfaces(Discovery(builder, root, names, generated=True)) == []


def test_a_claim_needs_three_fresh_keys_the_docs_name():
    builder = SchemaBuilder(Project([]))
    node = SchemaNode(key="", path=())
    for key in ("alpha", "beta", "gamma"):
        node.children[key] = SchemaNode(key=key, path=(key,))
    discovery = Discovery(builder, SchemaNode(key="", path=()), frozenset({"alpha", "beta"}))
    assert not discovery.claim(node)  # two documented keys are no evidence
    discovery = Discovery(
        builder, SchemaNode(key="", path=()), frozenset({"alpha", "beta", "gamma"})
    )
    assert discovery.claim(node)
    assert not discovery.claim(node)  # claimed already: no longer fresh


def test_every_doc_suffix_discovered_has_its_markup():
    from configdrift.discover import DOC_SUFFIXES, SHELL_SUFFIX
    from configdrift.extract.docs.markups import MARKUPS
    from configdrift.sphinx_sources import SPHINX_FRAGMENT, SPHINX_TEXT

    # A Sphinx project's ``.txt`` pages too, where its ``conf.py`` says so,
    # the fragments its pages include, shell scripts, for their command lines, and example scripts, for
    # their calls.
    assert set(MARKUPS) == {*DOC_SUFFIXES, SPHINX_TEXT, SPHINX_FRAGMENT, SHELL_SUFFIX, ".py"}


@pytest.mark.parametrize(
    ("page", "entries"),
    [
        ("config.md", ["timeout"]),
        ("config.markdown", ["timeout"]),
        ("config.mdx", ["timeout"]),
        ("config.rst", []),  # Markdown's form means nothing to reStructuredText
    ],
)
def test_a_page_is_read_by_the_markup_of_its_suffix(page, entries):
    from configdrift.extract.docs.markups import extractor_for

    facts = extractor_for(page)(b"# Options\n\n- `timeout` (int, default 5): seconds.\n")
    assert [e.name for e in facts.entries] == entries
