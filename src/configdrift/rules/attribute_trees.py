"""Trees of settings built by assigning attributes (``_C = CN()``, then
``_C.MODEL.DEVICE = "cuda"``; ``extract.python.attribute_trees``), with the
functions that extend one they are handed (``def add_x_config(cfg):
cfg.MODEL.X = 1``), judged against the code that reads them.

A tree is its root's assignments and those of every function extending a
node it has at the top (``MODEL``). Reads are found in the code's text:
``.NAME`` not stored to, or ``"NAME"`` quoted anywhere.

- CD202: a leaf no code reads by its name, where the code reads half of
  its siblings or more (two at least): the node is read by the project,
  and this key of it is not. A node the project never reads may be handed
  whole to another library, which may read every key of it: not judged.
- CD201: ``cfg.MODEL.X`` read where ``MODEL`` is a node of the tree and
  no code assigns ``X`` below it, for a tree whose nodes refuse a key they
  lack (a yacs ``CfgNode``, made by a class that derives from it, never
  told ``new_allowed``, nor any node at run time: ``set_new_allowed``):
  the read raises ``AttributeError``, and a config file that sets the key
  is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from configdrift.index.spellings import alternation
from configdrift.model import Finding, Location, Related
from configdrift.rules.evidence import (
    attribute_loads,
    bounded_files,
    code_files,
    once,
    quoted_as_path_end,
)
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.python.facts import Expr

#: The siblings of a leaf (besides it) the code must read, at least, and
#: the share of them, for a leaf it does not read to be judged.
MIN_SIBLINGS_READ = 2
SIBLING_SHARE = 0.5

#: The classes whose nodes refuse a key they lack, by the end of their
#: qualified name (``yacs.config.CfgNode``, fvcore's and detectron2's
#: subclasses of it).
_STRICT_NODES = ("yacs.config.CfgNode", "fvcore.common.config.CfgNode")


@dataclass(slots=True)
class Tree:
    """One tree: its root, where it is made, and each path assigned below
    it (``MODEL.DEVICE``) with its place and value."""

    root: str
    made_at: Location
    strict: bool
    paths: dict[str, tuple[Location, Expr]] = field(default_factory=dict)
    nodes: set[str] = field(default_factory=set)
    #: The nodes told to take keys they lack (``CN(new_allowed=True)``).
    open: set[str] = field(default_factory=set)

    def leaves(self) -> list[str]:
        return [path for path in self.paths if path not in self.nodes]


def trees(analysis: Analysis) -> list[Tree]:
    """The project's trees, each with the parts the functions that extend
    it add (once per analysis)."""
    return once(analysis, "attribute trees", lambda: _trees(analysis))


def _trees(analysis: Analysis) -> list[Tree]:
    project = analysis.project
    made: list[Tree] = []
    extensions: list[tuple[str, list[tuple[str, int, Expr]]]] = []
    for module in sorted(project.modules):
        info = project.modules[module]
        for _scope, root, call, line, entries in info.facts.attribute_trees:
            if call is None:
                extensions.append((info.path, entries))
                continue
            tree = Tree(root, Location(info.path, line), _strict(analysis, module, call))
            _add(tree, info.path, entries)
            if tree.nodes:
                made.append(tree)  # a tree, not an object given its attributes
    for tree in made:
        tops = {path.split(".", 1)[0] for path in tree.nodes}
        for rel, entries in extensions:
            if any(path.split(".", 1)[0] in tops for path, _, _ in entries if "." in path):
                _add(tree, rel, entries)
    return made


def _add(tree: Tree, rel: str, entries: list[tuple[str, int, Expr]]) -> None:
    """Add the paths one function assigns to a tree: a path made by a call
    of no positional argument (``CN()``) or of a dict literal alone
    (``CN({"ENABLED": False})``: its keys are quoted, read as far as the
    rules tell), or with a path below it, is a node."""
    for path, line, value in entries:
        where = Location(rel, line)
        tree.paths.setdefault(path, (where, value))
        if value[0] == "call" and (
            not value[2] or (len(value[2]) == 1 and value[2][0][0] == "dict")
        ):
            tree.nodes.add(path)
            if _told_new_allowed(value):
                tree.open.add(path)
        parts = path.split(".")
        tree.nodes.update(".".join(parts[:n]) for n in range(1, len(parts)))


def _told_new_allowed(call: Expr) -> bool:
    """Is a node made to take keys it lacks (``CN(new_allowed=True)``)?"""
    given = call[3].get("new_allowed")
    return given is not None and given != ["c", False]


def _strict(analysis: Analysis, module: str, call: Expr) -> bool:
    """Is the root made by a class of yacs's nodes (or one that derives
    from it), told nothing of keys it lacks?"""
    if call[0] != "call" or call[1][0] != "n" or _told_new_allowed(call):
        return False
    project = analysis.project
    symbol = project.resolve(module, call[1][1])
    if symbol is None:
        return False
    lineage = project.mro(symbol) if symbol.kind == "class" else [symbol]
    return any(s.qualname.endswith(_STRICT_NODES) for s in lineage)


def _python(analysis: Analysis) -> list[str]:
    return [*code_files(analysis), *analysis.other_python]


def _loaded(analysis: Analysis, names: set[str]) -> set[str]:
    """The names the code loads as an attribute (``.NAME`` not assigned
    to, comments too) or spells as a string."""
    if not names:
        return set()
    found = attribute_loads(analysis, _python(analysis), names)
    return found | _quoted(analysis, names - found)


def _quoted(analysis: Analysis, names: set[str]) -> set[str]:
    return quoted_as_path_end(analysis, _python(analysis), names) if names else set()


def inert_leaves(analysis: Analysis) -> Iterator[Finding]:
    """CD202 for each leaf of a tree no code reads by its name, where the
    code reads enough of its siblings (the module's docs)."""
    if analysis.first is not None:
        return  # the project's code, judged once
    for tree in trees(analysis):
        leaves = tree.leaves()
        read = _loaded(analysis, {path.rsplit(".", 1)[-1] for path in leaves})
        by_parent: dict[str, list[str]] = {}
        for path in leaves:
            by_parent.setdefault(path.rpartition(".")[0], []).append(path)
        for parent, siblings in sorted(by_parent.items()):
            names = [path.rsplit(".", 1)[-1] for path in siblings]
            for path, name in zip(siblings, names, strict=True):
                others = [n for n in names if n != name]
                seen = sum(1 for n in others if n in read)
                if name in read or seen < MIN_SIBLINGS_READ or seen < SIBLING_SHARE * len(others):
                    continue
                where, _ = tree.paths[path]
                node = f"`{parent}`" if parent else "the tree"
                yield make(
                    "CD202",
                    path,
                    where,
                    f"`{path}` is set in the settings tree `{tree.root}`, but no code reads "
                    f"`{name}` (as an attribute or a string), where it reads {seen} of the "
                    f"{len(others)} other keys of {node}: setting it does nothing",
                    (Related(tree.made_at.path, tree.made_at.line, "the tree is built here"),),
                )


#: What a node is asked for that is no key: its methods (yacs's, a dict's).
_NODE_METHODS = frozenset(
    {
        "clone",
        "copy",
        "defrost",
        "dump",
        "freeze",
        "get",
        "is_frozen",
        "is_new_allowed",
        "items",
        "keys",
        "merge_from_file",
        "merge_from_list",
        "merge_from_other_cfg",
        "pop",
        "setdefault",
        "update",
        "values",
    }
)


def undeclared_reads(analysis: Analysis) -> Iterator[Finding]:
    """CD201 for each key the code reads below a node of a strict tree that
    no code assigns there (the module's docs): the first read of each."""
    if analysis.first is not None:
        return  # the project's code, judged once
    strict = [tree for tree in trees(analysis) if tree.strict]
    if strict and any(
        b".set_new_allowed(" in data for _, data in bounded_files(analysis, _python(analysis))
    ):
        return  # a node may be told at run time to take any key
    for tree in strict:
        reads, stored = _chains(analysis, tree)
        quoted = _quoted(analysis, {name for _, name in reads})
        for (node, name), where in sorted(reads.items(), key=lambda item: item[0]):
            path = f"{node}.{name}"
            if name in quoted or path in stored or name in _NODE_METHODS or name.startswith("_"):
                continue
            if any(node == o or node.startswith(f"{o}.") for o in tree.open):
                continue  # a node that takes any key
            declared, _ = tree.paths.get(node, (tree.made_at, None))
            yield make(
                "CD201",
                path,
                where,
                f"the code reads `{path}`, but the settings tree `{tree.root}` declares no "
                f"`{name}` under `{node}` and no code assigns it there: the read raises "
                "`AttributeError`, and a config file that sets it is refused",
                (Related(declared.path, declared.line, f"`{node}` is declared here"),),
            )


def _chains(analysis: Analysis, tree: Tree) -> tuple[dict[tuple[str, str], Location], set[str]]:
    """The keys the code reads below the tree's nodes (node, key), with the
    place of the first read, and the paths the code assigns anywhere
    (``cfg.MODEL.X = 1``: the tree's own declarations, and keys added)."""
    tops = {node for node in tree.nodes if "." not in node}
    if not tops:
        return {}, set()
    pattern = re.compile(rb"(?<=\w)\.(%b)((?:\.\w{1,80}){1,12})" % alternation(tops))
    reads: dict[tuple[str, str], Location] = {}
    stored: set[str] = set()
    for rel, data in bounded_files(analysis, _python(analysis)):
        for match in pattern.finditer(data):
            parts = [match.group(1).decode(), *match.group(2).decode().split(".")[1:]]
            after = data[match.end() : match.end() + 40].lstrip()
            assigned = after.startswith(b"=") and not after.startswith(b"==")
            node = parts[0]
            for at, part in enumerate(parts[1:], 1):
                path = f"{node}.{part}"
                if path in tree.nodes:
                    node = path
                    continue
                last = at == len(parts) - 1
                if last and assigned:
                    stored.add(path)
                elif not (last and after.startswith(b"(")):
                    line = data.count(b"\n", 0, match.start()) + 1
                    reads.setdefault((node, part), Location(rel, line))
                break
    return reads, stored
