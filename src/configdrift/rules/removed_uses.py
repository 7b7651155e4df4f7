"""What the code does with removed keys and the registries that name
them, read for the lifecycle rules (``rules.lifecycle``): whether a
registry is enforced (checked against a config, with a raise), and where a
removed key is still written into a dict. Read on demand, from the few
code files that name a registry or quote a removed key; parsed, never
run."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from configdrift.extract.python.dict_writes import dict_writes
from configdrift.files import read_or_none
from configdrift.resolve.project import Project


@dataclass(slots=True)
class CodeUses:
    """What the code does with removed keys and registries, read on demand
    from the few files that name them."""

    #: Registries some function checks a config against and raises on.
    enforced: set[str]
    #: (file, line, key) where a removed key is written into a dict:
    #: ``{"key": ...}``, ``d["key"] = ...``, ``dict(key=...)``.
    writes: list[tuple[str, int, str]]


def code_uses(project: Project, root: Path, registries: set[str], leaves: set[str]) -> CodeUses:
    """Parse the code files that mention a registry or quote a removed key.

    A registry is enforced when a function that names it also raises (the
    ``for key in REMOVED: if key in config: raise`` shape, or
    ``if set(config) & REMOVED: raise``)."""
    uses = CodeUses(set(), [])
    if not registries and not leaves:
        return uses
    needles = [r.encode() for r in registries] + [
        q.encode() for leaf in leaves for q in (f'"{leaf}"', f"'{leaf}'")
    ]
    for module in sorted(project.modules):
        rel = project.modules[module].path
        data = read_or_none(root, rel)
        if data is None or not any(n in data for n in needles):
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError):
            continue
        # The registries' own literals are not writes.
        own = {
            id(inner)
            for stmt in tree.body
            if isinstance(stmt, ast.Assign | ast.AnnAssign)
            and any(
                isinstance(t, ast.Name) and t.id in registries
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
            )
            and stmt.value is not None
            for inner in ast.walk(stmt.value)
        }
        uses.writes.extend((rel, line, key) for line, key in dict_writes(tree, leaves, own))
        if registries:
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    named = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & registries
                    if named and any(isinstance(n, ast.Raise) for n in ast.walk(node)):
                        uses.enforced |= named
    return uses
