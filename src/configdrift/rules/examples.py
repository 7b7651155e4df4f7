"""Rules on the example configs of the docs (CD301 to CD304).

An example block is judged only where its place in the config is certain
(``engine._placed_blocks``): a whole config, a one-key example such as
``{"server": {...}}``, or a one-key fragment whose key the schema
places under its section. Other fragments are not judged.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from configdrift.extract.docs.blocks import DICT, LIST, VALUE
from configdrift.model import (
    ConfigPath,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
)
from configdrift.rules.code_view import read_note, reader, unknown_under
from configdrift.rules.docs_schema import _model_related, hint_for, resolve_path
from configdrift.rules.registry import make, register
from configdrift.rules.values import value_rejection

if TYPE_CHECKING:
    from configdrift.engine import Analysis


def _unaccepted(
    analysis: Analysis, strict: bool
) -> Iterator[tuple[str, int, ConfigPath, SchemaNode, str]]:
    """(page, line, the first unaccepted path, the node lacking it, what the
    block is) for the keys of placed example blocks whose node is strict (or
    lenient), once per block and path."""
    root = analysis.schema
    for rel, block, base in analysis.blocks:
        seen: set[ConfigPath] = set()
        for key in block.keys:
            path = (*base, *key.path)
            node, missing, parent = resolve_path(root, path)
            if node is not None or parent.strict is not strict:
                continue
            rejected = path[: missing + 1]
            if rejected in seen or rejected[:-1] in seen:
                continue
            if not strict and unknown_under(analysis, rejected[:-1]) is not None:
                continue  # keys there may be read in ways static analysis cannot follow
            seen.add(rejected)
            yield (
                rel,
                key.line,
                rejected,
                parent,
                block.described(),
            )


@register("CD301")
def example_rejected(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs (a JSON block) under a part of the
    config whose schema forbids unknown keys, and that the schema does not
    accept under any spelling.

    Why it matters
    Readers copy examples. A config built from this one cannot be loaded:
    pydantic raises ``ValidationError: Extra inputs are not permitted``.

    Example
    The quick-start example shows ``"keepalive": true`` inside
    ``"server"``, but ``ServerConfig`` declares no ``keepalive`` and forbids
    extra keys.

    How to fix
    Remove the key from the example, or declare it in the model if it is
    meant to exist.
    """
    for rel, line, rejected, parent, what in _unaccepted(analysis, strict=True):
        yield make(
            "CD301",
            format_path(rejected),
            Location(rel, line),
            f"{what} sets `{format_path(rejected)}`, but {parent.model or 'the schema'} "
            f"forbids unknown keys: loading it {parent.rejection()}",
            _model_related(parent),
            hint_for(analysis.schema, rejected, parent),
        )


@register("CD302")
def example_ignored(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs under a part of the config that
    the code reads key by key from a dict, where no code reads that key.

    Why it matters
    The example promises an effect the program never produces: the key is
    silently ignored, and a reader who copies it believes it is in force.

    Example
    An example sets ``"cache": {"expiry": 60}``, but the code reads
    ``ttl`` from the cache section and never ``expiry``.

    How to fix
    Use the key the code reads, or remove the key from the example.
    """
    for rel, line, ignored, parent, what in _unaccepted(analysis, strict=False):
        yield make(
            "CD302",
            format_path(ignored),
            Location(rel, line),
            f"{what} sets `{format_path(ignored)}`, but {reader(parent)} never reads "
            f"`{ignored[-1]}`: the setting is silently ignored",
            read_note(parent),
            hint_for(analysis.schema, ignored, parent, "the code reads"),
        )


def _shown(kind: str, value: Any) -> str:
    if kind == DICT:
        return "a mapping"
    if kind == LIST:
        return "a list"
    return f"`{json.dumps(value)}`"


def _near_choice(value: Any, node: SchemaNode) -> str | None:
    choices = [c for c in node.type.choices or () if isinstance(c, str)]
    if not isinstance(value, str) or not choices:
        return None
    for choice in choices:
        if choice.lower() == value.lower():
            return choice
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    return close[0] if close else None


@register("CD303")
def example_invalid_value(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A value in a config example that the field's type rejects when the
    config is loaded: a literal of the wrong type (``"overlap_comm": "fast"``
    for a ``bool``), a mapping where a number goes, or a string that is not
    one of an ``Enum``'s or a ``Literal``'s choices.

    Only fields that pydantic validates are judged, with its lax coercions
    (``"5"`` passes as an ``int``, ``1`` as a ``bool``), and never a field
    that a validator may change first. Placeholders are not values:
    ``[true|false]``, ``"[cpu|nvme]"``, ``<int>``, ``"auto"``, ``...`` and
    prose are skipped.

    Why it matters
    A reader who copies the example gets a ``ValidationError`` at start-up.

    Example
    The logging example shows ``"level": "verbose"``, but ``level`` is a
    ``Literal["debug", "info", "warning"]``.

    How to fix
    Write a value the field accepts, or a placeholder that reads as one.
    """
    for rel, block, base in analysis.blocks:
        what = block.described()
        for key in block.keys:
            if key.kind not in (DICT, LIST, VALUE):
                continue
            path = (*base, *key.path)
            node, _, _ = resolve_path(analysis.schema, path)
            if node is None or not node.checked or path[-1] in node.path_aliases:
                continue
            reason = value_rejection(node.type, key.kind, key.value)
            if reason is None:
                continue
            owner = node.origin.removeprefix("field of ")
            related = (
                (
                    Related(
                        node.location.path,
                        node.location.line,
                        f"{owner}.{node.key} is declared `{node.type.text}`",
                    ),
                )
                if node.location is not None
                else ()
            )
            close = _near_choice(key.value, node)
            yield make(
                "CD303",
                format_path(path),
                Location(rel, key.line),
                f"{what} sets `{format_path(path)}` to {_shown(key.kind, key.value)}, which "
                f"`{node.type.text}` does not accept{reason}: loading it raises a ValidationError",
                related,
                f"did you mean `{close}`?" if close else None,
            )


@register("CD304")
def example_unparseable(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A block in a config language (``json``, ``yaml``, ``toml`` and their
    kin) that names keys of the config, or a config file, that cannot be
    read even tolerantly: a ``}`` that closes a ``[``, a bracket never
    closed, invalid YAML or TOML. Comments, trailing commas, ellipses and
    placeholders do not count: the reader takes them in its stride.

    Why it matters
    The keys of a block that cannot be read are not checked, and the block
    is not skipped silently: it is reported, so that nobody believes it was
    checked. A reader who copies it gets a parse error.

    Example
    A tutorial's block reads ``"server": {"port": 8080]``.

    How to fix
    Fix the brackets or the syntax; for an intentional sketch, use a fence
    language that is not a config language (``text``).
    """
    for rel, block in analysis.unparseable:
        what = "the config file" if block.lang == "file" else f"this {block.lang} block"
        yield make(
            "CD304",
            "",
            Location(rel, block.error_line or block.line),
            f"{what} cannot be read ({block.error}): its keys are not checked",
        )
