"""The status line a long run shows on a terminal: after about two
seconds, ``configdrift: reading 1,234 files (3 s)`` on standard error,
rewritten in place and erased when the run ends. Never in a pipe, a file,
a CI log (``CI`` set) or a dumb terminal."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from typing import TextIO

from configdrift.escape import printable

#: Seconds a run lasts before the line appears.
DELAY = 2.0
#: Seconds between two rewrites of the line.
TICK = 0.25


def wanted(stream: TextIO) -> bool:
    """Does ``stream`` take a status line?"""
    isatty = getattr(stream, "isatty", None)
    return bool(
        isatty is not None
        and isatty()
        and not os.environ.get("CI")
        and os.environ.get("TERM", "") != "dumb"
    )


@contextlib.contextmanager
def status_line(stream: TextIO, delay: float = DELAY) -> Iterator[None]:
    """Show the run's stages on ``stream`` while the block runs, when it
    takes one."""
    from configdrift.progress import listening

    if not wanted(stream):
        yield
        return
    state = {"stage": "starting", "shown": False}
    done = threading.Event()
    started = time.monotonic()

    def show() -> None:
        while not done.wait(TICK):
            elapsed = time.monotonic() - started
            if elapsed < delay:
                continue
            text = printable(f"configdrift: {state['stage']} ({elapsed:.0f} s)")
            stream.write(f"\r\x1b[K{text}")
            stream.flush()
            state["shown"] = True

    def update(what: str) -> None:
        state["stage"] = what

    thread = threading.Thread(target=show, name="configdrift-status", daemon=True)
    thread.start()
    try:
        with listening(update):
            yield
    finally:
        done.set()
        thread.join()
        if state["shown"]:
            stream.write("\r\x1b[K")
            stream.flush()
