"""Memory and time are bounded by what one file may cost, whatever the tree
holds: each reader's cap is tested here, and the whole run's peak memory is
measured in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import make_project, mounted_config, peak_of

MODEL = {
    **mounted_config(),
    "docs/config.md": "# Config\n\n## `alpha`\n\nDefault: `2`\n\n## `omega`\n\nGone.\n",
}


def _findings(out: str) -> dict[tuple[str, str], str]:
    return {(f["code"], f["path"]): f["message"] for f in json.loads(out)["findings"]}


def test_a_python_file_too_dense_to_parse_is_a_note_not_a_gigabyte(tmp_path):
    """A megabyte of ``1,`` would take half a gigabyte of syntax tree."""
    dense = "x = [" + "1," * (1 << 19) + "]\n"
    root = make_project(tmp_path, {**MODEL, "pkg/data.py": dense, "tests/test_data.py": dense})
    code, out, peak = peak_of(["check", str(root), "--no-cache", "--format", "json"], tmp_path)
    assert code == 1
    found = _findings(out)
    assert "tokens, more than configdrift parses" in found["CD503", "pkg/data.py"]
    assert ("CD101", "docs/config.md") in found  # the rest is judged
    assert peak < 200, f"peak {peak} MiB"


def test_a_dense_file_under_the_bound_is_parsed():
    from configdrift.extract.python.extractor import extract_python
    from configdrift.extract.text import MAX_PYTHON_SEPARATORS, too_dense

    fits = b"X = {" + b'"a": 1,' * (MAX_PYTHON_SEPARATORS // 4) + b"}\n"
    assert too_dense(fits) is None
    assert extract_python(fits).error is None
    assert too_dense(b"x = [" + b"1," * MAX_PYTHON_SEPARATORS + b"]") is not None


@pytest.mark.parametrize(
    ("page", "said"),
    [
        (b"T\n=\n\n" + b"* ``a`` b\n" * 39_000, "elements"),
        (b"T\n=\n\n.. list-table::\n\n" + b"   * - ``a``\n     - b\n" * 6_000, "nested blocks"),
        (b"T\n=\n\n" + b"``a`` " * 20_000 + b"\n", "a paragraph of"),
        (b"T\n=\n\n" + b"x\n" * 40_001, "lines, more than"),
    ],
)
def test_a_restructuredtext_page_past_its_bounds_is_not_read(page, said):
    from configdrift.extract.docs.rst import extract_rst

    facts = extract_rst(page)
    assert facts.error is not None and said in facts.error


def test_a_restructuredtext_page_within_its_bounds_is_read():
    from configdrift.extract.docs.rst import extract_rst

    page = b"T\n=\n\n" + b"".join(b"``k%d``\n   Text.\n\n" % i for i in range(2000))
    facts = extract_rst(page)
    assert facts.error is None and len(facts.entries) == 2000


def test_a_yaml_block_larger_than_its_bound_is_not_composed():
    from configdrift.extract.docs.blocks import MAX_YAML_BYTES, read_block

    big = "- {a: 1}\n" * (MAX_YAML_BYTES // 9 + 1)
    read = read_block(big, "yaml")
    assert read.keys == [] and read.error is not None and "larger than" in read.error
    assert read_block("alpha: 1\n", "yaml").keys[0].path == ("alpha",)


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t"}
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True, env=env)


@pytest.mark.slow
def test_provenance_holds_one_line_of_the_history_not_all_of_it(tmp_path):
    """The schema file's history is read as it comes: forty commits that
    each rewrite a megabyte of it cost what one line costs."""
    root = make_project(tmp_path / "repo", MODEL)
    _git(root, "init", "-q", "-b", "main")
    schema = root / "pkg" / "config.py"
    base = schema.read_text(encoding="utf-8")
    for commit in range(40):
        filler = "".join(f"# {commit} {line} {'x' * 40}\n" for line in range(20_000))
        schema.write_text(base + filler, encoding="utf-8")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"c{commit}")
    code, out, peak = peak_of(
        ["check", str(root), "--no-cache", "--provenance", "--format", "json"], tmp_path
    )
    assert code == 1
    stories = [f["provenance"] for f in json.loads(out)["findings"] if f["code"] == "CD101"]
    assert stories and stories[0]["schema"]["status"] == "never-declared"
    assert stories[0]["schema"]["versions"] == 40
    assert peak < 150, f"peak {peak} MiB"
