"""Defaults stated in prose: "Defaults to `5`.", "(default: `5`)", "This
is set to `False` by default", each only where it holds unconditionally
("defaults to `x` on Windows" states none). Shared by every markup."""

from __future__ import annotations

import re

from configdrift.extract.docs.entry_text import MAX_PROSE_LINE

#: The value stated: a code span, or a bare number or truth value that
#: ends the clause ("defaults to 2.", "defaults to true,"); never a word of
#: prose.
_STATED = r"(`[^`]+`|(?:-?\d+(?:\.\d+)?|true|false)(?=[.,;)]+(?:\s|$)|\s*$))"


#: "Defaults to `5`.", "The default is `5`.", "(default: `5`)", "(default:
#: 2)", "(default `INFO`)", and a label that opens a sentence: "Products
#: per page. Default: `25`.".
#: "This is set to `False` by default" as well; "defaults to 2." with a
#: bare number or truth value that ends its clause; and the value a list of
#: choices marks as the default ("`json`, `yaml` (default)").
DEFAULT_PROSE = re.compile(
    r"\b(?:defaults? (?:to|is)|default value is)\s+"
    + _STATED
    + r"|(?:[.;:]\s+|\(\s*)[*_]{0,2}default(?: value)?[*_]{0,2}\s*[:=]\s*"
    + _STATED
    + r"|\b(?:is|are|to|be)\s+(`[^`]+`)\s+by default\b"
    # "(default `INFO`)": the parenthesis holds the code span alone.
    r"|\(\s*default\s+(`[^`]+`)\s*\)"
    # "`yaml` (default)": the parenthesis marks the code span before it.
    r"|(`[^`]+`)\s*\(\s*(?:the\s+)?default\s*\)",
    re.IGNORECASE,
)


#: A parenthesis that marks a value as the default, in any case: a second
#: one in the line marks another value in another case.
MARKED = re.compile(r"\(\s*(?:the\s+)?default\b", re.IGNORECASE)


#: The words that open a case a statement holds in ("on Windows", "when
#: run in a terminal"), as an alternation.
CASE_WORDS = "if|when|unless|on|under|while|except|where|for|in"
#: What makes a stated default hold only sometimes: "defaults to `x` on
#: Windows", "is `true` by default when run in a terminal".
_CONDITION = re.compile(
    rf"(?<!\s)\s*+(?:by default\s*+)?,?\s*+(?:{CASE_WORDS})\b",
    re.IGNORECASE,
)


def conditional(after: str) -> bool:
    """Does the text after a stated default make it conditional?"""
    return _CONDITION.match(after[:MAX_PROSE_LINE]) is not None


def prose_default(line: str) -> str | None:
    """The default a line of prose states unconditionally ("Defaults to
    `5`.", "This is set to `False` by default."), with its code span."""
    if "efault" not in line:
        return None  # every form says "default"
    line = line[:MAX_PROSE_LINE]
    stated = list(DEFAULT_PROSE.finditer(line))
    if len(stated) != 1 or conditional(line[stated[0].end() :]):
        # Two defaults in one sentence hold each in its own case.
        return None
    found = stated[0]
    if found.group(5) and len(MARKED.findall(line)) > 1:
        return None  # "`low` (default) or `high` (default when verbose)"
    return next(value for value in found.groups() if value)


def row_default(cells: list[str], column: int | None) -> str | None:
    """The default a table row gives its key (the first cell): its Default
    column's text, or with none, the one its other cells' prose states
    ("Path for the cache (default: `.cache`)")."""
    if column is not None and column < len(cells):
        return cells[column] or None
    found = [value for cell in cells[1:] if (value := prose_default(cell))]
    return found[0] if len(found) == 1 else None
