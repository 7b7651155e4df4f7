"""The pages that render a file of the project by including it: a
directive whose argument or one of whose options names the file
(``.. literalinclude:: ../pkg/defaults.yaml``, ``.. x-config::`` with
``:config: ../pkg/defaults.yaml``, MyST's ```` ```{literalinclude} ````),
or a snippet of a MkDocs page (pymdownx.snippets' ``--8<-- "pkg/env.py"``),
and the lines of the file it shows (``:lines:``, ``:start-after:``,
``:end-before:``, ``:start-at:``, ``:end-at:``, ``:start-line:``,
``:end-line:``; a snippet's ``"pkg/env.py:name"``, the lines between
``--8<-- [start:name]`` and ``--8<-- [end:name]``, or ``"pkg/env.py:3:9"``).

A label (``.. _defaults.yaml:``), a comment, a title or a role in prose
(``:file:`defaults.yaml```) names the file without rendering it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from configdrift.files import read_or_none
from configdrift.model import Location

#: A directive's first line, its leading spaces stripped: reStructuredText's
#: ``.. name:: argument`` and MyST's ```` ```{name} argument ```` or
#: ``:::{name} argument``.
_DIRECTIVE = re.compile(
    r"(?:\.\. [\w-]++(?::[\w-]++)*+::|(?<![`:])(?:```|:::)[`:]*+\{[\w-]++(?::[\w-]++)*+\})(.*)"
)
#: One of its options, its leading spaces stripped: ``:name: value``
#: (a role, ``:file:`x```, has no space after its name).
_OPTION = re.compile(r"^:([\w-]{1,80}):(?:\s(.*))?")
#: A snippet's line (pymdownx.snippets): ``--8<-- "path"``, the path with
#: what part of the file it takes (``path:name``, ``path:3:9``).
_SNIPPET = re.compile(r"""--8<--\s++(["'])([^"'\s]{1,300})\1""")
#: What a snippet's path may be followed by: a section's name, or lines.
_LINES = re.compile(r"(\d{1,9})(?::(\d{1,9}))?")
#: The option a snippet's include is recorded with: what follows its path.
SNIPPET = "snippet"
#: The most option lines read after a directive.
_MAX_OPTIONS = 30
#: The options that show a part of the included file.
SELECTORS = frozenset(
    {"lines", "start-after", "end-before", "start-at", "end-at", "start-line", "end-line", SNIPPET}
)


@dataclass(frozen=True, slots=True)
class Include:
    """A page's directive that includes a file: where, and its options."""

    location: Location
    options: dict[str, str]

    def shown(self, text: str) -> set[int] | None:
        """The lines (from 1) of the file ``text`` this include shows; None
        for the whole file."""
        return shown_lines(text, self.options)


def file_includes(root: Path, rels: list[str], name: str) -> list[Include]:
    """The directives of the pages ``rels`` that include the file ``name``
    (its path's last part), one per page: the first."""
    out: list[Include] = []
    for rel in rels:
        for number, target, options in _page_includes(root, rel, (name.encode(),)):
            if (
                target.rsplit("/", 1)[-1] == name
                if SNIPPET in options
                else name in target or any(name in value for value in options.values())
            ):
                out.append(Include(Location(rel, number), options))
                break
    return out


def _page_includes(
    root: Path, rel: str, wanted: tuple[bytes, ...]
) -> Iterator[tuple[int, str, dict[str, str]]]:
    """Each include of the page ``rel``: its line, the path it names and
    its options; none where the page's bytes hold none of ``wanted``."""
    data = read_or_none(root, rel)
    if data is None or not any(w in data for w in wanted):
        return
    lines = data.decode("utf-8", "replace").splitlines()
    for number, line in enumerate(lines, start=1):
        named = _included(line, lines, number)
        if named is not None:
            yield number, *named


def _snippet(line: str) -> tuple[str, str] | None:
    """The path a snippet's line includes, and what follows it (``""``
    for the whole file)."""
    found = _SNIPPET.fullmatch(line.strip())
    if found is None:
        return None
    path, _, part = found.group(2).partition(":")
    return path, part


def code_shown(
    root: Path, pages: list[str], files: list[str]
) -> dict[str, tuple[set[int] | None, str]]:
    """The files of ``files`` the pages include (by a directive's argument
    or a snippet, never a label or a role that names them), each with the
    lines the pages show together (None where one shows it whole) and its
    text, read once. An include whose path names two of ``files`` is left
    out."""
    by_name: dict[str, list[str]] = {}
    for rel in files:
        by_name.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
    found: dict[str, list[Include]] = {}
    for page in pages:
        for number, target, options in _page_includes(root, page, (b"8<", b"include")):
            rels = [r for r in by_name.get(target.rsplit("/", 1)[-1], ()) if _names(target, r)]
            if len(rels) == 1:
                found.setdefault(rels[0], []).append(Include(Location(page, number), options))
    out: dict[str, tuple[set[int] | None, str]] = {}
    for rel, includes in found.items():
        data = read_or_none(root, rel)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        parts = [include.shown(text) for include in includes]
        shown = None if None in parts else set().union(*(p for p in parts if p is not None))
        out[rel] = shown, text
    return out


def _included(line: str, lines: list[str], number: int) -> tuple[str, dict[str, str]] | None:
    """The path a line includes (a snippet, or a directive's argument,
    ``""`` for none) and the options that name or choose its part."""
    snippet = _snippet(line)
    if snippet is not None:
        return snippet[0], {SNIPPET: snippet[1]}
    found = _DIRECTIVE.fullmatch(line.strip())
    if found is None:
        return None
    return found.group(1).strip(), _options(lines, number)


def _names(target: str, rel: str) -> bool:
    """Does an include's path (relative to its page, or to the site's
    base) name the file ``rel`` of the tree?"""
    parts = [p for p in target.split("/") if p not in ("", ".", "..")]
    tail = "/".join(parts)
    return bool(tail) and (rel == tail or rel.endswith("/" + tail))


def _options(lines: list[str], number: int) -> dict[str, str]:
    """The options of the directive on line ``number``: the ``:name:
    value`` lines right after it."""
    options: dict[str, str] = {}
    for line in lines[number : number + _MAX_OPTIONS]:
        found = _OPTION.fullmatch(line.strip())
        if found is None:
            break
        options[found.group(1)] = (found.group(2) or "").strip()
    return options


def shown_lines(text: str, options: dict[str, str]) -> set[int] | None:
    """The lines (from 1) of a file that an include with these options
    shows; None for all of them, or where a selection cannot be read."""
    chosen = SELECTORS.intersection(options)
    if not chosen:
        return None
    lines = text.splitlines()
    if SNIPPET in chosen:
        return _snippet_lines(lines, options[SNIPPET])
    first, last = 1, len(lines)
    if "start-line" in chosen or "end-line" in chosen:
        try:
            first = int(options.get("start-line") or 0) + 1
            last = int(options.get("end-line") or len(lines))
        except ValueError:
            return None
    for key, after in (("start-after", 1), ("start-at", 0)):
        if key in chosen:
            at = _find(lines, options[key], first)
            if at is None:
                return None
            first = at + after
    for key, before in (("end-before", 1), ("end-at", 0)):
        if key in chosen:
            at = _find(lines, options[key], first)
            if at is None:
                return None
            last = at - before
    shown = set(range(first, last + 1))
    if "lines" in chosen:
        picked = _line_spec(options["lines"], len(lines))
        if picked is None:
            return None
        shown = {first - 1 + n for n in picked if first - 1 + n <= last}
    return shown


def _snippet_lines(lines: list[str], part: str) -> set[int] | None:
    """The lines (from 1) a snippet shows of a file: all of them (None),
    a range (``3:9``, ``3`` to the end), or a section's, between its
    ``--8<-- [start:name]`` and ``--8<-- [end:name]`` lines (none where
    the file has no such section)."""
    if not part:
        return None
    numbers = _LINES.fullmatch(part)
    if numbers is not None:
        first = int(numbers.group(1))
        last = int(numbers.group(2)) if numbers.group(2) else len(lines)
        return set(range(max(first, 1), min(last, len(lines)) + 1))
    start = _find(lines, f"--8<-- [start:{part}]", 1)
    end = _find(lines, f"--8<-- [end:{part}]", start) if start is not None else None
    if start is None or end is None:
        return set()
    return set(range(start + 1, end))


def _find(lines: list[str], marker: str, start: int) -> int | None:
    """The first line (from 1) at or after ``start`` holding ``marker``."""
    if not marker:
        return None
    for number in range(start, len(lines) + 1):
        if marker in lines[number - 1]:
            return number
    return None


def _line_spec(spec: str, count: int) -> set[int] | None:
    """Sphinx's ``:lines:`` (``1,3,5-10,20-``), as line numbers from 1."""
    out: set[int] = set()
    for part in spec.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        try:
            start = int(low) if low else 1
            end = (int(high) if high else count) if dash else start
        except ValueError:
            return None
        out.update(range(start, min(end, count) + 1))
    return out
