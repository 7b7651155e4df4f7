"""Where the project reads or names a key: the evidence the rules on
reads weigh (CD102, CD201, CD202, CD302) before they say nothing reads it.

Attribute loads of the whole code, reads the schema resolved, and byte
searches of the other files (tests, scripts, pages) for a key's name.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from configdrift.discover import HISTORY_PAGES
from configdrift.extract.python.facts import ClassFact
from configdrift.files import read_or_none
from configdrift.index.spellings import WHOLE, alternation, normal
from configdrift.model import ConfigPath, Location, Related, SchemaNode, format_path

if TYPE_CHECKING:
    from configdrift.analysis import Analysis

T = TypeVar("T")


def once(analysis: Analysis, name: str, derive: Callable[[], T]) -> T:
    """``derive()``, computed once for every surface of the project."""
    derived = analysis.objects.derived
    if name not in derived:
        derived[name] = derive()
    return derived[name]  # type: ignore[return-value]


def code_files(analysis: Analysis) -> list[str]:
    """The project's code files (its modules' paths), in order, once."""
    return once(
        analysis,
        "code files",
        lambda: sorted({info.path for info in analysis.project.modules.values()}),
    )


def loaded_names(analysis: Analysis) -> set[str]:
    def derive() -> set[str]:
        names: set[str] = set()
        for info in analysis.project.modules.values():
            names.update(info.facts.attr_loads)
        return names

    return once(analysis, "loaded", derive)


def loader_pops(analysis: Analysis) -> frozenset[str]:
    """The keys some code takes out of a loaded file's data by name before
    handing it on (``cfg = yaml.safe_load(f)`` then ``cfg.pop("include")``):
    the loader's own directives, which no model receives."""

    def derive() -> frozenset[str]:
        return frozenset(
            str(read.source.keys[-1][1])
            for info in analysis.project.modules.values()
            for read in info.facts.dict_reads
            if read.how == "pop"
            and read.source.base == "<loaded>"
            and len(read.source.keys) == 1
            and read.source.keys[-1][0] == "c"
        )

    return once(analysis, "loader pops", derive)


def is_loaded(name: str, loaded: set[str]) -> bool:
    """Is the attribute ``name`` loaded anywhere, on ``self`` or elsewhere?"""
    return name in loaded or f"self.{name}" in loaded


def function_called(loaded: set[str], function: str) -> bool | None:
    """Is a method called anywhere? None for a module-level function, which
    is called by its bare name: that leaves no trace in attribute loads."""
    if "." not in function:
        return None
    return is_loaded(function.rsplit(".", 1)[-1], loaded)


def keys_read(analysis: Analysis) -> int:
    """How many accepted keys the code is seen to read: a dict lookup resolved
    to the key, or, for a model field, an attribute load or a ``getattr`` of
    its name (the evidence CD202 goes by)."""
    seen = read_test(analysis)
    return sum(1 for node in analysis.schema.walk() if node.location is not None and seen(node))


def read_test(analysis: Analysis) -> Callable[[SchemaNode], bool]:
    """Is an accepted key seen read (as ``keys_read`` counts it)?"""
    loaded = loaded_names(analysis)

    def seen(node: SchemaNode) -> bool:
        return (
            bool(node.reads)
            or node.model_kind == "env"  # a variable is known by its read
            or (node.origin.startswith(("field of", "option")) and is_loaded(node.key, loaded))
        )

    return seen


#: How much of the Python the code view leaves out (scripts, tests,
#: examples) is searched for the reads of candidate findings.
MAX_OTHER_FILES = 5000


MAX_OTHER_BYTES = 1024 * 1024


def named_in_files(analysis: Analysis, names: set[str]) -> set[str]:
    """Names that the repository's config files (compose files, YAML, TOML,
    JSON) spell as a whole word."""
    return _search(analysis, analysis.config_files, WHOLE % alternation(names), names)


def named_in_templates(analysis: Analysis, names: set[str]) -> set[str]:
    """Names that the templates inside the code's folders spell as a whole
    word (``{{ build_date_utc }}``): the keys of a context they read."""
    return _search(analysis, analysis.templates, WHOLE % alternation(names), names)


def spelt_anywhere(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` some file of the project spells as a whole word, in any
    case and with ``-`` or ``_`` (``SENTRY_DSN``, ``sentry_dsn``,
    ``sentry-dsn``): its code, its other Python files and its config files.
    Where one of them is not searched (too many, too large, unreadable),
    every name may be spelt there: all are returned."""
    variants = _variants(names)
    files = [*code_files(analysis), *analysis.other_python, *analysis.config_files]
    if not names or len(files) > MAX_OTHER_FILES:
        return set(names)
    if all(_WORD.fullmatch(v.encode()) for v in variants):
        # Names of word characters and ``-`` alone: each file's words
        # against them, a set's work, not one long alternation's.
        return _words_in(analysis, files, names, variants)
    compiled = re.compile(WHOLE % alternation(set(variants)))
    return _spelt_in(analysis, [(compiled, files)], names, variants)


#: A run of word characters and ``-``: what ``WHOLE`` bounds a name by.
_WORD = re.compile(rb"[\w-]++")


def _words_in(
    analysis: Analysis, files: list[str], names: set[str], variants: dict[str, set[str]]
) -> set[str]:
    """``_spelt_in`` for ``WHOLE`` names of words: the ``names`` some
    file spells as one of its words; all of them where a file is not read."""
    wanted = {v.encode(): spelt for v, spelt in variants.items()}
    found: set[str] = set()
    for rel in files:
        data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES)
        if data is None:
            return set(names)
        for word in wanted.keys() & set(_WORD.findall(data)):
            found.update(wanted[word])
        if found >= names:
            return found
    return found


def _variants(names: set[str]) -> dict[str, set[str]]:
    """Each spelling of ``names`` in any case and with ``-`` or ``_``, to
    the names it spells."""
    variants: dict[str, set[str]] = {}
    for name in names:
        for form in (name, name.lower(), name.upper()):
            for spelling in (form, form.replace("-", "_"), form.replace("_", "-")):
                variants.setdefault(spelling, set()).add(name)
    return variants


def named_as_key(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` some Python file of the project quotes whole
    (``"legacy"``: a dest, a name a parser builds a flag from) or some
    config file writes as a key (``legacy:``, ``legacy =``), in any case
    and with ``-`` or ``_``; a word in a comment, a URL or an identifier is
    no key. Where a file is not searched (too many, too large,
    unreadable), every name may be named there: all are returned."""
    variants = _variants(names)
    python = [*code_files(analysis), *analysis.other_python]
    configs = list(analysis.config_files)
    if not names or len(python) + len(configs) > MAX_OTHER_FILES:
        return set(names)
    spelt = alternation(set(variants))
    quoted = re.compile(rb"""["'](%b)["']""" % spelt)
    keyed = re.compile(rb"""(?:^|[\s{,"'])(%b)["']?[ \t]*[:=]""" % spelt, re.MULTILINE)
    return _spelt_in(analysis, [(quoted, python), (keyed, configs)], names, variants)


def _spelt_in(
    analysis: Analysis,
    searches: list[tuple[re.Pattern[bytes], list[str]]],
    names: set[str],
    variants: dict[str, set[str]],
) -> set[str]:
    """The ``names`` whose spellings (``variants``) each pattern's first
    group captures in its files, stopping once all are found; all of them
    where a file is not read (too large, unreadable)."""
    found: set[str] = set()
    for pattern, files in searches:
        for rel in files:
            data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES)
            if data is None:
                return set(names)
            found.update(n for m in pattern.finditer(data) for n in variants[m.group(1).decode()])
            if found >= names:
                return found
    return found


def quoted_in(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names spelt as a whole string literal (``"archive_toc"``) in ``files``."""
    return _search(analysis, files, rb"""["'](%b)["']""" % alternation(names), names)


def quoted_outside_calls(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names spelt as a whole string in ``files`` other than as a call's
    first argument (``{"skip": "APP_SKIP"}``, not ``label("APP_NAME")``:
    what a call does with it, the resolution of the call says)."""

    def first_argument(rel: str, data: bytes, at: int, name: str) -> bool:
        return data[max(0, at - 42) : at - 1].rstrip().endswith(b"(")

    pattern = rb"""["'](%b)["']""" % alternation(names)
    return _search(analysis, files, pattern, names, first_argument)


def quoted_as_prefix(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names spelt as a whole string in ``files`` other than as a settings
    class's ``env_prefix``, which reads its fields' variables alone
    (``k.startswith("APP_")``: the environment read by its prefix)."""

    def env_prefix(rel: str, data: bytes, at: int, name: str) -> bool:
        return _ENV_PREFIX.search(data[max(0, at - 42) : at - 1]) is not None

    return _search(analysis, files, rb"""["'](%b)["']""" % alternation(names), names, env_prefix)


#: What comes before a settings class's prefix (``env_prefix="APP_"``).
_ENV_PREFIX = re.compile(rb"""env_prefix["']?\s*[=:]\s*$""")


def attribute_loads(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names ``files`` load as an attribute (``project.s.PIPENV_MAX_DEPTH``,
    in comments too), never counting an assignment to it (``self.X = 1``)."""
    return _search(analysis, files, rb"\.(%b)\b(?!\s*=(?!=))" % alternation(names), names)


def quoted_as_path_end(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names spelt in ``files`` as a string, whole or as the last part of a
    dotted path (``"MODEL.RPN.ANCHOR_SIZES"``, a key path yacs's
    ``merge_from_list`` and renamed keys take)."""
    pattern = rb"""["'](?:[\w.]{0,200}\.)?(%b)["']""" % alternation(names)
    return _search(analysis, files, pattern, names)


def read_by_key(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names the code reads as a dict's keys in ``files``: ``d["name"]``,
    ``d.get("name")``, ``"name" in d`` (a field whose value may arrive
    through the dict a model is built from)."""
    spelt = alternation(names)
    pattern = (
        rb"""(?:\[\s*["'](%b)["']\s*\]|\.(?:get|setdefault)\(\s*["'](%b)["']|["'](%b)["']\s+in\b)"""
        % (spelt, spelt, spelt)
    )
    return _search(analysis, files, pattern, names)


def quoted_elsewhere(
    analysis: Analysis, files: list[str], declared: dict[str, tuple[str, int]]
) -> set[str]:
    """Keys spelt as a whole string literal in ``files`` other than where
    they are declared (``declared``: key -> path and line): a getter's read
    (``settings.get("SECRET")``, ``get_option("workers")``)."""

    # Where each file's lines start, found once a file (a capture's line is
    # then a bisection, not a count from the file's start).
    starts: dict[str, list[int]] = {}

    def declaration(rel: str, data: bytes, at: int, key: str) -> bool:
        if declared[key][0] != rel:
            return False
        if rel not in starts:
            starts[rel] = [m.start() for m in re.finditer(b"\n", data)]
        return declared[key][1] == bisect.bisect_left(starts[rel], at) + 1

    names = set(declared)
    return _search(analysis, files, rb"""["'](%b)["']""" % alternation(names), names, declaration)


def quoted_twice(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names spelt as a whole string literal in ``files`` twice at least: a
    name its declaration quotes once (``add_argument("--config", ...)``),
    on whatever line of the call, is quoted again where the code reads it."""
    passed: set[str] = set()

    def first(rel: str, data: bytes, at: int, name: str) -> bool:
        if name in passed:
            return False
        passed.add(name)
        return True

    return _search(analysis, files, rb"""["'](%b)["']""" % alternation(names), names, first)


def named_bare(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names ``files`` read as a bare name (a module's constant read in its
    module, or where it is imported: ``width = STATS_NAME_WIDTH - 4``); an
    assignment to it (``STATS_NAME_WIDTH = 80``, ``X: int = 1``) or a
    ``global`` statement is no read."""

    def written(rel: str, data: bytes, at: int, name: str) -> bool:
        newline = data.rfind(b"\n", max(0, at - _AFTER), at)
        if newline < 0 and at > _AFTER:
            return False  # deep in a long line: no statement of its own
        before = data[newline + 1 : at].strip()
        after = data[at + len(name) : at + len(name) + _AFTER]
        if before.split(maxsplit=1)[:1] in ([b"global"], [b"nonlocal"]):
            return True
        return not before and _ASSIGNED.match(after) is not None

    pattern = rb"""(?<![\w.'"])(%b)(?!\w)""" % alternation(names)
    return _search(analysis, files, pattern, names, written)


#: What follows a name that is assigned (``= 80``, ``: int = 1``); the
#: bytes looked at before and after it.
_ASSIGNED = re.compile(rb"[ \t]{0,40}+(?::[^=\n:]{0,200}+)?=(?!=)")
_AFTER = 240


def stored_in(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names ``files`` store as a key: ``env["APP_X"] = ...``, ``{"APP_X": ...}``
    (a variable set for a child process, a setting written out)."""
    spelt = alternation(names)
    pattern = rb"""\[\s*["'](%b)["']\s*\]\s*=(?!=)|["'](%b)["']\s*:(?!:)""" % (
        spelt,
        spelt,
    )
    return _search(analysis, files, pattern, names)


def named_in_pages(
    analysis: Analysis,
    names: set[str],
    spans: set[str] | None = None,
    pages: list[str] | None = None,
    where: dict[str, Location] | None = None,
) -> set[str]:
    """``names`` (``--flag``, ``APP_HOME``) that the doc and example pages
    (or ``pages``) spell whole, and ``spans`` they write as inline code
    (`` `name` ``), in one pass over the pages; a changelog's mention or an
    issue template's is no description, nor a role that links to it.
    ``where`` gets the first place of each."""
    if pages is None:
        pages = _described_pages(analysis)
    spans = spans or set()
    if not names and not spans:
        return set()
    patterns = []
    if names:
        patterns.append(WHOLE % alternation(names))
    if spans:
        # A role's target (``:setting:`name```, MyST's ``{confval}`name```)
        # links to a description; it describes nothing itself.
        patterns.append(rb"(?<![:}])`(%b)[`=: ]" % alternation(spans))
    return _search(analysis, pages, b"|".join(patterns), names | spans, where=where)


def _described_pages(analysis: Analysis) -> list[str]:
    """The doc and example pages but the history ones: a changelog's
    mention is no description."""
    return [p for p in analysis.pages if not HISTORY_PAGES.search(p)]


#: A family of flags written with a star (`` `--audio-*` ``): every flag
#: that begins so.
_FLAG_FAMILY = re.compile(rb"`(--[A-Za-z0-9][\w-]{0,60}-)\*`")


def flag_families(analysis: Analysis, flags: set[str]) -> set[str]:
    """The ``flags`` a page names as one of a family written with a star
    (`` `--audio-*` flags enable ...`` names ``--audio-ext``); a
    changelog's mention is no description."""

    def derive() -> set[str]:
        prefixes: set[str] = set()
        for _, data in bounded_files(analysis, _described_pages(analysis)):
            if b"-*`" in data:
                prefixes.update(m.group(1).decode() for m in _FLAG_FAMILY.finditer(data))
        return prefixes

    prefixes = once(analysis, "flag families", derive)
    return {flag for flag in flags if any(flag.startswith(p) for p in prefixes)}


def words_in_pages(analysis: Analysis, names: set[str]) -> set[str]:
    """The ``names`` the doc and example pages spell as words of their own
    (``method='GET'``, ``:param flags:``), not as another object's
    attribute (``nox.options.name``); a changelog's are no description."""
    pattern = rb"(?<![\w.-])(%b)(?![\w-])" % alternation(names)
    return _search(analysis, _described_pages(analysis), pattern, names)


def given_to(analysis: Analysis, programs: set[str], flags: set[str]) -> set[str]:
    """The ``flags`` a line of the doc and example pages gives one of
    ``programs`` (``$ yamllint -c my.yaml``), after the program's name on
    that line; a changelog's is no description."""
    if not programs or not flags:
        return set()
    program = re.compile(rb"(?<![\w./-])(?:%b)(?![\w-])" % alternation(programs))
    flag = re.compile(WHOLE % alternation(flags))
    found: set[str] = set()
    for _, data in bounded_files(analysis, _described_pages(analysis)):
        for run in program.finditer(data):
            end = data.find(b"\n", run.end())
            rest = data[run.end() : end if end >= 0 else len(data)]
            found.update(m.group(1).decode() for m in flag.finditer(rest))
    return found


def read_elsewhere(analysis: Analysis, names: set[str]) -> set[str]:
    """Names read as attributes (``.name``) or by name (``getattr(x,
    "name")``, ``getini("name")``, ``config["name"]``) in Python files
    outside the code view. A name quoted in a list or as a dict display's
    key (a test's table of settings, a dict it writes) is no read."""
    spelt = alternation(names)
    pattern = rb"""(?:\.\s*(%b)\b|(?:[(\[]|getattr\([^(),\n]{1,80},)[ \t]*["'](%b)["'])""" % (
        spelt,
        spelt,
    )
    return _search(analysis, analysis.other_python, pattern, names)


def config_attributes(
    analysis: Analysis, files: list[str], names: set[str], where: dict[str, Location]
) -> set[str]:
    """Names ``files`` spell as attributes of a configuration object
    (``app.config.foo_color``, ``env.config.foo_color``), with the place
    of each first in ``where``."""
    pattern = rb"(?<!\w)config\.(%b)\b" % alternation(names)
    return _search(analysis, files, pattern, names, where=where)


def config_assigned(analysis: Analysis, files: list[str], names: set[str]) -> set[str]:
    """Names ``files`` assign as attributes of a configuration object
    (``app.config.foo_color = "blue"``)."""
    pattern = rb"(?<!\w)config\.(%b)\s*+=[^=]" % alternation(names)
    return _search(analysis, files, pattern, names)


def bounded_files(analysis: Analysis, files: list[str]) -> Iterator[tuple[str, bytes]]:
    """The bytes of ``files``, the first ``MAX_OTHER_FILES`` of them and
    ``MAX_OTHER_BYTES`` of each, skipping what is not the tree's own
    regular file (a link may lead out of it)."""
    for rel in files[:MAX_OTHER_FILES]:
        data = read_or_none(analysis.config.root, rel, MAX_OTHER_BYTES)
        if data is not None:
            yield rel, data


def _search(
    analysis: Analysis,
    files: list[str],
    pattern: bytes,
    names: set[str],
    skip: Callable[[str, bytes, int, str], bool] | None = None,
    where: dict[str, Location] | None = None,
) -> set[str]:
    """The ``names`` that ``pattern``'s groups capture in ``files`` (bounded
    in count and size), stopping once all are found; a capture ``skip``
    (file, its bytes, the capture's offset, the name) refuses is not one.
    ``where`` gets the place of each name's first capture."""
    if not names:
        return set()
    compiled = re.compile(pattern)
    found: set[str] = set()
    for rel, data in bounded_files(analysis, files):
        for match in compiled.finditer(data):
            for index, group in enumerate(match.groups(), 1):
                if not group:
                    continue
                name = group.decode()
                if name not in found and (
                    skip is None or not skip(rel, data, match.start(index), name)
                ):
                    found.add(name)
                    if where is not None:
                        line = data.count(b"\n", 0, match.start(index)) + 1
                        where[name] = Location(rel, line)
        if found >= names:
            break
    return found


def mixable(analysis: Analysis, parent: SchemaNode, key: str) -> bool:
    """Is ``key``, which the pydantic model ``parent`` lacks, a field of
    another pydantic model of the project that the configuration's tree
    does not hold? Such a model may be mixed into it at run time (a
    plugin's arguments joined to the base class): what it declares may be
    accepted, and is not said to be ignored."""
    if parent.model_kind != "pydantic":
        return False
    from configdrift.analysis import fields_beside

    return key in once(
        analysis,
        f"mixable fields of {id(analysis.schema)}",
        lambda: fields_beside(analysis.code, analysis.schema),
    )


def handled_by_model(analysis: Analysis, parent: SchemaNode, key: str) -> bool:
    """Does the module that declares the model ``parent`` quote ``key``
    (``config_dict.pop("dynamo_backend")`` in its loader)? The model's own
    code takes it by name before its fields see it."""
    where = parent.model_location
    return where is not None and bool(quoted_in(analysis, [where.path], {key}))


def class_attribute(analysis: Analysis, parent: SchemaNode, key: str) -> bool:
    """Is ``key``, which the dataclass or attrs model ``parent`` lacks as a
    field, a public class attribute of it (an unannotated ``dataset =
    "samsum"``)? A loader that sets attributes (``setattr`` where
    ``hasattr``) sets it, and the code reads it."""
    if parent.model_kind not in ("dataclass", "attrs") or key[:1] == "_":
        return False
    found = model_class(analysis, parent)
    return found is not None and key in found[1].assigns


def model_class(analysis: Analysis, model: SchemaNode) -> tuple[str, ClassFact] | None:
    """The module and the class of the model ``model`` holds, found by the
    file it is declared in."""
    if model.model is None or model.model_location is None:
        return None
    for module, info in analysis.project.modules.items():
        cls = info.classes.get(model.model) if info.path == model.model_location.path else None
        if cls is not None:
            return module, cls
    return None


def unknown_under(analysis: Analysis, path: ConfigPath) -> str | None:
    """Why keys under ``path`` may be read unseen, if they may."""
    for prefix, location, what in analysis.unknown_reads:
        if path[: len(prefix)] == prefix:
            return f"{location}: {what}"
    return None


def reader(node: SchemaNode) -> str:
    """Who reads the keys of a lenient node."""
    if node.model_kind in ("env", "setting"):
        return "the code"
    return f"{node.model} (extra keys ignored)" if node.model else "the code"


def read_note(node: SchemaNode) -> tuple[Related, ...]:
    """Where the section's keys are declared or read: the other side."""
    if node.model_location is not None:
        note = {
            "env": "the code reads environment variables here",
            "setting": "the code reads settings by name here",
        }.get(node.model_kind or "", f"{node.model} declares the keys it reads")
        return (Related(node.model_location.path, node.model_location.line, note),)
    if node.location is not None and node.origin.startswith("the config dict"):
        note = f"{node.origin} is read key by key"
        return (Related(node.location.path, node.location.line, note),)
    for child in node.children.values():
        if child.reads:
            site = child.reads[0]
            note = f"`{format_path(child.path)}` is read here"
            return (Related(site.location.path, site.location.line, note),)
    return ()


def every_spelling(analysis: Analysis) -> frozenset[str]:
    """Every key of every configuration, at any depth, each spelling (its
    key where it has none) as ``normal`` spells it; once per analysis."""
    everything = (analysis.first or analysis).everything
    return once(
        analysis,
        "every spelling",
        lambda: frozenset(
            normal(s)
            for other in everything
            for node in other.schema.walk()
            for s in (node.spellings or (node.key,))
            if isinstance(s, str)
        ),
    )
