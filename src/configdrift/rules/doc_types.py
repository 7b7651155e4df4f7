"""The documented type against the accepted one (CD105)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.index.spellings import VARIABLE
from configdrift.model import Finding, Related, SchemaNode, format_path, resolve_path
from configdrift.rules import docstrings
from configdrift.rules.registry import make, register
from configdrift.rules.values import doc_kinds, kinds_compatible

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


@register("CD105")
def type_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A documented type (``[boolean]``, ``[integer]``, ``[dictionary]`` ...) that
    the declared type of the field cannot accept. An integer passes where a
    float is declared; a float does not pass where an integer is. A type
    that offers None (``[list | None]``) where a model's field is declared
    without it and defaults to a value is one too (a field that defaults
    to None takes it, and a type read off a default says nothing of it).

    A list of the values a key takes (after "Possible values:", each item
    a code span; in a sentence, "must be one of ``a``, ``b`` or ``c``"; or
    the entry's type, ``- **norm**: typing.Literal['layernorm', 'rmsnorm']``)
    that names one its ``Literal`` or ``Enum`` does not allow, or leaves
    out one it allows, is one too (the list must share two values and half
    of its own with the code's, or it is another list).

    A type a class's docstring gives a field (``rank_pattern (`list`)``)
    where a page renders the class from it, that the field's annotation
    cannot accept, is one too.

    An option of a bool default that users set through an environment
    variable, declared without the converter its siblings of a bool
    default pass (``convert=convert_bool``), is one too: the variable's
    text is its value, and ``APP_PRETTY=false`` is a true string.

    Why it matters
    A value written as the docs say is rejected, or silently converted.

    Example
    The docs type ``ratio`` as ``[integer]`` while the model declares
    ``ratio: float``.

    How to fix
    Make the documented type name what the field accepts; give the option
    the converter its siblings have.
    """
    root = analysis.schema
    yield from _unconverted(root)
    yield from _listed_choices(analysis)
    yield from docstrings.type_mismatch(analysis)
    for entry in analysis.entries:
        kinds = doc_kinds(entry.doc_type)
        if kinds is None:
            continue
        node, _, _ = resolve_path(root, entry.path)
        if node is None or node.location is None or entry.path[-1] in node.path_aliases:
            continue
        code = node.type.kinds - {"null"} if "null" not in kinds else node.type.kinds
        if not code:
            continue
        if node.reads and not any(site.kind for site in node.reads):
            # Read from a dict, and used as nothing certain: its type is
            # only its fallback's (``kwargs.get("fps", 1)``).
            continue
        why = ""
        if kinds_compatible(kinds, code):
            if not _none_refused(kinds, node):
                continue
            why = ": None is not one of its values"
        yield make(
            "CD105",
            format_path(entry.path),
            entry.location,
            f"`{format_path(entry.path)}` is documented as [{entry.doc_type}], but the code "
            + (
                f"reads it as {node.type.text}"
                if node.origin.startswith("read in")
                else f"declares {node.type.text}"
            )
            + why,
            (
                Related(
                    node.location.path,
                    node.location.line,
                    f"{node.origin or 'the field'} declares the type",
                )
                if not node.reads or node.origin.startswith("field of")
                else _use_note(node),
            ),
        )


def _choice_text(value: object) -> str:
    return "None" if value is None else str(value)


def _listed_choices(analysis: Analysis) -> Iterator[Finding]:
    """Entries whose listed values differ from the code's choices."""
    for entry in analysis.entries:
        if not entry.choices:
            continue
        node, _, _ = resolve_path(analysis.schema, entry.path)
        if node is None or node.location is None or not node.type.choices:
            continue
        code = list(dict.fromkeys(_choice_text(c) for c in node.type.choices))
        listed = {"null": "None"}
        doc = [listed.get(v, v) for v in entry.choices]
        shared = [v for v in doc if v in code]
        if len(shared) < 2 or 2 * len(shared) < len(doc):
            continue
        code_folded, doc_folded = {v.lower() for v in code}, {v.lower() for v in doc}
        refused = [v for v in doc if v not in code and v.lower() not in code_folded]
        omitted = [v for v in code if v not in doc and v.lower() not in doc_folded]
        if not refused and not omitted:
            continue
        key = format_path(entry.path)
        what = (
            f"lists {', '.join(f'`{v}`' for v in refused)} among the values of `{key}`, "
            "which the code does not allow"
            if refused
            else f"lists the values of `{key}` without {', '.join(f'`{v}`' for v in omitted)}, "
            "which the code allows too"
        )
        yield make(
            "CD105",
            key,
            entry.location,
            f"the page {what}; the code's values: {', '.join(f'`{v}`' for v in code)}",
            (
                Related(
                    node.location.path, node.location.line, f"{node.origin} declares the values"
                ),
            ),
        )


def _unconverted(root: SchemaNode) -> Iterator[Finding]:
    """Options of a bool default, named by a variable, that pass no
    converter where two or more of their siblings of a bool default pass
    one, the same one: the option class does not convert by the default's
    type, so the variable's text is the value."""
    for parent in root.walk():
        flags = [
            n
            for n in parent.children.values()
            if n.converter is not None and n.default is not None
            if isinstance(n.default.value, bool)
        ]
        converters = {n.converter for n in flags if n.converter}
        if len(converters) != 1 or sum(1 for n in flags if n.converter) < 2:
            continue
        (converter,) = converters
        for node in flags:
            variable = next((s for s in node.spellings[1:] if VARIABLE.fullmatch(s)), None)
            if node.converter or variable is None or node.location is None:
                continue
            assert node.default is not None
            yield make(
                "CD105",
                variable,
                node.location,
                f"`{node.key}` ({node.origin}) defaults to {node.default.text}, but is declared "
                f"without the converter its other options of a bool default pass (`{converter}`): "
                f"`{variable}` is read as text, and `{variable}=false` is a true string",
            )


def _none_refused(kinds: frozenset[str], node: SchemaNode) -> bool:
    """Do the docs offer None (``list[str] | None``) where a model's field
    is declared without it and defaults to a value (``list[str]``, an
    empty list)? A field that defaults to None takes it, whatever its
    annotation says."""
    return (
        "null" in kinds
        and "null" not in node.type.kinds
        and node.origin.startswith("field of")
        and node.default is not None
        and node.default.known
        and node.default.value is not None
    )


def _use_note(node: SchemaNode) -> Related:
    """The read whose use makes the key's type certain."""
    site = next(s for s in node.reads if s.kind)
    what = {"str": "uses it as a string", "number": "converts it to a number"}[site.kind or "str"]
    return Related(site.location.path, site.location.line, f"`{site.function}` {what}")
