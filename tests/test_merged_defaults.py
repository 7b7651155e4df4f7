"""CD106 for defaults written a second time where the code merges what
it is given over them (``self.config = {...}`` then
``self.config.update(kwargs)``), against the configuration's declared
defaults. Never for a dict that shares fewer than three of the surface's
keys or fewer than half of its own, one that is not updated, nor a value
that says the same (``None``, both falsy, a string against another type)."""

from __future__ import annotations

from configdrift.extract.python.extractor import extract_source
from helpers import by_key, check_project

_CONFIG = """
def get_default_config():
    return {"editor": "", "encrypt": False, "wrap": 79, "dateformat": "%F", "hour": 9}
"""

_PAGE = """# Configuration

### `editor`

The editor.

### `encrypt`

Whether to encrypt.

### `wrap`

Where to wrap.

### `dateformat`

How to write dates.

### `hour`

When.
"""

_MERGED = """
class Notebook:
    def __init__(self, **kwargs):
        self.config = {
            "encrypt": False,
            "wrap": WRAP,
            "dateformat": "%F",
            "hour": 9,
        }
        self.config.update(kwargs)
"""


def _found(tmp_path, merged: str) -> dict:
    files = {"nb/config.py": _CONFIG, "nb/notebook.py": merged, "docs/config.md": _PAGE}
    _, findings = check_project(tmp_path, files, "nb")
    return by_key(findings)


def test_defaults_merged_under_given_values_against_the_declared_ones(tmp_path) -> None:
    found = _found(tmp_path, _MERGED.replace("WRAP", "80"))
    finding = found[("CD106", "wrap")]
    assert (finding.location.path, finding.location.line) == ("nb/notebook.py", 6)
    assert "defaults to 80 in `Notebook.__init__`" in finding.message
    assert "declared with the default 79" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("nb/config.py", 3)
    assert not [key for code, key in found if code == "CD106" and key != "wrap"]


def test_values_that_say_the_same_are_not_reported(tmp_path) -> None:
    for number, value in enumerate(("79", "None", '"80"')):
        found = _found(tmp_path / str(number), _MERGED.replace("WRAP", value))
        assert ("CD106", "wrap") not in found, value
    # Both falsy: unset alike to a truth test.
    falsy = _MERGED.replace("WRAP", "79").replace('"encrypt": False', '"encrypt": 0')
    assert ("CD106", "encrypt") not in _found(tmp_path / "falsy", falsy)


def test_a_dict_not_merged_or_of_other_keys_is_not_the_configuration_s(tmp_path) -> None:
    merged = _MERGED.replace("WRAP", "80")
    # Not updated with what the function is given: a dict of its own.
    plain = merged.replace("        self.config.update(kwargs)\n", "")
    assert ("CD106", "wrap") not in _found(tmp_path / "plain", plain)
    cleared = merged.replace("self.config.update(kwargs)", "self.config.clear()")
    assert ("CD106", "wrap") not in _found(tmp_path / "cleared", cleared)
    # Two keys of the configuration's: another dict's keys by chance.
    few = merged.replace('            "dateformat": "%F",\n            "hour": 9,\n', "")
    assert ("CD106", "wrap") not in _found(tmp_path / "few", few)
    # Three of its keys among many others: another dict's.
    others = "".join(f'            "other_{i}": {i},\n' for i in range(5))
    many = merged.replace('            "hour": 9,\n', '            "hour": 9,\n' + others)
    assert ("CD106", "wrap") not in _found(tmp_path / "many", many)


def test_a_dict_updated_twice_is_one_table_of_defaults() -> None:
    source = _MERGED.replace("WRAP", "80") + "        self.config.update(more)\n"
    facts = extract_source(source)
    assert [(function, lines["wrap"]) for function, _, lines in facts.merged_defaults] == [
        ("Notebook.__init__", 6)
    ]


def test_a_key_a_constant_names_is_told_at_the_dict(tmp_path) -> None:
    merged = 'WRAP = "wrap"\n' + _MERGED.replace('"wrap": WRAP', "WRAP: 80")
    finding = _found(tmp_path, merged)[("CD106", "wrap")]
    assert (finding.location.path, finding.location.line) == ("nb/notebook.py", 6)
