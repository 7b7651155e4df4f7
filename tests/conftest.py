from __future__ import annotations

import io
import itertools
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
    result = Result(code, out.getvalue(), err.getvalue())
    _validate_json(argv, result, cwd or Path.cwd())
    return result


#: The commands whose ``--format json`` output has a schema, and its name.
_JSON_SCHEMAS = {"check": "report", "diff": "report", "map": "map"}


def _validate_json(argv: tuple[str, ...], result: Result, cwd: Path) -> None:
    """Every JSON document a test gets from the command line is valid
    against the schema configdrift ships for it, and names it."""
    import json

    args = list(argv)
    command = next((a for a in args if not a.startswith("-")), None)
    name = _JSON_SCHEMAS.get(command or "")
    wants_json = any(
        a in ("--format", "--output-format") and b == "json" for a, b in itertools.pairwise(args)
    ) or any(a in ("--format=json", "--output-format=json") for a in args)
    if name is None or not wants_json or result.code not in (0, 1):
        return
    written = next((b for a, b in itertools.pairwise(args) if a in ("--output-file", "-o")), None)
    if written is not None:
        target = Path(written)
        if not target.is_absolute():
            target = cwd / target
        if not target.is_file():
            return  # written somewhere the test moved or removed
        document = json.loads(target.read_text(encoding="utf-8"))
    else:
        document = json.loads(result.out)
    validator = _validator(name)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, f"{name} schema: {errors[0].message} at {list(errors[0].path)}"
    from configdrift.schemas import SCHEMA_IDS

    assert document["$schema"] == SCHEMA_IDS[name]


_VALIDATORS: dict[str, object] = {}


def _validator(name: str):
    if name not in _VALIDATORS:
        from jsonschema import Draft202012Validator

        from configdrift.schemas import load_schema

        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        _VALIDATORS[name] = Draft202012Validator(schema)
    return _VALIDATORS[name]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, the slowest (``slow(seconds)``) before
    the others: spread over the workers from the start, they do not hold
    the run up at its end."""

    def seconds(item: pytest.Item) -> float:
        marker = item.get_closest_marker("slow")
        return 0.0 if marker is None else float(marker.args[0] if marker.args else 10)

    items.sort(key=lambda item: -seconds(item))


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
