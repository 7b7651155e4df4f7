"""Pages a site's build makes: the pages ``mkdocs.yml``'s nav lists that
the tree does not hold, under names that look like configuration
references (a hook, a plugin or a script writes them when the site is
built), so that a reference nobody can compare is told, not missed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from configdrift.discover import looks_like_reference
from configdrift.files import read_or_none

#: The most nodes of mkdocs.yml's nav looked at.
MAX_NAV_NODES = 5000


def built_pages(root: Path) -> list[str]:
    """Pages mkdocs.yml's nav lists that the tree does not hold, under
    names that look like configuration references: made when the site is
    built (a hook, a plugin, a script), so never compared. The file is
    composed, not constructed: no tag of it runs anything."""
    import yaml

    raw = read_or_none(root, "mkdocs.yml", 1024 * 1024)
    if raw is None:
        return []
    try:
        node = yaml.compose(raw.decode("utf-8", "replace"), Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return []
    if not isinstance(node, yaml.MappingNode):
        return []
    top = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    docs_dir = top.get("docs_dir")
    folder = docs_dir.value if isinstance(docs_dir, yaml.ScalarNode) else "docs"
    pages: list[str] = []
    stack = [top["nav"]] if "nav" in top else []
    seen = 0
    while stack and seen < MAX_NAV_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, yaml.ScalarNode):
            value = str(item.value)
            if value.endswith(".md") and "://" not in value:
                pages.append(f"{folder.strip('/')}/{value.lstrip('/')}")
        elif isinstance(item, yaml.SequenceNode):
            stack.extend(reversed(item.value))
        elif isinstance(item, yaml.MappingNode):
            stack.extend(value for _, value in reversed(item.value))
    # A page outside the tree (``docs_dir: ../site``, ``../x.md``) is not
    # the project's, and is not looked at.
    return [
        page
        for page in pages
        if looks_like_reference(page)
        and os.path.normpath(page).split(os.sep, 1)[0] != os.pardir
        and not os.path.lexists(root / page)
    ]


#: A built page named for a command line (``cli.md``, ``commands.md``).
_COMMAND_PAGE = re.compile(r"(?<![a-z])(?:cli|commands?)(?![a-z])", re.IGNORECASE)


def built_commands(root: Path) -> list[str]:
    """The built pages (``built_pages``) named for a command line: its
    reference, generated from the parser when the site is built."""
    return [page for page in built_pages(root) if _COMMAND_PAGE.search(page.rsplit("/", 1)[-1])]
