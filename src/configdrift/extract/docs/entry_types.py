"""The type and default an entry's own text gives: a type in brackets or
parentheses after its name (``**key** (int):``, ``[str]``), and a code
span that spells the key as a Python annotation does (``metric: str``,
``weight_by_size: bool = True``)."""

from __future__ import annotations

import re


def annotated_key(code: str) -> tuple[str, str] | None:
    """A code span that spells a key as a Python annotation does
    (``metric: str``, ``weight_by_size: bool = True``): (the key, the rest
    as an entry's type in parentheses, ``" (str)"``)."""
    name, colon, annotation = code.partition(":")
    name = name.strip()
    kind = annotation.partition("=")[0].strip()
    if not colon or not name.isidentifier() or not kind or len(code) > MAX_ANNOTATED:
        return None
    # ``release_cache: true`` gives a value, not a type.
    literal = kind.lower() in ("true", "false", "null", "none") or not kind[:1].isalpha()
    return name, "" if literal else f" ({kind})"


def annotated_default(code: str) -> str | None:
    """The default an annotated key's code span gives after ``=``
    (``weight_by_size: bool = True``), in code as a page writes one."""
    typed, equals, default = code.partition("=")
    found = annotated_key(typed)
    return f"`{default.strip()}`" if found and equals and default.strip() else None


#: The longest code span read as an annotated key.
MAX_ANNOTATED = 200


def type_from_rest(rest: str) -> str | None:
    rest = rest.strip()
    if rest.startswith(":"):
        rest = rest[1:].strip()
    if rest.startswith("["):
        # Nested brackets such as ["a"|"b"] close at the last bracket of the run.
        end = _outside_brackets(rest, "]")
        end = end if end > 0 else rest.find("]", 1)
        if end > 0:
            return rest[1:end].strip() or None
    if rest.startswith("("):
        end = rest.find(")")
        if end > 0:
            # Up to the first comma outside brackets: ``Union[str, List[str]]``
            # of ``Union[str, List[str]], optional``.
            inner = rest[1:end]
            comma = _outside_brackets(inner, ",")
            return (inner[:comma] if comma >= 0 else inner).strip() or None
    return None


def _outside_brackets(text: str, stop: str) -> int:
    """The index of the first ``stop`` outside square brackets (a closing
    bracket that closes the first), -1 if none."""
    depth = 0
    for index, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == stop and depth <= 0:
            return index
    return -1


#: ``**key** (type): ...``: a type in parentheses before the colon or dash.
TYPED_REST = re.compile(r"^\s*\([^()]{1,80}\)\s*[:\-\u2013\u2014]")
