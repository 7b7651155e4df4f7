"""The fuzz suite's CI mode: seven hundred generated and mutated projects,
in chunks of a hundred (each a test, so that pytest-xdist spreads them),
each chunk in a process of its own under an address-space limit and a
bound on its peak memory (``tests/fuzzing.py`` says what each case must
satisfy; run it directly for the deep mode). ``CONFIGDRIFT_FUZZ_CASES``
and ``CONFIGDRIFT_FUZZ_FIRST`` choose other seeds."""

from __future__ import annotations

import os
import random

import fuzzing
import pytest

#: The cases of the CI mode, and how many a test runs.
CASES = 700
CHUNK = 100

_FIRST = int(os.environ.get("CONFIGDRIFT_FUZZ_FIRST", "0"))
_CASES = int(os.environ.get("CONFIGDRIFT_FUZZ_CASES", str(CASES)))
_CHUNKS = [
    range(start, min(start + CHUNK, _FIRST + _CASES))
    for start in range(_FIRST, _FIRST + _CASES, CHUNK)
]


@pytest.mark.slow
@pytest.mark.parametrize("seeds", _CHUNKS, ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_generated_projects_never_crash_hang_or_leak(seeds: range) -> None:
    assert fuzzing._chunk(seeds) == []


def test_the_generator_builds_what_it_claims() -> None:
    """The grammar covers each kind of input, and the mutations change the
    bytes (a fuzzer that generates nothing would pass everything)."""
    kinds: set[str] = set()
    for seed in range(200):
        files, _mutable = fuzzing.build(random.Random(seed))
        kinds.update(rel.rsplit(".", 1)[-1] for rel in files)
        assert "pyproject.toml" in files
    assert {"py", "md", "rst", "mdx", "toml"} <= kinds
    rng = random.Random(1)
    data = b'{"alpha": 1}\n'
    changed = {mutation(rng, data) != data for mutation in fuzzing.MUTATIONS}
    assert changed == {True}
    # The hostile extras appear among the CI mode's cases, ten times each.
    shares = (fuzzing.FORGED_SHARE, fuzzing.DENSE_SHARE, fuzzing.CACHE_SHARE, fuzzing.WRITE_SHARE)
    assert all(share * CASES >= 10 for share in shares)


#: Seeds the deep mode once failed on (a constant folded into gigabytes,
#: under the deep mode's memory limit): kept as regressions.
ONCE_FAILED = (101022, 114363, 126049, 198189, 321543, 337543, 353200, 368116, 374159)


@pytest.mark.slow
def test_seeds_that_once_failed() -> None:
    """Each in a process of its own under the deep mode's memory limit."""
    failures: list[str] = []
    for seed in ONCE_FAILED:
        failures += fuzzing._chunk(range(seed, seed + 1))
    assert failures == []
