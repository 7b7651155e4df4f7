"""Rules on the example configs of the docs (CD301 to CD304).

An example block is judged only where its place in the config is certain
(``engine._placed_blocks``): a whole config, a one-key example such as
``{"server": {...}}``, or a one-key fragment whose key the schema
places under its section. Other fragments are not judged.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from configdrift.extract.docs.block_model import DICT, LIST, VALUE
from configdrift.model import (
    ConfigPath,
    Finding,
    Location,
    Related,
    SchemaNode,
    field_owner,
    format_path,
    resolve_path,
)
from configdrift.rules.class_paths import class_path_keywords, registered_keywords
from configdrift.rules.doc_calls import doc_call_keywords
from configdrift.rules.doc_commands import (
    doc_command_flags,
    doc_command_values,
    script_command_flags,
    script_command_values,
)
from configdrift.rules.doc_gaps import hint_for, model_related
from configdrift.rules.docstring_calls import example_calls_not_taken
from configdrift.rules.evidence import (
    code_files,
    handled_by_model,
    loader_pops,
    mixable,
    read_note,
    reader,
    unknown_under,
)
from configdrift.rules.registry import make, register
from configdrift.rules.subcommand_flags import commands_of_other_subcommands
from configdrift.rules.unspelled import conf_names_of_no_option, misspelt_open_keys, unspelled_keys
from configdrift.rules.values import value_rejection

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def _unaccepted(
    analysis: Analysis, strict: bool
) -> Iterator[tuple[str, int, ConfigPath, SchemaNode, str]]:
    """(page, line, the first unaccepted path, the node lacking it, what the
    block is) for the keys of placed example blocks whose node is strict (or
    lenient), once per block and path."""
    root = analysis.schema
    for rel, block, base in analysis.blocks:
        seen: set[ConfigPath] = set()
        for key in block.keys:
            path = (*base, *key.path)
            node, missing, parent = resolve_path(root, path)
            if node is not None or parent.strict is not strict:
                continue
            rejected = path[: missing + 1]
            if rejected in seen or rejected[:-1] in seen:
                continue
            if not strict and unknown_under(analysis, rejected[:-1]) is not None:
                continue  # keys there may be read in ways static analysis cannot follow
            if not strict and _spelt_otherwise(parent, rejected[-1]):
                continue  # a loader may write ``vocab-file`` as the ``vocab_file`` it reads
            if not strict and (
                mixable(analysis, parent, rejected[-1])
                or handled_by_model(analysis, parent, rejected[-1])
            ):
                continue  # another model may be mixed in, or the model's module takes it
            if not strict and len(rejected) == 2 and rejected[0] == "tool":
                continue  # ``[tool.ruff]`` of a ``pyproject.toml`` is that tool's table (PEP 518)
            if len(rejected) == 1 and rejected[0] in loader_pops(analysis):
                continue  # the loader takes it out of the file before the model sees it
            seen.add(rejected)
            yield (
                rel,
                key.line,
                rejected,
                parent,
                block.described(),
            )


def _spelt_otherwise(parent: SchemaNode, key: str) -> bool:
    """Is ``key`` one of ``parent``'s keys with ``-`` for ``_`` or back?"""
    return any(other in parent.children for other in (key.replace("-", "_"), key.replace("_", "-")))


@register("CD301")
def example_rejected(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs (a JSON block) under a part of the
    config whose schema forbids unknown keys, and that the schema does not
    accept under any spelling. Also a call in the docs' Python blocks of the
    project's own function or class with a keyword its signature does not
    take (``App(__name__, load_env=False)``), on any page that imports
    the project or in a script of its examples' or docs' folders that
    does (never a test's), where the callee is certain (a
    name the package exports, one of that name in the project, or the
    one the block imports it from: ``from pkg.lint import Run``, ``import
    pkg`` then ``pkg.storages.Storage``) and its
    signature complete (no ``**kwargs``, no decorator that may change it;
    a dataclass takes its fields; a function that hands its ``**kwargs``
    whole to one class of the project, and uses them for nothing else,
    takes that class's keywords), and a code span of the prose that is one
    such call (```Evaluator(const=0)```), unless its paragraph tells of
    it as retired ("deprecated", "use ... instead"); so are the calls of
    the doctest examples and the prose's literals of a class's or a
    module function's docstring that a page renders (autodoc), the callee named through the
    docstring's module or a package above it, and
    the ``init_args`` an example config (a page's block, a YAML or JSON
    file of the project, not a test's) gives the class its ``class_path``
    names (jsonargparse, LightningCLI: ``class_path: pkg.models.Padim``),
    and the keys it writes beside a ``_target_`` (Hydra's ``instantiate``)
    or a ``_component_`` (torchtune's) but those beginning ``_``, given to
    the class or function it names (one target at a place: a list's items
    are not told apart), where the dotted path resolves to the project's
    own; and the keys of a Python config file's dict that names the class
    it builds by its ``type`` (MMEngine's registries:
    ``dict(type="ResNet", depth=50)``), given to the one class of the
    project registered under that name (``@MODELS.register_module()``) or
    the class a name imports, but the keys MMEngine takes out before it
    builds (``priority``, ``constructor``, ``paramwise_cfg``, those
    beginning ``_``), and a dict handed to a class whose ``__init__`` (its
    own, or a base's of the project) uses a key of it
    (``vision_encoder.pop("pretrained")``) or never uses it, or whose
    ``__init__`` is another library's.
    And a command line of the docs' shell blocks that runs the project's
    own program (a console script of its own, ``python -m`` its package,
    or a module of it run as a script that declares the parser or imports
    the module that does) with a flag its parser does not declare, where the parser rejects
    unknown flags and the flag's place is certain (after positional words
    only where no positional argument takes the rest, ``nargs=REMAINDER``,
    else before a second one; never after ``--``, never after a
    placeholder such as ``--<type>``); and one that gives a subcommand of
    an argparse or click program, right after its name, a flag that only other
    subcommands take (``shop lock -r`` where ``install`` takes ``-r``); and
    one that runs a script of the project with ``python`` (``python
    hf_chat.py``, from the page's folder or the root) or a launcher
    (``torchrun --nproc_per_node 8 train.py``, ``accelerate launch``,
    ``deepspeed``: the words after the script are the script's), on any
    page, an example's README too, with a long flag the
    script's one ``ArgumentParser`` does not declare, where every flag it
    declares is a literal, it is handed to no helper, takes no rest of
    the words and parses with ``parse_args`` (the flag it is spelt like,
    with ``-`` and ``_`` alike or one letter off, is named). A
    key the project's loader takes out of the loaded file
    by name (``cfg.pop("include")``) is the loader's, never the model's:
    an example may set it.

    Why it matters
    Readers copy examples. A config built from this one cannot be loaded:
    pydantic raises ``ValidationError: Extra inputs are not permitted``; the
    call raises ``TypeError: unexpected keyword argument``.

    Example
    The quick-start example shows ``"keepalive": true`` inside
    ``"server"``, but ``ServerConfig`` declares no ``keepalive`` and forbids
    extra keys.

    How to fix
    Remove the key from the example, or declare it in the model if it is
    meant to exist.
    """
    yield from doc_call_keywords(analysis)
    yield from class_path_keywords(analysis)
    yield from registered_keywords(analysis)
    yield from example_calls_not_taken(analysis)
    yield from doc_command_flags(analysis)
    yield from script_command_flags(analysis)
    yield from commands_of_other_subcommands(analysis, strict=True)
    for rel, line, rejected, parent, what in _unaccepted(analysis, strict=True):
        yield make(
            "CD301",
            format_path(rejected),
            Location(rel, line),
            f"{what} sets `{format_path(rejected)}`, but {parent.model or 'the schema'} "
            f"forbids unknown keys: loading it {parent.rejection()}",
            model_related(parent),
            hint_for(analysis.schema, rejected, parent),
        )


@register("CD302")
def example_ignored(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A key in a config example of the docs under a part of the config that
    the code reads key by key from a dict, where no code reads that key.

    Why it matters
    The example promises an effect the program never produces: the key is
    silently ignored, and a reader who copies it believes it is in force.

    Example
    An example sets ``"cache": {"expiry": 60}``, but the code reads
    ``ttl`` from the cache section and never ``expiry``.

    Example environment files (``.env.example``) are judged too: a variable
    spelt with the project's own prefix (a settings class's ``env_prefix``,
    or two words or more that nearly all its variables share) that no
    settings field, variable read or option spells, and
    that no code, compose file or script names (a name built at run time
    from a constant or a fragment of it counts as named). A variable of
    another program (``PYTHONPATH``, ``POSTGRES_PASSWORD``) is never judged.

    So is a key an example sets beside the keys of a dict read key by key
    whose examples are its documentation (a settings module a helper reads
    with ``settings.get("REDIS_HOST", "localhost")``), where no file of the
    project spells the key in any case or with ``-`` or ``_``, no name the
    code builds (``f"{name}_DSN"``) may be it, and the block is plainly the
    project's: one of its keys is the dict's, and two thirds of them are
    read or spelt by the code (never of a model class's: one whose keys
    are open takes its unknown ones from a base outside the project).

    In a file other tools register keys in too (Sphinx's ``conf.py``; a
    docs block that sets or extends ``extensions``, names ``conf.py`` in a
    comment, or follows a paragraph that names it and ends with a colon,
    is one), a key is judged only where it is one letter from
    one key the project registers (``foo_banner_txt`` beside
    ``foo_banner_text``) and no file of the project spells it. The
    project's own Sphinx ``conf.py`` (not a test's) is judged by the names
    of its options: a name it assigns and never reads that begins with
    the words all but a tenth of the options the project registers begin
    with (``mermaid_include_mindmap`` beside ``mermaid_params``, three such
    options at least, the words naming a package or module that registers
    them), where the file sets one of the options too, no registration
    names it and no code spells it (quoted, read as an attribute, or a
    name built at run time may be it).

    A command line's flag given to a subcommand, right after its name,
    that only other subcommands take, where the parser may hand unknown
    arguments back (``parse_known_args``).

    A key spelt with ``-`` where the code reads it with ``_`` (or back) is
    not judged: a loader may turn one into the other; nor another tool's
    table of a ``pyproject.toml`` example (``[tool.ruff]``). Nor is a key of a
    pydantic model's that another pydantic model of the project declares,
    where the configuration's tree does not hold that model (a plugin's
    arguments mixed in at run time), one the module declaring the model
    quotes (its loader converts ``dynamo_backend`` before the fields see
    it), or one below a field that a model validator running first writes
    anew (``data["fsdp_config"] = {...}``, dropping a prefix of its keys).

    How to fix
    Use the key the code reads, or remove the key from the example.
    """
    for rel, line, ignored, parent, what in _unaccepted(analysis, strict=False):
        yield make(
            "CD302",
            format_path(ignored),
            Location(rel, line),
            f"{what} sets `{format_path(ignored)}`, but {reader(parent)} never reads "
            f"`{ignored[-1]}`: the setting is silently ignored",
            read_note(parent),
            hint_for(analysis.schema, ignored, parent, "the code reads"),
        )
    yield from _env_examples(analysis)
    yield from unspelled_keys(analysis)
    yield from misspelt_open_keys(analysis)
    yield from conf_names_of_no_option(analysis)
    yield from commands_of_other_subcommands(analysis, strict=False)


#: ``NAME=value`` (``NAME = value``), ``export NAME=value`` or a commented
#: ``# NAME=value``.
_ENV_LINE = re.compile(rb"^[ \t]*(?:#[ \t]?)?(?:export[ \t]+)?([A-Z][A-Z0-9_]*)[ \t]*=", re.M)


def env_assignments(data: bytes) -> Iterator[tuple[str, int]]:
    """(name, line) of each assignment of an example environment file."""
    # Lines counted from the last assignment on, not from the file's start
    # each time (a file of a million lines would cost its square).
    line, counted = 1, 0
    for match in _ENV_LINE.finditer(data):
        line += data.count(b"\n", counted, match.start())
        counted = match.start()
        yield match.group(1).decode("ascii"), line


def _env_examples(analysis: Analysis) -> Iterator[Finding]:
    """CD302 for the variables of example environment files that nothing
    reads (see ``example_ignored``)."""
    from configdrift.files import read_or_none
    from configdrift.index.spellings import VARIABLE
    from configdrift.rules.evidence import named_in_files, quoted_in, read_elsewhere

    if not analysis.env_examples:
        return
    spelt: set[str] = set()
    owners: dict[str, SchemaNode] = {}
    for surface in analysis.everything:
        for node in surface.schema.walk():
            for spelling in (*node.spellings, node.key) if node.path else ():
                spelt.add(spelling.upper())
        prefix = _own_prefix(surface.schema)
        if prefix:
            owners.setdefault(prefix, surface.schema)
    if not owners:
        return
    found: dict[str, tuple[str, int]] = {}
    for rel in analysis.env_examples:
        data = read_or_none(analysis.config.root, rel, _MAX_ENV_FILE)
        for name, line in env_assignments(data or b""):
            if (
                name not in found
                and VARIABLE.fullmatch(name)
                and "__" not in name  # a nested setting: its model's place is not known
                and name.upper() not in spelt
                and any(name.startswith(p) for p in owners)
            ):
                found[name] = (rel, line)
    if not found:
        return
    python = [*code_files(analysis), *analysis.other_python]
    prefixes = {name: _prefix_of(name, owners) for name in found}
    fragments = {name: name.removeprefix(prefixes[name]) for name in found}
    named = (
        quoted_in(analysis, python, set(found))
        | read_elsewhere(analysis, set(found))
        | named_in_files(analysis, set(found))
    )
    # A name built at run time (``f"{PREFIX}{name}"``, a validator's table
    # of old names) spells its rest as a literal, in any case.
    rests = {rest.lower() for rest in fragments.values()} | set(fragments.values())
    quoted_rests = quoted_in(analysis, python, rests)
    for name, (rel, line) in sorted(found.items(), key=lambda item: item[1]):
        rest = fragments[name]
        if name in named or rest in quoted_rests or rest.lower() in quoted_rests:
            continue
        prefix = prefixes[name]
        owner = owners[prefix]
        close = difflib.get_close_matches(
            name, sorted(s for s in spelt if s.startswith(prefix)), n=1, cutoff=0.8
        )
        yield make(
            "CD302",
            name,
            Location(rel, line),
            f"the environment example sets `{name}`, but no settings field or variable read "
            f"spells it: the code never reads it",
            model_related(owner) if owner.model_location is not None else (),
            f"the code reads `{close[0]}`" if close else None,
        )


#: The largest example environment file read.
_MAX_ENV_FILE = 1 << 20


def _own_prefix(root: SchemaNode) -> str | None:
    """The prefix of a surface's own variables: a settings class's
    ``env_prefix`` (every field spelt as the prefix and its name), else a
    prefix of two words or more that nearly every variable shares
    (``DOCLING_SERVE_``; ``DB_`` of ``DB_HOST`` and ``DB_PORT`` is no
    project's own)."""
    from configdrift.rules.doc_gaps import variable_prefixes

    fields = [child for child in root.children.values() if child.spellings]
    explicit: Counter[str] = Counter()
    for child in fields:
        for spelling in child.spellings:
            upper, key = spelling.upper(), child.key.upper()
            if spelling.isupper() and upper.endswith(key) and len(upper) > len(key):
                explicit[upper[: -len(key)]] += 1
    if explicit:
        prefix, count = explicit.most_common(1)[0]
        if prefix.endswith("_") and count >= 3 and count >= 0.9 * len(fields):
            return prefix
    prefixes = variable_prefixes(root)
    variables = sum(1 for child in fields for s in child.spellings if s.isupper())
    if len(prefixes) == 1 and variables >= 3 and prefixes[0].count("_") >= 2:
        return prefixes[0]
    return None


def _prefix_of(name: str, owners: dict[str, SchemaNode]) -> str:
    return max((p for p in owners if name.startswith(p)), key=len)


def _shown(kind: str, value: Any) -> str:
    if kind == DICT:
        return "a mapping"
    if kind == LIST:
        return "a list"
    return f"`{json.dumps(value)}`"


def _near_choice(value: Any, node: SchemaNode) -> str | None:
    choices = [c for c in node.type.choices or () if isinstance(c, str)]
    if not isinstance(value, str) or not choices:
        return None
    for choice in choices:
        if choice.lower() == value.lower():
            return choice
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    return close[0] if close else None


@register("CD303")
def example_invalid_value(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A value in a config example that the field's type rejects when the
    config is loaded: a literal of the wrong type (``"overlap_comm": "fast"``
    for a ``bool``), a mapping where a number goes, or a string that is not
    one of an ``Enum``'s or a ``Literal``'s choices.

    Only fields that pydantic validates are judged, with its lax coercions
    (``"5"`` passes as an ``int``, ``1`` as a ``bool``), and never a field
    that a validator may change first. Placeholders are not values:
    ``[true|false]``, ``"[cpu|nvme]"``, ``<int>``, ``"auto"``, ``...`` and
    prose are skipped.

    A command line in the docs that gives an option of the project's own
    program a value none of its choices (``--log-level trace`` where
    argparse's ``choices=`` or ``click.Choice`` takes ``info`` or
    ``debug``), or a number with a point or an exponent where it takes a
    whole number (``--train-num-samples 4e8`` where argparse's ``type=int``
    refuses it), is one too: a flag before the command's first positional
    word (a subcommand's options are not told apart) that no other option
    of the program spells. So is a command line that runs a script of the
    project whose parser's flags are all known (``python train.py
    --variant 1`` where ``choices=`` takes ``road_1`` or ``road_2``).

    Why it matters
    A reader who copies the example gets a ``ValidationError`` at start-up.

    Example
    The logging example shows ``"level": "verbose"``, but ``level`` is a
    ``Literal["debug", "info", "warning"]``.

    How to fix
    Write a value the field accepts, or a placeholder that reads as one.
    """
    yield from doc_command_values(analysis)
    yield from script_command_values(analysis)
    for rel, block, base in analysis.blocks:
        what = block.described()
        for key in block.keys:
            if key.kind not in (DICT, LIST, VALUE):
                continue
            path = (*base, *key.path)
            node, _, _ = resolve_path(analysis.schema, path)
            if node is None or not node.checked or path[-1] in node.path_aliases:
                continue
            reason = value_rejection(node.type, key.kind, key.value)
            if reason is None:
                continue
            owner = field_owner(node) or node.origin
            related = (
                (
                    Related(
                        node.location.path,
                        node.location.line,
                        f"{owner}.{node.key} is declared `{node.type.text}`",
                    ),
                )
                if node.location is not None
                else ()
            )
            close = _near_choice(key.value, node)
            yield make(
                "CD303",
                format_path(path),
                Location(rel, key.line),
                f"{what} sets `{format_path(path)}` to {_shown(key.kind, key.value)}, which "
                f"`{node.type.text}` does not accept{reason}: loading it raises a ValidationError",
                related,
                f"did you mean `{close}`?" if close else None,
            )


@register("CD304")
def example_unparseable(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A block in a config language (``json``, ``yaml``, ``toml`` and their
    kin) that names keys of the config, or a config file, that cannot be
    read even tolerantly: a ``}`` that closes a ``[``, a bracket never
    closed, invalid YAML or TOML. Comments, trailing commas, ellipses and
    placeholders do not count: the reader takes them in its stride.

    Why it matters
    The keys of a block that cannot be read are not checked, and the block
    is not skipped silently: it is reported, so that nobody believes it was
    checked. A reader who copies it gets a parse error.

    Example
    A tutorial's block reads ``"server": {"port": 8080]``.

    How to fix
    Fix the brackets or the syntax; for an intentional sketch, use a fence
    language that is not a config language (``text``).
    """
    for rel, block in analysis.unparseable:
        what = "the config file" if block.lang == "file" else f"this {block.lang} block"
        yield make(
            "CD304",
            "",
            Location(rel, block.error_line or block.line),
            f"{what} cannot be read ({block.error}): its keys are not checked",
        )
