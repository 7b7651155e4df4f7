"""A configuration declared by its defaults, as confuse declares it: the
YAML file of defaults shipped in the package (``config_default.yaml``) and
the dicts of defaults the code adds to a view (``config.add({...})``,
``config["import"].add({...})``, a plugin's ``self.config.add({...})``).

Each key becomes a schema node with its default. confuse accepts any key
and reads them by subscript (``config["import"]["write"].get(bool)``), so
the root is open and no node is judged for its reads.
"""

from __future__ import annotations

import re

from configdrift.extract.docs.block_model import LIST, VALUE, BlockKey
from configdrift.extract.python.facts import Expr
from configdrift.model import LIST_ITEM, Location, SchemaNode, Surface, TypeInfo, Value, value_kind
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Project
from configdrift.resolve.schema import ensure_path, new_root

#: The file confuse reads an application's defaults from, beside its package.
DEFAULTS_FILES = frozenset({"config_default.yaml", "config_default.yml"})
#: How deep a dict of defaults is followed.
_MAX_DEPTH = 8
#: A key spelt as a name; other keys (patterns, paths) make a mapping data.
_NAME = re.compile(r"[A-Za-z_][\w-]*")
#: The model a node of this configuration names.
MODEL = "the configuration's defaults"


def defaults_root(project: Project, files: list[tuple[str, list[BlockKey]]]) -> SchemaNode | None:
    """The keys the defaults file(s) and the ``config.add`` calls give,
    with their defaults; None when there are none."""
    root = new_root()
    root.model, root.model_kind = MODEL, "defaults"
    for rel, keys in files:
        add_file_keys(root, rel, keys)
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            if call.method != "config.add" or not call.args:
                continue
            view = [a[1] for a in call.args[1:] if a[0] == "c"]
            if call.callee == "self.config":
                # A plugin's own view: ``config[plugin name]``, the module's name.
                view.insert(0, name.rsplit(".", 1)[-1])
            where = Location(info.path, call.line)
            root.model_location = root.model_location or where
            _add(project, name, root, tuple(view), call.args[0], where, 0)
    return root if root.children else None


def add_file_keys(root: SchemaNode, rel: str, keys: list[BlockKey]) -> None:
    """The keys of a file of defaults (confuse's YAML, a package's YAML,
    JSON, TOML or INI) under ``root``, each with its default (a value) or
    type (a list)."""
    root.model_location = root.model_location or Location(rel, 1)
    # A mapping keyed by anything but names (``replace: {'[<>:]': _}``)
    # is data: one value, not keys.
    data = {k.path[:-1] for k in keys if not _NAME.fullmatch(k.path[-1])}
    for key in keys:
        if LIST_ITEM in key.path or len(key.path) > _MAX_DEPTH:
            continue  # what a list of records holds is not a key
        if any(key.path[:i] in data for i in range(1, len(key.path))):
            continue
        node = ensure_path(root, key.path, Location(rel, key.line), f"default in {rel}")
        if key.kind == VALUE:
            _set_default(node, Value.of(key.value))
        elif key.kind == LIST:
            node.type = TypeInfo("list", frozenset({"list"}))


def _add(
    project: Project,
    module: str,
    root: SchemaNode,
    view: tuple[str, ...],
    expr: Expr,
    where: Location,
    depth: int,
) -> None:
    if depth > _MAX_DEPTH or expr[0] != "dict":
        return
    for key_expr, value in expr[1]:
        key = project.string(module, key_expr)
        if not key or not _NAME.fullmatch(key):
            continue
        path = (*view, key)
        node = ensure_path(root, path, where, f"default added at {where.path}:{where.line}")
        if value[0] == "dict":
            _add(project, module, root, path, value, where, depth + 1)
        elif (found := project.evaluate(module, value)).known:
            _set_default(node, found)


def _set_default(node: SchemaNode, value: Value) -> None:
    if node.default is not None:
        return  # the file's default comes first, as confuse layers it
    node.default = value
    kind = value_kind(value.value)
    node.type = TypeInfo(kind, frozenset({kind}))


def surfaces(discovery: Discovery) -> list[Surface]:
    """confuse's defaults (its defaults file and ``config.add`` calls), claimed
    with the doc titles of one word too."""
    found: list[Surface] = []
    if discovery.builder.imported("confuse"):
        defaults = defaults_root(discovery.builder.project, discovery.builder.defaults_files)
        if defaults is not None and discovery.claim(defaults, discovery.words()):
            files = [rel for rel, _ in discovery.builder.defaults_files]
            how = "confuse's defaults: " + (
                ", ".join(files) + " and config.add calls" if files else "config.add calls"
            )
            name = "config" if discovery.builder.primary != "config" else "defaults"
            found.append(Surface(name, defaults, how, [], ""))
    return found
