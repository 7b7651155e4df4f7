"""Reading Python written in newer syntax than the running interpreter's.

configdrift runs on Python 3.11, whose ``ast`` cannot parse 3.12's ``type``
statements, generic parameters and nested f-string quotes, nor 3.14's
template strings and unparenthesised ``except A, B:``. A module that
``ast.parse`` rejects is parsed again with libcst (a parser for Python 3.0
through 3.15), and the newer constructs are rewritten into 3.11 syntax on
the same lines, so that every fact keeps its line number:

- ``type Alias[T] = value`` becomes ``Alias = value``;
- generic parameters (``def f[T](...)``, ``class C[T: int]``) are dropped;
- an f-string or t-string (alone or in an implicit concatenation) becomes a
  name that is not static: a key built from one is unresolved, as it is
  when 3.11 reads an ordinary f-string;
- ``except A, B:`` gets its parentheses.

libcst is imported only when a module needs it.
"""

from __future__ import annotations

import ast
import functools
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import libcst as cst

#: The name an f-string becomes: a value known only at runtime.
PLACEHOLDER = "__configdrift_fstring__"


def parse_python(source: str | bytes) -> ast.Module:
    """``ast.parse``, and for a module in newer syntax, the same module
    rewritten into the running interpreter's. Raises the first
    ``SyntaxError`` when no supported Python version parses it."""
    text = source if isinstance(source, str) else source.decode("utf-8", "replace")
    return parse_source(text)[0]


def parse_source(source: str) -> tuple[ast.Module, str]:
    """The module's tree and the source it was parsed from: ``source``
    itself, or its rewriting into the running interpreter's syntax."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source), source
        except SyntaxError as error:
            rewritten = downgrade(source)
            if rewritten is None:
                raise
            try:
                return ast.parse(rewritten), rewritten
            except SyntaxError:
                raise error from None


def downgrade(source: str) -> str | None:
    """``source`` rewritten into Python 3.11 syntax with the same lines, or
    None when no supported Python version parses it."""
    import libcst as cst

    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    try:
        return str(module.visit(_transformer()()).code)
    except (RecursionError, ValueError, TypeError):
        return None


def _placeholder(node: cst.CSTNode) -> cst.BaseExpression:
    """A name standing for a string built at runtime, spanning the node's lines."""
    import libcst as cst

    lines = cst.Module([]).code_for_node(node).count("\n")
    name = cst.Name(PLACEHOLDER)
    if not lines:
        return name
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
            kind = updated_node.type
            if isinstance(kind, cst.Tuple) and not kind.lpar:
                kind = kind.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
                return updated_node.with_changes(type=kind)
            return updated_node

        def leave_ExceptStarHandler(
            self, original_node: cst.ExceptStarHandler, updated_node: cst.ExceptStarHandler
        ) -> cst.ExceptStarHandler:
            kind = updated_node.type
            if isinstance(kind, cst.Tuple) and not kind.lpar:
                kind = kind.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
                return updated_node.with_changes(type=kind)
            return updated_node

    return Downgrade
