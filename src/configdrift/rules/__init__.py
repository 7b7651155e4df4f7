"""Rules, one module per band; importing this package registers them all."""

from configdrift.rules import docs_schema, health
from configdrift.rules.registry import RULES, Rule

__all__ = ["RULES", "Rule", "docs_schema", "health"]
