"""Key entries, sections and example blocks of a Markdown page.

The page is read as a CommonMark token stream (markdown-it-py, with GFM
tables). Recognised entry forms:

- a paragraph that opens with an emphasised key and a colon, as DeepSpeed
  writes them: ``<i>**key**</i>: [type]``, ``***key***: [type]``, ``**key**:``;
  ``a:b`` and ``a.b`` spell nested keys;
- a list item that opens with a code span: ``- `key` (int): ...``;
- a heading that is only a code span: ``### `key```;
- a table whose first header cell names keys (``Key``, ``Field``, ``Option``,
  ``Parameter`` ...): each row whose first cell is a key.

A Description/Default table right after an entry gives its default; example
blocks (fenced code) are kept with their key structure for the section
mapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from configdrift.extract.docs import markdown_budget as budget
from configdrift.extract.docs.commands import commands_at
from configdrift.extract.docs.directives import autodoc_directive, fence_options, myst_entries
from configdrift.extract.docs.embedded_rst import embedded_rst
from configdrift.extract.docs.entry_text import (
    AUTODOC_DIRECTIVES,
    CONFIG_LANGS,
    DOTTED,
    GENERATORS,
    KEY_HEADERS,
    MAX_MENTIONS,
    SPELLING_HEADERS,
    VALUES_LEAD,
    announces_default,
    block_default,
    code_mention,
    default_column,
    file_name,
    heading_rest,
    key_ok,
    listed_values,
    mentioned_key,
    rename_cell,
    rename_columns,
    split_name,
)
from configdrift.extract.docs.entry_types import annotated_default, type_from_rest
from configdrift.extract.docs.facts import Block, DocFacts, RawEntry, Section
from configdrift.extract.docs.help_output import help_options
from configdrift.extract.docs.label_values import definition_labels, literal_choices, variable_of
from configdrift.extract.docs.leads import lead_language, leads_to_conf, mark_defaults
from configdrift.extract.docs.markdown_inline import code_links, comment_default, role_references
from configdrift.extract.docs.markdown_tokens import (
    anchor_only,
    cell_key,
    code_keys,
    code_pieces,
    emphasised_key,
    field_line,
    find_macro,
    header_text,
    heading_core,
    ini_heading_key,
    joined_keys,
    labels_of,
    list_table_cells,
    listed_choices,
    parser,
    plain_heading,
    plain_text,
    strip_front_matter,
    table_cells,
)
from configdrift.extract.docs.mdx import mdx_markdown
from configdrift.extract.docs.page import page_text
from configdrift.extract.docs.prose_defaults import row_default
from configdrift.extract.docs.python_config import block_language, inline_call, python_blocks

if TYPE_CHECKING:
    # Imported with the first page parsed: a run's main process never pays for it.
    from markdown_it.token import Token

from configdrift.extract.docs.blocks import STRICT_LANGS, directive_code, indented_fence, read_block


def extract_markdown(data: bytes, mdx: bool = False) -> DocFacts:
    """Sections, key entries and example blocks of one Markdown page."""
    facts = DocFacts()
    text = page_text(data, facts)
    if text is None:
        return facts
    text = strip_front_matter(text)
    if mdx:
        text = mdx_markdown(text)
    if len(text) > budget.DENSE_PAGE and budget.markup_share(text) > 0.2:
        # Mostly markup characters (``<``, ``&``, ``\\``, ``[``): the parser
        # spends a token on each, for a page that is data, not prose.
        facts.error, facts.error_line = "mostly markup characters: not read as a page", 1
        return facts
    if text.count("[") > budget.MAX_BRACKETS:
        text = budget.inert_brackets(text)
    try:
        tokens = parser().parse(text)
    except Exception as exc:  # markdown-it is total on str input; guard anyway
        facts.error, facts.error_line = f"Markdown could not be read: {exc}", 1
        return facts
    _Walker(facts, tokens).run()
    facts.code_links = code_links(tokens)
    return facts


class _Walker:
    def __init__(self, facts: DocFacts, tokens: list[Token]) -> None:
        self.facts = facts
        self.tokens = tokens
        facts.sections.append(Section("", 0, 1, None))
        self.section = 0
        self.last_entry: int | None = None
        self.last_entry_token = -1
        #: A heading that is a plain word (``## parse``): an entry once a
        #: ``Default:`` or ``Type:`` line under it says it is a key.
        self.pending: int | None = None
        #: The key a field line of this section names (``**Config File Name:**``).
        self.field_entry: int | None = None
        self.lead = ""  # the paragraph before, which may lead into a block

    def run(self) -> None:
        tokens = self.tokens
        i = 0
        in_list = 0
        awaiting: int | None = None  # the entry a "Default:" paragraph announces a block for
        owners: list[int | None] = []  # the entry each open list's item names
        while i < len(tokens):
            tok = tokens[i]
            kind = tok.type
            if kind in ("fence", "code_block") and awaiting is not None:
                block_default(self.facts.entries[awaiting], tok.content)
            if kind.endswith("_open") or kind in ("fence", "code_block"):
                awaiting = None
            if kind.endswith("_open"):
                # "Add this to your `conf.py`:" leads into the block after it.
                self.lead = tokens[i + 1].content if kind == "paragraph_open" else ""
            if kind == "paragraph_open" and i + 1 < len(tokens):
                current = self._current_entry()
                if current is not None and self.facts.entries[current].section == self.section:
                    lead = tokens[i + 1].content
                    if announces_default(lead):
                        awaiting = current
                    elif VALUES_LEAD.search(lead):
                        entry = self.facts.entries[current]
                        entry.choices = entry.choices or listed_choices(tokens, i + 3)
            if kind == "heading_open":
                self._heading(tok, tokens[i + 1])
                i += 3
                continue
            if kind in ("bullet_list_open", "ordered_list_open"):
                in_list += 1
            elif kind in ("bullet_list_close", "ordered_list_close"):
                in_list -= 1
                del owners[in_list:]
            elif kind == "paragraph_open" and i + 1 < len(tokens):
                before = len(self.facts.entries)
                self._paragraph(tokens[i + 1], in_list, i)
                if in_list:
                    self._nest(owners, in_list, before)
            elif kind == "table_open":
                i = self._table(i)
                continue
            elif kind in ("fence", "code_block"):
                before = len(self.facts.blocks)
                self._block(tok)
                mark_defaults(self.facts.blocks[before:], self.lead, tok.info or "")
                self.lead = ""
            elif kind == "html_block":
                self._comments(tok.content)
            i += 1

    def _nest(self, owners: list[int | None], depth: int, before: int) -> None:
        """An entry of a list nested in another's item (``- `metric: str```
        under ``- **aggregate_metric_list**``) is a key under that one."""
        del owners[depth:]
        owners.extend([None] * (depth - len(owners)))
        entry = self.facts.entries[-1] if len(self.facts.entries) > before else None
        if entry is None or entry.form not in ("list", "bold"):
            owners[depth - 1] = None
            return
        owners[depth - 1] = len(self.facts.entries) - 1
        if depth >= 2 and owners[depth - 2] is not None:
            entry.parent_entry = owners[depth - 2]

    def _line(self, tok: Token) -> int:
        return (tok.map[0] + 1) if tok.map else 0

    def _heading(self, open_tok: Token, inline: Token) -> None:
        level = int(open_tok.tag[1:]) if open_tok.tag[1:].isdigit() else 1
        parent: int | None = self.section
        while parent is not None and self.facts.sections[parent].level >= level:
            parent = self.facts.sections[parent].parent
        section = Section(inline.content.strip(), level, self._line(open_tok), parent)
        children = heading_core(inline.children or [])
        codes = code_keys(children)
        aliases: list[str] = []
        word: str | None = None
        self.pending = None
        self.field_entry = None
        if (ini := ini_heading_key(children)) is not None:
            section.heading_key = ini  # ``[database]``, as text or code
        elif codes is not None and heading_rest(codes[1]):
            keys = [k for k in codes[0] if key_ok(k, strict_case=False) and not file_name(k)]
            keys += joined_keys(children, codes[1])
            if keys and len(keys) >= len(codes[0]):
                section.heading_key, aliases = keys[0], keys[1:]
        elif codes is None and (plain := plain_heading(children)) is not None:
            names, certain = plain
            if certain:
                # ``### max_retries``: spelt like a key, not a word.
                section.heading_key, aliases = names[0], names[1:]
            else:
                # ``## parse``: a key if the schema has it there (form
                # ``word``), or if a Default or Type line says so.
                word = names[0]
        elif (macro := find_macro(inline, ("md:setting",))) is not None:
            # Material for MkDocs' setting headings: ``#### <!-- md:setting
            # config.enabled -->`` names a plugin's own option; ``meta.`` (a
            # page's front matter) and ``option.`` (a layout's) are not.
            name = macro[1]
            if name.startswith("config.") and key_ok(name[7:], strict_case=False):
                section.heading_key = name[7:]
        self.facts.sections.append(section)
        self.section = len(self.facts.sections) - 1
        self.last_entry = None
        for alias in aliases:
            self._add(alias, self._line(open_tok), "heading", None)
        if section.heading_key is not None:
            self._add(section.heading_key, self._line(open_tok), "heading", None)
        elif word is not None:
            self.pending = self._add(word, self._line(open_tok), "word", None)

    def _add(
        self, name: str, line: int, form: str, doc_type: str | None, parent: int | None = None
    ) -> int:
        self.facts.entries.append(
            RawEntry(name, split_name(name), line, self.section, form, doc_type, None, parent)
        )
        return len(self.facts.entries) - 1

    def _comments(self, content: str) -> None:
        """A documentation macro's default for the heading's entry above."""
        default = comment_default(content)
        entry = self.facts.entries[-1] if self.facts.entries else None
        if (
            default
            and entry is not None
            and entry.form == "heading"
            and entry.section == self.section
        ):
            entry.default = default

    def _current_entry(self) -> int | None:
        """The entry the text of the section is about: the last one, else
        the key its heading names, or the heading right above it names."""
        if self.last_entry is not None:
            return self.last_entry
        return self.facts.heading_entry(self.section)

    def _labelled(self, inline: Token) -> bool:
        """``Default: 5``, ``**Type**: int``, "Defaults to `5`." lines under
        an entry give its default and type; a plain-word heading they
        follow is a key. True when the paragraph was such lines only."""
        return self._label(labels_of(inline))

    def _label(self, found: list[tuple[str, str]]) -> bool:
        if not found:
            return False
        current = self._current_entry()
        entry = None if current is None else self.facts.entries[current]
        if entry is None and self.pending is not None:
            entry = self.facts.entries[self.pending]
            self.pending = None
            entry.form = "heading"
            self.facts.sections[self.section].heading_key = entry.name
        if entry is None or entry.section not in (
            self.section,
            self.facts.sections[self.section].parent,
        ):
            return False
        entries = [entry]
        if self.field_entry is not None and self.field_entry != self.last_entry:
            # A field list (``**Config File Name:**``, ``**CLI Flags:**``,
            # ``**Default:**``): the default is the named key's as well.
            named = self.facts.entries[self.field_entry]
            entries += [named] if named.section == self.section else []
        for target in entries:
            for label, value in found:
                if label == "default" and target.default is None:
                    target.default = value
                elif label == "type" and target.doc_type is None:
                    target.doc_type = value
                elif label == "variable" and target.variable is None:
                    target.variable = variable_of(value)
        return True

    def _roles(self, inline: Token) -> None:
        """MyST roles that point at keys: ``{confval}`name```."""
        for role, target in role_references(inline):
            if len(self.facts.references) < 2000:
                self.facts.references.append((role, target, self._line(inline)))

    def _paragraph(self, inline: Token, in_list: int, index: int) -> None:
        self._roles(inline)
        before = len(self.facts.entries)
        self._entries(inline, in_list, index)
        if len(self.facts.entries) > before:
            # ``- `key` (int): ... Defaults to `5`.``: the entry's own line.
            entry = self.facts.entries[-1]
            for label, value in labels_of(inline, own=True):
                if label == "default" and entry.default is None:
                    entry.default = value
                elif label == "type" and entry.doc_type is None:
                    entry.doc_type = value
            current: int | None = len(self.facts.entries) - 1
        else:
            self._labelled(inline)
            self._mentions(inline)
            current = self._current_entry()
        # "One of `a`, `b` or `c`." under an entry: the values it takes.
        about = self.facts.entries[current] if current is not None else None
        if about is not None and about.section == self.section and about.choices is None:
            about.choices = listed_values(code_pieces(inline))

    def _mentions(self, inline: Token) -> None:
        """Names in code in a prose paragraph, at their lines."""
        line = self._line(inline)
        for child in inline.children or []:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "code_inline" and len(self.facts.mentions) < MAX_MENTIONS:
                inline_call(child.content, line, self.section, self.facts.calls, inline.content)
                name = code_mention(child.content)
                if name is not None:
                    self.facts.mentions.append((name, line))

    def _entries(self, inline: Token, in_list: int, index: int) -> None:
        words = inline.content[:200].split()
        if len(words) >= 2 and words[0] == ":::" and words[1] in GENERATORS:
            self.facts.generated.append((GENERATORS[words[1]], self._line(inline)))
            return
        # mkdocstrings' ``::: pkg.Class``; Hugging Face doc-builder's
        # ``[[autodoc]] tuners.lora.config.LoraConfig``.
        if len(words) >= 2 and words[0] in (":::", "[[autodoc]]") and DOTTED.fullmatch(words[1]):
            self.facts.autodoc.append((words[1], self._line(inline)))
            if words[0] == ":::":  # mkdocstrings renders a class's methods too
                self.facts.members.append((words[1] + ".", self._line(inline)))
            return
        children = inline.children or []
        # Only the first line of a paragraph can introduce an entry; a line
        # that is only an anchor (``<a name="x" href="#x">#</a>``) does not
        # count as one.
        first_line: list[Token] = []
        for child in children:
            if child.type in ("softbreak", "hardbreak"):
                if anchor_only(first_line):
                    first_line = []
                    continue
                break
            if child.type == "text" and not child.content and not first_line:
                continue
            first_line.append(child)
        field, offset = field_line(children, first_line)
        if field is not None and not file_name(field):
            # ``**Config File Name:** `key` ``: the section's key; the
            # ``**Default:**`` lines of the section are its too.
            line = self._line(inline) + offset
            self.last_entry = self.field_entry = self._add(field, line, "field", None)
            self.last_entry_token = index
            return
        found = emphasised_key(first_line)
        if found is not None:
            key, rest, form = found
            if key_ok(key, strict_case=form == "bold"):
                self.last_entry = self._add(key, self._line(inline), form, type_from_rest(rest))
                self.facts.entries[self.last_entry].choices = literal_choices(rest)
                self.last_entry_token = index
                return
        if in_list:
            # ``metric: str`` names a key in a list nested in an entry's item.
            codes = code_keys(first_line, annotated=in_list > 1)
            if codes is not None:
                keys, rest = codes
                stripped = rest.lstrip()
                if all(key_ok(k, strict_case=False) for k in keys) and (
                    not stripped or stripped[0] in ":(-\u2013\u2014"
                ):
                    code = next(t.content for t in first_line if t.type == "code_inline")
                    for key in keys:
                        self.last_entry = self._add(
                            key, self._line(inline), "list", type_from_rest(rest)
                        )
                        self.facts.entries[-1].default = annotated_default(code)
                    self.last_entry_token = index
                    return
                if len(keys) == 1 and rest[:1].isspace() and mentioned_key(keys[0], rest):
                    # ``- `tool.options.x` is equivalent to ...``: a key
                    # only where the schema has it.
                    self.last_entry = self._add(keys[0], self._line(inline), "mention", None)
                    self.last_entry_token = index
                    return
                self.last_entry = None  # another key's item: its prose is not the entry's
        # A prose paragraph (a note, a description) does not end the entry:
        # its table may still follow.

    def _table(self, start: int) -> int:
        rows, row_lines, end = table_cells(self.tokens, start)
        if rows:
            self._rows(rows, row_lines)
        return end

    def _rows(self, rows: list[list[Token]], row_lines: list[int]) -> None:
        """A table's rows (a header row first): the keys' entries, or a
        renaming of keys."""
        header = [header_text(c).lower() for c in rows[0]]
        renamed = rename_columns(header)
        if renamed is not None:
            # | Old name | New name |: a renaming, not the keys' entries.
            for row, line in zip(rows[1:], row_lines[1:], strict=False):
                if max(renamed) < len(row):
                    old, new = (rename_cell(plain_text(row[i])) for i in renamed)
                    if old and new and old != new:
                        self.facts.renames.append((old, new, line))
            return
        # A table after an entry, with only prose between, belongs to it.
        owner = self.last_entry
        if owner is not None and "default" in header and len(rows) > 1:
            column = header.index("default")
            if column < len(rows[1]):
                entry = self.facts.entries[owner]
                entry.default = plain_text(rows[1][column]) or None
        first = header[0].replace("`", '"').split() if header else []
        if owner is not None and (
            self.facts.entries[owner].doc_type or "dictionary"
        ).lower() not in (
            "dictionary",
            "dict",
            "object",
            "mapping",
        ):
            owner = None  # only a dictionary has keys of its own
        if (
            self.last_entry is None
            and "default" in header
            and header[0] in ("description", "value")
        ):
            self._described_rows(rows, row_lines, header.index("default"))
        elif first and first[-1] in KEY_HEADERS:
            # A header such as `"params" key` names the section the rows sit in.
            prefix = tuple(
                w.strip('"') for w in first[:-1] if w.startswith('"') and w.endswith('"')
            )
            type_col = header.index("type") if "type" in header else None
            default_col = default_column(header)
            # Rows indented with em-spaces nest under the row above them.
            parents: dict[int, int | None] = {0: owner}
            # Other columns that spell the row's key another way: | CLI
            # option | ENV | Default |.
            spelt = [
                i
                for i, cell in enumerate(header[1:], 1)
                if cell.split() and cell.split()[-1] in SPELLING_HEADERS
            ]
            for row, line in zip(rows[1:], row_lines[1:], strict=False):
                if not row:
                    continue
                for column in spelt:
                    other = cell_key(row[column]) if column < len(row) else None
                    if other is not None:
                        alt = self._add(other[0], line, "table", other[1], parent=None)
                        if default_col is not None and default_col < len(row):
                            self.facts.entries[alt].default = plain_text(row[default_col]) or None
                found = cell_key(row[0])
                if found is None:
                    continue
                key, cell_type, indent = found
                doc_type = (
                    plain_text(row[type_col]).strip("`[]")
                    if type_col is not None and type_col < len(row)
                    else cell_type
                )
                parent = parents.get(indent, parents.get(max(k for k in parents if k <= indent)))
                idx = self._add(key, line, "table", doc_type or None, parent=parent)
                parents[indent + 1] = idx
                for deeper in [k for k in parents if k > indent + 1]:
                    del parents[deeper]
                if prefix and parent is None:
                    entry = self.facts.entries[idx]
                    entry.parts = (*prefix, *entry.parts)
                cells = [plain_text(c) for c in row]
                self.facts.entries[idx].default = row_default(cells, default_col)
        self.last_entry = None

    def _described_rows(self, rows: list[list[Token]], lines: list[int], default: int) -> None:
        """A Description/Default table with no entry before it: each row whose
        description opens with an emphasised key and prose documents that
        key (``| <i>**min_loss_scale**</i> is a **fp16** parameter ... | `1` |``).
        A key further on in a cell is a mention, not an entry."""
        for row, line in zip(rows[1:], lines[1:], strict=False):
            if not row:
                continue
            found = emphasised_key(row[0].children or [], colon=False)
            if found is None:
                continue
            key = found[0].replace("\\_", "_")
            if not key_ok(key, strict_case=found[2] == "bold"):
                continue
            idx = self._add(key, line, "table", None)
            if default < len(row):
                self.facts.entries[idx].default = plain_text(row[default]) or None

    def _generator(self, tok: Token) -> None:
        """A MyST fence ``{argparse}`` or an ``{eval-rst}`` block holding
        ``.. argparse::`` (or another generator's directive)."""
        info = (tok.info or "").strip().split(" ")[0].lower()
        name = info.strip("{}")
        if info.startswith("{") and name in GENERATORS:
            self.facts.generated.append((GENERATORS[name], self._line(tok)))
        elif info.startswith("{") and name in AUTODOC_DIRECTIVES and (tok.info or "").split()[1:2]:
            # ```{autoconfigurable} pkg.Class, ```{automodule} pkg with :members:
            target, options = tok.info.split()[1], fence_options(tok.content)
            autodoc_directive(name, target, options, self._line(tok), self.facts)
        elif info == "{list-table}":
            # MyST's table written as a list of rows, each a list of cells.
            rows, lines = list_table_cells(tok.content, self._line(tok) + 1)
            if rows:
                self._rows(rows, lines)
        elif info in ("{eval-rst}", "{rst}"):
            embedded_rst(tok.content, self._line(tok) + 1, self.facts, self.section)
        else:
            # ```{confval} name with its ``:type:`` and ``:default:``.
            for name, doc_type, default in myst_entries(tok.info or "", tok.content):
                index = self._add(name, self._line(tok), "directive", doc_type)
                self.facts.entries[index].default = default

    def _block(self, tok: Token) -> None:
        self.last_entry = None  # an example ends the entry before it
        lang = (tok.info or "").strip().split(" ")[0].lower() if tok.type == "fence" else ""
        content = tok.content
        first = self._line(tok) + (1 if tok.type == "fence" else 0)
        if lang.startswith("{"):
            shown = directive_code(tok.info, content)
            if shown is None:
                self._generator(tok)
                return
            lang, content, skipped = shown
            first += skipped
        if tok.type == "code_block" and self._label(definition_labels(content)):
            return  # the terms of an entry's field list, indented under a container
        if tok.type == "code_block" and (fenced := indented_fence(content)) is not None:
            # A fence indented under a container CommonMark does not know
            # (a content tab ``=== "YAML"``, a ``.. column::``): the fence.
            lang, content = fenced
            first += 1
        for flag, number, default, program in help_options(content):
            # A command's ``--help`` output documents its flags and defaults.
            entry = self.facts.entries[self._add(flag, first + number, "help", None)]
            entry.default, entry.program = default, program
        self.facts.commands.extend(commands_at(content, lang, first))
        guessed = "" if lang else lead_language(self.lead)  # "in `pytest.ini`:"
        lang = block_language(lang or guessed, content)
        if lang not in CONFIG_LANGS:
            return
        if len(content) > 1_000_000:
            return
        if not lang and content.lstrip()[:1] not in ("{", '"', "'"):
            # An untagged block is read as a config only when it opens like
            # JSON: ``KEY=https://...`` lines (a .env file, a shell session)
            # are not ``https:`` keys.
            return
        if lang in ("python", "py"):
            # A settings module's assignments (``CORS_ALLOW_CREDENTIALS =
            # True``): a block of their own, beside the dicts'; and the
            # calls that pass keyword arguments.
            python_blocks(content, first, self.section, lang, self.facts, leads_to_conf(self.lead))
        read = read_block(content, lang)
        if not read.keys and (read.error is None or lang not in STRICT_LANGS):
            return
        if guessed and read.error:
            return  # a fragment of the file the lead names, or no file of it
        shifted = [k.at(first) for k in read.keys]
        block = Block(self.section, first, lang, shifted)
        if read.error is not None and lang in STRICT_LANGS:
            block.error, block.error_line = read.error, read.error_line + first
        self.facts.blocks.append(block)


def extract_mdx(data: bytes) -> DocFacts:
    """An MDX page: its Markdown, read as ``extract_markdown`` reads a page,
    with the JSX around it set aside (``mdx_markdown``)."""
    return extract_markdown(data, mdx=True)
