"""A class named by ``class_path`` in an example config, with the
``init_args`` it is built with (jsonargparse, LightningCLI:
``model: {class_path: pkg.models.Padim, init_args: {backbone: ...}}``).

The loader imports the class and calls it with the ``init_args`` as
keywords, so each is a keyword argument of a call of the class, judged as
a call in the docs' Python blocks is (``doc_calls``): where the class is
the project's own for certain (its dotted path spelt with the package's
name) and its constructor names every keyword it takes, a keyword it does
not take makes the config fail to load (CD301). The examples are the
pages' blocks and the project's YAML and JSON files that name a
``class_path``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.docs.facts import Block
from configdrift.files import read_or_none
from configdrift.model import Finding, Location
from configdrift.place.config_files import config_files
from configdrift.resolve.project import Symbol
from configdrift.rules.doc_calls import constructor
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The key that names the class, and the one that holds its keywords.
CLASS_PATH = "class_path"
INIT_ARGS = "init_args"
#: The most config files searched for a class path, and the bytes of each.
MAX_FILES = 2000
MAX_FILE_BYTES = 1 << 20


def class_path_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each ``init_args`` key the class its ``class_path`` names
    does not take; once a project."""
    if analysis.first is not None:
        return
    for rel, target, keys in _calls(analysis):
        symbol = _class_of(analysis, target)
        if symbol is None:
            continue
        signature = constructor(analysis, symbol.module, symbol.qualname)
        if signature is None:
            continue
        taken, declared = signature
        name = symbol.qualname.rpartition(".")[2]
        for key in keys:
            keyword = key.path[-1]
            if keyword in taken:
                continue
            yield make(
                "CD301",
                ".".join(key.path),
                Location(rel, key.line),
                f"the example builds `{name}` (`{CLASS_PATH}: {target}`) with `{keyword}` "
                f"in its `{INIT_ARGS}`, which {symbol.qualname} does not take: loading it "
                "raises TypeError (unexpected keyword argument)",
                (declared,),
            )


def _class_of(analysis: Analysis, target: str) -> Symbol | None:
    """The project's class a dotted class path names, following the
    imports of the module it is spelt through (``pkg.data.Folder``); None
    for another library's or a name not resolved."""
    project = analysis.project
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module in project.modules:
            symbol = project.resolve(module, ".".join(parts[cut:]))
            return symbol if symbol is not None and symbol.kind == "class" else None
    return None


def _calls(analysis: Analysis) -> Iterator[tuple[str, str, list[BlockKey]]]:
    """Each class path with init args: (file, the class path, the keys
    under its init args)."""
    blocks = [
        (rel, block) for rel, doc in sorted(analysis.pages_read.items()) for block in doc.blocks
    ]
    blocks += _files(analysis)
    for rel, block in blocks:
        named: dict[tuple[str, ...], list[BlockKey]] = {}
        for key in block.keys:
            if key.path and key.path[-1] == CLASS_PATH and isinstance(key.value, str):
                named.setdefault(key.path[:-1], []).append(key)
        for parent, paths in named.items():
            for target, args in _items(block.keys, (*parent, INIT_ARGS), paths):
                if args:
                    yield rel, target, args


def _items(
    keys: list[BlockKey], at: tuple[str, ...], paths: list[BlockKey]
) -> Iterator[tuple[str, list[BlockKey]]]:
    """Each class path of one place with the keys under its init args. The
    items of a list share their path (``callbacks: [{class_path: A,
    init_args: ...}, {class_path: B, ...}]``): each init args goes with the
    class path written above it, where that is certain (no init args above
    the first, none two between class paths); none where it is not."""
    under = [key for key in keys if len(key.path) == len(at) + 1 and key.path[: len(at)] == at]
    heads = sorted(key.line for key in keys if key.path == at)
    if len(paths) == 1 and len(heads) <= 1:
        yield str(paths[0].value), under  # one item, its keys in any order
        return
    starts = sorted(key.line for key in paths)
    bounds = [*starts[1:], float("inf")]
    if any(line < starts[0] for line in heads) or any(
        sum(start < line < end for line in heads) > 1
        for start, end in zip(starts, bounds, strict=True)
    ):
        return  # an item writes its init args first: which class they build is not known
    for key, end in zip(sorted(paths, key=lambda k: k.line), bounds, strict=True):
        yield str(key.value), [arg for arg in under if key.line < arg.line < end]


def _files(analysis: Analysis) -> list[tuple[str, Block]]:
    """The project's YAML and JSON files that name a class path, each as
    one block."""
    root = analysis.config.root
    named = [
        rel
        for rel in analysis.config_files[:MAX_FILES]
        if CLASS_PATH.encode() in (read_or_none(root, rel, MAX_FILE_BYTES) or b"")
    ]
    return config_files(root, [], set(), named) if named else []
