"""Reading documented defaults and types, and comparing them with the code's.

Values are compared, not text: ``5e8`` equals ``500000000``, ``True`` equals
``true``. What a doc writes as prose (``<i>train_batch_size</i> value``)
reads as unknown and is never compared.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from configdrift.extract.docs.prose_defaults import CASE_WORDS
from configdrift.model import TypeInfo

#: A number: digits with ``_``, or with ``,`` between groups of three
#: (``1,000``; ``0,1234`` is a list, not a number).
_NUMBER = re.compile(
    r"^[+-]?(\d{1,3}(?:,\d{3})++(?:\.\d*+)?|\d[\d_]*+\.?\d*+|\.\d++)([eE][+-]?\d++)?$"
)
_WORD = re.compile(r"^[A-Za-z_][\w\-./]*$")
#: An address or a version, digits in three dotted groups or more
#: (``127.0.0.1``, ``0.0.0.0:8000``, ``1.2.3``): a word, not a number.
_DOTTED = re.compile(r"^\d{1,10}(?:\.\d{1,10}){2,7}(?::\d{1,5})?$")
_NO_VALUE = frozenset(
    {
        "",
        "-",
        "\u2013",
        "\u2014",
        "n/a",
        "na",
        "none given",
        "required",
        "optional",
        "tbd",
        # Set when the config is loaded, not a value the docs can give.
        "computed",
        "dynamic",
        "automatic",
    }
)


@dataclass(frozen=True, slots=True)
class DocValue:
    """A documented default: ``known`` with ``value``, or a bare ``word``."""

    known: bool
    value: Any = None
    word: bool = False


#: A value written as a role's text: ``:code-py:`30```, ``:code:`"x"```.
#: A code span alone (``...``, or `...`).
_SPAN = re.compile(r"``?[^`]++``?")
#: What makes a code span's text no literal value: a placeholder, a
#: variable, an expression, a call (``<dir>``, ``$HOME``, ``{root}``,
#: ``os.getcwd()``, ``a or b``); so do spaces around it (what a span
#: keeps of them differs by markup).
_NOT_LITERAL = re.compile(r"[<>${}]|\w\(\)|\s(?:or|and|if|else)\s")
_ROLE = re.compile(r":[\w.:+-]{1,40}:`([^`]*+)`")


#: A value followed by a remark in parentheses that states no other value
#: and no case of its own: "``None`` (not specified)", "30 (seconds)";
#: anchored at both ends, so that a search tries one place only.
_REMARK = re.compile(r"\A(\S[^()]{0,200}?)\s+\(([A-Za-z][A-Za-z -]{0,79})\)\Z")
#: A remark that makes the value hold only sometimes ("(on Windows)"), or
#: names another value ("(fallback: False)", "(or none)").
_CASE = re.compile(
    rf"\b(?:{CASE_WORDS}|or|but|fallback|default|true|false|none|null|yes|no)\b",
    re.IGNORECASE,
)


#: Empty containers written as the call that makes them.
_EMPTY_CALLS = {"dict()": dict, "list()": list, "tuple()": tuple, "set()": set}


def parse_doc_value(text: str | None) -> DocValue:
    if text is None:
        return DocValue(False)
    remark = _REMARK.fullmatch(text.strip())
    if remark is not None and not _CASE.search(remark.group(2)):
        text = remark.group(1)
    if text.strip() == "none":
        return DocValue(False)  # a bare lowercase word: no value, not Python's None
    # A value wrapped in a role (``:code-py:`False```): the role's text.
    role = _ROLE.fullmatch(text.strip())
    t = (role.group(1) if role else text).strip().strip("`").strip()
    if t.endswith(".") and not _NUMBER.match(t):
        t = t[:-1]
    low = t.lower()
    if low in _NO_VALUE:
        return DocValue(False)
    if low in ("true", "false"):
        return DocValue(True, low == "true")
    if low in ("null", "none", "nil"):
        return DocValue(True, None)
    if low in _EMPTY_CALLS:
        return DocValue(True, _EMPTY_CALLS[low]())  # ``dict()``: an empty one
    if _NUMBER.match(t):
        number = t.replace(",", "").replace("_", "")
        try:
            as_float = float(number)
        except ValueError:
            return DocValue(False)
        if as_float.is_integer() and abs(as_float) < 2**63:
            return DocValue(True, int(as_float))
        return DocValue(True, as_float)
    if t[:1] in "\"'{[":
        for loader in (json.loads, ast.literal_eval):
            try:
                return DocValue(True, loader(t))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
        return DocValue(False)
    if _WORD.match(t) or _DOTTED.match(t):
        return DocValue(True, t, word=True)
    raw = text.strip().strip("`")
    if _SPAN.fullmatch(text.strip()) and raw == raw.strip() and not _NOT_LITERAL.search(t):
        # A code span's text as written (``%(message)s``): a string where
        # the code's default is one, as a bare word is.
        return DocValue(True, t, word=True)
    return DocValue(False)


_SIZE = re.compile(r"^\s*+(\d++(?:\.\d++)?)\s*+([KMGT]?)(?:i?B)?\s*+$", re.IGNORECASE)


def _size(text: str) -> float | None:
    """A size in bytes, written ``500M``, ``500MiB``, ``87KB`` (powers of
    1024, as configuration parsers read them); None for other text."""
    match = _SIZE.match(text)
    if match is None or not match.group(2):
        return None
    power = "KMGT".index(match.group(2).upper()) + 1
    return float(match.group(1)) * float(1024**power)


#: The words a documented or configured bool is written with.
TRUTH = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
#: A string read from the environment or the command line as a bool: the
#: words a doc writes, and a switch's ``on`` and ``off``.
ON_OFF = {**TRUTH, "on": True, "off": False}
#: The words a page describes a switch's state with, beside those.
_SWITCH = {**ON_OFF, "enabled": True, "disabled": False}


def shown_default(value: object, text: str) -> str:
    """A default as the code writes it, and its value where that differs
    (``'arq:queue' (default_queue_name)``)."""
    return text if text == repr(value) else f"{value!r} ({text})"


def values_equal(doc: DocValue, code: Any) -> bool | None:
    """True/False when comparable, None when the two cannot be compared."""
    if not doc.known:
        return None
    value = doc.value
    if doc.word:
        word = str(value).lower()
        # A bare word is a string only where the code's default is one,
        # unless both say a switch's state ("disabled" where the code's
        # default is the text ``"False"``).
        if isinstance(code, str):
            state = _SWITCH.get(code.strip().lower())
            if state is not None and word in _SWITCH:
                return _SWITCH[word] == state
            return word == code.lower()
        if isinstance(code, bool) and word in _SWITCH:
            return _SWITCH[word] == code  # YAML's ``yes`` and ``no``, "disabled"
        return None
    if isinstance(value, bool) or isinstance(code, bool):
        if isinstance(value, bool) and isinstance(code, bool):
            return value == code
        other = code if isinstance(value, bool) else value
        flag = value if isinstance(value, bool) else code
        if isinstance(other, str) and other.strip().lower() in TRUTH:
            # ``"True"`` read from the environment where the docs say true.
            return TRUTH[other.strip().lower()] == flag
        if value is None or code is None:
            return value is code
        return False
    if isinstance(value, int | float) and isinstance(code, int | float):
        return float(value) == float(code)
    if isinstance(value, str) and isinstance(code, int | float) and not isinstance(code, bool):
        # ``"1m"`` where the code keeps 60000: a duration or a size the code
        # converts, not comparable as written.
        try:
            float(value.strip())
        except ValueError:
            return None
        return False  # ``"3"`` documented as a string is not the code's 3
    if isinstance(value, int | float) and isinstance(code, str):
        # ``"587"`` where the docs say 587: the same value, quoted (an
        # environment variable is a string); a type question, not a default.
        try:
            return float(code.strip()) == float(value)
        except ValueError:
            return False
    if isinstance(value, str) and isinstance(code, str):
        if value.lower() == code.lower():
            return True
        sizes = _size(value), _size(code)
        if None not in sizes:
            return sizes[0] == sizes[1]  # ``500MiB`` is ``500M``
        return False
    if value is None or code is None:
        return value is code
    if isinstance(value, list | tuple) and isinstance(code, list | tuple):
        return list(value) == list(code)
    if isinstance(value, set | frozenset) and isinstance(code, list | tuple | set | frozenset):
        # ``{"a", "b"}`` documented where the code's set literal is held as
        # its members: equal whatever their order.
        try:
            return set(value) == set(code)
        except TypeError:
            return False  # a member the docs' set could not hold
    if isinstance(value, dict) and isinstance(code, dict):
        return bool(value == code)
    return False


_DOC_KINDS = {
    "bool": "bool",
    "boolean": "bool",
    "int": "int",
    "integer": "int",
    "long": "int",
    "uint": "int",
    "float": "float",
    "double": "float",
    "real": "float",
    "number": "number",
    "numeric": "number",
    "str": "str",
    "string": "str",
    "path": "str",
    "dictionary": "dict",
    "dict": "dict",
    "object": "dict",
    "map": "dict",
    "mapping": "dict",
    "table": "dict",
    "list": "list",
    "array": "list",
    "tuple": "list",
    "sequence": "list",
    "null": "null",
    "none": "null",
}


def doc_kinds(text: str | None) -> frozenset[str] | None:
    """Categories a documented type names, or None when it is not a type."""
    if not text:
        return None
    t = text.strip().strip("`").lower()
    if t.startswith('"') or t.startswith("'"):
        return frozenset({"str"})  # a list of quoted choices
    kinds: set[str] = set()
    # (Each part is stripped: the blanks around a separator are not part of
    # the pattern, whose run of blanks would be read from each of its places.)
    for part in re.split(r"\||/|,|\bor\b", t):
        part = part.strip()
        if not part:
            continue
        if part.startswith(("list", "array")):
            kinds.add("list")
            continue
        word = part.split()[0].strip("[]()")
        kind = _DOC_KINDS.get(word)
        if kind is None:
            return None
        kinds.add(kind)
    return frozenset(kinds) or None


def kinds_compatible(doc: frozenset[str], code: frozenset[str]) -> bool:
    """Can a value of a documented kind be accepted by the code's type?

    An integer passes where a float is declared, as pydantic accepts it; a
    float does not pass where an integer is declared.
    """
    for kind in doc:
        if kind in code:
            return True
        if kind == "int" and "float" in code:
            return True
        if kind == "number" and code & {"int", "float"}:
            return True
    return False


_BOOL_TEXT = frozenset({"0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"})


def _parses(text: str, kind: type) -> bool:
    try:
        kind(text.strip())
    except ValueError:
        return False
    return True


def _kind_accepts(kinds: frozenset[str], value: Any) -> bool:
    """Would pydantic (lax mode, as from JSON) accept a literal for a type of
    these kinds? Numbers and numeric strings coerce, ``0``/``1`` and
    ``"yes"`` pass as booleans; a number is never a string."""
    if value is None:
        return "null" in kinds
    if isinstance(value, bool):
        return bool(kinds & {"bool", "int", "float"})
    if isinstance(value, int):
        return bool(kinds & {"int", "float"}) or ("bool" in kinds and value in (0, 1))
    if isinstance(value, float):
        if "float" in kinds:
            return True
        return ("int" in kinds and value.is_integer()) or ("bool" in kinds and value in (0.0, 1.0))
    if isinstance(value, str):
        return (
            "str" in kinds
            or ("int" in kinds and _parses(value, int))
            or ("float" in kinds and _parses(value, float))
            or ("bool" in kinds and value.strip().lower() in _BOOL_TEXT)
        )
    return True


def _choice_matches(value: Any, choice: Any) -> bool:
    if isinstance(choice, bool) or isinstance(value, bool):
        return value is choice
    if isinstance(choice, int | float) and isinstance(value, str):
        return _parses(value, float) and float(value) == choice
    return bool(value == choice)


def value_rejection(info: TypeInfo, kind: str, value: Any) -> str | None:
    """None when a type accepts an example's value or nothing can be told;
    otherwise what to add to the message: the allowed choices in brackets
    when the type has them, else an empty string.

    ``kind`` is ``dict``, ``list`` or ``value`` (a literal, in ``value``)."""
    if not info.kinds:
        return None
    if kind == "dict":
        return None if "dict" in info.kinds else ""
    if kind == "list":
        if "list" in info.kinds:
            return None
        if (
            isinstance(value, list)
            and value
            and all(value_rejection(info, "value", item) is None for item in value)
        ):
            return None  # a search space over valid values, as autotuners read them
        return ""
    if kind != "value":
        return None
    if info.choices is not None:
        if any(_choice_matches(value, choice) for choice in info.choices):
            return None
        allowed = dict.fromkeys(json.dumps(c, default=str) for c in info.choices)
        return f" (allowed: {', '.join(allowed)})"
    return None if _kind_accepts(info.kinds, value) else ""
