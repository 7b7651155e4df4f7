"""Run the per-file extractors over many files, in parallel where it pays.

Extraction is a pure function of a file's bytes, so files are independent:
they are split into chunks handed to worker processes. A file that cannot be
read becomes a parse error of that file; the others are still analysed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TypeVar

from configdrift.extract.docs.markdown import DocFacts, extract_markdown
from configdrift.extract.python.extractor import extract_python
from configdrift.extract.python.facts import ModuleFacts

#: Below this many files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 200
MAX_FILE_BYTES = 8 * 1024 * 1024

T = TypeVar("T")
# A relevance test, not a parser: which identifiers occur in a page at all.
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def _read(root: str, rel: str) -> bytes | str | None:
    """The file's bytes, None if it is gone, or an error message."""
    path = os.path.join(root, rel)
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return f"file larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, not read"
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        # Listed by git but not in the work tree (a sparse or partial checkout).
        return None
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"


def _python_chunk(root: str, rels: list[str]) -> list[tuple[str, ModuleFacts]]:
    out = []
    for rel in rels:
        data = _read(root, rel)
        if data is None:
            continue
        facts = (
            ModuleFacts(error=data, error_line=1) if isinstance(data, str) else extract_python(data)
        )
        out.append((rel, facts))
    return out


def _docs_chunk(
    root: str, rels: list[str], words: frozenset[str] | None, needed: int
) -> list[tuple[str, DocFacts]]:
    out = []
    for rel in rels:
        data = _read(root, rel)
        if data is None:
            continue
        if isinstance(data, str):
            out.append((rel, DocFacts(error=data, error_line=1)))
            continue
        if words is not None and not mentions(data, words, needed):
            continue
        out.append((rel, extract_markdown(data)))
    return out


def mentions(data: bytes, words: frozenset[str], at_least: int) -> bool:
    """Does the text hold ``at_least`` distinct identifiers from ``words``?

    An escaped underscore (``weight\\_decay``) counts as an underscore.
    """
    found: set[bytes] = set()
    encoded = {w.encode() for w in words}
    for match in _WORD.finditer(data.replace(b"\\_", b"_")):
        token = match.group()
        if token in encoded and token not in found:
            found.add(token)
            if len(found) >= at_least:
                return True
    return False


def _chunks(items: list[str], n: int) -> list[list[str]]:
    size = max(1, (len(items) + n - 1) // n)
    return [items[i : i + size] for i in range(0, len(items), size)]


class Extractor:
    """Extracts facts from files, with a process pool for large trees."""

    def __init__(self, root: str, jobs: int | None, expected_files: int) -> None:
        self.root = root
        workers = jobs if jobs is not None else (os.cpu_count() or 1)
        self.workers = workers
        self.pool: Executor | None = None
        if workers > 1 and expected_files >= PARALLEL_THRESHOLD:
            self.pool = ProcessPoolExecutor(max_workers=workers)

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    def _map(
        self, func: Callable[..., list[tuple[str, T]]], items: list[str], *extra: object
    ) -> dict[str, T]:
        if self.pool is None or len(items) < 8:
            return dict(func(self.root, items, *extra))
        # Several chunks per worker even out files of very different sizes.
        jobs = [
            self.pool.submit(func, self.root, c, *extra) for c in _chunks(items, self.workers * 4)
        ]
        out: dict[str, T] = {}
        for job in jobs:
            out.update(job.result())
        return out

    def python(self, rels: list[str]) -> dict[str, ModuleFacts]:
        return self._map(_python_chunk, rels)

    def docs(
        self, rels: list[str], words: Iterable[str] | None = None, needed: int = 0
    ) -> dict[str, DocFacts]:
        """Facts of doc pages; with ``words``, only pages naming ``needed`` of them."""
        return self._map(_docs_chunk, rels, frozenset(words) if words is not None else None, needed)
