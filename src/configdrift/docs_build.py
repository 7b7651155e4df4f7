"""The check as a docs build runs it (the Sphinx extension, the MkDocs
plugin): the project's findings, each at a doc page and line where it
has one, and whether it fails the check (at or above ``fail-on``), so
that the build reports it as a warning and a strict build (``-W``,
``strict: true``) fails on it.

The build runs configdrift in its own process, as the command line does:
nothing of the project is imported or run by configdrift, whatever the
build itself runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from configdrift.model import Finding, Severity, exit_code_for


@dataclass(frozen=True, slots=True)
class BuildFinding:
    """One finding as a docs build reports it."""

    #: Absolute path of the place a build that reports at pages only
    #: (Sphinx) gives: the doc page where the finding has one (its own
    #: place or a related one), else its own place.
    path: Path
    line: int
    #: The rule's code (``CD101``).
    code: str
    #: ``CODE [severity] message (slug)``.
    head: str
    #: Every place of the finding, absolute, with its note: its own first,
    #: then the related ones.
    places: tuple[tuple[Path, int, str], ...]
    #: Is it at or above the project's ``fail-on``? Those are warnings of
    #: the build; the others are logged as information.
    fails: bool

    def text(self, at: tuple[Path, int], shown: Callable[[Path], str]) -> str:
        """The head, with every place but ``at`` (where the build reports
        it), each as ``shown`` names it: no place said twice."""
        others = [
            f"{shown(path)}:{line}" + (f" ({note})" if note else "")
            for path, line, note in self.places
            if (path, line) != at
        ]
        return self.head + ("; " + "; ".join(others) if others else "")


def project_root(start: Path, root: str | None = None) -> Path:
    """The project a docs build belongs to: ``root`` (relative to
    ``start``) when given, else the project ``check`` finds from the
    folder (``api.project_of``)."""
    from configdrift.api import project_of

    start = start.resolve()
    if root:
        return (start / root).resolve()
    return project_of(start)


def build_findings(root: Path, docs: Path) -> tuple[list[BuildFinding], list[str]]:
    """The findings of the project at ``root``, each placed at a page
    under ``docs`` where it has one, and what ``check`` says on standard
    error. Raises ``ConfigError`` for a bad configuration."""
    from configdrift.api import check
    from configdrift.config import load

    fail_on = load(root).fail_on
    report = check(root)
    here = Path.cwd()
    docs = docs.resolve()
    out: list[BuildFinding] = []
    for finding in report.findings:
        places = [(finding.location.path, finding.location.line, "")]
        places += [(r.path, r.line, r.note) for r in finding.related]
        absolute = tuple(
            ((here / path).resolve(), max(1, line), note) for path, line, note in places
        )
        on_page = [(path, line) for path, line, _ in absolute if path.is_relative_to(docs)]
        path, line = on_page[0] if on_page else absolute[0][:2]
        fails = exit_code_for([finding], fail_on) == 1
        out.append(BuildFinding(path, line, finding.code, _head(finding), absolute, fails))
    return out, report.messages


def _head(finding: Finding) -> str:
    from configdrift.rules.registry import slug

    severity = (finding.severity or Severity.INFO).value
    return f"{finding.code} [{severity}] {finding.message} ({slug(finding.code)})"


def relative_to(root: Path) -> Callable[[Path], str]:
    """How a build names a place: from the project's root, else whole."""
    root = root.resolve()

    def shown(path: Path) -> str:
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)

    return shown
