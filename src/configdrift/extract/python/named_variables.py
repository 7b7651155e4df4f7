"""The environment variables a module names outside its reads: in an
option's help text (``help="... [env var: APP_TOKEN]"``), which ``--help``
shows and a generated command-line reference renders, or as a key it
writes (``env["APP_HOOK"] = "1"``, ``os.environ["APP_HOOK"] = ...``,
``os.environ.update(APP_HOOK="1")``), set
by the project itself for a process it starts. Read off the source text
(no walk of its tree)."""

from __future__ import annotations

import io
import re
import tokenize

from configdrift.extract.docs.label_values import VARIABLE

#: How far after ``help=`` a help text is read.
HELP_WINDOW = 400
#: A variable written as a key: ``env["APP_HOOK"] =`` (not ``==``).
_WRITTEN = re.compile(r"""\[["']([A-Z][A-Z0-9_]{1,100})["']\] {0,3}=(?!=)""")


def variables_named(source: str) -> list[str]:
    """The variables ``source`` names in help texts or writes as keys."""
    out: set[str] = set()
    at = source.find("help=")
    while at >= 0:
        text = _strings(source[at + 5 : at + 5 + HELP_WINDOW])
        out.update(m.group() for m in VARIABLE.finditer(text))
        at = source.find("help=", at + 5)
    if "] =" in source or "]=" in source:
        out.update(m.group(1) for m in _WRITTEN.finditer(source) if VARIABLE.fullmatch(m.group(1)))
    at = source.find("environ.update(")
    while at >= 0:
        # ``os.environ.update(APP_LOG_LEVEL=level, ...)``: keywords written.
        window = _arguments(source[at + 14 : at + 14 + HELP_WINDOW])
        out.update(m.group(1) for m in _KEYWORD.finditer(window) if VARIABLE.fullmatch(m.group(1)))
        at = source.find("environ.update(", at + 15)
    return sorted(out)


def _arguments(text: str) -> str:
    """The arguments of the call ``text`` opens with (its ``(`` first), to
    its closing bracket or the end of ``text``."""
    depth = 0
    for at, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if depth == 0:
            return text[: at + 1]
    return text


#: A keyword argument in capitals: ``(APP_LOG_LEVEL=`` or ``, APP_LOG_LEVEL=``
#: (not ``==``).
_KEYWORD = re.compile(r"[(,]\s{0,100}([A-Z][A-Z0-9_]{1,100}) {0,3}=(?!=)")


#: The tokens a help text written in parts may have between its strings.
_BETWEEN = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
)


def _strings(text: str) -> str:
    """The string literals ``text`` opens with, joined (a help text written
    in parts, ``"a " "b"``); empty where it opens with none."""
    parts: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING:
                parts.append(token.string)
            elif token.type in _BETWEEN or (token.string == "(" and not parts):
                continue  # a line break or an opening bracket between the parts
            else:
                break
    except (tokenize.TokenError, SyntaxError):
        pass  # the window ends inside a string: what was read so far
    return " ".join(parts)
