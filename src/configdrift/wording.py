"""Counts as a sentence says them: ``1 error``, ``3 errors``, ``1 fix``,
``2 fixes``; every summary the command line prints goes through here."""

from __future__ import annotations

from collections.abc import Iterable


def counted(n: int, one: str, many: str = "") -> str:
    """``n`` and the noun that goes with it: ``one`` for one, else ``many``
    (``one`` with an ``s`` when not given)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def listed(items: list[str], most: int = 3) -> str:
    """``a, b and c``: the first ``most`` items, then how many more."""
    shown = [*items[:most], f"{len(items) - most} more"] if len(items) > most else items
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def suggestion(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean `x`?)"`` for the choice closest to ``word``, its
    case and separators aside (``fail_on`` for ``fail-on``); ``""`` when
    none is close."""
    import difflib

    def norm(text: str) -> str:
        return text.lower().replace("_", "-")

    by_norm = {norm(c): c for c in choices}
    if norm(word) in by_norm:
        return f" (did you mean `{by_norm[norm(word)]}`?)"
    close = difflib.get_close_matches(norm(word), list(by_norm), n=1, cutoff=0.75)
    return f" (did you mean `{by_norm[close[0]]}`?)" if close else ""


#: The most characters of an exception's message a report keeps.
MAX_MESSAGE = 200


def exception_message(exc: BaseException) -> str:
    """The exception's message, cut to ``MAX_MESSAGE`` characters (it may
    quote a stranger's file: whoever prints it escapes it); ``""`` when
    it has none."""
    message = str(exc).strip()
    return message[:MAX_MESSAGE] + "..." if len(message) > MAX_MESSAGE else message
