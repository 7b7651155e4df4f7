"""``configdrift fix --add-missing``: a doc entry for an undocumented key.

For a key CD103 reports, the entry is written in the format of its section:
an entry of a sibling key (the last one of the section on its page) is the
template. Its name, type, default and description are replaced by the
key's: the name as the section writes names, the type in the page's words
for that type (learnt from the entries whose keys the code types), the
default in the template's notation, and the description taken from the
code: the field's ``description=`` (``help=``, ``doc=``), its attribute
docstring, or an option's help text. The entry goes after the template's
block (a table row after its row).

Nothing is guessed: a key with no description in the code, no default the
template can show, or a section with no entry to follow is left alone and
named. The page is read again with the new entries: it must hold every
entry it had and the new ones, or nothing is added to it.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import TYPE_CHECKING

from configdrift.edits.entries import TITLES, entry_block, render_like
from configdrift.edits.pages import UNREAD, Edit, Plan, names_alone, page, page_lines
from configdrift.model import Finding, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import DocEntry, SchemaNode

#: Keyword arguments that describe a field or an option.
_DESCRIBING = ("description", "help", "doc", "desc")
#: The longest description written (characters).
MAX_DESCRIPTION = 400
_CELL = re.compile(r"(?<!\\)\|")


def plan(analysis: Analysis, findings: list[Finding]) -> Plan:
    """The entries to add for the CD103 findings among ``findings``."""
    from configdrift.index.spellings import split_key
    from configdrift.model import resolve_path

    surfaces = {s.surface: s for s in analysis.everything}
    pages: dict[str, list[str] | None] = {}
    texts = _Descriptions(str(analysis.config.root))
    # (page, line after which to insert) -> the new blocks, in order.
    inserts: dict[tuple[str, int], list[tuple[Finding, str, Analysis]]] = {}
    skipped: list[tuple[Finding, str]] = []
    for finding in findings:
        if finding.code != "CD103":
            continue
        surface = surfaces.get(finding.surface, analysis)
        node = resolve_path(surface.schema, split_key(finding.key))[0]
        if node is None or node.location is None:
            skipped.append((finding, "the key was not found again"))
            continue
        if node.children:
            skipped.append((finding, "a section: document it and its keys by hand"))
            continue
        description = texts.of(node)
        if not description:
            skipped.append((finding, "the code gives no description: write the entry by hand"))
            continue
        made = _entry(analysis, surface, node, description, pages)
        if isinstance(made, str):
            skipped.append((finding, made))
            continue
        anchor, block = made
        inserts.setdefault(anchor, []).append((finding, block, surface))
    edits: list[Edit] = []
    for (rel, line), blocks in sorted(inserts.items()):
        lines = page(analysis, pages, rel)
        assert lines is not None  # read to plan the block
        old = lines[line - 1]
        new = old + "".join(block for _, block, _ in blocks)
        why = _still_whole(blocks[0][2], rel, lines, line, new, [f.key for f, _, _ in blocks])
        if why is not None:
            skipped += [(f, why) for f, _, _ in blocks]
            continue
        edits.append(
            Edit(rel, line, old, new, "CD103", blocks[0][0].key, count=1, fixes=len(blocks))
        )
    return Plan(edits, skipped)


def _still_whole(
    surface: Analysis, rel: str, lines: list[str], line: int, new: str, keys: list[str]
) -> str | None:
    """Why the page with ``new`` for line ``line`` would not hold its
    entries, placed where they were, and one more per key of ``keys``, or
    None when it would."""
    from configdrift.extract.docs.markups import extractor_for
    from configdrift.place.entries import DocPlacer, configured_sections

    def placed(text: str) -> Counter[str]:
        facts = extractor_for(rel)(text.encode("utf-8"))
        sections = configured_sections(surface.config, surface.surface, surface.first is None)
        placer = DocPlacer(surface.schema, *sections)
        return Counter(format_path(entry.path) for entry in placer.place(rel, facts))

    after = [*lines]
    after[line - 1] = new
    old, now = placed("".join(lines)), placed("".join(after))
    if now - old != Counter(keys) or old - now:
        return "the page would not read as the same entries and the new one"
    return None


def _entry(
    analysis: Analysis,
    surface: Analysis,
    node: SchemaNode,
    description: str,
    pages: dict[str, list[str] | None],
) -> tuple[tuple[str, int], str] | str:
    """Where the new entry goes (page, line after which) and its text."""
    from configdrift.model import resolve_path

    def beside(entry: DocEntry) -> bool:
        """Does the entry document a key of the same section (for an
        option, of the same command)?"""
        if entry.path[:-1] != node.path[:-1]:
            return False
        if not node.origin.startswith("option"):
            return True
        other = resolve_path(surface.schema, entry.path)[0]
        return other is not None and other.origin == node.origin

    siblings = [
        e
        for e in surface.entries
        if e.form not in TITLES
        and e.location.path.endswith((".md", ".mdx", ".markdown", ".qmd", ".rst"))
        and beside(e)
    ]
    if not siblings:
        return "no entry of its section to follow: write it by hand"
    rel, count = Counter(e.location.path for e in siblings).most_common(1)[0]
    if count * 3 < len(siblings) * 2:
        return "its section's entries are spread over several pages: write it by hand"
    if node.origin.startswith("option"):
        # A command line's options share one namespace: the page must be
        # the command's own (most of its options the command's).
        origins = Counter(
            other.origin
            for e in surface.entries
            if e.location.path == rel
            and (other := resolve_path(surface.schema, e.path)[0]) is not None
            and other.origin.startswith("option")
        )
        if origins[node.origin] * 3 < sum(origins.values()) * 2:
            return "its page documents other commands' options: write it by hand"
    template = max((e for e in siblings if e.location.path == rel), key=lambda e: e.location.line)
    lines = page(analysis, pages, rel)
    if lines is None:
        return UNREAD
    span = entry_block(analysis, template, lines)
    if isinstance(span, str):
        return span
    first, end = span
    block = lines[first - 1 : end - 1]
    text = _instantiate(surface, block, template, node, description, rel)
    if isinstance(text, str) and text.startswith("\0"):
        return text[1:]
    return (rel, end - 1), text


def _instantiate(
    surface: Analysis,
    block: list[str],
    template: DocEntry,
    node: SchemaNode,
    description: str,
    rel: str,
) -> str:
    """The template's block with the key's name, type, default and
    description; a reason prefixed by NUL when it cannot be made."""
    old_name = template.path[-1]
    new = [*block]
    head = 0  # the entry's own line within the block
    if old_name not in new[head]:
        return "\0the template's name is not on its line"
    # The description: a table cell, the rest of the entry's line, or the
    # body after it; whatever else the template says is not copied.
    escaped = description.replace("|", "\\|")
    trailing = len(new) - len(_rstrip_blank(new))
    new = _rstrip_blank(new)
    eol = _ending(new[head]) or "\n"
    table = [i for i, text in enumerate(new) if text.lstrip().startswith("|")]
    if template.form == "table" or table:
        if template.form == "table":
            rows = [0]
        else:
            rows = _data_rows(new, table, template.default)
            # The entry's line, the table and the blank lines; no notes.
            new = [t for i, t in enumerate(new) if i == head or i in table or not t.strip()]
            table = [i for i, text in enumerate(new) if text.lstrip().startswith("|")]
            rows = _data_rows(new, table, template.default)
        if len(rows) != 1:
            return "\0the template's description was not found"
        row = rows[0]
        cells = _cells(new[row])
        if cells is None:
            return "\0the template's row could not be read"
        # The longest cell that is neither the name, nor the type, nor the default.
        known = {(template.default or "").strip(), (template.doc_type or "").strip()}
        named = [i for i, cell in enumerate(cells) if old_name in cell]
        name_cell = min(named, key=lambda i: len(cells[i])) if row == head and named else -1
        prose = [
            i
            for i, cell in enumerate(cells)
            if cell.strip() and cell.strip() not in known and i != name_cell
        ]
        if len(prose) != 1:
            # Another column (a short flag, a version) the key's entry
            # cannot fill from the code.
            return "\0the template's row has a column the code cannot fill"
        target = prose[0]
        last = target == len(cells) - 1  # no closing bar
        cells[target] = f" {escaped}" + ("" if last else " ")
        new[row] = "|".join(cells) + _ending(new[row])
    else:
        inline = _inline_description(new[head], old_name)
        if inline is not None:
            # ``- `name` (int): the description``: the line keeps its head.
            new = [new[head][:inline] + description + eol]
        else:
            options = head + 1
            while (
                rel.endswith(".rst") and options < len(new) and new[options].strip().startswith(":")
            ):
                options += 1
            at = next((i for i in range(options, len(new)) if new[i].strip()), None)
            if at is None or new[at].lstrip().startswith(("```", "~~~", ".. ", "|", "#", "<")):
                return "\0the template's description was not found"
            # Its indentation and list marker (``  - ``) stay; the lines
            # between the entry's and it too.
            marker = _MARKER.match(new[at])
            assert marker is not None
            new = [*new[:at], f"{marker.group()}{description}{eol}"]
    new += [eol] * trailing
    # The type, in the page's words for it.
    if template.doc_type:
        words = _type_words(surface).get(node.type.kinds) or node.type.text
        if not words:
            return "\0the key's type is not known"
        found = _once(new, template.doc_type)
        if found is None:
            return "\0the template's type is not written once"
        new[found] = new[found].replace(template.doc_type, words, 1)
    # The default, in the template's notation.
    if template.default:
        written = template.default.strip()
        core = written.strip("`").strip()
        if node.default is None or not node.default.known:
            return "\0the key's default is not known: write the entry by hand"
        if node.default.value is None and core.lower() not in ("none", "null", "~"):
            return "\0the key has no default to write where the template writes one"
        shown = render_like(core, node.default.value) if core else None
        found = _once(new, written)
        if shown is None or found is None:
            return "\0the key's default cannot be written as the template writes its own"
        new[found] = _padded(new[found], written, written.replace(core, shown, 1))
    # The name, written once (in the entry's own line).
    if sum(text.count(old_name) for text in new) != 1 or not names_alone(new[head], old_name):
        return "\0the template names its key more than once"
    new[head] = _padded(new[head], old_name, node.path[-1])
    text = "".join(new)
    if not text.endswith("\n"):
        return "\0the template ends the page without a line break"
    item = _MARKER.match(new[head])
    if len(new) > 1 and new[-1].strip() and not (item and item.group().strip()):
        # A block of several lines that ends the page or its container: a
        # blank line keeps the new one apart.
        text = _ending(new[-1]) + text
    return text


def _padded(line: str, old: str, new: str) -> str:
    """``line`` with ``old`` replaced by ``new``; in a table cell padded to
    align its column, the padding takes up the change of width."""
    start = line.index(old)
    rest = line[start + len(old) :]
    pad = re.match(r"([`*_~]*+)( {2,}+)\|", rest)
    if pad is None:
        return line.replace(old, new, 1)
    spaces = max(1, len(pad.group(2)) - (len(new) - len(old)))
    return line[:start] + new + pad.group(1) + " " * spaces + rest[pad.end(2) :]


def _rstrip_blank(lines: list[str]) -> list[str]:
    """``lines`` without the blank lines that end them."""
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


_MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?")
#: (Blanks are taken whole, a match begins where no blank precedes it: so
#: a long run of blanks is read once, not from each of its places.)
_SEPARATOR = re.compile(r"(?<!\s)(?:\s*+(?::|：)|\s++[-–—]\s)\s*+")


def _inline_description(line: str, name: str) -> int | None:
    """Where the description starts on an entry's line that holds it after
    the name (``- `name` (int): the description``), if it does: after the
    first separator that is followed by at least two words."""
    start = line.find(name)
    if start < 0:
        return None
    # Only the first separator can do: what follows a later one is a part
    # of what follows the first, so it holds no more words.
    match = _SEPARATOR.search(line, start + len(name))
    if match is None:
        return None
    rest = line[match.end() :].strip().rstrip("\\").strip()
    return match.end() if len(rest.split()) >= 2 else None


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _cells(row: str) -> list[str] | None:
    """A table row's parts between bars (the outer bars' empty ends kept)."""
    body = row.rstrip("\r\n")
    parts = _CELL.split(body)
    return parts if len(parts) >= 3 else None


def _data_rows(lines: list[str], table: list[int], default: str | None) -> list[int]:
    """The rows of a table in the block that hold data (the one with the
    default first)."""
    separator = re.compile(r"^\s*+(?:\|\s*+)?:?-{3,}")
    rows = [i for i in table if not separator.match(lines[i]) and i - 1 in table]
    rows = [i for i in rows if i - 1 not in table or not _is_header(lines, i, table)]
    if default:
        rows.sort(key=lambda i: default.strip() not in lines[i])
    return rows


def _is_header(lines: list[str], index: int, table: list[int]) -> bool:
    """Is the row at ``index`` a header (a separator row follows it)?"""
    return index + 1 in table and bool(re.match(r"^\s*+(?:\|\s*+)?:?-{3,}", lines[index + 1]))


def _once(lines: list[str], text: str) -> int | None:
    """The one line that holds ``text``, when it is written once."""
    found = [i for i, line in enumerate(lines) if text in line]
    if len(found) != 1 or lines[found[0]].count(text) != 1:
        return None
    return found[0]


def _type_words(surface: Analysis) -> dict[frozenset[str], str]:
    """The page's words for each type: for the entries whose keys the code
    types, the doc type written most often per kind of type."""
    from configdrift.model import resolve_path

    seen: dict[frozenset[str], Counter[str]] = {}
    for entry in surface.entries:
        if not entry.doc_type:
            continue
        node = resolve_path(surface.schema, entry.path)[0]
        if node is not None and node.type.kinds:
            seen.setdefault(node.type.kinds, Counter())[entry.doc_type] += 1
    return {kinds: words.most_common(1)[0][0] for kinds, words in seen.items()}


class _Descriptions:
    """What the code says of a key: read from the few files the keys are
    declared in, each parsed once."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._trees: dict[str, ast.Module | None] = {}

    def of(self, node: SchemaNode) -> str | None:
        assert node.location is not None
        tree = self._tree(node.location.path)
        if tree is None:
            return None
        text = _described_at(tree, node.location.line)
        if not text:
            return None
        first = re.split(r"\n[^\S\n]*\n", text.strip(), maxsplit=1)[0]
        clean = " ".join(first.split())
        return clean if clean and len(clean) <= MAX_DESCRIPTION and clean.isprintable() else None

    def _tree(self, rel: str) -> ast.Module | None:
        if rel not in self._trees:
            lines = page_lines(self.root, rel)
            try:
                self._trees[rel] = ast.parse("".join(lines)) if lines is not None else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._trees[rel] = None
        return self._trees[rel]


def _described_at(tree: ast.Module, line: int) -> str | None:
    """The description of what is declared at ``line``: a call's describing
    keyword in the innermost statement that spans the line
    (``Field(description=...)``, ``add_argument(help=...)``,
    ``field(metadata={"help": ...})``), or the docstring after a field."""
    best: tuple[int, ast.stmt, ast.stmt | None] | None = None
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for index, statement in enumerate(body):
                if not isinstance(statement, ast.stmt):
                    continue
                end = statement.end_lineno or statement.lineno
                if statement.lineno <= line <= end:
                    after = body[index + 1] if index + 1 < len(body) else None
                    if best is None or end - statement.lineno < best[0]:
                        best = (end - statement.lineno, statement, after)
        stack.extend(ast.iter_child_nodes(node))
    if best is None:
        return None
    _, statement, after = best
    found = _call_text(statement)
    if found:
        return found
    if (
        isinstance(statement, ast.AnnAssign | ast.Assign)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    ):
        return after.value.value
    return None


def _call_text(statement: ast.AST) -> str | None:
    for call in ast.walk(statement):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            value = keyword.value
            if (
                keyword.arg in _DESCRIBING
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                return value.value
            if keyword.arg == "metadata" and isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value in ("help", "description")
                        and isinstance(v, ast.Constant)
                        and isinstance(v.value, str)
                    ):
                        return v.value
    return None
