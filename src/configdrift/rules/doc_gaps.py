"""Documented keys a schema lacks, and what to suggest for them: the
shared ground of the rules on documented keys (CD101, CD102) and on
examples (CD301, CD302)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from configdrift.index.platform_variables import CONVENTIONS
from configdrift.index.spellings import VARIABLE, bare, normal, shared_affixes
from configdrift.model import (
    ANY_KEY,
    CLI_KINDS,
    LIST_ITEM,
    ConfigPath,
    DocEntry,
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
    near_spelling,
    resolve_path,
)
from configdrift.rules.environment_docs import named_variables

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def missing_entries(
    analysis: Analysis, strict: bool | None
) -> Iterator[tuple[DocEntry, ConfigPath, SchemaNode]]:
    """Documented keys the schema lacks under a strict (or a lenient, or an
    open) node:
    (entry, the first missing path, the node that lacks it), once per path,
    and not again for the children of a documented missing key."""
    seen: set[ConfigPath] = set()
    documented = {e.path for e in analysis.entries}
    foreign = _foreign_flag_sections(analysis)
    prefixes = variable_prefixes(analysis.schema)
    thin = _thin_sections(analysis)
    for entry in analysis.entries:
        node, missing, parent = resolve_path(analysis.schema, entry.path)
        if node is not None or parent.strict is not strict:
            continue
        if ANY_KEY in entry.path[missing:]:
            # A ``*`` the schema does not hold there (``extractor.*.proxy``
            # where the keys under ``extractor`` are named one by one, or a
            # surface documented under a path it is not set under): which
            # key it stands for is unknown.
            continue
        if (
            (entry.location.path, entry.section) in thin
            and entry.doc_type is None
            and entry.default is None
            and near_spelling(entry.path[missing], parent) is None
        ):
            # Two bare names in a list, one of them a key: too little to say
            # the list documents the configuration (a page's meta keys,
            # `image` and `illustration`).
            continue
        if parent.model_kind in ("env", "setting") and not entry.name.isupper():
            continue  # a variable is spelt in capitals: a lowercase word is something else
        key = entry.path[missing]
        if "-" in key and not key.startswith("-") and parent.child(key.replace("-", "_")):
            # ``heading-offset`` beside the option ``heading_offset``: the same
            # setting in another syntax (a directive's argument, a flag).
            continue
        if (
            parent is analysis.schema
            and prefixes
            and VARIABLE.fullmatch(entry.name)
            and not entry.name.startswith(prefixes)
        ):
            # Another program's variable: ``LIBTMUX_...`` in tmuxp's docs,
            # docling's ``DOCLING_DEVICE`` beside ``DOCLING_SERVE_*`` settings.
            continue
        if parent.model_kind in CLI_KINDS and (
            not entry.name.startswith("-")
            or (entry.location.path, entry.section) in foreign
            or _abbreviates(parent, entry.name)
            or _clustered(parent, entry.name)
        ):
            continue  # no claim about this command line
        rejected = entry.path[: missing + 1]
        if rejected in seen or (rejected != entry.path and rejected in documented):
            continue
        seen.add(rejected)
        yield entry, rejected, parent


def _thin_sections(analysis: Analysis) -> set[tuple[str, str]]:
    """Sections (page, title) of a list of fewer than three entries, none
    with a type or a default, not all of whose keys the schema accepts."""
    by_section: dict[tuple[str, str], list[DocEntry]] = {}
    for entry in analysis.entries:
        by_section.setdefault((entry.location.path, entry.section), []).append(entry)
    return {
        where
        for where, entries in by_section.items()
        if len(entries) < 3
        and all(e.form == "list" and e.doc_type is None and e.default is None for e in entries)
        and not all(resolve_path(analysis.schema, e.path)[0] is not None for e in entries)
    }


#: Surfaces whose keys are options read or registered by name, not fields.
NAMED_KINDS = frozenset({"action", "argparse", "click", "env", "setting", "table", "theme"})


def variable_prefixes(root: SchemaNode) -> tuple[str, ...]:
    """How the environment variables of a root begin: the prefix they all
    share (a settings class's ``env_prefix``, ``SHOP_``), else the first
    word of each (``DSTACK`` of ``DSTACK_SERVER_PORT``). Empty when the
    root's keys are not spelt as variables."""
    variables = [
        spelling
        for child in root.children.values()
        for spelling in child.spellings or (child.key,)
        if VARIABLE.fullmatch(spelling)
    ]
    if len(variables) < 2:
        return ()
    counts: Counter[str] = Counter()
    for variable in set(variables):
        parts = variable.split("_")
        counts.update("_".join(parts[:n]) + "_" for n in range(1, len(parts)))
    # The longest prefix nearly all share (an alias is spelt without it).
    shared = [p for p, n in counts.items() if n >= 0.9 * len(set(variables))]
    if shared:
        return (max(shared, key=len),)
    return tuple(sorted({v.split("_", 1)[0] + "_" for v in variables}))


def _abbreviates(parent: SchemaNode, flag: str) -> bool:
    """argparse takes a unique prefix of a long option (``allow_abbrev``):
    ``--coqui-model`` still reaches ``--coqui-models``."""
    if parent.model_kind != "argparse" or not flag.startswith("--"):
        return False
    matches = {
        node.key
        for node in parent.children.values()
        for spelling in node.spellings
        if spelling.startswith(flag)
    }
    return len(matches) == 1


def _clustered(parent: SchemaNode, flag: str) -> bool:
    """argparse and click take short flags written together (``-nx`` for
    ``-n -x``): a word of one dash whose every letter is a short flag of
    the command line."""
    if flag.startswith("--") or len(flag) < 3 or not flag[1:].isalnum():
        return False
    shorts = {s for node in parent.children.values() for s in node.spellings}
    return all(f"-{letter}" in shorts for letter in flag[1:])


def _foreign_flag_sections(analysis: Analysis) -> set[tuple[str, str]]:
    """Doc sections whose option entries are mostly not the project's: a
    table of another tool's flags (``torchrun --nproc-per-node``)."""
    if analysis.schema.model_kind not in CLI_KINDS:
        return set()
    # Options documented one heading each (``### --dry-run``) are each a
    # section of their own: they are counted together, per page.
    counts: dict[tuple[str, str], list[int]] = {}
    headed: dict[str, set[str]] = {}
    for entry in analysis.entries:
        if entry.name.startswith("-"):
            known = resolve_path(analysis.schema, entry.path)[0] is not None
            group = _HEADINGS if entry.form == "heading" else entry.section
            tally = counts.setdefault((entry.location.path, group), [0, 0])
            tally[0 if known else 1] += 1
            if entry.form == "heading":
                headed.setdefault(entry.location.path, set()).add(entry.section)
    out: set[tuple[str, str]] = set()
    for (page, group), (seen, unseen) in counts.items():
        if seen < unseen:
            sections = headed.get(page, set()) if group == _HEADINGS else {group}
            out.update((page, section) for section in sections)
    return out


#: The group of a page's option headings in ``_foreign_flag_sections``.
_HEADINGS = "\0headings"


def model_related(node: SchemaNode) -> tuple[Related, ...]:
    out: list[Related] = []
    if node.model_location is not None:
        out.append(
            Related(
                node.model_location.path,
                node.model_location.line,
                f"{node.model} declares the accepted keys",
            )
        )
    if node.strict_location is not None and node.strict_location != node.model_location:
        owner = node.strict_owner or node.model
        # A model's option says so; the configuration's ``open = false``, a
        # parser or a loop that fills the class (``the ...``) by itself.
        how = "" if owner and owner.startswith("the ") else ' (extra="forbid")'
        out.append(
            Related(
                node.strict_location.path,
                node.strict_location.line,
                f"{owner} forbids unknown keys{how}",
            )
        )
    return tuple(out)


def _accepted_elsewhere(root: SchemaNode, key: str, not_under: ConfigPath) -> list[str]:
    paths = []
    for node in root.walk():
        if node.path[:-1] != not_under and key in (node.spellings or (node.key,)):
            paths.append(format_path(node.path[:-1]) or "the top level")
    return sorted(set(paths))


def hint_for(
    root: SchemaNode, rejected: ConfigPath, parent: SchemaNode, close_word: str = "did you mean"
) -> str | None:
    """What to suggest for a key ``parent`` lacks: a near spelling there, and
    the places the schema accepts the key itself."""
    key = rejected[-1]
    close = near_spelling(key, parent)
    elsewhere = _accepted_elsewhere(root, key, rejected[:-1])
    hints = []
    if close:
        hints.append(
            f"did you mean `{close}`?"
            if close_word == "did you mean"
            else f"{close_word} `{close}`"
        )
    if 0 < len(elsewhere) <= 3:  # a generic key (`enabled`) is no hint
        hints.append("accepted under " + ", ".join(f"`{p}`" for p in elsewhere))
    return "; ".join(hints) or None


#: The entries a page needs to be a surface's reference page.
REFERENCE_ENTRIES = 10


def reference_page(analysis: Analysis) -> str | None:
    """The page that is the surface's reference: it holds most of its doc
    entries, ten at least (a settings page beside guides that each name a
    setting or two)."""
    counts = Counter(e.location.path for e in analysis.entries)
    if not counts:
        return None
    (page, count), *_ = counts.most_common(1)
    if count < REFERENCE_ENTRIES or 2 * count < len(analysis.entries):
        return None
    return page


#: How an undocumented key's message ends.
_NO_DOC = ", but no doc describes it"


def outside_reference(
    analysis: Analysis,
    findings: list[Finding],
    named: dict[str, Location],
    spans: set[str],
    aliases: dict[str, str],
) -> Iterator[Finding]:
    """Of the undocumented-key findings a page names the key of (described
    in prose there, so not said), those whose name is only outside the
    surface's reference page (``reference_page``): said in those words.
    ``aliases`` maps other spellings that name a key to it."""
    if analysis.schema.model_kind in (*CLI_KINDS, "env"):
        # A command line's flags are spread over a page per command, the
        # environment's variables over the programs that read them: no one
        # page is the reference of all.
        return
    page = reference_page(analysis)
    if page is None:
        return
    from configdrift.rules.evidence import named_in_pages

    # Only a key no doc describes at all: not one whose page is rendered
    # from the code, nor a section whose keys the docs describe.
    keys = {f.key for f in findings if f.key in named and f.message.endswith(_NO_DOC)}
    spelt = {alias for alias, key in aliases.items() if key in keys}
    found = named_in_pages(analysis, (keys - spans) | spelt, keys & spans, pages=[page])
    there = found | {aliases[alias] for alias in found & spelt}
    first = min((e.location.line for e in analysis.entries if e.location.path == page), default=1)
    for finding in findings:
        if finding.key not in keys or finding.key in there:
            continue
        where = named[finding.key]
        yield dataclasses.replace(
            finding,
            message=finding.message.removesuffix(_NO_DOC)
            + (
                f", and {where.path}:{where.line} names it, but the reference page {page} "
                "has no entry for it"
            ),
            related=(
                *finding.related,
                Related(where.path, where.line, "named here, outside the reference"),
                Related(page, first, "the reference documents its siblings"),
            ),
        )


#: What follows a name the prose calls a key, in its sentence: other names
#: (``name`` and ``value`` keys), then the word.
_CALLED_KEY = (
    rb"(?:[ \t]*(?:,|and|or)[ \t]+`+[\w.-]+`+)*[ \t]+"
    rb"(?:keys?|options?|fields?|settings?|parameters?|arguments?)\b"
)


def shown_on_pages(analysis: Analysis, paths: list[ConfigPath]) -> set[ConfigPath]:
    """The ``paths`` the surface's pages describe without an entry of their
    own: the prose writes the key's name as code and calls it a key, an
    option or a field, in a section mapped to the key's parent ("each
    variable has ``name`` and ``value`` keys" in the ``envs`` section). A
    name the prose only uses ("always set `secret_key`") and an example that
    sets a key describe nothing."""
    from configdrift.files import read_or_none
    from configdrift.rules.evidence import MAX_OTHER_BYTES

    wanted: dict[str, set[ConfigPath]] = {}
    for path in paths:
        plain = plain_path(path)
        if plain:
            wanted.setdefault(plain[-1], set()).add(plain[:-1])
    heads: dict[str, list[tuple[int, ConfigPath]]] = {}
    for section in analysis.sections:
        heads.setdefault(section.location.path, []).append((section.location.line, section.path))
    if not wanted or not heads:
        return set()
    span = re.compile(
        rb"`(%b)`+%b"
        % (b"|".join(re.escape(name.encode()) for name in sorted(wanted)), _CALLED_KEY)
    )
    shown: set[ConfigPath] = set()
    for rel in sorted(heads):
        data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES)
        if data is None:
            continue
        for match in span.finditer(data):
            line = data.count(b"\n", 0, match.start()) + 1
            before = [head for head in heads[rel] if head[0] <= line]
            parent = plain_path(max(before)[1]) if before else None
            for name in re.findall(rb"`+([\w.-]+)`+", match.group(0)):
                if parent is not None and parent in wanted.get(name.decode(), ()):
                    shown.add((*parent, name.decode()))
    return shown


def plain_path(path: ConfigPath) -> ConfigPath:
    return tuple(key for key in path if key != LIST_ITEM)


def example_entries(analysis: Analysis) -> Iterator[tuple[SchemaNode, DocEntry]]:
    """Of a surface its examples document (``Analysis.exemplified``), each
    key an example sets at its path, with an entry that stands for the
    example. A block not placed on the surface counts too (it is not
    judged): beside other configurations' keys or past a broken bracket,
    the keys it sets at the surface's path are written there
    (``[tool.app.envs.<NAME>]`` is no TOML, yet documents the key below)."""
    if not analysis.exemplified:
        return
    root = analysis.schema
    documenting = [
        *analysis.blocks,
        *((rel, block, ()) for rel, block in analysis.other_examples),
    ]
    for rel, block, base in documenting:
        for spelt in block.keys:
            node, _, asked = resolve_path(root, (*base, *spelt.path))
            if node is None and not asked.children:
                node = asked  # a key inside a leaf's value (``workspace.members``)
            if node is not None and node is not root:
                entry = DocEntry(
                    spelt.path[-1], node.path, Location(rel, spelt.line), "", form="example"
                )
                yield node, entry


def section_examples(analysis: Analysis) -> Iterator[tuple[SchemaNode, DocEntry]]:
    """Each key an example placed on the surface sets below the key its own
    section documents (``journals: default: journal: ...`` under ``###
    journals``), with an entry that stands for the example: the section
    shows it there. Not where a key below it has an entry of its own: the
    others below it are then left undescribed (a block of every default
    beside the entries of most)."""
    described = {entry.path[:n] for entry in analysis.entries for n in range(len(entry.path))}
    mapped: dict[str, list[tuple[int, ConfigPath]]] = {}
    for section in analysis.sections:
        mapped.setdefault(section.location.path, []).append((section.location.line, section.path))
    root = analysis.schema
    for rel, block, base in analysis.blocks:
        above = [(line, path) for line, path in mapped.get(rel, ()) if line <= block.line]
        if not above:
            continue
        _, own = max(above)
        if not own or own in described:
            continue
        for spelt in block.keys:
            path = (*base, *spelt.path)
            if len(path) <= len(own) or path[: len(own)] != own:
                continue
            node, _, _ = resolve_path(root, path)
            if node is not None:
                yield (
                    node,
                    DocEntry(
                        spelt.path[-1], node.path, Location(rel, spelt.line), "", form="example"
                    ),
                )


#: The share of a command's flags the prose must name for its pages to
#: describe the command without a reference of entries; or half of them,
#: where that is two flags or more (a README's paragraphs on a command
#: name four of its eight flags: the other four are left out).
PROSE_SHARE = 0.75
PROSE_HALF_LEAST = 2


def prose_commands(analysis: Analysis) -> set[str]:
    """The commands (groups of options, by origin) whose flags the pages
    name in prose or command lines, three quarters of them at least, or
    half where that is two or more (any
    of a flag's long spellings; options hidden from the help aside), of a
    command line no page lists as entries: documented in prose alone
    (nox's usage page). A command with a flag or two named in passing has
    its reference elsewhere; one beside commands documented by entries may
    be rendered from its ``--help`` (``program-output``), which is not
    read. Once a surface: CD103, the census and CD501 ask it, and it reads
    every page."""
    from configdrift.rules.evidence import once

    if analysis.schema.model_kind not in CLI_KINDS or analysis.entries:
        return set()
    return once(analysis, f"prose commands of {id(analysis.schema)}", lambda: _prose(analysis))


def _long_flags_named(analysis: Analysis) -> set[str]:
    """The long flags of the command line that the pages write whole, in
    one pass over the pages a surface (``prose_commands`` and
    ``script_groups`` ask it)."""
    from configdrift.rules.evidence import named_in_pages, once

    schema = analysis.schema

    def search() -> set[str]:
        flags = {s for n in schema.walk() for s in n.spellings if s[:2] == "--" and len(s) > 2}
        return named_in_pages(analysis, flags)

    return once(analysis, f"long flags named of {id(schema)}", search)


def _prose(analysis: Analysis) -> set[str]:
    """``prose_commands``, from the pages."""
    groups: dict[str, list[tuple[str, ...]]] = {}
    for node in analysis.schema.children.values():
        longs = tuple(s for s in node.spellings if s.startswith("--") and len(s) > 2)
        if node.origin.startswith("option") and longs and not node.hidden:
            groups.setdefault(node.origin, []).append(longs)
    named = _long_flags_named(analysis)
    counts = {o: (sum(bool(named.intersection(s)) for s in g), len(g)) for o, g in groups.items()}
    return {
        origin
        for origin, (k, n) in counts.items()
        if k >= PROSE_SHARE * n or (k >= PROSE_HALF_LEAST and 2 * k >= n)
    }


def other_programs(analysis: Analysis, keys: Iterable[str]) -> set[str]:
    """The variables or settings of ``keys`` that are another program's:
    none of their spellings begins as a documented one does
    (``AWS_S3_FILE_OVERWRITE`` read for a storage backend; each spelling
    counts, ``main_env`` for ``MAIN_ENV_FOR_DYNACONF``) nor carries the
    affix most of the container's share (``MAIN_ENV_FOR_DYNACONF`` is the
    project's, whatever its words), and the project does not declare them
    (a setting its ``AppConf`` class holds is its own)."""
    root = analysis.schema
    words = {normal(e.name).split("_", 1)[0] for e in analysis.entries}
    if analysis.admitted and not analysis.entries:
        # Admitted by the variables its pages name: theirs begin as the
        # project's do (``FLOWER_`` of a named ``FLOWER_AUTH``).
        words = {normal(key).split("_", 1)[0] for key in named_variables(analysis)}
    affixes = shared_affixes(n.key for n in root.children.values())
    out: set[str] = set()
    for key in keys:
        node = root.children.get(key)
        if key in CONVENTIONS:
            continue  # ``NO_COLOR``: the program's own, whatever its prefix
        if node is not None and node.model_kind == "setting" and _in_class(node):
            continue  # an ``AppConf`` class's: the project declares it
        if not any(
            normal(s).split("_", 1)[0] in words or bare(s, affixes) is not None
            for s in (node.spellings if node is not None else (key,))
        ):
            out.add(key)
    return out


def _in_class(node: SchemaNode) -> bool:
    """Is the setting one a class of the project declares (its group,
    ``option of pkg.conf:ShopConf``, names the class)?"""
    return ":" in node.origin.removeprefix("option of ")


def script_groups(analysis: Analysis) -> set[str]:
    """Of a command line admitted by the flags its pages write in prose,
    the groups of options (their origins) that are a script's own: of a
    module that runs itself and is no program the project installs (a
    kernel's benchmark beside the tool's commands), no flag of which a
    page writes."""
    root = analysis.schema
    if not analysis.admitted or root.model_kind not in CLI_KINDS:
        return set()
    from configdrift.rules.doc_commands import installed_modules

    spelt = _long_flags_named(analysis)
    installed = installed_modules(analysis)
    scripts = {
        info.path
        for name, info in analysis.project.modules.items()
        if info.facts.main_guard and name not in installed
    }
    named = {n.origin for n in root.walk() if spelt.intersection(n.spellings)}
    return {n.origin for n in root.walk() if n.location and n.location.path in scripts} - named
