"""A key an example sets (part of CD302) or a flag a page documents (part
of CD102) beside a configuration's keys that no code of the project
spells in any form.

A surface its examples document and that says nothing of the keys it does
not read (``Analysis.examples_document``, an open dict read key by key)
cannot tell an ignored key from one read elsewhere. The whole project can:
a key that no Python file or config file spells, in any case and with
``-`` or ``_``, is read by nothing static analysis could miss but a name
built at run time, and one a built name may be (``f"{name}_DSN"``,
anything in its holes) is never judged. Such a key is judged only in a
block that is plainly this project's settings: one of its keys is an
option of the surface, and all but a third of them are the surface's or
spelt by the code (a block of another program's settings, Django's
``INSTALLED_APPS`` beside one of the project's own, is left alone).
A documented flag is judged likewise where its command line hands unknown
flags back (``parse_known_args``), when the project builds the parser and
loads no plugins that may add options. A dict's key is not: a read
through a computed key (``cfg[key]`` for each key) or the dict handed to
other code may read any key. So is a name the project's Sphinx
``conf.py`` sets in the namespace of the options the project registers
(``conf_names_of_no_option``).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.extract.python.built_parts import PERCENT_HOLE
from configdrift.extract.python.facts import Expr, built_name_matches
from configdrift.index.spellings import one_edit
from configdrift.model import (
    CLASS_KINDS,
    ConfigPath,
    DocEntry,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
    resolve_path,
    top_spellings,
)
from configdrift.rules.built_names import built_names
from configdrift.rules.evidence import loaded_names, named_as_key, spelt_anywhere
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.resolve.project import Project

#: At most one key in this many of a block may be spelt nowhere: more,
#: and the block is another program's settings (a block of two keys is
#: never judged).
UNSPELT_SHARE = 3


def unspelled_keys(analysis: Analysis) -> Iterator[Finding]:
    """CD302 for each key of an example that neither the surface reads nor
    any file of the project spells (see the module's docs)."""
    root = analysis.schema
    if (
        not analysis.examples_document
        or root.strict is not None
        or analysis.unresolved
        or root.model_kind in CLASS_KINDS
    ):
        # A configuration that takes keys not known statically (a theme's
        # inherited options, a dataclass's fields from a base outside the
        # project) may take any of them.
        return
    # A block not placed (it sets other keys too) is read at the top.
    documenting = [
        *analysis.blocks,
        *((rel, block, ()) for rel, block in analysis.other_examples),
    ]
    # Per block: its keys the surface does not read, (page, line, path,
    # what the block is), an option of the surface it sets, its size.
    judged: list[tuple[list[tuple[str, int, ConfigPath, str]], SchemaNode, int]] = []
    for rel, block, base in documenting:
        top = [key for key in block.keys if len(key.path) == 1]
        unread: list[tuple[str, int, ConfigPath, str]] = []
        held: list[SchemaNode] = []
        for key in top:
            path = (*base, *key.path)
            node, _, parent = resolve_path(root, path)
            if node is not None and not node.children:
                held.append(node)  # one of its options, not a section it is under
            elif node is None and parent.strict is None:
                unread.append((rel, key.line, path, block.described()))
        if unread and held:
            judged.append((unread, held[0], len(top)))
    if not judged:
        return
    names = {path[-1] for unread, _, _ in judged for _, _, path, _ in unread}
    spelt = spelt_anywhere(analysis, names) | built_keys(analysis, names)
    seen: set[ConfigPath] = set()
    for unread, option, size in judged:
        nowhere = [item for item in unread if item[2][-1] not in spelt]
        if UNSPELT_SHARE * len(nowhere) > size:
            continue  # another program's settings beside the project's
        for rel, line, path, what in nowhere:
            if path in seen:
                continue
            seen.add(path)
            yield make(
                "CD302",
                format_path(path),
                Location(rel, line),
                f"{what} sets `{format_path(path)}`, but neither {root.model or 'the code'} "
                "reads it nor does any code of the project spell it: the setting is "
                "silently ignored",
                _beside(option),
            )


def misspelt_open_keys(analysis: Analysis) -> Iterator[Finding]:
    """CD302 for a key an example sets at the top of a configuration that
    says nothing of the keys it lacks (registered by name, as Sphinx's
    ``add_config_value``: the file may set another tool's too), where the
    key is one letter from one of its own (``foo_banner_txt`` beside
    ``foo_banner_text``) and no file of the project spells it in any form:
    nothing reads it, and the key it misspells keeps its default."""
    root = analysis.schema
    if root.strict is not None or root.model_kind != "named" or analysis.unresolved:
        return
    own = sorted(top_spellings(root))
    found: dict[str, tuple[str, int, str, str]] = {}
    for rel, block, base in analysis.blocks:
        for key in block.keys:
            name = key.path[0]
            if base or len(key.path) != 1 or name in found or root.child(name) is not None:
                continue
            near = [spelling for spelling in own if one_edit(name, spelling)]
            if len(near) == 1:
                found[name] = (rel, key.line, near[0], block.described())
    spelt = (
        spelt_anywhere(analysis, set(found)) | built_keys(analysis, set(found)) if found else set()
    )
    for name, (rel, line, close, what) in found.items():
        if name in spelt:
            continue
        node = root.child(close)
        where = node.location if node is not None else None
        yield make(
            "CD302",
            name,
            Location(rel, line),
            f"{what} sets `{name}`, which is not among {root.model or 'the keys declared'} "
            "and which no code of the project spells: the setting is silently ignored, and "
            f"`{close}` keeps its default",
            (Related(where.path, where.line, f"`{close}` is declared here"),) if where else (),
            f"did you mean `{close}`?",
        )


#: The fewest options a project registers by name under one namespace,
#: and the share of all it registers (in tenths) that must be under it.
MIN_NAMESPACED = 3
NAMESPACE_TENTHS = 9


def conf_names_of_no_option(analysis: Analysis) -> Iterator[Finding]:
    """CD302 for a name a Sphinx ``conf.py`` of the project (not a test's)
    assigns and never reads in the namespace of the options the project
    registers (``mermaid_include_mindmap`` beside ``mermaid_params``):
    where the file sets one of those options too, no ``add_config_value``
    of the project registers the name, and no code spells it (quoted, read
    as an attribute, or a name built at run time may be it). The namespace
    is the words all but a tenth of the options begin with (three at
    least), which name a package or module registering them
    (``sphinxcontrib/mermaid``): the project's own, no other tool's."""
    if analysis.first is not None or not analysis.conf_files:
        return
    registered = _registered(analysis.project)
    space = _namespace(registered) if registered else None
    if space is None:
        return
    prefix, under = space
    candidates: dict[str, tuple[str, int]] = {}
    for rel, assigned in sorted(analysis.conf_files.items()):
        if not any(name in registered for name, _ in assigned):
            continue  # no file of this project's options
        for name, line in assigned:
            if name.startswith(prefix) and name not in registered:
                candidates.setdefault(name, (rel, line))
    names = set(candidates)
    if not names:
        return
    spelt = (
        named_as_key(analysis, names)
        | built_keys(analysis, names)
        | (names & loaded_names(analysis))
    )
    where = min((registered[name] for name in under), key=lambda at: (at.path, at.line))
    for name, (rel, line) in candidates.items():
        if name in spelt:
            continue
        near = [option for option in under if one_edit(name, option)]
        yield make(
            "CD302",
            name,
            Location(rel, line),
            f"`{rel}` sets `{name}`, a name of the `{prefix}` options the project registers "
            f"({len(under)} of them), but no code of the project registers or reads it: the "
            "setting is silently ignored",
            (Related(where.path, where.line, f"the `{prefix}` options are registered here"),),
            f"did you mean `{near[0]}`?" if len(near) == 1 else None,
        )


def _registered(project: Project) -> dict[str, Location]:
    """Each name the project's ``add_config_value`` calls register, with
    where; none where one registers a name not known statically."""
    out: dict[str, Location] = {}
    for module, info in sorted(project.modules.items()):
        for call in info.facts.registrations:
            if call.method != "add_config_value":
                continue
            named = call.args[0] if call.args else call.kwargs.get("name")
            name = project.string(module, named) if named is not None else None
            if name is None:
                return {}
            out.setdefault(name, Location(info.path, call.line))
    return out


def _namespace(registered: dict[str, Location]) -> tuple[str, list[str]] | None:
    """The words (``mermaid_``) all but a tenth of the ``registered`` names
    begin with, three at least, and those names; where the words name a
    package or module that registers them (see ``conf_names_of_no_option``)."""
    firsts = Counter(name.split("_", 1)[0] for name in registered if "_" in name)
    if not firsts:
        return None
    first, count = firsts.most_common(1)[0]
    if count < MIN_NAMESPACED or 10 * count < NAMESPACE_TENTHS * len(registered):
        return None
    prefix = first + "_"
    under = sorted(name for name in registered if name.startswith(prefix))
    while all("_" in name[len(prefix) :] for name in under):
        following = {name[len(prefix) :].split("_", 1)[0] for name in under}
        if len(following) != 1:
            break
        prefix += following.pop() + "_"
    parts = {
        part.removesuffix(".py") for name in under for part in registered[name].path.split("/")
    }
    named = f"_{prefix}"
    return (prefix, under) if any(named in f"_{part}_" for part in parts) else None


def unspelt_entries(
    analysis: Analysis, candidates: list[tuple[DocEntry, ConfigPath, SchemaNode]]
) -> set[ConfigPath]:
    """The documented flags an open command line lacks (``candidates``)
    that no file of the project spells as a flag (its dashes, anywhere)
    or as a key (its bare name quoted in Python, a config file's key: not
    a comment's word, an identifier or a URL's path), nor a flag built at
    run time may be: nothing takes them. Judged only on a page that is
    plainly this command line's: all but a third of its entries are its
    flags or spelt somewhere."""
    # A parser another program builds and hands over (Django's
    # ``add_arguments(parser)``), or one plugins add options to, has
    # options no file of the project spells; click's decorators build
    # their command.
    built, plugins = _parsers(analysis.project)
    candidates = [
        item
        for item in candidates
        if item[2].model_kind == "click" or (item[2].model_kind == "argparse" and built)
    ]
    if plugins or not candidates:
        return set()
    forms = {rejected: _forms(rejected[-1]) for _, rejected, _ in candidates}
    names = {form for spelt in forms.values() for form in spelt}
    # A flag is spelt with its dashes, anywhere; its bare name only as a
    # key (a dest, a name a flag is built from): ``--legacy`` is not spelt
    # by a comment's "legacy" or a URL's ``/legacy/``.
    dashed = {name for name in names if name.startswith("-")}
    spelt = (
        spelt_anywhere(analysis, dashed)
        | named_as_key(analysis, names - dashed)
        | built_keys(analysis, names)
    )
    nowhere = {rejected for rejected, spelt_as in forms.items() if not spelt_as & spelt}
    by_page: dict[str, list[DocEntry]] = {}
    for entry in analysis.entries:
        by_page.setdefault(entry.location.path, []).append(entry)
    unspelt: set[ConfigPath] = set()
    for entry, rejected, parent in candidates:
        if rejected not in nowhere or _negation(rejected[-1], parent):
            continue
        page = by_page[entry.location.path]
        alone = sum(e.path[: len(rejected)] in nowhere for e in page)
        if UNSPELT_SHARE * alone <= len(page):
            unspelt.add(rejected)
    return unspelt


#: What a project calls to load its plugins (which may declare options).
_PLUGIN_LOADERS = frozenset({"entry_points", "iter_entry_points", "load_setuptools_entrypoints"})


def _parsers(project: Project) -> tuple[bool, bool]:
    """Does the project build an argument parser itself (an
    ``ArgumentParser``, a subcommand's ``add_parser``), and does it load
    plugins?"""
    built = False
    for info in project.modules.values():
        facts = info.facts
        if _PLUGIN_LOADERS.intersection(facts.attr_loads) or any(
            imported.name in _PLUGIN_LOADERS or imported.module.split(".")[0] == "pluggy"
            for imported in facts.imports
        ):
            return built, True
        callees = [
            *(callee for _, _, callee in facts.local_types),
            *(callee for _, _, how, callee, _ in facts.attr_assigns if how == "call"),
        ]
        built = built or any(
            callee.rsplit(".", 1)[-1].endswith(("ArgumentParser", "add_parser"))
            for callee in callees
        )
    return built, False


def _negation(key: str, parent: SchemaNode) -> bool:
    """Is ``key`` the negation of a flag ``parent`` declares (``--no-motd``
    beside ``--motd``)? Parsers build it from the flag's name
    (``BooleanOptionalAction``, click's ``--x/--no-x``, ``"--no-" + name``)."""
    return key.startswith("--no-") and parent.child("--" + key[5:]) is not None


def _forms(key: str) -> set[str]:
    """How code may spell a key: whole, and a flag's name without its
    dashes (``--inspect-raw``, ``inspect_raw``)."""
    return {key, key.lstrip("-")} - {""}


def built_keys(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` a key some code builds at run time may be, in any case:
    a dict's key (``settings.get(f"{name}_DSN")``, ``"PRE_" + name``,
    ``"X_%s" % name``) or an attribute ``getattr`` builds, anything in the
    holes between its literal parts."""
    built = [parts for _, _, parts, _ in built_names(analysis)]
    for info in analysis.project.modules.values():
        for read in (*info.facts.dict_reads, *info.facts.held_reads):
            if read.source.keys:
                parts = key_parts(read.source.keys[-1])
                if parts is not None and len(parts) > 1:
                    built.append(parts)
    # An option declared under a built name (``add_argument(f"--{x}-raw")``).
    for info in analysis.project.modules.values():
        for call in info.facts.registrations:
            built.extend(
                parts for parts in map(key_parts, call.args) if parts is not None and len(parts) > 1
            )
    # A name with no literal word (``getattr(module, name)``, ``d[key]``,
    # ``f"--{name}"``) is a value the code got elsewhere, spelt where it is
    # set: no built name.
    built = [parts for parts in built if any(c.isalnum() for part in parts for c in part)]
    return {
        name
        for name in names
        if any(
            built_name_matches(parts, form)
            for parts in built
            for case in (name, name.lower(), name.upper())
            for form in (case, case.replace("-", "_"))
        )
    }


def key_parts(expr: Expr) -> tuple[str, ...] | None:
    """The literal parts of a key built from text and holes (an f-string,
    ``+``, ``%``), a hole between each two; None for another expression."""
    if expr[0] == "c":
        return (expr[1],) if isinstance(expr[1], str) else None
    if expr[0] == "n":
        return ("", "")  # a name's value: a hole
    if expr[0] == "b" and expr[1] == "+":
        left, right = key_parts(expr[2]), key_parts(expr[3])
        if left is None or right is None:
            return None
        return (*left[:-1], left[-1] + right[0], *right[1:])
    if expr[0] == "b" and expr[1] == "%" and expr[2][0] == "c" and isinstance(expr[2][1], str):
        return tuple(PERCENT_HOLE.split(expr[2][1]))
    if expr[0] == "src" and isinstance(expr[1], str) and expr[1][:2].lower() in ("f'", 'f"'):
        return _fstring_parts(expr[1])
    return None


def _fstring_parts(text: str) -> tuple[str, ...] | None:
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree.body, ast.JoinedStr):
        return None
    parts = [""]
    for value in tree.body.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts[-1] += value.value
        else:
            parts.append("")
    return tuple(parts)


def _beside(option: SchemaNode) -> tuple[Related, ...]:
    """Where the code reads an option the example sets beside the key."""
    where = option.location
    if where is None:
        return ()
    note = f"`{format_path(option.path)}`, set beside it, is read here"
    return (Related(where.path, where.line, note),)
