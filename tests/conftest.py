from __future__ import annotations

import io
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err


def run_cli(*argv: str, cwd: Path | None = None) -> Result:
    """Run the command line in-process, capturing both streams, from the
    directory of the first directory argument (as a user in the project
    would: paths print from there), or from ``cwd``."""
    import contextlib

    from configdrift.cli import main

    if cwd is None:
        cwd = next((Path(a) for a in argv if Path(a).is_absolute() and Path(a).is_dir()), None)
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(cwd or Path.cwd()),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors
            code = int(exc.code or 0)
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Tests never read or write the user's fact cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
