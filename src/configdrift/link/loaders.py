"""Explicit links from code that reads every variable with a prefix into
the configuration: ``for k, v in os.environ.items(): if
k.startswith(prefix): config[k[len(prefix):]] = v``
(``ModuleFacts.env_prefix_loops``). Each key of the configurations
declared in the loop's file is then also spelt as the prefix and the key,
upper-cased (``SANIC_ACCESS_LOG`` for ``ACCESS_LOG``).

The prefix is read from the code: a constant, or a parameter's default
(``def load(self, prefix=SANIC_PREFIX)``), once joined with text
(``prefix = f"{prefix}_"``). A loop whose prefix cannot be read links
nothing."""

from __future__ import annotations

from typing import Any

from configdrift.extract.python.facts import Expr
from configdrift.model import Location, Spelling
from configdrift.resolve.project import Project

#: A link a loader makes: (the key, its variable, why, where).
Loaded = tuple[Spelling, Spelling, str, Location]


def loader_spellings(project: Project, spelt: list[Spelling]) -> list[Loaded]:
    out: list[Loaded] = []
    for module, info in project.modules.items():
        for function, line, expr in info.facts.env_prefix_loops:
            defaults = info.facts.param_defaults.get(function, {})
            value = project.evaluate(module, _bound(expr, defaults)).value
            if not isinstance(value, str) or not value:
                continue
            where = Location(info.path, line)
            for key in spelt:
                if key.kind != "key" or key.location.path != info.path or len(key.path) != 1:
                    continue
                name = value + key.path[0].upper()
                variable = Spelling(
                    "env",
                    name,
                    key.surface,
                    key.path,
                    where,
                    key.default,
                    key.type,
                    declared_by=f"read by {function}",
                )
                why = f"`{function}` reads every `{value}` variable into its key: `{name}`"
                out.append((key, variable, why, where))
    return out


def _bound(expr: Expr, defaults: dict[str, Expr]) -> Any:
    """``expr`` with each parameter replaced by its default."""
    if type(expr) is not list or not expr:
        return expr
    if expr[0] == "n" and expr[1] in defaults:
        return defaults[expr[1]]
    return [_bound(part, defaults) if type(part) is list else part for part in expr]
