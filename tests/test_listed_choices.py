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


_C, _T = (lambda t: (True, t)), (lambda t: (False, t))


@pytest.mark.parametrize(
    ("pieces", "values"),
    [
        (
            [
                _T("The valid values are "),
                _C("'debug'"),
                _T(", "),
                _C("'info'"),
                _T(", and "),
                _C("'error'"),
                _T("."),
            ],
            ("debug", "info", "error"),
        ),
        (
            [_T("Must be one of "), _C("HYBRID"), _T(" or "), _C("E4M3"), _T(". (Often")],
            ("HYBRID", "E4M3"),
        ),
        ([_T("One of "), _C("a"), _T(",\n  "), _C("b"), _T(" / "), _C("c")], ("a", "b", "c")),
        # Keys, not values; a list that goes on in words; one value alone;
        # no lead; values apart.
        ([_T("at least one of "), _C("a"), _T(" or "), _C("b")], None),
        ([_T("one of "), _C("a"), _T(", "), _C("b"), _T(", or a path")], None),
        ([_T("one of "), _C("a"), _T(", "), _C("b"), _T(", etc.")], None),
        ([_T("Possible values: "), _C("a"), _T(".")], None),
        ([_T("Set "), _C("a"), _T(" or "), _C("b")], None),
        ([_T("one of "), _C("a"), _T(" then "), _C("b")], None),
    ],
)
def test_values_listed_in_a_paragraph(pieces, values) -> None:
    from configdrift.extract.docs.entry_text import listed_values

    assert listed_values(pieces) == values


def test_a_markdown_entry_lists_its_values_inline(tmp_path) -> None:
    facts = extract_markdown(
        b"# Options\n\n- `style`: the style, one of `google`, `numpy` or `None`.\n"
        b"- `alpha`: the first letter.\n"
    )
    (entry,) = [e for e in facts.entries if e.name == "style"]
    assert entry.choices == ("google", "numpy", "None")


_RST = """Options
=======

style
-----

The style of the docstrings. {text}

alpha
-----

The first letter. Defaults to ``1``.
"""


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Possible values are ``google``, ``numpy`` and ``None``.", ("google", "numpy", "None")),
        ("Possible values:\n\n* ``google``: Google's.\n* ``numpy``: Numpy's.", ("google", "numpy")),
        ("Possible values:\n\n* ``google``: Google's.\n* the others.", None),
        ("Possible values:\n\n* ``google``: a.\n\n  * ``x``: inner.\n\n* ``numpy``: b.", None),
        ("Set ``google`` or ``numpy``.", None),
    ],
)
def test_a_restructuredtext_entry_lists_its_values(text, values) -> None:
    from configdrift.extract.docs.rst import extract_rst

    facts = extract_rst(_RST.format(text=text).encode())
    (entry,) = [e for e in facts.entries if e.name == "style"]
    assert entry.choices == values


def test_a_restructuredtext_list_of_values_against_the_code(tmp_path) -> None:
    files = {
        **mounted_config("alpha: int = 1", _FIELD),
        "docs/config.rst": _RST.format(text="One of ``google``, ``numpy`` or ``None``."),
    }
    files["pkg/config.py"] = "from typing import Annotated, Literal\n\n" + files["pkg/config.py"]
    _, findings = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    finding = by_key(findings)["CD105", "style"]
    assert "without `auto`" in finding.message
    assert finding.location.path == "docs/config.rst"


@pytest.mark.parametrize(
    ("alias", "field", "choices"),
    [
        # A type alias of values: its choices.
        (
            'Style = Literal["auto", "google", "numpy"]',
            "style: Style | None = None",
            ("auto", "google", "numpy", None),
        ),
        (
            'Style = Literal["auto"] | Literal["google", "numpy"]',
            "style: Style = 'auto'",
            ("auto", "google", "numpy"),
        ),
        # A constant that is no type, or an alias of other types: none.
        ('Style = {"a": 1}["a"]', "style: Style = 'auto'", None),
        ("Style = int | str", "style: Style = 'auto'", None),
    ],
)
def test_a_type_alias_of_values_gives_its_choices(tmp_path, alias, field, choices) -> None:
    files = mounted_config("alpha: int = 1", field)
    files["pkg/config.py"] = files["pkg/config.py"].replace(
        "from pydantic import BaseModel, ConfigDict\n",
        f"from typing import Literal\n\nfrom pydantic import BaseModel, ConfigDict\n\n{alias}\n",
    )
    analysis, _ = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    node = analysis.schema.children["style"]
    assert node.type.choices == choices
    if choices is not None:
        assert node.type.kinds == ({"str", "null"} if None in choices else {"str"})


def test_an_alias_of_models_is_not_followed(tmp_path) -> None:
    """``Q = A | B``: a union of two models is no one model to hold the
    key's keys (they may be either's, or another library's)."""
    files = mounted_config("alpha: int = 1", "q: Q | None = None")
    files["pkg/config.py"] = files["pkg/config.py"].replace(
        "from pydantic import BaseModel, ConfigDict\n",
        "from pydantic import BaseModel, ConfigDict\n\n\nclass A(BaseModel):\n    a: int = 1\n\n\n"
        "class B(BaseModel):\n    b: int = 1\n\n\nQ = A | B\n",
    )
    analysis, _ = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    node = analysis.schema.children["q"]
    assert not node.children and node.model is None


def test_an_entry_typed_by_a_literal_lists_its_values(tmp_path) -> None:
    page = (
        "# Options\n\n- `alpha` (int): the first letter.\n- `beta` (int): the second.\n"
        "- `gamma` (bool): the third.\n\n- **style**: typing.Literal['google', 'numpy']\n\n"
        "    The style.\n"
    )
    fields = ("alpha: int = 1", "beta: int = 2", "gamma: bool = False", _FIELD)
    files = {**mounted_config(*fields), "docs/config.md": page}
    files["pkg/config.py"] = "from typing import Annotated, Literal\n\n" + files["pkg/config.py"]
    _, findings = check_project(tmp_path, files, "pkg", mount={"": "pkg.config:Config"})
    finding = by_key(findings)["CD105", "style"]
    assert "without `auto`" in finding.message
    assert finding.location.line == 7


@pytest.mark.parametrize(
    ("rest", "choices"),
    [
        (": typing.Literal['a', 'b']", ("a", "b")),
        (": Literal[1, None]", ("1", "None")),
        (": Literal[a, b]", None),  # names, not values
        (": typing.Optional[Literal['a']]", None),
        (": the style, Literal['a'] or None", None),
        (": str", None),
    ],
)
def test_the_values_of_a_literal_type(rest: str, choices) -> None:
    page = f"# Options\n\n- **style**{rest}\n\n    The style.\n"
    entry = extract_markdown(page.encode()).entries[0]
    assert (entry.name, entry.choices) == ("style", choices)
