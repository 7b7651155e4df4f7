"""Links by the project's convention: a variable is its prefix and the
upper-cased key (``APP_LOG_LEVEL``), a flag the key in kebab case
(``--log-level``). A convention links only spellings that both exist, and
only whole names: ``--log`` and ``log_file`` share a word, not a setting.

The prefixes are the project's own: a settings class's ``env_prefix``, the
prefix a flag's declared variable puts before the flag's name, and the
first word most of the variables the code reads share."""

from __future__ import annotations

from collections import Counter

from configdrift.model import Spelling

#: Variables that must share a word before it counts as the project's prefix.
_MIN_SHARED = 3


def prefixes(spellings: list[Spelling], declared: list[tuple[Spelling, Spelling]]) -> set[str]:
    """The prefixes the project puts before its keys to name variables."""
    out: set[str] = set()
    for s in spellings:
        # A settings field spelt as a variable: ``RELAY_`` + ``PORT``.
        key = s.path[-1].upper() if s.kind == "env" and s.path else ""
        if key and s.name != key and s.name.endswith("_" + key):
            out.add(s.name[: -len(key)])
    for owner, env in declared:
        # ``--port`` declaring ``APP_PORT``, a key ``bind`` naming ``APP_BIND``.
        base = owner.name.lstrip("-") if owner.kind == "flag" else owner.path[-1]
        name = base.replace("-", "_").upper()
        if env.kind == "env" and env.name != name and env.name.endswith("_" + name):
            out.add(env.name[: -len(name)])
    words = Counter(
        s.name.split("_", 1)[0] + "_" for s in spellings if s.kind == "env" and "_" in s.name
    )
    variables = sum(1 for s in spellings if s.kind == "env")
    for word, count in words.items():
        if count >= _MIN_SHARED and 2 * count >= variables:
            out.add(word)
    return out


def normal(spelling: Spelling, prefixes: set[str]) -> str | None:
    """The name a spelling has by the convention (``log_level``), or None
    where the convention says nothing (a variable without the prefix)."""
    if spelling.kind == "flag":
        if not spelling.name.startswith("--"):
            return None
        if spelling.dest:
            # What the code reads: ``--no-cache`` with ``dest="cache"``.
            return spelling.dest.replace("-", "_").lower()
        return spelling.name[2:].replace("-", "_").lower()
    if spelling.kind == "env":
        for prefix in sorted(prefixes, key=len, reverse=True):
            if spelling.name.startswith(prefix) and len(spelling.name) > len(prefix):
                return spelling.name[len(prefix) :].lower()
        return None
    path = list(spelling.path)
    if len(path) > 2 and path[0] == "tool":
        path = path[2:]  # ``[tool.app]`` in pyproject.toml
    return "_".join(path).replace("-", "_").lower()
