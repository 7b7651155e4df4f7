"""Rules, one module per band. Importing this package loads none of them:
``RULES`` (``configdrift.rules.registry``) loads them on first use, and
``CATALOG`` names every rule without loading any."""

from __future__ import annotations


def load() -> None:
    """Import every rule module: each registers its rules."""
    from configdrift.rules import (  # noqa: F401
        code_view,
        docs_schema,
        examples,
        health,
        lifecycle,
        objects,
        reads,
    )
