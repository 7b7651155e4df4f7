"""The pipeline end to end: pages found by discovery, serial and parallel runs."""

from __future__ import annotations

import json

import pytest

from configdrift.extract.run import PARALLEL_THRESHOLD, _chunks
from helpers import make_project, strict_model


def _findings(cli, root, *args: str) -> list[tuple[str, str, str, int]]:
    result = cli("check", str(root), "--format", "json", "--no-cache", *args)
    assert result.err == ""
    return [(f["code"], f["key"], f["path"], f["line"]) for f in json.loads(result.out)["findings"]]


def test_a_two_key_schema_is_documented_by_a_two_entry_page(cli, tmp_path) -> None:
    # Pages are first extracted only when they could hold three entries; a
    # schema with two keys (``m`` and ``m.a``) lowers the bar afterwards.
    page = "<i>**m:a**</i>: [integer]\n\n<i>**m:typo**</i>: [integer]\n"
    make_project(tmp_path, {**strict_model(), "docs/config.md": page})
    assert ("CD101", "m.typo", "docs/config.md", 3) in _findings(cli, tmp_path)


def test_parallel_extraction_finds_what_a_serial_run_finds(cli, tmp_path) -> None:
    files = {
        **strict_model("a: int = 1", "b: int = 2", "c: int = 3"),
        "docs/config.md": (
            "<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n"
            "<i>**m:b**</i>: [integer]\n\n<i>**m:typo**</i>: [integer]\n"
        ),
    }
    # Enough files for the worker pool, Python and pages alike.
    for i in range(PARALLEL_THRESHOLD):
        files[f"pkg/filler{i}.py"] = f"def f{i}(d):\n    return d['k{i}']\n"
    for i in range(PARALLEL_THRESHOLD // 4):
        files[f"docs/page{i}.md"] = f"# Page {i}\n\n- `x`\n- `y`\n- `z`\n"
    make_project(tmp_path, files)
    serial = _findings(cli, tmp_path, "--jobs", "1")
    parallel = _findings(cli, tmp_path, "--jobs", "2")
    assert parallel == serial
    assert ("CD101", "m.typo", "docs/config.md", 7) in serial
    assert ("CD103", "m.c", "pkg/m.py", 6) in serial


def test_chunks_hold_every_file_once_largest_first(tmp_path) -> None:
    sizes = {f"f{i}.py": (i % 7) * 1000 + i for i in range(60)}
    for rel, size in sizes.items():
        (tmp_path / rel).write_bytes(b"#" * size)
    chunks = _chunks(str(tmp_path), list(sizes), 8)
    flat = [rel for chunk in chunks for rel in chunk]
    assert sorted(flat) == sorted(sizes)
    assert [sizes[rel] for rel in flat] == sorted(sizes.values(), reverse=True)
    total = sum(sizes.values())
    # Every chunk but the last holds its share, and none holds much more.
    weights = [sum(sizes[rel] for rel in chunk) for chunk in chunks]
    assert all(total // 8 <= w < total // 8 + 7000 for w in weights[:-1])
    assert len(chunks[0]) < len(chunks[-2])


def test_a_table_of_bare_keys_may_document_a_configuration() -> None:
    from configdrift.extract.byte_tests import may_document

    rows = b"# Settings\n\n| Variable | Default |\n|---|---|\n| ACCESS_LOG | True |\n"
    three = rows + b"| **KEEP_ALIVE** | 5 |\n| TIMEOUT | 60 |\n"
    assert may_document(three, 3)
    # One row under its header, or rows whose first cell is a sentence, are not enough.
    assert not may_document(rows, 3)
    assert not may_document(rows + b"| Keep it | 5 |\n| Or not at all | 6 |\n", 3)


@pytest.mark.parametrize(
    ("page", "renders"),
    [
        (b"Ref\n===\n\n.. automodule:: pkg.x\n", True),
        (b"Ref\n===\n\n.. py:autoclass:: pkg.X\n", True),
        (b"# Ref\n\n```{autoclass} pkg.X\n```\n", True),
        (b"# Ref\n\n::: pkg.X\n", True),
        (b"::: pkg.X\n", True),
        (b"# Ref\n\n[[autodoc]] x.X\n", True),
        (b"# Ref\n\nThe loader loads: see ``pkg.X``.\n", False),
    ],
)
def test_a_page_may_render_docstrings_by_a_directive(page: bytes, renders: bool) -> None:
    from configdrift.extract.byte_tests import may_render_docstrings

    assert may_render_docstrings(page) is renders
