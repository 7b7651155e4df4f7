"""A flag the docs' prose writes in code beside a flag of the project's
own program (```--verbose`/`--debug` flags``, "as the ``--model`` and
``--hf-tokenizer-name`` parameters") that no parser of the project
declares (part of CD101): a reader who passes it gets ``unrecognized
arguments`` (argparse) or ``No such option`` (click).

The line must name a flag of a parser that rejects unknown flags for
certain (``strict``), so that it speaks of that program's command line;
the flag must be declared by no parser of the project, under any
spelling, nor begin a declared one (argparse takes ``--verb`` for
``--verbose``), and no Python file of the project may spell it as a
string (it may be declared where the parser is not followed). A line
that tells of a removal or a deprecation, a history page, and a flag that
qualifies a noun after an article ("in a ``--no-site-packages``
virtualenv": a kind of thing, which another program may make) are never
judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.discover import HISTORY_PAGES
from configdrift.model import Finding, Location, Related, SchemaNode
from configdrift.rules.doc_commands import FLAG, REJECTION, declared_flag, doc_parsers
from configdrift.rules.evidence import MAX_OTHER_BYTES, code_files, quoted_in
from configdrift.rules.lifecycle import HISTORY_WORDS, page_lines
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def prose_flags_not_taken(analysis: Analysis) -> Iterator[Finding]:
    """CD101 for each flag the prose writes in code on a line that names a
    flag of the project's strict parser, where no parser declares it."""
    if analysis.first is not None:
        return  # the project's docs, judged once
    parsers = doc_parsers(analysis)
    declared = {s for parser in parsers for node in parser.walk() for s in node.spellings}
    longs = [s for s in declared if s.startswith("--")]
    declared |= {s.replace("_", "-") for s in longs}  # ``-`` and ``_`` alike
    own = {
        s: parser
        for parser in parsers
        if parser.strict is True
        for node in parser.walk()
        for s in node.spellings
        if s.startswith("--")
    }
    if not own:
        return
    found: list[tuple[str, int, str, str]] = []
    for rel, doc in sorted({**analysis.doc_facts, **analysis.pages_read}.items()):
        if HISTORY_PAGES.search(rel):
            continue
        by_line: dict[int, set[str]] = {}
        for name, line in doc.mentions:
            by_line.setdefault(line, set()).add(name)
        for line, names in sorted(by_line.items()):
            beside = sorted(names & own.keys())
            for flag in sorted(names) if beside else ():
                if (
                    flag.startswith("--")
                    and FLAG.fullmatch(flag)
                    and not _declared(flag, declared, longs)
                ):
                    found.append((rel, line, flag, beside[0]))
    if not found:
        return
    python = [*code_files(analysis), *analysis.other_python]
    spelt = quoted_in(analysis, python, {flag for _, _, flag, _ in found})
    lines_of: dict[str, list[str]] = {}  # each page's lines, read once
    for rel, line, flag, known in found:
        if flag in spelt:
            continue
        lines = page_lines(analysis, rel, lines_of, limit=MAX_OTHER_BYTES)
        if 0 < line <= len(lines) and HISTORY_WORDS.search(lines[line - 1]):
            continue  # the line tells of a removal or a deprecation
        if _attributive(" ".join(lines[line - 1 : line + 1]), flag):
            continue  # "a ``--no-site-packages`` virtualenv": a kind of thing, made elsewhere
        parser = own[known]
        yield make(
            "CD101",
            flag,
            Location(rel, line),
            f"`{flag}` is written as a flag beside `{known}`, but no parser of the project "
            f"declares it: passing it {REJECTION[parser.model_kind or '']}",
            _declares(parser, known),
        )


#: The words after a flag that name the flag itself (``a `--debug` flag``).
_FLAG_NOUNS = frozenset({"flag", "option", "argument", "switch", "parameter", "or", "and"})


def _attributive(text: str, flag: str) -> bool:
    """Does the text write the flag before a noun it qualifies, after an
    article ("in a ``--no-site-packages`` virtualenv")? It tells of a kind
    of thing, which another program may make, not of a flag to pass."""
    pattern = rf"\b[Aa]n?\s+`{{1,2}}{re.escape(flag)}`{{1,2}}\s+([A-Za-z]\w*)"
    return any(m.group(1).lower() not in _FLAG_NOUNS for m in re.finditer(pattern, text))


def _declared(flag: str, declared: set[str], longs: list[str]) -> bool:
    """Does a parser take the flag: one of its spellings (with ``-`` for
    ``_``), or a long flag that begins one (argparse's abbreviations)?"""
    return flag.replace("_", "-") in declared or declared_flag(flag, declared, longs)


def _declares(parser: SchemaNode, flag: str) -> tuple[Related, ...]:
    """Where the parser declares the flag the line names beside."""
    node = next((n for n in parser.walk() if flag in n.spellings and n.location), None)
    if node is None or node.location is None:
        return ()
    where = node.location
    return (Related(where.path, where.line, f"`{flag}` is declared here, beside the options"),)
