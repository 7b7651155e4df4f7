"""``configdrift fix``: edit the docs where a finding's remedy is mechanical.

A fix is an ``Edit``: one line of one page, its old text and its new text.
Fixes are planned from the findings ``check`` reports (after ``select``,
``ignore`` and suppression comments), shown as a unified diff, and written
with ``--apply``: each file whole or not at all, only the lines concerned
changed (line endings, encoding and every other byte kept), never a file
outside the project, and never a file that changed since it was analysed.

The fixes so far:

- CD101: the doc entry of a key no version of the schema accepts deleted,
  with what belongs to it and nothing else: a table row; a list item; an
  entry paragraph with its description (the table or paragraphs up to the
  next entry or heading); a reStructuredText directive, or a definition
  list item, with its indented body. An entry that is a section's title,
  whose block holds another entry, that gives neither a type nor a default
  (it may list something else), or that a near spelling suggests is a real
  key misspelt (CD101's "did you mean"), is left alone.
- CD402: in an example config, a deprecated key renamed to the key that
  replaces it, when that key sits beside it and its type takes the
  example's value (``cpu_offload: true`` is not renamed to a section).
- CD104: a documented default set to the code's, written in the doc's own
  notation (``5e7`` stays scientific, ``True`` keeps its capital, a quoted
  string keeps its quotes). Values that are no scalar are left alone.
- CD603: the same, for a spelling with no default of its own documented
  with another than its setting's: set to the one the setting's other
  spellings agree on.

The unsafe fixes (``--unsafe-fixes``): a doc entry's key (CD101, CD102) or
an example's (CD301, CD302) renamed to the near spelling its finding
suggests, unless that spelling is documented or set beside it already, or
its type refuses the example's value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from configdrift.edits.entries import TITLE, TITLES, entry_removal, entry_span, render_like
from configdrift.edits.pages import UNREAD, Edit, Plan, apart, page
from configdrift.edits.renames import UNSAFE, deprecated_rename, near
from configdrift.model import DocEntry, Finding, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def plan(analysis: Analysis, findings: list[Finding], unsafe: bool = False) -> Plan:
    """The edits that fix ``findings`` (those a fix exists for); with
    ``unsafe``, the unsafe fixes too: a key renamed to its near spelling."""
    surfaces = {s.surface: s for s in analysis.everything}
    edits: list[Edit] = []
    skipped: list[tuple[Finding, str]] = []
    pages: dict[str, list[str] | None] = {}
    for finding in findings:
        make = _FIXES.get(finding.code)
        if unsafe and finding.code in UNSAFE and near(finding) is not None:
            make = UNSAFE[finding.code]
        if make is None:
            continue
        found = make(analysis, surfaces.get(finding.surface, analysis), finding, pages)
        if isinstance(found, str):
            skipped.append((finding, found))
        else:
            edits.append(found)
    return Plan(edits, skipped)


def plan_all(
    analysis: Analysis, findings: list[Finding], unsafe: bool = False, add_missing: bool = False
) -> Plan:
    """The fixes ``fix`` makes: the safe ones, the unsafe ones with
    ``unsafe``, and with ``add_missing`` the entries of undocumented keys;
    an edit that overlaps another waits for the next run."""
    planned = plan(analysis, findings, unsafe)
    if add_missing:
        from configdrift.edits import missing

        added = missing.plan(analysis, findings)
        planned.edits, overlapping = apart(planned.edits + added.edits)
        planned.skipped += added.skipped
        for edit in overlapping:
            finding = next((f for f in findings if (f.code, f.key) == (edit.code, edit.key)), None)
            if finding is not None:
                planned.skipped.append((finding, "overlaps another fix: run fix again"))
    return planned


def _default(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """The CD104 edit of a documented default, or why there is none."""
    from configdrift.model import resolve_path

    entry = next(
        (
            e
            for e in surface.entries
            if e.location == finding.location and format_path(e.path) == finding.key
        ),
        None,
    )
    node = resolve_path(surface.schema, entry.path)[0] if entry is not None else None
    if entry is None or entry.default is None or node is None or node.default is None:
        return "the entry or the default was not found again"
    return _rewritten_default(analysis, entry, node.default.value, finding, pages)


def _setting_default(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """The CD603 edit: the documented default of a spelling with none of
    its own set to the one its setting's other spellings agree on."""
    from configdrift.rules.settings import setting_default_for

    entry = next((e for e in surface.entries if e.location == finding.location), None)
    value = setting_default_for(analysis, finding.key, finding.location)
    if entry is None or entry.default is None or value is None:
        return "the entry or the setting's default was not found again"
    return _rewritten_default(analysis, entry, value, finding, pages)


def _rewritten_default(
    analysis: Analysis,
    entry: DocEntry,
    value: object,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """An entry's documented default rewritten as ``value``, in the doc's
    own notation."""
    assert entry.default is not None
    path = entry.location.path
    lines = page(analysis, pages, path)
    if lines is None:
        return UNREAD
    written = entry.default.strip()
    core = written.strip("`").strip()
    new_core = render_like(core, value)
    if not core or new_core is None:
        return "the code's default has no safe spelling in the doc"
    span = entry_span(analysis, entry, len(lines))
    places = [n for n in span if lines[n - 1].count(written) == 1]
    if len(places) != 1 or sum(lines[n - 1].count(written) for n in span) != 1:
        return f"`{written}` is not written once in the entry"
    new = written.replace(core, new_core, 1)
    return Edit(path, places[0], written, new, finding.code, finding.key)


def _removal(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """The deletion of a CD101 entry's block, or why there is none."""
    if finding.suggestion is not None:
        # A near spelling or the key's place elsewhere: the entry documents
        # a real key under a wrong name, and deleting it would lose that.
        how = " (--unsafe-fixes renames it)" if near(finding) else ""
        return (
            "not deleted: the entry may name a real key wrongly "
            f"({finding.suggestion.rstrip('.')}); correct it by hand{how}"
        )
    entry = next((e for e in surface.entries if e.location == finding.location), None)
    if entry is None:
        return "the entry was not found again"
    if entry.form in TITLES:
        return TITLE
    if entry.doc_type is None and entry.default is None:
        # Only an option's full entry goes: one with neither a type nor a
        # default may be a list of something else (a page's meta keys).
        return "the entry gives neither a type nor a default: delete it by hand if it must go"
    return entry_removal(analysis, entry, pages, "CD101", finding.key)


#: The fix of each rule that has one: the edit, or why there is none.
_FIXES: dict[
    str, Callable[[Analysis, Analysis, Finding, dict[str, list[str] | None]], Edit | str]
] = {
    "CD101": _removal,
    "CD104": _default,
    "CD402": deprecated_rename,
    "CD603": _setting_default,
}
