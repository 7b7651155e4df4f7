"""The status line of a long run: on a terminal only, never in CI, erased
at the end."""

from __future__ import annotations

import io
import time

from configdrift.output.status import status_line
from configdrift.progress import stage


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run_until_shown(stream: io.StringIO, seconds: float = 10.0) -> None:
    """Stages sent until the line shows (or ``seconds`` pass)."""
    with status_line(stream, delay=0.0):
        stage("reading 12 files")
        end = time.monotonic() + seconds
        while "reading" not in stream.getvalue() and time.monotonic() < end:
            time.sleep(0.05)


def test_a_terminal_shows_the_stage_and_the_line_is_erased(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = _Terminal()
    _run_until_shown(stream)
    text = stream.getvalue()
    assert "\r\x1b[Kconfigdrift: reading 12 files (" in text
    assert text.endswith("\r\x1b[K")


def test_no_status_line_in_a_pipe_or_in_ci(monkeypatch) -> None:
    """Negative cases: a stream that is no terminal, and CI."""
    monkeypatch.delenv("CI", raising=False)
    piped = io.StringIO()
    _run_until_shown(piped, seconds=0.5)
    assert piped.getvalue() == ""
    monkeypatch.setenv("CI", "true")
    terminal = _Terminal()
    _run_until_shown(terminal, seconds=0.5)
    assert terminal.getvalue() == ""
