"""The dotted names a Python file's path gives its module: from the
folders that hold an ``__init__.py``, and from each folder up where they
do not (namespace packages, ``src/`` layouts, scripts folders)."""

from __future__ import annotations


def module_name(path: str, package_dirs: set[str]) -> tuple[str, bool]:
    """Dotted module name of a file, from the directories holding ``__init__.py``."""
    parts = path.split("/")
    stem = parts[-1][:-3] if parts[-1].endswith(".py") else parts[-1]
    is_package = stem == "__init__"
    names = [] if is_package else [stem]
    k = len(parts) - 1
    while k > 0 and "/".join(parts[:k]) in package_dirs:
        names.append(parts[k - 1])
        k -= 1
    return ".".join(reversed(names)), is_package


def import_names(path: str) -> list[str]:
    """The other names a module may be imported by when folders above it
    have no ``__init__.py`` (namespace packages, ``src/`` layouts, scripts
    folders): its dotted path from each folder up, the longest first."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts)) if parts[i:]]
