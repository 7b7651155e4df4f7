"""Baselines and diff bases: report only the findings a change introduced.

A finding is known by its fingerprint (rule, key, file; not the line), so a
baseline survives edits elsewhere in the file. One fingerprint can stand for
several findings (the same key rejected in two blocks of one page): the
baseline keeps how many, and only findings beyond that count are new.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from configdrift.files import Unreadable, read_path
from configdrift.model import Finding, fingerprint
from configdrift.writes import write_named

DEFAULT_NAME = "configdrift-baseline.json"
VERSION = 1
#: The largest baseline read.
MAX_BASELINE_BYTES = 64 * 1024 * 1024


class BaselineError(Exception):
    """A baseline file that cannot be read; the CLI exits with status 2."""


@dataclass(slots=True)
class Baseline:
    """Known findings by fingerprint, and the keys each source yielded."""

    known: Counter[str] = field(default_factory=Counter)
    described: dict[str, dict[str, object]] = field(default_factory=dict)
    #: Keys per source when the baseline was written: a doc page's entries,
    #: and ``<schema>`` for the keys the schema accepts.
    sources: dict[str, int] = field(default_factory=dict)

    @staticmethod
    def of(findings: list[Finding], sources: dict[str, int]) -> Baseline:
        base = Baseline(sources=dict(sources))
        for f in findings:
            fp = fingerprint(f)
            base.known[fp] += 1
            base.described.setdefault(fp, {"code": f.code, "key": f.key, "path": f.location.path})
        return base

    @staticmethod
    def load(path: Path, roots: tuple[Path, ...] = ()) -> Baseline:
        """The baseline at ``path`` (through the files' choke point: one
        that lies in a root of ``roots`` must resolve inside it)."""
        try:
            data = json.loads(read_path(path, MAX_BASELINE_BYTES, roots).decode("utf-8"))
        except FileNotFoundError:
            raise BaselineError(f"{path}: no such baseline") from None
        except OSError as exc:
            raise BaselineError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except Unreadable as exc:
            raise BaselineError(f"{path}: {exc}") from None
        except ValueError as exc:
            raise BaselineError(f"{path}: not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise BaselineError(f"{path}: not a configdrift baseline (version {VERSION})")
        base = Baseline()
        try:
            for entry in data["findings"]:
                fp = str(entry["fingerprint"])
                base.known[fp] += int(entry.get("count", 1))
                base.described[fp] = {
                    "code": str(entry["code"]),
                    "key": str(entry["key"]),
                    "path": str(entry["path"]),
                }
            base.sources = {str(k): int(v) for k, v in data.get("sources", {}).items()}
        except (KeyError, TypeError, ValueError) as exc:
            raise BaselineError(f"{path}: malformed entry: {exc}") from None
        return base

    def write(self, path: Path, roots: tuple[Path, ...] = ()) -> None:
        """Write the baseline to ``path``, atomically and never through a
        symbolic link (``OSError``)."""
        entries = [
            {"fingerprint": fp, **self.described[fp], "count": count}
            for fp, count in sorted(
                self.known.items(),
                key=lambda item: (
                    str(self.described[item[0]]["path"]),
                    str(self.described[item[0]]["code"]),
                    str(self.described[item[0]]["key"]),
                ),
            )
        ]
        document = {
            "version": VERSION,
            "tool": "configdrift",
            "findings": entries,
            "sources": dict(sorted(self.sources.items())),
        }
        write_named(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"), roots)

    def new(self, findings: list[Finding]) -> list[Finding]:
        """The findings beyond what the baseline knows, by fingerprint; of
        several with one fingerprint, the last ones (by line) are the new."""
        return only_new(findings, self.known)

    def stale(self, findings: list[Finding]) -> list[dict[str, object]]:
        """Entries for findings that are gone (fewer now than recorded)."""
        now = Counter(fingerprint(f) for f in findings)
        out = []
        for fp, count in sorted(self.known.items()):
            if now[fp] < count:
                out.append({**self.described[fp], "fingerprint": fp, "gone": count - now[fp]})
        return out

    def updated(self, findings: list[Finding], sources: dict[str, int]) -> Baseline:
        """The baseline without its stale entries (nothing new is added)."""
        now = Counter(fingerprint(f) for f in findings)
        base = Baseline(sources=dict(sources))
        for fp, count in self.known.items():
            keep = min(count, now[fp])
            if keep:
                base.known[fp] = keep
                base.described[fp] = self.described[fp]
        return base


def only_new(findings: list[Finding], known: Counter[str]) -> list[Finding]:
    left = Counter(known)
    out: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.location.path, f.location.line, f.code, f.key)):
        fp = fingerprint(f)
        if left[fp] > 0:
            left[fp] -= 1
        else:
            out.append(f)
    return out
