"""Inline suppressions, per-file ignores, and unused suppressions."""

from __future__ import annotations

import json

from helpers import make_project, strict_model


def _project(root, page: str, code_line: str = "b: int = 2", config: str = ""):
    files = strict_model("a: int = 1", code_line)
    options = 'docs = ["docs/config.md"]\n' + config
    return make_project(root, {**files, "docs/config.md": page, "configdrift.toml": options})


PAGE = (
    "# C\n\n<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n"
    "<!-- configdrift: ignore[CD101] -->\n\n<i>**m:typo**</i>: [integer]\n\n"
    "<i>**m:other**</i>: [integer]\n"
)


def _codes(cli, root, *args: str) -> tuple[list[tuple[str, str]], str]:
    result = cli("check", str(root), "--format", "json", *args)
    found = [(f["code"], f["key"]) for f in json.loads(result.out)["findings"]]
    return found, result.err


def test_a_page_comment_silences_the_entry_after_it(cli, tmp_path) -> None:
    root = _project(tmp_path, PAGE)
    found, _ = _codes(cli, root, "--select", "CD101")
    assert found == [("CD101", "m.other")]


def test_a_code_comment_silences_its_line_for_its_codes(cli, tmp_path) -> None:
    root = _project(tmp_path, PAGE, "b: int = 2  # configdrift: ignore[CD103, CD202]")
    found, _ = _codes(cli, root, "--select", "CD103,CD202")
    assert ("CD103", "m.b") not in found and ("CD202", "m.b") not in found
    root2 = _project(tmp_path / "two", PAGE, "b: int = 2  # configdrift: ignore[CD202]")
    found, _ = _codes(cli, root2, "--select", "CD103")
    assert ("CD103", "m.b") in found  # another code is not silenced


def test_per_file_ignores(cli, tmp_path) -> None:
    config = '[per-file-ignores]\n"docs/*.md" = ["CD101"]\n'
    root = _project(tmp_path, PAGE, config=config)
    found, _ = _codes(cli, root, "--select", "CD101")
    assert found == []


def test_a_suppression_that_silences_nothing_is_reported(cli, tmp_path) -> None:
    page = PAGE.replace("<i>**m:other**</i>: [integer]\n", "")
    page = page.replace("ignore[CD101]", "ignore[CD104]")
    root = _project(tmp_path, page, "b: int = 2  # configdrift: ignore[CD103]")
    out = cli("check", str(root)).out
    unused = [line for line in out.splitlines() if "unused suppression" in line]
    # The CD103 one silences `m.b`: it is used. The CD104 one silences nothing.
    assert unused == ["docs/config.md:7: unused suppression `configdrift: ignore[CD104]`"]
    assert "m.b" not in out
    # In JSON, the note goes to stderr and stdout stays a document.
    _, err = _codes(cli, root)
    assert "unused suppression" in err
    # A code that is not selected is not called unused.
    assert "unused" not in cli("check", str(root), "--select", "CD101").out


def test_the_syntax_shown_in_docs_and_strings_is_not_a_suppression(cli, tmp_path) -> None:
    page = PAGE.replace(
        "<!-- configdrift: ignore[CD101] -->",
        "Write `<!-- configdrift: ignore[CD101] -->` before an entry:\n\n"
        "```\n<!-- configdrift: ignore[CD101] -->\n```",
    )
    root = _project(tmp_path, page, 'b: int = 2\n    note: str = "# configdrift: ignore[CD101]"')
    result = cli("check", str(root), "--select", "CD101")
    assert "`typo` is documented" in result.out and "unused suppression" not in result.out
