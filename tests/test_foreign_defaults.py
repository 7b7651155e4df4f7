"""CD104 for a documented default that no value of the option can be
(``true`` for an option of text or a container), where the code gives none
(``None``): never a default the option may hold, one that states no value
(``None``, a word), nor one of an option whose type is not known."""

from __future__ import annotations

from helpers import by_key, check_project, mounted_config

_FIELDS = (
    "site_name: str | None = None",
    "theme: dict | None = None",
    "workers: int | None = None",
    "strict: bool | None = None",
    "extra: None = None",
)


def _defaults(tmp_path, **documented: str) -> dict:
    files = mounted_config(*_FIELDS)
    files["docs/config.md"] = "# Configuration\n\n" + "".join(
        f"## {key}\n\nA setting. Default: {value}.\n\n" for key, value in documented.items()
    )
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    return {key: f for (code, key), f in by_key(findings).items() if code == "CD104"}


def test_a_truth_value_for_an_option_of_text_or_a_container_is_no_value_of_it(tmp_path) -> None:
    found = _defaults(tmp_path, site_name="`true`", theme="`false`", workers="`4`")
    assert set(found) == {"site_name", "theme"}
    finding = found["site_name"]
    assert "the code gives it none (None) and it takes str" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("pkg/config.py", 6)]


def test_a_default_the_option_may_hold_or_that_states_no_value_is_left_alone(tmp_path) -> None:
    # A number for a number, a truth value for one, ``None``, a word, and an
    # option of no known type: computed at runtime, as the code may say.
    found = _defaults(
        tmp_path,
        workers="`4`",
        strict="`true`",
        site_name="`None`",
        theme="the theme of the site",
        extra="`true`",
    )
    assert found == {}
