"""Two names one letter apart: the test of a misspelling, shared by
extraction (a docstring that misspells its own keyword) and the index."""

from __future__ import annotations


def one_edit(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` one letter apart: one left out, added, changed,
    or two side by side swapped (``prot`` for ``port``)?"""
    if a == b or abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 3:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
