"""Writing the edits of ``fix`` and ``sweep --apply``: each file as a diff,
or written whole, skipped when it changed since it was read; and the
check run again once the pages are written."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.config import Config
    from configdrift.discover import Sources
    from configdrift.model import Finding


def reported(
    config: Config, jobs: int | None, cache: bool, sources: Sources | None = None
) -> tuple[Analysis, list[Finding]]:
    """A project analysed, and the findings ``check`` reports for it (after
    ``select``, ``ignore`` and suppression comments)."""
    from configdrift.engine import analyse
    from configdrift.findings import unsuppressed
    from configdrift.rules.run import allowed, run_rules

    analysis = analyse(config, jobs=jobs, cache=cache, sources=sources)
    return analysis, unsuppressed(analysis, allowed(run_rules(analysis), config), [])


def recheck(before: list[Finding], after: list[Finding], prefix: str, err: TextIO) -> None:
    """After edits, what a check finds gone and what it finds new (a fix
    that brings a finding is named, never hidden)."""
    from collections import Counter

    from configdrift.escape import printable
    from configdrift.output.display import rebase

    def ident(f: Finding) -> tuple[str, str, str]:
        return (f.code, f.key, f.location.path)  # lines move with the edits

    gone = Counter(map(ident, before)) - Counter(map(ident, after))
    new = Counter(map(ident, after)) - Counter(map(ident, before))
    gone_count, new_count = sum(gone.values()), sum(new.values())
    print(f"Re-checked: {counted(gone_count, 'finding')} gone, {new_count} new.", file=err)
    for f in after:
        if new[ident(f)] > 0:
            new[ident(f)] -= 1
            where = f"{rebase(f.location.path, prefix)}:{f.location.line}"
            print(printable(f"  new: {where}: {f.code} {f.message}"), file=err)


def edit_files(
    root: str,
    prefix: str,
    files: dict[str, list[Any]],
    stamps: dict[str, tuple[int, int] | None],
    apply: bool,
    out: TextIO,
    err: TextIO,
    created: tuple[str, str] | None = None,
) -> tuple[list[str], int]:
    """Show the edits of each file as a diff, or with ``apply`` write them
    (and create ``created``, a new file); a file that changed since it was
    read is skipped with a note. The files changed (or shown) and the
    edits made."""
    from configdrift.edits import pages
    from configdrift.escape import printable, printable_lines
    from configdrift.files import create_file, write_file
    from configdrift.output.display import rebase

    changed: list[str] = []
    made = 0
    if apply:
        for rel in pages.dirty(root, sorted(files)):
            print(printable(f"warning: {rebase(rel, prefix)} has uncommitted changes"), file=err)
    for rel, edits in sorted(files.items()):
        shown = rebase(rel, prefix)
        now = pages.edited(root, rel, edits)
        if now is None or pages.stamp(root, rel) != stamps.get(rel):
            print(printable(f"{shown}: changed since it was read, skipped"), file=err)
            continue
        before, after = now
        if apply:
            try:
                write_file(root, rel, after)
            except OSError as exc:
                print(printable(f"{shown}: not written ({exc})"), file=err)
                continue
        else:
            out.write(printable_lines(pages.diff(shown, before, after)))
        changed.append(rel)
        made += sum(edit.fixes for edit in edits)
    if created is not None:
        rel, text = created
        shown = rebase(rel, prefix)
        if apply:
            try:
                create_file(root, rel, text.encode("utf-8"))
            except OSError as exc:
                print(printable(f"{shown}: not created ({exc})"), file=err)
                return changed, made
        else:
            out.write(printable_lines(pages.diff(shown, b"", text.encode("utf-8"), new=True)))
        changed.append(rel)
        made += 1
    return changed, made
