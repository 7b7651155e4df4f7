"""Time ``configdrift check`` against the real floor: a parse of the repository.

Usage: python bench/check_vs_parse.py REPO [--rounds N] [--jobs N]
       [--vulture-path PATH] [--scale N]

The floor is a single-process ``ast.parse`` of every tracked ``.py`` file of
REPO (``git ls-files``), which any AST-based checker pays at least. Against
it, in alternation so that machine noise hits every side alike, each round
runs as fresh interpreters (start-up and imports included):

- ``cold``: a first run with an empty cache directory, which writes the
  fact cache and the stored report (what a user's first check and a CI job
  with a fresh cache pay);
- ``jobs-1``: ``cold`` in one process (``--jobs 1``);
- ``no-cache``: ``check --no-cache``;
- ``warm``: a run with nothing changed since the last one (the stored
  report is replayed);
- ``vulture``: vulture on ``--vulture-path`` (default: REPO), installed into
  a virtual environment of its own in the user's cache directory when it
  is missing (skipped when it cannot be installed); ``pyflakes`` the same;
- with ``--against PYTHON``: ``cold`` and ``no-cache`` again with another
  installation of configdrift (an earlier commit's, in a virtual
  environment of its own), so that a change is measured side by side with
  what it changes, in the same rounds.

For each it prints wall time, CPU time (user and system, all processes) and
peak memory of the process tree (sampled every 10 ms): the summed
proportional set sizes, which count a page that forked workers share with
their parent once, and for reference the summed resident set sizes, which
count it in every process,
then the median ratio to the floor with its spread (lowest to highest).
``--scale N`` also builds a repository of N copies of REPO's text files (a
git repository in a temporary directory) and compares a cold check of it
with one of REPO, and, with ``--doc-page``, the run after a line is added
to that page in the first copy with the floor of the N copies.

``--edits`` times what one changed file costs, on a copy of REPO's text
files, after a run that stored its report: ``touch`` (a new time, the same
bytes), ``doc`` (a line added to ``--doc-page``), ``code`` (a comment added
to ``--code-module``) and ``schema`` (a comment added to
``--schema-module``); each the run after the change and, as ``KIND+1``, the
run after that (which replays the report the first one stored).

Every side runs with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` is
dropped from the environment), as after ``pip install``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PARSE_SCRIPT = """
import ast, subprocess, sys, warnings
warnings.simplefilter("ignore")
root = sys.argv[1]
names = subprocess.run(["git", "-C", root, "ls-files", "-z", "*.py"],
                       capture_output=True, check=True).stdout.decode().split("\\0")
for rel in names:
    if rel:
        try:
            with open(root + "/" + rel, "rb") as fh:
                ast.parse(fh.read())
        except (OSError, SyntaxError, ValueError):
            pass
"""

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
TEXT_SUFFIXES = (".py", ".md", ".mdx", ".rst", ".json", ".yaml", ".yml", ".toml", ".cfg")


@dataclass
class Run:
    wall: float
    cpu: float
    #: Peak of the summed proportional set sizes: each page shared by several
    #: processes (a forked worker's pages of its parent) counted once, split
    #: among them; what the tree takes from the machine.
    peak_mib: float
    #: Peak of the summed resident set sizes, which counts a shared page in
    #: every process that maps it.
    rss_mib: float = 0.0


def _kib(path: str, field: str) -> int | None:
    """A ``field:  N kB`` line of a /proc file, None when it cannot be read."""
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _rss_kib(pid: int) -> int:
    return _kib(f"/proc/{pid}/status", "VmRSS:") or 0


def _pss_kib(pid: int) -> int:
    """The process's proportional set size (Linux 4.14 and later); its
    resident set size where the kernel lacks smaps_rollup."""
    found = _kib(f"/proc/{pid}/smaps_rollup", "Pss:")
    return found if found is not None else _rss_kib(pid)


def _tree(pid: int) -> list[int]:
    """The process and its descendants (Linux's /proc/PID/task/TID/children)."""
    out, stack = [], [pid]
    while stack:
        current = stack.pop()
        out.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as fh:
                    stack.extend(int(c) for c in fh.read().split())
        except OSError:
            continue
    return out


def measure(cmd: list[str], env: dict[str, str] | None = None, ok: tuple[int, ...] = (0, 1)) -> Run:
    """Run ``cmd`` (exiting with one of ``ok``); its wall time, CPU time and
    peak memory of its tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or ENV)
    peak = rss = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, rss
        while not done.is_set():
            tree = _tree(proc.pid)
            peak = max(peak, sum(_pss_kib(p) for p in tree))
            rss = max(rss, sum(_rss_kib(p) for p in tree))
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, peak / 1024, rss / 1024)


def _tool(name: str) -> list[str] | None:
    """A command that runs the linter ``name`` (vulture, pyflakes),
    installing it into a venv of its own when the running Python lacks it;
    None when it cannot be had."""
    try:
        __import__(name)
        return [sys.executable, "-m", name]
    except ImportError:
        pass
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "configdrift-bench"
    python = home / f"{name}-venv" / "bin" / "python"
    if not python.exists():
        try:
            subprocess.run([sys.executable, "-m", "venv", str(python.parent.parent)], check=True)
            subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", name],
                check=True,
                timeout=300,
            )
        except (OSError, subprocess.SubprocessError):
            return None
    return [str(python), "-m", name]


def _scaled(repo: Path, copies: int, into: Path) -> Path:
    """A git repository of ``copies`` copies of REPO's tracked text files."""
    names = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    files = [n for n in names.split("\0") if n.endswith(TEXT_SUFFIXES)]
    root = into / "scaled"
    for index in range(copies):
        for rel in files:
            source = repo / rel
            if not source.is_file() or source.is_symlink():
                continue
            target = root / f"copy{index}" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


def _copy(repo: Path, into: Path) -> Path:
    """A git repository of REPO's tracked text files, as they are."""
    names = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    root = into / "copy"
    for rel in (n for n in names.split("\0") if n.endswith(TEXT_SUFFIXES)):
        source = repo / rel
        if source.is_file() and not source.is_symlink():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


def _edit(path: Path, kind: str, index: int) -> None:
    """Change one file as ``kind`` says (``touch`` keeps its bytes)."""
    if kind == "touch":
        os.utime(path)
        return
    line = f"\n<!-- bench edit {index} -->\n" if kind == "doc" else f"\n# bench edit {index}\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line)


def _edits(args: argparse.Namespace, repo: Path, scratch: str, floors: list[Run]) -> None:
    """The cost of one changed file of each kind, as ratios to the floor."""
    copy = _copy(repo, Path(scratch))
    env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, "edits")}
    check = [sys.executable, "-m", "configdrift", "check", str(copy), "--format", "json"]
    measure(check, env)  # fills the cache and stores the report
    targets = {
        "touch": args.code_module,
        "doc": args.doc_page,
        "code": args.code_module,
        "schema": args.schema_module,
    }
    sides: dict[str, list[Run]] = {}
    for index in range(args.rounds):
        for kind, rel in targets.items():
            if rel is None:
                continue
            _edit(copy / rel, kind, index)
            sides.setdefault(kind, []).append(measure(check, env))
            sides.setdefault(f"{kind}+1", []).append(measure(check, env))
        print(
            f"edit round {index + 1}: "
            + "  ".join(f"{k} {v[-1].wall:.2f}s/{v[-1].cpu:.2f}cpu" for k, v in sides.items()),
            flush=True,
        )
    print("one changed file, ratios to the floor (median, lowest-highest):")
    for name, runs in sides.items():
        print(_summary(name, runs, floors[: len(runs)]))


def _summary(name: str, runs: list[Run], floors: list[Run]) -> str:
    walls = [r.wall / f.wall for r, f in zip(runs, floors, strict=True)]
    cpus = [r.cpu / f.cpu for r, f in zip(runs, floors, strict=True)]
    peaks = [r.peak_mib for r in runs]
    rss = [r.rss_mib for r in runs]
    return (
        f"{name:>9}: wall {statistics.median(walls):.2f}x ({min(walls):.2f}-{max(walls):.2f}), "
        f"cpu {statistics.median(cpus):.2f}x ({min(cpus):.2f}-{max(cpus):.2f}), "
        f"peak {statistics.median(peaks):.0f} MiB ({min(peaks):.0f}-{max(peaks):.0f}), "
        f"rss sum {statistics.median(rss):.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="passed to configdrift check")
    parser.add_argument("--vulture-path", help="what vulture checks (default: REPO)")
    parser.add_argument("--scale", type=int, default=0, help="also time N copies of REPO")
    parser.add_argument(
        "--against", help="another Python with configdrift installed, timed side by side"
    )
    parser.add_argument("--edits", action="store_true", help="time one changed file of each kind")
    parser.add_argument("--doc-page", help="with --edits: the doc page to change (REPO-relative)")
    parser.add_argument("--code-module", help="with --edits: a module that declares no schema")
    parser.add_argument("--schema-module", help="with --edits: a module that declares a model")
    args = parser.parse_args()
    repo = args.repo.resolve()
    check = [sys.executable, "-m", "configdrift", "check", str(repo), "--format", "json"]
    if args.jobs is not None:
        check += ["--jobs", str(args.jobs)]
    other = [args.against, *check[1:]] if args.against else None
    floor_cmd = [sys.executable, "-c", PARSE_SCRIPT, str(repo)]
    vulture, pyflakes = _tool("vulture"), _tool("pyflakes")
    vulture_target = str(repo / args.vulture_path) if args.vulture_path else str(repo)
    with tempfile.TemporaryDirectory() as scratch:
        warm_env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, "warm")}
        measure(check, warm_env)  # fills the cache and stores the report
        sides: dict[str, list[Run]] = {
            "floor": [],
            "cold": [],
            "jobs-1": [],
            "no-cache": [],
            "warm": [],
        }
        if other:
            sides["cold-other"], sides["no-cache-other"] = [], []
        if vulture:
            sides["vulture"] = []
        if pyflakes:
            sides["pyflakes"] = []
        for index in range(args.rounds):
            cold_env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, f"cold{index}")}
            sides["floor"].append(measure(floor_cmd))
            sides["cold"].append(measure(check, cold_env))
            one_env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, f"one{index}")}
            sides["jobs-1"].append(measure([*check, "--jobs", "1"], one_env))
            sides["no-cache"].append(measure([*check, "--no-cache"]))
            sides["warm"].append(measure(check, warm_env))
            if other:
                other_env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, f"other{index}")}
                sides["cold-other"].append(measure(other, other_env))
                sides["no-cache-other"].append(measure([*other, "--no-cache"]))
            if vulture:
                # vulture exits 3 when it reports dead code.
                sides["vulture"].append(measure([*vulture, vulture_target], ok=(0, 3)))
            if pyflakes:
                # pyflakes exits 1 when it reports a problem.
                sides["pyflakes"].append(measure([*pyflakes, vulture_target], ok=(0, 1)))
            print(
                f"round {index + 1}: "
                + "  ".join(
                    f"{name} {runs[-1].wall:.2f}s/{runs[-1].cpu:.2f}cpu/{runs[-1].peak_mib:.0f}MiB"
                    for name, runs in sides.items()
                ),
                flush=True,
            )
        print("ratios to the floor (median, lowest-highest):")
        for name, runs in sides.items():
            if name != "floor":
                print(_summary(name, runs, sides["floor"]))
        if vulture:
            walls = [c.wall / v.wall for c, v in zip(sides["cold"], sides["vulture"], strict=True)]
            print(f"cold check / vulture: {statistics.median(walls):.2f}x")
        for tool in ("vulture", "pyflakes"):
            if tool in sides:
                cpus = [c.cpu / v.cpu for c, v in zip(sides["cold"], sides[tool], strict=True)]
                print(
                    f"cold check / {tool}, CPU: {statistics.median(cpus):.2f}x "
                    f"({min(cpus):.2f}-{max(cpus):.2f})"
                )
        if other:
            for name in ("cold", "no-cache"):
                cpus = [
                    a.cpu / b.cpu for a, b in zip(sides[name], sides[f"{name}-other"], strict=True)
                ]
                print(
                    f"{name} / {name} of --against: CPU {statistics.median(cpus):.3f}x "
                    f"({min(cpus):.3f}-{max(cpus):.3f})"
                )
        if args.edits:
            _edits(args, repo, scratch, sides["floor"])
        if args.scale > 1:
            scaled = _scaled(repo, args.scale, Path(scratch))
            big = [sys.executable, "-m", "configdrift", "check", str(scaled), "--format", "json"]
            times = []
            edited: list[tuple[Run, Run]] = []
            big_floor = [sys.executable, "-c", PARSE_SCRIPT, str(scaled)]
            for index in range(max(1, args.rounds // 2)):
                one = measure(
                    check, {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, f"s1-{index}")}
                )
                big_env = {**ENV, "XDG_CACHE_HOME": os.path.join(scratch, f"sN-{index}")}
                many = measure(big, big_env)
                times.append((one, many))
                if args.doc_page:
                    _edit(scaled / "copy0" / args.doc_page, "doc", index)
                    edited.append((measure(big, big_env), measure(big_floor)))
                print(
                    f"scale round {index + 1}: 1x {one.wall:.2f}s {one.peak_mib:.0f}MiB, "
                    f"{args.scale}x {many.wall:.2f}s {many.peak_mib:.0f}MiB "
                    f"(rss sum {many.rss_mib:.0f}MiB)",
                    flush=True,
                )
            ratio = statistics.median(m.wall / o.wall for o, m in times)
            cpu = statistics.median(m.cpu / o.cpu for o, m in times)
            peak = statistics.median(m.peak_mib for _, m in times)
            rss = statistics.median(m.rss_mib for _, m in times)
            print(
                f"{args.scale}x repository: {ratio:.2f}x the time of 1x ({cpu:.2f}x CPU), "
                f"peak {peak:.0f} MiB (rss sum {rss:.0f} MiB)"
            )
            if edited:
                cpus = [e.cpu / f.cpu for e, f in edited]
                peaks = [e.peak_mib for e, _ in edited]
                print(
                    f"{args.scale}x repository, one page changed: CPU "
                    f"{statistics.median(cpus):.2f}x its floor ({min(cpus):.2f}-{max(cpus):.2f}), "
                    f"peak {statistics.median(peaks):.0f} MiB"
                )


if __name__ == "__main__":
    main()
