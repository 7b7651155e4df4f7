"""Processes configdrift starts, isolated from the checked tree.

The checked tree is a stranger's: a ``json.py``, ``multiprocessing/``,
``sitecustomize.py`` or ``configdrift/`` at its root must never be imported,
wherever configdrift runs from. A Python child started the usual way puts
its working directory (``-c``, ``-m``) or its script's folder first on
``sys.path`` and honours ``PYTHONPATH`` and ``PYTHONSTARTUP``; so every
Python child here is started in isolated mode (``-I``: no working
directory or script folder on the path, no ``PYTHON*`` variables, no user
site-packages), from configdrift's own folder, with those variables also
removed from its environment. configdrift's own folder is appended to the
child's path (after the standard library), so the child finds configdrift
however it was installed.

The process pool forks where the platform allows it (no interpreter
starts, nothing is imported by name); where it must spawn, each worker
starts with ``PYTHONSAFEPATH`` set, so the working directory is not on its
path either.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: configdrift's own folder (the package's parent): the child's working
#: directory, and the one entry appended to its path.
_HOME = str(Path(__file__).resolve().parent.parent)

#: Variables that change what a Python process imports or runs at start-up.
_PYTHON_VARIABLES = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONUSERBASE",
    "PYTHONPLATLIBDIR",
    "PYTHONEXECUTABLE",
    "PYTHONINSPECT",
)


def child_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a child process: the user's, without the
    variables that would make a Python child import from elsewhere."""
    env = {k: v for k, v in os.environ.items() if k not in _PYTHON_VARIABLES}
    env.update(extra or {})
    return env


def python_command(module: str) -> list[str]:
    """The command that runs ``module`` as ``__main__`` in an isolated
    interpreter that can import configdrift and nothing of the tree."""
    bootstrap = (
        "import sys, runpy; "
        f"sys.path.append({_HOME!r}); "
        f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-I", "-c", bootstrap]


def run_python(module: str, data: bytes, timeout: float) -> subprocess.CompletedProcess[bytes]:
    """Run ``module`` in an isolated child with ``data`` on its standard
    input; raises ``OSError`` or ``subprocess.SubprocessError``."""
    return subprocess.run(
        python_command(module),
        input=data,
        capture_output=True,
        timeout=timeout,
        check=False,
        cwd=_HOME,
        env=child_environment(),
    )


def _context() -> multiprocessing.context.BaseContext:
    """Fork where it is the platform's way (Linux): the worker is a copy of
    this process and imports nothing by name. Elsewhere, spawn."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class Pool(ProcessPoolExecutor):
    """A process pool whose workers never import from the working directory."""

    def __init__(self, workers: int) -> None:
        context = _context()
        self._spawns = context.get_start_method() != "fork"
        # Spawning, the pool starts interpreters (its workers, and the
        # resource tracker of its locks) with ``-c``, which would put the
        # working directory first on their path before they import
        # multiprocessing: they are started while PYTHONSAFEPATH is set.
        with self._safely():
            super().__init__(max_workers=workers, mp_context=context)

    def _safely(self) -> contextlib.AbstractContextManager[None]:
        return _safe_path() if self._spawns else contextlib.nullcontext()

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        with self._safely():  # workers are spawned from within submit
            return super().submit(fn, *args, **kwargs)


@contextlib.contextmanager
def _safe_path() -> Iterator[None]:
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before
