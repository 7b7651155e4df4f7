"""A key the docs' build lists as left out on purpose (a Sphinx ``conf.py``
that checks every setting is documented, and skips some) is undocumented
by intent: CD103 says nothing of it. Any other list of that file is no
such evidence."""

from __future__ import annotations

from test_module_constants import _PAGE, _STATS, _USE

from helpers import by_key, check_project


def _undocumented(tmp_path, conf: str, where: str = "docs/conf.py") -> set[str]:
    files = {
        "app/stats.py": _STATS,
        "app/runner.py": _USE,
        "docs/configuration.rst": _PAGE,
        where: conf,
    }
    _, findings = check_project(tmp_path, files, "app")
    return {key for code, key in by_key(findings) if code == "CD103"}


def test_a_key_the_docs_build_ignores_is_not_undocumented(tmp_path) -> None:
    conf = "project = 'app'\nignored_settings = {\n    # replaced\n    'STATS_AUTORESIZE',\n}\n"
    assert _undocumented(tmp_path, conf) == {"CSV_FLUSH_INTERVAL_SEC"}


def test_another_list_of_the_docs_build_ignores_nothing(tmp_path) -> None:
    conf = "exclude_patterns = ['_build']\nextensions = ['STATS_AUTORESIZE']\n"
    assert _undocumented(tmp_path, conf) == {"STATS_AUTORESIZE", "CSV_FLUSH_INTERVAL_SEC"}


def test_a_docs_build_that_does_not_parse_ignores_nothing(tmp_path) -> None:
    conf = "ignored_settings = {'STATS_AUTORESIZE'\n"
    assert _undocumented(tmp_path, conf) == {"STATS_AUTORESIZE", "CSV_FLUSH_INTERVAL_SEC"}


def test_a_list_outside_the_docs_build_ignores_nothing(tmp_path) -> None:
    # A script's or a test's list of names is not the docs' build.
    conf = "ignored_settings = {'STATS_AUTORESIZE'}\n"
    undocumented = _undocumented(tmp_path, conf, where="scripts/check.py")
    assert undocumented == {"STATS_AUTORESIZE", "CSV_FLUSH_INTERVAL_SEC"}
