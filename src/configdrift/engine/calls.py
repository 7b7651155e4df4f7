"""Calls in the docs of a function whose keyword arguments build a model
(``resolve.mechanisms.keyword_calls``): the pages that make them, what
they pass, and their call blocks placed at the model's path in each
surface that holds the model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from configdrift.analysis import Analysis
from configdrift.extract.docs.facts import DocFacts
from configdrift.files import read_or_none
from configdrift.resolve.mechanisms.keyword_calls import KeywordFunction, called
from configdrift.resolve.project import Project


def call_pages(
    root: Path,
    rels: list[str],
    read: dict[str, DocFacts],
    extract: Callable[[list[str]], dict[str, DocFacts]],
    targets: list[KeywordFunction],
) -> list[tuple[str, DocFacts]]:
    """The pages whose Python blocks call one of ``targets``: those read
    already (``read``), and the others whose bytes name a target and a
    parenthesis after it, extracted now (``extract``)."""
    if not targets:
        return []
    wanted = sorted({t.names[-1].rsplit(".", 1)[-1].encode() + b"(" for t in targets})
    later = []
    for rel in rels:
        if rel in read:
            continue
        data = read_or_none(root, rel)
        if data is not None and any(w in data for w in wanted):
            later.append(rel)
    facts = {**read, **(extract(later) if later else {})}
    out = []
    for rel in rels:
        doc = facts.get(rel)
        if (
            doc is not None
            and doc.error is None
            and any(called(b.call, b.origin, t.names) for b in doc.calls for t in targets)
        ):
            out.append((rel, doc))
    return out


def calls_made(pages: list[tuple[str, DocFacts]]) -> dict[tuple[str, str], frozenset[str]]:
    """Each callee the pages call (with the module its first name is
    imported from), with the keyword arguments given it."""
    made: dict[tuple[str, str], set[str]] = {}
    for _, doc in pages:
        for block in doc.calls:
            made.setdefault((block.call, block.origin), set()).update(k.path[0] for k in block.keys)
    return {callee: frozenset(keys) for callee, keys in made.items()}


def place_calls(
    analysis: Analysis,
    project: Project,
    targets: list[KeywordFunction],
    pages: list[tuple[str, DocFacts]],
) -> None:
    """The call blocks of ``pages`` at the path of the model they build, in
    every surface whose tree holds that model: examples of it."""
    if not pages:
        return
    for surface in analysis.everything:
        for target in targets:
            info = project.modules.get(target.model.module)
            if info is None:
                continue
            path = next(
                (
                    node.path
                    for node in surface.schema.walk()
                    if node.model == target.model.qualname
                    and node.model_location is not None
                    and node.model_location.path == info.path
                ),
                None,
            )
            if path is None:
                continue
            for rel, doc in pages:
                for block in doc.calls:
                    if called(block.call, block.origin, target.names):
                        keys = [k for k in block.keys if target.keys(k.path[0])]
                        surface.blocks.append((rel, replace(block, keys=keys), path))
