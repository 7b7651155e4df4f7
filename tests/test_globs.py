"""The globs of the configuration (``exclude``, ``code``, ``docs``...):
compiled once into one matcher with the meaning they always had, and
capped in number, so that a configuration a pull request writes cannot
make a run take minutes."""

from __future__ import annotations

import fnmatch
import itertools

import pytest

from configdrift.config import MAX_GLOBS
from configdrift.discover import Globs
from helpers import make_project, mounted_config


def _one_by_one(rel: str, patterns: tuple[str, ...]) -> bool:
    """What a path matching a list of globs means, pattern by pattern."""
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatch(rel, pattern) or rel.startswith(pattern + "/") or rel == pattern:
            return True
        if pattern.startswith("**/") and fnmatch.fnmatch(rel, pattern[3:]):
            return True
    return False


PATTERNS = [
    "docs",
    "docs/",
    "build/*",
    "*.md",
    "**/test_*.py",
    "pkg/[ab]*.py",
    "src/?/x.py",
    "a*b",
    "weird[",
    "*",
]
PATHS = [
    "docs/index.md",
    "docsite/index.md",
    "build/lib/x.py",
    "README.md",
    "pkg/tests/test_a.py",
    "test_a.py",
    "pkg/alpha.py",
    "pkg/gamma.py",
    "src/a/x.py",
    "src/ab/x.py",
    "a/b",
    "weird[",
    "weird[/inner.txt",
]


@pytest.mark.parametrize("size", [1, 2, 3])
def test_one_matcher_means_what_the_patterns_mean_one_by_one(size):
    for chosen in itertools.combinations(PATTERNS, size):
        matcher = Globs(chosen)
        for rel in PATHS:
            assert matcher(rel) == _one_by_one(rel, chosen), (chosen, rel)


@pytest.mark.parametrize(
    ("pattern", "path", "matched"),
    [
        # ``**/``, as in ``.gitignore``, matches no folder too: anywhere.
        ("docs/**/*.md", "docs/a.md", True),
        ("docs/**/*.md", "docs/x/y/a.md", True),
        ("**/*.md", "a.md", True),
        ("a/**/b/**/c.md", "a/b/c.md", True),
        ("a/**/b/**/c.md", "a/x/b/y/c.md", True),
        ("a/**/b/**/c.md", "a/c.md", False),
        ("docs/**/*.md", "docsa.md", False),  # the folder's ``/`` stays
        ("x**/y", "xy", False),  # not a ``**/`` of its own
    ],
)
def test_double_star_slash_matches_zero_folders_or_more(pattern, path, matched):
    assert Globs((pattern,))(path) is matched


def test_a_folder_matches_its_files_but_not_a_sibling_sharing_its_name_start():
    matcher = Globs(("docs",))
    assert matcher("docs/a/b.md")
    assert not matcher("docs-old/a.md")
    assert not Globs(())("anything")


def test_a_configuration_with_too_many_globs_is_refused_at_once(cli, tmp_path):
    globs = "".join(f'  "dir{i}/*.py",\n' for i in range(200_000))
    root = make_project(tmp_path, mounted_config())
    (root / "configdrift.toml").write_text(
        "exclude = [\n" + globs + ']\n\n[mount]\n"" = "pkg.config:Config"\n'
    )
    result = cli("check", str(root), "--no-cache")
    assert result.code == 2
    assert f"holds 200,000 entries, more than the {MAX_GLOBS:,}" in result.err


def test_as_many_globs_as_allowed_still_exclude(cli, tmp_path):
    globs = "".join(f'  "gen{i}/*.md",\n' for i in range(MAX_GLOBS - 1))
    root = make_project(
        tmp_path,
        {
            **mounted_config(),
            "docs/config.md": "# Config\n\n## `alpha`\n\nThe a.\n\n## `omega`\n\nGone.\n",
        },
    )
    (root / "configdrift.toml").write_text(
        "exclude = [\n" + globs + '  "docs/*.md",\n]\n\n[mount]\n"" = "pkg.config:Config"\n'
    )
    result = cli("check", str(root), "--no-cache", "--format", "json")
    assert result.code in (0, 1), result.err
    assert "docs/config.md" not in result.out
