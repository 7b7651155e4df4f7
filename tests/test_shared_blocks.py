"""An example block two surfaces place goes to the one it fits best to
be judged; a surface its examples document still reads it for the keys
it sets (``Analysis.other_examples``): given away, a key it sets is not
undocumented."""

from __future__ import annotations

from types import SimpleNamespace

from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.docs.facts import Block
from configdrift.place.sharing import share
from configdrift.resolve.schema import ensure_path, new_root


def _surface(keys: list[tuple[str, ...]], blocks, *, exemplified: bool):
    root = new_root()
    for path in keys:
        ensure_path(root, path, None, "test")
    return SimpleNamespace(
        schema=root,
        entries=[],
        doc_sources=[],
        blocks=list(blocks),
        documented_elsewhere=set(),
        pages_elsewhere=set(),
        exemplified=exemplified,
        other_examples=[],
    )


def _block(line: int, *paths: tuple[str, ...]) -> Block:
    return Block(0, line, "toml", [BlockKey(p, line + i) for i, p in enumerate(paths)])


def test_a_block_given_away_still_documents_the_keys_it_sets() -> None:
    block = _block(10, ("envs", "test"), ("envs", "test", "python"), ("publish", "index"))
    env = _surface([("envs", "test", "python")], [("page.md", block, ())], exemplified=True)
    project = _surface([("publish",)], [("page.md", block, ())], exemplified=True)
    share([env, project])
    assert [b for _, b, _ in env.blocks] == [block]  # it fits the environments best
    assert project.blocks == []
    assert project.other_examples == [("page.md", block)]
    assert env.other_examples == []


def test_only_a_surface_its_examples_document_keeps_it_and_only_at_the_top() -> None:
    block = _block(10, ("envs", "test"), ("envs", "test", "python"), ("publish", "index"))
    env = _surface([("envs", "test", "python")], [("page.md", block, ())], exemplified=True)
    project = _surface([("publish",)], [("page.md", block, ())], exemplified=False)
    share([env, project])
    assert project.blocks == [] and project.other_examples == []
    # Placed below a path: what it sets is not at the top.
    env = _surface([("envs", "test", "python")], [("page.md", block, ())], exemplified=True)
    project = _surface([("publish",)], [("page.md", block, ("tool",))], exemplified=True)
    share([env, project])
    assert project.blocks == [] and project.other_examples == []
