"""Rules, one module per band, each registering its rules
(``registry.register``). ``RULES`` holds every rule with its documentation
and check, and loads the rule modules on first use: importing this package
loads none of them (``registry.CATALOG`` names every rule without loading
any)."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping

from configdrift.rules.registry import CATALOG, PLANNED, REGISTERED, Rule


def load() -> None:
    """Import every rule module: each registers its rules."""
    from configdrift.rules import (  # noqa: F401
        code_view,
        defaults,
        doc_types,
        docs_schema,
        examples,
        health,
        lifecycle,
        objects,
        reads,
        settings,
    )


class _Registry(MutableMapping[str, Rule]):
    """Every rule with its documentation and check, loaded on first use."""

    def __init__(self) -> None:
        self._rules: dict[str, Rule] = {}
        self._loaded = False

    def _load(self) -> dict[str, Rule]:
        if not self._loaded:
            self._loaded = True
            load()
            self._rules.update(REGISTERED)
            for code, (name, severity, summary) in CATALOG.items():
                if code in PLANNED:
                    self._rules[code] = Rule(code, name, severity, summary, "", "planned")
        return self._rules

    def __getitem__(self, code: str) -> Rule:
        return self._load()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __setitem__(self, code: str, rule: Rule) -> None:
        self._load()[code] = rule

    def __delitem__(self, code: str) -> None:
        del self._load()[code]


RULES = _Registry()
