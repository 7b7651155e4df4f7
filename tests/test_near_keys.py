"""A page whose key headings are a small configuration's keys, two at
least and one misspelt a letter off (``target_versions``), documents it:
the misspelling is then what the page gets wrong (CD101 with the near key
as "did you mean"). Never a page with other keys beside them, nor one with
a single exact key."""

from __future__ import annotations

from helpers import by_key, check_project

_CONFIG = """
import tomllib
from dataclasses import dataclass, field


@dataclass
class Config:
    line_length: int = 88
    exclude: list[str] = field(default_factory=list)
    target_version: str = "py311"
    skip_magic_trailing_comma: bool = False


def read(path="pyproject.toml"):
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return Config(**data.get("tool", {}).get("tool", {}))
"""


def _page(*headings: str) -> str:
    return "# Configuration\n\n" + "".join(f"### `{h}`\n\nAbout it.\n\n" for h in headings)


def _found(tmp_path, page: str) -> dict:
    files = {"tool/config.py": _CONFIG, "docs/config.md": page}
    _, findings = check_project(tmp_path, files, "tool")
    return by_key(findings)


def test_a_key_misspelt_beside_exact_ones_makes_the_page_the_configurations(tmp_path) -> None:
    found = _found(tmp_path, _page("line_length", "exclude", "target_versions"))
    rejected = [f for (code, key), f in found.items() if code == "CD101"]
    assert [f.key.rsplit(".", 1)[-1] for f in rejected] == ["target_versions"]
    assert "target_version" in (rejected[0].suggestion or "")
    assert any(code == "CD103" and key.endswith("skip_magic_trailing_comma") for code, key in found)


def test_a_page_with_other_keys_beside_them_is_not_taken(tmp_path) -> None:
    page = _page("line_length", "exclude", "target_versions", "version_pattern", "upload")
    assert not [k for k in _found(tmp_path, page) if k[0] in ("CD101", "CD103")]


def test_one_exact_key_and_near_ones_are_not_enough(tmp_path) -> None:
    page = _page("line_length", "target_versions", "skip_magic_trailing_commas")
    assert not [k for k in _found(tmp_path, page) if k[0] in ("CD101", "CD103")]


def test_a_key_of_several_words_far_from_every_key_is_no_misspelling(tmp_path) -> None:
    page = _page("line_length", "exclude", "version_pattern")
    assert not [k for k in _found(tmp_path, page) if k[0] in ("CD101", "CD103")]
