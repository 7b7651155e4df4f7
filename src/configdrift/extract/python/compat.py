"""Reading Python written in newer syntax than the running interpreter's.

configdrift runs on Python 3.11, whose ``ast`` cannot parse 3.12's ``type``
statements, generic parameters and nested f-string quotes, nor 3.14's
template strings and unparenthesised ``except A, B:``. A module that
``ast.parse`` rejects is parsed again with libcst (a parser for Python 3.0
through 3.15), and the newer constructs are rewritten into 3.11 syntax on
the same lines, so that every fact keeps its line number (in an isolated
child process, ``configdrift.isolate``: ``downgrade_isolated``):

- ``type Alias[T] = value`` becomes ``Alias = value``;
- generic parameters (``def f[T](...)``, ``class C[T: int]``) are dropped;
- an f-string or t-string (alone or in an implicit concatenation) becomes
  the tuple of the expressions it embeds (so the reads inside it are still
  seen), or across lines a name known only at runtime: a key built from one
  is unresolved, as it is when 3.11 reads an ordinary f-string;
- ``except A, B:`` gets its parentheses.

libcst is imported only when a module needs it.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import libcst as cst

#: The name an f-string becomes: a value known only at runtime.
PLACEHOLDER = "__configdrift_fstring__"
#: libcst's parser is native code that a pathological file (an expression
#: nested thousands deep) can crash or keep busy for minutes: it runs in a
#: child process, with a time limit per batch of files (this many seconds,
#: and one more per 100 kB) and then per file.
TIMEOUT_SECONDS = 10
#: A line this long (a data blob, a generated expression) is not handed to
#: libcst, whose time grows fast with it: such a file stays a parse error.
MAX_LINE = 20_000


def downgrade_isolated(sources: list[str]) -> list[str | None]:
    """``downgrade`` of each source, in a child process: a source that
    crashes the parser or exceeds the time limit reads as None, and the
    others are still rewritten."""
    wanted = [i for i, source in enumerate(sources) if _fits(source)]
    out: list[str | None] = [None] * len(sources)
    if not wanted:
        return out
    batch = [sources[i] for i in wanted]
    result = _run_child(batch)
    if result is None and len(batch) > 1:
        # The batch failed: one file at a time, so only the bad one is lost.
        result = [(_run_child([source]) or [None])[0] for source in batch]
    for i, text in zip(wanted, result or [None] * len(batch), strict=True):
        out[i] = text
    return out


def _fits(source: str) -> bool:
    return max(map(len, source.splitlines()), default=0) <= MAX_LINE


def _run_child(sources: list[str]) -> list[str | None] | None:
    from configdrift.isolate import run_python

    size = sum(len(source) for source in sources)
    try:
        proc = run_python(
            "configdrift.extract.python.compat",
            json.dumps(sources).encode("utf-8", "surrogatepass"),
            timeout=TIMEOUT_SECONDS + size / 100_000,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        return None
    if not isinstance(out, list) or len(out) != len(sources):
        return None
    return [text if isinstance(text, str) else None for text in out]


def downgrade(source: str) -> str | None:
    """``source`` rewritten into Python 3.11 syntax with the same lines, or
    None when no supported Python version parses it."""
    import libcst as cst

    # Untrusted input: whatever the parser or the rewriting raises (a syntax
    # error, nesting too deep, a node it cannot rebuild) means "not read".
    try:
        module = cst.parse_module(source)
        return str(module.visit(_transformer()()).code)
    except Exception:
        return None


def _expressions(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The expressions an f-string (or a concatenation holding some) embeds."""
    import libcst as cst

    if isinstance(node, cst.ConcatenatedString):
        return _expressions(node.left) + _expressions(node.right)
    if isinstance(node, cst.FormattedString | cst.TemplatedString):
        return [
            part.expression
            for part in node.parts
            if isinstance(part, cst.FormattedStringExpression | cst.TemplatedStringExpression)
        ]
    return []


def _placeholder(node: cst.CSTNode) -> cst.BaseExpression:
    """What a string built at runtime becomes, on the node's lines: on one
    line, the tuple of its embedded expressions (``f"{cfg["url"]}/x"`` still
    reads ``cfg["url"]``); across lines, a name known only at runtime."""
    import libcst as cst

    lines = cst.Module([]).code_for_node(node).count("\n")
    name = cst.Name(PLACEHOLDER)
    if not lines:
        parts = _expressions(node)
        if not parts:
            return name
        return cst.Tuple(
            elements=[cst.Element(value=part, comma=cst.Comma()) for part in parts],
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
        )
    newline = cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(),
        empty_lines=[cst.EmptyLine()] * (lines - 1),
    )
    return name.with_changes(
        lpar=[cst.LeftParen(whitespace_after=newline)], rpar=[cst.RightParen()]
    )


def _has_fstring(node: cst.CSTNode) -> bool:
    import libcst as cst

    if isinstance(node, cst.FormattedString | cst.TemplatedString):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _has_fstring(node.left) or _has_fstring(node.right)
    return False


@functools.cache
def _transformer() -> Any:
    """The rewriting pass's class (built on first use, with libcst imported)."""
    import libcst as cst

    class Downgrade(cst.CSTTransformer):
        def visit_FormattedString(self, node: cst.FormattedString) -> bool:
            return False  # replaced whole; its parts need no visit

        def leave_FormattedString(
            self, original_node: cst.FormattedString, updated_node: cst.FormattedString
        ) -> cst.BaseExpression:
            return _placeholder(original_node)

        def visit_TemplatedString(self, node: cst.TemplatedString) -> bool:
            return False

        def leave_TemplatedString(
            self, original_node: cst.TemplatedString, updated_node: cst.TemplatedString
        ) -> cst.BaseExpression:
            return _placeholder(original_node)

        def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
            return not _has_fstring(node)

        def leave_ConcatenatedString(
            self, original_node: cst.ConcatenatedString, updated_node: cst.ConcatenatedString
        ) -> cst.BaseExpression:
            return _placeholder(original_node) if _has_fstring(original_node) else updated_node

        def leave_TypeAlias(
            self, original_node: cst.TypeAlias, updated_node: cst.TypeAlias
        ) -> cst.Assign:
            return cst.Assign(
                targets=[cst.AssignTarget(target=updated_node.name)], value=updated_node.value
            )

        def leave_FunctionDef(
            self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
        ) -> cst.FunctionDef:
            return updated_node.with_changes(type_parameters=None)

        def leave_ClassDef(
            self, original_node: cst.ClassDef, updated_node: cst.ClassDef
        ) -> cst.ClassDef:
            return updated_node.with_changes(type_parameters=None)

        def leave_ExceptHandler(
            self, original_node: cst.ExceptHandler, updated_node: cst.ExceptHandler
        ) -> cst.ExceptHandler:
            return cast("cst.ExceptHandler", _parenthesised(updated_node))

        def leave_ExceptStarHandler(
            self, original_node: cst.ExceptStarHandler, updated_node: cst.ExceptStarHandler
        ) -> cst.ExceptStarHandler:
            return cast("cst.ExceptStarHandler", _parenthesised(updated_node))

    def _parenthesised(handler: Any) -> Any:
        """``except A, B:`` (3.14) as ``except (A, B):``."""
        kind = handler.type
        if isinstance(kind, cst.Tuple) and not kind.lpar:
            kind = kind.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return handler.with_changes(type=kind)
        return handler

    return Downgrade


def _main() -> None:
    """The child process: a JSON list of sources in, their rewritings out."""
    sources = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
    out = [downgrade(source) if isinstance(source, str) else None for source in sources]
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    _main()


#: What newer Python (3.12 and later) writes that 3.11's parser refuses:
#: ``type`` statements, type parameters, nested quotes in f-strings,
#: t-strings, ``except A, B:`` without parentheses (3.14). A syntax error
#: elsewhere is an error, not newer syntax.
_NEWER = re.compile(
    r"^\s*+type\s++\w|\b(?:def|class)\s++\w++\s*+\[|\bt[\"']|^\s*+except\*?\s++[\w.]++\s*+,"
)
#: Where an f-string begins (its quotes nested in a field are found by
#: ``_nested_quote``, with string methods: as a pattern, ``.*\{[^}]*"``
#: cost a long line its cube).
_FSTRING = re.compile(r"[rRbB]?[fF][\"']")


def _nested_quote(text: str) -> bool:
    """Does a replacement field after an f-string's start hold a quote
    (``f"{d["key"]}"``)? Each ``{`` to the ``}`` after it, once."""
    start = _FSTRING.search(text)
    if start is None:
        return False
    at = text.find("{", start.end())
    while at >= 0:
        close = text.find("}", at)
        if close < 0:
            return False
        field = text[at + 1 : close]
        if '"' in field or "'" in field:
            return True
        at = text.find("{", close)
    return False


def may_be_newer(source: str, line: int) -> bool:
    """Could the syntax error at ``line`` be newer Python's syntax? (Only
    such files are worth the slower parser of newer syntax.)"""
    lines = source.splitlines()
    return any(
        _NEWER.search(text) or _nested_quote(text) for text in lines[max(0, line - 3) : line + 2]
    )
