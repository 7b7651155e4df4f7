"""Git history: the config surface at a ref, and what changed between two.

A ref is read from git objects (``git ls-tree`` and ``git cat-file
--batch``), never by checking it out: the files configdrift reads are
written to a scratch directory and analysed there, so the work tree, the
index and HEAD are untouched.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from configdrift.config import Config
from configdrift.discover import DOC_SUFFIXES, may_read
from configdrift.extract.docs.page import MAX_PAGE_BYTES
from configdrift.files import MAX_FILE_BYTES
from configdrift.git import GitError, run
from configdrift.model import (
    DEPRECATED,
    REMOVED,
    ConfigPath,
    Finding,
    Location,
    SchemaNode,
    Value,
    format_path,
    same_value,
)

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: The most bytes a reader takes of a file with each suffix (a larger
#: blob is never written: its reader would refuse it); any other file the
#: run reads (``discover.may_read``), the most any file is read for.
MAX_BLOB_BYTES = MAX_FILE_BYTES
_CAPS = {suffix: MAX_PAGE_BYTES for suffix in DOC_SUFFIXES}
_CAPS |= {".json": 1 << 20, ".yaml": 1 << 20, ".yml": 1 << 20, ".toml": 4 << 20}
#: What a ref's files may take in all on the scratch disk, and how many
#: there may be: past either, the ref is not read (``GitError``), since a
#: tree can name one large blob many times for a few bytes of objects.
MAX_REF_BYTES = 256 * 1024 * 1024
MAX_REF_FILES = 50_000


def _git(root: Path, *args: str, input_bytes: bytes | None = None) -> bytes:
    return run(root, *args, input_bytes=input_bytes)


def repository(root: Path) -> Path:
    """The top of the git work tree holding ``root``."""
    from configdrift.git import repository as checked

    try:
        checked(root)
    except GitError as exc:
        # No repository at all, or one refused (the note said why).
        why = "is not in a git repository" if str(exc) == "not a git repository" else str(exc)
        raise GitError(f"{root.resolve()}: {why}" if why != str(exc) else why) from None
    try:
        top = _git(root, "rev-parse", "--show-toplevel").decode().strip()
    except GitError:
        raise GitError(f"{root.resolve()} is not in a git repository") from None
    return Path(top)


def resolve_ref(root: Path, ref: str) -> str:
    """The commit a ref names; a clear error when it does not exist, or
    when this clone is shallow and lacks it."""
    if ref.startswith("-"):
        raise GitError(f"unknown revision {ref!r}")
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
    except GitError:
        shallow = _git(root, "rev-parse", "--is-shallow-repository").decode().strip() == "true"
        hint = (
            " (this clone is shallow: fetch more history, e.g. git fetch --unshallow)"
            if shallow
            else ""
        )
        raise GitError(f"unknown revision {ref!r}{hint}") from None


def default_base(root: Path) -> str:
    """The merge-base of HEAD with the default branch."""
    candidates: list[str] = []
    try:
        head = _git(root, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD").decode().strip()
        candidates.append(head)
    except GitError:
        pass
    candidates += ["origin/main", "origin/master", "main", "master"]
    for branch in candidates:
        try:
            resolve_ref(root, branch)
        except GitError:
            continue
        return _git(root, "merge-base", "HEAD", branch).decode().strip()
    raise GitError("no default branch found to diff against: give BASE")


def materialise(root: Path, commit: str, into: Path) -> None:
    """Write the files configdrift reads at ``commit`` under ``into``.

    ``root`` may be a folder inside the repository: only that part of the
    tree is written, at the same relative place."""
    top = repository(root)
    prefix = root.resolve().relative_to(top.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    listing = _git(top, "ls-tree", "-r", "-z", "--long", commit, "--", prefix or ".")
    wanted: list[tuple[str, str, int]] = []
    total = 0
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, name_bytes = record.partition(b"\t")
        mode, kind, sha, size = meta.decode().split()
        name = name_bytes.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000" or not may_read(name):
            continue
        cap = _CAPS.get(name[name.rfind(".") :].lower(), MAX_BLOB_BYTES)
        if not size.isdigit() or int(size) > cap:  # "-", or "BAD": missing
            continue
        if not name.startswith(prefix) or not _plain_path(name):
            continue
        wanted.append((sha, name[len(prefix) :], int(size)))
        total += int(size)
        if total > MAX_REF_BYTES or len(wanted) > MAX_REF_FILES:
            raise GitError(
                f"the files configdrift reads at {commit[:12]} pass "
                f"{MAX_REF_BYTES >> 20} MiB or {MAX_REF_FILES:,} files: not read"
            )
    # The blobs in batches of a bounded size: memory holds one batch.
    batch: list[tuple[str, str, int]] = []
    for item in wanted:
        if batch and sum(size for _, _, size in batch) + item[2] > MAX_BATCH_BYTES:
            _write_blobs(top, batch, into)
            batch = []
        batch.append(item)
    if batch:
        _write_blobs(top, batch, into)


#: The most bytes of blobs read from git at once.
MAX_BATCH_BYTES = 64 * 1024 * 1024


def _plain_path(name: str) -> bool:
    """Is ``name`` a tree entry that can be written under a folder and stay
    there (git's own checkout refuses the others: ``..``, an absolute path,
    a ``.git`` folder)?"""
    parts = name.split("/")
    return not name.startswith("/") and all(
        part not in ("", ".", "..") and part.lower() != ".git" and "\\" not in part
        for part in parts
    )


def _write_blobs(top: Path, batch: list[tuple[str, str, int]], into: Path) -> None:
    data = _git(
        top, "cat-file", "--batch", input_bytes="".join(f"{sha}\n" for sha, _, _ in batch).encode()
    )
    offset = 0
    for _, rel, _ in batch:
        header_end = data.index(b"\n", offset)
        header = data[offset:header_end].split()
        if len(header) != 3:  # "<sha> missing": a partial clone lacks it
            offset = header_end + 1
            continue
        length = int(header[2])
        start = header_end + 1
        target = into / rel
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data[start : start + length])
        except OSError:
            pass  # a file where a folder of another entry is: that entry is not read
        offset = start + length + 1


@dataclass(frozen=True, slots=True)
class Change:
    """A change of the surface between two refs that is not an error."""

    kind: str
    key: str
    message: str
    location: Location | None


def _declared(schema: SchemaNode) -> dict[ConfigPath, SchemaNode]:
    return {node.path: node for node in schema.walk() if node.path and node.location is not None}


def compare(
    base_analysis: Analysis, head_analysis: Analysis, base_name: str, head_name: str
) -> tuple[list[Finding], list[Change]]:
    """CD403 for keys accepted at BASE that HEAD neither accepts nor marks
    removed or deprecated; renames, changed defaults and newly strict nodes
    as changes. Surfaces are paired by name and each pair compared; a
    surface found on one side only is a change of its own, never every
    one of its keys removed."""
    marked = {
        e.path: e
        for e in [*head_analysis.lifecycle, *base_analysis.lifecycle]
        if e.status in (REMOVED, DEPRECATED)
    }
    before = {a.surface: a for a in base_analysis.everything if a.schema.children}
    after = {a.surface: a for a in head_analysis.everything if a.schema.children}
    findings: list[Finding] = []
    changes: list[Change] = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old is not None and new is not None:
            pair = _compare_pair(old.schema, new.schema, marked, base_name, head_name)
            findings += [replace(f, surface=name) for f in pair[0]]
            changes += pair[1]
        elif old is not None:
            changes.append(
                Change(
                    "surface gone",
                    name,
                    f"the configuration `{name}` ({old.how or old.schema.model}) is not "
                    f"found at {head_name}: its keys are not compared",
                    old.schema.model_location,
                )
            )
        elif new is not None:
            changes.append(
                Change(
                    "surface added",
                    name,
                    f"the configuration `{name}` ({new.how or new.schema.model}) is new "
                    f"at {head_name}",
                    new.schema.model_location,
                )
            )
    findings.sort(key=lambda f: (f.location.path, f.location.line, f.key))
    return findings, changes


def _effect(head: SchemaNode, path: ConfigPath) -> str:
    """What becomes of a config that still sets a key gone at HEAD, by the
    mechanism that would read it."""
    from configdrift.model import CLI_KINDS, resolve_path

    if head.model_kind in CLI_KINDS:
        return "an unrecognized argument: the command fails"
    parent = resolve_path(head, path[:-1])[0] if path[:-1] else head
    if parent is not None and parent.strict is True:
        return "now rejected: it fails to load"
    return "now silently ignored"


def _compare_pair(
    base: SchemaNode,
    head: SchemaNode,
    marked: Mapping[ConfigPath, object],
    base_name: str,
    head_name: str,
) -> tuple[list[Finding], list[Change]]:
    """The comparison of one surface at BASE and at HEAD."""
    from configdrift.model import resolve_path
    from configdrift.rules.registry import make

    before, after = _declared(base), _declared(head)
    findings: list[Finding] = []
    changes: list[Change] = []
    gone = {p for p in before if resolve_path(head, p)[0] is None}
    for path in sorted(gone):
        if any(path[:n] in marked for n in range(1, len(path) + 1)):
            continue
        if path[:-1] in gone:
            continue  # reported with its section
        node = before[path]
        if node.deprecated:
            continue
        effect = _effect(head, path)
        where = node.location
        assert where is not None
        findings.append(
            make(
                "CD403",
                format_path(path),
                where,
                f"`{format_path(path)}` is accepted at {base_name} ({where}) but not at {head_name}, "
                f"with no removed-keys entry and no deprecation: a config that still sets it is {effect}",
                (),
                "add it to a registry of removed keys (or [tool.configdrift.removed]) so that it "
                "fails with a clear error, or deprecate it first",
            )
        )
    for path, node in after.items():
        old = before.get(path)
        for spelling in node.spellings:
            if (
                spelling != node.key
                and (*path[:-1], spelling) in before
                and (*path[:-1], spelling) not in after
            ):
                changes.append(
                    Change(
                        "renamed",
                        format_path((*path[:-1], spelling)),
                        f"`{format_path((*path[:-1], spelling))}` is renamed to `{format_path(path)}`; the old name is kept as an alias",
                        node.location,
                    )
                )
        if old is None:
            continue
        if (
            old.default is not None
            and node.default is not None
            and old.default.known
            and node.default.known
            # ``None`` stands for a default computed later (as for CD104).
            and old.default.value is not None
            and node.default.value is not None
            and not same_value(old.default.value, node.default.value)
        ):
            changes.append(
                Change(
                    "default changed",
                    format_path(path),
                    f"the default of `{format_path(path)}` changed from "
                    f"{_shown(old.default)} to {_shown(node.default)}",
                    node.default_location or node.location,
                )
            )
        if node.strict is True and old.strict is not True and node.children:
            changes.append(
                Change(
                    "turned strict",
                    format_path(path),
                    f"`{format_path(path)}` now rejects unknown keys ({node.model or 'strict'}): configs with extra keys there stop loading",
                    node.strict_location or node.location,
                )
            )
    return findings, changes


@contextmanager
def analysed_ref(config: Config, commit: str, jobs: int | None) -> Iterator[Analysis]:
    """The analysis of the project as it is at ``commit``, its files kept
    until the block ends: the rules read some of them again (which
    registry of removed keys a function checks)."""
    from configdrift.engine import analyse

    scratch = Path(tempfile.mkdtemp(prefix="configdrift-ref-"))
    try:
        materialise(config.root, commit, scratch)
        moved = replace(config, root=scratch, source=_moved(config, scratch))
        yield analyse(moved, jobs=jobs, cache=False)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _moved(config: Config, scratch: Path) -> Path | None:
    """The configuration file's place in the scratch copy, when it has one."""
    rel = config.source_rel
    return scratch / rel if rel else config.source


def _shown(value: Value) -> str:
    """A default as its value, with the code that spells it where they differ."""
    shown = repr(value.value)
    return shown if shown == value.text or not value.text else f"{shown} ({value.text})"
