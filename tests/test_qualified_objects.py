"""A model whose instance the package exports under a dotted name that the
docs write its fields on (``nox.options.envdir``) is a configuration, set
as that object's attributes; a misspelt attribute the docs write is CD101
where the class has slots, else CD102."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_OPTIONS = """import attrs


@attrs.define
class ShopOptions:
    color: str = "red"
    size: int = 1
    envdir: str = ".shop"
    sessions: list = []
    tags: list = []
    verbose: bool = False


options = ShopOptions()
"""

_PAGE = """# Options

Set them in your shopfile:

- `shop.options.color` is the colour.
- `shop.options.size` is the size.
- `shop.options.envdir` is where environments go.
- `shop.options.sessions` are the sessions to run.
- `shop.options.tags` select sessions.
- `shop.options.verbose` prints more.

Older shopfiles set `shop.options.colour`.
"""


def _found(tmp_path, options: str = _OPTIONS, page: str = _PAGE) -> dict:
    files = {
        "shop/__init__.py": "from shop.settings import options\n",
        "shop/settings.py": options,
        "docs/options.md": page,
    }
    _, findings = check_project(tmp_path, files, "shop")
    return by_key(findings)


def test_a_misspelt_attribute_of_a_slotted_options_object(tmp_path) -> None:
    finding = _found(tmp_path)["CD101", "shop.options.colour"]
    assert "AttributeError" in finding.message
    assert finding.suggestion == "did you mean `shop.options.color`?"


def test_a_dataclass_with_slots_refuses_it_too(tmp_path) -> None:
    options = _OPTIONS.replace("import attrs", "from dataclasses import dataclass").replace(
        "@attrs.define", "@dataclass(slots=True)"
    )
    assert ("CD101", "shop.options.colour") in _found(tmp_path, options)
    plain = options.replace("@dataclass(slots=True)", "@dataclass")
    assert ("CD102", "shop.options.colour") in _found(tmp_path, plain)


def test_a_class_without_slots_takes_the_attribute_and_nothing_reads_it(tmp_path) -> None:
    options = _OPTIONS.replace("@attrs.define", "@attrs.define(slots=False)")
    found = _found(tmp_path, options)
    assert ("CD101", "shop.options.colour") not in found
    assert ("CD102", "shop.options.colour") in found


@pytest.mark.parametrize(
    ("options", "page"),
    [
        # Fewer than five attributes written on it.
        (_OPTIONS, "\n".join(_PAGE.splitlines()[:6]) + "\n\nOlder set `shop.options.colour`.\n"),
        # Not an instance made once with no arguments: an object built from values.
        (_OPTIONS.replace("ShopOptions()", 'ShopOptions(color="blue")'), _PAGE),
        # A dict or a number, not a model's instance.
        (_OPTIONS.replace("options = ShopOptions()", 'options = {"color": "red"}'), _PAGE),
        (_OPTIONS.replace("options = ShopOptions()", "options = 5"), _PAGE),
        # Written on another project's object.
        (_OPTIONS, _PAGE.replace("`shop.options.", "`other.options.")),
        # What the pages write on it is mostly not its fields.
        (
            _OPTIONS,
            _PAGE + "".join(f"- `shop.options.other{i}` is another.\n" for i in range(4)),
        ),
    ],
)
def test_no_configuration_without_the_docs_evidence_and_an_instance(
    tmp_path, options, page
) -> None:
    found = _found(tmp_path, options, page)
    assert not [key for code, key in found if code in ("CD101", "CD102")]
