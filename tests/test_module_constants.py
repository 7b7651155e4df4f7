"""A module whose upper-case constants users override is a configuration
where the docs document three of them: never a sample configuration no
module imports, never with a word about a documented constant it lacks."""

from __future__ import annotations

from helpers import by_key, check_project

_STATS = """
STATS_AUTORESIZE = True
CONSOLE_INTERVAL_SEC = 2
HISTORY_INTERVAL_SEC = 5
CSV_INTERVAL_SEC = 1
CSV_FLUSH_INTERVAL_SEC = 5
"""

_USE = "from app import stats\n\n\ndef interval():\n    return stats.CSV_INTERVAL_SEC\n"

_PAGE = """
Statistics settings
===================

Override them in ``app.stats``:

+------------------------+---------------+
| Parameter name         | Default value |
+========================+===============+
| CONSOLE_INTERVAL_SEC   | 2             |
+------------------------+---------------+
| HISTORY_INTERVAL_SEC   | 5             |
+------------------------+---------------+
| CSV_INTERVAL_SEC       | 2             |
+------------------------+---------------+
| STATS_NAME_WIDTH       | 80            |
+------------------------+---------------+
"""


def _check(tmp_path, **files: str):
    base = {"app/stats.py": _STATS, "app/runner.py": _USE, "docs/configuration.rst": _PAGE}
    return check_project(tmp_path, {**base, **files}, "app")


def test_a_module_s_documented_constants_are_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "app.stats" in [s.surface for s in analysis.everything]
    found = by_key(findings)
    assert ("CD103", "STATS_AUTORESIZE") in found and ("CD103", "CSV_FLUSH_INTERVAL_SEC") in found
    assert "the code's default is 1" in found[("CD104", "CSV_INTERVAL_SEC")].message
    # ``STATS_NAME_WIDTH`` may be assigned where it is not seen: nothing said.
    assert not any(key == "STATS_NAME_WIDTH" for _, key in found)


def test_a_module_no_module_imports_is_a_sample_not_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path, **{"app/runner.py": "def interval():\n    return 1\n"})
    assert [s.surface for s in analysis.everything] == ["config"]
    assert not any(code == "CD104" for code, _ in by_key(findings))


def test_four_constants_are_no_configuration(tmp_path) -> None:
    stats = _STATS.replace("CSV_FLUSH_INTERVAL_SEC = 5\n", "")
    analysis, _ = _check(tmp_path, **{"app/stats.py": stats})
    assert [s.surface for s in analysis.everything] == ["config"]


def test_an_api_page_that_lists_a_module_s_attributes_is_no_evidence(tmp_path) -> None:
    # The page renders the module and lists its constants: an interface.
    api = ":mod:`app.stats`\n----------------\n\n.. automodule:: app.stats\n\n" + "".join(
        f".. attribute:: {name}\n"
        for name in ("CONSOLE_INTERVAL_SEC", "HISTORY_INTERVAL_SEC", "CSV_INTERVAL_SEC")
    )
    analysis, _ = _check(
        tmp_path, **{"docs/configuration.rst": "Nothing\n=======\n", "docs/api.rst": api}
    )
    assert [s.surface for s in analysis.everything] == ["config"]
    # The same list on a page of its own is the configuration's.
    hand = api.replace(".. automodule:: app.stats\n\n", "")
    analysis, _ = _check(
        tmp_path, **{"docs/configuration.rst": "Nothing\n=======\n", "docs/api.rst": hand}
    )
    assert "app.stats" in [s.surface for s in analysis.everything]


def test_a_constant_is_read_by_its_bare_name_where_it_is_assigned_or_imported(tmp_path) -> None:
    stats = _STATS + (
        "\n\ndef console():\n    global STATS_AUTORESIZE\n    STATS_AUTORESIZE = False\n"
        "    return CONSOLE_INTERVAL_SEC * 2\n"
    )
    runner = _USE + (
        "\n\nfrom app.stats import HISTORY_INTERVAL_SEC\n\n\ndef history():\n"
        "    return HISTORY_INTERVAL_SEC\n"
    )
    _, findings = _check(tmp_path, **{"app/stats.py": stats, "app/runner.py": runner})
    inert = {key for code, key in by_key(findings) if code == "CD202"}
    # Assigned (and named by ``global``) but read nowhere: setting it does nothing.
    assert inert == {"STATS_AUTORESIZE", "CSV_FLUSH_INTERVAL_SEC"}


def test_a_call_whose_name_begins_like_global_reads_the_constant(tmp_path) -> None:
    # ``globalize(X)`` reads ``X``: only a ``global`` statement names it unread.
    stats = _STATS + "\n\ndef scale():\n    globalize(STATS_AUTORESIZE)\n"
    _, findings = _check(tmp_path, **{"app/stats.py": stats})
    inert = {key for code, key in by_key(findings) if code == "CD202"}
    assert "STATS_AUTORESIZE" not in inert
