"""The project's registry of removed keys, as ``sweep --apply`` adds a key
to it: a module-level set, list, tuple or dict whose name matches
``removed-registries``, edited as its other entries are written; or, when
the code keeps none, ``[tool.configdrift.removed]`` in the configuration.
"""

from __future__ import annotations

import ast
import fnmatch
from typing import TYPE_CHECKING, Any

from configdrift.edits.key_deletion import python_module
from configdrift.edits.pages import UNREAD, Edit, page_lines
from configdrift.extract.python.exprs import unwrapped

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def registries_of(analysis: Analysis) -> list[tuple[str, str, int]]:
    """(file, name, line) of the module-level registries of removed keys."""
    patterns = analysis.config.removed_registries
    out = []
    for module in sorted(analysis.project.modules):
        info = analysis.project.modules[module]
        for name, expr in info.facts.assigns.items():
            if any(fnmatch.fnmatchcase(name, g) for g in patterns) and unwrapped(expr)[0] in (
                "seq",
                "dict",
            ):
                out.append((info.path, name, info.facts.assign_lines.get(name, 1)))
    return out


def registry_edit(analysis: Analysis, rel: str, name: str, key: str, reason: str) -> Edit | str:
    """The key added to the literal of ``name`` in ``rel``, as its other
    entries are written (quotes, one per line or all on one)."""
    lines = page_lines(str(analysis.config.root), rel)
    if lines is None:
        return UNREAD
    source = "".join(lines)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return "the registry's module does not parse"
    literal: ast.expr | None = None
    for node in tree.body:
        value: ast.expr | None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            literal = value
    while isinstance(literal, ast.Call) and len(literal.args) == 1:
        literal = literal.args[0]
    if not isinstance(literal, ast.Set | ast.List | ast.Tuple | ast.Dict):
        return f"`{name}` is no literal to add to: add `{key}` by hand"
    items: list[ast.expr] = (
        [k for k in literal.keys if k is not None]
        if isinstance(literal, ast.Dict)
        else list(literal.elts)
    )
    ends = list(literal.values) if isinstance(literal, ast.Dict) else items
    if not items or not ends:
        return f"`{name}` is empty: add `{key}` by hand"
    first = ast.get_source_segment(source, items[0]) or '"'
    quote = "'" if first.startswith("'") else '"'
    if quote in key or "\\" in key or (quote in reason and isinstance(literal, ast.Dict)):
        return f"`{key}` cannot be written in the registry's quotes: add it by hand"
    entry = f"{quote}{key}{quote}"
    if isinstance(literal, ast.Dict):
        entry += f": {quote}{reason}{quote}"
    last = ends[-1]
    assert last.end_lineno is not None and last.end_col_offset is not None
    line = lines[last.end_lineno - 1]
    # ``end_col_offset`` counts UTF-8 bytes.
    raw = line.encode("utf-8")
    cut = len(raw[: last.end_col_offset].decode("utf-8", "replace"))
    rest = line[cut:]
    after_last = rest.strip()
    own_lines = (
        last.end_lineno > literal.lineno
        and items[-1].lineno > literal.lineno
        and (not after_last or after_last[0] in ",#")
        and not after_last.lstrip(",").strip().startswith(("]", ")", "}"))
    )
    old = line
    if own_lines:
        # One entry per line: a new line under the last, with its indent,
        # and the commas as the others have them.
        eol = line[len(line.rstrip("\r\n")) :] or "\n"
        indent = " " * items[-1].col_offset
        if after_last.startswith(","):
            new = line + f"{indent}{entry},{eol}"
        else:
            new = line[:cut] + "," + rest + f"{indent}{entry}{eol}"
    else:
        new = line[:cut] + f", {entry}" + rest
    lines_after = [*lines]
    lines_after[last.end_lineno - 1] = new
    if python_module("".join(lines_after)) is None:
        return f"`{key}` could not be added to `{name}` without breaking it: add it by hand"
    return Edit(rel, last.end_lineno, old, new, "sweep", key, count=1)


def configuration_edit(analysis: Analysis, key: str, reason: str) -> Edit | tuple[str, str] | str:
    """``key = "reason"`` added to the ``removed`` table of the project's
    configuration file (pyproject.toml's ``[tool.configdrift.removed]``,
    configdrift.toml's ``[removed]``), or a configdrift.toml to create."""
    import json
    import os

    from configdrift.config import toml_key

    entry = f"{toml_key(key)} = {json.dumps(reason)}\n"
    rel = analysis.config.source_rel
    root = str(analysis.config.root)
    if analysis.config.source is not None and rel is None:
        return "the configuration file is outside the project: add the key by hand"
    if rel is None:
        if os.path.isfile(os.path.join(root, "pyproject.toml")):
            rel, table = "pyproject.toml", "tool.configdrift.removed"
        else:
            return "configdrift.toml", f"[removed]\n{entry}"
    else:
        table = "tool.configdrift.removed" if rel.endswith("pyproject.toml") else "removed"
    lines = page_lines(root, rel)
    if lines is None:
        return UNREAD
    if not lines:
        return "the configuration file is empty: add the key by hand"
    after = _with_entry("".join(lines), table, key, reason)
    if after is None:
        return f"`{key}` could not be added to [{table}] without breaking it: add it by hand"
    edit = _line_edit(lines, after.splitlines(keepends=True))
    if edit is None:
        return f"`{key}` could not be added to [{table}]: add it by hand"
    number, new = edit
    old = lines[number - 1]
    return Edit(rel, number, old, new, "sweep", key, count=1)


def _with_entry(text: str, table: str, key: str, reason: str) -> str | None:
    """``text`` with ``key = "reason"`` in ``table`` (dotted), through
    tomlkit: comments, layout and the other tables kept as they are;
    None when the file is no TOML or the table is no table."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(text)
        container: Any = document
        for depth, part in enumerate(table.split(".")):
            if part not in container:
                container[part] = tomlkit.table(is_super_table=depth < table.count("."))
            container = container[part]
            if not isinstance(container, dict):
                return None
        container[key] = reason
        return tomlkit.dumps(document)
    except (TOMLKitError, ValueError, TypeError):
        return None


def _line_edit(before: list[str], after: list[str]) -> tuple[int, str] | None:
    """``after`` as an edit of one line of ``before`` (line endings kept):
    the line's number (1-based) and its new text, when ``after`` only
    changes that line (an inline table grown) or inserts lines after it;
    None for any other change."""
    old = [line.rstrip("\r\n") for line in before]
    new = [line.rstrip("\r\n") for line in after]
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    changed = len(old) - head - tail
    if changed == 1:
        number, lines = head + 1, new[head : len(new) - tail]
    elif changed == 0 and head > 0:
        number, lines = head, [old[head - 1], *new[head : len(new) - tail]]
    else:
        return None
    line = before[number - 1]
    eol = "\r\n" if line.endswith("\r\n") else "\n"
    ending = eol if line.endswith("\n") or number < len(before) else ""
    return number, eol.join(lines) + (ending or eol)
