"""What a Markdown page says of its keys outside entries and blocks: the
MyST roles that point at keys (``{confval}`name```) and the documentation
macros of an HTML comment (``<!-- md:default `true` -->``)."""

from __future__ import annotations

import itertools

from markdown_it.token import Token

from configdrift.extract.docs.entry_text import KEY_ROLES, MYST_ROLE, role_target


def role_references(inline: Token) -> list[tuple[str, str]]:
    """(role, target) of each MyST role of the paragraph that points at a
    key: ``{confval}`name```."""
    out: list[tuple[str, str]] = []
    for before, child in itertools.pairwise(inline.children or []):
        if child.type != "code_inline" or before.type != "text":
            continue
        match = MYST_ROLE.search(before.content)
        target = role_target(child.content) if match else None
        if match and match.group(1) in KEY_ROLES and target:
            out.append((match.group(1), target))
    return out


#: The most links to code files kept of one page.
MAX_CODE_LINKS = 200


def code_links(tokens: list[Token]) -> list[tuple[str, int]]:
    """The targets of the page's links to Python files (``[FSDP config
    file](../../src/configs/fsdp.py)``, a line anchor left out), with
    their lines."""
    found: list[tuple[str, int]] = []
    for token in tokens:
        if token.type != "inline" or token.map is None:
            continue
        for child in token.children or []:
            href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
            target = href.partition("#")[0]
            if target.endswith(".py") and len(found) < MAX_CODE_LINKS:
                found.append((target, token.map[0] + 1))
    return found


def comment_default(content: str) -> str | None:
    """The default a documentation macro of an HTML block gives:
    ``<!-- md:default `true` -->``."""
    for line in content.splitlines()[:20]:
        line = line.strip()
        if not (line.startswith("<!--") and line.endswith("-->")):
            continue
        words = line[4:-3].split(None, 1)
        if len(words) == 2 and words[0] == "md:default":
            return words[1].strip()
    return None
