"""Every write into a checked tree: ``fix``, ``sweep --apply``, ``init``,
a baseline, a report or a badge written inside a tree.

A write reaches its folder from the tree's root down, one component at a
time, each opened with ``O_NOFOLLOW | O_DIRECTORY`` and the next one
relative to it (``dir_fd``): a folder swapped for a symbolic link at any
moment fails the open, it never sends a write out of the tree. The bytes
go into a new file beside the target, written whole and synced, and only
then take the target's place (``rename``, or ``link`` for a file that must
not exist yet), so a full disk leaves the target as it was. A set of edits
is made whole or not at all (``commit_all``): every file is staged first,
and one that cannot be put in place undoes the ones that were.

Where folders cannot be held by descriptor (Windows), the same checks are
made by path (``files.inside``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from configdrift.files import (
    Unreadable,
    check_named,
    inside,
    temporary_name,
    within,
    write_atomic,
)

#: Whether folders can be walked by descriptor here (not on Windows).
BY_DESCRIPTOR = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")

_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)

#: How ``stage`` treats what is at the target: ``edit`` replaces a regular
#: file keeping its permissions, ``create`` makes a file where nothing is,
#: ``named`` (a file the user names) replaces whatever is there but a
#: folder, a symbolic link included (never writing through it).
HOW = ("edit", "create", "named")


class Staged:
    """A write made ready in its folder and not yet in place: a new file
    beside the target, written whole and synced, in a folder held open by
    descriptor. ``commit`` puts it in place, ``discard`` removes it."""

    __slots__ = ("create", "folder", "name", "rel", "root", "temporary")

    def __init__(self, root: str, rel: str, folder: int, temporary: str, create: bool) -> None:
        self.root, self.rel, self.folder = root, rel, folder
        self.name, self.temporary, self.create = os.path.basename(rel), temporary, create

    def commit(self) -> None:
        """Put the file in place: it replaces the target (a link is
        replaced, never followed), or, created, appears only where nothing
        is (``OSError`` then, and nothing changes)."""
        folder = self.folder
        try:
            if not self.create:
                os.replace(self.temporary, self.name, src_dir_fd=folder, dst_dir_fd=folder)
                return
            try:
                os.link(
                    self.temporary,
                    self.name,
                    src_dir_fd=folder,
                    dst_dir_fd=folder,
                    follow_symlinks=False,
                )
            except FileExistsError:
                raise OSError(errno.EEXIST, "it exists already: not created") from None
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
                    raise
                # A file system without hard links: renamed while still free.
                if _lexists(folder, self.name):
                    raise OSError(errno.EEXIST, "it exists already: not created") from None
                os.replace(self.temporary, self.name, src_dir_fd=folder, dst_dir_fd=folder)
                return
            with contextlib.suppress(OSError):
                os.unlink(self.temporary, dir_fd=folder)
        except BaseException:
            self.discard()
            raise
        finally:
            self.close()

    def discard(self) -> None:
        """Remove the new file: the target stays as it was."""
        if self.folder >= 0:
            with contextlib.suppress(OSError):
                os.unlink(self.temporary, dir_fd=self.folder)
        self.close()

    def close(self) -> None:
        if self.folder >= 0:
            with contextlib.suppress(OSError):
                os.close(self.folder)
            self.folder = -1


def _lexists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def open_folder(root: str | Path, rel_dir: str) -> int:
    """A descriptor of the tree's folder ``rel_dir``, opened from ``root``
    down one component at a time, none followed if it is a link. ``OSError``
    for a link on the way, a component that is no folder, or ``..``."""
    flags = os.O_RDONLY | os.O_DIRECTORY | _FLAGS
    fd = os.open(root, flags)
    try:
        for part in rel_dir.replace(os.sep, "/").split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                raise OSError(errno.EACCES, "a path that leaves its folder: not written")
            try:
                inner = os.open(part, flags | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise OSError(exc.errno, "a symbolic link on the way: not written") from None
                raise
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def stage(root: str | Path, rel: str, data: bytes, how: str = "edit") -> Staged:
    """Make the write of ``root/rel`` ready (``Staged``; ``how``, see
    ``HOW``). ``OSError``, with nothing left behind, when its folder cannot
    be reached without following a link, the target is not what ``how``
    allows, or the bytes cannot all be written (a full disk)."""
    assert how in HOW
    rel_dir, name = os.path.split(rel)
    if not name or name in (".", ".."):
        raise OSError(errno.EINVAL, "not a file name: not written")
    if not BY_DESCRIPTOR:
        return _stage_by_path(str(root), rel, data, how)
    folder = open_folder(root, rel_dir)
    try:
        try:
            info: os.stat_result | None = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if how == "create" and info is not None:
            raise OSError(errno.EEXIST, "it exists already: not created")
        if how == "edit" and (info is None or not stat.S_ISREG(info.st_mode)):
            raise OSError(errno.EINVAL, "a symbolic link or not a regular file: not edited")
        if how == "named" and info is not None and stat.S_ISDIR(info.st_mode):
            raise OSError(errno.EISDIR, "a folder: not written")
        temporary = temporary_name(name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _FLAGS
        fd = os.open(temporary, flags, 0o600 if how == "edit" else 0o666, dir_fd=folder)
        try:
            write_all(fd, data)
            if how == "edit" and info is not None:
                os.fchmod(fd, info.st_mode & 0o7777)
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
            raise
        finally:
            os.close(fd)
    except BaseException:
        os.close(folder)
        raise
    return Staged(str(root), rel, folder, temporary, how == "create")


def write_all(fd: int, data: bytes) -> None:
    """Every byte of ``data`` written to ``fd`` (``OSError`` otherwise: a
    full disk, a file-size limit)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view[: 1 << 20])
        if written <= 0:
            raise OSError(errno.ENOSPC, "nothing could be written")
        view = view[written:]


def _stage_by_path(root: str, rel: str, data: bytes, how: str) -> Staged:
    """Where folders cannot be held by descriptor: the checks by path, and
    the write made at once (``commit`` then has nothing left to do)."""
    target = os.path.join(root, rel)
    if not inside(root, os.path.dirname(rel) or "."):
        raise OSError(errno.EACCES, "outside the project: not written")
    if how == "create" and os.path.lexists(target):
        raise OSError(errno.EEXIST, "it exists already: not created")
    if how == "edit" and (os.path.islink(target) or not inside(root, rel)):
        raise OSError(errno.EINVAL, "a symbolic link or outside the project: not edited")
    mode = os.stat(target).st_mode & 0o7777 if how == "edit" else 0o666
    write_atomic(Path(target), [data], mode=mode)
    return Staged(root, rel, -1, "", how == "create")


def commit_all(staged: list[Staged], before: dict[str, bytes] | None = None) -> None:
    """Put every staged write in place, or none: when one cannot be, the
    ones already in place are undone (a created file removed, an edited
    one written back from ``before``, its bytes as they were read) and
    ``OSError`` is raised."""
    done: list[Staged] = []
    try:
        for write in staged:
            if write.folder >= 0:
                write.commit()
            done.append(write)
    except BaseException:
        for write in staged[len(done) + 1 :]:
            write.discard()
        _undo(done, before or {})
        raise


def _undo(done: list[Staged], before: dict[str, bytes]) -> None:
    for write in reversed(done):
        with contextlib.suppress(OSError):
            if write.create:
                folder = open_folder(write.root, os.path.dirname(write.rel))
                try:
                    os.unlink(write.name, dir_fd=folder)
                finally:
                    os.close(folder)
            elif write.rel in before:
                commit_all([stage(write.root, write.rel, before[write.rel])])


def write_file(root: str | Path, rel: str, data: bytes) -> None:
    """Replace a regular file of the tree, whole or not at all, keeping its
    permissions: ``OSError`` when it is a link, no regular file, behind a
    link, or cannot be written whole."""
    commit_all([stage(root, rel, data, "edit")])


def create_file(root: str | Path, rel: str, data: bytes) -> None:
    """Create a file of the tree that does not exist yet, whole or not at
    all: ``OSError`` when something is there (a dangling link included),
    its folder is behind a link, or it cannot be written whole."""
    commit_all([stage(root, rel, data, "create")])


def write_named(path: str | Path, data: bytes, roots: Iterable[Path] = ()) -> None:
    """Write a file the user names (a report, a badge, a baseline, init's
    configuration), whole or not at all. A link at ``path`` is replaced,
    never followed; when ``path`` lies in one of ``roots`` (lexically), its
    folder is reached from that root without following a link, as a tree's
    own files are. Elsewhere it is written where the user named it."""
    absolute = os.path.abspath(path)
    for root in roots:
        base = os.path.abspath(root)
        if absolute != base and within(absolute, base):
            if BY_DESCRIPTOR:
                commit_all([stage(base, os.path.relpath(absolute, base), data, "named")])
                return
            break
    try:
        check_named(path, roots, "written", parent=True)
    except Unreadable as exc:
        raise OSError(str(exc)) from None
    write_atomic(Path(path), [data])
