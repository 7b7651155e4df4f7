"""A fragment a reStructuredText page includes (``.. include::
usage/environment.rst.inc``, ``.. include:: includes/settingref.txt``) is
rendered into that page: it is a doc page too, read as reStructuredText,
and so are the fragments it includes in turn, a few deep. A fragment no
page includes, one named by a ``literalinclude`` or shown as it is
(``:literal:``), one whose path leaves the tree or is absolute, and a
history (``CHANGES.txt``) are no pages."""

from __future__ import annotations

from configdrift.config import Config
from configdrift.discover import discover
from configdrift.sphinx_sources import MAX_INCLUDE_DEPTH
from helpers import SMALL_CLI, by_key, check_project, make_project

_CODE = (
    SMALL_CLI
    + """

import os


def dirs():
    return os.environ.get("SHOP_CACHE_DIR"), os.environ.get("SHOP_CONFIG_DIR")
"""
)

_FILES = {
    "shop/cli.py": _CODE,
    "docs/usage.rst": "Usage\n=====\n\nRun ``shop --port 80 --host :: --debug``.\n\n"
    ".. include:: usage/general.rst.inc\n",
    "docs/usage/general.rst.inc": ".. include:: environment.rst.inc\n",
    "docs/usage/environment.rst.inc": "Environment\n-----------\n\n"
    "SHOP_CACHE_DIR\n    Where the cache lives.\n\nSHOP_CONFIG_DIR\n    Where the config lives.\n",
    "docs/usage/orphan.rst.inc": "SHOP_ORPHAN\n    Nobody includes this.\n",
}


def _docs(tmp_path, files: dict[str, str]) -> list[str]:
    root = make_project(tmp_path, {"shop/__init__.py": "", **files})
    return discover(Config(root=root)).docs


def test_a_fragment_a_page_includes_is_a_page_and_so_are_its_own(tmp_path) -> None:
    assert _docs(tmp_path, _FILES) == [
        "docs/usage.rst",
        "docs/usage/general.rst.inc",
        "docs/usage/environment.rst.inc",
    ]


def test_a_fragment_is_read_as_restructured_text(tmp_path) -> None:
    # Its definition list documents the variables: none is undocumented.
    page = _FILES["docs/usage.rst"] + "\nSet ``SHOP_CACHE_DIR`` to move the cache.\n"
    _, findings = check_project(tmp_path, {**_FILES, "docs/usage.rst": page}, "shop")
    assert ("CD103", "SHOP_CONFIG_DIR") not in by_key(findings)
    unincluded = page.replace(".. include:: usage/general.rst.inc\n", "")
    _, without = check_project(
        tmp_path / "without", {**_FILES, "docs/usage.rst": unincluded}, "shop"
    )
    assert ("CD103", "SHOP_CONFIG_DIR") in by_key(without)


def test_what_is_not_an_include_of_a_fragment_in_the_tree_is_not_followed(tmp_path) -> None:
    for i, line in enumerate(
        (
            ".. literalinclude:: usage/orphan.rst.inc",
            ".. include:: /usage/orphan.rst.inc",
            ".. include:: ../../docs/usage/orphan.rst.inc",
            ".. include:: usage/missing.rst.inc",
            "   .. include:: usage/orphan.rst.inc :literal:",
            ".. include:: usage/orphan.rst.inc\n   :start-line: 2\n   :literal:",
            ".. include:: usage/orphan.rst.inc\n   :code: rst",
        )
    ):
        files = {**_FILES, "docs/usage.rst": f"Usage\n=====\n\n{line}\n"}
        assert _docs(tmp_path / str(i), files) == ["docs/usage.rst"], line


def test_a_page_written_with_crlf_line_ends_includes_as_well(tmp_path) -> None:
    files = {
        **_FILES,
        "docs/usage.rst": "Usage\r\n=====\r\n\r\n.. include:: usage/orphan.rst.inc\r\n"
        ".. include:: usage/general.rst.inc\r\n   :literal:\r\n",
    }
    assert _docs(tmp_path, files) == ["docs/usage.rst", "docs/usage/orphan.rst.inc"]


def test_fragments_are_followed_a_few_includes_deep(tmp_path) -> None:
    chain = {
        f"docs/f{i}.rst.inc": f".. include:: f{i + 1}.rst.inc\n"
        for i in range(MAX_INCLUDE_DEPTH + 2)
    }
    files = {"docs/index.rst": ".. include:: f0.rst.inc\n", **chain}
    docs = _docs(tmp_path, files)
    assert docs == ["docs/index.rst", *(f"docs/f{i}.rst.inc" for i in range(MAX_INCLUDE_DEPTH))]


def test_a_fragment_included_twice_or_in_a_cycle_is_one_page(tmp_path) -> None:
    files = {
        "docs/a.rst": ".. include:: x.rst.inc\n\n.. include:: x.rst.inc\n",
        "docs/b.rst": ".. include:: x.rst.inc\n",
        "docs/x.rst.inc": ".. include:: y.rst.inc\n",
        "docs/y.rst.inc": ".. include:: x.rst.inc\n",
    }
    assert _docs(tmp_path, files) == [
        "docs/a.rst",
        "docs/b.rst",
        "docs/x.rst.inc",
        "docs/y.rst.inc",
    ]


def test_a_text_fragment_is_one_too_but_a_history(tmp_path) -> None:
    files = {
        "docs/settings.rst": ".. include:: includes/settingref.txt\n   :start-line: 1\n\n"
        ".. include:: ../CHANGES.txt\n",
        "docs/includes/settingref.txt": "``port``\n--------\n\n:default: ``8000``\n",
        "CHANGES.txt": "1.0\n---\n\n- ``port`` added.\n",
    }
    assert _docs(tmp_path, files) == ["docs/settings.rst", "docs/includes/settingref.txt"]
