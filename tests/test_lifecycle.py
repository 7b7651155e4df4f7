"""Where a project says a key is removed or deprecated."""

from __future__ import annotations

import pytest

from configdrift.config import load
from configdrift.engine import analyse
from helpers import make_project

CODE = """\
from pydantic import BaseModel
from pkg.names import OLD
REMOVED_KEYS = {"a", OLD}
_REMOVED_SECTION_KEYS = ["sec.b"]
LEGACY_REMOVED_KEYS = ("c",)
WRAPPED_REMOVED_KEYS = frozenset({"d"})
REMOVED_REASONS_KEYS = {"e": "use f", "g.h": "gone"}
DEPRECATED_KEYS = {"old": "new", "older": "it was a mistake"}
DYNAMIC_REMOVED_KEYS = {name.upper() for name in ("x",)}
PARTLY_REMOVED_KEYS = {"i", prefix + "j"}
REMOVED = {"not_a_registry"}
class M(BaseModel):
    a: int = 1
def get(d):
    return M(**d.get("m", {}))
"""


def _analysis(tmp_path, extra: dict[str, str] | None = None):
    files = {
        "pkg/__init__.py": "",
        "pkg/names.py": 'OLD = "k"\n',
        "pkg/m.py": CODE,
        **(extra or {}),
    }
    root = make_project(tmp_path, files)
    return analyse(load(root), jobs=1)


def test_every_registry_shape_is_read(tmp_path) -> None:
    analysis = _analysis(tmp_path)
    got = {(e.path, e.status, e.source, e.reason, e.replacement) for e in analysis.lifecycle}
    assert got == {
        (("a",), "removed", "REMOVED_KEYS", None, None),
        (("k",), "removed", "REMOVED_KEYS", None, None),  # through a constant
        (("sec", "b"), "removed", "_REMOVED_SECTION_KEYS", None, None),
        (("c",), "removed", "LEGACY_REMOVED_KEYS", None, None),
        (("d",), "removed", "WRAPPED_REMOVED_KEYS", None, None),
        (("e",), "removed", "REMOVED_REASONS_KEYS", "use f", None),
        (("g", "h"), "removed", "REMOVED_REASONS_KEYS", "gone", None),
        (("i",), "removed", "PARTLY_REMOVED_KEYS", None, None),
        (("old",), "deprecated", "DEPRECATED_KEYS", None, "new"),
        (("older",), "deprecated", "DEPRECATED_KEYS", "it was a mistake", None),
    }


def test_registries_built_at_run_time_are_unresolved_not_guessed(tmp_path) -> None:
    analysis = _analysis(tmp_path)
    said = [u.what for u in analysis.unresolved]
    assert "registry DYNAMIC_REMOVED_KEYS is not a literal set, list or dict" in said
    assert "an entry of PARTLY_REMOVED_KEYS is not a static string" in said


def test_the_configuration_and_its_patterns(tmp_path) -> None:
    config = (
        'removed-registries = ["GONE_*"]\n'
        "[removed]\n"
        '"sec.z" = "dropped"\n'
        '"y" = { reason = "merged", version = "2.0" }\n'
        "[deprecated]\n"
        '"w" = { replacement = "v" }\n'
    )
    analysis = _analysis(
        tmp_path, {"configdrift.toml": config, "pkg/gone.py": 'GONE_OPTIONS = ["q"]\n'}
    )
    got = {(e.path, e.status, e.source, e.reason, e.version) for e in analysis.lifecycle}
    assert (("sec", "z"), "removed", "configuration", "dropped", None) in got
    assert (("y",), "removed", "configuration", "merged", "2.0") in got
    assert (("w",), "deprecated", "configuration", None, None) in got
    assert (("q",), "removed", "GONE_OPTIONS", None, None) in got
    # The default pattern no longer applies once it is configured.
    assert not any(e.source == "REMOVED_KEYS" for e in analysis.lifecycle)
    lines = {e.path: e.location.line for e in analysis.lifecycle if e.source == "configuration"}
    assert lines == {("sec", "z"): 3, ("y",): 4, ("w",): 6}


def test_a_malformed_removed_table_is_a_usage_error(cli, tmp_path) -> None:
    make_project(tmp_path, {"configdrift.toml": '[removed]\n"a" = { why = "x" }\n'})
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert "`removed.a` must be a reason, or a table of" in result.err


@pytest.mark.parametrize(
    ("said", "mentioned"),
    [
        # A comment above the field; one that only mentions the word.
        (
            "    # Deprecated: use `new_mode` instead.\n    old_mode: bool = False\n",
            "    # The deprecated spelling of this was removed in 2.0.\n    level: int = 1\n",
        ),
        # The field's docstring, opening with the word; one that only mentions it.
        (
            '    old_mode: bool = False\n    """Deprecated! Moved to \'new_mode\'"""\n',
            '    level: int = 1\n    """The deprecated spelling was removed in 2.0."""\n',
        ),
    ],
)
def test_a_field_its_comment_or_docstring_calls_deprecated(tmp_path, said, mentioned) -> None:
    from helpers import by_key, check_project

    model = (
        "from pydantic import BaseModel\n\n\n"
        "class Config(BaseModel):\n"
        "    new_mode: bool = False\n" + said + mentioned
    )
    page = (
        "# Config\n\n- `new_mode` (bool): the mode.\n- `old_mode` (bool): the old mode.\n"
        "- `level` (int): the level.\n"
    )
    _, findings = check_project(
        tmp_path, {"pkg/config.py": model, "docs/config.md": page}, "pkg", {"": "pkg.config:Config"}
    )
    found = by_key(findings)
    assert found[("CD402", "old_mode")].suggestion == "use `new_mode`"
    # A comment or docstring that only mentions the word is no deprecation.
    assert ("CD402", "level") not in found


def test_the_option_a_deprecation_names_instead() -> None:
    from configdrift.extract.python.help_texts import replacement_named

    assert replacement_named("Deprecated, use `workers`.") == "workers"
    assert replacement_named("Deprecated! Moved to 'templates.file'") == "templates.file"
    assert replacement_named("Deprecated: renamed to max_jobs.") == "max_jobs"
    assert replacement_named("Deprecated since 2.0.") is None
