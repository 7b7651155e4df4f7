"""One setting across its spellings: the config key, the environment
variable and the flag that set the same thing, linked by evidence.

Explicit evidence comes first: a declaration that names its other
spellings (``envvar=``, automatic variables, a registry entry's ``cli``, a
default read from the environment: ``spellings.py``), a value copied
between a flag and a key (``copies.py``), a loop that reads every prefixed
variable (``loaders.py``), and one variable read in two places. The
project's convention (``convention.py``) links the rest, only where both
spellings exist. Each link keeps its evidence; the
settings band of rules (``rules/settings.py``) and ``map --settings`` read
the result."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from configdrift.link.convention import normal, prefixes
from configdrift.link.copies import copy_links
from configdrift.link.loaders import loader_spellings
from configdrift.link.spellings import spellings
from configdrift.model import Setting, SettingLink, Spelling

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The order a setting's spellings are listed in, and the one it is named by.
KINDS = ("key", "env", "flag")

#: The flags of one command that must mirror keys of one configuration
#: before a flag and a key of the same name count as one setting.
_MIRRORED = 2


def settings_of(analysis: Analysis) -> list[Setting]:
    """The project's settings that have more than one spelling, computed
    once per project (on its first surface)."""
    first = analysis.first or analysis
    if first.linked is None:
        first.linked = link(first)
    return first.linked


def link(analysis: Analysis) -> list[Setting]:
    found, declared = spellings(analysis)
    unique = list({(s.kind, s.name, s.surface, s.path, s.location): s for s in found}.values())
    explicit = [
        SettingLink(owner, other, "explicit", _declared(owner, other, why), where)
        for owner, other, why, where in declared
    ]
    # Copies name one key or variable for certain: before the variables a
    # loader spells beside the reads of the same names.
    copies = copy_links(analysis.project, unique)
    for key, variable, why, where in loader_spellings(analysis.project, unique):
        unique.append(variable)
        explicit.append(SettingLink(key, variable, "explicit", why, where))
    by_variable: dict[str, list[Spelling]] = {}
    for s in unique:
        if s.kind == "env":
            by_variable.setdefault(s.name, []).append(s)
    for name, same in by_variable.items():
        explicit.extend(
            SettingLink(a, b, "explicit", f"both are the variable `{name}`")
            for a, b in itertools.pairwise(same)
        )
    explicit += copies
    known = prefixes(unique, [(owner, other) for owner, other, _, _ in declared])
    groups = _Groups(unique)
    links = [link_ for link_ in explicit if groups.join(link_.a, link_.b)]
    # The convention links only what no explicit evidence joins already.
    links += [link_ for link_ in _conventional(unique, known) if groups.join(link_.a, link_.b)]
    return groups.settings(links)


def _conventional(spelt: list[Spelling], known: set[str]) -> list[SettingLink]:
    """Spellings of different kinds and surfaces that spell one name by the
    convention."""
    by_normal: dict[str, list[Spelling]] = {}
    for s in spelt:
        name = normal(s, known)
        if name:
            by_normal.setdefault(name, []).append(s)
    out: list[SettingLink] = []
    mirrors: dict[tuple[str, str], list[SettingLink]] = {}
    for name, same in by_normal.items():
        for i, a in enumerate(same):
            for b in same[i + 1 :]:
                if a.kind == b.kind or a.surface == b.surface:
                    continue
                why = f"`{a.name}` and `{b.name}` both spell `{name}`"
                candidate = SettingLink(a, b, "convention", why, common=name)
                if a.kind == "flag" or b.kind == "flag":
                    flag, other = (a, b) if a.kind == "flag" else (b, a)
                    mirrors.setdefault((flag.declared_by, other.surface), []).append(candidate)
                else:
                    out.append(candidate)
    # A flag named as a key or a variable could be a coincidence
    # (``--version`` beside a ``version`` key); flags of one command that
    # mirror several keys of one configuration are a convention.
    out += [link_ for group in mirrors.values() if len(group) >= _MIRRORED for link_ in group]
    return out


class _Groups:
    """The spellings joined so far (a union-find)."""

    def __init__(self, spelt: list[Spelling]) -> None:
        self.spelt = spelt
        self.parent = {id(s): s for s in spelt}

    def find(self, s: Spelling) -> Spelling:
        while self.parent[id(s)] is not s:
            self.parent[id(s)] = self.parent[id(self.parent[id(s)])]
            s = self.parent[id(s)]
        return s

    def join(self, a: Spelling, b: Spelling) -> bool:
        """Join two spellings; False when they were one setting already."""
        root_a, root_b = self.find(a), self.find(b)
        if root_a is root_b:
            return False
        self.parent[id(root_a)] = root_b
        return True

    def settings(self, links: list[SettingLink]) -> list[Setting]:
        """One setting per group of two spellings or more."""
        members: dict[int, list[Spelling]] = {}
        for s in self.spelt:
            members.setdefault(id(self.find(s)), []).append(s)
        joined: dict[int, list[SettingLink]] = {}
        for link_ in links:
            joined.setdefault(id(self.find(link_.a)), []).append(link_)
        out: list[Setting] = []
        for root, group in members.items():
            if len(group) < 2:
                continue
            group.sort(key=lambda s: (KINDS.index(s.kind), s.name, s.surface, s.location.path))
            evidence = joined.get(root, [])
            out.append(Setting(_name(group, evidence), tuple(group), tuple(evidence)))
        out.sort(key=lambda s: s.name)
        return out


def _declared(owner: Spelling, other: Spelling, why: str) -> str:
    """Why a declaration's two spellings are one setting."""
    if why == "default":
        return f"`{owner.name}` defaults to what `{other.name}` holds"
    if why == "cli":
        return f"`{owner.name}` lists the flag `{other.name}`"
    if why == "env":
        return f"`{owner.name}` names the variable `{other.name}`"
    if why == "config file":
        return f"`{owner.name}` is read from the key `{other.name}` of its parser's config files"
    if why == "automatic":
        return f"`{owner.name}` is read from `{other.name}` (an automatic variable of its parser)"
    return f"`{owner.name}` declares `{other.name}` with {why}"


def _name(group: list[Spelling], links: list[SettingLink]) -> str:
    """A setting's name: its config key, else the name its spellings share
    by the convention, else its flag's destination, else its variable."""
    if group[0].kind == "key":
        return group[0].name
    common = sorted(link_.common for link_ in links if link_.common)
    dests = [s.dest for s in group if s.dest]
    return common[0] if common else dests[0] if dests else group[0].name
