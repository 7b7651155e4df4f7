"""Rules on the example configs of the docs (CD301, CD302).

An example block is judged only where its place in the config is certain
(``engine._placed_blocks``): a whole config, a one-key example such as
``{"zero_optimization": {...}}``, or a one-key fragment whose key the schema
places under its section. Other fragments are not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import ConfigPath, Finding, Location, SchemaNode, Severity, format_path
from configdrift.rules.code_view import read_note, reader, unknown_under
from configdrift.rules.docs_schema import _model_related, near_spelling, resolve_path
from configdrift.rules.registry import make, register

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
                "the config file" if block.lang == "file" else "the example",
            )


@register(
    "CD301",
    "example-rejected",
    Severity.ERROR,
    "an example config holds a key that a strict schema rejects",
)
def example_rejected(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs (a JSON block) under a part of the
    config whose schema forbids unknown keys, and that the schema does not
    accept under any spelling.

    Why it matters
    Readers copy examples. A config built from this one cannot be loaded:
    pydantic raises ``ValidationError: Extra inputs are not permitted``.

    Example
    The ZeRO example shows ``"grad_hooks": true`` inside
    ``"zero_optimization"``, but ``DeepSpeedZeroConfig`` declares no
    ``grad_hooks`` and forbids extra keys.

    How to fix
    Remove the key from the example, or declare it in the model if it is
    meant to exist.
    """
    for rel, line, rejected, parent, what in _unaccepted(analysis, strict=True):
        close = near_spelling(rejected[-1], parent)
        yield make(
            "CD301",
            format_path(rejected),
            Location(rel, line),
            f"{what} sets `{format_path(rejected)}`, but {parent.model or 'the schema'} "
            "forbids unknown keys: loading it raises a ValidationError",
            _model_related(parent),
            f"did you mean `{close}`?" if close else None,
        )


@register(
    "CD302",
    "example-ignored",
    Severity.WARNING,
    "an example config holds a key that a lenient schema never reads",
)
def example_ignored(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs under a part of the config that
    the code reads key by key from a dict, where no code reads that key.

    Why it matters
    The example promises an effect the program never produces: the key is
    silently ignored, and a reader who copies it believes it is in force.

    Example
    An example sets ``"aio": {"thread_count": 1}``, but the code reads
    ``intra_op_parallelism`` and never ``thread_count``.

    How to fix
    Use the key the code reads, or remove the key from the example.
    """
    for rel, line, ignored, parent, what in _unaccepted(analysis, strict=False):
        close = near_spelling(ignored[-1], parent)
        yield make(
            "CD302",
            format_path(ignored),
            Location(rel, line),
            f"{what} sets `{format_path(ignored)}`, but {reader(parent)} never reads "
            f"`{ignored[-1]}`: the setting is silently ignored",
            read_note(parent),
            f"the code reads `{close}`" if close else None,
        )
