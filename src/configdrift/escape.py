"""What the tree holds, shown so that it cannot pass for anything else.

A file name, a key or a line of the checked tree can hold a newline (and
so start a line of its own), a carriage return (which overwrites a line on
a terminal), other control characters, bidirectional controls that reorder
what a reader sees (``\\u202e``), or invisible characters. And a line that
begins with ``::`` is a workflow command to GitHub Actions, which reads
every line a step prints (``::error ...``, ``::add-mask::``; the older
form begins with ``##[``).

- ``printable`` escapes every such character of one field (a path, a key,
  a message) visibly: ``\\x0a``, ``\\u202e``; a byte of a file name that is
  not UTF-8 reads ``\\udcff``.
- ``Guarded`` is the stream the command line writes through: it escapes
  what a field escaped might still hold (the same characters, but a newline,
  a tab, a carriage return that starts a write, as progress does, and
  colour sequences), and escapes the colon or the bracket that would make a
  line begin with ``::`` or ``##[``, unless the stream is the GitHub
  format's own output, whose lines are commands by design.
"""

from __future__ import annotations

import re
from typing import TextIO

#: Characters no field shows as they are: C0 and C1 controls (tab and
#: newline included), DEL, bidirectional controls and marks, zero-width
#: and other invisible formatting characters, line and paragraph
#: separators, tag characters, and the non-characters XML refuses.
_HIDDEN = (
    "\x00-\x1f\x7f-\x9f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ufffe\uffff"
    "\U000e0000-\U000e007f"
)
_FIELD = re.compile(f"[{_HIDDEN}]")
#: In a whole report: the same, but newline and tab, and an escape only
#: where it starts a colour sequence (``ESC [ digits m``).
_STREAM = re.compile(
    f"\x1b(?!\\[[0-9;]*m)|[{_HIDDEN.replace(chr(0) + '-' + chr(0x1F), '')}]|[\x00-\x08\x0b-\x1a\x1c-\x1f]"
)


#: ASCII a whole report may hold as it is (a faster test than ``_STREAM``).
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\n\t"


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """One field as every report format can show it: each hidden character
    (a control, a bidirectional control, an invisible one) as ``\\x0a`` or
    ``\\u202e``, a byte of a file name that is not UTF-8 (kept as a
    surrogate) as ``\\udcff``."""
    if text.isascii() and text.isprintable():
        return text
    text = _FIELD.sub(lambda m: _escape(m.group()), text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def printable_lines(text: str) -> str:
    """``printable`` for each line of a text whose lines are its own (a diff)."""
    return "\n".join(printable(line) for line in text.split("\n"))


#: What a line must not begin with (after blanks) to be read as a command,
#: and the same at the start of any line of a text, the character that
#: completes it apart.
_COMMANDS = ("::", "##[")
_COMMAND_START = re.compile(r"(\n[ \t]*(?::|##))([:\[])")
#: How the character that completes a command's start is written, per
#: format: visibly in text, as a character reference in markup (the
#: document reads the same once parsed).
_STYLES = {"text": None, "markup": "&#{code};"}


class Guarded:
    """A text stream over ``stream`` that no line of untrusted text can
    forge: see the module's docstring. ``commands`` lets lines begin with
    ``::`` (the GitHub format's own output); ``style`` is ``text`` or
    ``markup`` (XML and HTML)."""

    def __init__(self, stream: TextIO, *, commands: bool = False, style: str = "text") -> None:
        self.stream = stream
        self.commands = commands
        self.style = _STYLES[style]
        #: The non-blank characters of the current line so far, while they
        #: could still begin a command (``None`` once they cannot).
        self.head: str | None = ""

    def write(self, text: str) -> int:
        if not text:
            return 0
        written = len(text)
        lead = ""
        if text[0] == "\r":  # progress, redrawn in place
            lead, text, self.head = "\r", text[1:], ""
        if not text.isascii() or text.encode("ascii").translate(None, _PLAIN_ASCII):
            text = _STREAM.sub(lambda m: _escape(m.group()), text)
        if not self.commands:
            text = self._unforged(text)
        self.stream.write(lead + text)
        return written

    def _unforged(self, text: str) -> str:
        """``text`` with each command's start escaped: the rest of the
        current line as ``_line`` reads it, the lines after it at once."""
        end = text.find("\n")
        if end < 0:
            return self._line(text)
        first = self._line(text[:end])
        rest = _COMMAND_START.sub(self._command, text[end:])
        # What the last line, unfinished, could still become.
        self.head = ""
        self._line(rest[rest.rfind("\n") + 1 :])
        return first + rest

    def _line(self, line: str) -> str:
        """``line`` (the rest of the current line) with the character that
        would complete a command's start escaped."""
        if self.head is None:
            return line
        # Blanks count only before the first character of the line.
        start = len(line) - len(line.lstrip(" \t")) if not self.head else 0
        for position in range(start, min(len(line), start + 3)):
            self.head += line[position]
            if self.head in _COMMANDS:
                self.head = None
                return line[:position] + self._escaped(line[position]) + line[position + 1 :]
            if not any(command.startswith(self.head) for command in _COMMANDS):
                self.head = None
                return line
        return line

    def _command(self, match: re.Match[str]) -> str:
        """A line's start that could be a command's: escaped where it is one
        (``::``, ``##[``; not ``:[`` or ``##:``)."""
        start, last = match.group(1), match.group(2)
        if (start[-1] == ":") != (last == ":"):
            return match.group()
        return start + self._escaped(last)

    def _escaped(self, char: str) -> str:
        if self.style is None:
            return _escape(char)
        return self.style.format(code=ord(char))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def for_format(stream: TextIO, output_format: str, *, report: bool = True) -> Guarded:
    """The guard over ``stream`` for a report in ``output_format``: the
    GitHub format's own lines are commands, XML and HTML are markup. With
    ``report`` False the stream carries no report (it went to a file)."""
    return Guarded(
        stream,
        commands=report and output_format == "github",
        style="markup" if report and output_format in ("junit", "html") else "text",
    )


def guarded_text(text: str, output_format: str) -> str:
    """``text`` as the guard writes it for ``output_format`` (a report
    written to a file reads as it would on standard output)."""
    import io

    buffer = io.StringIO()
    for_format(buffer, output_format).write(text)
    return buffer.getvalue()
