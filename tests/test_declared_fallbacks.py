"""CD106 for a key declared with its default (a Sphinx extension's
``add_config_value``) that the code reads by name with another fallback
(``getattr(config, "k", True)``), through the object that reads the
surface's keys: its default depends on the code path. Never where either
side is ``None``, both are falsy, the fallback is a string against another
type, or the object reads mostly other names."""

from __future__ import annotations

from helpers import by_key, check_project

_SETUP = """
def setup(app):
    app.add_config_value("gallery_bars", False, "env")
    app.add_config_value("gallery_columns", 3, "html")
    app.add_config_value("gallery_title", "Gallery", "env")
    app.add_config_value("gallery_dirs", [], "html")
    app.add_config_value("gallery_depth", None, "html")
"""

_DOCS = """
# Settings

- `gallery_bars` (bool): bars. Default: False.
- `gallery_columns` (int): columns per row. Default: 3.
- `gallery_title` (str): the heading.
- `gallery_dirs` (list): where the examples are.
"""


def _found(tmp_path, reads: str) -> dict:
    files = {"plug/ext.py": _SETUP, "plug/render.py": reads, "docs/settings.md": _DOCS}
    _, findings = check_project(tmp_path, files, "plug")
    return by_key(findings)


def test_a_fallback_other_than_the_declared_default(tmp_path) -> None:
    reads = (
        "def render(config):\n"
        '    bars = getattr(config, "gallery_bars", True)\n'
        '    columns = getattr(config, "gallery_columns", 3)\n'
        '    title = getattr(config, "gallery_title", "Gallery")\n'
        "    return bars, columns, title\n"
    )
    found = _found(tmp_path, reads)
    assert ("CD106", "gallery_bars") in found
    # An object that reads two of the keys may be any dict of those names.
    fewer = reads.replace('    title = getattr(config, "gallery_title", "Gallery")\n', "")
    assert ("CD106", "gallery_bars") not in _found(tmp_path / "fewer", fewer)
    finding = found[("CD106", "gallery_bars")]
    assert finding.location.line == 2
    assert "declared with the default False" in finding.message
    assert finding.related[0].line == 3  # the declaration
    assert ("CD106", "gallery_columns") not in found


def test_fallbacks_that_say_the_same_are_not_reported(tmp_path) -> None:
    reads = (
        "def render(config):\n"
        # None: absent, or computed later.
        '    a = getattr(config, "gallery_title", None)\n'
        # Both falsy: unset alike to a truth test.
        '    b = getattr(config, "gallery_dirs", False)\n'
        # A string against a boolean: parsed where it is read.
        '    c = getattr(config, "gallery_bars", "true")\n'
        '    d = getattr(config, "gallery_columns", 3)\n'
        # Declared None: computed where it is used.
        '    e = getattr(config, "gallery_depth", 5)\n'
        "    return a, b, c, d, e\n"
    )
    assert not [k for k in _found(tmp_path, reads) if k[0] == "CD106"]


def test_an_object_that_reads_one_key_is_not_the_surface_s(tmp_path) -> None:
    reads = (
        "def render(config, item):\n"
        '    bars = getattr(item, "gallery_bars", True)\n'
        '    columns = getattr(config, "gallery_columns", 3)\n'
        '    title = getattr(config, "gallery_title", "Gallery")\n'
        "    return bars, columns, title\n"
    )
    assert ("CD106", "gallery_bars") not in _found(tmp_path, reads)


def test_an_object_that_reads_mostly_other_names_is_not_the_surface_s(tmp_path) -> None:
    reads = (
        "def render(options):\n"
        '    bars = options.get("gallery_bars", True)\n'
        '    columns = options.get("gallery_columns", 3)\n'
        + "".join(f'    x{i} = options.get("other_{i}")\n' for i in range(3))
        + "    return bars, columns\n"
    )
    assert ("CD106", "gallery_bars") not in _found(tmp_path, reads)


def _fallback_cases(tmp_path, declared: str, key: str, cases) -> None:
    """For each (fallback, reported): is a read of ``key`` with that
    fallback, declared by the line ``declared``, reported?"""
    setup = _SETUP + declared
    reads = (
        "def render(config):\n"
        f'    value = getattr(config, "{key}", FALLBACK)\n'
        '    columns = getattr(config, "gallery_columns", 3)\n'
        '    title = getattr(config, "gallery_title", "Gallery")\n'
        "    return value, columns, title\n"
    )
    for number, (fallback, reported) in enumerate(cases):
        files = {
            "plug/ext.py": setup,
            "plug/render.py": reads.replace("FALLBACK", fallback),
            "docs/settings.md": _DOCS,
        }
        _, findings = check_project(tmp_path / str(number), files, "plug")
        assert (("CD106", key) in by_key(findings)) is reported, fallback


def test_an_empty_sequence_against_a_declared_sequence_tests_for_one(tmp_path) -> None:
    # ``get("formats", [])`` asks whether any is given; the declared
    # default applies later. Another sequence is another default.
    declared = '    app.add_config_value("gallery_formats", ("png",), "html")\n'
    cases = (("[]", False), ("()", False), ('["jpg"]', True))
    _fallback_cases(tmp_path, declared, "gallery_formats", cases)


def test_an_empty_dict_against_a_declared_section_reads_the_section(tmp_path) -> None:
    # ``get("gallery_colors", {})`` then each colour with its own fallback:
    # no section, not another default. Another dict is another default.
    declared = '    app.add_config_value("gallery_colors", {"bar": "red"}, "html")\n'
    cases = (("{}", False), ('{"bar": "blue"}', True))
    _fallback_cases(tmp_path, declared, "gallery_colors", cases)
