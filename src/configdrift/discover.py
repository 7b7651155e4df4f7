"""Which files are code and which are docs.

Git-aware: in a git work tree the tracked and untracked-but-not-ignored files
are used, so ``.gitignore`` is honoured; elsewhere the tree is walked without
following directory links (no symlink loops).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from configdrift.config import Config, ConfigError
from configdrift.files import exists
from configdrift.sources import Sources
from configdrift.sphinx_sources import SPHINX_TEXT, included_fragments, text_folders
from configdrift.wording import counted

#: Folders that hold no part of a project's own schema or docs (or others' code).
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        "env",
        "node_modules",
        "site-packages",
        "__pycache__",
        "build",
        "dist",
        "third_party",
        "vendor",
        "_vendor",
        "vendored",
        "_vendored",
        ".eggs",
    }
)
#: Of ``SKIP_DIRS``, the names a package of the project may take too
#: (``app/env/``, ``app/build/``): such a folder that holds an
#: ``__init__.py`` is the project's (a virtual environment or a build's
#: output holds none at its top).
PACKAGE_NAMES = frozenset({"env", "venv", "build", "dist"})
#: Of ``SKIP_DIRS``, the name a section of the docs may take too: a
#: ``docs/build/`` that holds pages at its top is their source (alembic's
#: Sphinx source, kedro's "build" chapter); a build's output holds folders
#: there (``html/``, ``doctrees/``).
DOC_SECTION_NAMES = frozenset({"build"})
DOCS_DIRS = frozenset({"docs", "doc"})  # the folders that hold a project's docs
#: Folders whose Python is not where a schema lives (their docs still count).
NON_SCHEMA_DIRS = frozenset(
    {
        "tests",
        "test",
        "testing",
        "docs",
        "doc",
        "examples",
        "example",
        "benchmarks",
        "bench",
        "scripts",
        "fixtures",
    }
)
DOC_SUFFIXES = (".md", ".markdown", ".mdx", ".qmd", ".rst")
#: Shell scripts: read for the command lines they run (``scripts``).
SHELL_SUFFIX = ".sh"
#: At most this many shell scripts are looked at.
MAX_SCRIPTS = 1000


#: Files that may be configs of the project, read when shaped like one.
CONFIG_SUFFIXES = (".json", ".yaml", ".yml")
#: Other files that may hold a package's defaults, read when its code names
#: one (``default_config.cfg``).
DATA_SUFFIXES = (".toml", ".cfg", ".ini")


#: The files that declare a Sphinx HTML theme's options.
#: A MkDocs theme's file of options.
MKDOCS_THEME = "mkdocs_theme.yml"
THEME_FILES = frozenset({"theme.conf", "theme.toml", MKDOCS_THEME})
#: What a theme's templates and scripts end with.
TEMPLATE_SUFFIXES = (".html", ".jinja", ".j2", ".js", ".xml", ".txt")
#: What a package's page templates end with.
PAGE_TEMPLATES = (".html", ".jinja", ".jinja2", ".j2")
#: At most this many themes, and templates of them all, are read.
MAX_THEMES = 20
MAX_TEMPLATES = 2000


#: The suffixes of every file a run may read: code, pages, config files,
#: data files. A ref's files are written for the same (``--diff-base``,
#: ``diff``), so that both sides are read alike.
READ_SUFFIXES = (".py", *DOC_SUFFIXES, *CONFIG_SUFFIXES, *DATA_SUFFIXES, SHELL_SUFFIX)


def may_read(rel: str) -> bool:
    """Is the file at ``rel`` of a kind a run reads (by its suffix, or an
    example environment file by its name)?"""
    name = rel.rsplit("/", 1)[-1]
    return rel.endswith(READ_SUFFIXES) or name in THEME_FILES or env_example(name.lower())


#: Words of a page's path that say it may be a configuration reference.
_REFERENCE_WORDS = re.compile(
    r"(?:^|[/_.-])(?:config\w*|settings?|options?|reference|env(?:vars?|ironment)?|cli|"
    r"parameters?|flags?|usage)(?:$|[/_.-])",
    re.IGNORECASE,
)


def looks_like_reference(page: str) -> bool:
    """Does the page's path, without its suffix, say it may be a
    configuration reference (``docs/configuration.md``, ``cli.rst``)?"""
    return _REFERENCE_WORDS.search(page.rsplit(".", 1)[0]) is not None


#: Pages of history (changelogs, release notes, a page of deprecations, the
#: docs of past releases a site keeps, Docusaurus's ``versioned_docs/``) and
#: the forge's own files: they name what once was, not what the docs
#: describe now.
HISTORY_PAGES = re.compile(
    r"(?i)(?:^|/)(?:\.github/|versioned_docs/|"
    r"(?:changelogs?|changes|history|news|releases?|release[-_]?notes|deprecations)(?:/|[^/]*$))"
)


def list_files(root: Path, unreadable: list[str] | None = None) -> list[str]:
    """Relative paths (with ``/``) of the files under ``root``; the folders
    that could not be listed go into ``unreadable`` (``docs/private/``)."""
    from configdrift.git import GitError, run, untracked_listing_safe

    said: list[str] = []
    names: list[str] | None = None
    try:
        # The tracked files first: the folders whose ignore files the
        # untracked ones' listing reads are checked before it runs.
        names = _names(run(root, "ls-files", "-z", "--cached", timeout=60))
        if not untracked_listing_safe(root, names):
            raise GitError("an ignore file git would stall on")
        others = run(
            root, "ls-files", "-z", "--others", "--exclude-standard", timeout=60, said=said
        )
        names += _names(others)
    except GitError:
        names = None
    if names is not None:
        if unreadable is not None:
            unreadable.extend(
                m.group(1) for line in said if (m := _GIT_UNREADABLE.search(line)) is not None
            )
        packages = {n[: -len("/__init__.py")] for n in names if n.endswith("/__init__.py")}
        packages.update(n.rsplit("/", 1)[0] for n in names if _docs_section_page(n))
        return sorted({n for n in names if not _skipped(n, packages)})
    out: list[str] = []
    # Folder by folder from a list, not by recursion: a tree of a thousand
    # nested folders is walked like any other.
    pending = [""]
    while pending:
        rel_dir = pending.pop()
        try:
            with os.scandir(os.path.join(root, rel_dir) if rel_dir else root) as scan:
                entries = list(scan)
        except OSError:
            if unreadable is not None:
                unreadable.append(rel_dir + "/" if rel_dir else "")
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                folder = entry.is_dir()
            except OSError:
                folder = False
            if folder:
                # A link to a folder is not followed (nor listed).
                named = not entry.name.startswith(".") and (
                    entry.name not in SKIP_DIRS
                    or (entry.name in PACKAGE_NAMES and exists(Path(entry.path, "__init__.py")))
                    or _docs_section(rel, entry.path)
                )
                if named and not entry.is_symlink():
                    pending.append(rel)
            else:
                out.append(rel)
    return sorted(out)


def _names(listing: bytes) -> list[str]:
    """The paths of a ``git ls-files -z`` listing."""
    return [n for n in listing.decode("utf-8", "surrogateescape").split("\0") if n]


#: How git says it could not list a folder (``ls-files --others``).
_GIT_UNREADABLE = re.compile(r"could not open directory '(.*)': ")


def unreadable_note(folders: list[str]) -> str | None:
    """What to say of the folders that could not be listed, if any."""
    if not folders:
        return None
    shown = ", ".join(sorted(folders)[:5]) + (", ..." if len(folders) > 5 else "")
    return (
        f"configdrift: {counted(len(folders), 'folder')} could not be read and were skipped: "
        f"{shown}"
    )


def _docs_section_page(rel: str) -> bool:
    """Is ``rel`` a page at the top of a docs folder's section named as a
    build's output (``docs/build/nodes.md``)?"""
    folder, _, name = rel.rpartition("/")
    return name.endswith(DOC_SUFFIXES) and _docs_section_folder(folder)


def _docs_section_folder(rel: str) -> bool:
    """Is ``rel`` a docs folder's section named as a build's output?"""
    parts = rel.split("/")
    return len(parts) >= 2 and parts[-1] in DOC_SECTION_NAMES and parts[-2] in DOCS_DIRS


def _docs_section(rel: str, path: str) -> bool:
    """Is the folder at ``rel`` such a section, with a page at its top?"""
    if not _docs_section_folder(rel):
        return False  # listed only then (never ``node_modules/``)
    try:
        with os.scandir(path) as scan:
            return any(e.name.endswith(DOC_SUFFIXES) for e in islice(scan, 10_000))
    except OSError:
        return False


def _skipped(rel: str, packages: set[str]) -> bool:
    """Does ``rel`` lie in a folder not read (``SKIP_DIRS``, but a package
    of the project or a docs section named as one, among ``packages``)?"""
    parts = rel.split("/")[:-1]
    return any(
        part in SKIP_DIRS
        and not (part in PACKAGE_NAMES | DOC_SECTION_NAMES and "/".join(parts[: i + 1]) in packages)
        for i, part in enumerate(parts)
    )


class Globs:
    """Paths matched against a list of globs, compiled once: a path matches
    a pattern it equals, lies under (a folder), or that its glob matches
    (``*`` crosses ``/``; ``**/``, as in ``.gitignore``, also matches no
    folder: ``docs/**/*.md`` matches ``docs/a.md``). Patterns
    without a wildcard are a set looked up for the path and each of its
    folders; the others are one regular expression, so a path costs one
    match whatever the number of globs (the configuration caps it,
    ``config.MAX_GLOBS``)."""

    __slots__ = ("literal", "pattern")

    def __init__(self, patterns: tuple[str, ...] | list[str]) -> None:
        self.literal: set[str] = set()
        wild: list[str] = []
        for pattern in patterns:
            pattern = pattern.rstrip("/")
            self.literal.add(pattern)
            if any(ch in pattern for ch in "*?["):
                wild += [fnmatch.translate(form) for form in _zero_folders(pattern)]
        self.pattern = re.compile("|".join(f"(?:{w})" for w in wild)) if wild else None

    def __call__(self, rel: str) -> bool:
        literal = self.literal
        if literal:
            if rel in literal:
                return True
            cut = rel.find("/")
            while cut >= 0:
                if rel[:cut] in literal:
                    return True
                cut = rel.find("/", cut + 1)
        return self.pattern is not None and self.pattern.match(rel) is not None


#: The ``**/`` of one pattern whose zero-folder forms are written out.
_MAX_ZERO_FOLDERS = 3


def _zero_folders(pattern: str) -> list[str]:
    """The pattern, and its forms where some ``**/`` (at the start or after
    a ``/``) matches no folder: the first ``_MAX_ZERO_FOLDERS`` of them;
    past those, ``*`` crossing ``/`` still matches one folder or more."""
    pieces = [""]
    tokens = 0
    at = 0
    while at < len(pattern):
        if (
            tokens < _MAX_ZERO_FOLDERS
            and pattern.startswith("**/", at)
            and (at == 0 or pattern[at - 1] == "/")
        ):
            pieces.append("")
            tokens += 1
            at += 3
        else:
            pieces[-1] += pattern[at]
            at += 1
    forms = [pieces[0]]
    for piece in pieces[1:]:
        forms = [form + joint + piece for form in forms for joint in ("**/", "")]
    return forms


@functools.lru_cache(maxsize=256)
def _globs(patterns: tuple[str, ...]) -> Globs:
    return Globs(patterns)


def matches(rel: str, patterns: tuple[str, ...]) -> bool:
    """Does ``rel`` match one of ``patterns`` (``Globs``)? For a few
    patterns; a long list is made into ``Globs`` once by its user."""
    return _globs(tuple(patterns))(rel)


#: Folders whose Python files are tests.
TEST_DIRS = frozenset({"test", "tests", "testing"})


def _in_test_dir(rel: str) -> bool:
    return any(p in TEST_DIRS for p in rel.split("/")[:-1])


#: Folders that hold examples of the project's use, each with its own page.
EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample"})


def _beside_example(rel: str) -> bool:
    """Is the page in an examples folder outside the docs (``examples/app/README.md``)?"""
    folders = rel.split("/")[:-1]
    return any(p in EXAMPLE_DIRS for p in folders) and not any(p in DOCS_DIRS for p in folders)


def _in_hidden_dir(rel: str) -> bool:
    """Is the page in a folder named with a dot (``.github/``, ``.runpod/``):
    a tool's or a deployment's, not the project's documentation?"""
    return any(p.startswith(".") for p in rel.split("/")[:-1])


def in_tests(rel: str) -> bool:
    """Is the file a test: in a test folder, or named as pytest finds
    tests (``test_*.py``, ``*_test.py``, ``conftest.py``)?"""
    return any(p in TEST_DIRS for p in rel.split("/")[:-1]) or _is_test_file(rel)


def _page_test(root: Path, files: list[str]) -> Callable[[str], bool]:
    """Is a file a doc page: by its suffix, or a ``.txt`` file under the
    folder of a Sphinx ``conf.py`` whose ``source_suffix`` names ``.txt``?"""
    folders = text_folders(root, files)

    def page(rel: str) -> bool:
        return rel.endswith(DOC_SUFFIXES) or (
            bool(folders) and rel.endswith(SPHINX_TEXT) and rel.startswith(folders)
        )

    return page


def _may_hold_schema(rel: str, packages: set[str]) -> bool:
    """May the Python file hold a schema: in none of ``NON_SCHEMA_DIRS``,
    or in one that is a subpackage of the project's (``piptools/scripts/``,
    a folder with an ``__init__.py`` inside a package: modules the package
    imports, not scripts beside it)? A test folder is never one."""
    folders = rel.split("/")[:-1]
    return all(
        name not in NON_SCHEMA_DIRS
        or (
            name not in TEST_DIRS
            and "/".join(folders[: i + 1]) in packages
            and "/".join(folders[:i]) in packages
        )
        for i, name in enumerate(folders)
    )


def _is_test_file(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def discover(config: Config) -> Sources:
    """Code and doc files to analyse, from the configuration or by convention."""
    root = config.root
    for pattern in (*config.code, *config.docs):
        if not any(ch in pattern for ch in "*?[") and not exists(root / pattern):
            raise ConfigError(f"configured path {pattern!r} does not exist under {root}")
    unreadable: list[str] = []
    excluded = Globs(config.exclude)
    files = [f for f in list_files(root, unreadable) if not excluded(f)]
    if config.code:
        coded = Globs(config.code)
        python = [f for f in files if f.endswith(".py") and coded(f)]
    else:
        initialised = {f.rsplit("/", 1)[0] for f in files if f.endswith("/__init__.py")}
        python = [
            f
            for f in files
            if f.endswith(".py") and _may_hold_schema(f, initialised) and not _is_test_file(f)
        ]
    missing: list[str] = []
    if config.docs:
        named = Globs(config.docs)
        page = _page_test(root, files)
        docs = [f for f in files if page(f) and named(f)]
        for pattern in config.docs:
            if not any(matches(f, (pattern,)) for f in docs):
                missing.append(pattern)
    else:
        # Pages under a test folder are test data (a fixture, a recorded
        # transcript), not the project's documentation; a page beside an
        # example outside the docs describes that example (its "defaults"
        # are the example's values), and counts for its example blocks.
        page = _page_test(root, files)
        docs = [
            f
            for f in files
            if page(f)
            and not _in_test_dir(f)
            and not _beside_example(f)
            and not HISTORY_PAGES.search(f)
            and not _in_hidden_dir(f)
        ]
    docs += [f for f in included_fragments(root, docs, files) if not HISTORY_PAGES.search(f)]
    declared_files = Globs(config.config_files)
    declared = [f for f in files if config.config_files and declared_files(f)]
    missing_configs = [
        p for p in config.config_files if not any(matches(f, (p,)) for f in declared)
    ]
    configs = [f for f in files if f.endswith(CONFIG_SUFFIXES) and f not in declared]
    taken = set(docs)
    # A changelog's blocks and entries tell what was, not what is.
    examples = [
        f
        for f in files
        if f.endswith(DOC_SUFFIXES)
        and f not in taken
        and not _in_test_dir(f)
        and (config.docs or not HISTORY_PAGES.search(f))
    ]
    code = set(python)
    py_examples = [f for f in files if f.endswith(".py") and f not in code]
    env_examples = [
        f for f in files if env_example(f.rsplit("/", 1)[-1].lower()) and not _in_test_dir(f)
    ]
    themes = [
        f for f in files if "/" in f and f.rsplit("/", 1)[1] in THEME_FILES and not _in_test_dir(f)
    ][:MAX_THEMES]
    folders = tuple(f.rsplit("/", 1)[0] + "/" for f in themes)
    templates = (
        [f for f in files if f.startswith(folders) and f.endswith(TEMPLATE_SUFFIXES)][
            :MAX_TEMPLATES
        ]
        if themes
        else []
    )
    # Templates inside the code's folders (a package's Jinja pages): they
    # read the keys of the contexts the code renders them with.
    packages = tuple({f.rsplit("/", 1)[0] + "/" for f in python if "/" in f})
    rendered = [
        f
        for f in files
        if f.startswith(packages) and f.endswith(PAGE_TEMPLATES) and not _in_test_dir(f)
    ][:MAX_TEMPLATES]
    return Sources(
        python,
        docs,
        bool(config.docs),
        missing,
        configs,
        examples,
        declared,
        missing_configs,
        py_examples,
        env_examples,
        sorted(set(unreadable)),
        [f for f in files if "/" in f and f.endswith(DATA_SUFFIXES) and not _in_test_dir(f)],
        themes,
        templates,
        rendered,
        [
            f
            for f in files
            if f.endswith(SHELL_SUFFIX) and not _in_test_dir(f) and not _in_hidden_dir(f)
        ][:MAX_SCRIPTS],
        _package_data(files, packages),
    )


def _package_data(files: list[str], packages: tuple[str, ...]) -> list[str]:
    """The files inside the code's top folders that are no Python: a
    package's templates (of any markup, a page's too), schemas and data
    (at most ``MAX_TEMPLATES``)."""
    tops: list[str] = []
    for folder in sorted(packages):
        if not tops or not folder.startswith(tops[-1]):
            tops.append(folder)  # the folders inside one follow it, sorted
    return [
        f
        for f in files
        if f.startswith(tuple(tops))
        and not f.endswith((".py", ".pyc", *_BINARY))
        and not _in_test_dir(f)
    ][:MAX_TEMPLATES]


#: What ends the name of a file of no words (images, fonts, archives).
_BINARY = (".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf", ".so", ".gz", ".zip")


#: What ends the name of an example environment file.
_ENV_ENDINGS = tuple(
    f"{sep}{word}" for word in ("example", "sample", "template", "dist") for sep in ".-"
)
_ENV_SEGMENT = re.compile(r"[\w-]+")


def env_example(name: str) -> bool:
    """Is ``name`` an example environment file: ``.env.example``,
    ``secrets.env.template``, ``.env.docker.sample``, ``example.env`` (never
    ``.env`` itself, which holds a deployment's secrets)? Before its ending,
    dot-separated words with ``env`` among them (the one before it may be
    empty: ``.env``). By its segments, so in time linear in the name."""
    if name in ("example.env", "sample.env"):
        return True
    return any(name.endswith(end) and _env_head(name[: -len(end)]) for end in _ENV_ENDINGS)


def _env_head(head: str) -> bool:
    parts = head.split(".")
    good = [_ENV_SEGMENT.fullmatch(p) is not None for p in parts]
    # before[i]: every part before i is a word; after[i]: every part after i.
    before, after = [True] * (len(parts) + 1), [True] * (len(parts) + 1)
    for i, ok in enumerate(good):
        before[i + 1] = before[i] and ok
    for i in range(len(parts) - 1, -1, -1):
        after[i] = after[i + 1] and good[i]
    for i, part in enumerate(parts):
        if part != "env" or not after[i + 1]:
            continue
        # The part just before ``env`` may be empty (``.env``, ``a..env``).
        if before[i] or (i > 0 and parts[i - 1] == "" and before[i - 1]):
            return True
    return False
