"""Command-line options read from the parsed arguments by name with a
fallback (CD106): ``getattr(args, "device", "cpu")`` where the parser
declares ``--device`` with the default ``"cuda"``. The fallback applies
where the namespace comes from elsewhere (a checkpoint's saved arguments,
another entry point's parser): the option's default then depends on the
code path.

The reads are found in the code's text, as the reads around a registry
are: a ``getattr`` whose receiver reads ``NAMESPACE_KEYS`` of the
parser's destinations so is the parsed namespace, and whose fallback is
a literal.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import Location, SchemaNode
from configdrift.rules.around_registry import fallback_differs
from configdrift.rules.evidence import bounded_files, code_files, once

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The destinations a receiver reads by ``getattr`` to be the parsed namespace.
NAMESPACE_KEYS = 3

#: ``getattr(args, "device", "cpu")``: the receiver, the name, the fallback's text.
_GETATTR = re.compile(
    rb"""getattr\(\s{0,40}+(\w{1,40})\s{0,40}+,\s{0,40}+["']([A-Za-z_]\w{0,60})["']"""
    rb"""\s{0,40}+,\s{0,40}+([^(),\s][^(),\n]{0,39}?)\s{0,40}+\)"""
)


def namespace_fallbacks(analysis: Analysis) -> Iterator[tuple[SchemaNode, Location, str]]:
    """For an argparse command line, each option the code reads by
    ``getattr`` from the parsed namespace with a literal fallback that says
    another default than its declared one (not ``None``, not both falsy,
    not a string against another type), outside the module that declares
    it: (node, where, fallback text), the first such read of each option."""
    root = analysis.schema
    if root.model_kind != "argparse":
        return
    options = {
        node.key: node
        for node in root.children.values()
        if node.default is not None and node.default.value is not None
    }
    if len(options) < NAMESPACE_KEYS:
        return
    reads = once(analysis, "getattr fallbacks", lambda: _getattr_reads(analysis))
    dests = {node.key for node in root.children.values()}
    read_by: dict[str, set[str]] = {}
    for receiver, name in reads:
        if name in dests:
            read_by.setdefault(receiver, set()).add(name)
    namespaces = {receiver for receiver, names in read_by.items() if len(names) >= NAMESPACE_KEYS}
    told: set[str] = set()
    for (receiver, name), sites in sorted(reads.items()):
        node = options.get(name)
        if node is None or receiver not in namespaces or name in told:
            continue
        assert node.default is not None
        for where, text in sites:
            if node.location is not None and where.path == node.location.path:
                continue  # the declaring module knows when it declares it (``if can_symlink:``)
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if fallback_differs(value, node.default.value):
                told.add(name)
                yield node, where, text
                break


def _getattr_reads(analysis: Analysis) -> dict[tuple[str, str], list[tuple[Location, str]]]:
    """Each ``getattr`` with a fallback in the code, by receiver and name:
    where it is and its fallback's text. Bounded like the other searches."""
    out: dict[tuple[str, str], list[tuple[Location, str]]] = {}
    for rel, data in bounded_files(analysis, code_files(analysis)):
        if b"getattr(" not in data:
            continue
        line, counted = 1, 0
        for match in _GETATTR.finditer(data):
            line += data.count(b"\n", counted, match.start())
            counted = match.start()
            key = (match.group(1).decode(), match.group(2).decode())
            out.setdefault(key, []).append((Location(rel, line), match.group(3).decode()))
    return out
