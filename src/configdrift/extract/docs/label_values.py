"""What an entry's labels and type give beside a default: the values of
a ``Literal`` type, and the environment variable a label names."""

from __future__ import annotations

import ast
import re

#: A ``Literal`` annotation as a page writes one after an entry's key
#: (``- **norm**: typing.Literal['layernorm', 'rmsnorm']``).
_LITERAL = re.compile(r"(?:typing\.)?Literal\[([^\[\]]{1,2000})\]")


def literal_choices(rest: str) -> tuple[str, ...] | None:
    """The values an entry's type lists when the type is a ``Literal`` (read
    as literals, never run), as the code's are spelt (``None`` too)."""
    found = _LITERAL.fullmatch(rest.strip().lstrip(":").strip())
    if found is None:
        return None
    try:
        values = ast.literal_eval(f"[{found.group(1)}]")
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return tuple(str(v) for v in values)


def label_kind(name: str) -> str:
    """What a label gives: ``type``, ``variable`` (``env-var=``,
    ``Environment Variable:``) or ``default``."""
    low = name.lower()
    return "type" if low == "type" else "variable" if low.startswith("env") else "default"


#: An environment variable's name as code and docs spell one: upper case
#: and digits, in two words or more (``APP_PORT``).
VARIABLE = re.compile(r"[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++")


def variable_of(value: str) -> str | None:
    """The environment variable a label names (`` `APP_PORT` ``), if one."""
    text = value.strip().strip("`'\"").strip()
    return text if VARIABLE.fullmatch(text) else None
