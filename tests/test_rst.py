"""reStructuredText pages, read through docutils without Sphinx: object
directives, literal titles, definition lists, key tables, Default fields and
lines, code blocks; roles and plain words are mentions, not entries."""

from __future__ import annotations

import json
from pathlib import Path

from configdrift.extract.docs.rst import extract_rst
from helpers import by_key, check_project

PAGE = Path(__file__).parent / "fixtures" / "rst_pages" / "settings.rst"


def test_entries_defaults_types_and_blocks() -> None:
    facts = extract_rst(PAGE.read_bytes())
    assert facts.error is None
    entries = [(e.name, e.form, e.default, e.doc_type) for e in facts.entries]
    assert entries == [
        ("timeout", "directive", "``30``", "int"),
        ("retries", "directive", "3", "int"),
        ("DOWNLOAD_DELAY", "directive", "0", None),  # the setting's own section
        ("max_size", "heading", "1024", None),
        ("-o", "directive", None, None),
        ("--output", "directive", None, None),
        ("APP_HOME", "directive", None, None),
        ("colour", "list", "blue", None),
        ("mode", "table", "fast", None),
    ]
    # A role names a key without documenting it; a plain title is a word.
    assert "mention" not in {e.name for e in facts.entries}
    assert [s.heading_key for s in facts.sections] == [
        None,
        None,
        "DOWNLOAD_DELAY",
        "max_size",
        None,
    ]
    ((block),) = facts.blocks
    assert block.lang == "yaml" and [k.path for k in block.keys] == [("timeout",), ("retries",)]


def test_hostile_pages_are_read_or_reported_never_raised() -> None:
    deep = "".join("   " * i + ".. note::\n\n" for i in range(200)) + "   " * 200 + "x\n"
    for data in (
        deep.encode(),
        b"+---+\n| a |\n+--\n",  # a broken grid table
        b".. include:: /etc/passwd\n",  # reads nothing from disk
        b".. raw:: html\n\n   <script>\n",
        b"\xff\xfe not text",
        b"Title\n=====\n\n" + b"word " * 200_000,
    ):
        facts = extract_rst(data)
        assert facts.error is None or isinstance(facts.error, str)
    assert extract_rst(b".. include:: /etc/passwd\n").entries == []


def test_a_confval_page_judges_a_model(tmp_path) -> None:
    code = """
    from pydantic import BaseModel, ConfigDict


    class Autoapi(BaseModel):
        model_config = ConfigDict(extra="forbid")
        dirs: list = []
        root: str = "autoapi"
        keep_files: bool = False
        add_toctree_entry: bool = True


    def load(d):
        return Autoapi(**d.get("autoapi", {}))
    """
    page = (
        "Configuration\n=============\n\n``autoapi``\n-----------\n\n"
        ".. confval:: dirs\n\n   Where to look.\n\n"
        ".. confval:: root\n   :default: ``api``\n\n"
        ".. confval:: keep_files\n   :type: bool\n   :default: ``False``\n\n"
        ".. confval:: template_dir\n\n   Not a field.\n"
    )
    _, findings = check_project(tmp_path, {"app/conf.py": code, "docs/config.rst": page}, "app")
    found = by_key(findings)
    assert ("CD104", "autoapi.root") in found
    assert ("CD101", "autoapi.template_dir") in found
    assert ("CD103", "autoapi.add_toctree_entry") in found
    assert ("CD104", "autoapi.keep_files") not in found


def test_more_rst_forms_and_their_negatives() -> None:
    page = (
        b"Config\n======\n\n"
        b"asyncio_default_fixture_loop_scope\n----------------------------------\n\n"
        b"The scope. Defaults to ``function``.\n\n"
        b"Installation\n------------\n\n"  # a word: not a key
        b"``tox.ini``\n-----------\n\n"  # a file: not a key
        b"* ``--maxprocesses=maxprocesses``: at most this many workers.\n"
        b"- **auto**: fetch automatically. Default: ``yes``.\n"
        b"- see the ``other`` page\n\n"  # a mention: not an entry
        b".. sphinx_argparse_cli::\n   :module: tox.config.cli\n"
    )
    facts = extract_rst(page)
    assert [(e.name, e.default) for e in facts.entries] == [
        ("asyncio_default_fixture_loop_scope", "function"),
        ("--maxprocesses", None),
        ("auto", "yes"),
    ]
    assert [tool for tool, _ in facts.generated] == ["sphinx-argparse-cli"]


def test_a_default_continued_over_lines_is_read_whole_and_an_open_one_not_at_all() -> None:
    page = (
        b".. confval:: ignore\n\n   What to skip.\n\n   Default: ``[``\n   ``'*migrations*']``\n\n"
        b".. confval:: paths\n\n   Default: ``{'a': [1,``\n   ``2]``\n"
    )
    facts = extract_rst(page)
    assert [(e.name, e.default) for e in facts.entries] == [
        ("ignore", "[ '*migrations*']"),
        ("paths", None),
    ]


def test_an_autodoc_page_documents_the_described_fields_only(tmp_path) -> None:
    code = """
    from pydantic import BaseModel, ConfigDict, Field


    class ZeroConfig(BaseModel):
        model_config = ConfigDict(extra="forbid")
        stage: int = 0
        \"\"\"The ZeRO stage.\"\"\"
        bucket: int = Field(500, description="The bucket size.")
        hidden: bool = False


    def load(d):
        return ZeroConfig(**d.get("zero", {}))
    """
    page = (
        "ZeRO\n====\n\n.. autopydantic_model:: app.zero.ZeroConfig\n\n"
        "* ``Kind.a``: one member of an enum.\n* ``Kind.b``: another.\n"
    )
    _, findings = check_project(tmp_path, {"app/zero.py": code, "docs/zero.rst": page}, "app")
    found = by_key(findings)
    assert ("CD103", "zero.hidden") in found
    assert "no description" in found[("CD103", "zero.hidden")].message
    assert ("CD103", "zero.stage") not in found and ("CD103", "zero.bucket") not in found
    # The page's other lists are not entries of the configuration.
    assert not any(key.startswith("Kind") for _, key in found)


_INI_PAGE = b"""Reference
=========

[run]
-----

Settings of the run command.

[run] branch
............

(boolean, default False) Measure branches too.

[run] data_file
...............

(string, default ".data") Where the data goes.

[run] sources
.............

(optional) Say where to look; defaults are fine.

[Notes]
-------

[run] is the section most people need.
"""


def test_configparser_headings_and_typed_lead_ins() -> None:
    """``[run] branch`` underlined is the option ``branch`` of the section
    ``run``; "(boolean, default False)" opening its text gives its type and
    default; "(optional)" is no type, and ``[Notes]`` is no section key."""
    facts = extract_rst(_INI_PAGE)
    assert [(e.parts, e.doc_type, e.default) for e in facts.entries] == [
        (("run",), None, None),
        (("run", "branch"), "boolean", "False"),
        (("run", "data_file"), "string", '".data"'),
        (("run", "sources"), None, None),
        (("Notes",), None, None),
    ]


_TUPLE_TABLE = """
class Config:
    CONFIG_FILE_OPTIONS = (
        ("branch", "run:branch", "boolean"),
        ("data_file", "run:data_file"),
        ("sources", "run:sources", "list"),
        ("_crash", "run:_crash"),
        ("timid", "run:timid", "boolean"),
        ("precision", "report:precision", "int"),
        ("skip_empty", "report:skip_empty", "boolean"),
    )

    def __init__(self):
        self.branch = False
"""

_TUPLE_DOCS = """
Configuration
=============

[run]
-----

[run] branch
............

(boolean, default False) Measure branches.

[run] data_file
...............

(string, default ".data") Where the data goes.

[run] timid
...........

(boolean, default False) Be careful.

[report]
--------

[report] precision
..................

(integer, default 0) Digits after the point.
"""


def test_a_table_of_tuples_naming_section_options_is_a_surface(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"app/config.py": _TUPLE_TABLE, "docs/config.rst": _TUPLE_DOCS}, "app"
    )
    table = next(s for s in analysis.everything if "run" in s.schema.children)
    assert set(table.schema.children) == {"run", "report"}
    assert set(table.schema.children["run"].children) == {"branch", "data_file", "sources", "timid"}
    # Each option points at its own row.
    assert table.schema.children["report"].children["precision"].location.line == 9
    found = {(f.code, f.key) for f in findings}
    assert ("CD103", "run.sources") in found and ("CD103", "report.skip_empty") in found
    assert not [f for f in findings if f.code in ("CD101", "CD102")]
    assert not any(key.endswith("_crash") for _, key in found)
    # A row's other column is the key's section, not its default.
    assert not [f for f in findings if f.code == "CD104"]


def test_tables_of_tuples_not_named_as_options_or_not_documented_are_no_surface(tmp_path) -> None:
    code = """
    CHOICES = (
        ("branch", "run:branch"),
        ("data_file", "run:data_file"),
        ("timid", "run:timid"),
        ("precision", "report:precision"),
        ("skip_empty", "report:skip_empty"),
    )
    PLUGIN_OPTIONS = (
        ("alpha", {"default": 1}),
        ("beta", {"default": 2}),
        ("gamma", {"default": 3}),
        ("delta", {"default": 4}),
        ("epsilon", {"default": 5}),
    )
    """
    analysis, _ = check_project(tmp_path, {"app/t.py": code, "docs/config.rst": _TUPLE_DOCS}, "app")
    assert [s.surface for s in analysis.everything if s.surface != "config"] == []


def test_a_table_of_name_and_spec_tuples_gives_defaults(tmp_path) -> None:
    """pylint-style ``options = (("jobs", {"default": 4, ...}), ...)``."""
    code = """
    class Checker:
        options = (
            ("jobs", {"default": 4, "type": "int"}),
            ("ignore", {"default": ("CVS",), "type": "csv"}),
            ("persistent", {"default": True, "type": "yn"}),
            ("fail_under", {"default": 10, "type": "float"}),
            ("exit_zero", {"action": "store_true"}),
        )
    """
    doc = (
        "Options\n=======\n\n.. confval:: jobs\n\n   Workers. Default: ``2``.\n\n"
        ".. confval:: persistent\n\n   Keep data. Default: ``True``.\n\n"
        ".. confval:: fail_under\n\n   Threshold.\n"
    )
    analysis, findings = check_project(
        tmp_path, {"app/checker.py": code, "docs/options.rst": doc}, "app"
    )
    table = next(s for s in analysis.everything if "jobs" in s.schema.children)
    assert table.schema.children["jobs"].default.value == 4
    assert table.schema.children["exit_zero"].default is None
    found = {(f.code, f.key) for f in findings}
    assert ("CD104", "jobs") in found
    assert ("CD104", "persistent") not in found
    assert ("CD103", "ignore") in found


def test_an_explicit_default_wins_over_prose_and_prose_needs_a_value() -> None:
    page = (
        b"Options\n=======\n\n.. confval:: quality\n\n"
        b"   PIL defaults to 75 when scaling. Default: 0 (disabled)\n\n"
        b".. confval:: directory\n\n   Defaults to a folder called Music.\n\n"
        b".. confval:: fmt\n\n   Defaults to ``short``.\n"
    )
    facts = extract_rst(page)
    assert [(e.name, e.default) for e in facts.entries] == [
        ("quality", "0"),
        ("directory", None),
        ("fmt", "short"),
    ]


def test_documented_defaults_as_written_and_defaults_naming_other_keys(tmp_path) -> None:
    code = """
    from pydantic import BaseModel


    class Config(BaseModel):
        featured: str = "Feat."
        format_item: str = "$artist - $title"
        format_list: str = ""
        retries: int = 3
    """
    doc = (
        "Options\n=======\n\n.. confval:: featured\n   :default: Feat.\n\n   The string.\n\n"
        ".. confval:: format_item\n\n   How items print.\n\n"
        ".. confval:: format_list\n   :default: format_item\n\n   How lists print.\n\n"
        ".. confval:: retries\n   :default: 5\n\n   How often.\n"
    )
    _, findings = check_project(
        tmp_path, {"app/config.py": code, "docs/options.rst": doc}, "app", {"": "app.config:Config"}
    )
    mismatched = {f.key for f in findings if f.code == "CD104"}
    assert mismatched == {"retries"}


def test_roles_pointing_at_keys_that_do_not_exist(tmp_path) -> None:
    """``:confval:`gallery_colums``` (a typo of the project's own key) is a
    dangling reference; ``!name``, another project's keys (``html_theme``,
    ``sphinx:html_theme``) and a key the code accepts are not."""
    code = """
    def setup(app):
        app.add_config_value("gallery_dirs", [], "html")
        app.add_config_value("gallery_columns", 3, "html")
        app.add_config_value("gallery_title", "Gallery", "env")
        app.add_config_value("gallery_backrefs", False, "env")
    """
    page = (
        "Settings\n========\n\n"
        ".. confval:: gallery_dirs\n\n   Where the examples are.\n\n"
        ".. confval:: gallery_columns\n\n   Columns per row.\n\n"
        ".. confval:: gallery_title\n\n   The heading.\n\n"
        "Use :confval:`gallery_colums` with :confval:`html_theme` and\n"
        ":confval:`sphinx:html_static_path`; :confval:`!gallery_legacy` is gone;\n"
        ":confval:`gallery_backrefs` links back; :confval:`the dirs <gallery_dirs>`.\n"
    )
    changelog = "Changes\n=======\n\n* Renamed :confval:`gallery_cols`.\n"
    _, findings = check_project(
        tmp_path,
        {"plug/ext.py": code, "docs/settings.rst": page, "docs/changelog.rst": changelog},
        "plug",
    )
    dangling = [
        (f.key, f.location.path, f.location.line) for f in findings if "referenced" in f.message
    ]
    assert dangling == [("gallery_colums", "docs/settings.rst", 16)]
    assert all(f.code == "CD102" for f in findings if "referenced" in f.message)


def test_a_code_block_s_keys_are_on_their_own_lines() -> None:
    page = (
        'Title\n=====\n\n.. code-block:: json\n   :linenos:\n\n   {\n     "a": 1,\n'
        '     "b": 2\n   }\n\nText.\n\n.. confval:: x\n\n   .. code:: yaml\n\n      c: 3\n'
    )
    blocks = extract_rst(page.encode()).blocks
    got = [(b.lang, [(k.path, k.line) for k in b.keys]) for b in blocks]
    assert got == [
        ("json", [(("a",), 8), (("b",), 9)]),
        ("yaml", [(("c",), 18)]),
    ]


def test_an_option_directive_with_its_value_documents_the_option() -> None:
    from configdrift.extract.docs.rst import extract_rst

    page = (
        b"Options\n=======\n\n.. option:: --exclude=<patterns>\n\n   Skip these.\n\n"
        b".. option:: --jobs[=N]\n\n   Processes.\n\n.. option:: -o FILE, --output FILE\n\n   Out.\n"
    )
    names = [e.name for e in extract_rst(page).entries]
    assert names == ["--exclude", "--jobs", "-o", "--output"]


def test_arguments_in_a_description_are_no_keys() -> None:
    """The terms of a definition list in an entry's body are its values or
    its callable's arguments; a function's parameters are no keys either;
    an option directive's own entry stays."""
    from configdrift.extract.docs.rst import extract_rst

    page = (
        b"Templating\n==========\n\n"
        b".. confval:: html_theme\n\n   The theme.\n\n   ``alabaster``\n      The default.\n\n"
        b".. function:: toctree(**kwargs)\n\n   ``collapse``\n      Fold the tree.\n\n"
        b"``maxdepth``\n   The depth, a key of its own here.\n"
    )
    assert [e.name for e in extract_rst(page).entries] == ["html_theme", "maxdepth"]


def test_a_value_a_list_of_choices_marks_as_the_default_is_the_default() -> None:
    page = (
        "Options\n=======\n\n"
        "``write``\n   Either ``yes`` or ``no`` (default), controlling writes.\n\n"
        "``fallback``\n   Either ``skip`` (default) or ``asis``.\n\n"
        "``aggregate``\n   By vulnerability (default) or by file.\n\n"  # a word
        "``shell``\n   One of ``bash`` (default on Linux) or ``cmd``.\n\n"  # conditional
        "``level``\n   ``low`` (default) or ``high`` (default when verbose).\n"  # two
    )
    facts = extract_rst(page.encode())
    assert [(e.name, e.default) for e in facts.entries] == [
        ("write", "no"),
        ("fallback", "skip"),
        ("aggregate", None),
        ("shell", None),
        ("level", None),
    ]


def test_a_literal_titled_heading_is_an_entry_with_its_prose_default() -> None:
    page = (
        "Options\n=======\n\n"
        "``worker_timeout``: Worker timeout\n----------------------------------\n\n"
        "How long a worker may be silent. This is set to ``30`` by default.\n\n"
        "``retries`` - Retries\n---------------------\n\n"
        "How often to retry. Defaults to ``3`` on Windows.\n\n"  # conditional
        "Using ``cache`` with care\n-------------------------\n\n"  # prose, no key
        "Text. Defaults to ``4``.\n\n"
        "``first`` and ``second``\n------------------------\n\n"  # two literals
        "Text.\n\n"
        ":mod:`pkg.ext` -- An extension\n------------------------------\n\n"  # a module
        "Text.\n\n"
        "``server_class``: Server\n------------------------\n\n"
        "The server. It defaults\nto ``a.Server``, except when OIDC is on, when the\n"
        "default is ``b.Server``.\n"  # two defaults, each in its own case
    )
    facts = extract_rst(page.encode())
    assert [(e.name, e.form, e.default) for e in facts.entries] == [
        ("worker_timeout", "heading", "30"),
        ("retries", "heading", None),
        ("server_class", "heading", None),
    ]


def test_a_heading_that_names_a_script_library_is_no_key() -> None:
    # ``MicroModal.js`` over the options passed to it: they sit at the top.
    page = (
        "Settings\n========\n\n"
        "MicroModal.js\n-------------\n\n"
        "These settings have effect in modal dialogues.\n\n"
        ".. confval:: app_modal_class\n\n   Default: ``modal``\n\n"
        "site.url\n--------\n\nThe site's address.\n\nDefault: ``/``\n"
    )
    facts = extract_rst(page.encode())
    assert [s.heading_key for s in facts.sections] == [None, None, None, "site.url"]
    assert [(e.name, e.form) for e in facts.entries] == [
        ("app_modal_class", "directive"),
        ("site.url", "heading"),
    ]


def test_a_bullet_naming_a_key_in_prose_is_a_mention() -> None:
    page = (
        "Options\n=======\n\n"
        "* ``tool.options.timeout`` is equivalent to ``--timeout``.\n"
        "* ``max_retries`` - how often to retry.\n"
        "* ``pip install`` installs it.\n"
        "* :mod:`pkg.settings` holds them.\n"
    )
    facts = extract_rst(page.encode())
    assert [(e.name, e.form) for e in facts.entries] == [
        ("tool.options.timeout", "mention"),
        ("max_retries", "list"),
    ]


_PARSER = """
import argparse


def main():
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("-v", "--verbose", action="store_true", help="say more")
    parser.add_argument("-o", "--output", help="where to write")
    parser.add_argument("-r", "--recursive", action="store_true", help="walk folders")
    parser.add_argument("--jobs", type=int, default=1, help="workers")
    args = parser.parse_args()
    print(args.verbose, args.output, args.recursive, args.jobs)
"""


def test_an_option_list_documents_a_commands_flags(tmp_path) -> None:
    page = (
        "tool\n====\n\nOPTIONS\n-------\n\n"
        "  -v, --verbose         say more\n"
        "  -o FILE, --output FILE\n"
        "                        where to write\n"
        "  -r, --recursive       walk folders\n"
        "  --gone                removed long ago\n"
    )
    facts = extract_rst(page.encode())
    assert [(e.name, e.line) for e in facts.entries if e.form == "help"] == [
        ("-v", 7),
        ("--verbose", 7),
        ("-o", 8),
        ("--output", 8),
        ("-r", 10),
        ("--recursive", 10),
        ("--gone", 11),
    ]
    _, findings = check_project(
        tmp_path / "a", {"app/cli.py": _PARSER, "docs/tool.rst": page}, "app"
    )
    assert {(f.code, f.key) for f in findings} == {("CD101", "--gone"), ("CD103", "--jobs")}
    # Another program's options on a page of its own are not this parser's.
    other = "pip\n===\n\n  --upgrade      upgrade\n  --user         per user\n  --pre          pre-releases\n"
    _, findings = check_project(
        tmp_path / "b", {"app/cli.py": _PARSER, "docs/pip.rst": other}, "app"
    )
    assert not any(f.code in ("CD101", "CD102") for f in findings)


def test_a_directive_another_library_registered_is_read_as_generic(cli, tmp_path, monkeypatch):
    """Inside a docs build, Sphinx (or another extension) may have
    registered ``toctree`` with docutils: a directive that needs its own
    environment. A page read there reads as everywhere, not as a CD503."""
    from docutils.parsers.rst import Directive, directives

    from helpers import make_project, mounted_config

    class NeedsAnEnvironment(Directive):
        has_content = True

        def run(self):
            return self.state.document.settings.env.found_docs  # AttributeError here

    page = (
        "Config\n======\n\n.. toctree::\n   :maxdepth: 2\n\n   other\n\n"
        "``alpha``\n   The a. Default: ``1``\n\n``omega``\n   Gone.\n"
    )
    files = {**mounted_config(), "docs/config.rst": page}
    files["configdrift.toml"] = 'docs = ["docs/config.rst"]\n' + files["configdrift.toml"]
    root = make_project(tmp_path, files)

    def found() -> set[tuple[str, str, int]]:
        result = cli("check", str(root), "--no-cache", "--format", "json")
        return {(f["code"], f["key"], f["line"]) for f in json.loads(result.out)["findings"]}

    alone = found()
    assert ("CD101", "omega", 12) in alone
    monkeypatch.setitem(directives._directives, "toctree", NeedsAnEnvironment)
    assert found() == alone
    assert directives._directives["toctree"] is NeedsAnEnvironment


def test_a_block_after_default_alone_is_the_default() -> None:
    page = (
        "Settings\n========\n\n.. setting:: MIDDLEWARES\n\nMIDDLEWARES\n-----------\n\n"
        'Default:\n\n.. code-block:: python\n\n    {\n        "a.B": 1,\n    }\n\n'
        ".. setting:: OTHER\n\nOTHER\n-----\n\nDefault:\n\nSome prose.\n\n"
        '.. code-block:: python\n\n    {"x": 1}\n'
    )
    defaults = {e.name: e.default for e in extract_rst(page.encode()).entries}
    assert defaults["MIDDLEWARES"] == '{ "a.B": 1, }'
    # Prose between the label and the block: the block is an example.
    assert defaults["OTHER"] is None


def test_a_title_that_names_a_module_by_its_role_is_no_key() -> None:
    page = (
        ":mod:`pkg.config`\n-----------------\n\nText.\n\n"
        "``workers``\n-----------\n\nDefault: ``4``.\n\n"
        ":confval:`timeout`\n------------------\n\nDefault: ``5``.\n"
    )
    assert [e.name for e in extract_rst(page.encode()).entries] == ["workers", "timeout"]


def test_a_link_that_opens_a_list_item_is_no_entry_of_its_own(tmp_path) -> None:
    from helpers import check_project, mounted_config

    page = (
        "Configuration\n=============\n\n- ``alpha`` (int): how much.\n"
        "- ``beta`` (int): how many.\n- :ref:`gamma-tuning` (the tuning guide).\n"
    )
    files = {**mounted_config("alpha: int = 1", "beta: int = 2"), "docs/config.rst": page}
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    assert {f.code for f in findings} <= {"CD501"}
    assert not [f for f in findings if f.code in ("CD101", "CD102")]
    forms = {e.name: e.form for e in extract_rst(page.encode()).entries}
    assert forms == {"alpha": "list", "beta": "list", "gamma-tuning": "mention"}


def test_a_list_item_of_a_literal_alone_with_its_description_is_an_entry(tmp_path) -> None:
    page = (
        "Options\n=======\n\n* ``DISABLE_PANELS``\n\n  Default:\n\n  .. code-block:: python\n\n"
        '      {"a.B", "c.D"}\n\n  The panels shown but disabled.\n\n'
        "* ``SHOW_TOOLBAR``\n\n  Whether to show it. Defaults to ``True``.\n\n"
        "* ``INSERT_BEFORE``\n\n  Where it goes.\n\n"
        "* ``RESULTS_CACHE_SIZE``\n\n  How many.\n\n"
        "Values\n======\n\n* ``sql``\n* ``cache``\n\n"
        "* ``nested``\n\n  * ``child``\n\n"
        "* :setting:`LINKED`\n\n  A link to an entry elsewhere.\n\n"
        "* :setting:`OTHER_LINK`\n\n  Another.\n\n"
        "* ``ALPHA`` or ``BETA``\n\n  Either of two.\n"
    )
    entries = {e.name: (e.form, e.default) for e in extract_rst(page.encode()).entries}
    # A literal alone with a paragraph or a block under it names its key;
    # a bare literal is a value in a list, a literal over a nested list a
    # group, a role a link.
    assert entries == {
        "DISABLE_PANELS": ("list", '{"a.B", "c.D"}'),
        "SHOW_TOOLBAR": ("list", "True"),
        "INSERT_BEFORE": ("list", None),
        "RESULTS_CACHE_SIZE": ("list", None),
    }
    files = {
        "pkg/__init__.py": "",
        "pkg/settings.py": (
            "CONFIG_DEFAULTS = {\n"
            '    "DISABLE_PANELS": {"c.D", "a.B"},\n'
            '    "SHOW_TOOLBAR": False,\n'
            '    "INSERT_BEFORE": "</body>",\n'
            '    "RENDER_PANELS": None,\n'
            '    "RESULTS_CACHE_SIZE": 25,\n'
            "}\n\n\ndef get_config(user):\n"
            "    config = CONFIG_DEFAULTS.copy()\n"
            "    config.update(user)\n"
            "    return config\n"
        ),
        "docs/configuration.rst": page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    # The set is the code's whatever its order; the other default is not.
    assert {(f.code, f.key) for f in findings} == {
        ("CD104", "SHOW_TOOLBAR"),
        ("CD103", "RENDER_PANELS"),
    }


def test_a_directives_default_field_is_its_own_after_a_list_in_its_body() -> None:
    """The ``:Default:`` field of an object directive is the directive's,
    though a list of values in its body comes after it."""
    page = b"""Settings
========

.. attribute:: APP_PARSER

    :Default: ``'app.parser.AutoParser'``

    The parser. The ones included:

    - ``app.parser.AutoParser``
    - ``app.parser.HtmlParser``

.. attribute:: APP_OTHER

    :Default: ``5``

    Another.

.. attribute:: APP_FONT

    The font.

    :Using a font of your own:
        Copy its files to ``_static`` first.
"""
    entries = {e.name: e.default for e in extract_rst(page).entries}
    # A field of prose is no default: only a field named as a label is.
    assert entries == {
        "APP_PARSER": "'app.parser.AutoParser'",
        "APP_OTHER": "5",
        "APP_FONT": None,
    }


def test_a_project_s_own_object_type_for_settings_names_a_key() -> None:
    page = (
        "Options\n=======\n\n"
        ".. confval:: html_theme_options\n\n"
        "   The theme's options.\n\n"
        "   .. themeconf:: site_url\n\n"
        "      Where the site lives.\n\n"
        "   .. std:pluginconfig:: cache_dir\n\n"
        "      Where the cache lives.\n\n"
        ".. themefeature:: navigation\n\n"  # an object type, but not a setting's
        "   A feature.\n\n"
        ".. inconfigurable:: shape\n\n"  # ``conf`` inside a word, not its end
        "   Text.\n"
    )
    names = [e.name for e in extract_rst(page.encode()).entries]
    assert names == ["html_theme_options", "site_url", "cache_dir"]


def test_an_autosummary_that_writes_pages_renders_the_classes_it_lists() -> None:
    page = (
        ".. currentmodule:: shop.samplers\n\n"
        "Samplers\n========\n\n"
        ".. autosummary::\n   :toctree: generated/\n   :nosignatures:\n\n"
        "   GridSampler\n   ~shop.samplers.RandomSampler\n   plot_history\n\n"
        "Table only\n==========\n\n"
        ".. autosummary::\n\n   TableSampler\n"
    )
    targets = [target for target, _ in extract_rst(page.encode()).autodoc]
    # A function's page and a table's row render no class's docstring.
    assert targets == ["shop.samplers.GridSampler", "shop.samplers.RandomSampler"]


def test_an_option_directive_by_either_of_sphinx_s_names_documents_its_flags() -> None:
    # ``cmdoption`` is Sphinx's older name of ``option``; each flag of the
    # signature is an entry, a comma never splits a flag from its value.
    for directive in ("option", "cmdoption", "std:cmdoption"):
        page = (
            f".. program:: cherryd\n\n.. {directive}:: -c, --config FILE\n\n   Config files.\n\n"
            f".. {directive}:: -d\n\n   Run as a daemon.\n\n"
            f".. {directive}:: --exclude=<patterns>\n\n   What to leave out.\n"
        )
        names = [e.name for e in extract_rst(page.encode()).entries]
        assert names == ["-c", "--config", "-d", "--exclude"], directive
    page = ".. cmdline:: -d\n\n   Not a directive of options.\n"
    assert [e.name for e in extract_rst(page.encode()).entries] == []


def test_an_option_title_is_an_entry() -> None:
    page = (
        "Command line\n============\n\n--dry-run\n---------\n\nDo nothing.\n\n"
        "--config-file PATH\n------------------\n\nWhere.\n\n"
        "--not an option, but prose\n--------------------------\n\nText.\n\n-v\n--\n\nLoud.\n"
    )
    facts = extract_rst(page.encode())
    assert [(e.name, e.form) for e in facts.entries] == [
        ("--dry-run", "heading"),
        ("--config-file", "heading"),
    ]


def test_a_page_of_deprecations_names_options_that_are_gone(tmp_path) -> None:
    code = (
        "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
        '    p.add_argument("--progress", help="When to show progress.")\n'
        '    p.add_argument("--player", help="The player.")\n'
        '    p.add_argument("--output", help="Where to write.")\n'
        "    args = p.parse_args()\n    print(args.progress, args.player, args.output)\n"
    )
    page = "".join(
        f"{flag}\n{'^' * len(flag)}\n\n{text}\n\n"
        for flag, text in (
            ("--progress", "Show progress."),
            ("--player", "The player."),
            ("--output", "Where to write."),
            ("--force-progress", "Removed: use ``--progress=force``."),
        )
    )
    for name, judged in (("docs/cli.rst", True), ("docs/deprecations.rst", False)):
        root = tmp_path / name.replace("/", "_")
        files = {"tool/cli.py": code, "docs/cli.rst": "CLI\n===\n\n" + page}
        if not judged:
            files["docs/cli.rst"] = "CLI\n===\n\n" + page.rsplit("--force-progress", 1)[0]
            files[name] = "Deprecations\n============\n\n" + page
        _, findings = check_project(root, files, "tool")
        assert any(f.key == "--force-progress" for f in findings) is judged


def test_a_list_announced_as_options_lists_its_bare_keys() -> None:
    page = (
        "Configuration\n=============\n\nAvailable options are:\n\n"
        "* ``select``\n* ``ignore``\n* ``add_select``\n\n"
        "It is read from one of these files:\n\n* ``setup.cfg``\n* ``tox``\n* ``pyproject``\n\n"
        "The settings below\n\n* ``alpha``\n* ``beta``\n"
    )
    facts = extract_rst(page.encode())
    # The files' list and a list with no lead-in ending in a colon list values.
    assert [(e.name, e.form) for e in facts.entries] == [
        ("select", "list"),
        ("ignore", "list"),
        ("add_select", "list"),
    ]


def test_a_key_title_may_carry_a_note_in_brackets() -> None:
    from configdrift.extract.byte_tests import may_document

    page = (
        "Hooks\n=====\n\nallow_shell_hooks (compatibility opt-in)\n"
        "-----------------------------------------\n\nText.\n\n"
        "retries (optional)\n------------------\n\nText.\n\n"
        "log.level (deprecated)\n----------------------\n\nText.\n\n"
        "max_depth (see (below))\n-----------------------\n\nText.\n"
    )
    facts = extract_rst(page.encode())
    # A word that may be a key, or a note in notes: no entry.
    assert [(e.name, e.form) for e in facts.entries] == [
        ("allow_shell_hooks", "heading"),
        ("log.level", "heading"),
    ]
    assert may_document(page.encode(), 2)
    assert not may_document(page.replace(" (", " [").encode(), 2)
