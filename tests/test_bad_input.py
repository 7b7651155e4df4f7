"""Bad input ends in a diagnostic, never a traceback; the rest is still analysed."""

from __future__ import annotations

import json
import os

import pytest

from helpers import make_project, strict_model

GOOD = {
    **strict_model(),
    "docs/config.md": "<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n<i>**m:typo**</i>: [integer]\n",
}


def findings(cli, root) -> tuple[int, list[dict], str]:
    result = cli("check", str(root), "--format", "json")
    return result.code, json.loads(result.out)["findings"] if result.out else [], result.err


def test_python2_file_is_cd503_and_the_rest_is_analysed(cli, tmp_path) -> None:
    make_project(tmp_path, {**GOOD, "pkg/legacy.py": "print 'hello'\n"})
    _, found, err = findings(cli, tmp_path)
    assert err == ""
    assert {(f["code"], f["path"]) for f in found} >= {
        ("CD503", "pkg/legacy.py"),
        ("CD101", "docs/config.md"),
    }


def test_template_and_not_utf8_python(cli, tmp_path) -> None:
    make_project(tmp_path, {**GOOD, "pkg/tmpl.py": "{% if debug %}\nx = 1\n{% endif %}\n"})
    (tmp_path / "pkg" / "latin.py").write_bytes(b"x = '\xe9'\n")
    _, found, _ = findings(cli, tmp_path)
    errors = {f["path"]: f["message"] for f in found if f["code"] == "CD503"}
    assert "syntax" in errors["pkg/tmpl.py"] and "UTF-8" in errors["pkg/latin.py"]


def test_markdown_not_utf8_is_cd503(cli, tmp_path) -> None:
    make_project(tmp_path, {**GOOD, "docs/other.md": ""})
    (tmp_path / "docs" / "other.md").write_bytes(b"# x\n\xff\xfe\n")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "t"\n[tool.configdrift]\ndocs = ["docs"]\n'
    )
    _, found, _ = findings(cli, tmp_path)
    assert ("CD503", "docs/other.md", 2) in {(f["code"], f["path"], f["line"]) for f in found}
    assert any(f["code"] == "CD101" for f in found)


def test_broken_tables_and_raw_html_still_yield_entries(cli, tmp_path) -> None:
    page = GOOD["docs/config.md"] + "\n| a | b\n| --- |\n| 1 | 2 | 3 |\n\n<div>\n<b>x</b>\n</div>\n"
    make_project(tmp_path, {**GOOD, "docs/config.md": page})
    _, found, _ = findings(cli, tmp_path)
    assert [f["key"] for f in found if f["code"] == "CD101"] == ["m.typo"]


def test_empty_docs_folder_is_cd501(cli, tmp_path) -> None:
    files = {k: v for k, v in GOOD.items() if not k.startswith("docs/")}
    make_project(tmp_path, files)
    (tmp_path / "docs").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "t"\n[tool.configdrift]\ndocs = ["docs"]\n'
    )
    code, found, _ = findings(cli, tmp_path)
    assert code == 1
    assert [(f["code"], f["message"]) for f in found] == [
        ("CD501", "the doc source `docs` matches no Markdown file")
    ]


def test_a_configured_page_without_entries_is_cd501(cli, tmp_path) -> None:
    make_project(tmp_path, {**GOOD, "docs/config.md": "# Config\n\nProse only.\n"})
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "t"\n[tool.configdrift]\ndocs = ["docs/config.md"]\n'
    )
    _, found, _ = findings(cli, tmp_path)
    assert [(f["code"], f["path"]) for f in found] == [("CD501", "docs/config.md")]


def test_configured_pages_without_entries_are_one_cd501_listing_them(cli, tmp_path) -> None:
    pages = {f"docs/page{n}.md": f"# Page {n}\n\nProse only.\n" for n in (1, 2, 3)}
    make_project(tmp_path, {**GOOD, **pages})
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "t"\n[tool.configdrift]\n'
        'docs = ["docs/config.md", "docs/page1.md", "docs/page2.md", "docs/page3.md"]\n'
    )
    _, found, _ = findings(cli, tmp_path)
    (only,) = [f for f in found if f["code"] == "CD501"]
    assert only["path"] == "docs/page1.md"
    assert "3 doc sources yield no config keys" in only["message"]
    assert [r["path"] for r in only["related"]] == ["docs/page2.md", "docs/page3.md"]
    # The page with entries is judged as before, and is not listed.
    assert "docs/config.md" not in only["message"]


def test_no_doc_page_at_all_is_a_setup_message_unless_docs_are_configured(cli, tmp_path) -> None:
    """Left to discovery, finding no page is a question of setup: a message
    that says what was found and how to go on, exit 0. Configured sources
    that yield nothing stay CD501."""
    files = {k: v for k, v in GOOD.items() if not k.startswith("docs/")}
    make_project(tmp_path / "bare", files)
    code, found, err = findings(cli, tmp_path / "bare")
    assert (code, found) == (0, [])
    assert "found no documented configuration" in err and "configdrift init" in err
    configured = {
        **files,
        "docs/notes.md": "# Notes\n\nNothing about the configuration.\n",
        "configdrift.toml": 'docs = ["docs/notes.md"]\n',
    }
    make_project(tmp_path / "configured", configured)
    code, found, _ = findings(cli, tmp_path / "configured")
    assert code == 1 and {f["code"] for f in found} == {"CD501"}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_loops_do_not_hang(cli, tmp_path) -> None:
    make_project(tmp_path, GOOD)
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "pkg" / "self.py", tmp_path / "pkg" / "self.py")
    _, found, err = findings(cli, tmp_path)
    assert err == ""
    assert any(f["code"] == "CD101" for f in found)


def test_unreadable_big_file_is_cd503(cli, tmp_path, monkeypatch) -> None:
    import configdrift.files as files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 10)
    make_project(tmp_path, GOOD)
    _, found, err = findings(cli, tmp_path)
    assert {f["code"] for f in found} == {"CD503"}
    assert "found no documented configuration" in err


def test_broken_page_found_by_discovery_is_reported_only_when_it_names_schema_keys(
    cli, tmp_path
) -> None:
    make_project(tmp_path, GOOD)
    # Both pages look like reference pages (three typed entries) and are not
    # UTF-8; only the one naming keys of this schema is this tool's business.
    (tmp_path / "docs" / "ours.md").write_bytes(
        b"**m**: [dict]\n\n**a**: [int]\n\n**b**: [int] \xff\n"
    )
    (tmp_path / "docs" / "theirs.md").write_bytes(
        b"**x**: [dict]\n\n**y**: [int]\n\n**z**: [int] \xff\n"
    )
    _, found, _ = findings(cli, tmp_path)
    assert [f["path"] for f in found if f["code"] == "CD503"] == ["docs/ours.md"]


EXAMPLE_PAGE = "<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n```{lang}\n{body}\n```\n"


def _example(cli, root, lang: str, body: str, extra: dict[str, str] | None = None) -> list[dict]:
    page = EXAMPLE_PAGE.format(lang=lang, body=body)
    make_project(root, {**strict_model(), "docs/config.md": page, **(extra or {})})
    code, found, err = findings(cli, root)
    assert err == "" and code in (0, 1)
    return found


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("json", '{"m": {"a": 1]}'),
        ("yaml", "m:\n  a: [1, 2\n  b: x: y"),
        ("toml", "[m\na = 1"),
    ],
)
def test_a_config_block_with_invalid_syntax_is_cd304(cli, tmp_path, lang, body) -> None:
    found = _example(cli, tmp_path, lang, body)
    assert [(f["code"], f["path"]) for f in found if f["code"].startswith("CD30")] == [
        ("CD304", "docs/config.md")
    ]


def test_yaml_is_never_constructed(cli, tmp_path) -> None:
    marker = tmp_path / "constructed"
    body = f'm:\n  a: !!python/object/apply:os.system ["touch {marker}"]\n  b: !Custom x\n'
    found = _example(cli, tmp_path, "yaml", body)
    assert not marker.exists()
    # `b` is rejected; the tagged values are placeholders, not wrong types.
    assert [(f["code"], f["key"]) for f in found if f["code"].startswith("CD30")] == [
        ("CD301", "m.b")
    ]


def test_a_yaml_alias_bomb_costs_its_text(cli, tmp_path) -> None:
    lines = ["m:", "  a: 1", "l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 12)]
    found = _example(cli, tmp_path, "yaml", "\n".join(lines))
    assert not [f for f in found if f["code"] == "CD304"]


def test_deep_nesting_and_duplicate_keys(cli, tmp_path) -> None:
    deep = '{"m": {"a": 1, "deep": ' + "[" * 50_000 + "]" * 50_000 + "}}"
    found = _example(cli, tmp_path, "json", deep)
    assert [(f["code"], f["key"]) for f in found if f["code"].startswith("CD30")] == [("CD304", "")]
    assert "nested deeper than" in next(f["message"] for f in found if f["code"] == "CD304")
    dup = '{"m": {"a": 1, "a": "x", "b": 1, "b": 2}}'
    found = _example(cli, tmp_path, "json", dup)
    # Each duplicate is judged: the second `a` is the wrong type; `b` is rejected once.
    assert sorted((f["code"], f["key"]) for f in found if f["code"].startswith("CD30")) == [
        ("CD301", "m.b"),
        ("CD303", "m.a"),
    ]
    yaml_deep = "m:\n  a: " + "[" * 5_000 + "]" * 5_000
    found = _example(cli, tmp_path, "yaml", yaml_deep)
    assert [f["code"] for f in found if f["code"].startswith("CD30")] in ([], ["CD304"])


def test_a_large_config_file_is_data_unless_declared(cli, tmp_path) -> None:
    big = '{"m": {"a": 1}, "rows": [' + ", ".join(["1"] * 3_500_000) + "]}"
    assert len(big) > 10 * 1024 * 1024
    extra = {"data/big.json": big}
    assert not [
        f for f in _example(cli, tmp_path, "text", "", extra) if f["path"] == "data/big.json"
    ]
    extra["configdrift.toml"] = 'config-files = ["data/*.json"]\n'
    found = _example(cli, tmp_path, "text", "", extra)
    assert [(f["code"], f["path"]) for f in found if f["path"] == "data/big.json"] == [
        ("CD304", "data/big.json")
    ]


def test_a_config_files_pattern_that_matches_nothing_is_cd501(cli, tmp_path) -> None:
    make_project(tmp_path, {**GOOD, "configdrift.toml": 'config-files = ["nope/*.json"]\n'})
    _, found, _ = findings(cli, tmp_path)
    assert [(f["path"], f["message"]) for f in found if f["code"] == "CD501"] == [
        ("nope/*.json", "the config-files pattern `nope/*.json` matches no file")
    ]


_PARSER = """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-retries", type=int, default=3)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--output-dir", default="out")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--log-file", default=None)
    parser.add_argument("--timeout", type=int, default=30)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(args.max_retries, args.dry_run, args.output_dir, args.log_level, args.log_file)
    print(args.timeout, args.verbose)
"""


def test_the_setup_message_names_the_pages_that_name_the_keys(cli, tmp_path) -> None:
    files = {
        "tool/cli.py": _PARSER,
        # Prose that names three of the seven options, in no form read as
        # an entry (half would document the command line in prose).
        "docs/usage.md": "# Usage\n\nRun it with --max-retries and --dry-run, and set\n"
        "--output-dir to choose where the files go.\n",
        "CHANGELOG.md": "# 1.0\n\nAdded --max-retries, --dry-run, --output-dir and --log-level.\n",
        "docs/other.md": "# Other\n\nNothing about --dry-run here.\n",
    }
    make_project(tmp_path, files)
    code, found, err = findings(cli, tmp_path)
    assert (code, found) == (0, [])
    assert "pages that name its keys: docs/usage.md (3 keys)" in err
    assert 'to compare them, in [tool.configdrift]: docs = ["docs/usage.md"]' in err
    assert "CHANGELOG" not in err and "other.md" not in err  # a history page; too few keys
    # init writes the page down as a comment, saying how it was chosen:
    # named, a page that yields no entry would fail the next check (CD501).
    written = cli("init", str(tmp_path), "--stdout").out
    assert '\n# docs = ["docs/usage.md"]' in written
    assert '\ndocs = ["docs/usage.md"]' not in written
    assert "# docs/usage.md names 3 of the keys, though no entry was recognised" in written


def test_the_setup_message_without_a_page_says_to_write_one(cli, tmp_path) -> None:
    make_project(tmp_path, {"tool/cli.py": _PARSER, "docs/index.md": "# Tool\n\nIt works.\n"})
    _, _, err = findings(cli, tmp_path)
    assert "no page names three of its keys or more" in err
    assert "to compare them" not in err


def test_a_run_that_compared_too_little_says_so_and_can_fail(cli, tmp_path) -> None:
    """Forty keys accepted, three of them on the page read: the run says on
    stderr and in JSON that it compared too little; --fail-on-empty fails it."""
    fields = "".join(f"    key_{n}: int = {n}\n" for n in range(40))
    model = (
        "from pydantic import BaseModel, ConfigDict\n\n\n"
        'class Config(BaseModel):\n    model_config = ConfigDict(extra="forbid")\n' + fields
    )
    files = {
        "app/__init__.py": "",
        "app/config.py": model,
        "docs/config.md": "# Config\n\n"
        + "".join(f"- `key_{n}` (int): key {n}. Default: `{n}`.\n" for n in range(3)),
        "pyproject.toml": '[project]\nname = "t"\n[tool.configdrift]\n'
        'mount = {"" = "app.config:Config"}\n',
    }
    make_project(tmp_path, files)
    plain = cli("check", str(tmp_path))
    assert "compared 3 of the 40 keys the code accepts" in plain.err
    assert "documented: 3 (compared: 3)" in plain.out
    report = json.loads(cli("check", str(tmp_path), "--format", "json").out)
    assert report["summary"]["thin"] is True and report["summary"]["keys"]["compared"] == 3
    assert cli("check", str(tmp_path), "--fail-on-empty", "--ignore", "CD103").code == 1
    # Documented through, it is no thin run.
    entries = "".join(f"- `key_{n}` (int): key {n}. Default: `{n}`.\n" for n in range(40))
    (tmp_path / "docs" / "config.md").write_text("# Config\n\n" + entries)
    full = cli("check", str(tmp_path), "--fail-on-empty")
    assert full.code == 0 and "compared" not in full.err
