"""The pages that render a file by including it (place/includes): a
directive that names the file, never a label, a comment or a role in
prose; and the lines of the file the include shows."""

from __future__ import annotations

import pytest
from test_data_files import _READS, _files

from configdrift.place.includes import file_includes, shown_lines
from helpers import by_key, check_project

_FILE = "a: 1\nb: 2\n# -- start\nc: 3\nd: 4\n# -- end\ne: 5\n"


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
