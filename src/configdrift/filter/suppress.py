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
from configdrift.files import read_or_none
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


def _code_comments(data: bytes) -> list[tuple[int, str]]:
    """The comments of a Python file (not strings that look like them)."""
    import io
    import tokenize

    out: list[tuple[int, str]] = []
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.COMMENT and "configdrift" in token.string:
                out.append((token.start[0], token.string))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        pass
    return out


def _page_comments(lines: list[str]) -> list[tuple[int, str]]:
    """HTML comments of a page, outside code fences and code spans."""
    out: list[tuple[int, str]] = []
    fence = ""
    for number, text in enumerate(lines, start=1):
        stripped = text.lstrip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            fence = "" if fence == mark else (fence or mark)
            continue
        if fence or "configdrift" not in text:
            continue
        start = text.find("<!--")
        if start >= 0 and text.count("`", 0, start) % 2 == 0:
            out.append((number, text[start:]))
    return out


def _suppressions(root: Path, rel: str) -> list[Suppression]:
    data = read_or_none(root, rel)
    if data is None or _MARK not in data:
        return []
    try:
        lines = decode(data).splitlines()
    except NotText:
        return []
    page = rel.endswith(_PAGE_SUFFIXES)
    comments = _page_comments(lines) if page else _code_comments(data)
    out: list[Suppression] = []
    for number, text in comments:
        match = _COMMENT.search(text)
        if match is None:
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
