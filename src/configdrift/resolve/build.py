"""The project's index of modules and its schema, from the facts of its
Python files: the first step of resolving."""

from __future__ import annotations

from collections.abc import Callable

from configdrift.config import Config
from configdrift.extract.python.facts import ModuleFacts
from configdrift.model import SchemaNode
from configdrift.resolve.project import ModuleInfo, Project, module_name
from configdrift.resolve.schema import SchemaBuilder


def build_schema(
    py_facts: dict[str, ModuleFacts],
    python: list[str],
    config: Config,
    doc_names: Callable[[], frozenset[str]] | None = None,
) -> tuple[SchemaNode, SchemaBuilder]:
    package_dirs = {p.rsplit("/", 1)[0] for p in python if p.endswith("/__init__.py")}
    modules: list[ModuleInfo] = []
    for rel in python:
        facts = py_facts.get(rel)
        if facts is None or facts.error is not None:
            continue
        name, is_package = module_name(rel, package_dirs)
        modules.append(ModuleInfo(name, rel, facts, is_package))
    builder = SchemaBuilder(Project(modules), config.registrations)
    root = builder.build(config.mount, doc_names)
    builder.apply_reads(root)
    return root, builder
