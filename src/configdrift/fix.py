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

The unsafe fixes (``--unsafe-fixes``): a doc entry's key (CD101, CD102) or
an example's (CD301, CD302) renamed to the near spelling its finding
suggests, unless that spelling is documented or set beside it already, or
its type refuses the example's value.
"""

from __future__ import annotations

import difflib
import itertools
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from configdrift.files import read_or_none
from configdrift.model import Finding, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import DocEntry

#: The largest page a fix edits (bytes).
MAX_PAGE = 8 << 20


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``old`` by ``new`` on line ``line`` (1-based) of ``path``;
    with ``count``, replace the ``count`` lines from ``line`` on by ``new``
    (``old`` is then their text, checked before they go; ``new`` is empty
    to delete them)."""

    path: str
    line: int
    old: str
    new: str
    code: str
    key: str
    count: int = 0
    #: The findings the edit fixes (the entries one insertion adds).
    fixes: int = 1


@dataclass(slots=True)
class Plan:
    edits: list[Edit]
    #: Findings of a fixable rule that are left alone, with why.
    skipped: list[tuple[Finding, str]]


_SCIENTIFIC = re.compile(r"^[+-]?\d+(?:\.\d+)?[eE][+-]?\d+$")


def render_like(written: str, value: object) -> str | None:
    """``value`` written in the notation of ``written`` (a documented
    default's core text, without backticks), or None when there is no safe
    way to write it."""
    quote = written[0] if len(written) >= 2 and written[0] == written[-1] in "\"'" else ""
    if isinstance(value, bool):
        word = "true" if value else "false"
        if written[:1].isupper() and written[1:].islower():
            return word.capitalize()
        return word if written.islower() else word.capitalize()
    if value is None:
        return "null" if written.lower() == "null" else "None"
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if _SCIENTIFIC.match(written) and value:
            exponent = math.floor(math.log10(abs(value)))
            mantissa = f"{value / 10**exponent:.6g}"
            text = f"{mantissa}e{exponent}"
            return text if float(text) == value else repr(value)
        if "_" in written and isinstance(value, int):
            return f"{value:_}"
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        if not value.isprintable() or any(c in value for c in "`|*<>"):
            return None  # it would end the code span, the cell or the emphasis
        if quote:
            if quote in value or "\\" in value:
                return None
            return f"{quote}{value}{quote}"
        return value if value.strip() == value and value else None
    return None


def entry_lines(analysis: Analysis, rel: str) -> list[int]:
    """The lines of a page that hold an entry, of any surface: the bounds of
    each entry's block."""
    return sorted(
        {e.location.line for s in analysis.everything for e in s.entries if e.location.path == rel}
    )


def _entry_span(analysis: Analysis, entry: DocEntry, lines: int) -> range:
    """The lines from the entry to the next entry of the same page."""
    later = [n for n in entry_lines(analysis, entry.location.path) if n > entry.location.line]
    return range(entry.location.line, min([*later, lines + 1]))


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
        from configdrift import missing

        added = missing.plan(analysis, findings)
        planned.edits, overlapping = apart(planned.edits + added.edits)
        planned.skipped += added.skipped
        for edit in overlapping:
            finding = next((f for f in findings if (f.code, f.key) == (edit.code, edit.key)), None)
            if finding is not None:
                planned.skipped.append((finding, "overlaps another fix: run fix again"))
    return planned


#: Why a page's edits cannot be made: its text is not known.
_UNREAD = "the page cannot be read as UTF-8 text"


def page(analysis: Analysis, pages: dict[str, list[str] | None], rel: str) -> list[str] | None:
    """A page's lines, read once for all the fixes that edit it."""
    if rel not in pages:
        pages[rel] = _lines(str(analysis.config.root), rel)
    return pages[rel]


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
    path = entry.location.path
    lines = page(analysis, pages, path)
    if lines is None:
        return _UNREAD
    written = entry.default.strip()
    core = written.strip("`").strip()
    new_core = render_like(core, node.default.value)
    if not core or new_core is None:
        return "the code's default has no safe spelling in the doc"
    span = _entry_span(analysis, entry, len(lines))
    places = [n for n in span if lines[n - 1].count(written) == 1]
    if len(places) != 1 or sum(lines[n - 1].count(written) for n in span) != 1:
        return f"`{written}` is not written once in the entry"
    return Edit(path, places[0], written, written.replace(core, new_core, 1), "CD104", finding.key)


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
        return f"not deleted, since {finding.suggestion}: correct the entry by hand{how}"
    entry = next((e for e in surface.entries if e.location == finding.location), None)
    if entry is None:
        return "the entry was not found again"
    if entry.form in _TITLES:
        return _TITLE
    if entry.doc_type is None and entry.default is None:
        # Only an option's full entry goes: one with neither a type nor a
        # default may be a list of something else (a page's meta keys).
        return "the entry gives neither a type nor a default: delete it by hand if it must go"
    return entry_removal(analysis, entry, pages, "CD101", finding.key)


#: Entry forms that title a section, and why such an entry is not deleted.
_TITLES = ("heading", "word", "section")
_TITLE = "the entry is a section's title: remove the section by hand"


def entry_removal(
    analysis: Analysis,
    entry: DocEntry,
    pages: dict[str, list[str] | None],
    code: str,
    key: str,
) -> Edit | str:
    """The deletion of a doc entry's block (its row, item, paragraphs or
    directive), or why there is none."""
    path = entry.location.path
    lines = page(analysis, pages, path)
    if lines is None:
        return _UNREAD
    span = entry_block(analysis, entry, lines)
    if isinstance(span, str):
        return span
    first, end = span
    text = "".join(lines[first - 1 : end - 1])
    return Edit(path, first, text, "", code, key, count=end - first)


def entry_block(analysis: Analysis, entry: DocEntry, lines: list[str]) -> tuple[int, int] | str:
    """The lines [first, end) of a doc entry's block (its row, item,
    paragraphs or directive), or why it cannot be told from its neighbours."""
    path = entry.location.path
    if entry.form in _TITLES:
        return _TITLE
    if not _names_alone(lines[entry.location.line - 1], entry.name):
        # ``--ctr 0.25 --rcfg 1.0``: a command or a value, not the key's entry.
        return "the key is not written alone on the entry's line"
    others = [n for n in entry_lines(analysis, path) if n != entry.location.line]
    span: tuple[int, int] | None
    if path.endswith(".rst"):
        span = _rst_block(lines, entry.location.line)
    else:
        span = _markdown_block(lines, entry.location.line, entry.form, others, path)
    if span is None:
        return "the entry's block could not be told from its neighbours"
    first, end = span
    if any(first <= line < end for line in others):
        return "the entry's block holds another entry"
    return first, end


def _rename(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """The rename of a deprecated key in an example, or why there is none."""
    from configdrift.model import resolve_path
    from configdrift.resolve.lifecycle import DEPRECATED
    from configdrift.rules.values import value_rejection

    where = finding.location
    keys = [
        (base, key)
        for rel, block, base in surface.blocks
        if rel == where.path
        for key in block.keys
        if key.line == where.line and format_path((*base, *key.path)) == finding.key
    ]
    if not keys:
        return "a doc entry: say it is deprecated, or document its replacement, by hand"
    base, key = keys[0]
    path = (*base, *key.path)
    marked = [e for e in analysis.lifecycle if e.status == DEPRECATED and e.path == path]
    replacement = marked[0].replacement if marked else None
    if not replacement or not replacement.isidentifier():
        return "no replacement key beside it is known"
    node = resolve_path(surface.schema, (*path[:-1], replacement))[0]
    info = node.type if node is not None else None
    # A literal the new key's known type takes, as the example rules judge
    # it: a section (``cpu_offload: true`` to ``offload_optimizer``) or an
    # unknown type is no rename to make blindly.
    if (
        info is None
        or not info.kinds
        or key.kind != "value"
        or value_rejection(info, key.kind, key.value) is not None
    ):
        return f"`{replacement}` does not take the example's value: rename it by hand"
    lines = page(analysis, pages, where.path)
    if lines is None:
        return _UNREAD
    old = path[-1]
    text = lines[where.line - 1]
    if text.count(old) != 1 or not _names_alone(text, old):
        return f"`{old}` is not written once on its line"
    return Edit(where.path, where.line, old, replacement, "CD402", finding.key)


_NEAR = re.compile(r"^(?:did you mean|the code reads) `([^`]+)`")


def near(finding: Finding) -> str | None:
    """The near spelling a finding suggests for its key ("did you mean
    `x`?", "the code reads `x`"), if it suggests one."""
    found = _NEAR.match(finding.suggestion or "")
    return found.group(1) if found else None


def _near_rename(
    analysis: Analysis,
    surface: Analysis,
    finding: Finding,
    pages: dict[str, list[str] | None],
) -> Edit | str:
    """An unsafe fix: the key of a doc entry or an example renamed to the
    near spelling the finding suggests. Unsafe, because a near spelling may
    be another key: the diff is for a person to read."""
    from configdrift.model import ConfigPath, resolve_path
    from configdrift.rules.values import value_rejection

    close = near(finding)
    where = finding.location
    lines = page(analysis, pages, where.path)
    if close is None or lines is None:
        return _UNREAD if close else "no near spelling"
    path: ConfigPath | None = None
    taken: set[str] = set()
    if where.path in analysis.env_examples:
        # ``NAME=value`` in an example environment file, read as CD302 reads it.
        from configdrift.rules.examples import env_assignments

        text = lines[where.line - 1]
        assigned = [name for name, _ in env_assignments(text.encode("utf-8"))]
        if assigned != [finding.key] or text.count(finding.key) != 1:
            return f"`{finding.key}` is not written once on its line"
        if close in {name for name, _ in env_assignments("".join(lines).encode("utf-8"))}:
            return f"`{close}` is set in the file already: remove one by hand"
        return Edit(where.path, where.line, finding.key, close, finding.code, finding.key)
    if finding.code in ("CD101", "CD102"):
        entry = next(
            (
                e
                for e in surface.entries
                if e.location == where and format_path(e.path) == finding.key
            ),
            None,
        )
        if entry is None:
            return "the entry was not found again"
        path = entry.path
        taken = {e.path[-1] for e in surface.entries if e.path[:-1] == path[:-1]}
    else:
        for rel, block, base in surface.blocks:
            if rel != where.path:
                continue
            for key in block.keys:
                full = (*base, *key.path)
                if key.line == where.line and format_path(full) == finding.key:
                    path = full
                    node = resolve_path(surface.schema, (*full[:-1], close))[0]
                    info = node.type if node is not None else None
                    if (
                        info is not None
                        and info.kinds
                        and key.kind == "value"
                        and value_rejection(info, key.kind, key.value) is not None
                    ):
                        return f"`{close}` does not take the example's value: rename it by hand"
                    taken |= {k.path[-1] for k in block.keys if k.path[:-1] == key.path[:-1]}
        if path is None:
            return "the example's key was not found again"
    if close in taken:
        return f"`{close}` is set beside it already: remove one by hand"
    old = path[-1]
    text = lines[where.line - 1]
    if text.count(old) != 1 or not _names_alone(text, old):
        return f"`{old}` is not written once on its line"
    return Edit(where.path, where.line, old, close, finding.code, finding.key)


#: The unsafe fixes (``--unsafe-fixes``): a key renamed to its near spelling.
UNSAFE: dict[
    str, Callable[[Analysis, Analysis, Finding, dict[str, list[str] | None]], Edit | str]
] = {code: _near_rename for code in ("CD101", "CD102", "CD301", "CD302")}

#: The fix of each rule that has one: the edit, or why there is none.
_FIXES: dict[
    str, Callable[[Analysis, Analysis, Finding, dict[str, list[str] | None]], Edit | str]
] = {
    "CD101": _removal,
    "CD104": _default,
    "CD402": _rename,
}


def _names_alone(line: str, name: str) -> bool:
    """Is ``name`` written on ``line`` as an entry writes it, ended by its
    markup (a backtick, emphasis, a tag, a cell's bar, a colon) or the line's
    end rather than by a space and more text?"""
    start = line.find(name)
    while start >= 0:
        after = line[start + len(name) : start + len(name) + 1]
        if after in ("", "\n", "\r", "`", "*", "_", "<", "|", ":", ")", "]", "'", '"'):
            return True
        start = line.find(name, start + 1)
    return False


def _markdown_block(
    lines: list[str], line: int, form: str, others: list[int], path: str
) -> tuple[int, int] | None:
    """The lines [first, end) of a Markdown entry's block (1-based)."""
    from configdrift.extract.docs.markdown import _parser, mdx_markdown

    text = "".join(lines)
    if path.endswith(".mdx"):
        text = mdx_markdown(text)
    tokens = _parser().parse(text)
    if form == "table":
        rows = [t for t in tokens if t.type == "tr_open" and t.map and t.map[0] == line - 1]
        in_body = any(
            t.type == "tbody_open" and t.map and t.map[0] <= line - 1 < t.map[1] for t in tokens
        )
        return (line, line + 1) if rows and in_body else None
    items = [
        t
        for t in tokens
        if t.type == "list_item_open" and t.map and t.map[0] <= line - 1 < t.map[1]
    ]
    if items:
        item = items[-1]  # the innermost
        assert item.map is not None
        first, end = item.map[0] + 1, item.map[1] + 1
        # The blank lines after the item stay: after a list's last item they
        # keep what follows the list out of it.
        while end - 1 > first and not lines[end - 2].strip():
            end -= 1
        return first, end
    paragraphs = [
        t for t in tokens if t.type == "paragraph_open" and t.map and t.map[0] == line - 1
    ]
    if not paragraphs:
        return None
    # The entry's paragraph and what follows it up to the next entry, the
    # next heading or the end of the enclosing container.
    headings = [t.map[0] + 1 for t in tokens if t.type == "heading_open" and t.map]
    level = paragraphs[0].level
    closers = [t.map[0] + 1 for t in tokens if t.map and t.level < level and t.map[0] + 1 > line]
    bounds = [b for b in (*others, *headings, *closers) if b > line]
    end = min([*bounds, len(lines) + 1])
    return line, end


def _rst_block(lines: list[str], line: int) -> tuple[int, int]:
    """The lines [first, end) of a reStructuredText directive or definition
    list item: its first line, its indented body and the blank lines after
    it (the language's own rule for where a body ends)."""
    head = lines[line - 1]
    indent = len(head) - len(head.lstrip(" "))
    end = line
    while end < len(lines):
        text = lines[end]
        if text.strip() and len(text) - len(text.lstrip(" ")) <= indent:
            break
        end += 1
    return line, end + 1


def _read(root: str, rel: str) -> tuple[bytes, list[str]] | None:
    """A page's bytes and its lines (ends kept), None when it cannot be
    read as UTF-8 text within ``MAX_PAGE``."""
    data = read_or_none(root, rel, MAX_PAGE)
    if data is None:
        return None
    try:
        return data, data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def _lines(root: str, rel: str) -> list[str] | None:
    read = _read(root, rel)
    return read[1] if read is not None else None


def edited(root: str, rel: str, edits: list[Edit]) -> tuple[bytes, bytes] | None:
    """The page's bytes before and after ``edits``, read afresh (None when
    it cannot be read, or a line is no longer what the edit expects);
    every line but the edited ones is kept byte for byte."""
    read = _read(root, rel)
    if read is None:
        return None
    data, lines = read
    spans = sorted((e.line, e.line + max(e.count, 1)) for e in edits)
    if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
        return None  # edits that overlap: none is made
    for edit in sorted(edits, key=lambda e: -e.line):
        if edit.count:
            if "".join(lines[edit.line - 1 : edit.line - 1 + edit.count]) != edit.old:
                return None
            lines[edit.line - 1 : edit.line - 1 + edit.count] = [edit.new] if edit.new else []
            continue
        text = lines[edit.line - 1]
        if text.count(edit.old) != 1:
            return None
        lines[edit.line - 1] = _replaced(text, edit.old, edit.new)
    return data, "".join(lines).encode("utf-8")


_CELL_END = re.compile(r"( +)\|")


def _replaced(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new``; in a table cell padded
    with spaces, the padding takes up the change of width, so that the
    columns stay aligned where the spaces allow."""
    start = text.index(old)
    rest = text[start + len(old) :]
    pad = _CELL_END.match(rest)
    if pad is not None:
        spaces = len(pad.group(1)) - (len(new) - len(old))
        rest = " " * max(1, spaces) + rest[len(pad.group(1)) :]
    return text[:start] + new + rest


def apart(edits: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    """The edits that do not overlap an earlier one, and those that do."""
    kept: list[Edit] = []
    dropped: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.path, e.line)):
        last = kept[-1] if kept else None
        if (
            last is not None
            and last.path == edit.path
            and last.line + max(last.count, 1) > edit.line
        ):
            dropped.append(edit)
        else:
            kept.append(edit)
    return kept, dropped


def moved(line: int, edits: list[Edit]) -> int:
    """Where line ``line`` of a page is once ``edits`` are made (a line an
    edit replaced stays where the edit starts)."""
    shift = 0
    for edit in edits:
        if edit.count and edit.line + edit.count <= line:
            shift += edit.new.count("\n") - edit.count
    return line + shift


def diff(rel: str, before: bytes, after: bytes, new: bool = False) -> str:
    """A unified diff of one page (``new``: a file to create)."""
    return "".join(
        difflib.unified_diff(
            before.decode("utf-8").splitlines(keepends=True),
            after.decode("utf-8").splitlines(keepends=True),
            "/dev/null" if new else f"a/{rel}",
            f"b/{rel}",
        )
    )


def by_file(edits: list[Edit]) -> dict[str, list[Edit]]:
    out: dict[str, list[Edit]] = {}
    for edit in edits:
        out.setdefault(edit.path, []).append(edit)
    return out


def stamp(root: str, rel: str) -> tuple[int, int] | None:
    """What tells a later change of the file: its size and modification time."""
    try:
        info = os.stat(os.path.join(root, rel))
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def dirty(root: str, rels: list[str]) -> list[str]:
    """Of ``rels``, those git says have uncommitted changes (none when the
    project is no git work tree or git is missing)."""
    from configdrift.git import GitError, run

    if not rels:
        return []
    try:
        result = run(root, "status", "--porcelain", "-z", "--", *rels, timeout=30)
    except GitError:
        return []
    return sorted(
        entry[3:].decode("utf-8", "replace") for entry in result.split(b"\0") if entry[3:]
    )
