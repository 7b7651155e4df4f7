"""CD103 for a key a full list of a configuration's keys leaves out (a
page whose entries name nine tenths of them, ten at least) where another
page documents it: a copy of the settings list that was never updated."""

from __future__ import annotations

from helpers import check_project

_FIELDS = [f"opt_{n:02d}" for n in range(12)]


def _model(*extra: str) -> str:
    lines = [f"    {name}: int = 1\n" for name in _FIELDS]
    return "from dataclasses import dataclass\n\n\n@dataclass\nclass Settings:\n" + "".join(
        [*lines, *extra]
    )


def _page(names: list[str]) -> str:
    return "# Configuration\n\n" + "".join(f"- **{name}** (int): a setting.\n" for name in names)


def _partial(tmp_path, files: dict[str, str]) -> set[tuple[str, str, int]]:
    _, findings = check_project(tmp_path, {"pkg/settings.py": _model(), **files}, "pkg")
    return {
        (f.key, f.location.path, f.location.line)
        for f in findings
        if f.code == "CD103" and "leaves it out" in f.message
    }


def test_a_full_list_that_leaves_out_a_key_another_page_documents(tmp_path) -> None:
    left_out = [name for name in _FIELDS if name != "opt_05"]
    found = _partial(
        tmp_path,
        {"docs/configuration.md": _page(_FIELDS), "docs/old/settings.md": _page(left_out)},
    )
    # Said where it belongs: after the key declared before it (line 7, opt_04).
    assert found == {("opt_05", "docs/old/settings.md", 7)}


def test_a_short_list_a_key_no_page_documents_and_a_deprecated_one_are_not_said(tmp_path) -> None:
    # Ten of twelve is no full list.
    assert not _partial(
        tmp_path / "short",
        {"docs/configuration.md": _page(_FIELDS), "docs/guide.md": _page(_FIELDS[:10])},
    )
    # A key no page documents is undocumented once, by CD103 itself.
    _, findings = check_project(
        tmp_path / "none",
        {
            "pkg/settings.py": _model(),
            "docs/configuration.md": _page(_FIELDS[1:]),
            "docs/old.md": _page(_FIELDS[1:]),
        },
        "pkg",
    )
    assert [f.key for f in findings if f.code == "CD103"] == ["opt_00"]


def test_a_deprecated_key_a_full_list_leaves_out_is_not_said(tmp_path) -> None:
    model = _model("    # Deprecated: use opt_01 instead.\n", "    opt_old: int = 0\n")
    files = {
        "pkg/settings.py": model,
        "docs/configuration.md": _page([*_FIELDS, "opt_old"]),
        "docs/old.md": _page(_FIELDS),
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if "leaves it out" in f.message]
    # Not deprecated, it is said.
    files["pkg/settings.py"] = model.replace("    # Deprecated: use opt_01 instead.\n", "")
    _, findings = check_project(tmp_path / "kept", files, "pkg")
    assert [f.key for f in findings if "leaves it out" in f.message] == ["opt_old"]


def test_a_command_line_s_flags_are_listed_a_page_per_command(tmp_path) -> None:
    flags = [f"--opt-{n:02d}" for n in range(12)]
    cli = "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n" + "".join(
        f"    parser.add_argument({flag!r}, help='a flag')\n" for flag in flags
    )
    cli += "    return parser.parse_args()\n"
    files = {
        "pkg/cli.py": cli,
        "docs/usage.md": _page(flags),
        "docs/serve.md": _page([flag for flag in flags if flag != "--opt-05"]),
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if "leaves it out" in f.message]
