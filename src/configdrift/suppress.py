"""Inline suppressions and per-file ignores.

- ``# configdrift: ignore[CD202]`` on a line of code silences those codes
  (prefixes, comma-separated) for findings on that line; without brackets,
  every code.
- ``<!-- configdrift: ignore[CD103] -->`` in a page silences the findings on
  its own line and on the next line that is not blank (the entry it sits
  before).
- ``per-file-ignores`` in the configuration: a glob to the code prefixes
  ignored in the files it matches.

A suppression comment that silences nothing is reported, so that stale
ones do not pile up.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from configdrift.extract.text import NotText, decode
from configdrift.model import Finding

_MARK = b"configdrift: ignore"
_COMMENT = re.compile(r"configdrift:\s*ignore(?:\[([A-Za-z0-9_, ]*)\])?")
_PAGE_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True, slots=True)
class Suppression:
    path: str
    line: int
    codes: tuple[str, ...]  # empty: every code
    covers: tuple[int, ...]

    def silences(self, finding: Finding) -> bool:
        return finding.location.line in self.covers and (
            not self.codes or any(finding.code.startswith(c) for c in self.codes)
        )


def _suppressions(root: Path, rel: str) -> list[Suppression]:
    try:
        data = (root / rel).read_bytes()
    except OSError:
        return []
    if _MARK not in data:
        return []
    try:
        lines = decode(data).splitlines()
    except NotText:
        return []
    page = rel.endswith(_PAGE_SUFFIXES)
    out: list[Suppression] = []
    for number, text in enumerate(lines, start=1):
        if "configdrift" not in text:
            continue
        match = _COMMENT.search(text)
        if match is None:
            continue
        if page and "<!--" not in text:
            continue
        if not page and "#" not in text[: match.start()]:
            continue
        codes = tuple(c.strip().upper() for c in (match.group(1) or "").split(",") if c.strip())
        covers = [number]
        if page:
            nxt = number
            while nxt < len(lines) and not lines[nxt].strip():
                nxt += 1
            if nxt < len(lines):
                covers.append(nxt + 1)
        out.append(Suppression(rel, number, codes, tuple(covers)))
    return out


def apply(
    findings: list[Finding], root: Path, files: set[str], per_file: dict[str, list[str]]
) -> tuple[list[Finding], list[Suppression]]:
    """The findings no suppression silences, and the suppressions that
    silence nothing. ``files`` are scanned for comments (with the files the
    findings are in)."""
    by_file: dict[str, list[Suppression]] = {}
    for rel in sorted(files | {f.location.path for f in findings}):
        found = _suppressions(root, rel)
        if found:
            by_file[rel] = found
    used: set[tuple[str, int]] = set()
    kept: list[Finding] = []
    for finding in findings:
        rel = finding.location.path
        ignored = [
            code
            for pattern, codes in per_file.items()
            if fnmatch.fnmatchcase(rel, pattern)
            for code in codes
        ]
        if any(finding.code.startswith(code) for code in ignored):
            continue
        hit = next((s for s in by_file.get(rel, []) if s.silences(finding)), None)
        if hit is not None:
            used.add((hit.path, hit.line))
            continue
        kept.append(finding)
    unused = [s for sups in by_file.values() for s in sups if (s.path, s.line) not in used]
    return kept, unused
