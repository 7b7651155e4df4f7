"""A booby-trapped project: every way we know for a checked tree to get its
own code run, each leaving a marker file when it fires.

``build(root, markers)`` writes a small, real project (a strict pydantic
model, a page that documents it with drift, a second commit) and around it:

- modules that shadow the standard library, configdrift's dependencies and
  configdrift itself, at the root and in every folder, plus
  ``sitecustomize``, ``usercustomize``, a ``.pth`` file, ``conftest.py``,
  ``setup.py``, ``__main__.py`` and ``__init__.py`` files with side effects;
- a file in 3.12 syntax (the re-parse runs in a child process) and enough
  files for the process pool;
- YAML with ``!!python/object/apply`` tags, reStructuredText that includes
  files outside the tree;
- a ``.git`` whose configuration names a command for every setting git
  runs one for (the file-system monitor, hooks path, pager, editor,
  filters, text conversions, external diffs, merge drivers, signature
  programs, credential helpers, transports through a promisor remote of a
  partial clone missing a blob), every hook, attributes that select the
  drivers for every file, and a signed commit.

Each trap writes ``markers/<label>``; ``fired(markers)`` lists them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: Modules configdrift, its dependencies and Python's start-up could import
#: by name, shadowed in every folder (the whole standard library is
#: shadowed at the root).
THIRD_PARTY = (
    "configdrift",
    "yaml",
    "_yaml",
    "markdown_it",
    "mdit_py_plugins",
    "docutils",
    "libcst",
    "platformdirs",
    "tomlkit",
    "typing_extensions",
)
IN_EVERY_FOLDER = (
    *THIRD_PARTY,
    "json",
    "ast",
    "re",
    "typing",
    "subprocess",
    "multiprocessing",
    "concurrent",
    "runpy",
    "tomllib",
    "hashlib",
    "zlib",
    "tempfile",
    "threading",
    "dataclasses",
    "sitecustomize",
    "usercustomize",
)

HOOKS = (
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "post-index-change",
)

FOLDERS = ("", "pkg", "pkg/sub", "docs", "tests", "scripts")


def _python_trap(markers: Path, label: str) -> str:
    target = str(markers / label)
    return f"open({target!r}, 'a').close()\n"


def _shell_trap(markers: Path, label: str) -> str:
    return f"touch '{markers / label}'; "


def _git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """git as the test's author runs it (never with the traps armed: the
    repository's configuration is written after the last commit)."""
    base = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    proc = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        check=True,
        env={**base, **(env or {})},
    )
    return proc.stdout.decode()


MODEL = (
    "from pydantic import BaseModel, ConfigDict\n\n\n"
    "class Config(BaseModel):\n"
    '    model_config = ConfigDict(extra="forbid")\n'
    "    alpha: int = 1\n"
    '    beta: str = "b"\n'
)

PAGE_ONE = "# Config\n\n## `alpha`\n\nDefault: `1`\n\n## `beta`\n\nThe b.\n"
PAGE_TWO = (
    "# Config\n\n## `alpha`\n\nDefault: `2`\n\n## `beta`\n\nThe b.\n\n"
    "## `gamma`\n\nNot accepted.\n\n```yaml\nalpha: !!python/object/apply:os.system "
    '["touch MARKERS/yaml-block"]\n```\n'
)


def build(root: Path, markers: Path) -> Path:
    """Write the booby-trapped project at ``root``; traps write into ``markers``."""
    markers.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {
        "pyproject.toml": (
            '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n\n'
            '[project]\nname = "hostile"\n\n[tool.configdrift]\ndocs = ["docs/config.md"]\n\n'
            '[tool.configdrift.mount]\n"" = "pkg.config:Config"\n'
        ),
        "pkg/config.py": MODEL,
        "pkg/modern.py": "type Alias[T] = list[T]\n\n\nclass Box[T]:\n    value: int = 1\n",
        "docs/config.md": PAGE_ONE,
        "docs/notes.md": "# Notes\n\nFirst version.\n",
        "docs/ref.rst": (
            "Reference\n=========\n\n.. include:: /etc/hostname\n\n"
            ".. raw:: html\n   :file: ../../outside.html\n\n"
            ".. csv-table::\n   :file: /etc/passwd\n\n``alpha``\n   The a.\n"
        ),
        "config.yaml": f'alpha: !!python/object/apply:os.system ["touch {markers}/yaml"]\n',
        "hostile.pth": f"import os; {_python_trap(markers, 'pth').strip()}\n",
        "setup.py": _python_trap(markers, "setup.py"),
        "conftest.py": _python_trap(markers, "conftest.py"),
        "noxfile.py": _python_trap(markers, "noxfile.py"),
        "__main__.py": _python_trap(markers, "root-main"),
        "backend.py": _python_trap(markers, "build-backend"),
    }
    for index in range(220):  # enough files for the process pool
        files[f"pkg/gen/m{index}.py"] = f'VALUE_{index} = {{"alpha": {index}}}\n'
    for folder in FOLDERS:
        prefix = f"{folder}/" if folder else ""
        files[f"{prefix}__init__.py"] = _python_trap(markers, f"init-{folder or 'root'}")
        for name in IN_EVERY_FOLDER:
            files[f"{prefix}{name}.py"] = _python_trap(markers, f"{name}-{folder or 'root'}")
    for name in sorted(sys.stdlib_module_names):
        files.setdefault(f"{name}.py", _python_trap(markers, f"stdlib-{name}"))
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    _history(root, markers)
    return root


def _history(root: Path, markers: Path) -> None:
    """Two commits (the page drifts in the second), a signed third one, then
    the traps: configuration, hooks, attributes, a missing blob."""
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    old_page = _git(root, "rev-parse", "HEAD:docs/notes.md").strip()
    (root / "docs" / "notes.md").write_text("# Notes\n\nSecond version.\n", encoding="utf-8")
    page = PAGE_TWO.replace("MARKERS", str(markers))
    (root / "docs" / "config.md").write_text(page, encoding="utf-8")
    (root / "pkg" / "config.py").write_text(MODEL + "    delta: int = 4\n", encoding="utf-8")
    _git(root, "commit", "-q", "-am", "second")
    _signed_commit(root)
    # A partial clone missing the first version of a page: reading it
    # would fetch from the promisor remote, whose URL runs a command.
    obj = root / ".git" / "objects" / old_page[:2] / old_page[2:]
    obj.unlink()
    (root / ".git" / "info").mkdir(exist_ok=True)
    # Every file through the drivers; Python files through one whose name
    # holds "=", which git's -c cannot name.
    attributes = "* filter=trap diff=trap merge=trap\n*.py filter=t=x diff=t=x\n"
    (root / ".git" / "info" / "attributes").write_text(attributes, encoding="utf-8")
    (root / ".gitattributes").write_text(attributes, encoding="utf-8")
    hooks = root / ".git" / "hooks"
    own_hooks = root / "hooks"
    own_hooks.mkdir()
    for folder in (hooks, own_hooks):
        for hook in HOOKS:
            path = folder / hook
            path.write_text(
                f"#!/bin/sh\n{_shell_trap(markers, f'hook-{hook}')}\n", encoding="utf-8"
            )
            path.chmod(0o755)

    def trap(label: str, passes: bool = True) -> str:
        """An executable that leaves ``label`` and passes its input on (as
        a filter, a text conversion or a pager must), or fails."""
        path = own_hooks / f"trap-{label}"
        then = 'exec cat "$@"' if passes else "exit 1"
        path.write_text(f"#!/bin/sh\n{_shell_trap(markers, label)}\n{then}\n", encoding="utf-8")
        path.chmod(0o755)
        return str(path)

    settings = {
        "core.fsmonitor": trap("fsmonitor", passes=False),
        "core.hooksPath": str(own_hooks),
        "core.pager": trap("pager"),
        "core.editor": trap("editor", passes=False),
        "core.askPass": trap("askpass", passes=False),
        "core.sshCommand": trap("ssh", passes=False),
        "core.gitProxy": trap("gitproxy", passes=False),
        "core.alternateRefsCommand": trap("alternate-refs", passes=False),
        "diff.external": trap("diff-external", passes=False),
        "diff.trap.textconv": trap("textconv"),
        "diff.trap.command": trap("diff-command", passes=False),
        "filter.trap.clean": trap("clean"),
        "filter.trap.smudge": trap("smudge"),
        "filter.trap.process": trap("filter-process", passes=False),
        "filter.trap.required": "true",
        "merge.trap.driver": trap("merge-driver", passes=False),
        "filter.t=x.clean": trap("clean-named-with-equals"),
        "diff.t=x.textconv": trap("textconv-named-with-equals"),
        "gpg.program": trap("gpg", passes=False),
        "gpg.ssh.program": trap("gpg-ssh", passes=False),
        "gpg.x509.program": trap("gpg-x509", passes=False),
        "log.showSignature": "true",
        "credential.helper": "!" + trap("credential"),
        "sequence.editor": trap("sequence-editor", passes=False),
        "pager.log": trap("pager-log"),
        "pager.blame": trap("pager-blame"),
        "pager.status": trap("pager-status"),
        "uploadpack.packObjectsHook": trap("pack-objects-hook", passes=False),
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::{trap('ext-transport', passes=False)}",
        "remote.origin.promisor": "true",
        "remote.origin.uploadpack": trap("uploadpack", passes=False),
        "protocol.ext.allow": "always",
        "protocol.allow": "always",
        "include.path": str(root / "included.gitconfig"),
    }
    (root / "included.gitconfig").write_text(
        f'[diff "inc"]\n\ttextconv = {trap("included-textconv")}\n', encoding="utf-8"
    )
    for key, value in settings.items():
        _git(root, "config", key, value)
    # Stat-dirty files, so that status and blame compare contents (and
    # would run the clean filter).
    for rel in ("docs/config.md", "pkg/config.py"):
        os.utime(root / rel, None)


def _signed_commit(root: Path) -> None:
    """A commit carrying a (meaningless) signature: showing it with
    signatures on would run the signature program."""
    raw = _git(root, "cat-file", "commit", "HEAD")
    head, _, message = raw.partition("\n\n")
    signature = (
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    )
    body = f"{head}\n{signature}\n\nsigned\n"
    del message
    proc = subprocess.run(
        ["git", "-C", str(root), "hash-object", "-t", "commit", "-w", "--stdin"],
        input=body.encode(),
        capture_output=True,
        check=True,
    )
    _git(root, "update-ref", "HEAD", proc.stdout.decode().strip())


def fired(markers: Path) -> list[str]:
    """The traps that fired (marker files written)."""
    return sorted(p.name for p in markers.iterdir()) if markers.exists() else []
