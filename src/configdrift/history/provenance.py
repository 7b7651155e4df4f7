"""Each finding's git history (``check --provenance``): the commit that
last changed its line, and for a key the code rejects or ignores, whether
the file that defines its node ever held it and since when that node
rejects unknown keys.

git's output is read as it comes (``git.lines``): a file's history costs
what its commits and the hits on the keys asked about cost, never its
lines. Results are cached in the user's cache directory by each file's
blob at HEAD.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configdrift.files import is_file, write_cache
from configdrift.git import GitError, lines, run
from configdrift.history.refs import repository
from configdrift.model import Finding

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


def _git(root: Path, *args: str) -> bytes:
    return run(root, *args)


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

        if self.dirty and self.path is not None:
            self.dirty = not write_cache(self.path, [_json.dumps(self.data).encode("utf-8")])
