"""Decoding a file's bytes as text, with the place of a failure."""

from __future__ import annotations


class NotText(Exception):
    """The bytes are not UTF-8; ``line`` is where the first bad byte is."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def decode(data: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped), or ``NotText``."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NotText(f"not UTF-8 ({exc.reason} at byte {exc.start})", line) from None
