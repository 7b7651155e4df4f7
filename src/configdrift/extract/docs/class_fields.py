"""A class body's fields shown in a Python block: a page that pastes a
configuration class's annotated fields (``lr: float = 1e-4``), one a
line, documents each of them with its type and default as an entry."""

from __future__ import annotations

import ast
import re
import textwrap

from configdrift.extract.docs.facts import RawEntry

#: The fields a block must show for its lines to be a class's fields.
MIN_FIELDS = 3
#: The largest block read for fields.
MAX_BYTES = 256 * 1024
#: The form of an entry a shown field makes.
FORM = "annotation"
#: A line that annotates a name (``lr: float``), counted before parsing.
_ANNOTATED = re.compile(r"^[ \t]*+[A-Za-z_]\w*+[ \t]*+:[ \t]*+[A-Za-z_]", re.MULTILINE)


def shown_fields(
    content: str, first: int, section: int, parsed: ast.Module | None = None
) -> list[RawEntry]:
    """The fields a Python block shows, as entries at the page's lines:
    only a block of annotated names and assignments to names (a class's
    body without its ``class`` line), ``MIN_FIELDS`` annotated at least.
    A block that defines a class, a function or runs code is an example
    of the reader's own code, not the configuration's fields. ``parsed``
    is the block already parsed, where it was."""
    if len(content) > MAX_BYTES or len(_ANNOTATED.findall(content)) < MIN_FIELDS:
        return []
    text = textwrap.dedent(content)
    tree = parsed if parsed is not None and text == content else None
    try:
        tree = tree or ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    entries: list[RawEntry] = []
    for statement in tree.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a field's docstring
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            name = statement.target.id
            kind = ast.get_source_segment(text, statement.annotation)
            value = statement.value
        elif (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            name, kind, value = statement.targets[0].id, None, statement.value
        else:
            return []
        default = ast.get_source_segment(text, value) if value is not None else None
        line = first + statement.lineno - 1
        entries.append(RawEntry(name, (name,), line, section, FORM, kind, default))
    if sum(1 for e in entries if e.doc_type is not None) < MIN_FIELDS:
        return []
    return entries
