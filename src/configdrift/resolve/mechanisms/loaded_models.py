"""Models built from a whole dict (``Config(**yaml.safe_load(fh))``,
``AppConfig(**raw)``): a configuration's schema, a surface of its own when
the root does not hold it.

Loaded whole from a file, the model is that file's schema by
construction: two documented keys, half of its own, will do. Built from
a dict the code does not show the origin of (a function's parameter), it
may as well be a record of data (an event, a request's payload): only a
page whose path says it is a configuration reference counts as evidence
then, or a page that names the model in code (``GroupConfig``), and the
usual three keys, half of the model's.
"""

from __future__ import annotations

from configdrift.index.pages import ENTRY
from configdrift.model import SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery

#: The documented keys that confirm a model loaded whole from a file.
LOADED_LEAST = 2


def surfaces(discovery: Discovery) -> list[Surface]:
    """Models built from a whole dict that the root does not hold, where
    the docs document their keys."""
    found: list[Surface] = []
    mounted = discovery.mounted()
    builder = discovery.builder
    for symbol, location in sorted(
        builder.whole_models.items(), key=lambda i: (i[1].path, i[1].line)
    ):
        if symbol.qualname in mounted:
            continue
        node = builder.model_root(symbol)
        whole = f"built from a whole dict ({location.path}:{location.line})"
        if symbol in builder.loaded_models:
            if not discovery.claim(node, least=LOADED_LEAST):
                continue
            how = f"built from a loaded file's contents ({location.path}:{location.line})"
        elif discovery.references is not None and discovery.claim(node, discovery.references()):
            how = f"{whole}; a configuration reference page documents its keys"
        elif (page := _naming(discovery, symbol.qualname, node)) is not None:
            how = f"{whole}; {page} names it and documents its keys"
        else:
            continue
        found.append(Surface(symbol.qualname, node, how, [], symbol.target))
    return found


def _naming(discovery: Discovery, name: str, node: SchemaNode) -> str | None:
    """The page that names the model in its prose (``GroupConfig``) and
    documents its keys (three, half of its own), if one does."""
    for page in discovery.page_keys():
        if name in page.classes and discovery.claim(node, page.names(ENTRY)):
            return page.page
    return None
