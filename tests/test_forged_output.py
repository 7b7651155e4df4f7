"""No line of a stranger's tree can forge a line of a report: file names and
keys with newlines, carriage returns, workflow commands and bidirectional
controls are shown visibly in every format, on stdout, stderr and in files."""

from __future__ import annotations

import io
import json
import os
import re
import xml.dom.minidom

import pytest

from configdrift.escape import Guarded, printable
from helpers import make_project, mounted_config

MODEL = {
    **mounted_config(),
}
#: A page whose name and keys carry every way to forge a line.
FORGED_NAME = b"docs/x\n::error file=ci.yml,line=1::forged\r\xe2\x80\xaecod.md"
FORGED_PAGE = (
    "# Config\n\n## `alpha`\n\nDefault: `2`\n\n## `om\u202eega`\n\nNot accepted.\n\n"
    "```json\n"
    '{"alpha": 1, "be\\nta": 2, "ga\\rmma": 3, "\\u202edelta": 4, "::warning::x": 5}\n'
    "```\n"
)
HIDDEN = ("\r", "\u202e", "\x1b")


def _forged(tmp_path):
    root = make_project(tmp_path, MODEL)
    (root / "docs").mkdir()
    with open(os.path.join(os.fsencode(root), FORGED_NAME), "wb") as fh:
        fh.write(FORGED_PAGE.encode())
    return root


def _lines_forged(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith(("::", "##["))]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "html", "github"])
def test_no_format_prints_a_forged_line(cli, tmp_path, fmt):
    root = _forged(tmp_path)
    result = cli("check", str(root), "--no-cache", "--format", fmt, "--show-source")
    assert result.code in (0, 1), result.err
    assert "forged" in result.out  # the page was read and its name shown
    for char in HIDDEN:
        assert char not in result.out and char not in result.err
    if fmt == "github":
        # Each line is one of ours: a command and its escaped data.
        lines = result.out.splitlines()
        assert lines and all(re.match(r"::(error|warning|notice) file=", line) for line in lines)
        assert all("::forged" not in line.split("::", 2)[1] for line in lines)
    else:
        assert _lines_forged(result.out) == []
    assert _lines_forged(result.err) == []
    if fmt in ("json", "sarif"):
        json.loads(result.out)
    if fmt == "junit":
        xml.dom.minidom.parseString(result.out)


def test_a_report_written_to_a_file_is_guarded_too(cli, tmp_path):
    root = _forged(tmp_path)
    out = tmp_path / "report.txt"
    result = cli("check", str(root), "--no-cache", "--output-file", str(out))
    assert result.code in (0, 1), result.err
    text = out.read_text(encoding="utf-8")
    assert "forged" in text and _lines_forged(text) == []
    assert not any(char in text for char in HIDDEN)


def test_the_other_commands_print_nothing_forged(cli, tmp_path):
    root = _forged(tmp_path)
    for argv in (
        ["map", str(root), "--unresolved"],
        ["coverage", str(root), "-v"],
        ["fix", str(root), "--add-missing"],
        ["sweep", "alpha", str(root)],
        ["sweep", "alpha", str(root), "--diff"],
    ):
        result = cli(*argv, "--no-cache")
        assert result.code in (0, 1), result.err
        for stream in (result.out, result.err):
            assert _lines_forged(stream) == [], argv
            assert not any(char in stream for char in HIDDEN), argv


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\nb", "a\\x0ab"),
        ("a\rb\tc", "a\\x0db\\x09c"),
        ("\x1b[31mred", "\\x1b[31mred"),
        ("evil\u202etxt.md", "evil\\u202etxt.md"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("tag\U000e0041", "tag\\U000e0041"),
        ("caf\u00e9", "caf\u00e9"),  # a letter is not hidden
        ("plain", "plain"),
    ],
)
def test_printable_shows_every_hidden_character(text, shown):
    assert printable(text) == shown


@pytest.mark.parametrize(
    ("chunks", "style", "expected"),
    [
        (["::error::x\n"], "text", ":\\x3aerror::x\n"),
        (["  ::add-mask::y\n"], "text", "  :\\x3aadd-mask::y\n"),
        (["##[error]z\n"], "text", "##\\x5berror]z\n"),
        ([":", ":error\n"], "text", ":\\x3aerror\n"),
        (["ok\n::x\n"], "markup", "ok\n:&#58;x\n"),
        (["a::b\n"], "text", "a::b\n"),  # not at a line's start
        (["x\n:[a\n##:b\n#[c\n"], "text", "x\n:[a\n##:b\n#[c\n"),  # no command's start
        (["x\n  ::a\n##[b\n::"], "text", "x\n  :\\x3aa\n##\\x5bb\n:\\x3a"),
        (["x\n :", ":y\n"], "markup", "x\n :&#58;y\n"),
        (["\rprogress 1/2"], "text", "\rprogress 1/2"),  # redrawn in place
        (["a\rb\n"], "text", "a\\x0db\n"),
        (
            ["\x1b[1mbold\x1b[0m \x1b]0;title\x07\n"],
            "text",
            "\x1b[1mbold\x1b[0m \\x1b]0;title\\x07\n",
        ),
    ],
)
def test_the_guarded_stream(chunks, style, expected):
    buffer = io.StringIO()
    stream = Guarded(buffer, style=style)
    for chunk in chunks:
        stream.write(chunk)
    assert buffer.getvalue() == expected


def test_the_github_format_writes_its_own_commands():
    buffer = io.StringIO()
    Guarded(buffer, commands=True).write("::error file=a::b\n")
    assert buffer.getvalue() == "::error file=a::b\n"


@pytest.mark.parametrize("command", ["check", "map", "coverage", "fix", "sweep"])
def test_an_exit_2_message_is_one_line_whatever_the_configuration_holds(cli, tmp_path, command):
    # An unknown option's name is the project's text: its newline is shown
    # escaped, as its carriage return is, never as a line of its own.
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[tool.configdrift]\n"a\\n::error file=ci.yml::forged" = 1\n"b\\rc" = 2\n',
        encoding="utf-8",
    )
    argv = ["sweep", "alpha", str(root)] if command == "sweep" else [command, str(root)]
    result = cli(*argv, "--no-cache")
    assert result.code == 2
    assert result.err.count("\n") == 1, result.err
    assert "a\\x0a::error file=ci.yml::forged" in result.err
    assert "b\\x0dc" in result.err
