"""A Sphinx project whose ``conf.py`` names ``.txt`` as a source suffix
(``source_suffix = ".txt"``, Django's docs and its apps') writes its
pages in reStructuredText with that suffix: they are doc pages. No other
``.txt`` file is one, and the ``conf.py`` is read as text, never run."""

from __future__ import annotations

from configdrift.config import Config
from configdrift.discover import discover
from helpers import by_key, check_project, make_project

_CODE = (
    "from django.conf import settings\n\n\n"
    "def config():\n"
    "    return (\n"
    + "".join(
        f"        getattr(settings, 'SHOP_{name}', {i}),\n"
        for i, name in enumerate(("NAME", "CURRENCY", "TAX", "DEBUG_TOOLBAR", "VERBOSE"))
    )
    + "    )\n"
)

_PAGE = "Settings\n========\n\n" + "".join(
    f".. attribute:: SHOP_{name}\n\n    :default: ``{i}``\n\n    A setting.\n\n"
    for i, name in enumerate(("NAME", "CURRENCY", "TAX", "DEBUG_TOOLBAR"))
)


def _files(conf: str) -> dict[str, str]:
    return {
        "shop/conf.py": _CODE,
        "docs/conf.py": conf,
        "docs/settings.txt": _PAGE,
        "requirements.txt": "django\n",
        "notes/todo.txt": _PAGE,
    }


def test_txt_pages_of_a_sphinx_project_that_says_so_are_read(tmp_path) -> None:
    conf = "project = 'shop'\nsource_suffix = {\n    '.txt': 'restructuredtext',\n}\n"
    root = make_project(tmp_path, {"shop/__init__.py": "", **_files(conf)})
    assert discover(Config(root=root)).docs == ["docs/settings.txt"]
    _, findings = check_project(tmp_path, _files(conf), "shop")
    assert ("CD103", "SHOP_VERBOSE") in by_key(findings)


def test_txt_files_are_no_pages_unless_the_conf_py_says_so(tmp_path) -> None:
    for conf in (
        "source_suffix = '.rst'\n",
        "# source_suffix = '.txt'\nsource_suffix = '.rst'\n",
        "extensions = []  # the pages are .txt files\n",
        "source_suffix = '.rst'  # not '.txt'\n",
        "source_suffix = '.rst'\nhtml_extra_suffixes = ['.txt']\n",
    ):
        root = make_project(tmp_path / str(hash(conf)), {**_files(conf)})
        assert discover(Config(root=root)).docs == [], conf
