"""``configdrift map``: what was found, surface by surface: the config tree,
the doc sections and how each was decided, and what could not be resolved."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from configdrift.commands.common import (
    ExitCode,
    analysed_projects,
    paths_argument,
    project_options,
    text_or_json,
    usage_error,
)
from configdrift.unconfigured import unread_pages
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.commands.common import Subparsers


def map_tree(
    paths: str | Sequence[str] = ".",
    *,
    config_file: str | None = None,
    unresolved: bool = False,
    unread: bool = False,
    settings: bool = False,
    output_format: str = "text",
    jobs: int | None = None,
    cache: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print the surfaces, each one's resolved config tree and how each doc
    section was mapped, for each project the paths name (text or JSON);
    with ``unread``, also the pages that look like configuration references
    and were not read, with the reason; with ``settings``, the table of
    settings (each setting with every spelling) instead of the trees."""
    from configdrift.config import ConfigError

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        maps = [
            project_map(analysis, unresolved, unread, settings)
            for analysis in analysed_projects(paths, config_file, jobs, cache)
        ]
    except ConfigError as exc:
        usage_error(str(exc), err)
        return ExitCode.USAGE
    if output_format == "json":
        from configdrift.schemas import SCHEMA_IDS

        document = {"$schema": SCHEMA_IDS["map"], "version": 1, "projects": maps}
        out.write(json.dumps(document, indent=2) + "\n")
        return ExitCode.OK
    for index, project in enumerate(maps):
        if len(maps) > 1:
            out.write(f"{chr(10) if index else ''}== {project['root']} ==\n")
        if settings:
            from configdrift.commands.map_settings import settings_text

            settings_text(project["settings"], out)
        else:
            _map_text(project, out)
    return ExitCode.OK


def project_map(
    analysis: Analysis, unresolved: bool, unread: bool = False, settings: bool = False
) -> dict[str, Any]:
    """What ``map`` shows of one project, as data (paths from the current
    directory)."""
    from configdrift.analysis import accepted_nodes
    from configdrift.coverage import census
    from configdrift.escape import printable
    from configdrift.model import STATES, format_path
    from configdrift.output.display import places, prefix_for, rebase
    from configdrift.rules.evidence import keys_read

    prefix = prefix_for(analysis.config.root)
    where = places(prefix)

    surfaces = []
    for surface in analysis.everything:
        mounts = {m.path: m for m in surface.mounts}
        states = [state for _, state in census(surface).states]
        strictness = {True: "strict", False: "lenient", None: "open"}
        tree = []
        root = mounts.get(())
        for node in surface.schema.walk():
            if not node.path or not (node.model or node.children):
                continue
            mount = mounts.get(node.path)
            tree.append(
                {
                    "path": printable(format_path(node.path)),
                    "aliases": [printable(s) for s in node.spellings if s != node.key],
                    "model": node.model or None,
                    "strict": strictness[node.strict],
                    "location": where(node.model_location),
                    "mount": {"how": mount.how, "location": where(mount.location)}
                    if mount
                    else None,
                }
            )
        surfaces.append(
            {
                "name": surface.surface,
                "model": surface.schema.model or ("a dict" if surface.schema.children else None),
                "how": surface.how or None,
                "admitted": printable(surface.admitted) if surface.admitted else None,
                "evidence": {
                    "keys": len(states),
                    "documented": len(surface.entries),
                    "read": keys_read(surface),
                    # What check's summary and coverage count of the keys.
                    **{state: states.count(state) for state in STATES},
                },
                "docs": [
                    printable(rebase(path, prefix))
                    for path in dict.fromkeys(
                        [*(d.path for d in surface.doc_sources), *surface.example_pages]
                    )
                ],
                # Pages that render it at build time (``.. argparse::``,
                # ``.. automodule::``, a project's own directive).
                "rendered_by": [where(loc) for loc in surface.rendering or surface.generated],
                "root": {
                    "model": root.model,
                    "how": root.how,
                    "location": where(root.location),
                    "strict": strictness[surface.schema.strict],
                }
                if root
                else None,
                "tree": tree,
                # Every accepted key and every placed doc entry, so that a
                # script can tell where a key was lost: not on any surface,
                # its entry not placed, or both there and no rule fired.
                # With the defaults each side states: a key's where the code
                # knows it, an entry's where the page gives one.
                "keys": [
                    {
                        "path": printable(format_path(node.path)),
                        "location": where(node.location),
                        "default": printable(node.default.text)
                        if node.default is not None and node.default.known
                        else None,
                        "state": state,
                    }
                    for node, state in zip(accepted_nodes(surface), states, strict=True)
                ],
                "entries": [
                    {
                        "name": printable(entry.name),
                        "path": printable(format_path(entry.path)),
                        "location": where(entry.location),
                        "default": printable(entry.default) if entry.default is not None else None,
                    }
                    for entry in surface.entries
                ],
                "sections": [
                    {
                        "location": where(section.location),
                        "title": printable(section.title),
                        "path": printable(format_path(section.path)),
                        "model": section.model or None,
                        "how": section.how,
                    }
                    for section in surface.sections
                ],
            }
        )
    surfaced = {s.schema.model for s in analysis.everything}
    project: dict[str, Any] = {
        "root": printable(prefix or "."),
        "surfaces": surfaces,
        "candidates": [
            {"model": c.model, "location": where(c.location), "how": c.how}
            for c in analysis.root_candidates
            if c.model not in surfaced
        ],
    }
    if unresolved:
        project["unresolved"] = [
            {"location": where(item.location), "what": printable(item.what)}
            for item in analysis.unresolved
        ] + [
            {
                "location": where(location),
                "what": printable(
                    f"keys under {format_path(prefix_path) or '(top level)'} may be read: {what}"
                ),
            }
            for prefix_path, location, what in analysis.unknown_reads
        ]
    if unread:
        from configdrift.pairs import unread_pairs

        project["unread"] = [
            {"path": printable(rebase(rel, prefix)), "reason": printable(reason)}
            for rel, reason in unread_pages(analysis)
        ]
        project["pairs"] = [
            {
                "page": printable(rebase(pair.page, prefix)),
                "entries": pair.entries,
                "container": printable(pair.container),
                "kind": pair.kind,
                "location": where(pair.location),
                "keys": pair.keys,
                "shared": pair.shared,
                "configuration": printable(pair.configuration()),
            }
            for pair in unread_pairs(analysis)
        ]
    if settings:
        from configdrift.link.table import settings_map

        project["settings"] = settings_map(analysis, where)
    return project


#: The pages ``map`` names for a surface, in text; the JSON has them all.
MAP_PAGES = 6


def _map_text(project: dict[str, Any], out: TextIO) -> None:
    surfaces = project["surfaces"]
    if len(surfaces) > 1:
        out.write("Surfaces (each a configuration of its own, judged on its own):\n")
        for surface in surfaces:
            rendered = [f"{r} (rendered at build time)" for r in surface["rendered_by"][:3]]
            more = len(surface["rendered_by"]) - 3
            rendered += [f"{more} more rendering pages"] if more > 0 else []
            docs = surface["docs"][:MAP_PAGES]
            if len(surface["docs"]) > MAP_PAGES:
                docs.append(f"{len(surface['docs']) - MAP_PAGES} more pages")
            pages = ", ".join([*docs, *rendered]) or "no doc page"
            if surface["admitted"] and not surface["docs"] and not rendered:
                pages += f" (a configuration by the code alone: {surface['admitted']})"
            found = f"; {surface['how']}" if surface["how"] else ""
            out.write(
                f"  {surface['name']}: {surface['model'] or 'nothing found'}{found}; "
                f"documented in {pages}\n"
            )
        out.write("\n")
    for index, surface in enumerate(surfaces):
        title = f" of {surface['name']}" if len(surfaces) > 1 else ""
        if index:
            out.write("\n")
        out.write(f"Config tree{title} (config path -> model, where it is built):\n")
        evidence = surface["evidence"]
        if surface["model"]:
            spare = evidence["exempt"]
            out.write(
                f"  evidence: {counted(evidence['keys'], 'key')} accepted "
                f"({evidence['compared']} compared with a doc entry, "
                + (
                    f"{evidence['rendered']} rendered at build time, "
                    if evidence["rendered"]
                    else ""
                )
                + (f"{spare} needing no entry, " if spare else "")
                + f"{evidence['undocumented']} undocumented), "
                f"{counted(evidence['documented'], 'doc entry', 'doc entries')} placed on it, "
                f"{counted(evidence['read'], 'key')} seen read by the code\n"
            )
        root = surface["root"]
        if root is not None:
            out.write(
                f"  (top level) -> {root['model']} [{root['strict']}]; {root['how']} "
                f"at {root['location']}\n"
            )
        for node in surface["tree"]:
            aliases = f" (also {', '.join(node['aliases'])})" if node["aliases"] else ""
            model = (
                f"{node['model']} [{node['strict']}]" if node["model"] else f"[{node['strict']}]"
            )
            at = f" {node['location']}" if node["location"] else ""
            mount = node["mount"]
            origin = f"; {mount['how']} at {mount['location']}" if mount else ""
            out.write(f"  {node['path']}{aliases} -> {model}{at}{origin}\n")
        out.write(f"\nDoc sections{title} (section -> config path: how it was decided):\n")
        for section in surface["sections"]:
            model = f" [{section['model']}]" if section["model"] else ""
            out.write(
                f"  {section['location']} {section['title']!r} -> "
                f"{section['path'] or '(top level)'}{model}: {section['how']}\n"
            )
    if project["candidates"]:
        out.write(
            "\nModels built from a whole dict (not mounted; set `mount` to use one as the root):\n"
        )
        for cand in project["candidates"]:
            out.write(f"  {cand['model']} at {cand['location']} ({cand['how']})\n")
    if "unread" in project:
        lines = [f"{page['path']}: {page['reason']}" for page in project["unread"]]
        _listing(out, "Pages that look like configuration references, not read", lines)
        lines = [
            f"{pair['page']} ~ {pair['container']} at {pair['location']}: "
            f"{pair['shared']} of the page's {pair['entries']} keys are among its {pair['keys']}; "
            f"to compare them, in [tool.configdrift]: {pair['configuration']}"
            for pair in project["pairs"]
        ]
        _listing(out, "Pages no surface reads, with the code that holds their keys", lines)
    if "unresolved" in project:
        lines = [f"{item['location']}: {item['what']}" for item in project["unresolved"]]
        _listing(out, "Unresolved (not analysed, never guessed)", lines)


def _listing(out: TextIO, title: str, lines: list[str]) -> None:
    out.write(f"\n{title}:\n")
    for line in lines or ["(none)"]:
        out.write(f"  {line}\n")


def register(sub: Subparsers) -> None:
    """``map`` and its arguments."""
    p_map = sub.add_parser(
        "map",
        help="print the config tree and the doc-section mapping",
        description="Print what configdrift found: each configuration surface, its config tree "
        "(config path -> model, where it is built) and how each doc section was mapped.",
    )
    paths_argument(p_map)
    text_or_json(p_map)
    p_map.add_argument(
        "--unresolved", action="store_true", help="also list what could not be resolved"
    )
    p_map.add_argument(
        "--unread",
        action="store_true",
        help="also list the pages that look like configuration references and were not read, "
        "with the reason",
    )
    p_map.add_argument(
        "--settings",
        action="store_true",
        help="print the table of settings instead: each setting with every spelling "
        "(config key, environment variable, flag), its default, type and doc entry, "
        "and what links them",
    )
    project_options(p_map)
    p_map.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    return map_tree(
        args.paths,
        config_file=args.config,
        unresolved=args.unresolved,
        unread=args.unread,
        settings=args.settings,
        output_format=args.output_format,
        jobs=args.jobs,
        cache=not args.no_cache,
    )
