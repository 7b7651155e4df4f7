"""A table of defaults a module-level function returns (``def
get_default_config(): return {...}``): a table as a module's dict is. Beside
it, a function that returns one of its sections is no second table of the
same keys; an example in a documented key's own section shows the keys it
sets below that key."""

from __future__ import annotations

from helpers import by_key, check_project

_CONFIG = """
import os


def get_default_config():
    return {
        "journals": {"default": {"journal": "~/journal.txt"}},
        "editor": os.getenv("VISUAL") or "",
        "encrypt": False,
        "linewrap": 79,
        "timeformat": "%F %r",
        "indent_character": "|",
        "colors": {"body": "none", "date": "none", "tags": "none", "title": "none"},
    }


def get_default_colors():
    return {"body": "none", "date": "black", "tags": "yellow", "title": "cyan"}
"""

_PAGE = """# Config file

## Config keys

### journals

Each key below is the name of a journal.

```yaml
journals:
  default:
    journal: ~/journal.txt
```

### editor

The editor to write entries with.

### encrypt

Whether to encrypt the journal. Default: `false`.

### linewrap

Where to wrap. Default: `80`.

### timeformat

How to write dates.

### colors

The colours:

- `body`: of the text.
- `date`: of the dates.
- `tags`: of the tags.
- `title`: of the titles.
"""


def _run(tmp_path, code: str = _CONFIG, page: str = _PAGE):
    return check_project(tmp_path, {"jr/config.py": code, "docs/config.md": page}, "jr")


def test_a_function_that_returns_the_defaults_is_a_table(tmp_path) -> None:
    analysis, findings = _run(tmp_path)
    (table,) = [s for s in analysis.everything if s.surface == "get_default_config"]
    assert table.schema.children["linewrap"].default.value == 79
    found = by_key(findings)
    assert ("CD104", "linewrap") in found
    assert ("CD103", "indent_character") in found
    assert found[("CD103", "indent_character")].location.line == 12


def test_a_method_or_a_function_with_another_return_is_no_table(tmp_path) -> None:
    method = _CONFIG.replace(
        "def get_default_config():", "class C:\n  def get_default_config(self):"
    )
    method = method.replace("\n    ", "\n      ")
    analysis, _ = _run(tmp_path / "method", method)
    assert not [s for s in analysis.everything if s.surface == "get_default_config"]
    branch = _CONFIG.replace(
        "def get_default_config():\n",
        "def get_default_config(empty=False):\n    if empty:\n        return {}\n",
    )
    analysis, _ = _run(tmp_path / "branch", branch)
    assert not [s for s in analysis.everything if s.surface == "get_default_config"]
    # Named for what it builds, not for defaults: a record, not a table.
    record = _CONFIG.replace("get_default_config", "make_entry")
    analysis, _ = _run(tmp_path / "record", record)
    assert not [s for s in analysis.everything if s.surface == "make_entry"]


def test_a_table_of_one_section_s_defaults_leaves_the_whole_table_a_table(tmp_path) -> None:
    # ``get_default_colors()`` holds the keys of ``colors``, at other paths:
    # not two tables of the same keys that no entry could tell apart.
    analysis, _ = _run(tmp_path)
    assert [s.surface for s in analysis.everything if s.surface.startswith("get_")] == [
        "get_default_config"
    ]


def test_an_example_in_a_key_s_section_shows_the_keys_it_sets_below_it(tmp_path) -> None:
    _, findings = _run(tmp_path)
    assert ("CD103", "journals.default") not in by_key(findings)
    # Without the example, the key below is described nowhere.
    page = _PAGE.replace("```yaml\njournals:\n  default:\n    journal: ~/journal.txt\n```\n", "")
    _, findings = _run(tmp_path / "bare", page=page)
    assert ("CD103", "journals.default") in by_key(findings)
    # An example in another key's section shows nothing below this one.
    moved = page.replace(
        "### editor\n", "### editor\n\n```yaml\njournals:\n  default:\n    journal: x\n```\n"
    )
    _, findings = _run(tmp_path / "moved", page=moved)
    assert ("CD103", "journals.default") in by_key(findings)
    # Nor does one in a section of the whole file: an example, not an entry.
    whole = page.replace(
        "## Config keys\n",
        "## Config keys\n\n```yaml\neditor: vi\njournals:\n  default:\n    journal: x\n```\n",
    )
    _, findings = _run(tmp_path / "whole", page=whole)
    assert ("CD103", "journals.default") in by_key(findings)


def test_an_example_beside_entries_below_its_key_shows_no_other_key(tmp_path) -> None:
    # ``archive`` has an entry below ``journals``: the example's
    # ``default`` is left undescribed beside it.
    code = _CONFIG.replace('"journals": {', '"journals": {"archive": "~/old.txt", ')
    page = _PAGE.replace(
        "Each key below is the name of a journal.\n",
        "Each key below is the name of a journal.\n\n- `archive`: where old entries go.\n",
    )
    _, findings = _run(tmp_path, code, page)
    found = by_key(findings)
    assert ("CD103", "journals.default") in found
    assert ("CD103", "journals.archive") not in found
