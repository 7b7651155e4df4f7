"""Findings as the user sees them: paths from the current directory, the
key's column, source excerpts and colour (under a real pseudo-terminal)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from configdrift.output.display import Paint, Place, excerpt, prefix_for, rebase, use_colour

REPO = Path(__file__).parent.parent
DEMO = REPO / "demo"


def test_paths_print_from_the_current_directory_and_fingerprints_do_not_move(cli) -> None:
    inside = json.loads(cli("check", str(DEMO), "--format", "json").out)["findings"]
    above = json.loads(cli("check", "demo", "--format", "json", cwd=REPO).out)["findings"]
    assert [f["path"] for f in above] == ["demo/" + f["path"] for f in inside]
    first = next(f for f in above if f["related"])
    assert first["related"][0]["path"].startswith("demo/minitrain/")
    # Baselines and code scanning match findings by fingerprint: the same
    # wherever configdrift runs from.
    assert [f["fingerprint"] for f in above] == [f["fingerprint"] for f in inside]
    text = cli("check", "demo", cwd=REPO).out
    assert "demo/docs/configuration.md:88:6: CD101" in text
    assert "    demo/minitrain/zero/config.py:14: ZeroConfig declares" in text


def test_a_finding_from_a_sibling_directory_climbs_out(cli, tmp_path) -> None:
    (tmp_path / "elsewhere").mkdir()
    above = json.loads(cli("check", str(DEMO), "--format", "json", cwd=tmp_path / "elsewhere").out)[
        "findings"
    ]
    expected = os.path.relpath(DEMO, tmp_path / "elsewhere").replace(os.sep, "/")
    assert all(f["path"].startswith(expected + "/") for f in above)


def test_github_and_junit_carry_the_same_paths(cli) -> None:
    github = cli("check", "demo", "--format", "github", cwd=REPO).out
    assert "file=demo/docs/configuration.md,line=88,col=6," in github
    junit = cli("check", "demo", "--format", "junit", cwd=REPO).out
    assert 'file="demo/docs/configuration.md"' in junit and 'file="docs/' not in junit


def test_sarif_uris_resolve_from_the_directory_it_ran_in(cli) -> None:
    document = json.loads(cli("check", "demo", "--format", "sarif", cwd=REPO).out)
    run = document["runs"][0]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == REPO.resolve().as_uri() + "/"
    location = run["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert location["artifactLocation"]["uri"].startswith("demo/")
    assert location["region"]["startColumn"] >= 1


def test_prefix_and_rebase() -> None:
    assert prefix_for(DEMO, REPO) == "demo"
    assert prefix_for(REPO, REPO) == ""
    assert prefix_for(REPO, DEMO) == ".."
    assert rebase("docs/a.md", "demo") == "demo/docs/a.md"
    assert rebase(".", "demo") == "demo"  # a finding on the project itself
    assert rebase("docs/a.md", "") == "docs/a.md"
    assert rebase("a.md", "..") == "../a.md"


def test_the_excerpt_puts_a_caret_under_the_key() -> None:
    lines = excerpt(12, Place("f", column=5, width=3, text="    key: 1"))
    assert lines == ["     |", "  12 |     key: 1", "     |     ^^^"]
    assert excerpt(3, Place("f")) == []  # no line read: no excerpt


def test_a_long_line_is_cut_around_the_key() -> None:
    text = "x" * 500 + "target" + "y" * 500
    _, shown, caret = excerpt(1, Place("f", column=501, width=6, text=text))
    assert len(shown) < 200 and "target" in shown
    assert shown.index("target") == caret.index("^")


def test_colour_follows_the_terminal_and_the_conventions() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    class Pipe:
        def isatty(self) -> bool:
            return False

    assert use_colour("auto", Tty(), {}) is True  # type: ignore[arg-type]
    assert use_colour("auto", Pipe(), {}) is False  # type: ignore[arg-type]
    assert use_colour("auto", Tty(), {"NO_COLOR": "1"}) is False  # type: ignore[arg-type]
    assert use_colour("auto", Pipe(), {"FORCE_COLOR": "1"}) is True  # type: ignore[arg-type]
    assert use_colour("auto", None, {}) is False  # an output file
    assert use_colour("never", Tty(), {"FORCE_COLOR": "1"}) is False  # type: ignore[arg-type]
    assert use_colour("always", Pipe(), {"NO_COLOR": "1"}) is True  # type: ignore[arg-type]
    assert Paint(False)("x", "path") == "x" and Paint(True)("x", "path") == "\x1b[1mx\x1b[0m"


def test_a_source_line_cannot_drive_the_terminal(cli, tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.configdrift]\ndocs = ["docs/c.md"]\n[tool.configdrift.mount]\n"" = "app:Config"\n'
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "c.md").write_text(
        "## Options\n\n| key | default |\n| --- | --- |\n| `real` | 1 |\n| `ghost` | 1 \x1b[2J |\n"
    )
    (tmp_path / "app.py").write_text(
        "from dataclasses import dataclass\n\n@dataclass\nclass Config:\n    real: int = 1\n"
    )
    out = cli("check", str(tmp_path), "--show-source", "--color", "never").out
    assert "  6 | | `ghost` | 1 \\x1b[2J |\n    |    ^^^^^\n" in out
    assert "\x1b" not in out


def _pty_run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run configdrift with its standard output on a pseudo-terminal."""
    pty = pytest.importorskip("pty")
    import subprocess

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "configdrift", *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_on_a_terminal_the_report_is_coloured_with_excerpts() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    shown = _pty_run(["check", "demo", "--no-cache"], REPO, env)
    assert "\x1b[1mdemo/docs/configuration.md:88:6:\x1b[0m \x1b[1;31mCD101 [error]\x1b[0m" in shown
    assert "  88 | <i>**grad_hooks**</i>: [boolean]" in shown
    assert "     |      ^^^^^^^^^^\x1b[0m" in shown
    # NO_COLOR drops the colour, not the lines.
    plain = _pty_run(["check", "demo", "--no-cache"], REPO, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "  88 | <i>**grad_hooks**</i>: [boolean]" in plain
    quiet = _pty_run(["check", "demo", "--no-cache", "--no-show-source"], REPO, env)
    assert "\x1b[1;31m" in quiet and "  88 | " not in quiet
