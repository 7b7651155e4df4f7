"""``configdrift sweep KEY --apply``: the mechanical part of a key's removal.

From the references ``sweep`` finds, the ones whose edit is mechanical:

- the key's doc entries deleted (its table row, list item, paragraphs or
  directive, as ``fix`` deletes a CD101 entry);
- the key deleted from the example configs: doc blocks (JSON and its
  relatives, Python dicts, YAML, TOML, INI), config files, and the dicts
  tests hand to a call, with its value and its separator, so that the block
  still reads as the same config without the key;
- the lines of sample output that print it (``name ...... value`` in an
  untagged or output block);
- the key added to the project's registry of removed keys (a module-level
  set, list, tuple or dict whose name matches ``removed-registries``), or to
  ``[tool.configdrift.removed]`` when there is none.

The code (constants, the parse, accessors, checkpoint fields) and prose that
names the key are listed, never edited: what replaces them is a decision.
Every edited block is read again before it is kept: its keys must be those
it had less the removed key and what sat under it, or the edit is dropped
and the reference listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from configdrift.edits.entries import entry_removal
from configdrift.edits.key_deletion import Fences, example_removal, fences_of
from configdrift.edits.pages import UNREAD, Edit, apart, page
from configdrift.edits.removed_registry import configuration_edit, registries_of, registry_edit
from configdrift.model import REMOVED, ConfigPath, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.sweep import Reference, Sweep

#: Fence languages of sample output (an untagged block, a console session).
_OUTPUT_LANGS = frozenset({"", "text", "txt", "console", "output", "log", "plain", "none"})


@dataclass(slots=True)
class Removal:
    """The edits of a removal, a configuration file to create, and the
    references left to do by hand, with why."""

    edits: list[Edit] = field(default_factory=list)
    #: A file that does not exist yet: (path, text).
    created: tuple[str, str] | None = None
    left: list[tuple[Reference, str]] = field(default_factory=list)


def plan(analysis: Analysis, result: Sweep, reason: str) -> Removal:
    """What ``sweep --apply`` edits for ``result``, and what it leaves."""
    from configdrift.sweep import CODE_KINDS, Reference

    key = result.key
    text = format_path(key)
    out = Removal()
    pages: dict[str, list[str] | None] = {}
    fences: Fences = {}
    done: set[tuple[str, int]] = set()
    texts = {(r.path, r.line): r.text for r in result.references}

    def edited(found: Edit | str, ref: Reference) -> None:
        if isinstance(found, str):
            out.left.append((replace(ref, text=texts.get((ref.path, ref.line), "")), found))
        else:
            out.edits.append(found)
            done.add((ref.path, ref.line))

    for surface in analysis.everything:
        for entry in surface.entries:
            if entry.path == key:
                ref = Reference("doc entry", entry.location.path, entry.location.line, "")
                edited(entry_removal(analysis, entry, pages, "sweep", text), ref)
    for rel, block, base in analysis.blocks:
        for bkey in block.keys:
            if (*base, *bkey.path) == key:
                ref = Reference("example config", rel, bkey.line, "")
                edited(example_removal(analysis, pages, fences, rel, block, bkey, text), ref)
    leaves = {key[-1], *result.derived}
    for ref in result.of("tutorial or sample output"):
        edited(_output_removal(analysis, pages, fences, ref, leaves, text), ref)
    out.edits, overlapping = apart(out.edits)
    for edit in overlapping:
        done.discard((edit.path, edit.line))
        out.left.append(
            (Reference("example config", edit.path, edit.line, ""), "overlaps another edit")
        )
    listed = {(r.path, r.line) for r, _ in out.left}
    for ref in result.references:
        if (ref.path, ref.line) in done or (ref.path, ref.line) in listed:
            continue
        if ref.kind in CODE_KINDS:
            out.left.append((ref, "code: edit it by hand"))
        elif ref.kind in ("tutorial or sample output", "test"):
            out.left.append((ref, "prose or code that names it: update it by hand"))
    _register(analysis, key, reason, out)
    return out


# -- sample output --------------------------------------------------------


def _output_removal(
    analysis: Analysis,
    pages: dict[str, list[str] | None],
    fences: Fences,
    ref: Reference,
    names: set[str],
    key: str,
) -> Edit | str:
    """The deletion of a line of sample output that prints the key (or a
    name made from it) with its value."""
    lines = page(analysis, pages, ref.path)
    if lines is None:
        return UNREAD
    text = lines[ref.line - 1]
    match = _PRINTED.match(text)
    if match is None or match.group("name").rsplit(".", 1)[-1] not in names:
        return "prose that names it: update it by hand"
    if ref.path.endswith((".rst", ".txt")) or not any(
        start < ref.line - 1 < close - 1 and lang in _OUTPUT_LANGS
        for start, close, lang in fences_of(fences, ref.path, lines)
    ):
        return "not in a block of sample output: update it by hand"
    return Edit(ref.path, ref.line, text, "", "sweep", key, count=1)


#: A line of sample output that prints a name and its value
#: (``worker-0:   name ..... value``, ``name: value``, ``name = value``).
_PRINTED = re.compile(
    r"^\s*+(?:[\w.\-\[\]]++:\s++)?(?P<name>[A-Za-z_]\w*+(?:\.\w++)*+)\s*+(?:\.{2,}|:|=)\s*+\S"
)


# -- the registry of removed keys ------------------------------------------


def _register(analysis: Analysis, key: ConfigPath, reason: str, out: Removal) -> None:
    """Add the key to the project's registry of removed keys, or to the
    configuration's ``removed`` table when the code keeps none."""
    from configdrift.sweep import Reference

    text = format_path(key)
    if any(e.status == REMOVED and e.path == key for e in analysis.lifecycle):
        return  # already marked removed
    registries = registries_of(analysis)
    if len(registries) > 1:
        names = ", ".join(f"`{name}` ({rel})" for rel, name, _ in registries)
        out.left.append(
            (
                Reference("registry", registries[0][0], registries[0][2], ""),
                f"more than one registry of removed keys ({names}): add `{text}` to one by hand",
            )
        )
        return
    if registries:
        rel, name, line = registries[0]
        found = registry_edit(analysis, rel, name, text, reason)
        if isinstance(found, str):
            out.left.append((Reference("registry", rel, line, ""), found))
        else:
            out.edits.append(found)
        return
    found_config = configuration_edit(analysis, text, reason)
    if isinstance(found_config, str):
        out.left.append(
            (Reference("registry", analysis.config.source_rel or ".", 1, ""), found_config)
        )
    elif isinstance(found_config, Edit):
        out.edits.append(found_config)
    else:
        out.created = found_config
