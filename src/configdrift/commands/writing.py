"""Writing the edits of ``fix`` and ``sweep --apply``: each file as a diff,
or written whole, skipped when it changed since it was read; and the
check run again once the pages are written."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.config import Config
    from configdrift.model import Finding
    from configdrift.sources import Sources


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
    whole: bool = False,
) -> tuple[list[str], int, int]:
    """Show the edits of each file as a diff, or with ``apply`` write them
    (and create ``created``, a new file). A file that changed since it was
    read is skipped with a note. Every file is written in full beside its
    target first, then all take their places together (``writes``): with
    ``whole`` (a key's removal, whose page edits need the registry entry)
    nothing is written unless every edit can be; otherwise the files that
    can be are. The files changed (or shown), the edits made, and the exit
    status the edits leave: 0 when every planned edit was made (or shown),
    1 when a file was skipped, 2 when one could not be written."""
    from configdrift.edits import pages
    from configdrift.escape import printable, printable_lines
    from configdrift.output.display import rebase
    from configdrift.writes import Staged, commit_all, stage

    changed: list[str] = []
    made = 0
    status = 0
    staged: list[Staged] = []
    before_bytes: dict[str, bytes] = {}
    if apply:
        for rel in pages.dirty(root, sorted(files)):
            print(printable(f"warning: {rebase(rel, prefix)} has uncommitted changes"), file=err)
    planned: list[tuple[str, list[Any], str | None]] = [
        (rel, edits, None) for rel, edits in sorted(files.items())
    ]
    if created is not None:
        planned.append((created[0], [], created[1]))
    for rel, edits, new_text in planned:
        shown = rebase(rel, prefix)
        if new_text is None:
            now = pages.edited(root, rel, edits)
            if now is None or pages.stamp(root, rel) != stamps.get(rel):
                print(printable(f"{shown}: changed since it was read, skipped"), file=err)
                status = max(status, 1)
                continue
            before, after = now
        else:
            before, after = b"", new_text.encode("utf-8")
        if apply:
            try:
                staged.append(stage(root, rel, after, "create" if new_text is not None else "edit"))
            except OSError as exc:
                verb = "created" if new_text is not None else "written"
                print(printable(f"{shown}: not {verb} ({_reason(exc)})"), file=err)
                status = 2
                continue
            before_bytes[rel] = before
        else:
            out.write(printable_lines(pages.diff(shown, before, after, new=new_text is not None)))
        changed.append(rel)
        made += sum(edit.fixes for edit in edits) if new_text is None else 1
    if not apply:
        return changed, made, status
    if whole and status:
        for write in staged:
            write.discard()
        print("nothing was written: the edits are made together or not at all", file=err)
        return [], 0, status
    try:
        commit_all(staged, before_bytes)
    except OSError as exc:
        print(
            printable(f"nothing was written: {_reason(exc)}; every file is as it was"),
            file=err,
        )
        return [], 0, 2
    return changed, made, status


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)
