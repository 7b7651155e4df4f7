"""CD104: a documented default that differs from the code's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.docs.block_model import VALUE, BlockKey
from configdrift.model import (
    ConfigPath,
    DocEntry,
    Finding,
    Location,
    Related,
    SchemaNode,
    Value,
    format_path,
    resolve_path,
    value_kind,
)
from configdrift.rules import doc_signatures, docstrings, listed_keywords
from configdrift.rules.evidence import once
from configdrift.rules.help_defaults import help_defaults_differ
from configdrift.rules.registry import make, register
from configdrift.rules.values import DocValue, doc_kinds, parse_doc_value, values_equal

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


@register("CD104")
def default_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A documented default that differs in value from the default the schema
    declares. Values are compared, not text: ``5e8``, ``500000000`` and
    ``pp_int(5e8)`` are equal, as are ``True`` and ``true``. A default of
    ``None`` in the code is taken as computed at runtime and not compared,
    unless the documented default is no value the option may hold (a truth
    value or a number for an option of text or a container); a
    documented ``None`` and an untyped default's empty string both mean
    unset; a documented default that names another key (``format_item``)
    is that key's value, not a literal. A class's docstring that a page renders
    (``Default is `False`.`` under its ``Args:``) states its fields'
    defaults too, and so does a page's own description of a callable, in
    its signature (``.. py:function:: serve(app, port=8000)``), and so does
    a section that lists a callable's keyword arguments as entries
    (``max_age``, "Defaults to `600`."), and so does an option's help text, which ``--help`` shows (``help="Port (default:
    8080)"`` beside ``default=8000``). So does an example block whose
    lead says it holds the defaults ("The default configuration is as
    follows:"), or whose title is the command that prints them
    (``title="$ app --cfg job"``), where two thirds of its values are the
    code's defaults: the others are ones the docs left behind.

    Why it matters
    Users who rely on the documented default get another behaviour, silently.

    Example
    The docs give ``server.timeout`` a default of ``30`` while the model
    declares ``timeout: float = 60.0``.

    How to fix
    Correct whichever side is wrong; if the default is computed, document
    how it is computed instead of a number.
    """
    yield from docstrings.default_mismatch(analysis)
    yield from doc_signatures.described_defaults_differ(analysis)
    yield from listed_keywords.listed_defaults_differ(analysis)
    yield from help_defaults_differ(analysis)
    yield from _restated_defaults_differ(analysis)
    root = analysis.schema
    spellings = {s for n in root.walk() if n is not root for s in n.spellings or (n.key,)}
    for entry in analysis.entries:
        if entry.default is None:
            continue
        node, _, _ = resolve_path(root, entry.path)
        if node is None or node.default is None or not node.default.known or node.location is None:
            continue
        if entry.path[-1] in node.path_aliases:
            continue
        code = node.default.value
        if code is None:
            # Computed at runtime, unless the page's default is no value the
            # option may hold (``true`` for an option of text): wrong either way.
            if _foreign(parse_doc_value(entry.default), node.type.kinds):
                yield _foreign_default(entry, node)
            continue
        if isinstance(code, dict | list) and node.children:
            continue
        written = (entry.default or "").strip().strip("`").strip()
        if isinstance(code, str) and written == code:
            continue  # ``Feat.``: the text as written, its full stop included
        if (
            code == ""
            and written.lower() in ("none", "null")
            and node.origin.startswith("default ")
        ):
            continue  # an untyped default: unset either way
        if written in spellings:
            continue  # ``Default: format_item``: the value of another key
        doc = parse_doc_value(entry.default)
        kinds = doc_kinds(entry.doc_type)
        if isinstance(doc.value, str) and not doc.word and kinds and kinds <= _NUMERIC:
            # `"0.1"` under a [float] entry: a number written in quotes.
            doc = parse_doc_value(doc.value)
        equal = values_equal(doc, code)
        if equal is not False:
            continue
        if _stands_for(analysis, root, entry.path, doc):
            continue
        yield make(
            "CD104",
            format_path(entry.path),
            entry.location,
            f"`{format_path(entry.path)}` is documented with default {entry.default.strip()}, "
            f"but the code's default is {_show(code, node.default.text)}",
            (
                Related(
                    (node.default_location or node.location).path,
                    (node.default_location or node.location).line,
                    "the read falls back to it"
                    if node.default_location
                    else f"{node.origin or 'the field'} sets the default",
                ),
            ),
        )


_NUMERIC = frozenset({"int", "float", "number"})

#: The kinds of an option that holds no truth value or number: text, or a
#: container.
_NO_SCALARS = frozenset({"str", "dict", "list", "null"})


def _foreign(doc: DocValue, kinds: frozenset[str]) -> bool:
    """Is a documented default certainly no value of an option of
    ``kinds``: a truth value or a number, where the option holds only
    text or containers?"""
    return (
        doc.known
        and value_kind(doc.value) in ("bool", "int", "float")
        and bool(kinds - {"null"})
        and kinds <= _NO_SCALARS
    )


def _foreign_default(entry: DocEntry, node: SchemaNode) -> Finding:
    """CD104 for a documented default the option cannot hold, where the
    code gives none (``None``)."""
    assert node.location is not None
    takes = " or ".join(sorted(node.type.kinds - {"null"}))
    return make(
        "CD104",
        format_path(entry.path),
        entry.location,
        f"`{format_path(entry.path)}` is documented with default {entry.default!s}, but the "
        f"code gives it none (None) and it takes {takes}: {entry.default!s} is no value of it",
        (
            Related(
                node.location.path, node.location.line, f"{node.origin or 'the field'} declares it"
            ),
        ),
    )


#: Hooks a model runs after its fields are set: what they assign is the
#: value users see, not the declared default.
_AFTER_INIT = frozenset({"__post_init__", "model_post_init", "__attrs_post_init__"})


def _show(value: object, text: str) -> str:
    shown = repr(value)
    return shown if shown == text or not text else f"{shown} ({text})"


def _fallbacks(analysis: Analysis) -> dict[str, list[object]]:
    """Values the code puts in place of a falsy option, by its name."""

    def derive() -> dict[str, list[object]]:
        out: dict[str, list[object]] = {}
        for name, info in analysis.project.modules.items():
            for attr, expr, _line in info.facts.fallbacks:
                value = analysis.project.evaluate(name, expr)
                if value.known:
                    out.setdefault(attr, []).append(value.value)
        return out

    return once(analysis, "defaults.fallbacks", derive)


def _hooks(analysis: Analysis) -> set[tuple[str, str]]:
    """(class, attribute) a model's after-init hook assigns
    (``object.__setattr__(self, "py_version", f"py{v}")``)."""
    return once(
        analysis,
        "defaults.hooks",
        lambda: {
            (function.rsplit(".", 1)[0].rsplit(".", 1)[-1], attr)
            for info in analysis.project.modules.values()
            for function, attr, *_ in info.facts.attr_assigns
            if function.rsplit(".", 1)[-1] in _AFTER_INIT
        },
    )


def _stands_for(analysis: Analysis, root: SchemaNode, path: ConfigPath, doc: DocValue) -> bool:
    """Does the documented value stand for the code's default where they
    differ: the value the code puts in place of a falsy default (``cfg.ignore
    or DEFAULT_IGNORE``), or one a model's after-init hook assigns (a page
    made from an instance shows the result)?"""
    node = resolve_path(root, path)[0]
    if node is None:
        return False
    code = node.default.value if node.default is not None else None
    if not code and any(values_equal(doc, v) for v in _fallbacks(analysis).get(node.key, [])):
        return True
    owner = resolve_path(root, path[:-1])[0]
    return owner is not None and (str(owner.model).rsplit(".", 1)[-1], node.key) in _hooks(analysis)


def _restated_defaults_differ(analysis: Analysis) -> Iterator[Finding]:
    """CD104 for each value of a placed example that restates the defaults
    (``Block.defaults``: its lead says so, or it is what a command prints)
    that differs from the code's default, where most of its values are
    the code's defaults. ``None`` in the code is compared only where the
    block is a command's printout or writes ``null`` for another key whose
    default is ``None``: else the code may compute it at run time."""
    root = analysis.schema
    for rel, block, prefix in analysis.blocks:
        if not block.defaults:
            continue
        printed = block.defaults.startswith("$ ")
        compared: list[tuple[BlockKey, ConfigPath, SchemaNode, Value, bool]] = []
        for key in block.keys:
            path = (*prefix, *key.path)
            node = resolve_path(root, path)[0] if key.kind == VALUE and key.path else None
            if node is None or node.default is None or not node.default.known:
                continue
            if printed and _named_in(path[-1], block.defaults):
                continue  # a value the printing command line sets
            code, doc = node.default.value, DocValue(True, key.value)
            if key.value is None and code in ("", [], {}):
                continue  # unset either way
            equal = values_equal(doc, code)
            if equal is not None:
                compared.append((key, path, node, node.default, equal))
        # Two thirds of its values the code's defaults: the block lists them,
        # and a value that differs is one the docs left behind, not a change.
        same = [path for *_, equal in compared if equal]
        if 3 * len(same) < 2 * len(compared):
            continue  # an example that sets values of its own, not the defaults
        # The block writes ``null`` for a default of ``None``: a value where
        # the code has ``None`` is then no value computed at run time.
        nulls = printed or any(k.value is None for k, *_, equal in compared if equal)
        for key, path, node, default, equal in compared:
            if equal or (default.value is None and not nulls):
                continue
            if _stands_for(analysis, root, path, DocValue(True, key.value)):
                continue
            where = node.default_location or node.location
            shown = (
                f"what `{block.defaults[2:]}` prints, as the page shows it"
                if printed
                else "a block the page says lists the defaults"
            )
            yield make(
                "CD104",
                format_path(path),
                Location(rel, key.line),
                f"`{format_path(path)}` is {key.value!r} in {shown}, "
                f"but the code's default is {_show(default.value, default.text)}",
                (Related(where.path, where.line, f"{node.origin or 'the field'} sets the default"),)
                if where is not None
                else (),
            )


def _named_in(key: str, command: str) -> bool:
    """Does a command line name ``key`` as a word (``app.timeout=3``)?"""
    return re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", command) is not None
