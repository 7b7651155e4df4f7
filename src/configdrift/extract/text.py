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


#: Bytes that end or separate Python tokens: their count bounds the number
#: of tokens, and so of syntax-tree nodes, from above (about two nodes per
#: such byte at worst, ``[a,a,a]``).
_SEPARATORS = b",()[]{}.:;=+-*/%<>|&^~@ \t\n"
_OTHER_BYTES = bytes(sorted(set(range(256)) - set(_SEPARATORS)))
#: Smaller files are parsed whatever they hold (their tree stays small).
DENSE_FROM = 256 * 1024
#: The most separators of a Python file that is parsed: a syntax tree costs
#: about 500 bytes a node, so this keeps one file's tree near 250 MB at worst
#: (a file of ``1,1,1,...``), and admits about 1 MB of ordinary code.
MAX_PYTHON_SEPARATORS = 250_000


def too_dense(data: bytes) -> str | None:
    """Why a Python file is not parsed, when its syntax tree would take more
    memory than one file may (``MAX_PYTHON_SEPARATORS``); None when it fits."""
    if len(data) < DENSE_FROM:
        return None
    count = len(data.translate(None, _OTHER_BYTES))
    if count <= MAX_PYTHON_SEPARATORS:
        return None
    return (
        f"about {count:,} tokens, more than configdrift parses in one file "
        f"({MAX_PYTHON_SEPARATORS:,}): not read"
    )
