"""Running git on the checked tree, with the tree's executables switched off.

A tree can arrive with its ``.git`` (a tarball, a shared workspace, a
cached checkout), and git runs commands that its configuration names: the
file-system monitor (``core.fsmonitor``), hooks, clean and smudge filters,
text conversions and external diff drivers, signature verification, pagers,
and every transport's helpers. Each git call here runs with:

- every such setting overridden on the command line (``-c``), which git
  reads after every configuration file: the fixed ones below, and the
  per-driver ones (``filter.<name>.clean``, ``diff.<name>.textconv``...)
  for every driver the repository's configuration defines (listed by
  ``git config``, which reads files and runs nothing);
- ``--no-textconv`` and ``--no-ext-diff`` on the commands that show
  contents, and submodules ignored by ``status``;
- no system configuration, no pager, no prompt, no optional index writes,
  no replace objects, and no transport at all (``protocol.allow=never``),
  so a partial clone cannot start a fetch.

git reads only the repository of the tree (``repository``): the nearest
``.git`` from the checked folder up must be a real folder, and what would
send git elsewhere (``commondir``, ``objects/info/alternates``,
``core.worktree``, ``include.path``) must stay inside its work tree. git is
then told where the repository is (``GIT_DIR``, ``GIT_WORK_TREE``) instead
of finding it, and every ``GIT_*`` variable of the user's environment is
dropped. The files git opens by name must be regular files (a FIFO would
stall it). Anything else is "no git", with a note, never another
repository. All git calls of a run share a time budget (``BUDGET``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

#: Settings whose value git runs, or that make it run something.
FIXED = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.askPass", ""),
    ("core.editor", ":"),
    ("core.alternateRefsCommand", ""),
    # Transports are off (protocol.allow below); their commands too.
    ("core.sshCommand", ""),
    ("core.gitProxy", ""),
    ("core.untrackedCache", "false"),
    ("credential.helper", ""),
    ("diff.external", ""),
    ("log.showSignature", "false"),
    ("gpg.program", ""),
    ("gpg.openpgp.program", ""),
    ("gpg.x509.program", ""),
    ("gpg.ssh.program", ""),
    ("protocol.allow", "never"),
    ("submodule.recurse", "false"),
)

#: Per-driver settings (``section.<name>.variable``) that name a command,
#: with the value that switches each off.
PER_DRIVER = {
    ("filter", "clean"): "",
    ("filter", "smudge"): "",
    ("filter", "process"): "",
    ("filter", "required"): "false",
    ("diff", "textconv"): "",
    ("diff", "command"): "",
    ("merge", "driver"): "",
}

#: Commands that may run a filter or a text conversion (they compare the
#: work tree's contents or show a file's): they get the per-driver overrides.
_SHOWING = frozenset({"status", "blame", "log", "diff", "show"})

#: The seconds all git calls of one run may take together: a repository
#: that stalls git (a FIFO git opens, a huge history) costs at most this.
BUDGET = 120.0


class GitError(Exception):
    """git is missing, failed, or took too long (the message says which)."""


class _Run:
    """What one run knows of git: when its budget ends, the repositories
    checked (root -> (work tree, git folder) or the reason none is used),
    and the notes already said."""

    def __init__(self) -> None:
        self.deadline = time.monotonic() + BUDGET
        self.repositories: dict[str, tuple[str, str] | str] = {}
        self.said: set[str] = set()
        #: Work trees found to hold a file git would stall on: no git there.
        self.stalling: dict[str, str] = {}


_RUN = _Run()


def new_run() -> None:
    """Start a run: a whole budget, and the repositories checked again."""
    global _RUN
    _RUN = _Run()


def _note(text: str) -> None:
    """Say ``text`` on standard error, once a run."""
    if text not in _RUN.said:
        _RUN.said.add(text)
        from configdrift.escape import printable

        print(printable(text), file=sys.stderr)


def _remaining(timeout: float, what: str) -> float:
    """The seconds a git call may take: its own ``timeout`` within what is
    left of the run's budget; ``GitError`` once that is spent."""
    left = _RUN.deadline - time.monotonic()
    if left <= 0:
        _note(
            f"configdrift: git took the {BUDGET:g} s this run allows it: "
            "the rest of the run goes without git"
        )
        raise GitError(f"git {what}: the run's budget for git is spent")
    return min(timeout, left)


def environment() -> dict[str, str]:
    """The environment of every git call: none of the user's ``GIT_*``
    variables (``GIT_DIR`` and the like would point git elsewhere)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_PAGER="cat",
        PAGER="cat",
        GIT_PROTOCOL_FROM_USER="0",
        GIT_ALLOW_PROTOCOL="",
        LC_ALL="C",
    )
    return env


#: Files of a git folder that git opens by name: each, when present, must
#: be a regular file (a FIFO would stall git, a link send it elsewhere).
_GIT_FILES = (
    "config",
    "HEAD",
    "index",
    "packed-refs",
    "shallow",
    "commondir",
    "FETCH_HEAD",
    "ORIG_HEAD",
    "MERGE_HEAD",
    "info/exclude",
    "info/attributes",
    "info/grafts",
    "info/sparse-checkout",
    "objects/info/alternates",
    "objects/info/packs",
    "objects/info/commit-graph",
)
#: Folders of a git folder whose entries git opens by name (refs, reflogs),
#: checked entry by entry up to ``_MAX_ENTRIES`` in all.
_GIT_FOLDERS = ("refs", "logs")
_MAX_ENTRIES = 50_000
#: How deep configuration files may include each other (git's own limit).
_MAX_INCLUDES = 10


def repository(root: Path | str) -> tuple[str, str]:
    """The work tree and the git folder of the repository that holds
    ``root``, checked (see the module's docstring); ``GitError`` with the
    reason otherwise, said once as a note when a ``.git`` is refused."""
    key = os.path.realpath(root)
    known = _RUN.repositories.get(key)
    if known is None:
        known = _RUN.repositories[key] = _find(key)
    if isinstance(known, str):
        if known:
            _note(f"configdrift: {known}: git is not used (no history; files found by walking)")
        raise GitError(known or "not a git repository")
    if known[0] in _RUN.stalling:
        raise GitError(_RUN.stalling[known[0]])
    return known


def _find(real_root: str) -> tuple[str, str] | str:
    """``(work tree, git folder)``, a reason to refuse the ``.git`` found,
    or ``""`` when there is none."""
    from configdrift.files import work_tree

    top = work_tree(real_root)
    if top is None:
        return ""
    dotgit = os.path.join(top, ".git")
    try:
        mode = os.lstat(dotgit).st_mode
    except OSError:
        return ""
    if stat.S_ISLNK(mode):
        return f"{dotgit} is a symbolic link"
    if not stat.S_ISDIR(mode):
        return f"{dotgit} is no folder (it would send git to a repository elsewhere)"
    try:
        problem = _checked_folder(top, dotgit, common=True)
    except OSError as exc:
        problem = f"{dotgit} cannot be read ({exc.strerror or type(exc).__name__})"
    return (top, dotgit) if problem is None else problem


def _within(path: str, top: str) -> bool:
    from configdrift.files import within

    return within(os.path.realpath(path), top)


def _checked_folder(top: str, folder: str, common: bool) -> str | None:
    """Why git must not read the git folder ``folder`` of the work tree
    ``top``, or None. ``common``: its ``commondir`` may name one more
    folder (inside ``top``), checked the same way."""
    for name in _GIT_FILES:
        path = os.path.join(folder, name)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            if name == "HEAD" and common:
                return f"{path} is missing"
            continue
        if not stat.S_ISREG(mode):
            return f"{path} is not a regular file"
    if (problem := _checked_entries(folder)) is not None:
        return problem
    commondir = os.path.join(folder, "commondir")
    if os.path.lexists(commondir):
        target = os.path.join(folder, _small(commondir).strip())
        if not common or not _within(target, top):
            return f"{commondir} leads out of the work tree"
        elsewhere = os.path.realpath(target) != os.path.realpath(folder)
        if elsewhere and (problem := _checked_folder(top, target, common=False)) is not None:
            return problem
    alternates = os.path.join(folder, "objects", "info", "alternates")
    if os.path.lexists(alternates):
        for line in _small(alternates).splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith('"') or not _within(os.path.join(folder, "objects", line), top):
                return f"{alternates} leads out of the work tree"
    config = os.path.join(folder, "config")
    if os.path.lexists(config):
        return _checked_config(top, folder, config, 0)
    return None


def _checked_entries(folder: str) -> str | None:
    """Why an entry of ``refs/`` or ``logs/`` is no file git can read."""
    pending = [os.path.join(folder, name) for name in _GIT_FOLDERS]
    seen = 0
    while pending and seen < _MAX_ENTRIES:
        try:
            entries = list(os.scandir(pending.pop()))
        except FileNotFoundError:
            continue
        for entry in entries:
            seen += 1
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif not entry.is_file(follow_symlinks=False):
                return f"{entry.path} is not a regular file"
    return None


def _small(path: str) -> str:
    """A small file of a git folder (64 KiB read at most)."""
    from configdrift.files import Unreadable, read_path

    try:
        return read_path(path, 1 << 16).decode("utf-8", "surrogateescape")
    except Unreadable as exc:
        raise OSError(str(exc)) from None


def _checked_config(top: str, folder: str, config: str, depth: int) -> str | None:
    """Why the configuration file ``config`` (read as git reads it, its
    includes apart) sends git out of the work tree, or None."""
    if depth > _MAX_INCLUDES:
        return f"{config} includes files too deeply"
    try:
        proc = subprocess.run(
            ["git", "--no-pager", "config", "--file", config, "--no-includes", "-z", "-l"],
            capture_output=True,
            timeout=_remaining(30, "config"),
            check=False,
            env=environment(),
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None  # git cannot run: every call fails the same way
    if proc.returncode != 0:
        return f"{config} is not a configuration git can read"
    for record in proc.stdout.split(b"\0"):
        key, _, value_bytes = record.partition(b"\n")
        name = key.decode("utf-8", "surrogateescape").lower()
        value = value_bytes.decode("utf-8", "surrogateescape")
        if name == "core.worktree" and not _within(os.path.join(folder, value), top):
            return f"{config}: core.worktree leads out of the work tree"
        if name.startswith("include") and name.endswith(".path") and value:
            target = os.path.expanduser(value)
            target = os.path.join(os.path.dirname(config), target)
            try:
                regular = stat.S_ISREG(os.lstat(target).st_mode)
            except FileNotFoundError:
                continue  # git skips an include that is not there
            if not regular or not _within(target, top):
                return f"{config}: an include leads out of the work tree or to no regular file"
            if (problem := _checked_config(top, folder, target, depth + 1)) is not None:
                return problem
    return None


def untracked_listing_safe(root: Path | str, tracked: list[str]) -> bool:
    """May ``git ls-files --others --exclude-standard`` run on ``root``,
    whose ``tracked`` files (``ls-files --cached``) are known? It reads the
    ``.gitignore`` of each folder it visits, and a FIFO there would stall
    it: every folder that holds a tracked file, and each one from ``root``
    up to the work tree, must have none but a regular file or a link (which
    git does not follow) by that name. False, with a note, otherwise."""
    top, _ = repository(root)
    places = {os.path.join(str(root), folder) for folder in {os.path.dirname(n) for n in tracked}}
    here = os.path.realpath(root)
    while True:
        places.add(here)
        if here == top or os.path.dirname(here) == here:
            break
        here = os.path.dirname(here)
    for place in sorted(places):
        path = os.path.join(place, ".gitignore")
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            reason = f"{path} is not a regular file"
            _note(f"configdrift: {reason}: git is not used (no history; files found by walking)")
            _RUN.stalling[top] = reason
            return False
    return True


def _overrides(pairs: list[tuple[str, str]]) -> list[str]:
    return [arg for key, value in pairs if "=" not in key for arg in ("-c", f"{key}={value}")]


def _environment_overrides(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The overrides whose key holds ``=`` (a driver named ``a=b``), which
    ``-c`` cannot say: as ``GIT_CONFIG_KEY_n`` variables (git 2.31 and later),
    which git reads with the command line's settings."""
    odd = [(key, value) for key, value in pairs if "=" in key]
    if not odd:
        return {}
    env = {"GIT_CONFIG_COUNT": str(len(odd))}
    for index, (key, value) in enumerate(odd):
        env[f"GIT_CONFIG_KEY_{index}"], env[f"GIT_CONFIG_VALUE_{index}"] = key, value
    return env


def _drivers(root: Path, located: dict[str, str]) -> list[tuple[str, str]]:
    """Overrides for every per-driver command the configuration defines."""
    try:
        proc = subprocess.run(
            ["git", "--no-pager", *_overrides(list(FIXED)), "-C", str(root), "config", "-z", "-l"],
            capture_output=True,
            timeout=_remaining(30, "config"),
            check=False,
            env={**environment(), **located},
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    names: set[tuple[str, str]] = set()
    for record in proc.stdout.split(b"\0"):
        key = record.split(b"\n", 1)[0].decode("utf-8", "surrogateescape")
        section, dot, rest = key.partition(".")
        name, dot2, variable = rest.rpartition(".")
        if dot and dot2 and (section.lower(), variable.lower()) in PER_DRIVER:
            names.add((section, name))
    return [
        (f"{section}.{name}.{variable}", value)
        for section, name in sorted(names)
        for (kind, variable), value in PER_DRIVER.items()
        if kind == section.lower()
    ]


def command(root: Path, args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """The argument vector of ``git args`` on ``root``, neutralised, and its
    environment; ``GitError`` when ``root`` has no repository git may read."""
    top, folder = repository(root)
    located = {"GIT_DIR": folder, "GIT_WORK_TREE": top}
    pairs = list(FIXED)
    if args and args[0] in _SHOWING:
        pairs += _drivers(root, located)
    extra: list[str] = []
    if args and args[0] in ("log", "diff", "show", "blame"):
        extra = ["--no-textconv", "--no-ext-diff"] if args[0] != "blame" else ["--no-textconv"]
    if args and args[0] == "status":
        extra = ["--ignore-submodules=all"]
    argv = ["git", "--no-pager", *_overrides(pairs), "-C", str(root), args[0], *extra, *args[1:]]
    return argv, {**environment(), **located, **_environment_overrides(pairs)}


def run(
    root: Path | str,
    *args: str,
    input_bytes: bytes | None = None,
    timeout: float = 300,
    said: list[str] | None = None,
) -> bytes:
    """The output of ``git args`` on ``root``; ``GitError`` when it fails.
    What git printed on its standard error goes into ``said``, when given."""
    try:
        argv, env = command(Path(root), args)
        timeout = _remaining(timeout, args[0])
        proc = subprocess.run(
            argv,
            input=input_bytes,
            stdin=None if input_bytes is not None else subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
            env=env,
        )
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    except OSError as exc:
        raise GitError(f"git cannot be run: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took longer than {timeout:g} s") from None
    lines = proc.stderr.decode("utf-8", "surrogateescape").strip().splitlines()
    if proc.returncode != 0:
        raise GitError(lines[-1] if lines else f"git {args[0]} failed")
    if said is not None:
        said.extend(lines)
    return proc.stdout


@contextlib.contextmanager
def lines(
    root: Path | str, *args: str, timeout: float = 300, max_line: int = 1 << 16
) -> Iterator[Iterator[bytes]]:
    """The output of ``git args`` line by line, as it comes: memory is one
    line (at most ``max_line`` bytes; a longer line is cut there and the
    rest of it skipped), whatever the output's size. ``GitError`` when git
    cannot start, fails or runs past ``timeout`` (it is killed then); a
    reader that stops early stops git."""
    import tempfile
    import threading

    with tempfile.TemporaryFile() as errors:
        argv, env = command(Path(root), args)
        timeout = _remaining(timeout, args[0])
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, env=env
            )
        except OSError as exc:
            raise GitError(f"git cannot be run: {exc.strerror or exc}") from None
        assert proc.stdout is not None
        stream = proc.stdout
        watchdog = threading.Timer(timeout, proc.kill)
        watchdog.start()
        finished = False

        def each() -> Iterator[bytes]:
            nonlocal finished
            cut = False
            while line := stream.readline(max_line):
                whole = line.endswith(b"\n")
                if not cut:
                    yield line if whole else line + b"\n"
                cut = not whole
            finished = True

        try:
            yield each()
        finally:
            watchdog.cancel()
            if proc.poll() is None:
                proc.kill()
            stream.close()
            status = proc.wait()
        if not finished:
            return  # the reader stopped early: git was stopped, not failed
        if status != 0:
            errors.seek(0)
            said = errors.read(1 << 16).decode("utf-8", "replace").strip().splitlines()
            if status < 0:
                said = [f"git {args[0]} took longer than {timeout:g} s"]
            raise GitError(said[-1] if said else f"git {args[0]} failed")
