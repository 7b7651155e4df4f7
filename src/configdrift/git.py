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
"""

from __future__ import annotations

import contextlib
import os
import subprocess
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

#: Variables of the user's environment that would undo the above.
_UNSET = ("GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS")


class GitError(Exception):
    """git is missing, failed, or took too long (the message says which)."""


def environment() -> dict[str, str]:
    """The environment of every git call."""
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
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


def _drivers(root: Path) -> list[tuple[str, str]]:
    """Overrides for every per-driver command the configuration defines."""
    try:
        proc = subprocess.run(
            ["git", "--no-pager", *_overrides(list(FIXED)), "-C", str(root), "config", "-z", "-l"],
            capture_output=True,
            timeout=30,
            check=False,
            env=environment(),
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
    environment."""
    pairs = list(FIXED)
    if args and args[0] in _SHOWING:
        pairs += _drivers(root)
    extra: list[str] = []
    if args and args[0] in ("log", "diff", "show", "blame"):
        extra = ["--no-textconv", "--no-ext-diff"] if args[0] != "blame" else ["--no-textconv"]
    if args and args[0] == "status":
        extra = ["--ignore-submodules=all"]
    argv = ["git", "--no-pager", *_overrides(pairs), "-C", str(root), args[0], *extra, *args[1:]]
    return argv, {**environment(), **_environment_overrides(pairs)}


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
        proc = subprocess.run(
            argv, input=input_bytes, capture_output=True, timeout=timeout, check=False, env=env
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
