"""Hand-written descriptions of the project's own functions and classes:
``.. py:class:: Huey(name='huey', results=True)`` (or ``.. function::``,
``.. method::``) with its ``:param name:`` fields. The signature is read
as text, never run: its parameters in order, each with the default it
writes, and whether it takes more than it names (``**kwargs``, ``*args``,
``[, **options]``, ``...``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

#: Directives that describe a callable, by its signature.
API_DIRECTIVES = frozenset(
    {
        "class",
        "function",
        "method",
        "classmethod",
        "staticmethod",
        "decorator",
        "py:class",
        "py:function",
        "py:method",
        "py:classmethod",
        "py:staticmethod",
        "py:decorator",
    }
)

#: The longest signature read.
MAX_SIGNATURE = 2_000
#: The most parameters kept of one signature.
MAX_PARAMS = 100


@dataclass(frozen=True, slots=True)
class ApiDoc:
    """A callable a page describes: its name as written, the line, the
    parameters its signature names (each with its default's text, or
    None), whether it takes more than it names, and the names its
    ``:param:`` fields describe."""

    name: str
    line: int
    params: tuple[tuple[str, str | None], ...]
    open: bool
    fields: tuple[str, ...] = ()
    #: A method's description (``.. py:method::``), not a top-level
    #: callable's.
    method: bool = False


def api_doc(arguments: str, line: int, node: Any, directive: str = "function") -> ApiDoc | None:
    """The callable a directive's arguments describe (``Huey(name='huey',
    results=True)``), with the ``:param:`` fields of its body and whether
    ``directive`` describes a method; None where the signature is not one
    (no parentheses, a name that is no Python name)."""
    text = arguments.strip().split("\n", 1)[0][:MAX_SIGNATURE]
    start, end = text.find("("), text.rfind(")")
    name = text[:start].strip() if start > 0 else ""
    if end < start or not all(part.isidentifier() for part in name.split(".")):
        return None
    params: list[tuple[str, str | None]] = []
    opened = False
    for piece in _split(text[start + 1 : end].replace("[", " ").replace("]", " ")):
        piece = piece.strip()
        if not piece or piece in ("/", "*"):
            continue
        if piece.startswith("*") or piece == "...":
            opened = True
            continue
        head, eq, default = piece.partition("=")
        param = head.partition(":")[0].strip()
        if not param.isidentifier():
            return None  # no Python signature: nothing it names is certain
        params.append((param, default.strip() if eq and _literal(default) else None))
    method = directive.removeprefix("py:") in _METHODS
    return ApiDoc(name, line, tuple(params[:MAX_PARAMS]), opened, _fields(node), method)


#: Directives that describe a method.
_METHODS = frozenset({"method", "classmethod", "staticmethod"})


def _split(text: str) -> list[str]:
    """The parameters of a signature, split at the commas outside brackets
    and quotes."""
    out: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            out.append("".join(current))
            current = []
            continue
        current.append(char)
    out.append("".join(current))
    return out


def _literal(text: str) -> bool:
    """Is a default's text a Python expression (``'huey'``, ``None``)?"""
    try:
        ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _fields(node: Any) -> tuple[str, ...]:
    """The names the ``:param [type] name:`` fields of a description give,
    in its own field lists (not those of a description nested in it)."""
    from docutils import nodes

    names: list[str] = []
    # Its own field lists: a nested description's (``.. method::`` in a
    # class) are that one's.
    for field_list in [c for c in node.children if isinstance(c, nodes.field_list)]:
        for field in field_list.children:
            if not field.children:
                continue
            words = field.children[0].astext().split()
            if len(words) >= 2 and words[0] in ("param", "parameter", "arg", "argument", "key"):
                names.append(words[-1])
    return tuple(names[:MAX_PARAMS])
