"""The environment variables a module names outside its reads: in an
option's help text (``help="... [env var: APP_TOKEN]"``), which ``--help``
shows and a generated command-line reference renders, or as a key it
writes (``env["APP_HOOK"] = "1"``, ``os.environ["APP_HOOK"] = ...``), set
by the project itself for a process it starts."""

from __future__ import annotations

import ast

from configdrift.extract.docs.label_values import VARIABLE


def variables_named(tree: ast.Module, source: str) -> list[str]:
    """The variables ``tree`` names in help texts or writes as keys."""
    if "help" not in source and "] =" not in source:
        return []
    out: set[str] = set()
    for node in ast.walk(tree):
        if type(node) is ast.keyword and node.arg == "help":
            for part in ast.walk(node.value):
                if type(part) is ast.Constant and isinstance(part.value, str):
                    out.update(m.group() for m in VARIABLE.finditer(part.value))
        elif type(node) is ast.Assign:
            for target in node.targets:
                key = target.slice if type(target) is ast.Subscript else None
                if (
                    type(key) is ast.Constant
                    and isinstance(key.value, str)
                    and VARIABLE.fullmatch(key.value)
                ):
                    out.add(key.value)
    return sorted(out)
