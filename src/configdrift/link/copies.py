"""Explicit links from code that copies a value between an option and a
key: ``env["MASTER_PORT"] = str(args.master_port)`` (a launcher hands its
flag to the environment), ``cfg["timeout"] = args.timeout``, or the other
way, ``args.port = config.get("port")``, and an object's attribute set
from a flag's, ``config.keep_alive_timeout = args.keep_alive``
(``ModuleFacts.copies``).

A copy links a flag to a spelling only where both ends are certain: the
flag is declared in the copy's file with the destination the copy reads
(elsewhere, ``args`` could be any command's), and the key is the only
spelling of that name."""

from __future__ import annotations

from configdrift.model import Location, SettingLink, Spelling
from configdrift.resolve.project import Project


def copy_links(project: Project, spelt: list[Spelling]) -> list[SettingLink]:
    flags: dict[str, list[Spelling]] = {}
    variables: dict[str, list[Spelling]] = {}
    keys: dict[str, list[Spelling]] = {}
    for s in spelt:
        if s.kind == "flag" and s.dest:
            flags.setdefault(s.dest, []).append(s)
        elif s.kind == "env":
            variables.setdefault(s.name, []).append(s)
        elif s.kind == "key" and s.path:
            keys.setdefault(s.path[-1], []).append(s)
    out: list[SettingLink] = []
    for info in project.modules.values():
        for line, direction, container, key, owner, attr in info.facts.copies:
            flag = _flag(flags.get(attr, []), info.path)
            if flag is None:
                continue
            environ = container.endswith("environ") or (key in variables and key.isupper())
            others = variables.get(key, []) if environ else keys.get(key, [])
            if len({(s.kind, s.name, s.surface) for s in others}) != 1:
                continue  # none, or several configurations name the key
            written, read = f"`{container}[{key!r}]`", f"`{owner}.{attr}` (`{flag.name}`)"
            if direction == "object":
                written = f"`{container}.{key}`"
            if direction == "attr":
                written, read = read, written
            why = f"{written} is set from {read}"
            out.append(SettingLink(flag, others[0], "explicit", why, Location(info.path, line)))
    return out


def _flag(candidates: list[Spelling], path: str) -> Spelling | None:
    """The flag a copy in ``path`` names: the one declared in that file."""
    here = [s for s in candidates if s.location.path == path]
    return here[0] if len(here) == 1 else None
