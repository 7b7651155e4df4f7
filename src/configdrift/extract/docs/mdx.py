"""MDX pages: Markdown with JSX tags and ``import``/``export`` statements,
read as the Markdown they wrap."""

from __future__ import annotations

import re

#: A JSX element's tag at the start of a line: a component (capitalised) or
#: a fragment.
_JSX_OPEN = re.compile(r"<([A-Z][\w.]*)\b|<>")


_JSX_CLOSE = re.compile(r"</([A-Z][\w.]*)?\s*>\s*$")


_MDX_STATEMENT = re.compile(r"(?:import|export)\s")


_FENCE = re.compile(r"(`{3,}|~{3,})")


def mdx_markdown(text: str) -> str:
    """The Markdown of an MDX page, line for line: ``import``/``export``
    statements and the lines of JSX component tags are blanked, and the
    content of a component (``<Tab title="Python">`` then an indented
    table) loses the indentation its component gave it, so that it reads
    as Markdown rather than as a code block."""
    out: list[str] = []
    #: The indentation each open component's content has (None until its
    #: first line), innermost last.
    stack: list[int | None] = []
    fence: str | None = None
    in_tag = False
    for line in text.split("\n"):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if in_tag:
            # The attributes of a tag spread over lines, up to its ``>``.
            in_tag = ">" not in stripped
            if not in_tag and not stripped.rstrip().endswith("/>"):
                stack.append(None)
            out.append("")
            continue
        if fence is None:
            if not stack and _MDX_STATEMENT.match(line):
                out.append("")
                continue
            if _JSX_CLOSE.match(stripped) and stack and stripped.startswith("</"):
                stack.pop()
                out.append("")
                continue
            opened = _JSX_OPEN.match(stripped)
            if opened is not None:
                name = opened.group(1) or ""
                rest = stripped[opened.end() :]
                if ">" not in rest:
                    in_tag = True
                elif not (rest.rstrip().endswith("/>") or (name and f"</{name}>" in rest)):
                    stack.append(None)
                out.append("")
                continue
        if stack and stripped and stack[-1] is None:
            stack[-1] = indent
        cut = min(indent, stack[-1] or 0) if stack else 0
        line = line[cut:]
        found = _FENCE.match(line.lstrip())
        if found is not None:
            if fence is None:
                fence = found.group(1)
            elif found.group(1).startswith(fence) and not line.strip()[len(found.group(1)) :]:
                fence = None
        out.append(line)
        if len(stack) > _MAX_JSX_DEPTH:
            stack = stack[-_MAX_JSX_DEPTH:]
    return "\n".join(out)


#: Components nested deeper than this are not followed (their content keeps
#: the indentation of the deepest one followed).
_MAX_JSX_DEPTH = 64
