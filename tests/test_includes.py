"""The pages that render a file by including it (place/includes): a
directive that names the file, never a label, a comment or a role in
prose; and the lines of the file the include shows."""

from __future__ import annotations

import pytest
from test_data_files import _READS, _files

from configdrift.place.includes import SNIPPET, code_shown, file_includes, shown_lines
from helpers import by_key, check_project

_FILE = "a: 1\nb: 2\n# -- start --8<-- [start:part]\nc: 3\nd: 4\n# -- end --8<-- [end:part]\ne: 5\n"


@pytest.mark.parametrize(
    ("page", "line", "options"),
    [
        (".. literalinclude:: ../pkg/pkg.yaml\n   :language: yaml\n", 1, {"language": "yaml"}),
        ("Text.\n\n.. x-config::\n   :config: ../pkg/pkg.yaml\n", 3, {"config": "../pkg/pkg.yaml"}),
        ("```{literalinclude} ../pkg/pkg.yaml\n:lines: 1-2\n```\n", 1, {"lines": "1-2"}),
        ("::::{include} ../pkg/pkg.yaml\n::::\n", 1, {}),
        # Named, not included: a role in prose, a label, a comment, a title.
        (":file:`pkg/pkg.yaml` holds the defaults.\n", None, None),
        (".. _pkg.yaml:\n\nThe file\n", None, None),
        (".. pkg.yaml is read at start\n", None, None),
        ("pkg.yaml\n========\n", None, None),
        # An option of another directive, after a blank line; a role that
        # opens the directive's first line of text.
        (".. note::\n\n   :file: pkg.yaml\n", None, None),
        (".. note::\n   :file:`pkg.yaml` holds them.\n", None, None),
        # A MkDocs snippet, whole or in part; a snippet of another file.
        ('```yaml\n--8<-- "pkg/pkg.yaml"\n```\n', 2, {SNIPPET: ""}),
        ("--8<-- 'pkg/pkg.yaml:defaults'\n", 1, {SNIPPET: "defaults"}),
        ('--8<-- "pkg/other.yaml"\n', None, None),
    ],
)
def test_the_directives_that_include_a_file(tmp_path, page, line, options) -> None:
    (tmp_path / "page.rst").write_text(page)
    found = file_includes(tmp_path, ["page.rst"], "pkg.yaml")
    if line is None:
        assert found == []
    else:
        (include,) = found
        assert (include.location.line, include.options) == (line, options)


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({}, None),
        ({"language": "yaml"}, None),
        ({"lines": "1-2"}, {1, 2}),
        ({"lines": "1,6-"}, {1, 6, 7}),
        ({"start-after": "-- start", "end-before": "-- end"}, {4, 5}),
        ({"start-at": "-- start", "end-at": "-- end"}, {3, 4, 5, 6}),
        ({"start-after": "-- start", "lines": "2-"}, {5, 6, 7}),
        ({"start-line": "1", "end-line": "3"}, {2, 3}),
        # A snippet: whole, a range, to the end, a section, a section the
        # file lacks.
        ({SNIPPET: ""}, None),
        ({SNIPPET: "2:3"}, {2, 3}),
        ({SNIPPET: "6"}, {6, 7}),
        ({SNIPPET: "part"}, {4, 5}),
        ({SNIPPET: "gone"}, set()),
        # A selection that cannot be read: the whole file, as before.
        ({"start-after": "no such text"}, None),
        ({"lines": "one-two"}, None),
    ],
)
def test_the_lines_an_include_shows(options, shown) -> None:
    assert shown_lines(_FILE, options) == shown


def _undocumented(tmp_path, page: str) -> set[str]:
    files = {**_files(**{"docs/reference.rst": page}), "pkg/use.py": _READS}
    _, findings = check_project(tmp_path, files, "pkg")
    return {key for code, key in by_key(findings) if code == "CD103"}


_ALL = {"temporary-directory", "tokenize", "array", "dataframe"}


def test_a_file_included_whole_documents_its_keys(tmp_path) -> None:
    page = "Reference\n=========\n\n.. literalinclude:: ../pkg/pkg.yaml\n"
    assert _undocumented(tmp_path, page) == set()


def test_a_role_that_names_the_file_renders_nothing(tmp_path) -> None:
    page = "Reference\n=========\n\nThe defaults are in\n:file:`pkg/pkg.yaml`, read at start.\n"
    assert _undocumented(tmp_path, page) == _ALL


def test_a_part_of_the_file_documents_the_keys_written_there(tmp_path) -> None:
    page = "Reference\n=========\n\n.. literalinclude:: ../pkg/pkg.yaml\n   :lines: 1-3\n"
    # Lines 1-3 hold ``temporary-directory`` and ``tokenize``.
    assert _undocumented(tmp_path, page) == {"array", "dataframe"}


def test_a_page_that_includes_the_whole_file_documents_every_key(tmp_path) -> None:
    files = {
        **_files(
            **{
                "docs/part.rst": "Part\n====\n\n.. literalinclude:: ../pkg/pkg.yaml\n   :lines: 1-3\n",
                "docs/whole.rst": "Whole\n=====\n\n.. literalinclude:: ../pkg/pkg.yaml\n",
            }
        ),
        "pkg/use.py": _READS,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if f.code == "CD103"]


_ENVS = """
import os

USER = os.getenv("SHOP_USER", "me")
NAME = os.getenv("SHOP_NAME", "shop")
ROOT = os.getenv("SHOP_ROOT", "/srv")

def _port():
    return int(os.getenv("SHOP_PORT", "80"))


def _host():
    return os.getenv("SHOP_HOST", "localhost")


def _debug():
    return os.getenv("SHOP_DEBUG", "0") == "1"


# --8<-- [start:variables]
variables = {
    "SHOP_PORT": _port,
    "SHOP_HOST": _host,
}
# --8<-- [end:variables]
"""

_ENV_PAGE = """# Environment

The shop reads these variables:

```python
--8<-- "shop/envs.py:variables"
```

And these:

- `SHOP_USER`: who runs the shop.
- `SHOP_NAME`: its name.
- `SHOP_ROOT`: where it keeps its files.
"""


def _env_undocumented(tmp_path, page: str) -> set[str]:
    files = {"shop/envs.py": _ENVS, "docs/env.md": page}
    _, findings = check_project(tmp_path, files, "shop")
    return {key for code, key in by_key(findings) if code == "CD103"}


def test_a_snippet_of_the_code_documents_the_keys_it_shows(tmp_path) -> None:
    # The section shows ``SHOP_PORT`` and ``SHOP_HOST``, not ``SHOP_DEBUG``.
    assert _env_undocumented(tmp_path, _ENV_PAGE) == {"SHOP_DEBUG"}


def test_a_snippet_of_another_section_shows_nothing_of_it(tmp_path) -> None:
    page = _ENV_PAGE.replace("shop/envs.py:variables", "shop/envs.py:gone")
    assert _env_undocumented(tmp_path, page) == {"SHOP_PORT", "SHOP_HOST", "SHOP_DEBUG"}


def test_a_path_two_files_answer_to_is_no_include(tmp_path) -> None:
    for rel in ("a/envs.py", "b/envs.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("X = 1\n")
    (tmp_path / "page.md").write_text('--8<-- "envs.py"\n--8<-- "a/envs.py:1:1"\n')
    shown = code_shown(tmp_path, ["page.md"], ["a/envs.py", "b/envs.py"])
    assert {rel: lines for rel, (lines, _) in shown.items()} == {"a/envs.py": {1}}
