"""The shapes of reStructuredText that name a key: a section title of a
literal and its own title, a key spelt as one in a title, a list item that
opens with a key, an object directive's signature. Pure functions of
docutils nodes and text, shared by the page's walker (``rst.py``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from configdrift.extract.docs.entry_text import (
    KEY_ROLES,
    VALUES_LEAD,
    file_name,
    heading_rest,
    ini_heading,
    key_ok,
    listed_values,
    mentioned_key,
    spelt_as_key,
)
from configdrift.extract.docs.heading_words import flag_title, noted_key

if TYPE_CHECKING:
    from configdrift.extract.docs.facts import DocFacts


#: Roles whose target is code, not a key: ``:mod:`pkg.config``` titles a module's page.
CODE_ROLES = frozenset({"mod", "class", "func", "meth", "attr", "obj", "data", "exc", "py"})


def title_key(title: Any) -> str | None:
    """The key a section's title names for certain: a literal alone
    (````key````, not ``:mod:`pkg.config```), or a literal and a title of
    its own (````key``: Title``); a configparser option (``[run] branch``);
    an option alone (``--dry-run``, ``--config-file PATH``); a word spelt as
    a key with a note in brackets (``max_retries (optional)``)."""
    from docutils import nodes

    if title is None:
        return None
    literals = [c for c in title.children if c.tagname != "#text" or c.astext().strip()]
    first = literals[0] if literals else None
    if (
        isinstance(first, nodes.literal)
        and str(first.get("role", "")).rsplit(":", 1)[-1] in CODE_ROLES
    ):
        return None  # ``:mod:`pkg.config``` underlined: a module's page, not a key
    if isinstance(first, nodes.literal) and (
        len(literals) == 1
        # Not ``:mod:`pkg.ext` -- Title``: a role names a module.
        or (len(literals) == 2 and not first.get("role") and titled(literals[1].astext()))
    ):
        key = first.astext().strip()
        return key if key_ok(key, strict_case=False) and not file_name(key) else None
    if (ini := ini_heading(title.astext())) is not None:
        return ini  # ``[run] branch`` underlined: an option of a configparser section
    if len(literals) == 1 and spelt_as_key(literals[0].astext().strip()):
        # ``asyncio_default_fixture_loop_scope`` underlined: a key, not a word.
        return str(literals[0].astext().strip())
    if all(c.tagname == "#text" for c in literals):
        words = title.astext().split()
        return flag_title(words) or noted_key(words)
    return None


def titled(rest: str) -> bool:
    """The text after a heading's literal is a title of its own (``: Worker
    timeout``, `` - the timeout``), not prose around the key ("``x`` and
    you")."""
    return heading_rest(rest) and rest.strip() not in ("and", ",", "/")


def opening_key(para: Any) -> tuple[str, str] | None:
    """The key a list item opens with, and the entry's form: a literal or
    strong text followed by a colon, a dash or a parenthesised type
    (``list``); a literal spelt as a key followed by prose (````tool.x`` is
    equivalent to ...``), a ``mention``, a key only where the schema has it."""
    from docutils import nodes

    children = [c for c in para.children if c.tagname != "#text" or c.astext().strip()]
    if not children or not isinstance(children[0], nodes.literal | nodes.strong):
        return None
    key = children[0].astext().strip().split("=", 1)[0].split(" ", 1)[0]
    index = para.children.index(children[0])
    rest = para.children[index + 1].astext() if index + 1 < len(para.children) else ""
    form = "list"
    if rest.lstrip()[:1] not in (":", "-", "(", "\u2013", "\u2014"):
        literal = isinstance(children[0], nodes.literal) and not children[0].get("role")
        if not (literal and rest[:1].isspace() and mentioned_key(key, rest)):
            return None
        form = "mention"
    if not key_ok(key, strict_case=isinstance(children[0], nodes.strong)) or file_name(key):
        return None
    if children[0].get("role"):
        # A link (``:ref:`label```, ``:setting:`NAME```) to an entry
        # elsewhere: a key only where the schema has it, never one the docs
        # get wrong here.
        form = "mention"
    return key, form


#: A lead-in that announces a list of a configuration's keys ("Available
#: options are:", "The following settings can be set:").
_ANNOUNCED = re.compile(r"(?i)\b(?:options|settings|keys|parameters)\b[^.:]*:\s*$")


def announced(node: Any) -> bool:
    """Is a bullet list announced as a list of keys by the paragraph just
    before it ("Available options are:")?"""
    from docutils import nodes

    parent = node.parent
    at = parent.index(node) if parent is not None else 0
    before = parent.children[at - 1] if at > 0 else None
    return isinstance(before, nodes.paragraph) and bool(_ANNOUNCED.search(before.astext()))


def lone_key(item: Any, listed: bool = False) -> str | None:
    """The key a list item names alone, its description below it: a first
    paragraph that is one literal and nothing else (````DISABLE_PANELS````),
    then a paragraph or a block (``Default:``, prose). An item of a bare
    literal with nothing under it is a value in a list, not an entry,
    unless the list is ``listed`` as keys ("Available options are:")."""
    from docutils import nodes

    # A role (a link to an entry elsewhere) is followed by the parser's
    # note on it, no description.
    body = item.children
    if len(body) < (1 if listed else 2) or not isinstance(body[0], nodes.paragraph):
        return None
    if len(body) > 1 and not isinstance(body[1], nodes.paragraph | nodes.literal_block):
        return None
    children = [c for c in body[0].children if not isinstance(c, nodes.Text) or c.astext().strip()]
    if len(children) != 1 or not isinstance(children[0], nodes.literal):
        return None
    key = children[0].astext().strip()
    if not key_ok(key, strict_case=False) or file_name(key):
        return None
    return key


def signature(arguments: str, directive: str) -> Iterator[tuple[str, str | None]]:
    """The names a directive's signature documents: ``name``, ``name : type``,
    ``-o, --output FILE``, several lines."""
    option = directive.rsplit(":", 1)[-1] in _OPTIONS
    for line in arguments.replace("\n", ",").split(","):
        text = line.strip()
        if not text:
            continue
        name, _, sig_type = text.partition(":") if not option else (text, "", "")
        words = name.split()
        if not words:
            continue
        if option:
            # ``--exclude=<patterns>``, ``--jobs[=N]``: the option alone.
            yield re.split(r"[=\[<]", words[0], maxsplit=1)[0], None
            continue
        yield words[0], (sig_type.strip() or None)


#: Directives that describe a command line's option (``cmdoption`` is
#: Sphinx's older name of ``option``).
_OPTIONS = frozenset({"option", "cmdoption"})


#: The longest signature read for its keyword defaults.
MAX_SIGNATURE = 4000


def signature_defaults(arguments: str) -> list[tuple[str, str]]:
    """The keyword arguments a hand-written function signature gives a
    default, each with the default's source text (``serve(app,
    port=8080)``: ``port``, ``8080``). Parsed as Python, never run; a
    signature that is not Python gives none."""
    import ast

    text = arguments.strip().split("\n", 1)[0][:MAX_SIGNATURE]
    start, end = text.find("("), text.rfind(")")
    if start < 0 or end < start:
        return []
    source = f"def _{text[start : end + 1]}: pass"
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    named = [*args.posonlyargs, *args.args]
    pairs = list(zip(named[len(named) - len(args.defaults) :], args.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
    return [
        (arg.arg, segment)
        for arg, default in pairs
        if (segment := ast.get_source_segment(source, default)) is not None
    ]


#: A bare term that is a key: one lowercase word, ``_``, ``-`` or ``.`` joined.
_BARE_KEY = re.compile(r"[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*")

#: The fewest bare terms that make a definition list a list of keys.
_BARE_LEAST = 2


def bare_terms(node: Any) -> bool:
    """Is every term of the definition list one bare key (two at least)?"""
    terms = [item.children[0] for item in node.children if item.children]
    return len(terms) >= _BARE_LEAST and all(
        term.tagname == "term"
        and len(term.children) == 1
        and term.children[0].tagname == "#text"
        and _BARE_KEY.fullmatch(term.astext().strip()) is not None
        for term in terms
    )


#: The most paragraphs of one description searched for a list of values.
_MAX_VALUE_PARAGRAPHS = 20


def described_values(node: Any) -> tuple[str, ...] | None:
    """The values a description lists: in a paragraph ("One of ``a``,
    ``b`` or ``c``"), or as a bullet list after one that announces them
    ("Possible values:"), each item opening with a literal."""
    from docutils import nodes

    paragraphs = [node] if isinstance(node, nodes.paragraph) else node.findall(nodes.paragraph)
    for para in itertools.islice(paragraphs, _MAX_VALUE_PARAGRAPHS):
        found = listed_values([(isinstance(c, nodes.literal), c.astext()) for c in para.children])
        if found is not None:
            return found
        after = para.parent.index(para) + 1 if para.parent is not None else 0
        if VALUES_LEAD.search(para.astext()) and after < len(para.parent or ()):
            following = para.parent[after]
            if isinstance(following, nodes.bullet_list):
                return _item_values(following)
    return None


def _item_values(listing: Any) -> tuple[str, ...] | None:
    """The literal each item of a list opens with; None where one opens
    otherwise or nests a list."""
    from docutils import nodes

    values: list[str] = []
    for item in listing.children:
        first = item.next_node(nodes.paragraph)
        opening = [c for c in first.children if c.astext().strip()] if first is not None else []
        if not opening or not isinstance(opening[0], nodes.literal):
            return None
        if item.next_node(nodes.bullet_list) is not None:
            return None
        values.append(opening[0].astext().strip().strip("\"'"))
    return tuple(values) if len(values) >= 2 else None


def directive_fields(node: Any) -> Iterator[tuple[str, str]]:
    """The fields of a directive's option-like field lists (``:Default: 5``)."""
    from docutils import nodes

    for field in node.findall(nodes.field):
        name = field.next_node(nodes.field_name)
        body = field.next_node(nodes.field_body)
        if name is not None and body is not None:
            yield name.astext().strip(), body.astext().strip()


def node_line(node: Any, default: int) -> int:
    """A node's line, or its nearest ancestor's (docutils gives not every
    node one)."""
    line = getattr(node, "line", None)
    if isinstance(line, int) and line > 0:
        return line
    parent = getattr(node, "parent", None)
    return node_line(parent, default) if parent is not None else default


def references(facts: DocFacts, tree: Any) -> None:
    """The roles that point at keys, and the links to Python files
    (`` `settings <../src/app/config.py>`_ ``), with their lines."""
    from docutils import nodes

    try:
        for node in tree.findall(nodes.literal):
            if node.get("role") in KEY_ROLES and node.get("target"):
                facts.references.append((node["role"], node["target"], node_line(node, 1)))
                if len(facts.references) >= MAX_REFERENCES:
                    break
        for node in tree.findall(nodes.reference):
            target = str(node.get("refuri", "")).partition("#")[0]
            if target.endswith(".py") and len(facts.code_links) < MAX_REFERENCES:
                facts.code_links.append((target, node_line(node, 1)))
    except RecursionError:
        return


#: References kept per page (a page of thousands is an index, not prose).
MAX_REFERENCES = 2000


def lead_text(node: Any) -> str:
    """The text of the paragraph just before a literal block, which may
    lead into it ("Add this to your ``conf.py``::"); "" where none is."""
    from docutils import nodes

    parent = node.parent
    index = parent.index(node) if parent is not None else 0
    before = parent[index - 1] if index else None
    return before.astext() if isinstance(before, nodes.paragraph) else ""


def key_rows(node: Any) -> list[tuple[Any, str, Any]] | None:
    """The rows of a table without a header whose every row opens with a
    key in code alone (``CACHE_TYPE``) and describes it in the next cell,
    as Flask's extensions document their settings: (row, key, the cell
    that describes it); None for any other table."""
    from docutils import nodes

    out: list[tuple[Any, str, Any]] = []
    for row in node.findall(nodes.row):
        cells = list(row.children)
        literal = cells[0].next_node(nodes.literal) if len(cells) >= 2 else None
        key = literal.astext().strip() if literal is not None else ""
        if not key or cells[0].astext().strip() != key or not key_ok(key, strict_case=False):
            return None
        out.append((row, key, cells[1]))
    return out if len(out) >= 2 else None
