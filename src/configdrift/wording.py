"""Counts as a sentence says them: ``1 error``, ``3 errors``, ``1 fix``,
``2 fixes``; every summary the command line prints goes through here."""

from __future__ import annotations


def counted(n: int, one: str, many: str = "") -> str:
    """``n`` and the noun that goes with it: ``one`` for one, else ``many``
    (``one`` with an ``s`` when not given)."""
    return f"{n} {one if n == 1 else many or one + 's'}"
