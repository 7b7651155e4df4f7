"""CD105: a page's list of the values a key takes ("Possible values:",
each item a code span) against the values its ``Literal`` or ``Enum``
allows."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.markdown import extract_markdown
from helpers import by_key, check_project, mounted_config

_PAGE = """# Options

## `style`

The style of the docstrings.

{lead}

{items}

## `alpha`

The first letter.
"""

_FIELD = 'style: Annotated[Literal["auto", "google", "numpy"] | None, "doc"] = None'


def _found(tmp_path, items: str, lead: str = "Possible values:", field: str = _FIELD) -> dict:
    files = {
        **mounted_config("alpha: int = 1", field),
        "docs/config.md": _PAGE.format(lead=lead, items=items),
    }
    files["pkg/config.py"] = "from typing import Annotated, Literal\n\n" + files["pkg/config.py"]
    _, findings = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    return by_key(findings)


_LISTED = '- `"google"`: Google style.\n- `"numpy"`: Numpy style.\n- `None`: no parsing.'


def test_a_value_the_list_leaves_out(tmp_path) -> None:
    finding = _found(tmp_path, _LISTED)["CD105", "style"]
    assert "without `auto`" in finding.message
    assert finding.location.path == "docs/config.md"
    assert finding.related[0].path == "pkg/config.py"


def test_a_value_the_code_does_not_allow(tmp_path) -> None:
    finding = _found(tmp_path, _LISTED + '\n- `"sphinx"`: Sphinx style.\n- `"auto"`: guess.')[
        "CD105", "style"
    ]
    assert "lists `sphinx`" in finding.message


@pytest.mark.parametrize(
    ("items", "lead", "field"),
    [
        # Every value listed, in any case.
        (_LISTED + '\n- `"AUTO"`: guess.', "Possible values:", _FIELD),
        # Not a list of the key's values: too few of them are the code's.
        ('- `"google"`: a.\n- `"x"`: b.\n- `"y"`: c.', "Possible values:", _FIELD),
        # No lead that announces the values.
        (_LISTED, "For example:", _FIELD),
        # The code allows any string.
        (_LISTED, "Possible values:", "style: str | None = None"),
    ],
)
def test_no_mismatch(tmp_path, items, lead, field) -> None:
    assert ("CD105", "style") not in _found(tmp_path, items, lead, field)


@pytest.mark.parametrize(
    ("items", "choices"),
    [
        (_LISTED, ("google", "numpy", "None")),
        ("- `a`: one.\n- `b`: two.", ("a", "b")),
        # An item that starts with words, or one value alone: no list of values.
        ("- `a`: one.\n- the other: two.", None),
        ("- `a`: one.", None),
        # A nested list.
        ("- `a`: one.\n  - `x`: inner.\n- `b`: two.", None),
    ],
)
def test_the_listed_values(items: str, choices) -> None:
    facts = extract_markdown(_PAGE.format(lead="One of:", items=items).encode())
    (entry,) = [e for e in facts.entries if e.name == "style"]
    assert entry.choices == choices
