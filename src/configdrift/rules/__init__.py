"""Rules, one module per band; importing this package registers them all."""

from configdrift.rules import (
    code_view,
    docs_schema,
    examples,
    health,
    lifecycle,
    objects,
    reads,
)
from configdrift.rules.registry import RULES, Rule

__all__ = [
    "RULES",
    "Rule",
    "code_view",
    "docs_schema",
    "examples",
    "health",
    "lifecycle",
    "objects",
    "reads",
]
