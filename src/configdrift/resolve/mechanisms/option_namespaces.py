"""Nested namespaces of option objects: one call whose keywords are options
(calls of one option class, each with its default) or namespaces (calls
of the outer callee again), ``NAMESPACES = Namespace(task=Namespace(
acks_late=Option(False, type="bool")), timezone=Option(type="string"))``.

Found by its shape, not by a name. How users write a nested option is the
project's convention: joined into one name (``task_acks_late``) or as a
path (``task.acks_late``); the docs decide, by which spelling they name
more often.
"""

from __future__ import annotations

from configdrift.extract.python.exprs import render
from configdrift.extract.python.facts import Expr
from configdrift.model import ConfigPath, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import KINDS
from configdrift.resolve.mechanisms.option_tables import MIN_TABLE, table_option, table_root
from configdrift.resolve.model_types import mark_deprecated
from configdrift.resolve.schema import ensure_path

#: How deep namespaces are followed.
MAX_DEPTH = 4
#: Types an option's ``type="..."`` names.
_TYPES = {**KINDS, "boolean": "bool", "string": "str", "tuple": "list"}


def _leaves(
    namespace: str, call: Expr, prefix: ConfigPath, depth: int, out: list[tuple[ConfigPath, Expr]]
) -> bool:
    """Collect ``(path, option call)``; False when a keyword is neither an
    option call nor a namespace."""
    for key, value in call[3].items():
        if key.startswith("_"):
            continue  # the namespace's own arguments (``__old__=``)
        if value[0] != "call":
            return False
        if render(value[1]) == namespace:
            if depth >= MAX_DEPTH or not _leaves(namespace, value, (*prefix, key), depth + 1, out):
                return False
        else:
            out.append(((*prefix, key), value))
    return True


def surfaces(discovery: Discovery) -> list[Surface]:
    """Every module-level namespace of options, spelt as the docs spell it,
    that the docs document (three fresh keys)."""
    builder, names = discovery.builder, discovery.names
    project = builder.project
    out: list[Surface] = []
    for module in sorted(project.modules):
        info = project.modules[module]
        for qualname, expr in info.facts.assigns.items():
            if "." in qualname or expr[0] != "call" or len(expr[3]) < 2:
                continue
            namespace = render(expr[1])
            leaves: list[tuple[ConfigPath, Expr]] = []
            if not _leaves(namespace, expr, (), 0, leaves) or len(leaves) < MIN_TABLE:
                continue
            if len({render(call[1]) for _, call in leaves}) != 1:
                continue  # calls of several kinds: not one option class
            if not any(len(path) > 1 for path, _ in leaves):
                continue  # flat keywords of one call: an ordinary call
            joined = sum(1 for path, _ in leaves if "_".join(path) in names)
            dotted = sum(1 for path, _ in leaves if path[-1] in names and len(path) > 1)
            flat = joined > dotted
            line = info.facts.assign_lines.get(qualname, 1)
            root, where, lines = table_root(builder, module, qualname, line)
            root.strict = False  # a namespace's options are read by name
            for path, call in leaves:
                key: ConfigPath = ("_".join(path),) if flat else path
                args, kwargs = call[2], call[3]
                default_expr = kwargs.get("default") or (args[0] if args else None)
                default = project.evaluate(module, default_expr) if default_expr else None
                kind = kwargs.get("type")
                kinds = None
                if kind is not None and kind[0] == "c" and str(kind[1]) in _TYPES:
                    kinds = frozenset({_TYPES[str(kind[1])]})
                parent = ensure_path(root, key[:-1], where, f"namespace of {qualname}")
                at = project.location(module, lines.get(".".join(path), line))
                node = parent.children[key[-1]] = table_option(key, default, at, qualname, kinds)
                mark_deprecated(project, module, node, kwargs)
            if discovery.claim(root):
                how = f"{len(leaves)} options in nested namespaces of {qualname}"
                out.append(Surface(qualname, root, how, [], ""))
    return out
