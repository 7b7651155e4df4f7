"""Run the per-file extractors over many files, in parallel where it pays.

Extraction is a pure function of a file's bytes, so files are independent:
they are split into chunks handed to worker processes. A file that cannot be
read becomes a parse error of that file; the others are still analysed.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from configdrift.extract.docs.markdown import DocFacts, extract_markdown
from configdrift.extract.python.extractor import extract_python
from configdrift.extract.python.facts import ModuleFacts

#: Below this many files, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 300
MAX_FILE_BYTES = 8 * 1024 * 1024


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
        if isinstance(data, str):
            facts = ModuleFacts(error=data, error_line=1)
        else:
            facts = extract_python(data)
        out.append((rel, facts))
    return out


def _docs_chunk(root: str, rels: list[str]) -> list[tuple[str, DocFacts]]:
    out = []
    for rel in rels:
        data = _read(root, rel)
        if data is None:
            continue
        if isinstance(data, str):
            out.append((rel, DocFacts(error=data, error_line=1)))
        else:
            out.append((rel, extract_markdown(data)))
    return out


def _chunks(items: list[str], n: int) -> list[list[str]]:
    size = max(1, (len(items) + n - 1) // n)
    return [items[i : i + size] for i in range(0, len(items), size)]


def extract_all(
    root: Path,
    python: list[str],
    docs: list[str],
    *,
    jobs: int | None = None,
    cache_dir: Path | None = None,
) -> tuple[dict[str, ModuleFacts], dict[str, DocFacts]]:
    """Facts of every Python and Markdown file, keyed by relative path."""
    del cache_dir  # reserved for the content-hash cache
    base = str(root)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    total = len(python) + len(docs)
    if workers <= 1 or total < PARALLEL_THRESHOLD:
        return dict(_python_chunk(base, python)), dict(_docs_chunk(base, docs))
    py_out: dict[str, ModuleFacts] = {}
    md_out: dict[str, DocFacts] = {}
    # Several chunks per worker even out files of very different sizes.
    with ProcessPoolExecutor(max_workers=workers) as pool:
        py_jobs = [pool.submit(_python_chunk, base, c) for c in _chunks(python, workers * 4)]
        md_jobs = [pool.submit(_docs_chunk, base, c) for c in _chunks(docs, workers * 2)] if docs else []
        for job in py_jobs:
            py_out.update(job.result())
        for md_job in md_jobs:
            md_out.update(md_job.result())
    return py_out, md_out
