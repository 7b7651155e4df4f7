"""Scripts a site's build runs, and the models they render into pages.

A Quarto site names scripts it runs before and after rendering
(``project: pre-render:`` in ``_quarto.yml``); a MkDocs site names its
hooks (``hooks:`` in ``mkdocs.yml``). Such a script that imports a model
writes the model's reference when the site is built (a page of its fields
and their descriptions): the model's described keys are documented there,
though no page of the tree lists them. The site files are composed, never
constructed (no tag of them runs anything), and the scripts are read as
bytes, never run.
"""

from __future__ import annotations

import os
from pathlib import Path

from configdrift.files import read_or_none
from configdrift.model import Location

#: The site files read, each with the keys (a path of mapping keys) that
#: name the scripts its build runs.
SITE_FILES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    ("_quarto.yml", (("project", "pre-render"), ("project", "post-render"))),
    ("mkdocs.yml", (("hooks",),)),
)
#: The most bytes of a site file or a script read.
MAX_SITE_BYTES = 1024 * 1024
#: The most scripts looked at.
MAX_SCRIPTS = 50
#: The most lines of an import in parentheses read.
MAX_IMPORT_LINES = 50


def build_scripts(root: Path) -> list[str]:
    """The Python scripts of the tree a site's build runs, as paths from
    ``root`` (a script outside the tree is not looked at)."""
    import yaml

    scripts: list[str] = []
    for name, paths in SITE_FILES:
        raw = read_or_none(root, name, MAX_SITE_BYTES)
        if raw is None:
            continue
        try:
            node = yaml.compose(raw.decode("utf-8", "replace"), Loader=yaml.SafeLoader)
        except (yaml.YAMLError, RecursionError):
            continue
        for path in paths:
            value: object = node
            for key in path:
                value = _get(value, key)
            items = value.value if isinstance(value, yaml.SequenceNode) else [value]
            for item in items:
                # A script named alone or run by a command (``python x.py``).
                words = str(item.value).split() if isinstance(item, yaml.ScalarNode) else []
                for word in (w for w in words if w.endswith(".py")):
                    rel = os.path.normpath(word)
                    if not rel.startswith((os.pardir, os.sep)):
                        scripts.append(rel.replace(os.sep, "/"))
    return list(dict.fromkeys(scripts))[:MAX_SCRIPTS]


def _get(node: object, key: str) -> object:
    """The value of ``key`` in a composed mapping; None where it is none."""
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def rendered_by_scripts(
    root: Path, scripts: list[str], modules: list[str], qualname: str
) -> list[Location]:
    """The build scripts that import the class ``qualname`` from one of
    ``modules`` (the names of its file: ``from pkg.config import
    Model``, on one line or in parentheses), at the import's line."""
    name = qualname.partition(".")[0].encode()
    heads = [f"from {module} import".encode() for module in modules]
    out: list[Location] = []
    for rel in scripts:
        data = read_or_none(root, rel, MAX_SITE_BYTES)
        if data is None or name not in data:
            continue
        lines = data.splitlines()
        for number, line in enumerate(lines, start=1):
            head = next((h for h in heads if line.startswith(h)), None)
            if head is None:
                continue
            names = line[len(head) :]
            if names.strip().startswith(b"("):
                names = b" ".join(lines[number - 1 : number + MAX_IMPORT_LINES]).partition(b")")[0]
            if name in names.replace(b"(", b" ").replace(b",", b" ").split():
                out.append(Location(rel, number))
                break
    return out
