"""What an entry's labels and type give beside a default: the values of
a ``Literal`` type, the environment variable a label names, and the
labels of a definition list (``default`` then ``: `False```)."""

from __future__ import annotations

import ast
import re

from configdrift.extract.docs.entry_text import LABEL, sentence_end

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


def joined_terms(lines: list[str]) -> list[str]:
    """The lines with each term of a definition list joined to its
    definition: ``default`` then ``: `False``` is ``default: `False```."""
    out: list[str] = []
    for line in lines:
        if out and line.lstrip().startswith(": ") and ":" not in out[-1]:
            out[-1] = f"{out[-1].rstrip()}{line.lstrip()}"
        else:
            out.append(line)
    return out


def definition_labels(content: str) -> list[tuple[str, str]]:
    """The labels of a block that is a definition list alone (an indented
    ``::: field-list`` of terms and ``: value`` lines, which CommonMark
    takes for code): ``[("default", "`False`"), ("type", "boolean")]``;
    none where any line is something else."""
    lines = [line.strip() for line in content.splitlines()[:40] if line.strip()]
    if len(lines) < 2 or len(lines) % 2:
        return []
    terms, definitions = lines[0::2], lines[1::2]
    if any(":" in t for t in terms) or not all(d.startswith(": ") for d in definitions):
        return []
    out: list[tuple[str, str]] = []
    for term, definition in zip(terms, definitions, strict=True):
        match = LABEL.match(f"{term}{definition}")
        if match is not None:
            out.append((label_kind(match.group(1)), sentence_end(match.group(2))))
    return out
