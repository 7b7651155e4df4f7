"""A key named only beside its surface's reference page (a guide names
it, the settings page documents its siblings but not it) is said to be
missing from the reference; named anywhere without such a page, or on
the reference itself, it is described."""

from __future__ import annotations

from helpers import by_key, check_project

_KEYS = [
    "ALPHA_CLASS",
    "BETA_CLASSES",
    "GAMMA_LIMIT",
    "DELTA_MODE",
    "EPSILON_RATE",
    "ZETA_NAME",
    "ETA_FLAG",
    "THETA_COUNT",
    "IOTA_PATH",
    "KAPPA_URL",
    "LAMBDA_SIZE",
]

_SETTINGS = (
    "DEFAULTS = {\n"
    + "".join(f'    "{k}": {i},\n' for i, k in enumerate(_KEYS))
    + '    "MU_HIDDEN": False,\n}\n'
)

_GUIDE = "# A guide\n\nSet the `MU_HIDDEN` setting to hide it.\n"


def _page(keys: list[str], intro: str = "") -> str:
    return (
        "# Settings\n\n"
        + intro
        + "".join(f"## {k}\n\nWhat it does.\n\nDefault: `{i}`\n\n" for i, k in enumerate(keys))
    )


def _check(tmp_path, page: str, guide: str = _GUIDE, code: str = _SETTINGS):
    files = {"app/settings.py": code, "docs/settings.md": page, "docs/guide.md": guide}
    return by_key(check_project(tmp_path, files, "app")[1])


def test_a_key_named_only_in_a_guide_is_missing_from_the_reference(tmp_path) -> None:
    found = _check(tmp_path, _page(_KEYS))
    finding = found[("CD103", "MU_HIDDEN")]
    assert "docs/guide.md:3 names it" in finding.message
    assert "the reference page docs/settings.md has no entry for it" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [
        ("docs/guide.md", 3),
        ("docs/settings.md", 3),
    ]
    assert not any(code == "CD103" and key != "MU_HIDDEN" for code, key in found)


def test_a_key_the_reference_names_in_its_prose_is_described(tmp_path) -> None:
    page = _page(_KEYS, "Set `MU_HIDDEN` to hide the page.\n\n")
    assert ("CD103", "MU_HIDDEN") not in _check(tmp_path, page)


def test_without_a_page_of_ten_entries_a_guide_describes_the_key(tmp_path) -> None:
    # Nine entries: no page is the reference, and the guide's words count.
    assert ("CD103", "MU_HIDDEN") not in _check(tmp_path, _page(_KEYS[:9]))


def test_a_key_no_page_names_is_undocumented_as_before(tmp_path) -> None:
    finding = _check(tmp_path, _page(_KEYS), guide="# A guide\n\nNothing here.\n")[
        ("CD103", "MU_HIDDEN")
    ]
    assert finding.message.endswith("but no doc describes it")


_CLI = """
import argparse

parser = argparse.ArgumentParser()
{options}

def main():
    args = parser.parse_args()
    print({reads})
"""


def test_a_flag_named_on_another_command_page_is_described(tmp_path) -> None:
    flags = [f"--opt-{k.lower().replace('_', '-')}" for k in _KEYS] + ["--hidden"]
    code = _CLI.format(
        options="\n".join(f'parser.add_argument("{f}", help="x")' for f in flags),
        reads=", ".join(f"args.{f[2:].replace('-', '_')}" for f in flags),
    )
    page = "# CLI\n\n" + "".join(f"## `{f}`\n\nWhat it does.\n\n" for f in flags[:-1])
    guide = "# Another command\n\nRun it with `--hidden` to hide it.\n"
    files = {"app/cli.py": code, "docs/cli.md": page, "docs/guide.md": guide}
    found = by_key(check_project(tmp_path, files, "app")[1])
    assert ("CD103", "--opt-alpha-class") not in found
    assert ("CD103", "--hidden") not in found


def test_a_variable_named_by_another_program_s_page_is_described(tmp_path) -> None:
    names = [f"APP_{k}" for k in _KEYS] + ["APP_HIDDEN"]
    code = "import os\n\n" + "".join(f'{n.lower()} = os.environ.get("{n}")\n' for n in names)
    page = "# Environment\n\n" + "".join(f"## {n}\n\nWhat it does.\n\n" for n in names[:-1])
    guide = "# The worker\n\nThe worker reads `APP_HIDDEN`.\n"
    files = {"app/env.py": code, "docs/environment.md": page, "docs/guide.md": guide}
    found = by_key(check_project(tmp_path, files, "app")[1])
    assert ("CD103", "APP_HIDDEN") not in found
