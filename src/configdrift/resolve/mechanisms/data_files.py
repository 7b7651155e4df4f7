"""A file of defaults that is the registry: a YAML, JSON, TOML or INI file
shipped in a package and loaded by its code (``dask.yaml``, named by the
module beside it), each key with its default.

Users write these keys in their own files (or read them with dotted paths,
``config.get("array.chunk-size")``), so the configuration is open: nothing
is said of a key the file lacks. A file the code loads is a configuration
even where no page names its keys: its keys are then undocumented, unless
a page renders the file (names it, as a directive that builds a reference
from it does).
"""

from __future__ import annotations

from configdrift.extract.docs.block_model import BlockKey
from configdrift.model import SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.confuse import add_file_keys
from configdrift.resolve.schema import new_root


def file_root(rel: str, keys: list[BlockKey]) -> SchemaNode:
    """The keys of one defaults file, with their defaults."""
    root = new_root()
    root.model, root.model_kind = rel, "defaults"
    add_file_keys(root, rel, keys)
    return root


#: Dotted paths the code reads that admit a defaults file no page names.
MIN_READ = 3


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each defaults file the code loads whose keys the docs name (three,
    by their name or their dotted path); it is kept where no page is
    taken for its own, its keys then undocumented unless a page renders
    the file."""
    found: list[Surface] = []
    words = discovery.words()
    for rel, keys, quoted, covered in discovery.builder.data_files:
        root = file_root(rel, keys)
        named = frozenset(
            s
            for n in root.walk()
            if n is not root and (n.key in words or ".".join(n.path) in words)
            for s in n.spellings or (n.key,)
        )
        # The code reads three of its keys by their dotted paths: the code
        # alone shows it is a configuration.
        read = frozenset(
            s for n in root.walk() if ".".join(n.path) in quoted for s in n.spellings or (n.key,)
        )
        if discovery.claim(root, named) or (
            len(quoted) >= MIN_READ and discovery.claim(root, read)
        ):
            how = f"the defaults file {rel}, loaded by the code beside it"
            if quoted:
                how += f", {len(quoted)} of its keys read by their dotted path"
            surface = Surface(rel.rsplit("/", 1)[-1], root, how, [], "")
            surface.admitted = (
                f"the code reads {len(quoted)} of its keys by their dotted paths"
                if len(quoted) >= MIN_READ
                else "the code loads it and the docs name its keys"
            )
            surface.unread = _unread(root, quoted, covered)
            found.append(surface)
    return found


#: The share of a defaults file's dotted keys the code must name before one
#: it never names is taken for read by nothing.
NAMED_SHARE = 0.5


def _unread(root: SchemaNode, quoted: frozenset[str], covered: frozenset[str]) -> frozenset[str]:
    """The dotted keys (two parts or more) no code names, where the code
    reads ``MIN_READ`` of them by their dotted paths and names half."""
    dotted = {".".join(n.path) for n in root.walk() if len(n.path) >= 2 and not n.children}
    if len(quoted) < MIN_READ or len(dotted & covered) < NAMED_SHARE * len(dotted):
        return frozenset()
    return frozenset(dotted - covered)
