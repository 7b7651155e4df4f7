"""Run the per-file extractors over many files, in parallel where it pays.

Extraction is a pure function of a file's bytes, so files are independent:
they are split into chunks handed to worker processes, and their facts can be
reused from a cache keyed by content. A file that cannot be read becomes a
parse error of that file; the others are still analysed.
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from concurrent.futures import Executor
from typing import Any, TypeVar

from configdrift.extract.byte_tests import doc_wanted, may_hold_config
from configdrift.extract.cache import (
    FactCache,
    content_key,
    doc_from_json,
    entry_json,
    module_from_json,
    py_examples_from_json,
    py_examples_to_json,
)
from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.docs.markups import extractor_for
from configdrift.extract.docs.python_config import config_file_facts
from configdrift.extract.python.compat import may_be_newer
from configdrift.extract.python.examples import PyExample, extract_py_examples
from configdrift.extract.python.extractor import (
    extract_newer,
    extract_python,
    is_syntax_error,
)
from configdrift.extract.python.facts import Memo, ModuleFacts, compact
from configdrift.extract.text import decode
from configdrift.files import Unreadable, read_file
from configdrift.isolate import Pool
from configdrift.wording import exception_message

#: Below this many files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 200

T = TypeVar("T")
#: A chunk's result: (relative path, facts, content digest, the facts as the
#: cache stores them); digest and entry are empty when there is no cache or
#: the file was not read.
Result = tuple[str, T, str, bytes]
#: Facts of many files by path, once their extraction has finished.
Pending = Callable[[], dict[str, T]]


def _read(root: str, rel: str) -> bytes | str | None:
    """The file's bytes, None if it is gone, or why it is not read."""
    try:
        return read_file(root, rel)
    except FileNotFoundError:
        # Listed by git but not in the work tree (a sparse or partial checkout).
        return None
    except Unreadable as exc:
        return str(exc)


def _no_gc(func: Callable[..., list[Result[T]]]) -> Callable[..., list[Result[T]]]:
    """Run an extraction chunk with the cyclic garbage collector paused.

    Parse trees have no cycles (no parent pointers) and facts are plain data,
    so reference counting frees everything; the collector's passes over the
    millions of objects a parse creates cost a third of the extraction.
    """

    @functools.wraps(func)
    def wrapper(*args: object) -> list[Result[T]]:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args)
        finally:
            if enabled:
                gc.enable()

    return wrapper


@_no_gc
def _python_chunk(
    root: str, rels: list[str], digest: bool, declaring: frozenset[str] = frozenset()
) -> list[Result[ModuleFacts]]:
    out: list[Result[ModuleFacts]] = []
    newer: list[tuple[int, str]] = []
    for rel in rels:
        data = _read(root, rel)
        if data is None:
            continue
        if isinstance(data, str):
            out.append((rel, ModuleFacts(error=data, error_line=1), "", b""))
            continue
        facts = _guard(ModuleFacts, extract_python, data, declaring=declaring)
        if is_syntax_error(facts):
            # It decoded once already: only the parse failed.
            source = decode(data)
            if may_be_newer(source, facts.error_line):
                newer.append((len(out), source))
        out.append((rel, facts, content_key(data) if digest else "", b""))
    if newer:
        # The files ``ast`` rejects are read again in newer syntax, all of
        # the chunk's in one child process.
        try:
            again = extract_newer([(source, out[index][1]) for index, source in newer], declaring)
        except Exception:  # the newer reader failed: keep the syntax errors
            again = [out[index][1] for index, _ in newer]
        for (index, _), facts in zip(newer, again, strict=True):
            rel, _, key, _ = out[index]
            out[index] = (rel, facts, key, b"")
    memo = Memo()
    for _, facts, _, _ in out:
        compact(facts, memo)
    return _encoded(out)


def _encoded(
    results: list[Result[T]], dump: Callable[[T], object] | None = None
) -> list[Result[T]]:
    """The results with each digested file's facts encoded for the cache,
    here in the worker rather than in the process that saves the cache."""
    return [
        (rel, facts, key, entry_json(facts if dump is None else dump(facts)) if key else b"")
        for rel, facts, key, _ in results
    ]


def _guard(empty: Callable[[], T], extract: Callable[..., T], data: bytes, **options: Any) -> T:
    """One file's extraction, whatever the file holds: an exception (a
    recursion or memory error included) is the file's error, reported as
    CD503, and the run goes on."""
    try:
        return extract(data, **options)
    except Exception as exc:  # one file must not end the run
        facts = empty()
        if isinstance(facts, ModuleFacts | DocFacts):
            facts.error = f"could not be read ({_reason(exc)})"
            facts.error_line = 1
        return facts


#: How the reason of a file configdrift itself failed on ends: its own
#: fault, reported whatever the file holds.
OWN_FAULT = "in configdrift: please report it"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError):
        return "too large to hold in memory"
    return f"{_named(exc)} {OWN_FAULT}"


def _named(exc: BaseException) -> str:
    """The exception's type with its message (reports escape it)."""
    message = exception_message(exc)
    return f"{type(exc).__name__}: {message}," if message else type(exc).__name__


@_no_gc
def _config_files_chunk(root: str, rels: list[str], digest: bool) -> list[Result[DocFacts]]:
    out: list[Result[DocFacts]] = []
    for rel in rels:
        data = _read(root, rel)
        if data is None or isinstance(data, str):
            continue  # an example file that cannot be read is no example
        facts = _guard(DocFacts, config_file_facts, data)
        out.append((rel, facts, content_key(data) if digest else "", b""))
    return _encoded(out)


@_no_gc
def _docs_chunk(
    root: str,
    rels: list[str],
    needed: int | None,
    words: AbstractSet[str] | None,
    digest: bool,
) -> list[Result[DocFacts]]:
    out: list[Result[DocFacts]] = []
    for rel in rels:
        data = _read(root, rel)
        if data is None:
            continue
        if isinstance(data, str):
            out.append((rel, DocFacts(error=data, error_line=1), "", b""))
            continue
        if not doc_wanted(data, needed, words):
            continue
        facts = _guard(DocFacts, extractor_for(rel), data)
        out.append((rel, facts, content_key(data) if digest else "", b""))
    return _encoded(out)


@_no_gc
def _py_examples_chunk(
    root: str, rels: list[str], quoted: list[tuple[bytes, bytes]], digest: bool
) -> list[Result[list[PyExample]]]:
    out: list[Result[list[PyExample]]] = []
    for rel in rels:
        data = _read(root, rel)
        if not isinstance(data, bytes) or not may_hold_config(data, quoted):
            continue
        examples: list[PyExample] = _guard(list, extract_py_examples, data)
        out.append((rel, examples, content_key(data) if digest else "", b""))
    return _encoded(out, py_examples_to_json)


def _chunks(root: str, items: list[str], n: int) -> list[list[str]]:
    """About ``n`` chunks of about equal bytes, the largest files first.

    Workers take chunks in order, so the chunks of a few large files go
    first and those of many small ones fill the gaps at the end: no worker
    is left with a heavy chunk while the others idle.
    """
    sizes: list[tuple[int, str]] = []
    for rel in items:
        try:
            size = os.path.getsize(os.path.join(root, rel))
        except OSError:
            size = 0
        sizes.append((size, rel))
    sizes.sort(reverse=True)
    budget = max(1, sum(size for size, _ in sizes) // n)
    out: list[list[str]] = []
    chunk: list[str] = []
    weight = 0
    for size, rel in sizes:
        chunk.append(rel)
        weight += size
        if weight >= budget:
            out.append(chunk)
            chunk, weight = [], 0
    if chunk:
        out.append(chunk)
    return out


def _digest_of(words: AbstractSet[str]) -> str:
    """A short name for a set of words, to name a byte test that uses them."""
    return content_key("\0".join(sorted(words)).encode())[:16]


def _in_order(rels: list[str], *parts: dict[str, T]) -> dict[str, T]:
    """Facts in the order the files were given, however they were found."""
    out: dict[str, T] = {}
    for rel in rels:
        for part in parts:
            if rel in part:
                out[rel] = part[rel]
                break
    return out


#: About how many files a worker extracts before it returns their facts.
CHUNK_FILES = 64


class Extractor:
    """Extracts facts from files: a process pool for large trees and, when
    given one, a cache of facts by content."""

    def __init__(
        self,
        root: str,
        jobs: int | None,
        expected_files: int,
        cache: FactCache | None = None,
        declaring: frozenset[str] = frozenset(),
    ) -> None:
        self.root = root
        self.cache = cache
        #: Calls the configuration declares as registrations (``registrations``).
        self.declaring = declaring
        self.seen: set[str] = set()
        workers = jobs if jobs is not None else (os.cpu_count() or 1)
        self.workers = workers
        self.pool: Executor | None = None
        self.parallel = workers > 1 and expected_files >= PARALLEL_THRESHOLD
        del expected_files

    def _start(self) -> Executor | None:
        """The process pool, started on first use: a warm run needs none."""
        if self.pool is None and self.parallel:
            self.pool = Pool(self.workers)
        return self.pool

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        if self.cache is not None and kind is None:
            self.cache.keep_only(self.seen)
            self.cache.save()

    def _submit(
        self, func: Callable[..., list[Result[T]]], items: list[str], *extra: object
    ) -> Callable[[], list[Result[T]]]:
        """Hand the files to the workers now; the returned call waits for them.

        Without a pool the work is done when the results are asked for.
        """
        pool = self._start() if len(items) >= PARALLEL_THRESHOLD // 4 else None
        if pool is None:
            return lambda: func(self.root, items, *extra)
        # Several chunks per worker even out files of very different sizes;
        # chunks of a bounded size keep what a worker holds before it hands
        # its results back small, however large the tree.
        chunks = _chunks(self.root, items, max(self.workers * 4, len(items) // CHUNK_FILES))
        jobs = [pool.submit(func, self.root, c, *extra) for c in chunks]

        def collect() -> list[Result[T]]:
            out: list[Result[T]] = []
            for chunk, job in zip(chunks, jobs, strict=True):
                try:
                    out.extend(job.result())
                except Exception:
                    # A worker died (killed, out of memory): its files are
                    # read again here, one guard around each.
                    out.extend(func(self.root, chunk, *extra))
            return out

        return collect

    def _cached(
        self,
        kind: str,
        rels: list[str],
        load: Callable[[dict[str, Any]], T],
        wanted: Callable[[bytes], bool] | None = None,
        test: str = "",
    ) -> tuple[dict[str, T], list[str]]:
        """Facts found in the cache, and the files still to extract (a file
        that is not ``wanted`` is neither: the byte test a worker would
        apply is applied here to the bytes read for the digest, and no
        worker is sent a file only to turn it down). A ``test`` names the
        byte test, whose answer is then kept with the file's digest."""
        self.seen.update(f"{kind}:{rel}" for rel in rels)
        if self.cache is None or not self.cache.entries:
            return {}, rels  # nothing to reuse: do not read every file twice
        hits: dict[str, T] = {}
        misses: list[str] = []
        for rel in rels:
            data = _read(self.root, rel)
            if not isinstance(data, bytes):
                misses.append(rel)
                continue
            digest = content_key(data)
            if wanted is not None and not self._wanted(test, rel, digest, data, wanted):
                continue
            stored = self.cache.get(f"{kind}:{rel}", digest)
            if stored is None:
                misses.append(rel)
                continue
            try:
                facts = load(stored)
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
                misses.append(rel)  # a corrupt entry is re-extracted
                continue
            hits[rel] = facts
        return hits, misses

    def _wanted(
        self, test: str, rel: str, digest: str, data: bytes, wanted: Callable[[bytes], bool]
    ) -> bool:
        """``wanted(data)``, answered from the cache when the test has a
        name and was asked of these bytes before."""
        assert self.cache is not None
        if not test:
            return wanted(data)
        name = f"{test}:{rel}"
        self.seen.add(name)
        said = self.cache.verdict(name, digest)
        if said is None:
            said = wanted(data)
            self.cache.put(name, digest, b"1" if said else b"0")
        return said

    def _store(self, kind: str, results: list[Result[T]]) -> dict[str, T]:
        out: dict[str, T] = {}
        for rel, facts, digest, entry in results:
            out[rel] = facts
            if self.cache is not None and digest:
                self.cache.put(f"{kind}:{rel}", digest, entry)
        return out

    def python(self, rels: list[str]) -> Pending[ModuleFacts]:
        """Start extracting Python modules; call the result to wait for them."""
        hits, misses = self._cached("py", rels, module_from_json)
        # Facts read from the cache share their leaves as extracted ones do
        # (a large tree's facts, decoded, would otherwise hold each one
        # once per file).
        memo = Memo()
        for facts in hits.values():
            compact(facts, memo)
        collect = self._submit(_python_chunk, misses, self.cache is not None, self.declaring)
        return lambda: _in_order(rels, hits, self._store("py", collect()))

    def docs(
        self, rels: list[str], needed: int | None = None, words: AbstractSet[str] | None = None
    ) -> Pending[DocFacts]:
        """Start extracting the doc pages ``doc_wanted`` keeps. Call the
        result to wait for them."""
        # A cached page passes the same byte test as a page read afresh: a
        # warm run sees the pages a cold one does. Every page is wanted
        # without a ``needed`` count: there is no answer to keep.
        test = f"md?{needed}" + (f":{_digest_of(words)}" if words is not None else "")
        hits, misses = self._cached(
            "md",
            rels,
            doc_from_json,
            None if needed is None else lambda data: doc_wanted(data, needed, words),
            test,
        )
        collect = self._submit(_docs_chunk, misses, needed, words, self.cache is not None)
        return lambda: _in_order(rels, hits, self._store("md", collect()))

    def config_files(self, rels: list[str]) -> Pending[DocFacts]:
        """Start reading the Python config files outside the code
        (``python_config.config_file_facts``)."""
        hits, misses = self._cached("pycfg", rels, doc_from_json, lambda data: b"=" in data)
        collect = self._submit(_config_files_chunk, misses, self.cache is not None)
        return lambda: _in_order(rels, hits, self._store("pycfg", collect()))

    def py_examples(self, rels: list[str], top_keys: set[str]) -> Pending[list[PyExample]]:
        """Start reading the config dicts of Python tests and examples, in
        the files that quote two of ``top_keys`` or more."""
        quoted = [(f'"{key}"'.encode(), f"'{key}'".encode()) for key in sorted(top_keys)]
        if len(top_keys) < 2:
            return dict
        # As for docs, only files that passed the byte test are cached.
        hits, misses = self._cached(
            "pyx",
            rels,
            py_examples_from_json,
            lambda data: may_hold_config(data, quoted),
            f"pyx?{_digest_of(top_keys)}",
        )
        collect = self._submit(_py_examples_chunk, misses, quoted, self.cache is not None)
        return lambda: _in_order(rels, hits, self._store("pyx", collect()))
