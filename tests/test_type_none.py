"""CD105: a documented type that offers None (``[list | None]``) where the
model's field is declared without it and defaults to a value, so that a
None written as the docs say is refused."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project, mounted_config

_PAGE = """# Options

- `modules` ({doc_type}): modules to load first.
- `alpha` (int): the first letter.
- `depth` (int): how deep to go.
"""


def _found(tmp_path, doc_type: str, field: str) -> dict:
    files = {
        **mounted_config(
            "alpha: int = 1",
            "depth: int = 2",
            field,
        ),
        "docs/config.md": _PAGE.format(doc_type=doc_type),
    }
    files["pkg/config.py"] = "from dataclasses import field\n" + files["pkg/config.py"]
    _, findings = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    return by_key(findings)


def test_none_offered_by_the_docs_and_refused_by_the_type(tmp_path) -> None:
    found = _found(tmp_path, "list | None", "modules: list[str] = field(default_factory=list)")
    finding = found["CD105", "modules"]
    assert "None is not one of its values" in finding.message
    assert finding.location.path == "docs/config.md"


@pytest.mark.parametrize(
    ("doc_type", "field"),
    [
        # The type takes None.
        ("list | None", "modules: list[str] | None = field(default_factory=list)"),
        # A field that defaults to None takes it, whatever its annotation.
        ("list | None", "modules: list[str] = None"),
        # The docs do not offer None.
        ("list", "modules: list[str] = field(default_factory=list)"),
    ],
)
def test_none_taken_or_not_offered_is_no_mismatch(tmp_path, doc_type, field) -> None:
    assert ("CD105", "modules") not in _found(tmp_path, doc_type, field)


def test_a_type_read_off_a_default_says_nothing_of_none(tmp_path) -> None:
    # A dict read with ``.get("modules", [])``: the list is a fallback the
    # code reads, not a declaration that refuses None.
    code = (
        "def load(options):\n"
        '    a = options.get("alpha", 1)\n'
        '    d = options.get("depth", 2)\n'
        '    m = options.get("modules", [])\n'
        "    return a, d, m\n"
    )
    files = {"pkg/load.py": code, "docs/config.md": _PAGE.format(doc_type="list | None")}
    analysis, findings = check_project(tmp_path, files, "pkg")
    node = analysis.schema.children.get("modules") or next(
        n for s in analysis.surfaces for n in s.schema.walk() if n.key == "modules"
    )
    assert "list" in node.type.kinds  # the type is known, from the read
    assert ("CD105", "modules") not in by_key(findings)
