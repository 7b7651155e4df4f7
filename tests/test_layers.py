"""The house's shape: data flows one way through the stages.

Every module's imports (at the top, in a function, for type checking
alike) are read with ``ast``. A module may import from its own layer and
the layers below it, never from one above; and no set of modules imports
each other in a circle. ``docs/architecture.md`` draws the same layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "src" / "configdrift"

#: The layers, lowest first: a module is in the layer of the longest prefix
#: of its name listed here.
LAYERS: list[tuple[str, ...]] = [
    # infrastructure and the model every stage shares
    (
        "version",
        "escape",
        "files",
        "writes",
        "git",
        "isolate",
        "model",
        "wording",
        "schemas",
        "progress",
    ),
    ("config",),
    ("discover", "sphinx_sources", "sources", "site_pages"),
    ("extract",),
    ("index",),
    ("resolve",),
    ("place",),
    ("analysis",),
    ("engine", "link"),
    ("rules",),
    # what follows the rules: filters, history, the other reports
    ("filter", "exact", "history", "coverage", "replay", "sweep"),
    ("output", "edits"),
    # one project's findings, and what to say when there are none to compare
    ("findings", "unconfigured", "pairs", "contradictions"),
    ("api",),
    ("commands", "cli", "__main__", "__init__", "docs_build", "sphinx", "mkdocs"),
]
#: The most lines a module may hold: past it, a module holds more than one
#: concern, and a newcomer reads more than they need.
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(path: Path, known: set[str]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "configdrift":
                names = [a.name for a in node.names]
            elif node.module.startswith("configdrift."):
                base = node.module.removeprefix("configdrift.")
                names = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                ]
        elif isinstance(node, ast.Import):
            names = [
                a.name.removeprefix("configdrift.")
                for a in node.names
                if a.name.startswith("configdrift.")
            ]
        found.update(n for n in names if n in known)
    return found


def layer_of(module: str) -> int:
    best, best_length = -1, -1
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best_length:
                best, best_length = index, len(name)
    if best < 0:
        raise AssertionError(f"{module} is in no layer of tests/test_layers.py")
    return best


def graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def test_every_module_has_a_layer():
    for module in _modules():
        layer_of(module)


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Each import of a module from a layer above its own."""
    return [
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in sorted(edges.items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]


def test_no_module_imports_from_a_higher_layer():
    assert upward(graph()) == []


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The sets of modules that import each other (Tarjan), larger than one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle():
    assert circles(graph()) == []


def oversized(modules: dict[str, Path]) -> dict[str, int]:
    """The modules longer than MAX_LINES, with their lengths."""
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules.items()
    }
    return {name: lines for name, lines in lengths.items() if lines > MAX_LINES}


def test_no_module_is_larger_than_the_house_allows():
    assert oversized(_modules()) == {}


def test_a_module_past_the_limit_is_named(tmp_path):
    small, large = tmp_path / "small.py", tmp_path / "large.py"
    small.write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    large.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert oversized({"small": small, "large": large}) == {"large": MAX_LINES + 1}


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_circle_finder(edges, expected):
    assert circles(edges) == expected


def test_a_planted_upward_import_is_found(tmp_path, monkeypatch):
    """The check catches what it is for: the model importing a rule."""
    planted = tmp_path / "configdrift"
    for path in PACKAGE.rglob("*.py"):
        target = planted / path.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    model = planted / "model.py"
    model.write_text(
        model.read_text(encoding="utf-8")
        + "\n\ndef _late():\n    from configdrift.rules import RULES\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(__import__(__name__), "PACKAGE", planted)
    assert upward(graph()) == ["model (layer 0) imports rules (layer 9)"]


#: Modules that build the schema: the stages after ``analysis`` read what
#: they made, never the builders themselves.
BUILDERS = ("resolve.schema", "resolve.build", "resolve.models")
READERS = ("analysis", "rules", "output", "findings", "filter", "coverage")


def builder_imports(edges: dict[str, set[str]]) -> list[str]:
    """Each import of a builder by a module that should see data only."""
    return [
        f"{module} imports {target}"
        for module, targets in sorted(edges.items())
        if any(module == r or module.startswith(r + ".") for r in READERS)
        for target in sorted(targets)
        if any(target == b or target.startswith(b + ".") for b in BUILDERS)
    ]


def test_the_rules_see_data_not_builders():
    assert builder_imports(graph()) == []


def test_a_rule_importing_the_builder_is_named():
    edges = {"rules.reads": {"resolve.schema", "model"}, "engine": {"resolve.schema"}}
    assert builder_imports(edges) == ["rules.reads imports resolve.schema"]


def documented_layers(text: str) -> list[tuple[str, ...]]:
    """The layer table of ``docs/architecture.md``: its rows of
    ``| n | `module`, `module` |``, in order."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].isdigit():
            rows.append(tuple(name.strip(" `") for name in cells[1].split(",")))
    return rows


def test_the_architecture_page_draws_the_same_layers():
    page = (PACKAGE.parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    # ``__init__`` is the package's own module: it sits on top, unlisted.
    assert documented_layers(page) == [
        tuple(n for n in names if n != "__init__") for names in LAYERS
    ]


def test_a_layer_table_out_of_date_is_seen():
    page = "| layer | modules |\n| --- | --- |\n| 0 | `model` |\n| 1 | `config`, `rules` |\n"
    assert documented_layers(page) == [("model",), ("config", "rules")]
    assert documented_layers(page) != [("model",), ("config",)]
