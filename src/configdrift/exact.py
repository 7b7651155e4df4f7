"""Exact mode (``--import``): example configs validated by the project's own
pydantic models, in a subprocess with a timeout.

Static analysis never runs the project's code; this mode does, so it is
opt-in. For each placed example, the outermost parts that one pydantic model
reads (``zero_optimization`` under ``DeepSpeedZeroConfig``) are rebuilt as
values from the example's keys, handed to ``Model.model_validate`` in a
child interpreter of the user's environment, and pydantic's errors are
mapped back to the lines of the keys they name. Placeholders are left out,
so the model's default stands in; keys inside list items are left out too,
as the reader does not keep which item a key belongs to.

Findings of this mode replace the static CD301 and CD303 findings of the
parts it validated; everything else stays static.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from configdrift.extract.docs.block_model import DICT, LIST, VALUE, BlockKey
from configdrift.files import read_cache
from configdrift.model import LIST_ITEM, ConfigPath, Finding, Location, SchemaNode, format_path
from configdrift.rules.registry import make
from configdrift.rules.values import value_rejection

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

#: Runs in the child: reads jobs on stdin, writes results to the file named
#: by its second argument (the project may print to stdout when imported).
_CHILD = r"""
import importlib, json, sys
jobs = json.load(sys.stdin)
for entry in reversed(json.loads(sys.argv[1])):
    sys.path.insert(0, entry)
out = []
modules = {}
for job in jobs:
    name = job["module"]
    try:
        if name not in modules:
            modules[name] = importlib.import_module(name)
        model = modules[name]
        for part in job["qualname"].split("."):
            model = getattr(model, part)
        model.model_validate(job["value"])
        out.append({"id": job["id"], "errors": []})
    except Exception as exc:
        errors = getattr(exc, "errors", None)
        if callable(errors) and type(exc).__name__ == "ValidationError":
            found = [
                {"loc": [p if isinstance(p, (int, str)) else str(p) for p in e.get("loc", ())],
                 "type": str(e.get("type", "")), "msg": str(e.get("msg", ""))}
                for e in errors()
            ]
            out.append({"id": job["id"], "errors": found})
        else:
            out.append({"id": job["id"], "failed": f"{type(exc).__name__}: {exc}"})
with open(sys.argv[2], "w", encoding="utf-8") as fh:
    json.dump(out, fh)
"""

#: pydantic error types that say a key is not accepted, or a value not.
_REJECTED = frozenset({"extra_forbidden"})
_IGNORED = frozenset({"missing"})


class ExactModeError(Exception):
    """The project's models could not be imported or validated."""


@dataclass(slots=True)
class _Job:
    rel: str
    what: str
    base: ConfigPath
    node: SchemaNode
    value: dict[str, Any]
    lines: dict[ConfigPath, int] = field(default_factory=dict)


def _value_tree(
    keys: list[BlockKey], start: ConfigPath
) -> tuple[dict[str, Any], dict[ConfigPath, int]]:
    """The value an example gives at ``start`` (a path inside the block), and
    the line of each key under it, by its path relative to ``start``."""
    tree: dict[str, Any] = {}
    lines: dict[ConfigPath, int] = {}
    skipped: list[ConfigPath] = []
    n = len(start)
    for key in keys:
        if key.path[:n] != start or len(key.path) == n:
            continue
        rel = key.path[n:]
        if LIST_ITEM in rel or any(rel[: len(s)] == s for s in skipped):
            continue
        lines.setdefault(rel, key.line)
        holder = tree
        for part in rel[:-1]:
            nxt = holder.get(part)
            if not isinstance(nxt, dict):
                break
            holder = nxt
        else:
            if key.kind == DICT:
                holder[rel[-1]] = {}
            elif key.kind == VALUE:
                holder[rel[-1]] = key.value
            elif key.kind == LIST and isinstance(key.value, list):
                holder[rel[-1]] = list(key.value)
            else:
                skipped.append(rel)  # a placeholder: the default stands in
    return tree, lines


def _jobs(analysis: Analysis) -> list[_Job]:
    """The outermost parts of each placed example that one pydantic model reads."""
    from configdrift.model import resolve_path

    jobs: list[_Job] = []
    for rel, block, base in analysis.blocks:
        node, _, _ = resolve_path(analysis.schema, base)
        if node is not None and node.model_symbol is not None:
            # The block's top is a model's (a fragment's section, a root model).
            value, lines = _value_tree(block.keys, ())
            jobs.append(_Job(rel, block.described(), base, node, value, lines))
            continue
        done: list[ConfigPath] = []
        for key in block.keys:  # in document order: a parent before its keys
            if key.kind != DICT or any(key.path[: len(d)] == d for d in done):
                continue
            node, _, _ = resolve_path(analysis.schema, (*base, *key.path))
            if node is None or node.model_symbol is None or LIST_ITEM in key.path:
                continue
            done.append(key.path)
            value, lines = _value_tree(block.keys, key.path)
            jobs.append(_Job(rel, block.described(), (*base, *key.path), node, value, lines))
    return jobs


def _search_path(analysis: Analysis, jobs: list[_Job]) -> list[str]:
    """Directories to import the models' modules from: the root each model's
    file sits under, given its module name."""
    out: list[str] = []
    root = analysis.config.root.resolve()
    for job in jobs:
        assert job.node.model_symbol is not None and job.node.model_location is not None
        module = job.node.model_symbol[0]
        parts = job.node.model_location.path.split("/")
        depth = len(module.split(".")) + (1 if parts[-1] == "__init__.py" else 0)
        top = root.joinpath(*parts[: max(0, len(parts) - depth)])
        if str(top) not in out:
            out.append(str(top))
    return out


def run_exact(analysis: Analysis, timeout: float) -> tuple[list[Finding], set[tuple[str, int]]]:
    """Validate the examples with the project's models: the findings, and
    the (file, line) of every key the models judged (whose static CD301 and
    CD303 findings the exact ones replace)."""
    jobs = _jobs(analysis)
    if not jobs:
        return [], set()
    payload = [
        {
            "id": i,
            "module": job.node.model_symbol[0],
            "qualname": job.node.model_symbol[1],
            "value": job.value,
        }
        for i, job in enumerate(jobs)
        if job.node.model_symbol is not None
    ]
    with tempfile.TemporaryDirectory(prefix="configdrift-") as scratch:
        result_file = os.path.join(scratch, "results.json")
        command = [
            sys.executable,
            "-c",
            _CHILD,
            json.dumps(_search_path(analysis, jobs)),
            result_file,
        ]
        status, said = _run_child(command, json.dumps(payload).encode(), timeout, analysis)
        data = read_cache(Path(result_file), MAX_RESULTS_BYTES)
        try:
            results = json.loads(data) if data is not None else None
        except ValueError:
            results = None
        if not isinstance(results, list):
            last = (said.strip() or "no output").splitlines()[-1]
            raise ExactModeError(
                f"the validating interpreter failed (exit status {status}): {last}"
            ) from None
    failures = sorted({r["failed"] for r in results if "failed" in r})
    if failures:
        raise ExactModeError("the project's models could not be used: " + "; ".join(failures[:3]))
    findings: list[Finding] = []
    judged: set[tuple[str, int]] = set()
    for result in results:
        job = jobs[result["id"]]
        judged.update((job.rel, line) for line in job.lines.values())
        findings.extend(_findings(job, result["errors"]))
    return findings, judged


#: What the child may print that is kept (the end of it, for a message),
#: and the most bytes of results read back.
MAX_OUTPUT_BYTES = 64 * 1024
MAX_RESULTS_BYTES = 64 * 1024 * 1024


def _run_child(
    command: list[str], payload: bytes, timeout: float, analysis: Analysis
) -> tuple[int, str]:
    """Run the validating child in a session of its own: its exit status
    and the last ``MAX_OUTPUT_BYTES`` of what it printed (a model module
    may print without end). Past ``timeout`` its whole process group is
    killed, the processes it started included."""
    import signal
    import threading

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=str(analysis.config.root),
            env=env,
            start_new_session=True,
        )
    except OSError as exc:
        raise ExactModeError(f"cannot start {command[0]}: {exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None
    stream = proc.stdout
    tail = bytearray()

    def drain() -> None:
        while chunk := os.read(stream.fileno(), MAX_OUTPUT_BYTES):
            tail.extend(chunk)
            del tail[: max(0, len(tail) - MAX_OUTPUT_BYTES)]

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()

    def feed() -> None:
        try:
            proc.stdin.write(payload)  # type: ignore[union-attr]
            proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass  # the child stopped reading: its status says why

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        status = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        proc.wait()
        raise ExactModeError(
            f"importing and validating the project's models took longer than {timeout:g} s "
            "(raise --import-timeout, or leave out --import)"
        ) from None
    finally:
        reader.join(5)
        with contextlib.suppress(OSError):
            stream.close()
    return status, bytes(tail).decode("utf-8", "replace")


def _findings(job: _Job, errors: list[dict[str, Any]]) -> list[Finding]:
    out: list[Finding] = []
    seen: set[tuple[str, ConfigPath]] = set()
    model = job.node.model or "the model"
    for error in errors:
        kind = error["type"]
        if kind in _IGNORED:
            continue
        loc = tuple(LIST_ITEM if isinstance(p, int) else p for p in error["loc"])
        # A union or a tagged type adds its member's name to the location:
        # the longest prefix that is a key of the example is the key.
        line = None
        while loc and line is None:
            line = job.lines.get(loc)
            if line is None:
                loc = loc[:-1]
        if line is None:
            continue
        code = "CD301" if kind in _REJECTED else "CD303"
        if (code, loc) in seen or (code == "CD303" and _search_space(job, loc)):
            continue
        seen.add((code, loc))
        path = (*job.base, *loc)
        owner = _owner(job.node, loc[:-1]) or model
        if code == "CD301":
            message = (
                f"{job.what} sets `{format_path(path)}`, which {owner} rejects when it is "
                f"validated: {error['msg']} (exact mode)"
            )
        else:
            shown = _shown(job.value, loc)
            message = (
                f"{job.what} sets `{format_path(path)}`{shown}, which {owner} rejects when it is "
                f"validated: {error['msg']} (exact mode)"
            )
        out.append(make(code, format_path(path), Location(job.rel, line), message))
    return out


def _search_space(job: _Job, loc: ConfigPath) -> bool:
    """Is the value a list of valid values for a field that takes one (an
    autotuner's search space)? Static mode does not call that wrong, and
    neither does this one."""
    value = _value_at(job.value, loc)
    field = _node_at(job.node, loc)
    return (
        isinstance(value, list)
        and field is not None
        and value_rejection(field.type, LIST, value) is None
    )


def _node_at(node: SchemaNode, loc: ConfigPath) -> SchemaNode | None:
    for part in loc:
        child = node.children.get(LIST_ITEM) if part == LIST_ITEM else node.child(part)
        if child is None:
            return None
        node = child
    return node


_ABSENT = object()


def _value_at(value: Any, loc: ConfigPath) -> Any:
    """The value at ``loc``, or ``_ABSENT``."""
    for part in loc:
        if not isinstance(value, dict) or part not in value:
            return _ABSENT
        value = value[part]
    return value


def _owner(node: SchemaNode, loc: ConfigPath) -> str | None:
    """The model that holds the key at ``loc`` under ``node``."""
    found = _node_at(node, loc)
    return found.model if found is not None else None


def _shown(value: Any, loc: ConfigPath) -> str:
    value = _value_at(value, loc)
    if value is _ABSENT:
        return ""
    if isinstance(value, dict):
        return " to a mapping"
    return f" to `{json.dumps(value)}`"


def merge(
    static: list[Finding], exact: list[Finding], judged: set[tuple[str, int]]
) -> list[Finding]:
    """Static findings, with CD301 and CD303 on keys the models judged
    replaced by exact ones."""
    kept = [
        f
        for f in static
        if not (f.code in ("CD301", "CD303") and (f.location.path, f.location.line) in judged)
    ]
    return sorted(kept + exact, key=lambda f: (f.location.path, f.location.line, f.code, f.key))
