"""Counts as a sentence says them: ``1 error``, ``3 errors``, ``1 fix``,
``2 fixes``; every summary the command line prints goes through here."""

from __future__ import annotations


def counted(n: int, one: str, many: str = "") -> str:
    """``n`` and the noun that goes with it: ``one`` for one, else ``many``
    (``one`` with an ``s`` when not given)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def listed(items: list[str], most: int = 3) -> str:
    """``a, b and c``: the first ``most`` items, then how many more."""
    shown = [*items[:most], f"{len(items) - most} more"] if len(items) > most else items
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
