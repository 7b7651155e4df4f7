"""Git history: the config surface at a ref, and what changed between two.

A ref is read from git objects (``git ls-tree`` and ``git cat-file
--batch``), never by checking it out: the files configdrift reads are
written to a scratch directory and analysed there, so the work tree, the
index and HEAD are untouched.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configdrift.config import Config
from configdrift.files import is_file, write_atomic
from configdrift.git import GitError, lines, run
from configdrift.model import ConfigPath, Finding, Location, SchemaNode, Value, format_path
from configdrift.resolve.lifecycle import DEPRECATED, REMOVED
from configdrift.resolve.schema import same_value

if TYPE_CHECKING:
    from configdrift.engine import Analysis

#: Files a ref is read for: code, docs, config files, the configuration.
READ_SUFFIXES = (".py", ".md", ".markdown", ".json", ".yaml", ".yml", ".toml")
MAX_BLOB_BYTES = 8 * 1024 * 1024


def _git(root: Path, *args: str, input_bytes: bytes | None = None) -> bytes:
    return run(root, *args, input_bytes=input_bytes)


def repository(root: Path) -> Path:
    """The top of the git work tree holding ``root``."""
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
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, name_bytes = record.partition(b"\t")
        mode, kind, sha, size = meta.decode().split()
        name = name_bytes.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000" or not name.endswith(READ_SUFFIXES):
            continue
        if not size.isdigit() or int(size) > MAX_BLOB_BYTES:  # "-", or "BAD": missing
            continue
        if not name.startswith(prefix) or not _plain_path(name):
            continue
        wanted.append((sha, name[len(prefix) :], int(size)))
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
    as changes."""
    from configdrift.rules.docs_schema import resolve_path
    from configdrift.rules.registry import make

    base, head = base_analysis.schema, head_analysis.schema
    before, after = _declared(base), _declared(head)
    marked = {
        e.path: e
        for e in [*head_analysis.lifecycle, *base_analysis.lifecycle]
        if e.status in (REMOVED, DEPRECATED)
    }
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
        parent = resolve_path(head, path[:-1])[0] if path[:-1] else head
        if parent is not None and parent.strict is True:
            effect = "now rejected"
        else:
            effect = "now silently ignored"
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
    findings.sort(key=lambda f: (f.location.path, f.location.line, f.key))
    return findings, changes


def analyse_ref(config: Config, commit: str, jobs: int | None) -> Analysis:
    """The analysis of the project as it is at ``commit``."""
    from configdrift.engine import analyse

    scratch = Path(tempfile.mkdtemp(prefix="configdrift-ref-"))
    try:
        materialise(config.root, commit, scratch)
        moved = replace(config, root=scratch, source=_moved(config, scratch))
        return analyse(moved, jobs=jobs, cache=False)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _moved(config: Config, scratch: Path) -> Path | None:
    """The configuration file's place in the scratch copy, when it has one."""
    rel = config.source_rel
    return scratch / rel if rel else config.source


# -- provenance -----------------------------------------------------------

_NOT_COMMITTED = "0" * 40


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    date: str
    subject: str

    def describe(self) -> dict[str, str]:
        return {"commit": self.sha, "date": self.date, "subject": self.subject}

    def short(self) -> str:
        return f"{self.sha[:9]} ({self.date}, {self.subject!r})"


def blame_lines(top: Path, rel: str, lines: list[int]) -> dict[int, Commit]:
    """The commit that last changed each line, in one ``git blame`` of the file."""
    if not lines:
        return {}
    ranges = [arg for line in sorted(set(lines)) for arg in ("-L", f"{line},{line}")]
    try:
        raw = _git(top, "blame", "--porcelain", *ranges, "--", rel).decode("utf-8", "replace")
    except GitError:
        return {}
    out: dict[int, Commit] = {}
    info: dict[str, dict[str, str]] = {}
    current: tuple[str, int] | None = None
    for row in raw.splitlines():
        parts = row.split(" ")
        if len(parts) >= 3 and len(parts[0]) == 40 and parts[1].isdigit():
            current = (parts[0], int(parts[2]))
            info.setdefault(parts[0], {})
        elif current is not None and row.startswith("author-time "):
            info[current[0]]["time"] = row.split(" ", 1)[1]
        elif current is not None and row.startswith("summary "):
            info[current[0]]["summary"] = row.split(" ", 1)[1]
        elif current is not None and row.startswith("\t"):
            sha, line = current
            data = info.get(sha, {})
            stamp = int(data.get("time", "0"))
            date = _date(stamp)
            out[line] = Commit(sha, date, data.get("summary", ""))
    return out


def _date(stamp: int) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(stamp, tz=datetime.UTC).date().isoformat()


#: The largest provenance cache read.
MAX_HISTORY_CACHE_BYTES = 256 * 1024 * 1024

#: The most commits of one file's history read.
MAX_COMMITS = 20_000


@dataclass(slots=True)
class FileHistory:
    """One pass over a file's history (renames followed), newest commit
    first: for each word asked about, the commits whose added lines and
    whose removed lines hold it as a word, and for each text, the commits
    whose added lines hold it anywhere. Only these are kept, never the
    lines: memory is the commits and the hits, whatever the history's size."""

    commits: list[Commit]
    #: word -> (indexes of commits adding it, indexes of commits removing it)
    words: dict[str, tuple[list[int], list[int]]]
    #: text -> indexes of commits adding it
    texts: dict[str, list[int]]

    @staticmethod
    def of(top: Path, rel: str, words: set[str], texts: set[str] = frozenset()) -> FileHistory:  # type: ignore[assignment]
        args = [
            "-p",
            "--no-color",
            "--unified=0",
            "--date=short",
            f"--max-count={MAX_COMMITS}",
            "--format=%x01%H%x00%ad%x00%s",
        ]
        try:
            return FileHistory._read(top, ["log", "--follow", *args, "--", rel], words, texts)
        except GitError:
            # Following renames reads other files' blobs; a clone that lacks
            # some (a partial or trimmed one) can still give this file's own.
            try:
                return FileHistory._read(top, ["log", *args, "--", rel], words, texts)
            except GitError:
                return FileHistory([], {}, {})

    @staticmethod
    def _read(top: Path, args: list[str], words: set[str], texts: set[str]) -> FileHistory:
        import re

        patterns = {w: re.compile(rf"(?<![\w]){re.escape(w)}(?![\w])") for w in words}
        found = FileHistory([], {w: ([], []) for w in words}, {t: [] for t in texts})
        with lines(top, *args) as output:
            for raw in output:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                if line.startswith("\x01"):
                    sha, date, subject = [*line[1:].split("\x00"), "", ""][:3]
                    found.commits.append(Commit(sha, date, subject))
                    continue
                if not found.commits or line[:1] not in ("+", "-"):
                    continue
                if line.startswith(("+++", "---")):
                    continue
                index = len(found.commits) - 1
                added = line[0] == "+"
                body = line[1:]
                for word, pattern in patterns.items():
                    if word in body and pattern.search(body):
                        hits = found.words[word][0 if added else 1]
                        if not hits or hits[-1] != index:
                            hits.append(index)
                if added:
                    for text, hits in found.texts.items():
                        if text in body and (not hits or hits[-1] != index):
                            hits.append(index)
        return found

    def key_story(self, key: str) -> dict[str, Any]:
        """Was ``key`` ever in the file, and when was it last taken out?"""
        if not self.commits:
            return {"status": "unknown"}
        added, removed = self.words.get(key, ([], []))
        if not added:
            return {"status": "never-declared", "versions": len(self.commits)}
        newest_add = self.commits[added[0]]
        if removed and removed[0] <= added[0]:
            newest_remove = self.commits[removed[0]]
            return {"status": "removed", **newest_remove.describe(), "added": newest_add.describe()}
        return {"status": "present", **newest_add.describe()}

    def first_adding(self, text: str) -> Commit | None:
        found = self.texts.get(text, [])
        return self.commits[found[-1]] if found else None


_SCHEMA_CODES = frozenset({"CD101", "CD102", "CD201"})


def provenance(analysis: Analysis, findings: list[Finding], progress: Any = None) -> list[Finding]:
    """The findings with their history: the commit that last changed the
    finding's line, a doc entry or a declaration (``git blame``), and for
    CD101, CD102 and CD201 the key's story in
    the file that defines its node (never declared, or removed in a commit)
    and since when the node rejects unknown keys. One blame and one log per
    file; results are cached by the file's last commit."""
    from dataclasses import replace as with_

    root = analysis.config.root
    top = repository(root)
    prefix = root.resolve().relative_to(top.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    cache = _ProvenanceCache(top)
    doc_lines: dict[str, list[int]] = {}
    for f in findings:
        if f.location.line > 0 and is_file(root / f.location.path):
            doc_lines.setdefault(f.location.path, []).append(f.location.line)
    files = sorted(doc_lines)
    # What each schema file's history is asked: the keys of its findings,
    # and since when it rejects unknown keys.
    asked: dict[str, tuple[set[str], set[str]]] = {}
    for f in findings:
        if (schema := _schema_file(f)) is not None:
            words = asked.setdefault(schema, (set(), set()))[0]
            if f.key:
                words.add(_leaf(f.key))
        if f.code == "CD101" and (strict := _strict_file(f)) is not None:
            asked.setdefault(strict, (set(), set()))[1].add("forbid")
    schema_files = sorted(asked)
    total = len(files) + len(schema_files)
    cache.stamp_all(sorted({prefix + r for r in [*files, *schema_files]}))
    blamed: dict[str, dict[int, Commit]] = {}
    for done, rel in enumerate(files, start=1):
        blamed[rel] = cache.blame(prefix + rel, doc_lines[rel])
        if progress:
            progress(done, total)
    histories: dict[str, FileHistory] = {}
    for done, rel in enumerate(schema_files, start=len(files) + 1):
        histories[rel] = cache.history(prefix + rel, *asked[rel])
        if progress:
            progress(done, total)
    cache.save()
    out: list[Finding] = []
    for f in findings:
        story: dict[str, Any] = {}
        summary: list[str] = []
        commit = blamed.get(f.location.path, {}).get(f.location.line)
        if commit is not None and commit.sha != _NOT_COMMITTED:
            story["doc"] = commit.describe()
            summary.append(f"line last changed in {commit.short()}")
        elif commit is not None:
            story["doc"] = {"commit": None, "subject": "not committed yet"}
            summary.append("line not committed yet")
        schema_file = _schema_file(f)
        if schema_file and f.code in _SCHEMA_CODES and f.key:
            leaf = _leaf(f.key)
            told = histories[schema_file].key_story(leaf)
            told["file"] = schema_file
            story["schema"] = told
            if told["status"] == "never-declared":
                summary.append(
                    f"`{leaf}` was never in any version of {schema_file} ({told['versions']} commits)"
                )
            elif told["status"] == "unknown":
                summary.append(f"the history of {schema_file} could not be read")
            elif told["status"] == "removed":
                summary.append(
                    f"`{leaf}` was taken out of {schema_file} in {told['commit'][:9]} "
                    f"({told['date']}, {told['subject']!r})"
                )
            strict = _strict_file(f)
            if strict and f.code == "CD101":
                since = histories[strict].first_adding("forbid")
                if since is not None:
                    story["strict_since"] = {**since.describe(), "file": strict}
                    summary.append(f"unknown keys rejected since {since.short()}")
        story["summary"] = summary
        out.append(with_(f, provenance=story))
    return out


def _leaf(key: str) -> str:
    return key.rsplit(".", 1)[-1].replace("[]", "")


def _schema_file(finding: Finding) -> str | None:
    if finding.code not in _SCHEMA_CODES:
        return None
    for rel in finding.related:
        if rel.path.endswith(".py"):
            return rel.path
    return finding.location.path if finding.location.path.endswith(".py") else None


def _strict_file(finding: Finding) -> str | None:
    for rel in finding.related:
        if "forbids unknown keys" in rel.note and rel.path.endswith(".py"):
            return rel.path
    return None


class _ProvenanceCache:
    """Blames and file histories, keyed by the file's blob at HEAD (a file
    the work tree changed is not cached), in the user's cache directory."""

    def __init__(self, top: Path) -> None:
        import hashlib
        import json as _json

        from configdrift.files import cache_for, read_cache

        self.top = top
        directory = cache_for(top)
        self.path = (
            directory
            / f"history-{hashlib.sha256(str(top.resolve()).encode()).hexdigest()[:16]}.json"
            if directory is not None
            else None
        )
        raw = read_cache(self.path, MAX_HISTORY_CACHE_BYTES) if self.path is not None else None
        try:
            loaded = _json.loads(raw) if raw is not None else {}
        except (ValueError, RecursionError):
            loaded = {}
        self.data: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
        self.dirty = False
        self.stamps: dict[str, str] = {}

    def stamp_all(self, rels: list[str]) -> None:
        """Each file's blob at HEAD, and whether the work tree changed it:
        two git calls for all the files, not two per file."""
        self.stamps = {}
        if not rels:
            return
        try:
            listing = _git(self.top, "ls-tree", "-z", "HEAD", "--", *rels).decode(
                "utf-8", "replace"
            )
            changed = _git(self.top, "status", "--porcelain", "-z", "--", *rels).decode(
                "utf-8", "replace"
            )
        except GitError:
            return
        dirty = {entry[3:] for entry in changed.split("\0") if len(entry) > 3}
        for record in listing.split("\0"):
            meta, _, name = record.partition("\t")
            if name and len(meta.split()) == 3:
                self.stamps[name] = meta.split()[2] + ("+dirty" if name in dirty else "")

    def _last(self, rel: str) -> str:
        return self.stamps.get(rel, "")

    def blame(self, rel: str, lines: list[int]) -> dict[int, Commit]:
        stamp = self._last(rel)
        committed = bool(stamp) and not stamp.endswith("+dirty")
        key = f"blame:{rel}"
        entry = self.data.get(key)
        known: dict[str, list[str]] = {}
        if committed and isinstance(entry, dict) and entry.get("at") == stamp:
            try:
                known = {
                    str(line): [str(a), str(b), str(c)]
                    for line, (a, b, c) in entry["lines"].items()
                }
            except (KeyError, TypeError, ValueError, AttributeError):
                known = {}  # a damaged entry: blamed again
        missing = [line for line in lines if str(line) not in known]
        if missing:
            for line, commit in blame_lines(self.top, rel, missing).items():
                known[str(line)] = [commit.sha, commit.date, commit.subject]
            if committed:
                self.data[key] = {"at": stamp, "lines": known}
                self.dirty = True
        return {int(k): Commit(*v) for k, v in known.items() if k.isdigit() and int(k) in lines}

    def history(self, rel: str, words: set[str], texts: set[str]) -> FileHistory:
        """The history of ``rel`` for these words and texts: what the cache
        holds for its blob, and one pass over the log for what it lacks."""
        stamp = self._last(rel)
        key = f"log:{rel}"
        entry = self.data.get(key)
        known = FileHistory([], {}, {})
        if isinstance(entry, dict) and entry.get("at") == stamp:
            try:
                known = FileHistory(
                    [Commit(str(a), str(b), str(c)) for a, b, c in entry["commits"]],
                    {
                        str(w): (list(map(int, a)), list(map(int, r)))
                        for w, (a, r) in entry["words"].items()
                    },
                    {str(t): list(map(int, hits)) for t, hits in entry["texts"].items()},
                )
            except (KeyError, TypeError, ValueError, AttributeError):
                known = FileHistory([], {}, {})
        missing_words, missing_texts = words - set(known.words), texts - set(known.texts)
        if missing_words or missing_texts:
            found = FileHistory.of(self.top, rel, missing_words, missing_texts)
            if known.commits and [c.sha for c in found.commits] != [c.sha for c in known.commits]:
                known = FileHistory([], {}, {})  # the history moved: keep the new pass alone
            known = FileHistory(
                found.commits, {**known.words, **found.words}, {**known.texts, **found.texts}
            )
            if stamp and not stamp.endswith("+dirty"):
                self.data[key] = {
                    "at": stamp,
                    "commits": [[c.sha, c.date, c.subject] for c in known.commits],
                    "words": {w: [a, r] for w, (a, r) in known.words.items()},
                    "texts": known.texts,
                }
                self.dirty = True
        return known

    def save(self) -> None:
        import json as _json

        if not self.dirty or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, [_json.dumps(self.data).encode("utf-8")], mode=0o600)
            self.dirty = False
        except OSError:
            pass


def _shown(value: Value) -> str:
    """A default as its value, with the code that spells it where they differ."""
    shown = repr(value.value)
    return shown if shown == value.text or not value.text else f"{shown} ({value.text})"
