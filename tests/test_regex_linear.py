"""Every module-level regular expression of configdrift (``extract/`` and
``rules/`` first among them) runs in linear time over a stranger's text.

Each pattern meets generated pathological inputs: a prefix taken from its
own literal text (``Default:``, ``{#``), then a long run of one unit (blanks,
separators, brackets, backticks, words, the pattern's own characters), then
a suffix that spoils a match. Each is screened at two lengths; the inputs
whose time grows most are then run at 50,000 and 200,000 characters with
``search``, ``fullmatch`` and ``findall``. A pattern fails when it takes
over half a second at 200,000 and its time grows more than twice as fast as
its text (a linear pattern grows four times, a quadratic one sixteen), or
when it runs past eight seconds. The growth is read from two runs side by
side (the least of three of each), so a busy machine does not fail a
linear pattern."""

from __future__ import annotations

import importlib
import pkgutil
import re
import signal
import time

import pytest

import configdrift

#: Units repeated into a long run.
UNITS = (
    " ",
    "\t",
    "\xa0",
    "a",
    "a ",
    "A_",
    "1",
    "0",
    "-",
    "--a, ",
    ", ",
    "``",
    "`",
    ".",
    ":",
    "\n",
    "|",
    "[",
    "{",
    "(",
    "\\a",
    "_",
    "a:",
    "= ",
    "*",
    "#",
    "'",
    '"',
    "<a",
    "/",
)
#: What follows the run, to spoil a match at its end.
SUFFIXES = ("", "x", "!", "\n", "}", ")", "`", "\x00")
SMALL, LARGE, HUGE = 500, 2000, 200_000
#: Seconds at HUGE below which a pattern is not looked at again, the growth
#: from a quarter of HUGE that fails one above it, and the seconds that fail
#: any.
LIMIT, GROWTH, CAP = 0.5, 8.0, 8.0
#: The runs at each length of a pattern over the limit.
REPEATS = 3


#: Modules not imported here: the entry point runs the command line, the
#: docs-build plugins import Sphinx and MkDocs (they hold no pattern).
_SKIPPED = ("configdrift.__main__", "configdrift.sphinx", "configdrift.mkdocs")


def _patterns() -> list[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    found: dict[int, tuple[str, re.Pattern[str] | re.Pattern[bytes]]] = {}
    for package in (configdrift,):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name in _SKIPPED:
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                values = [value]
                if isinstance(value, dict):
                    values = list(value.values())
                elif isinstance(value, tuple | list):
                    values = list(value)
                for item in values:
                    if isinstance(item, re.Pattern) and id(item) not in found:
                        found[id(item)] = (f"{info.name}:{name}", item)
    return sorted(found.values(), key=lambda pair: pair[0])


PATTERNS = _patterns()


def _witness(items: object, once: bool) -> list[str]:
    """Strings that the parsed pattern ``items`` begins to match, one at
    each place before a repetition, inside groups too (where a long run of
    one unit does its harm), and the whole: a repetition taken its least
    number of times (or once, with ``once``), a class by its first
    character, a branch by its first way."""
    from re import _constants as c  # type: ignore[attr-defined]

    out, text = [], ""
    for op, arg in items:  # type: ignore[attr-defined]
        inner: list[str] = []
        if op is c.LITERAL:
            piece = chr(arg)
        elif op is c.NOT_LITERAL:
            piece = "a" if arg != ord("a") else "b"
        elif op is c.IN:
            piece = _member(arg, c)
        elif op is c.ANY:
            piece = "a"
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, _, body = arg
            times = min(max(low, 1 if once else 0), 3)
            inner = _witness(body, once)
            piece = (inner[-1] if inner else "") * times
            inner = inner if times else []
        elif op is c.SUBPATTERN:
            inner = _witness(arg[-1], once)
            piece = inner[-1] if inner else ""
        elif op is c.ATOMIC_GROUP:
            inner = _witness(arg, once)
            piece = inner[-1] if inner else ""
        elif op is c.BRANCH:
            ways = [_witness(way, once) for way in arg[1]]
            for way in ways[1:]:
                out.extend(text + cut for cut in way)
            inner = ways[0]
            piece = inner[-1] if inner else ""
        else:
            piece = ""
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            out.append(text)
        out.extend(text + cut for cut in inner[:-1])
        text += piece
    out.append(text)
    return out


def _member(items: list, c: object) -> str:
    """A character of a class (``[...]``, ``\\d``): its first literal or
    range, or one of its category."""
    if items and items[0][0] is c.NEGATE:  # type: ignore[attr-defined]
        chars = "".join(chr(a[1]) for a in items if a[0] is c.LITERAL)  # type: ignore[attr-defined]
        excluded = re.compile("[" + re.escape(chars) + "]") if chars else None
        for char in "a!1 ":
            if excluded is None or not excluded.match(char):
                return char
        return "\x01"
    category = {
        c.CATEGORY_DIGIT: "1",  # type: ignore[attr-defined]
        c.CATEGORY_NOT_DIGIT: "a",  # type: ignore[attr-defined]
        c.CATEGORY_SPACE: " ",  # type: ignore[attr-defined]
        c.CATEGORY_NOT_SPACE: "a",  # type: ignore[attr-defined]
        c.CATEGORY_WORD: "a",  # type: ignore[attr-defined]
        c.CATEGORY_NOT_WORD: "!",  # type: ignore[attr-defined]
    }
    for op, arg in items:
        if op is c.LITERAL:  # type: ignore[attr-defined]
            return chr(arg)
        if op is c.RANGE:  # type: ignore[attr-defined]
            return chr(arg[0])
        if op is c.CATEGORY and arg in category:  # type: ignore[attr-defined]
            return category[arg]
    return "a"


def _prefixes(pattern: re.Pattern) -> list[str]:
    """Beginnings of a match of ``pattern`` (``_witness``), the empty one
    first, the longest kept."""
    from re import _parser  # type: ignore[attr-defined]

    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode()
    try:
        parsed = _parser.parse(source, pattern.flags & ~re.UNICODE & ~re.ASCII)
    except re.error:
        return [""]
    found = sorted({w for once in (False, True) for w in _witness(parsed, once) if w}, key=len)
    step = max(1, len(found) // 20)
    return ["", *found[::step][:20]]


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


def _time(pattern: re.Pattern, text: str | bytes, limit: float = 5.0) -> float:
    """The slowest of search, fullmatch and findall over ``text`` (the
    ``limit`` when one runs past it)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    worst = 0.0
    try:
        for run in (pattern.search, pattern.fullmatch, pattern.findall):
            signal.setitimer(signal.ITIMER_REAL, limit)
            start = time.perf_counter()
            try:
                run(text)
                took = time.perf_counter() - start
            except _Slow:
                took = limit
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            worst = max(worst, took)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return worst


def _text(pattern: re.Pattern, prefix: str, unit: str, size: int, suffix: str) -> str | bytes:
    text = prefix + unit * max(1, size // len(unit)) + suffix
    if isinstance(pattern.pattern, bytes):
        return text.encode("utf-8")
    return text


def test_every_pattern_is_found():
    # The collection is no formality: the readers' patterns are among them.
    names = {name for name, _ in PATTERNS}
    assert len(PATTERNS) > 40
    assert any(name.startswith("configdrift.extract.docs.markdown") for name in names)
    assert any(name.startswith("configdrift.rules.") for name in names)
    assert any(name.startswith("configdrift.edits.") for name in names)


def test_a_quadratic_pattern_is_caught():
    # The screen below finds what it is for: a nested repetition.
    hazard = re.compile(r"(?:\s*,\s*)*x")
    assert _worst(hazard)[0] > LIMIT


def _worst(pattern: re.Pattern) -> tuple[float, str]:
    grown: list[tuple[float, str, str, str]] = []
    for prefix in _prefixes(pattern):
        for unit in UNITS:
            for suffix in SUFFIXES:
                small = _time(pattern, _text(pattern, prefix, unit, SMALL, suffix), 1.0)
                large = _time(pattern, _text(pattern, prefix, unit, LARGE, suffix), 1.0)
                if large >= 1.0:
                    return large, f"{prefix!r} + {unit!r} * {LARGE} + {suffix!r}"
                grown.append((large - 4 * small, prefix, unit, suffix))
    grown.sort(reverse=True)
    worst, shown = 0.0, ""
    for _, prefix, unit, suffix in grown[:2]:
        whole = _text(pattern, prefix, unit, HUGE, suffix)
        took = _time(pattern, whole, CAP)
        if took <= LIMIT:
            continue
        # The least of three runs of each, taken in turn: a busy moment
        # slows one run, not the least of three.
        part = _text(pattern, prefix, unit, HUGE // 4, suffix)
        quarter = _time(pattern, part, CAP)
        for _ in range(REPEATS - 1):
            took = min(took, _time(pattern, whole, CAP))
            quarter = min(quarter, _time(pattern, part, CAP))
        if _fails(took, quarter) and took > worst:
            worst, shown = took, f"{prefix!r} + {unit!r} * {HUGE} + {suffix!r}"
    return worst, shown


def _fails(took: float, quarter: float) -> bool:
    """Whether a pattern that took ``took`` seconds on HUGE characters and
    ``quarter`` on a quarter of them is slow for its text, not the machine:
    a linear pattern slowed by a busy machine grows about four times from a
    quarter of the text to the whole, a quadratic one sixteen."""
    return took > LIMIT and (took >= CAP or took > GROWTH * quarter)


def test_a_slow_machine_does_not_fail_a_linear_pattern():
    assert not _fails(0.8, 0.2)
    assert not _fails(0.4, 0.01)
    assert _fails(0.8, 0.05)
    assert _fails(CAP, CAP)


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
def test_no_pattern_grows_faster_than_its_text(name, pattern):
    took, text = _worst(pattern)
    assert took <= LIMIT, f"{name} took {took:.2f} s on {text}, growing faster than the text"


def test_a_built_name_is_matched_by_its_parts_in_order_as_the_pattern_would():
    import itertools

    from configdrift.extract.python.facts import built_name_matches

    pieces = ("", "a", "b", "ab", "_")
    names = ["", "a", "b", "ab", "ba", "aab", "a_b", "_a_", "abab", "bab_"]
    for size in (1, 2, 3, 4):
        for parts in itertools.product(pieces, repeat=size):
            regex = re.compile(".*".join(re.escape(p) for p in parts))
            for name in names:
                assert built_name_matches(parts, name) == bool(regex.fullmatch(name)), (parts, name)


def test_a_name_built_from_many_holes_costs_linear_time():
    # getattr(cfg, f"{x}a{x}a...{x}b"): as a pattern ``.*a.*a...b`` its cost
    # grows as C(n, k); by its parts in order, with the length of the name.
    from configdrift.extract.python.facts import built_name_matches

    parts = ("", *["a"] * 12, "b")
    name = "a" * 200_000 + "c"
    start = time.perf_counter()
    assert not built_name_matches(parts, name)
    assert time.perf_counter() - start < LIMIT


def test_the_lines_of_many_matches_are_counted_once():
    # An example environment file of 200,000 assignments, and a file whose
    # one line quotes a name 200,000 times: counted from the start of the
    # file for each, they cost minutes.
    from configdrift.rules.examples import env_assignments

    data = b"".join(b"NAME_%d=1\n" % i for i in range(200_000))
    start = time.perf_counter()
    found = list(env_assignments(data))
    assert found[-1] == ("NAME_199999", 200_000) and found[0] == ("NAME_0", 1)
    assert time.perf_counter() - start < 10 * LIMIT


def test_a_name_quoted_many_times_on_its_declaration_line_is_read_in_linear_time(tmp_path):
    from types import SimpleNamespace

    from configdrift.rules.evidence import quoted_elsewhere

    (tmp_path / "a.py").write_bytes(b"X = 1\nKEYS = [" + b'"secret", ' * 100_000 + b"]\n")
    (tmp_path / "b.py").write_bytes(b'print("other")\nget("secret")\n')
    analysis = SimpleNamespace(config=SimpleNamespace(root=tmp_path))
    start = time.perf_counter()
    # Declared on line 2 of a.py: every capture there is the declaration;
    # the read in b.py is another place.
    assert quoted_elsewhere(analysis, ["a.py", "b.py"], {"secret": ("a.py", 2)}) == {"secret"}
    assert quoted_elsewhere(analysis, ["a.py"], {"secret": ("a.py", 2)}) == set()
    assert quoted_elsewhere(analysis, ["a.py"], {"secret": ("a.py", 1)}) == {"secret"}
    assert time.perf_counter() - start < 10 * LIMIT
