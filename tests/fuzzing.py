"""A seeded fuzzer of whole projects: small projects built from grammars of
what configdrift reads (config modules, Markdown and reStructuredText pages
with their example blocks, pyproject tables), then mutated the way an
unlucky or hostile repository is (truncation, byte flips, deep nesting,
huge literals, invalid UTF-8, NUL bytes, CRLF, a BOM, FIFOs, devices and
links out of the tree). Each case runs ``configdrift check`` in process and
must end with an exit status of 0, 1 or 2, a valid report in its format,
nothing of the secret outside the tree, and within a time bound.

CI runs a few hundred cases (``tests/test_fuzz.py``); the deep mode runs as
many as asked, over several processes::

    python tests/fuzzing.py --cases 100000 --jobs 4
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import xml.dom.minidom
from collections.abc import Callable, Iterator
from pathlib import Path

#: The secret a link out of the tree points at: no report may show it.
SECRET = "FUZZ-SECRET-7d1c9a"
#: Seconds one case may take before it counts as a hang.
CASE_SECONDS = 30
FORMATS = ("text", "json", "sarif", "junit", "github", "html")
_NAMES = [
    "alpha",
    "beta",
    "batch_size",
    "timeout",
    "enabled",
    "zero_optimization",
    "offload_param",
    "device",
    "lr",
    "MAX_RETRIES",
    "api_key",
    "log-level",
    "x",
    "",
    "über",
]
_VALUES = ["1", "0", "-3", "2.5", "5e8", "true", "false", "null", '"auto"', "[]", "{}", '"a b"']


def _name(rng: random.Random) -> str:
    return rng.choice(_NAMES)


def _py_module(rng: random.Random) -> str:
    kind = rng.randrange(6)
    names = [n for n in {_name(rng) for _ in range(rng.randrange(1, 7))} if n.isidentifier()]
    names = names or ["alpha"]
    if kind == 0:
        body = "".join(f"    {n}: int = {rng.choice(['1', '0', '5', 'None'])}\n" for n in names)
        extra = rng.choice(["", '    model_config = ConfigDict(extra="forbid")\n'])
        return (
            "from pydantic import BaseModel, ConfigDict\n\n\n"
            f"class Config(BaseModel):\n{extra}{body}\n\n"
            "def load(raw: dict) -> Config:\n    return Config(**raw)\n"
        )
    if kind == 1:
        body = "".join(f"    {n}: int = {rng.randrange(10)}\n" for n in names)
        return f"from dataclasses import dataclass\n\n\n@dataclass\nclass Options:\n{body}"
    if kind == 2:
        adds = "".join(
            f'    parser.add_argument("--{n.replace("_", "-")}", default={rng.randrange(9)})\n'
            for n in names
        )
        return (
            "import argparse\n\n\ndef cli():\n    parser = argparse.ArgumentParser()\n"
            f"{adds}    return parser.parse_args()\n"
        )
    if kind == 3:
        reads = "".join(
            f'    x = os.environ.get("{n.upper()}", "{rng.randrange(9)}")\n' for n in names
        )
        return f"import os\n\n\ndef settings():\n{reads}    return x\n"
    if kind == 4:
        consts = "".join(f'{n.upper()} = "{n}"\n' for n in names)
        reads = "".join(f"    d.get({n.upper()}, {rng.randrange(9)})\n" for n in names)
        return f"{consts}\n\ndef parse(d):\n{reads}"
    table = ", ".join(f'"{n}": {rng.randrange(9)}' for n in names)
    return f"DEFAULT_CONFIG = {{{table}}}\n"


def _block(rng: random.Random) -> tuple[str, str]:
    names = [_name(rng) for _ in range(rng.randrange(1, 5))]
    lang = rng.choice(["json", "yaml", "toml", "ini", "python"])
    if lang == "json":
        return lang, "{" + ", ".join(f'"{n}": {rng.choice(_VALUES)}' for n in names) + "}"
    if lang == "yaml":
        return lang, "\n".join(f"{n}: {rng.choice(_VALUES)}" for n in names)
    if lang == "toml":
        return lang, "[section]\n" + "\n".join(f"{n} = {rng.choice(_VALUES)}" for n in names)
    if lang == "ini":
        return lang, "[run]\n" + "\n".join(f"{n} = {rng.randrange(9)}" for n in names)
    return lang, "config = {" + ", ".join(f'"{n}": {rng.randrange(9)}' for n in names) + "}"


def _markdown(rng: random.Random) -> str:
    parts = ["# Configuration\n"]
    for _ in range(rng.randrange(1, 8)):
        n = _name(rng)
        form = rng.randrange(8)
        if form == 0:
            parts.append(f"## `{n}`\n\nDefault: `{rng.choice(_VALUES)}`\n")
        elif form == 7:
            # An option's heading, and a Default label inside a sentence.
            parts.append(f"### --{n} PATH\n\nText. Default: `{rng.choice(_VALUES)}`.\n")
        elif form == 1:
            parts.append(f"- `{n}` ({rng.choice(['int', 'bool', 'str'])}): what it does.\n")
        elif form == 2:
            parts.append(f"| Key | Default |\n| --- | --- |\n| `{n}` | `{rng.choice(_VALUES)}` |\n")
        elif form == 3:
            parts.append(
                f"<i>**{n}**</i>: [integer]\n\n| Description | Default |\n| --- | --- |\n| x | `1` |\n"
            )
        elif form == 4:
            lang, text = _block(rng)
            parts.append(f"```{lang}\n{text}\n```\n")
        elif form == 5:
            parts.append(f"!!! note\n    ### `{n}`\n\n    Default: `{rng.choice(_VALUES)}`\n")
        else:
            parts.append(f"### [run] {n}\n\n(boolean, default {rng.choice(_VALUES)}) Text.\n")
    return "\n".join(parts)


def _rst(rng: random.Random) -> str:
    parts = ["Configuration\n=============\n"]
    for _ in range(rng.randrange(1, 8)):
        n = _name(rng) or "x"
        form = rng.randrange(6)
        if form == 0:
            parts.append(
                f".. confval:: {n}\n   :type: int\n   :default: {rng.choice(_VALUES)}\n\n   Text.\n"
            )
        elif form == 1:
            parts.append(f"``{n}``\n{'-' * (len(n) + 4)}\n\nDefaults to ``{rng.randrange(9)}``.\n")
        elif form == 2:
            lang, text = _block(rng)
            body = "\n".join("   " + line for line in text.splitlines())
            parts.append(f".. code-block:: {lang}\n\n{body}\n")
        elif form == 3:
            parts.append(f"See :confval:`{n}` and :envvar:`{n.upper()}`.\n")
        elif form == 4:
            parts.append(
                f".. conf::\n   :keys: {n}, {n}x\n   :default: {rng.randrange(9)}\n\n   Text.\n"
            )
        else:
            parts.append(
                f"{n.lower() or 'word'}\n{'~' * max(1, len(n))}\n\nDefault: ``{rng.randrange(9)}``\n"
            )
    return "\n".join(parts)


def _pyproject(rng: random.Random, mounted: bool) -> str:
    options = ['mount = {"" = "pkg.config:Config"}'] if mounted else []
    if rng.random() < 0.5:
        options.append('docs = ["docs/*.md", "docs/*.rst", "docs/*.mdx"]')
    if rng.random() < 0.15:
        options.append(
            rng.choice(
                [
                    "docs = 3",
                    'mount = {"" = "nowhere:Nothing"}',
                    'removed = {"" = "gone"}',
                    'surfaces = {extra = "env"}',
                    "unknown_option = 1",
                    'fail-on = "warning"',
                    'select = ["CD1"]',
                ]
            )
        )
    return '[project]\nname = "fuzz"\n\n[tool.configdrift]\n' + "\n".join(options) + "\n"


def build(rng: random.Random) -> tuple[dict[str, bytes], set[str]]:
    """A small project: its files by path, and those that may be mutated
    (the configuration file seldom: a broken one only ends the run early)."""
    files: dict[str, bytes] = {"pkg/__init__.py": b""}
    mounted = rng.random() < 0.7
    if mounted:
        names = [n for n in {_name(rng) for _ in range(rng.randrange(2, 7))} if n.isidentifier()]
        body = "".join(f"    {n}: int = {rng.randrange(9)}\n" for n in names or ["alpha"])
        extra = rng.choice(["", '    model_config = ConfigDict(extra="forbid")\n'])
        files["pkg/config.py"] = (
            "from pydantic import BaseModel, ConfigDict\n\n\n"
            f"class Config(BaseModel):\n{extra}{body}"
        ).encode()
    for i in range(rng.randrange(1, 4)):
        files[f"pkg/mod{i}.py"] = _py_module(rng).encode()
    files["docs/config.md"] = _markdown(rng).encode()
    if rng.random() < 0.6:
        files["docs/reference.rst"] = _rst(rng).encode()
    if rng.random() < 0.3:
        page = "import X from 'y';\n\n<Tabs>\n  <Tab>\n" + _markdown(rng) + "\n  </Tab>\n</Tabs>\n"
        files["docs/page.mdx"] = page.encode()
    if rng.random() < 0.5:
        lang, text = _block(rng)
        files["config.yaml" if lang == "yaml" else "config.json"] = text.encode()
    if rng.random() < 0.3:
        # Settings with a prefix of their own, and an example environment
        # file that sets some of their variables and others.
        fields = [n for n in {_name(rng) for _ in range(4)} if n.isidentifier()] or ["alpha"]
        files["pkg/settings.py"] = (
            "from pydantic_settings import BaseSettings, SettingsConfigDict\n\n\n"
            "class Settings(BaseSettings):\n"
            '    model_config = SettingsConfigDict(env_prefix="APP_SVC_")\n'
            + "".join(f"    {n}: int = 1\n" for n in fields)
        ).encode()
        lines = [
            f"{rng.choice(['', '# ', 'export '])}APP_SVC_{_name(rng).upper()}={rng.randrange(9)}"
            for _ in range(rng.randrange(1, 8))
        ]
        files[".env.example"] = ("\n".join(lines) + "\n").encode()
    files["pyproject.toml"] = _pyproject(rng, mounted).encode()
    # The configuration file and the mounted model seldom: breaking them
    # only ends the run early, with a configuration error.
    anchors = {"pyproject.toml", "pkg/__init__.py", "pkg/config.py"}
    mutable = {rel for rel in files if rel not in anchors or rng.random() < 0.1}
    return files, mutable


def _mutations() -> list[Callable[[random.Random, bytes], bytes]]:
    def truncate(rng: random.Random, data: bytes) -> bytes:
        return data[: rng.randrange(len(data) + 1)]

    def flip(rng: random.Random, data: bytes) -> bytes:
        out = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            if out:
                out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)

    def nul(rng: random.Random, data: bytes) -> bytes:
        at = rng.randrange(len(data) + 1)
        return data[:at] + b"\0" * rng.randrange(1, 4) + data[at:]

    def crlf(rng: random.Random, data: bytes) -> bytes:
        return data.replace(b"\n", b"\r\n")

    def bom(rng: random.Random, data: bytes) -> bytes:
        return b"\xef\xbb\xbf" + data

    def invalid_utf8(rng: random.Random, data: bytes) -> bytes:
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88"]) + data[at:]

    def deep(rng: random.Random, data: bytes) -> bytes:
        depth = rng.choice([200, 1000, 5000])
        opener, closer = rng.choice([(b"[", b"]"), (b"(", b")"), (b"{", b"}"), (b"- ", b"")])
        at = rng.randrange(len(data) + 1)
        return data[:at] + opener * depth + closer * depth + data[at:]

    def huge(rng: random.Random, data: bytes) -> bytes:
        literal = rng.choice(
            [b"9" * 6000, b'"' + b"a" * 200_000 + b'"', b"1e99999", b"'x' * 10**9"]
        )
        at = rng.randrange(len(data) + 1)
        return data[:at] + literal + data[at:]

    def directive_nest(rng: random.Random, data: bytes) -> bytes:
        return data + b"".join(b"   " * i + b".. note::\n\n" for i in range(rng.choice([50, 300])))

    return [truncate, flip, nul, crlf, bom, invalid_utf8, deep, huge, directive_nest]


MUTATIONS = _mutations()


def write(
    root: Path, built: tuple[dict[str, bytes], set[str]], rng: random.Random, outside: Path
) -> None:
    """Write the project, mutating some files and turning some into
    special files or links."""
    files, mutable = built
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel not in mutable:
            path.write_bytes(data)
            continue
        special = rng.random()
        if special < 0.03:
            os.mkfifo(path)
            continue
        if special < 0.05:
            os.symlink(rng.choice(["/dev/zero", "/dev/urandom", "/dev/null"]), path)
            continue
        if special < 0.08:
            os.symlink(outside / rng.choice(["secret.json", "secret.md"]), path)
            continue
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            data = rng.choice(MUTATIONS)(rng, data)
        path.write_bytes(data)
    if rng.random() < 0.1:
        os.symlink(outside / "secret.json", root / "leak.json")
    if rng.random() < FORGED_SHARE:
        # A page whose name and keys would forge lines of a report.
        name = rng.choice(FORGED_NAMES)
        (root / "docs").mkdir(exist_ok=True)
        with open(os.path.join(os.fsencode(root), b"docs", name), "wb") as fh:
            fh.write(FORGED_PAGE)
    special = rng.random()
    if special < 0.05:
        # The configuration, or the baseline, is a link out of the tree.
        target = root / rng.choice(["pyproject.toml", "configdrift.toml"])
        target.unlink(missing_ok=True)
        os.symlink(outside / "secret.toml", target)
    elif special < 0.1:
        os.symlink(outside / "secret.json", root / "configdrift-baseline.json")
    if rng.random() < DENSE_SHARE:
        rel, payload = rng.choice(DENSE)
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        path.write_bytes(payload)


#: The share of cases with a page named to forge lines, and its content.
FORGED_SHARE = 0.08
FORGED_NAMES = [
    b"x\n::error file=ci.yml,line=1::forged.md",
    b"x\r\xe2\x80\xaecod.md",
    b"::warning::forged.md",
    b"##[error]forged.md",
    b"\x1b]0;title\x07\x1b[2J.md",
]
FORGED_PAGE = (
    b"# Config\n\n## `alpha`\n\nDefault: `7`\n\n"
    b'```json\n{"alpha": 1, "be\\nta": 2, "\\u202edelta": 3, "::error::x": 4, "g\\rh": 5}\n```\n'
)
#: The share of cases with one file of the densest shape its reader takes,
#: about a megabyte: each must stay within the memory bound.
DENSE_SHARE = 0.015
_MIB = 1 << 20
DENSE = [
    ("pkg/dense.py", b"x = [" + b"1," * (_MIB // 2) + b"]\n"),
    ("pkg/edge.py", b"x = [" + b"1," * 240_000 + b"]\n"),
    ("docs/table.md", b"# T\n\n| a | b |\n|---|---|\n" + b"| `k` | 1 |\n" * 39_000),
    ("docs/table.rst", b"T\n=\n\n.. list-table::\n\n" + b"   * - ``a``\n     - b\n" * 19_000),
    ("docs/inline.rst", b"T\n=\n\n" + (b"``a`` " * 10_000 + b"\n") * 20),
    ("docs/block.md", b"# T\n\n```yaml\n" + b"- {a: 1, b: [1, 2]}\n" * 39_000 + b"```\n"),
    ("config.yaml", b"a: [" + b"1," * (_MIB // 2 - 8) + b"1]\n"),
]


def _valid(fmt: str, out: str) -> str | None:
    try:
        if fmt in ("json", "sarif"):
            json.loads(out)
        elif fmt == "junit":
            xml.dom.minidom.parseString(out)
        elif fmt == "html":
            return _html_injected(out)
    except Exception as exc:  # the report itself is the failure
        return f"invalid {fmt}: {type(exc).__name__}"
    return None


def _html_injected(out: str) -> str | None:
    """Why an HTML report is not the page configdrift writes: a script or
    an event handler besides its own (text of the project let through)."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("script", "iframe", "object", "embed", "img", "link"):
                found.append(tag)
            found.extend(f"{tag}@{name}" for name, _ in attrs if name.startswith("on"))

    Tags().feed(out)
    if found != ["script"] or not out.rstrip().endswith("</html>"):
        return f"invalid html: {found[:5]}"
    return None


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _run(argv: list[str], cache: Path | None = None) -> tuple[int, io.StringIO, io.StringIO] | None:
    """A command run in process on one core, without the cache or with the
    cache directory ``cache``: its exit status and what it printed, or None
    when it gave no answer in time."""
    from configdrift.cli import main

    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(CASE_SECONDS)
    before = os.environ.get("XDG_CACHE_HOME")
    if cache is not None:
        os.environ["XDG_CACHE_HOME"] = str(cache)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([*argv, *(["--no-cache"] if cache is None else []), "--jobs", "1"])
    except _Timeout:
        return None
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        signal.alarm(0)
        if cache is not None:
            if before is None:
                del os.environ["XDG_CACHE_HOME"]
            else:
                os.environ["XDG_CACHE_HOME"] = before
    return code, out, err


def forged(fmt: str, out: str, err: str) -> str | None:
    """What in a command's output could pass for something else: a line that
    begins a workflow command (but the GitHub format's own), a carriage
    return, a bidirectional control, a terminal escape other than colour."""
    import re

    for name, text, commands in (("stdout", out, fmt == "github"), ("stderr", err, False)):
        for line in text.splitlines():
            if commands:
                if not re.match(r"::(error|warning|notice) file=[^:]*::", line):
                    return f"{name} line not one of the GitHub format's: {line[:80]!r}"
            elif line.lstrip().startswith(("::", "##[")):
                return f"{name} line begins a workflow command: {line[:80]!r}"
        if re.search("[\r\u202a-\u202e\u2066-\u2069]|\x1b(?!\\[[0-9;]*m)", text):
            return f"a hidden character on {name}"
    return None


def run_case(seed: int, workdir: Path, outside: Path) -> str | None:
    """One case: None when it passes, else what went wrong."""

    rng = random.Random(seed)
    root = workdir / f"case{seed}"
    try:
        write(root, build(rng), rng, outside)
        fmt = rng.choice(FORMATS)
        ran = _run(["check", str(root), "--format", fmt])
        if ran is None:
            return f"seed {seed}: no answer within {CASE_SECONDS} s"
        code, out, err = ran
        text = out.getvalue()
        if code not in (0, 1, 2):
            return f"seed {seed}: exit {code}: {err.getvalue().strip()[:300]}"
        if "Traceback" in err.getvalue():
            return f"seed {seed}: a traceback on stderr"
        if code in (0, 1):
            invalid = _valid(fmt, text)
            if invalid:
                return f"seed {seed}: {invalid}"
        if SECRET in text + err.getvalue() or str(outside) in text:
            return f"seed {seed}: the secret outside the tree was printed"
        if (problem := forged(fmt, text, err.getvalue())) is not None:
            return f"seed {seed}: {problem}"
        if rng.random() < CACHE_SHARE and (problem := _cache_inside(root)) is not None:
            return f"seed {seed}: {problem}"
        if rng.random() < WRITE_SHARE and (problem := _writes(root, outside)) is not None:
            return f"seed {seed}: {problem}"
        if rng.random() < EDIT_SHARE:
            return _edits(seed, root, rng, outside)
        return None
    finally:
        shutil.rmtree(root, ignore_errors=True)


#: The share of cases whose tree ``fix`` and ``sweep`` then edit.
EDIT_SHARE = 0.25
#: The share of cases checked again with the cache directory inside the tree.
CACHE_SHARE = 0.1
#: The share of cases that write a baseline and a report into the tree.
WRITE_SHARE = 0.1


def _cache_inside(root: Path) -> str | None:
    """A check with the cache directory inside the tree (a CI cache path in
    the workspace) must neither read nor write it, and say so."""
    cache = root / ".cache"
    ran = _run(["check", str(root)], cache=cache)
    if ran is None:
        return f"no answer within {CASE_SECONDS} s with the cache inside the tree"
    code, _, err = ran
    if code in (0, 1) and "not used" not in err.getvalue():
        return "the cache inside the tree was used without a word"
    if cache.exists() and any(cache.rglob("*")):
        return "the cache inside the tree was written"
    return None


def _writes(root: Path, outside: Path) -> str | None:
    """A baseline and a report written into the tree, where a link may lead
    out of it: nothing outside changes."""
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    (root / "reports").unlink(missing_ok=True)
    os.symlink(outside, root / "reports")
    for argv in (
        ["check", str(root), "--write-baseline"],
        ["check", str(root), "--output-file", str(root / "reports" / "r.txt")],
        ["coverage", str(root), "--badge", str(root / "reports" / "b.svg")],
    ):
        ran = _run(argv)
        if ran is None:
            return f"{argv[1:]} gave no answer within {CASE_SECONDS} s"
        code, out, err = ran
        if code not in (0, 1, 2) or "Traceback" in err.getvalue():
            return f"{argv[1:]}: exit {code}: {err.getvalue().strip()[:300]}"
        if SECRET in out.getvalue() + err.getvalue():
            return f"{argv[1:]} printed the secret outside the tree"
    if {p.name: p.read_bytes() for p in outside.iterdir()} != before:
        return "a write reached outside the tree"
    return None


def _edits(seed: int, root: Path, rng: random.Random, outside: Path) -> str | None:
    """``fix`` (every kind of fix) and ``sweep KEY`` with ``--apply`` on the
    case's tree: each exits 0, 1 or 2 without a traceback, prints nothing of
    the secret, and writes nothing outside the tree (a link out of it is
    never followed)."""

    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    key = rng.choice(_NAMES)
    for argv in (
        ["fix", str(root), "--add-missing", "--unsafe-fixes", "--apply"],
        ["sweep", key, str(root), "--apply"],
    ):
        ran = _run(argv)
        if ran is None:
            return f"seed {seed}: {argv[0]} gave no answer within {CASE_SECONDS} s"
        code, out, err = ran
        said = out.getvalue() + err.getvalue()
        if code not in (0, 1, 2):
            return f"seed {seed}: {argv[0]} exit {code}: {err.getvalue().strip()[:300]}"
        if "Traceback" in said:
            return f"seed {seed}: {argv[0]}: a traceback on stderr"
        if SECRET in said or str(outside) in said:
            return f"seed {seed}: {argv[0]} printed the secret outside the tree"
    if {p.name: p.read_bytes() for p in outside.iterdir()} != before:
        return f"seed {seed}: an edit reached outside the tree"
    return None


@contextlib.contextmanager
def sandbox() -> Iterator[tuple[Path, Path]]:
    """A work directory, and a directory outside every case's tree that
    holds the secret."""
    base = Path(tempfile.mkdtemp(prefix="configdrift-fuzz-"))
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(
        json.dumps({"alpha": SECRET, "batch_size": SECRET, SECRET: 1}), encoding="utf-8"
    )
    (outside / "secret.md").write_text(
        f"# S\n\n## `alpha`\n\nDefault: `{SECRET}`\n", encoding="utf-8"
    )
    (outside / "secret.toml").write_text(
        f'# {SECRET}\n[tool.configdrift]\nignore = ["CD"]\ndocs = ["{SECRET}"]\n',
        encoding="utf-8",
    )
    work = base / "work"
    work.mkdir()
    try:
        yield work, outside
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_cases(seeds: range) -> list[str]:
    """Run the cases of ``seeds`` in this process; the failures."""
    failures: list[str] = []
    with sandbox() as (work, outside):
        for seed in seeds:
            failure = run_case(seed, work, outside)
            if failure is not None:
                failures.append(failure)
    return failures


def _limit_memory() -> None:
    import resource

    limit = 2 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _in_child(seeds: range) -> tuple[int, list[str]]:
    """Run ``seeds`` in a process of their own (memory-limited): its exit
    status and the failures it printed."""
    import subprocess

    command = [sys.executable, __file__, "--cases", str(len(seeds))]
    command += ["--first", str(seeds.start), "--jobs", "0"]
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=CASE_SECONDS * (len(seeds) + 4),
        check=False,
        preexec_fn=_limit_memory,
    )
    return proc.returncode, [line for line in proc.stdout.splitlines() if line.startswith("seed ")]


def _chunk(seeds: range) -> list[str]:
    """A chunk's failures; when its process dies, each seed alone, to name
    the one that kills it."""
    status, failures = _in_child(seeds)
    if status in (0, 1):
        return failures
    if len(seeds) == 1:
        return [f"seed {seeds.start}: the process died (status {status})"]
    out: list[str] = []
    for seed in seeds:
        out.extend(_chunk(range(seed, seed + 1)))
    return out


#: The most memory (peak resident size) a process running cases may reach:
#: configdrift bounds what one file costs, whatever the file holds.
MAX_PEAK_MIB = 640


def _peak_mib() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def run_chunks(seeds: range, jobs: int, progress: bool = False) -> list[str]:
    """Run ``seeds`` in chunks, each in a process of its own under the
    memory limit (``jobs`` at a time); the failures."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    started = time.monotonic()
    size = 200
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    failures: list[str] = []
    done = 0
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        pending = {pool.submit(_chunk, chunk): chunk for chunk in chunks}
        for job in as_completed(pending):
            failures.extend(job.result())
            done += len(pending[job])
            if progress:
                print(
                    f"\r{done}/{len(seeds)} cases, {len(failures)} failure(s), "
                    f"{time.monotonic() - started:.0f} s",
                    end="",
                    file=sys.stderr,
                )
    if progress:
        print(file=sys.stderr)
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fuzz configdrift with generated projects")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="0: in this process")
    args = parser.parse_args(argv)
    started = time.monotonic()
    seeds = range(args.first, args.first + args.cases)
    if args.jobs == 0:
        failures = run_cases(seeds)
        if (peak := _peak_mib()) > MAX_PEAK_MIB:
            failures.append(
                f"seed {seeds.start}-{seeds.stop - 1}: peak memory {peak} MiB, "
                f"over {MAX_PEAK_MIB} MiB"
            )
    else:
        failures = run_chunks(seeds, args.jobs, progress=True)
    for failure in failures:
        print(failure)
    print(f"{args.cases} cases, {len(failures)} failure(s), {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    raise SystemExit(main())
