"""What a long run is doing, for a status line on a terminal.

The stages call ``stage("reading 1,234 files")``; nothing listens unless
the command line installed a listener (``listening``), which it does only
for a terminal, outside CI. Calls cost a function call when nobody
listens."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

_listener: Callable[[str], None] | None = None


def stage(what: str) -> None:
    """Say what the run does now."""
    if _listener is not None:
        _listener(what)


@contextlib.contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Send the stages to ``listener`` while the block runs."""
    global _listener
    before, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = before
