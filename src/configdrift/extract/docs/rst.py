"""Doc entries of a reStructuredText page, read through docutils' doctree.

The page is parsed by ``rst_parse`` (docutils alone, any directive and
role, nothing read from disk); this module walks the tree.

Entries, into the same ``DocFacts`` as Markdown's:

- object directives that document a key (``.. confval:: name`` with
  ``:type:`` and ``:default:``, or fields or ``Default:`` lines in its body;
  ``.. option:: --flag``, ``.. envvar:: NAME``, ``.. setting:: NAME``,
  ``.. describe::``, ``.. data::``, ``.. attribute::``, a project's ``conf``);
- a section title that is a key as a literal (````key````);
- definition lists whose terms are literal keys, or flags (``-l, --level``);
- tables whose first column is headed Key, Option, Setting, Name ...

Example blocks are ``code-block``/``sourcecode``/``code`` blocks in a config
language, ``ini`` and ``cfg`` too."""

from __future__ import annotations

import gc
import re
from typing import Any

from configdrift.extract.docs.api_docs import API_DIRECTIVES, api_doc
from configdrift.extract.docs.blocks import STRICT_LANGS, read_block
from configdrift.extract.docs.commands import commands_at
from configdrift.extract.docs.directives import (
    MODULE_DIRECTIVES,
    autodoc_directive,
    autosummary,
    names_key,
)
from configdrift.extract.docs.entry_text import (
    AUTODOC_DIRECTIVES,
    CONFIG_LANGS,
    GENERATORS,
    KEY_HEADERS,
    MAX_MENTIONS,
    announces_default,
    balanced,
    block_default,
    code_mention,
    continued,
    default_column,
    key_ok,
    label,
    lead_in,
    rename_cell,
    rename_columns,
    sentence_end,
    split_name,
)
from configdrift.extract.docs.facts import Block, DocFacts, RawEntry, Section
from configdrift.extract.docs.help_output import help_options, option_term
from configdrift.extract.docs.label_values import label_kind, variable_of
from configdrift.extract.docs.leads import lead_language, leads_to_conf, mark_defaults
from configdrift.extract.docs.page import page_text
from configdrift.extract.docs.prose_defaults import MARKED, conditional
from configdrift.extract.docs.python_config import block_language, inline_call, python_blocks
from configdrift.extract.docs.rst_budget import (
    MAX_RST_PARAGRAPH,
    PageTooLarge,
    longest_paragraph,
)
from configdrift.extract.docs.rst_forms import (
    announced,
    bare_terms,
    described_values,
    directive_fields,
    key_rows,
    lead_text,
    lone_key,
    opening_key,
    references,
    signature,
    signature_defaults,
    title_key,
)
from configdrift.extract.docs.rst_forms import node_line as _line
from configdrift.extract.docs.rst_parse import LARGE_RST_BYTES, parse_rst, release_parsed

#: Languages of example blocks (Markdown's, and configparser's).
_LANGS = CONFIG_LANGS | {"ini", "cfg", "jsonc"}
#: A page nested deeper than this is not read further.
MAX_DEPTH = 100
#: "Default: blue", "Defaults to 5", "The default is 5" inside prose.
_EXPLICIT_DEFAULT = re.compile(r"\bdefault:\s*(\S+)", re.IGNORECASE)
_INLINE_DEFAULT = re.compile(
    r"\b(?:default:|defaults to|default is)\s*(\S+)|\b(?:is|are|to|be)\s+(\S+)\s+by default\b"
    # "``yaml`` (default)": a value a list of choices marks as the default.
    r"|(?<!\S)(\S+)\s+\((?:the )?default\)",
    re.IGNORECASE,
)


#: A default in prose that needs no literal markup: a number or a truth value.
_PLAIN_VALUE = re.compile(r"-?\d[\d_.]*(?:[eE][-+]?\d+)?|(?i:true|false|yes|no|on|off|none|null)")
#: A section title of one lowercase word (``timeout``): a key when the text
#: under it gives a default or a type.
_WORD_TITLE = re.compile(r"[a-z][a-z0-9]*")


def extract_rst(data: bytes) -> DocFacts:
    """Sections, key entries and example blocks of one reStructuredText page."""
    facts = DocFacts()
    text = page_text(data, facts)
    if text is None:
        return facts
    if len(text) > MAX_RST_PARAGRAPH and (longest := longest_paragraph(text)) > MAX_RST_PARAGRAPH:
        facts.error = f"a paragraph of {longest:,} characters: not read as a page"
        facts.error_line = 1
        return facts
    # docutils leaves cyclic garbage behind as it parses (its state
    # machines): on a large page the collector runs during the parse, or
    # the garbage of one page can take hundreds of megabytes.
    collect = len(data) > LARGE_RST_BYTES and not gc.isenabled()
    if collect:
        gc.enable()
    try:
        tree = parse_rst(text)
    except PageTooLarge as exc:
        facts.error, facts.error_line = f"{exc}: not read as a page", 1
        gc.collect()  # the tree built so far is all cycles
        return facts
    except Exception as exc:  # docutils on hostile input: a finding, never a crash
        facts.error = f"reStructuredText could not be read: {type(exc).__name__}"
        facts.error_line = 1
        return facts
    finally:
        if collect:
            gc.disable()
    facts.sections.append(Section("", 0, 1, None))
    _Walker(facts, text).walk(tree, 0, 0)
    references(facts, tree)
    del tree
    release_parsed(len(data))
    return facts


def _text(node: Any) -> str:
    return str(node.astext()) if node is not None else ""


def _row_line(row: Any, default: int) -> int:
    """A table row's line: that of its first paragraph (rows keep none)."""
    from docutils import nodes

    para = row.next_node(nodes.paragraph)
    return _line(para, default) if para is not None else default


#: Directives describing a function or method whose body lists its
#: parameters (a class's are read by ``api_docs`` alone).
_API_DIRECTIVES = API_DIRECTIVES - {"class", "py:class"}


class _Walker:
    def __init__(self, facts: DocFacts, text: str = "") -> None:
        self.facts = facts
        #: The page's text, split into lines when a place docutils gives no
        #: line is looked for (an option list's options).
        self.text = text
        self.lines: list[str] | None = None
        self.last_entry: int | None = None
        #: A setting directive with no body, and its entry: the section
        #: titled with its name that follows describes it (Scrapy's pages).
        self.pending: tuple[str, int] | None = None
        #: The entry of a section titled with one lowercase word, until the
        #: first paragraph under it.
        self.word: int | None = None
        #: How many entry directives the walk is inside the body of.
        self.in_entry = 0
        #: The module the page's names belong to (``.. currentmodule::``).
        self.module = ""

    def walk(self, node: Any, section: int, depth: int) -> None:
        from docutils import nodes

        if depth > MAX_DEPTH:
            return
        # The entry a "Default:" paragraph alone announces a block for.
        awaiting: int | None = None
        for child in list(node.children):
            if isinstance(child, nodes.section):
                self._section(child, section, depth)
            elif child.tagname == "ObjectNode":
                self._object(child, section, depth)
            elif isinstance(child, nodes.literal_block):
                if awaiting is not None:
                    block_default(self.facts.entries[awaiting], _text(child))
                self._block(child, section)
            elif isinstance(child, nodes.definition_list):
                self._definitions(child, section)
            elif isinstance(child, nodes.bullet_list):
                self._bullets(child, section, depth)
            elif isinstance(child, nodes.option_list):
                self._option_list(child, section)
            elif isinstance(child, nodes.table):
                self._table(child, section)
            elif isinstance(child, nodes.paragraph):
                self._describe(child)
                self._mentions(child, section)
            elif isinstance(child, nodes.Element):
                self.walk(child, section, depth + 1)
            announced = isinstance(child, nodes.paragraph) and announces_default(_text(child))
            awaiting = self.last_entry if announced else None

    def _section(self, node: Any, parent: int, depth: int) -> None:
        from docutils import nodes

        title = node.next_node(nodes.title)
        level = self.facts.sections[parent].level + 1
        # docutils gives a title the line of its underline.
        line = max(1, _line(title, 2) - 1)
        entry = Section(_text(title), level, line, parent)
        entry.heading_key = title_key(title)
        self.facts.sections.append(entry)
        sid = len(self.facts.sections) - 1
        self.last_entry = None
        if self.pending is not None and self.pending[0] == entry.title.strip():
            # ``.. setting:: NAME`` then a section titled NAME: one entry.
            entry.heading_key = self.pending[0]
            self.last_entry = self.pending[1]
            self.facts.entries[self.pending[1]].section = sid
        elif entry.heading_key is not None:
            self.last_entry = self._add(entry.heading_key, line, sid, "heading")
        self.pending = None
        title_text = entry.title.strip()
        self.word = None
        if entry.heading_key is None and _WORD_TITLE.fullmatch(title_text):
            # ``timeout`` underlined: a key if the schema has it, or if the
            # text under it gives a default or a type (form ``heading``).
            self.word = self.last_entry = self._add(title_text, line, sid, "word")
        self.walk(node, sid, depth + 1)

    def _add(
        self, name: str, line: int, section: int, form: str, doc_type: str | None = None
    ) -> int:
        self.facts.entries.append(RawEntry(name, split_name(name), line, section, form, doc_type))
        return len(self.facts.entries) - 1

    def _object(self, node: Any, section: int, depth: int) -> None:
        directive = node["directive"]
        tool = GENERATORS.get(directive) or _RST_GENERATORS.get(directive)
        if tool:
            self.facts.generated.append((tool, _line(node, 1)))
            return
        if directive in AUTODOC_DIRECTIVES and node["arguments"]:
            target = node["arguments"].split()[0]
            options = {k: str(v or "") for k, v in node["options"].items()}
            autodoc_directive(directive, target, options, _line(node, 1), self.facts)
            return
        if directive in MODULE_DIRECTIVES:
            self.module = node["arguments"].strip()
        elif directive == "autosummary":
            autosummary(node["options"], node.astext(), self.module, _line(node, 1), self.facts)
            return
        if directive in API_DIRECTIVES and (
            api := api_doc(node["arguments"], _line(node, 1), node, directive)
        ):
            self.facts.api.append(api)
        if directive in _API_DIRECTIVES:
            from docutils import nodes

            # A function's or a method's description: its keyword arguments
            # are no entries of a configuration, but their defaults are
            # compared where they are its keys (``serve(app, port=8080)``);
            # its examples may be configuration.
            line = _line(node, 1)
            for name, default in signature_defaults(str(node["arguments"])):
                self._add(name, line, section, "signature")
                self.facts.entries[-1].default = default
            for block in node.findall(nodes.literal_block):
                self._block(block, section)
            return
        if not names_key(directive):
            self.walk(node, section, depth + 1)
            return
        options = node["options"]
        line = _line(node, 1)
        first: int | None = None
        # tox's ``.. conf::`` names its keys in an option (``:keys: a, b``).
        arguments = node["arguments"] or str(options.get("keys") or options.get("name") or "")
        for name, sig_type in signature(arguments, directive):
            if not key_ok(name, strict_case=False):
                continue
            index = self._add(name, line, section, "directive", options.get("type") or sig_type)
            entry = self.facts.entries[index]
            if options.get("default") not in (None, ""):
                entry.default = str(options["default"])
            first = index if first is None else first
        self.last_entry = first
        # The body: a field list (``:Default: 5``) or ``Default:`` lines; the
        # terms of a definition list in it are the entry's values or its
        # callable's arguments (``.. data:: toctree``), not keys.
        self.in_entry += 1
        try:
            self.walk(node, section, depth + 1)
        finally:
            self.in_entry -= 1
        self.last_entry = first  # the body's lists may have moved it
        for field_name, value in directive_fields(node):
            if label(f"{field_name}: -") is not None:
                # ``:Default: 5``, never a field of prose (``:Using a font:``).
                self._label(field_name, value)
        self.last_entry = None
        if first is not None and not node.children:
            self.pending = (self.facts.entries[first].name, first)

    def _describe(self, node: Any) -> None:
        """The default and type the text under the last entry gives: label
        lines (``Default: 5``), a lead-in ("(boolean, default False)"), else
        a default in prose ("Defaults to ``5``": a literal, a number or a
        truth value, not "Defaults to a folder called ...")."""
        from docutils import nodes

        text = _text(node)
        # An explicit "Default:" wins over prose ("PIL defaults to 75");
        # prose that states two defaults ("defaults to ``a``, except when
        # ..., when the default is ``b``") states none.
        flat = " ".join(text.split())
        found = _EXPLICIT_DEFAULT.search(flat)
        if found is None:
            stated = list(_INLINE_DEFAULT.finditer(flat))
            found = stated[0] if len(stated) == 1 else None
            if found is not None and found.group(3) and len(MARKED.findall(flat)) > 1:
                found = None  # "``low`` (default) or ``high`` (default when verbose)"
        value = ""
        if found is not None and not conditional(flat[found.end() :]):
            value = sentence_end(next(v for v in found.groups() if v).rstrip(",;"))
        if value and not (
            _PLAIN_VALUE.fullmatch(value)
            or any(lit.astext().strip() == value for lit in node.findall(nodes.literal))
        ):
            value = ""
        if self.word is not None and self.last_entry == self.word:
            if value or lead_in(text) or any(label(line) for line in text.splitlines()[:10]):
                # ``timeout`` underlined, then "Defaults to ``5``": a key.
                entry = self.facts.entries[self.word]
                entry.form = "heading"
                self.facts.sections[entry.section].heading_key = entry.name
            self.word = None
        self._labels(text)
        typed = lead_in(text) if self.last_entry is not None else None
        if typed is not None and self.last_entry is not None:
            entry = self.facts.entries[self.last_entry]
            entry.doc_type = entry.doc_type or typed[0]
            if entry.default is None and typed[1] is not None and balanced(typed[1]):
                entry.default = typed[1]
        if self.last_entry is None:
            return
        entry = self.facts.entries[self.last_entry]
        entry.choices = entry.choices or described_values(node)
        if value and entry.default is None and balanced(value):
            entry.default = value

    def _labels(self, text: str) -> None:
        lines = text.splitlines()[:10]
        for index, line in enumerate(lines):
            found = label(line)
            if found:
                self._label(found[0], continued(found[1], lines[index + 1 :]))

    def _label(self, label: str, value: str) -> None:
        if self.last_entry is None or not value or not balanced(value):
            return  # a value cut at its first line (``[``) is no value
        entry, kind = self.facts.entries[self.last_entry], label_kind(label)
        if kind == "default" and entry.default is None:
            entry.default = value.strip()
        elif kind == "type" and entry.doc_type is None:
            entry.doc_type = value.strip()
        elif kind == "variable" and entry.variable is None:
            entry.variable = variable_of(value)

    def _bullets(self, node: Any, section: int, depth: int) -> None:
        """Items that open with a key (``* ``--max``: ...``, ``- **auto**:
        ...``), with the defaults their text gives."""
        from docutils import nodes

        listed = announced(node)  # "Available options are:", then bare keys
        for item in node.children:
            para = item.next_node(nodes.paragraph)
            opening = opening_key(para) if para is not None else None
            if opening is None and (alone := lone_key(item, listed)) is not None:
                # ``* ``KEY```` with its description under it: the walk of
                # the item reads its ``Default:`` and its prose.
                self.last_entry = self._add(alone, _line(para, _line(node, 1)), section, "list")
                self.walk(item, section, depth + 1)
                continue
            if opening is None:
                self.walk(item, section, depth + 1)
                continue
            key, form = opening
            self.last_entry = self._add(key, _line(para, _line(node, 1)), section, form)
            self._describe(item)
        self.last_entry = None

    def _option_list(self, node: Any, section: int) -> None:
        """A command's options written as reStructuredText's option list
        (``-r, --recursive   find files in subdirectories``, as a man page
        pastes ``--help``): each spelling documents the option, as a help
        output does."""
        from docutils import nodes

        for item in node.children:
            described = item.next_node(nodes.paragraph)
            line = _line(described, _line(node, 1)) if described is not None else _line(node, 1)
            first = item.next_node(nodes.option_string)
            if first is not None:
                # The description may start on the line after the options.
                spelt = first.astext().strip()
                line = next(
                    (n for n in range(line, max(0, line - 4), -1) if spelt in self._line_text(n)),
                    line,
                )
            for option in item.findall(nodes.option_string):
                flag = option.astext().strip()
                if flag.startswith("-") and key_ok(flag, strict_case=False):
                    self._add(flag, line, section, "help")
        self.last_entry = None

    def _mentions(self, para: Any, section: int) -> None:
        """Names in literals of a prose paragraph, at their lines
        (a role's target is a reference, not prose)."""
        from docutils import nodes

        first = _line(para, 0)
        raw = str(para.rawsource or "")
        for literal in para.findall(nodes.literal):
            if literal.get("role") or not first or len(self.facts.mentions) >= MAX_MENTIONS:
                continue
            at = first + raw.count("\n", 0, max(raw.find(literal.astext()), 0))
            inline_call(literal.astext(), at, section, self.facts.calls, raw)
            name = code_mention(literal.astext())
            if name is not None:
                self.facts.mentions.append((name, at))

    def _line_text(self, number: int) -> str:
        if self.lines is None:
            self.lines = self.text.splitlines()
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def _definitions(self, node: Any, section: int) -> None:
        from docutils import nodes

        if self.in_entry:
            return

        # A list whose every term is one bare lowercase key (``host`` then
        # its description, indented) lists keys as a literal term would; a
        # glossary's terms are words and phrases in their own case.
        bare = bare_terms(node)
        for item in node.children:
            term = item.next_node(nodes.term)
            if term is None:
                continue
            parts = [c for c in term.children if c.tagname != "#text" or c.astext().strip()]
            plain = parts and not isinstance(parts[0], nodes.literal)  # pasted help
            for flag in option_term(term.astext()) if plain else []:
                self._add(flag, _line(term, 1), section, "help")  # ``-l, --level``
            if not parts or not (bare or isinstance(parts[0], nodes.literal)):
                continue
            key = parts[0].astext().strip()
            if key_ok(key, strict_case=False):
                # ``timeout : int``: the classifier is the key's type.
                typed = [c.astext().strip() for c in item.children if c.tagname == "classifier"]
                self.last_entry = self._add(
                    key, _line(term, 1), section, "list", typed[0] if typed else None
                )
                definition = item.next_node(nodes.definition)
                if definition is not None:
                    self._describe(definition)
        self.last_entry = None

    def _table(self, node: Any, section: int) -> None:
        from docutils import nodes

        rows = list(node.findall(nodes.row))
        if len(rows) < 2:
            return
        keyed = key_rows(node) or []
        for row, key, described in keyed:
            # A key and its description, no header: each row an entry.
            self.last_entry = self._add(key, _row_line(row, _line(node, 1)), section, "table")
            self._describe(described)
        if keyed:
            self.last_entry = None
            return
        header = [_text(entry).strip().lower() for entry in rows[0].children]
        renamed = rename_columns(header)
        if renamed is not None:
            for row in rows[1:]:
                cells = list(row.children)
                if max(renamed) < len(cells):
                    old, new = (rename_cell(_text(cells[i])) for i in renamed)
                    if old and new and old != new:
                        self.facts.renames.append((old, new, _row_line(row, _line(node, 1))))
            return
        if not header or header[0].split()[-1:] == [] or header[0].split()[-1] not in KEY_HEADERS:
            return
        default_col = default_column(header)
        type_col = header.index("type") if "type" in header else None
        for row in rows[1:]:
            cells = list(row.children)
            if not cells:
                continue
            literal = cells[0].next_node(nodes.literal)
            key = (literal.astext() if literal is not None else _text(cells[0])).strip()
            if not key or " " in key or not key_ok(key, strict_case=False):
                continue
            index = self._add(key, _row_line(row, _line(node, 1)), section, "table")
            entry = self.facts.entries[index]
            if default_col is not None and default_col < len(cells):
                entry.default = _text(cells[default_col]).strip() or None
            if type_col is not None and type_col < len(cells):
                entry.doc_type = _text(cells[type_col]).strip() or None

    def _block(self, node: Any, section: int) -> None:
        before = len(self.facts.blocks)
        self._literal(node, section)
        mark_defaults(self.facts.blocks[before:], lead_text(node))

    def _literal(self, node: Any, section: int) -> None:
        classes = list(node.get("classes", []))
        language = str(node.get("language", "")).lower()
        if not language and len(classes) >= 2 and classes[0] == "code":
            language = str(classes[1]).lower()  # docutils' own ``code`` directive
        content = _text(node)
        first = _line(node, 1)
        for flag, number, default, program in help_options(content):
            # A command's ``--help`` output documents its flags and defaults.
            entry = self.facts.entries[self._add(flag, first + number, section, "help")]
            entry.default, entry.program = default, program
        self.facts.commands.extend(commands_at(content, language, first))
        lead = lead_text(node)
        # "You can switch it on in ``pytest.ini``::": the file's language.
        guessed = "" if language else lead_language(lead)
        language = block_language(language or guessed, content)
        conf = leads_to_conf(lead)
        if not language and conf:
            language = "python"  # "Add this to your ``conf.py``::"
        if not language and _IMPORTS.match(content.lstrip()):
            # An untagged ``::`` block that imports is Python to Sphinx: its calls.
            self.facts.calls.extend(python_blocks(content, first, section, "python")[1])
        if language not in _LANGS or not language:
            return
        if len(content) > 1_000_000:
            return
        if language in ("python", "py"):
            # A settings module's assignments: a block of their own; and the
            # calls that pass keyword arguments.
            python_blocks(content, first, section, language, self.facts, conf)
        read = read_block(content, language)
        if not read.keys and (read.error is None or language not in STRICT_LANGS):
            return
        if guessed and read.error is not None:
            return  # a fragment of the file the lead names, or no file of it
        block = Block(section, first, language, [k.at(first) for k in read.keys])
        if read.error is not None and language in STRICT_LANGS:
            block.error, block.error_line = read.error, read.error_line + first
        self.facts.blocks.append(block)


#: A Python block's opening import (``from pkg import Model``).
_IMPORTS = re.compile(r"(?:from [\w.]{1,200} import |import [\w.]{1,200}\n)")

#: Directives that generate a command line's reference (besides those
#: Markdown's MyST fences name).
_RST_GENERATORS = {"sphinx_argparse_cli": "sphinx-argparse-cli"}
