"""Models built from a whole dict loaded from a file
(``Config(**yaml.safe_load(fh))``): a config file's schema, a surface of
its own when the root does not hold it."""

from __future__ import annotations

from configdrift.model import Surface
from configdrift.resolve.mechanisms.base import Discovery

#: The documented keys that confirm a model loaded whole from a file.
LOADED_LEAST = 2


def surfaces(discovery: Discovery) -> list[Surface]:
    """Models built from a whole dict loaded from a file
    (``Config(**yaml.safe_load(fh))``) that the root does not hold."""
    found: list[Surface] = []
    mounted = discovery.mounted()
    for symbol, location in sorted(
        discovery.builder.loaded_models.items(), key=lambda i: (i[1].path, i[1].line)
    ):
        if symbol.qualname in mounted:
            continue
        node = discovery.builder.model_root(symbol)
        # Loaded from a file whole, the model is that file's schema by
        # construction: two documented keys, half of its own, will do.
        if discovery.claim(node, least=LOADED_LEAST):
            how = f"built from a loaded file's contents ({location.path}:{location.line})"
            target = f"{symbol.module}:{symbol.qualname}"
            found.append(Surface(symbol.qualname, node, how, [], target))
    return found
