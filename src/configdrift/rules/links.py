"""Findings of one drift point at each other.

A key that drifted often shows up under several rules: the doc entry a
strict model rejects (CD101) and the accessor that reads the missing field
(CD201); a misspelt doc entry (CD101, "did you mean `save_interval`?") and
the real key left undocumented (CD103); a key nothing documents (CD103)
that nothing reads either (CD202). Each such finding names the others'
places, so that whoever reads one sees the whole drift.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict

from configdrift.model import Finding, Related

#: The most links added to one finding.
MAX_LINKS = 3

_MEANT = re.compile(r"did you mean `([^`]+)`")


#: Rules whose suggestion (``did you mean `x`?``) names a key.
_SUGGEST_KEYS = frozenset({"CD101", "CD102", "CD301", "CD302"})


def linked(findings: list[Finding]) -> list[Finding]:
    """The findings, each with related places for the other findings (of
    other rules, in the same surface) about the same key."""
    from configdrift.rules.registry import slug

    whole: dict[tuple[str, str], list[int]] = defaultdict(list)
    leaves: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, finding in enumerate(findings):
        if finding.key:
            whole[(finding.surface, finding.key)].append(index)
            leaf = _leaf(finding.key)
            if leaf is not None:
                leaves[(finding.surface, leaf)].append(index)
    # Links go both ways: the misspelt entry names the key it means, and
    # that key's finding names the entry. One link per other rule.
    partners: dict[int, dict[str, int]] = defaultdict(dict)
    for index, finding in enumerate(findings):
        for other in _candidates(finding, whole, leaves):
            if findings[other].code != finding.code:
                partners[index].setdefault(findings[other].code, other)
                partners[other].setdefault(finding.code, index)
    out = []
    for index, finding in enumerate(findings):
        links = [
            Related(
                findings[other].location.path,
                findings[other].location.line,
                f"the same drift: {code} {slug(code)}",
            )
            for code, other in sorted(partners[index].items())[:MAX_LINKS]
        ]
        out.append(
            dataclasses.replace(finding, related=(*finding.related, *links)) if links else finding
        )
    return out


def _candidates(
    finding: Finding,
    whole: dict[tuple[str, str], list[int]],
    leaves: dict[tuple[str, str], list[int]],
) -> list[int]:
    """The findings about the same key as ``finding``."""
    surface, key = finding.surface, finding.key
    if not key:
        return []
    found = [*whole.get((surface, key), ())]
    if "." in key:
        # An accessor's finding names the attribute alone.
        leaf = _leaf(key)
        if leaf is not None:
            found += whole.get((surface, leaf), ())
    else:
        found += leaves.get((surface, key), ())
    meant = _meant(finding)
    if meant is not None:
        found += whole.get((surface, meant), ())
    return found


def _leaf(key: str) -> str | None:
    """A dotted key's last segment, when it is distinctive enough to stand
    for the key (``grad_hooks``, not ``enabled``)."""
    if "." not in key:
        return None
    leaf = key.rsplit(".", 1)[-1]
    return leaf if "_" in leaf.strip("_") or "-" in leaf.strip("-") else None


def _meant(finding: Finding) -> str | None:
    """The key a misspelling's suggestion means, in the same section."""
    if finding.code not in _SUGGEST_KEYS or not finding.suggestion:
        return None
    match = _MEANT.search(finding.suggestion)
    if match is None:
        return None
    parent = finding.key.rsplit(".", 1)[0] if "." in finding.key else ""
    return f"{parent}.{match.group(1)}" if parent else match.group(1)
