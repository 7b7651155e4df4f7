"""Example configs placed with certainty: doc blocks whose top-level keys
are the config's (a whole config, a few keys wrong), fragments the page's
section places, and the dicts of tests and examples shaped like a whole
config."""

from __future__ import annotations

from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.docs.facts import Block, DocFacts
from configdrift.extract.python.examples import PyExample
from configdrift.index.spellings import one_edit
from configdrift.model import CLI_KINDS, LIST_ITEM, ConfigPath, SchemaNode, spellings_of
from configdrift.place.entries import DocPlacer
from configdrift.place.pages import near_keys


def _misspelt(top: str, block: Block, schema: SchemaNode) -> bool:
    """Is an unknown top-level key of an example a misspelling of one of
    the config's: a near spelling whose value has the same shape (a list
    under ``models`` is no misspelt ``model`` string)?"""
    from configdrift.extract.docs.block_model import DICT, LIST, PLACEHOLDER
    from configdrift.model import near_spelling

    if schema.child(top) is not None:
        return False
    close = near_spelling(top, schema)
    node = schema.child(close) if close is not None else None
    if node is None:
        return False
    own = next((k for k in block.keys if k.path == (top,)), None)
    nested = any(len(k.path) > 1 and k.path[0] == top for k in block.keys)
    kind = DICT if nested else own.kind if own is not None else PLACEHOLDER
    if kind == PLACEHOLDER:
        return True
    if node.children:
        return kind == DICT
    wanted = {DICT: {"dict"}, LIST: {"list"}}.get(kind, {"str", "int", "float", "bool", "null"})
    return not node.type.kinds or bool(node.type.kinds & wanted)


def _config_shaped(tops: int, known: int) -> bool:
    """Is a mapping with ``tops`` top-level keys, ``known`` of them the
    config's, a whole config with a few wrong keys? Two known keys or more,
    and at least three quarters: an inference config that shares a couple
    of section names with the training one is not taken for it."""
    return known >= 2 and 4 * known >= 3 * tops


def config_dicts(
    facts: dict[str, list[PyExample]], tops: set[str]
) -> list[tuple[str, Block, ConfigPath]]:
    """Dicts of tests and examples shaped like a whole config
    (``_config_shaped``), each a block whose keys sit at the top of the
    config."""
    out: list[tuple[str, Block, ConfigPath]] = []
    for rel, examples in facts.items():
        for example in examples:
            keys = {k.path[0] for k in example.keys if len(k.path) == 1}
            if _config_shaped(len(keys), len(keys & tops)):
                what = f"the config passed to `{example.callee}`"
                out.append((rel, Block(0, example.line, "python", example.keys, what=what), ()))
    return out


def example_pages(
    facts: dict[str, DocFacts], sources: list[tuple[str, DocFacts]]
) -> list[tuple[str, DocFacts]]:
    """Pages that are not doc sources but show example blocks (tutorials)."""
    taken = {rel for rel, _ in sources}
    return [
        (rel, doc)
        for rel, doc in facts.items()
        if rel not in taken and doc.error is None and (doc.blocks or doc.loose_settings)
    ]


def broken_blocks(
    pages: list[tuple[str, DocFacts]], spellings: set[str]
) -> list[tuple[str, Block]]:
    """Blocks in a config language that could not be read whole, and that
    name a key of the schema: meant as configs."""
    return [
        (rel, block)
        for rel, doc in pages
        for block in doc.blocks
        if block.error is not None and any(k.path[-1] in spellings for k in block.keys)
    ]


def placed_blocks(
    schema: SchemaNode,
    pages: list[tuple[str, DocFacts]],
    placer: DocPlacer | None,
    former: set[str],
) -> list[tuple[str, Block, ConfigPath]]:
    """Example blocks placed with certainty: a block all of whose top-level
    keys are top-level keys of the config (a whole config, or
    ``{"zero_optimization": {...}}``), a whole config with a few wrong
    top-level keys (``_config_shaped``), or a one-key fragment
    (``"offload_param": {...}``) whose key the schema places under its
    section (on doc sources, which ``placer`` has placed). Other fragments
    are not judged. ``former`` top-level keys (removed or deprecated) count
    as the config's."""
    decided = {(rel, bid): base for rel, bid, base in placer.blocks} if placer else {}
    out: list[tuple[str, Block, ConfigPath]] = []

    def ours(top: str) -> bool:
        return top in former or schema.child(top) is not None

    foreign = _foreign_tables(schema, pages)
    for rel, doc in pages:
        for bid, block in enumerate(doc.blocks):
            if block.error is not None:
                continue  # past a broken bracket, where a key sits is a guess
            tops = {key.path[0] for key in block.keys}
            known = sum(1 for top in tops if ours(top))
            # A misspelling of a top-level key is evidence of the config
            # too (``show_out_of_stok`` beside ``currency``, ``page_size``).
            near = sum(1 for top in tops if top not in former and _misspelt(top, block, schema))
            # traitlets' classes are an open set (another package's class
            # is configured beside the project's), as are the keys of a
            # file others register in too (Sphinx's ``conf.py``): one of
            # the project's places the block.
            open_set = schema.model_kind in ("traitlets", "named") and known >= 1
            if len(tops) == known == 1 and not open_set and tops <= foreign:
                continue  # another file's table under a key the config shares
            if tops and (
                open_set
                or known == len(tops)
                or (known >= 2 and _config_shaped(len(tops), known + near))
            ):
                out.append((rel, block, ()))
            elif (rel, bid) in decided:
                out.append((rel, block, decided[(rel, bid)]))
            elif (
                inner := _under_its_name(schema, block, tops) or _in_tool_table(schema, block, tops)
            ) is not None:
                out.append((rel, inner, ()))
        if schema.model_kind == "named":
            # Settings in small letters with no lead-in (``mermaid_cmd =
            # "npx mmdc"``) are a ``conf.py``'s where they set one of the
            # keys the code registers by name for it.
            out.extend(
                (rel, block, ())
                for block in doc.loose_settings
                if any(ours(key.path[0]) for key in block.keys)
            )
    return out


#: The names of their own the blocks must set under a key for it to be
#: taken for another file's table.
MIN_FOREIGN_NAMES = 3


def _foreign_tables(schema: SchemaNode, pages: list[tuple[str, DocFacts]]) -> set[str]:
    """The top-level keys of a lenient config under which the blocks of
    that one key set names of the user's own (a Pipfile's ``[packages]``
    of ``requests``, ``flask``, ``numpy`` beside a resolver request's
    ``packages``): ``MIN_FOREIGN_NAMES`` of them or more across the pages,
    none the config's in any spelling, nor one a letter off. A strict
    config's key is refused whatever the file."""
    below: dict[str, set[str]] = {}
    for _, doc in pages:
        for block in doc.blocks:
            tops = {key.path[0] for key in block.keys}
            if len(tops) == 1 and block.error is None:
                names = below.setdefault(next(iter(tops)), set())
                names.update(key.path[1] for key in block.keys if len(key.path) > 1)
    out: set[str] = set()
    for top, names in below.items():
        node = schema.child(top)
        if node is None or node.strict is True or len(names) < MIN_FOREIGN_NAMES:
            continue
        if not any(
            name in node.children
            or node.child(name) is not None
            or any(one_edit(name, key) for key in node.children)
            for name in names
        ):
            out.add(top)
    return out


def _under_its_name(schema: SchemaNode, block: Block, tops: set[str]) -> Block | None:
    """A block that holds the configuration under one key named as the
    table or class that declares it (``settings:`` over the keys of
    ``SETTINGS``): the keys under it, as a whole config."""
    if len(tops) != 1 or not schema.model:
        return None
    (top,) = tops
    name = schema.model.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    if top.lower() != name.lower() or schema.child(top) is not None:
        return None
    return _below(schema, block, 1, f"the `{top}` section")


def listed_blocks(
    schema: SchemaNode, pages: list[tuple[str, DocFacts]]
) -> list[tuple[str, Block, ConfigPath]]:
    """The example blocks that hold the configuration as one named item of
    a list (``_in_list_item``), and only those: where a MkDocs plugin's
    options are set. Once a block shaped like the configuration names the
    item (``- rss:``), a block that sets a few of its options under that
    name is the configuration's too (a section's own example)."""
    placed: list[tuple[str, Block, ConfigPath]] = []
    names: set[tuple[str, str]] = set()
    rest: list[tuple[str, Block]] = []
    for rel, doc in pages:
        for block in doc.blocks:
            if block.error is not None:
                continue
            found = _in_list_item(schema, block)
            if found is None:
                rest.append((rel, block))
                continue
            item, inner = found
            names.add(item)
            placed.append((rel, inner, ()))
    for rel, block in rest:
        items = _list_items(schema, block)
        if len(items) == 1 and (item := next(iter(items))) in names:
            top, name = item
            keys = [key.under(3) for key in items[item]]
            what = f"the `{name}` item of `{top}`"
            placed.append((rel, Block(block.section, block.line, block.lang, keys, what=what), ()))
    return placed


def _list_items(schema: SchemaNode, block: Block) -> dict[tuple[str, str], list[BlockKey]]:
    """The keys a block sets under each named item of a list under a key
    that is none of the configuration's (``plugins: - rss: {...}``), by the
    list's key and the item's name."""
    items: dict[tuple[str, str], list[BlockKey]] = {}
    for key in block.keys:
        if len(key.path) > 3 and key.path[1] == LIST_ITEM and schema.child(key.path[0]) is None:
            items.setdefault((key.path[0], key.path[2]), []).append(key)
    return items


def _in_list_item(schema: SchemaNode, block: Block) -> tuple[tuple[str, str], Block] | None:
    """A block that holds the configuration as one named item of a list
    under a key that is none of the configuration's (MkDocs's
    ``plugins:``, each item a name over its options: ``- my-plugin:
    {locale: en}``, beside ``site_name`` and the rest of ``mkdocs.yml``):
    the item, and the keys under the one item shaped like the
    configuration, as a whole config."""
    found = [
        ((top, name), inner)
        for (top, name), keys in sorted(_list_items(schema, block).items())
        if (
            inner := _below(
                schema,
                Block(block.section, block.line, block.lang, keys),
                3,
                f"the `{name}` item of `{top}`",
            )
        )
        is not None
    ]
    return found[0] if len(found) == 1 else None


def _in_tool_table(schema: SchemaNode, block: Block, tops: set[str]) -> Block | None:
    """A ``pyproject.toml`` block that holds the configuration in one tool's
    table (``[tool.app]`` over its keys): the keys under it, as a whole
    config."""
    if tops != {"tool"}:
        return None
    tools = {k.path[1] for k in block.keys if len(k.path) > 1}
    if len(tools) != 1:
        return None
    return _below(schema, block, 2, f"the `[tool.{next(iter(tools))}]` table")


def _below(schema: SchemaNode, block: Block, depth: int, what: str) -> Block | None:
    """The keys ``depth`` levels down a block, as a whole config where they
    are shaped like one (``_config_shaped``)."""
    inner = [k.under(depth) for k in block.keys if len(k.path) > depth]
    firsts = {k.path[0] for k in inner}
    known = sum(1 for first in firsts if schema.child(first) is not None)
    # A key a letter off one of the configuration's is its, misspelt.
    near = near_keys({f for f in firsts if schema.child(f) is None}, set(schema.children))
    if not (known >= 1 and _config_shaped(len(firsts), known + len(near))):
        return None
    return Block(block.section, block.line, block.lang, inner, what=what)


def placed_examples(
    schema: SchemaNode,
    pages: list[tuple[str, DocFacts]],
    shown: list[tuple[str, DocFacts]],
    placer: DocPlacer,
    former: set[str],
    files: list[tuple[str, Block]],
    dicts: list[tuple[str, Block, ConfigPath]],
) -> tuple[list[tuple[str, Block, ConfigPath]], list[tuple[str, Block]]]:
    """The example configs placed on the first surface, and those meant as
    configs that could not be read whole."""
    if schema.model_kind in CLI_KINDS:
        # A command line is typed, not written as a JSON or YAML config:
        # example blocks and config files say nothing about it.
        return [], []
    blocks = (
        placed_blocks(schema, pages, placer, former)
        + placed_blocks(schema, shown, None, former)
        + [(rel, block, ()) for rel, block in files if block.error is None]
        + dicts
    )
    broken = [(rel, b) for rel, b in files if b.error is not None] + broken_blocks(
        pages + shown, spellings_of(schema)
    )
    return blocks, broken
