"""The pages that render a file of the project by including it: a
directive whose argument or one of whose options names the file
(``.. literalinclude:: ../pkg/defaults.yaml``, ``.. x-config::`` with
``:config: ../pkg/defaults.yaml``, MyST's ```` ```{literalinclude} ````),
and the lines of the file it shows (``:lines:``, ``:start-after:``,
``:end-before:``, ``:start-at:``, ``:end-at:``, ``:start-line:``,
``:end-line:``).

A label (``.. _defaults.yaml:``), a comment, a title or a role in prose
(``:file:`defaults.yaml```) names the file without rendering it.
"""

from __future__ import annotations

import re
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
#: The most option lines read after a directive.
_MAX_OPTIONS = 30
#: The options that show a part of the included file.
SELECTORS = frozenset(
    {"lines", "start-after", "end-before", "start-at", "end-at", "start-line", "end-line"}
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
    wanted = name.encode()
    for rel in rels:
        data = read_or_none(root, rel)
        if data is None or wanted not in data:
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        for number, line in enumerate(lines, start=1):
            found = _DIRECTIVE.fullmatch(line.strip())
            if found is None:
                continue
            options = _options(lines, number)
            if name in found.group(1) or any(name in value for value in options.values()):
                out.append(Include(Location(rel, number), options))
                break
    return out


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
