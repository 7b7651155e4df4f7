"""The one choke point for every file configdrift reads or writes.

The checked tree is untrusted input. Only regular files inside it are read:
a FIFO, a device or a socket is never opened for reading in a way that
could block, a symbolic link is followed only when its target resolves
inside the tree (its content, and where it points, are never read or
printed otherwise), and no read returns more than a fixed number of bytes,
whatever ``st_size`` says (a device reports 0).

A file the user names (``--config``, ``--baseline``) is taken as named,
unless it lies in a checked tree: then the same rules hold for it as for
the tree's own files. Writes into a tree are ``writes.py``'s; this module
writes only outside every tree (the cache, a report named outside).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

#: The most bytes read from one file of the tree.
MAX_FILE_BYTES = 8 * 1024 * 1024

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


#: How the reason of a file the system refuses to read begins.
CANNOT_READ = "cannot read:"


class Unreadable(Exception):
    """A file of the tree that is not read, and why (safe to print: it
    never names what lies outside the tree)."""


@functools.lru_cache(maxsize=64)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def within(path: str, folder: str) -> bool:
    """Is ``path`` the ``folder`` or inside it, by whole components
    (``/a/repo-secret`` is not inside ``/a/repo``)? Both as they are given:
    resolve them first where links matter. The one test of containment
    every guard of the tree uses."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def inside(root: str | Path, rel: str) -> bool:
    """Does ``rel`` resolve, symbolic links followed, inside ``root``?
    (Directories are resolved once each: the files of a folder share its
    answer unless they are links themselves.)"""
    base = _real_root(str(root))
    path = os.path.join(root, rel)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        link = True  # gone or unreachable: resolve it to say where it points
    real = os.path.realpath(path) if link else os.path.join(_real_dir(os.path.dirname(path)), "")
    return within(real, base)


@functools.lru_cache(maxsize=4096)
def _real_dir(path: str) -> str:
    return os.path.realpath(path)


def exists(path: str | Path) -> bool:
    """Is there anything at ``path`` (a link's target followed)? False, not
    an error, when a folder on the way cannot be searched."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def is_file(path: str | Path) -> bool:
    """Is ``path`` a regular file (a link's target followed)? False when it
    cannot be looked at."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_dir(path: str | Path) -> bool:
    """Is ``path`` a folder (a link's target followed)? False when it cannot
    be looked at."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def unreachable(path: str | Path) -> str | None:
    """Why nothing can be looked at at ``path`` (it is missing, or a folder
    on the way cannot be searched), or None when something is there."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return "no such file or directory"
    except (OSError, ValueError) as exc:
        return f"cannot be read: {getattr(exc, 'strerror', None) or type(exc).__name__}"
    return None


def unreadable_dir(path: str | Path) -> str | None:
    """Why the folder ``path`` cannot be checked (it is missing, is no
    folder, or cannot be listed), or None when it can."""
    problem = unreachable(path)
    if problem is not None:
        return problem
    if not is_dir(path):
        return "not a directory"
    try:
        with os.scandir(path):
            pass
    except OSError as exc:
        return f"cannot be read: {exc.strerror or type(exc).__name__}"
    return None


def read_file(root: str | Path, rel: str, limit: int | None = None) -> bytes:
    """The bytes of ``root/rel``, a regular file inside the tree of at most
    ``limit`` bytes. Raises ``FileNotFoundError`` when it is gone, and
    ``Unreadable`` with the reason for anything else."""
    if not inside(root, rel):
        if not os.path.lexists(os.path.join(root, rel)):
            raise FileNotFoundError(rel)
        raise Unreadable("a symbolic link to a file outside the checked tree: not read")
    global _LAST
    _LAST = rel
    return _read(os.path.join(root, rel), MAX_FILE_BYTES if limit is None else limit)


_LAST = ""


def last_read() -> str:
    """The tree's file read last in this process (for a bug report: a
    path inside the tree, printable as such)."""
    return _LAST.encode("utf-8", "backslashreplace").decode("utf-8")


def read_or_none(root: str | Path, rel: str, limit: int | None = None) -> bytes | None:
    """``read_file``, or None for a file that is gone or not read."""
    try:
        return read_file(root, rel, limit)
    except (FileNotFoundError, Unreadable):
        return None


def read_path(path: str | Path, limit: int | None = None, roots: Iterable[Path] = ()) -> bytes:
    """A file the user names (a configuration file, a baseline): regular
    and bounded like the tree's; when it lies in one of ``roots`` (lexically),
    it must resolve inside that root, as the tree's own files do."""
    check_named(path, roots, "read")
    return _read(str(path), MAX_FILE_BYTES if limit is None else limit)


def check_named(path: str | Path, roots: Iterable[Path], what: str, parent: bool = False) -> None:
    """``Unreadable`` when ``path`` lies in one of ``roots`` but a symbolic
    link takes it (or, with ``parent``, its folder) out of that root."""
    absolute = os.path.abspath(path)
    for root in roots:
        base = os.path.abspath(root)
        if not within(absolute, base):
            continue
        rel = os.path.relpath(absolute, base)
        if not inside(base, (os.path.dirname(rel) or ".") if parent else rel):
            raise Unreadable(f"a symbolic link out of the checked tree: not {what}")


def _read(path: str, limit: int) -> bytes:
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise Unreadable(f"{CANNOT_READ} {exc.strerror or type(exc).__name__}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("not a regular file: not read")
        if info.st_size > limit:
            raise Unreadable(f"larger than {_size(limit)}: not read")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Unreadable(f"larger than {_size(limit)}: not read")
        return b"".join(chunks)
    except OSError as exc:
        raise Unreadable(f"{CANNOT_READ} {exc.strerror or type(exc).__name__}") from None
    finally:
        os.close(fd)


def temporary_name(name: str) -> str:
    """The name of a new file written beside ``name`` before it takes its
    place (hidden, unique to this process, short whatever ``name`` is)."""
    return f".{name[:64]}.{os.getpid()}.{secrets.token_hex(4)}.tmp"


def write_atomic(target: Path, parts: Iterable[bytes], mode: int = 0o666) -> None:
    """Write ``parts`` to ``target`` whole or not at all: into a new file
    beside it (created, never one that already exists), renamed into place
    (so a symbolic link at ``target`` is replaced, never followed).
    Raises ``OSError``, after removing what it wrote. ``mode`` is the new
    file's permissions before the umask (``0o600`` for the cache)."""
    temporary = target.with_name(temporary_name(target.name))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _WRITE_FLAGS, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


_WRITE_FLAGS = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


@functools.lru_cache(maxsize=4)
def code_digest(folder: Path) -> str:
    """A digest of configdrift's own source files under ``folder``: what
    it stored with another version of the code is never used. Each file
    by its size and modification time (an install or a checkout sets them
    anew, an edit changes them), unless it was modified in the last two
    seconds, when its bytes are read: a warm run need not read its own
    code."""
    import time

    recent = time.time_ns() - 2_000_000_000
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        info = path.stat()
        if info.st_mtime_ns < recent:
            digest.update(f"{info.st_size}:{info.st_mtime_ns}\0".encode())
        else:
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    """configdrift's own cache directory (facts, reports, history): the
    user's cache directory of the platform, as platformdirs names it
    (``$XDG_CACHE_HOME/configdrift`` or ``~/.cache/configdrift`` on Linux,
    ``~/Library/Caches/configdrift`` on macOS, the local application data
    folder on Windows)."""
    if sys.platform.startswith("linux"):
        # platformdirs' rule on Linux, without its import, which alone
        # costs a warm run (a replayed report) about a twentieth of its time.
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")
        return Path(base) / "configdrift"
    import platformdirs

    return Path(platformdirs.user_cache_dir("configdrift", appauthor=False))


def work_tree(root: str) -> str | None:
    """The git work tree that holds ``root``: the nearest folder from
    ``root`` up that has a ``.git`` (a folder, a file or a link)."""
    folder = os.path.realpath(root)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _controlled(root: str | Path) -> list[tuple[str, str]]:
    """The folders a pull request may write when ``root`` is checked, each
    with how a note names it: the tree, the git work tree that holds it,
    the folder the run started in, and a CI job's workspace."""
    places = [(str(root), "the checked tree")]
    if (work := work_tree(str(root))) is not None:
        places.append((work, "the git work tree of the checked tree"))
    with contextlib.suppress(OSError):
        places.append((os.getcwd(), "the folder configdrift runs in"))
    if workspace := os.environ.get("GITHUB_WORKSPACE", "").strip():
        places.append((workspace, "GITHUB_WORKSPACE"))
    return places


def _cache_inside(root: str | Path) -> str | None:
    """How a note names the folder a pull request controls that holds the
    cache directory when checking ``root``, or None when none does."""
    real = os.path.realpath(cache_dir())
    for folder, name in _controlled(root):
        if within(real, os.path.realpath(folder)):
            return name
    return None


def cache_for(root: str | Path) -> Path | None:
    """The cache directory for checking ``root``, or None when it lies
    inside a folder a pull request controls (``_controlled``): there its
    facts could have been planted to hide a finding."""
    return cache_dir() if _cache_inside(root) is None else None


def cache_note(root: str | Path) -> str | None:
    """What to say when the cache is not used for ``root`` (``cache_for``)."""
    where = _cache_inside(root)
    if where is None:
        return None
    return (
        f"configdrift: the cache directory {cache_dir()} lies inside {where}: "
        "not used (set XDG_CACHE_HOME to a directory outside it)"
    )


def write_cache(path: Path, parts: Iterable[bytes]) -> bool:
    """Write a cache file (its folder made, readable by the user alone),
    whole or not at all; False when it cannot be written (a cache that
    cannot be written is only slower)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, parts, mode=0o600)
    except OSError:
        return False
    return True


def read_cache(path: Path, limit: int) -> bytes | None:
    """A cache file's bytes (a regular file, at most ``limit`` bytes), or
    None when it is missing, too large or not a file."""
    try:
        return _read(str(path), limit)
    except (OSError, Unreadable):
        return None


def inflate(data: bytes, limit: int) -> bytes | None:
    """``data`` decompressed (zlib), or None when it is corrupt or would
    grow past ``limit`` bytes (a compressed bomb stops there)."""
    import zlib

    try:
        inflater = zlib.decompressobj()
        out = inflater.decompress(data, limit)
    except zlib.error:
        return None
    if inflater.unconsumed_tail or not inflater.eof:
        return None
    return out


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
