"""``configdrift sweep KEY``: every reference to a config key, grouped by
kind, with the names derived from it and a removal checklist.

The sweep follows a key the way its removal has to: from the string to the
constants that spell it (``SPARSE_GRADIENTS`` and its ``_DEFAULT``), to the
parse that reads it, the attribute the parse is stored in
(``self.sparse_gradients_enabled = get_...(param_dict)``), the accessors
that read that attribute and the places that call them, the state those
places fill (``self.sparse_tensor_module_names``) and the checkpoint fields
that save it; then the doc entry, the pages that name any of these (a
tutorial's sample output), the example configs, and the tests.

It reads the analysis and, for the few files the key reaches, their syntax
trees; nothing is imported or run.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from configdrift.discover import in_tests
from configdrift.extract.python.dict_writes import dict_writes
from configdrift.extract.text import NotText, decode
from configdrift.files import read_or_none
from configdrift.index.spellings import distinctive, split_key
from configdrift.model import ANY_KEY, ConfigPath, Location, SchemaNode, format_path
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.resolve.project import Symbol

#: The kinds, in the order the report lists them.
KINDS = (
    "declaration",
    "constant",
    "parse",
    "attribute read",
    "attribute",
    "accessor",
    "use",
    "checkpoint field",
    "doc entry",
    "tutorial or sample output",
    "example config",
    "test",
)
#: The kinds that are code (listed by a removal, never edited): those
#: before the doc entry.
CODE_KINDS = frozenset(KINDS[: KINDS.index("doc entry")])
_MUTATORS = frozenset({"add", "append", "extend", "update", "insert", "setdefault", "__setitem__"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Reference:
    kind: str
    path: str
    line: int
    text: str


@dataclass(slots=True)
class Sweep:
    key: ConfigPath
    references: list[Reference] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)

    def add(self, kind: str, path: str, line: int, text: str) -> None:
        ref = Reference(kind, path, line, text.strip())
        if ref not in self.references:
            self.references.append(ref)

    def derive(self, name: str) -> None:
        if name not in self.derived:
            self.derived.append(name)

    def of(self, kind: str) -> list[Reference]:
        return sorted(
            (r for r in self.references if r.kind == kind), key=lambda r: (r.path, r.line)
        )


class _Sources:
    """File lines and syntax trees, read once each."""

    def __init__(self, analysis: Analysis) -> None:
        self.root = analysis.config.root
        self._lines: dict[str, list[str]] = {}
        self._trees: dict[str, ast.Module | None] = {}

    def lines(self, rel: str) -> list[str]:
        if rel not in self._lines:
            data = read_or_none(self.root, rel)
            try:
                self._lines[rel] = decode(data).splitlines() if data is not None else []
            except NotText:
                self._lines[rel] = []
        return self._lines[rel]

    def line(self, rel: str, number: int) -> str:
        lines = self.lines(rel)
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def tree(self, rel: str) -> ast.Module | None:
        if rel not in self._trees:
            try:
                self._trees[rel] = ast.parse("\n".join(self.lines(rel)))
            except (SyntaxError, ValueError, RecursionError):
                self._trees[rel] = None
        return self._trees[rel]


def sweep(analysis: Analysis, key_text: str) -> Sweep:
    key = split_key(key_text)
    result = Sweep(key)
    leaf = key[-1]
    files = _Sources(analysis)
    project = analysis.project
    # The declaration (a field, a registration call, an option's entry),
    # and the reads of a field through config objects.
    for parent, node in _declared(analysis, key):
        if node.location is not None and not any(
            site.location == node.location for site in node.reads
        ):  # a key declared by its read is listed as the parse
            where = node.location
            result.add("declaration", where.path, where.line, files.line(where.path, where.line))
        for read in _attribute_reads(analysis, parent, node, files):
            result.add("attribute read", read.path, read.line, files.line(read.path, read.line))
    # Constants spelling the key, and their siblings (``NAME_DEFAULT``).
    constants: set[str] = set()
    for module in sorted(project.modules):
        info = project.modules[module]
        spelt = [
            name for name, expr in info.facts.assigns.items() if expr[0] == "c" and expr[1] == leaf
        ]
        for name in spelt:
            constants.add(name)
            for other in info.facts.assigns:
                if other == name or other.startswith(name + "_"):
                    constants.add(other)
                    line = info.facts.assign_lines.get(other, 1)
                    result.add("constant", info.path, line, files.line(info.path, line))
    for name in sorted(constants):
        result.derive(name)
    # The parse: reads of the key, and the functions they sit in.
    parsers: set[str] = set()
    for site in analysis.reads:
        if site.path == key:
            parsers.add(site.function.rsplit(".", 1)[-1])
            result.add(
                "parse",
                site.location.path,
                site.location.line,
                files.line(site.location.path, site.location.line),
            )
    # Attributes the parse is stored in: ``self.x = parser(...)``.
    attributes: set[str] = set()
    for info in project.modules.values():
        for _, attribute, how, source, line in info.facts.attr_assigns:
            if how == "call" and source.rsplit(".", 1)[-1] in parsers:
                attributes.add(attribute)
                result.add("attribute", info.path, line, files.line(info.path, line))
    for name in sorted(parsers | attributes):
        result.derive(name)
    # Accessors read the attribute; uses call the accessors.
    accessors: set[str] = set()
    for info in project.modules.values():
        for line, function, chain in info.facts.chains:
            if chain.rsplit(".", 1)[-1] in attributes:
                name = function.rsplit(".", 1)[-1]
                if name not in parsers and not _assigns_here(
                    info.facts.attr_assigns, function, chain
                ):
                    accessors.add(name)
                    first = info.facts.function_lines.get(function, (line, line))[0]
                    result.add("accessor", info.path, first, files.line(info.path, first))
    for name in sorted(accessors):
        result.derive(name)
    uses: list[tuple[str, int]] = []
    for info in project.modules.values():
        loads = {name.removeprefix("self.") for name in info.facts.attr_loads}
        if not loads & accessors:
            continue
        for line in _attribute_uses(files.tree(info.path), accessors):
            uses.append((info.path, line))
            result.add("use", info.path, line, files.line(info.path, line))
    # State the uses fill, and the checkpoint fields that save it.
    state: set[str] = set()
    for rel, line in uses:
        state |= _state_filled(files.tree(rel), line)
    for name in sorted(state):
        result.derive(name)
    if state:
        for info in project.modules.values():
            raw = files.lines(info.path)
            if not any(name in text for text in raw for name in state):
                continue
            tree = files.tree(info.path)
            for line, _ in dict_writes(tree, state) if tree is not None else []:
                result.add("checkpoint field", info.path, line, files.line(info.path, line))
    # Docs, pages, examples, tests.
    entry_lines: set[tuple[str, int]] = set()
    for entry in analysis.entries:
        if entry.path == key:
            entry_lines.add((entry.location.path, entry.location.line))
            result.add(
                "doc entry",
                entry.location.path,
                entry.location.line,
                files.line(entry.location.path, entry.location.line),
            )
    # A distinctive key (``sparse_gradients``) is looked for as a word; a
    # plain word (``streaming``) only where it is spelt as a key: quoted, in
    # a code span, or before a colon or an equals sign.
    names = {*result.derived, *([leaf] if distinctive(leaf) else [])}
    as_key = re.compile(rf"""["'`]{re.escape(leaf)}["'`]|(?<![\w.]){re.escape(leaf)}\s*[:=]""")

    def names_it(text: str) -> bool:
        return bool(as_key.search(text)) or any(t in names for t in _IDENT.findall(text))

    shown = {(rel, k.line) for rel, block, _ in analysis.blocks for k in block.keys}
    for rel in analysis.pages:
        for number, text in enumerate(files.lines(rel), start=1):
            if (rel, number) in entry_lines or (rel, number) in shown:
                continue
            if names_it(text):
                result.add("tutorial or sample output", rel, number, text)
    for rel, block, base in analysis.blocks:
        for bkey in block.keys:
            if (*base, *bkey.path) == key:
                kind = "test" if block.lang == "python" or in_tests(rel) else "example config"
                result.add(kind, rel, bkey.line, files.line(rel, bkey.line))
    for rel in _test_files(analysis):
        for number, text in enumerate(files.lines(rel), start=1):
            if names_it(text):
                result.add("test", rel, number, text)
    return result


def _declared(analysis: Analysis, key: ConfigPath) -> list[tuple[SchemaNode, SchemaNode]]:
    """The schema nodes (with their parents) that accept ``key``, in any
    surface, by its name or an alias."""
    out = []
    for surface in analysis.everything:
        parent: SchemaNode | None = None
        node: SchemaNode | None = surface.schema
        for part in key:
            if node is None:
                break
            parent, node = node, node.child(part) or node.children.get(ANY_KEY)
        if node is not None and parent is not None:
            out.append((parent, node))
    return out


_FIELD = re.compile(r"(?<!\s)\s*+(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*+)\s*+:")


def _attribute_reads(
    analysis: Analysis, parent: SchemaNode, node: SchemaNode, files: _Sources
) -> list[Location]:
    """Where the code reads the field through an object of the model that
    declares it (``self._config.zero.sub_group_size``): the chains whose
    receiver before the field's name is that model."""
    if not parent.model or node.location is None:
        return []
    names = {node.key, *node.spellings}
    declared = _FIELD.match(files.line(node.location.path, node.location.line))
    if declared is not None:
        names.add(declared.group(1))  # the attribute of an aliased field
    out = []
    for chain in analysis.objects.chains():
        parts = chain.text.split(".")
        for index, receivers in enumerate(chain.receivers):
            if parts[index + 1] not in names:
                continue
            if any(_is_model(owner, parent) for owner in receivers):
                out.append(chain.location)
                break
    return out


def _is_model(owner: Symbol, parent: SchemaNode) -> bool:
    if parent.model_symbol is not None:
        return (owner.module, owner.qualname) == parent.model_symbol
    return owner.qualname.rsplit(".", 1)[-1] == parent.model


def _test_files(analysis: Analysis) -> list[str]:
    from configdrift.discover import list_files

    return [
        rel for rel in list_files(analysis.config.root) if rel.endswith(".py") and in_tests(rel)
    ]


def _assigns_here(assigns: list[tuple[str, str, str, str, int]], function: str, chain: str) -> bool:
    attribute = chain.rsplit(".", 1)[-1]
    return any(f == function and a == attribute for f, a, _, _, _ in assigns)


def _attribute_uses(tree: ast.Module | None, names: set[str]) -> list[int]:
    """Lines that load ``x.name`` for one of ``names``, outside the
    functions of those names (the accessors themselves)."""
    if tree is None:
        return []
    out: list[int] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            continue
        if (
            isinstance(node, ast.Attribute)
            and node.attr in names
            and isinstance(node.ctx, ast.Load)
        ):
            out.append(node.lineno)
        stack.extend(ast.iter_child_nodes(node))
    return sorted(set(out))


def _state_filled(tree: ast.Module | None, line: int) -> set[str]:
    """``self.X`` that the ``if`` around ``line`` (or its statement) fills:
    ``self.X.add(...)``, ``self.X[k] = ...``, ``self.X = ...``."""
    if tree is None:
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.If | ast.While | ast.For):
            continue
        test = getattr(node, "test", None) or getattr(node, "iter", None)
        if test is None or not (node.lineno <= line <= (node.end_lineno or node.lineno)):
            continue
        if not any(getattr(n, "lineno", 0) == line for n in ast.walk(test)) and not isinstance(
            node, ast.For
        ):
            continue
        for inner in ast.walk(node):
            target = None
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                if inner.func.attr in _MUTATORS and getattr(inner, "lineno", 0) >= line:
                    target = inner.func.value
            elif isinstance(inner, ast.Assign | ast.AugAssign) and inner.lineno > line:
                targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
                target = targets[0]
                if isinstance(target, ast.Subscript):
                    target = target.value
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                out.add(target.attr)
    return out


def checklist(result: Sweep) -> list[str]:
    """The removal, step by step, for the kinds the sweep found."""
    key = format_path(result.key)
    steps = {
        "test": "Delete the key from the test configs, or turn a test into one that expects the rejection.",
        "example config": "Delete the key from the example configs and config files.",
        "doc entry": "Delete the doc entry.",
        "tutorial or sample output": "Update the tutorials and sample outputs that name it.",
        "checkpoint field": "Decide about the checkpoint fields it feeds: keep loading old checkpoints that hold them.",
        "use": "Remove the uses of its accessors.",
        "accessor": "Delete the accessors.",
        "attribute": "Delete the attribute the parse is stored in.",
        "parse": "Delete the parse.",
        "attribute read": "Remove the reads of the field.",
        "constant": "Delete the constants.",
        "declaration": "Delete the declaration (the field, the registration, the option).",
    }
    order = [
        "test",
        "example config",
        "doc entry",
        "tutorial or sample output",
        "checkpoint field",
        "use",
        "accessor",
        "attribute",
        "attribute read",
        "parse",
        "constant",
        "declaration",
    ]
    out = [steps[kind] for kind in order if result.of(kind)]
    out.append(
        f"Add `{key}` to the registry of removed keys (or `[tool.configdrift.removed]`) so "
        "that a config still holding it fails with a clear error, then run `configdrift check`."
    )
    return out


def render_text(result: Sweep) -> str:
    key = format_path(result.key)
    lines = [f"sweep `{key}`: {counted(len(result.references), 'reference')}", ""]
    for kind in KINDS:
        refs = result.of(kind)
        if not refs:
            continue
        lines.append(kind)
        for ref in refs:
            lines.append(f"  {ref.path}:{ref.line}: {ref.text}")
        lines.append("")
    if result.derived:
        lines.append("derived names: " + ", ".join(result.derived))
        lines.append("")
    lines.append("removal checklist:")
    for number, step in enumerate(checklist(result), start=1):
        lines.append(f"  {number}. {step}")
    return "\n".join(lines) + "\n"


def render_json(result: Sweep) -> str:
    document = {
        "version": 1,
        "key": format_path(result.key),
        "references": [
            {"kind": r.kind, "path": r.path, "line": r.line, "text": r.text}
            for kind in KINDS
            for r in result.of(kind)
        ],
        "derived": result.derived,
        "checklist": checklist(result),
    }
    return json.dumps(document, indent=2) + "\n"
