"""A warm run that does nothing twice: when no input of a project changed,
its stored report is replayed instead of analysed again.

The inputs are configdrift's own code, the interpreter's version, the
options in force (the configuration and the command line's), the list of
files discovery finds and each file's content, and the baseline's. A file's
content is known by a digest, which is read again only when its stat
(size, times, inode) differs from the one stored beside the report, or is
too recent to tell a change: a touched file replays, and a report is
stored whenever the files were last modified. Any difference, and the
project is analysed as before (and the report stored anew). Runs that
consult git (``--diff-base``, ``--provenance``), import the project
(``--import``) or write a baseline are never replayed.

Like the fact cache, the store is JSON in the user's cache directory, not
used when that directory lies in the checked tree, bounded in size, and
best effort: a missing, unreadable, oversized or corrupt entry is a miss.
One entry is kept per project root.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configdrift.config import Config
from configdrift.files import code_digest, write_cache
from configdrift.model import Finding, Location, Related, Severity
from configdrift.sources import Sources

#: The store's own format; a change makes every entry a miss.
FORMAT = 1


@dataclass(slots=True)
class Stored:
    """One project's part of a report, as ``api`` assembles it (findings
    relative to the root, before any filter by file)."""

    findings: list[Finding]
    files: int
    surfaces: list[tuple[str, int, int, int, int, int, int]]
    examples: tuple[int, int, int, int]
    notes: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


#: A file modified less than this long before a run (in nanoseconds) may
#: be modified again within the file system's timestamp granularity without
#: its time changing (as git treats "racily clean" index entries): its
#: stat never stands for its content, which is read and digested.
RACY_NS = 2_000_000_000
#: A file larger than this is known by its stat alone (extraction reads no
#: more of a file than its bounds either).
MAX_DIGESTED = 64 * 1024 * 1024

#: What a file's stat said when its content had a digest: name -> [stat
#: stamp, digest]. Stored with the report; a file whose stamp still
#: matches is not read again.
Stamps = dict[str, list[str]]


@dataclass(slots=True)
class Inputs:
    """A digest of everything a project's report depends on, and the stamps
    to store with it."""

    key: str
    stamps: Stamps


def inputs(config: Config, sources: Sources, baseline: str | None, known: Stamps) -> Inputs:
    """The inputs' digest: each file by the digest of its content, read
    unless ``known`` holds its stat's stamp from an earlier run (and it is
    not too recent for its stat to tell a change). A touched file is the
    same input; an edited one is another, whenever it was edited."""
    import time

    recent = time.time_ns() - RACY_NS
    digest = hashlib.sha256()
    digest.update(
        f"{FORMAT}\0{code_digest(Path(__file__).parent)}\0{sys.version_info[:3]}\0".encode()
    )
    digest.update(repr(_options(config)).encode("utf-8", "surrogateescape"))
    root = config.root
    files = sources.read()
    extra = [p for p in (config.source, Path(baseline) if baseline else None) if p is not None]
    from configdrift.filter.baseline import DEFAULT_NAME

    extra.append(root / DEFAULT_NAME)
    stamps: Stamps = {}
    base = str(root)
    for name, path in [
        *((rel, os.path.join(base, rel)) for rel in files),
        *((str(p), str(p)) for p in extra),
    ]:
        stamp, mtime, size = _stat(path)
        seen = known.get(name)
        if seen is not None and len(seen) == 2 and seen[0] == stamp and mtime < recent:
            content = seen[1]
        else:
            content = _content_digest(path, size, root) or stamp
        if mtime < recent:
            stamps[name] = [stamp, content]
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0" + content.encode() + b"\0")
    return Inputs(digest.hexdigest(), stamps)


def _content_digest(path: str, size: int, root: Path) -> str | None:
    """A digest of the file's bytes; None when it cannot be read as a
    regular file of a bounded size inside ``root`` (when it lies there),
    and its stat then stands for it."""
    from configdrift.files import Unreadable, read_path

    if size > MAX_DIGESTED:
        return None
    try:
        data = read_path(path, MAX_DIGESTED, (root,))
    except (Unreadable, OSError):
        return None
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _options(config: Config) -> tuple[Any, ...]:
    """The options in force, the root by its real path."""
    values = [getattr(config, name) for name in config.__slots__ if name not in ("root", "source")]
    return (os.path.realpath(config.root), *values)


def _stat(path: str) -> tuple[str, int, int]:
    """What tells a file's change, its modification time and its size."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return "-", 0, 0
    stamp = f"{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}:{info.st_mode}"
    return stamp, info.st_mtime_ns, info.st_size


#: The largest stored report read.
MAX_STORED_BYTES = 256 * 1024 * 1024


def _entry(root: Path) -> Path | None:
    from configdrift.files import cache_for

    directory = cache_for(root)
    if directory is None:
        return None
    name = hashlib.sha256(os.path.realpath(root).encode("utf-8", "surrogateescape")).hexdigest()
    return directory / "reports" / f"{name[:32]}.json"


def entry(root: Path) -> dict[str, Any]:
    """``root``'s stored entry (empty when there is none, or it cannot be
    read): its inputs' key, stamps and report."""
    from configdrift.files import read_cache

    path = _entry(root)
    raw = read_cache(path, MAX_STORED_BYTES) if path is not None else None
    if raw is None:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def stamps_of(stored: dict[str, Any]) -> Stamps:
    """The stamps of a stored entry (empty when malformed)."""
    stamps = stored.get("stamps")
    if not isinstance(stamps, dict):
        return {}
    return {
        name: value
        for name, value in stamps.items()
        if isinstance(value, list) and all(isinstance(v, str) for v in value)
    }


def load(stored: dict[str, Any], key: str) -> Stored | None:
    """The stored report when its inputs are ``key``."""
    if stored.get("key") != key:
        return None
    try:
        return _stored_from_json(stored["report"])
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def save(root: Path, found: Inputs, stored: Stored) -> None:
    """Store ``root``'s report with its inputs (best effort: a failure
    stores nothing)."""
    target = _entry(root)
    if target is None:
        return
    try:
        text = json.dumps(
            {"key": found.key, "stamps": found.stamps, "report": _stored_to_json(stored)}
        )
    except ValueError:
        return
    write_cache(target, [text.encode("ascii")])


def _stored_to_json(stored: Stored) -> dict[str, Any]:
    return {
        "findings": [_finding_to_json(f) for f in stored.findings],
        "files": stored.files,
        "surfaces": [list(s) for s in stored.surfaces],
        "examples": list(stored.examples),
        "notes": stored.notes,
        "messages": stored.messages,
    }


def _stored_from_json(data: dict[str, Any]) -> Stored:
    return Stored(
        findings=[_finding_from_json(f) for f in data["findings"]],
        files=int(data["files"]),
        surfaces=[
            (str(n), int(d), int(a), int(r), int(c), int(g), int(u))
            for n, d, a, r, c, g, u in data["surfaces"]
        ],
        examples=tuple(int(x) for x in data["examples"]),  # type: ignore[arg-type]
        notes=[str(n) for n in data["notes"]],
        messages=[str(m) for m in data["messages"]],
    )


def _finding_to_json(finding: Finding) -> dict[str, Any]:
    return {
        "code": finding.code,
        "key": finding.key,
        "path": finding.location.path,
        "line": finding.location.line,
        "message": finding.message,
        "related": [[r.path, r.line, r.note] for r in finding.related],
        "suggestion": finding.suggestion,
        "severity": finding.severity.value if finding.severity else None,
        "surface": finding.surface,
    }


def _finding_from_json(data: dict[str, Any]) -> Finding:
    return Finding(
        code=str(data["code"]),
        key=str(data["key"]),
        location=Location(str(data["path"]), int(data["line"])),
        message=str(data["message"]),
        related=tuple(Related(str(p), int(n), str(t)) for p, n, t in data["related"]),
        suggestion=data["suggestion"],
        severity=Severity(data["severity"]) if data["severity"] else None,
        surface=str(data["surface"]),
    )
