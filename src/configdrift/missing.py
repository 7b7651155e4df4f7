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

from configdrift import fix
from configdrift.model import Finding

if TYPE_CHECKING:
    from configdrift.engine import Analysis
    from configdrift.model import DocEntry, SchemaNode

#: Keyword arguments that describe a field or an option.
_DESCRIBING = ("description", "help", "doc", "desc")
#: The longest description written (characters).
MAX_DESCRIPTION = 400
_CELL = re.compile(r"(?<!\\)\|")


def plan(analysis: Analysis, findings: list[Finding]) -> fix.Plan:
    """The entries to add for the CD103 findings among ``findings``."""
    from configdrift.resolve.lifecycle import split_key
    from configdrift.rules.docs_schema import resolve_path

    surfaces = {s.surface: s for s in analysis.everything}
    pages: dict[str, list[str] | None] = {}
    texts = _Descriptions(str(analysis.config.root))
    # (page, line after which to insert) -> the new blocks, in order.
    inserts: dict[tuple[str, int], list[tuple[Finding, str]]] = {}
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
        inserts.setdefault(anchor, []).append((finding, block))
    edits: list[fix.Edit] = []
    for (rel, line), blocks in sorted(inserts.items()):
        lines = fix.page(analysis, pages, rel)
        assert lines is not None  # read to plan the block
        old = lines[line - 1]
        new = old + "".join(block for _, block in blocks)
        why = _still_whole(rel, lines, line, new, [f.key for f, _ in blocks])
        if why is not None:
            skipped += [(f, why) for f, _ in blocks]
            continue
        edits.append(
            fix.Edit(rel, line, old, new, "CD103", blocks[0][0].key, count=1, fixes=len(blocks))
        )
    return fix.Plan(edits, skipped)


def _still_whole(rel: str, lines: list[str], line: int, new: str, keys: list[str]) -> str | None:
    """Why the page with ``new`` for line ``line`` would not hold its entries
    and one more per key of ``keys``, or None when it would."""
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    def names(text: str) -> Counter[str]:
        data = text.encode("utf-8")
        if rel.endswith(".rst"):
            facts = extract_rst(data)
        else:
            facts = extract_markdown(data, mdx=rel.endswith(".mdx"))
        return Counter(entry.parts[-1] if entry.parts else entry.name for entry in facts.entries)

    after = [*lines]
    after[line - 1] = new
    old, now = names("".join(lines)), names("".join(after))
    added = Counter(key.rsplit(".", 1)[-1] for key in keys)
    if now - old != added or old - now:
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
    siblings = [
        e
        for e in surface.entries
        if e.path[:-1] == node.path[:-1]
        and e.form not in fix._TITLES
        and e.location.path.endswith((".md", ".mdx", ".markdown", ".rst"))
    ]
    if not siblings:
        return "no entry of its section to follow: write it by hand"
    template = max(siblings, key=lambda e: (e.location.path, e.location.line))
    rel = template.location.path
    lines = fix.page(analysis, pages, rel)
    if lines is None:
        return fix._UNREAD
    span = fix.entry_block(analysis, template, lines)
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
    # The description: a table cell, or the paragraph after the entry.
    escaped = description.replace("|", "\\|")
    table = [i for i, text in enumerate(new) if text.lstrip().startswith("|")]
    if template.form == "table" or table:
        rows = [0] if template.form == "table" else _data_rows(new, table, template.default)
        if not rows:
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
        if not prose:
            return "\0the template's description was not found"
        target = max(prose, key=lambda i: len(cells[i]))
        cells[target] = f" {escaped} "
        new[row] = "|".join(cells) + _ending(new[row])
    else:
        paragraph = _paragraph(new, rel)
        if paragraph is None:
            return "\0the template's description was not found"
        start, stop = paragraph
        indent = new[start][: len(new[start]) - len(new[start].lstrip())]
        new[start:stop] = [f"{indent}{description}{_ending(new[start])}"]
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
        shown = fix.render_like(core, node.default.value) if core else None
        found = _once(new, written)
        if shown is None or found is None:
            return "\0the key's default cannot be written as the template writes its own"
        new[found] = new[found].replace(written, written.replace(core, shown, 1), 1)
    # The name, written once (in the entry's own line).
    if sum(text.count(old_name) for text in new) != 1 or not fix._names_alone(new[head], old_name):
        return "\0the template names its key more than once"
    new[head] = new[head].replace(old_name, node.path[-1], 1)
    text = "".join(new)
    if not text.endswith("\n"):
        return "\0the template ends the page without a line break"
    if len(new) > 1 and new[-1].strip():
        # A block of several lines that ends the page or its container: a
        # blank line keeps the new one apart.
        text = _ending(new[-1]) + text
    return text


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
    separator = re.compile(r"^\s*\|?\s*:?-{3,}")
    rows = [i for i in table if not separator.match(lines[i]) and i - 1 in table]
    rows = [i for i in rows if i - 1 not in table or not _is_header(lines, i, table)]
    if default:
        rows.sort(key=lambda i: default.strip() not in lines[i])
    return rows


def _is_header(lines: list[str], index: int, table: list[int]) -> bool:
    """Is the row at ``index`` a header (a separator row follows it)?"""
    return index + 1 in table and bool(re.match(r"^\s*\|?\s*:?-{3,}", lines[index + 1]))


def _paragraph(lines: list[str], rel: str) -> tuple[int, int] | None:
    """The first paragraph of prose after the entry's line: [start, stop)."""
    index = 1
    while index < len(lines) and (
        not lines[index].strip() or (rel.endswith(".rst") and lines[index].strip().startswith(":"))
    ):
        index += 1
    if index >= len(lines):
        return None
    if lines[index].lstrip().startswith(("```", "~~~", ".. ", "|", "#", "- ", "* ", "<")):
        return None
    stop = index
    while stop < len(lines) and lines[stop].strip():
        stop += 1
    return index, stop


def _once(lines: list[str], text: str) -> int | None:
    """The one line that holds ``text``, when it is written once."""
    found = [i for i, line in enumerate(lines) if text in line]
    if len(found) != 1 or lines[found[0]].count(text) != 1:
        return None
    return found[0]


def _type_words(surface: Analysis) -> dict[frozenset[str], str]:
    """The page's words for each type: for the entries whose keys the code
    types, the doc type written most often per kind of type."""
    from configdrift.rules.docs_schema import resolve_path

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
        first = re.split(r"\n\s*\n", text.strip())[0]
        clean = " ".join(first.split())
        return clean if clean and len(clean) <= MAX_DESCRIPTION and clean.isprintable() else None

    def _tree(self, rel: str) -> ast.Module | None:
        if rel not in self._trees:
            lines = fix._lines(self.root, rel)
            try:
                self._trees[rel] = ast.parse("".join(lines)) if lines is not None else None
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._trees[rel] = None
        return self._trees[rel]


def _described_at(tree: ast.Module, line: int) -> str | None:
    """The description of what is declared at ``line``: a call's describing
    keyword (``Field(description=...)``, ``add_argument(help=...)``,
    ``field(metadata={"help": ...})``), or the docstring after a field."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for index, statement in enumerate(body):
                if getattr(statement, "lineno", 0) != line:
                    continue
                found = _call_text(statement)
                if found:
                    return found
                after = body[index + 1] if index + 1 < len(body) else None
                if (
                    isinstance(statement, ast.AnnAssign | ast.Assign)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    return after.value.value
        stack.extend(ast.iter_child_nodes(node))
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
