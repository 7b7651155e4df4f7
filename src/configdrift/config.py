"""``[tool.configdrift]`` (pyproject.toml) or ``configdrift.toml``: schema and loading.

Unknown keys and values of the wrong type are errors. Types are compared with
``type()`` rather than ``isinstance`` because ``bool`` is an ``int``: a
``fail-on = 1`` must not pass as a string check would, nor ``cache = 1`` as a
bool.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from configdrift.files import Unreadable, is_file, read_path, unreadable_dir
from configdrift.wording import suggestion

FAIL_ON_CHOICES = ("error", "warning", "info", "never")
SEVERITIES = ("error", "warning", "info")

#: Every option, its type and its default. docs/configuration.md documents each one.
DEFAULTS: dict[str, Any] = {
    "docs": [],
    "code": [],
    "exclude": [],
    "select": [],
    "ignore": [],
    "extend-select": [],
    "extend-ignore": [],
    "severity": {},
    "allow-undocumented": {},
    "fail-on": "error",
    "mount": {},
    "surfaces": {},
    "discover": True,
    "registrations": {},
    "sections": {},
    "config-files": [],
    "removed": {},
    "deprecated": {},
    "per-file-ignores": {},
    "removed-registries": ["*REMOVED*KEYS*"],
    "deprecated-registries": ["*DEPRECATED*KEYS*"],
}
#: Options whose table values may be a string or a table of strings.
_LIFECYCLE_TABLES = ("removed", "deprecated")
_LIFECYCLE_FIELDS = frozenset({"reason", "version", "replacement"})


class ConfigError(Exception):
    """The configuration is invalid; the CLI exits with status 2."""


@dataclass(frozen=True, slots=True)
class Config:
    """Resolved options. ``source`` is the file they came from, if any."""

    root: Path
    docs: tuple[str, ...] = ()
    code: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: Code prefix -> the severity its findings are reported at.
    severity: dict[str, str] = field(default_factory=dict)
    #: Surface name (``*`` for all) -> globs of keys that may go
    #: undocumented (internal by design): no CD103 for them.
    allow_undocumented: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fail_on: str = "error"
    mount: dict[str, str] = field(default_factory=dict)
    #: Mounts that say whether unknown keys under them are an error: mount
    #: path (``""`` for the root) -> ``open`` (true: silently ignored;
    #: false: rejected). Where absent, the mechanism decides.
    open_mounts: dict[str, bool] = field(default_factory=dict)
    #: The same of named surfaces: surface name -> ``open``.
    open_surfaces: dict[str, bool] = field(default_factory=dict)
    #: Named surfaces whose keys the docs write under a config path
    #: (``tool.mytool``, ``extractor.*``): surface name -> that path.
    under: dict[str, str] = field(default_factory=dict)
    #: Configured surfaces beside the root's: name -> (what it is, the doc
    #: pages that document it). What it is: ``module:Model``, a module-level
    #: dict of options, ``cli``, ``registered``, ``env``, ``settings``, or
    #: ``discovered`` (the surface discovery finds under that name).
    surfaces: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    #: Does discovery look for the surfaces ``surfaces`` does not name?
    discover: bool = True
    #: The project's own calls that declare a key: callable name -> (the
    #: key's argument, the default's), each a position or a keyword.
    registrations: dict[str, tuple[int | str, int | str]] = field(default_factory=dict)
    #: Doc section (``page#Title``, ``page#Parent/Child``, or the title)
    #: -> the config path it documents.
    sections: dict[str, str] = field(default_factory=dict)
    #: The ``sections`` entries that name a surface of ``surfaces``: the
    #: section documents that surface, at its path, and no other.
    section_surfaces: dict[str, str] = field(default_factory=dict)
    config_files: tuple[str, ...] = ()
    #: Keys the project removed or deprecated: key -> reason, or a table with
    #: ``reason``, ``version`` and ``replacement``.
    removed: dict[str, str | dict[str, str]] = field(default_factory=dict)
    deprecated: dict[str, str | dict[str, str]] = field(default_factory=dict)
    #: Code prefixes ignored in the files a glob matches.
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    removed_registries: tuple[str, ...] = ("*REMOVED*KEYS*",)
    deprecated_registries: tuple[str, ...] = ("*DEPRECATED*KEYS*",)
    source: Path | None = None

    def sections_of(self, surface: str | None) -> dict[str, str]:
        """The ``sections`` entries of one named surface (``None``: the
        first surface's, those that name none)."""
        return {
            key: path
            for key, path in self.sections.items()
            if self.section_surfaces.get(key) == surface
        }

    def sections_elsewhere(self, surface: str | None) -> frozenset[str]:
        """The sections the configuration gives to a surface other than
        ``surface``: not placed on it."""
        return frozenset(k for k, s in self.section_surfaces.items() if s != surface)

    @property
    def source_rel(self) -> str | None:
        """The configuration file, relative to the root, if it is under it."""
        if self.source is None:
            return None
        try:
            return self.source.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def with_overrides(self, **overrides: Any) -> Config:
        """Options the user typed on the command line win over the file;
        ``extend_select`` and ``extend_ignore`` add to what is in force."""
        extend_select = overrides.pop("extend_select", None) or ()
        extend_ignore = overrides.pop("extend_ignore", None) or ()
        given = {k: v for k, v in overrides.items() if v is not None}
        config = replace(self, **given)
        return replace(
            config,
            select=extended(config.select, tuple(extend_select)),
            ignore=(*config.ignore, *extend_ignore),
        )


def extended(select: tuple[str, ...], extend: tuple[str, ...]) -> tuple[str, ...]:
    """``select`` with ``extend`` added. An empty selection is every rule:
    extended, it keeps every rule (the empty prefix) and the added ones
    win over a shorter ``ignore`` (``ignore = ["CD1"]`` with
    ``extend-select = ["CD103"]`` runs CD103 alone of the CD1 rules)."""
    if not extend:
        return select
    return (*(select or ("",)), *extend)


#: The most entries a list or table of the configuration may hold: each
#: glob of ``exclude`` is matched against every file, and a pull request
#: can write the configuration (past this, a run would take minutes).
MAX_GLOBS = 1_000


def _check(name: str, value: Any, where: Path) -> None:
    default = DEFAULTS[name]
    if type(value) is not type(default):
        raise ConfigError(
            f"{where}: `{name}` must be a {type(default).__name__}, not {type(value).__name__}"
        )
    sizes = [len(value)] if isinstance(value, list | dict) else []
    if isinstance(value, dict):
        sizes += [len(v) for v in value.values() if isinstance(v, list | dict)]
    if sizes and max(sizes) > MAX_GLOBS:
        raise ConfigError(
            f"{where}: `{name}` holds {max(sizes):,} entries, more than the {MAX_GLOBS:,} "
            "a configuration may hold"
        )
    if isinstance(value, list) and any(type(v) is not str for v in value):
        raise ConfigError(f"{where}: `{name}` must be a list of strings")
    if name in _LIFECYCLE_TABLES:
        for key, entry in value.items():
            if type(entry) is str:
                continue
            if type(entry) is not dict or any(
                k not in _LIFECYCLE_FIELDS or type(v) is not str for k, v in entry.items()
            ):
                raise ConfigError(
                    f"{where}: `{name}.{key}` must be a reason, or a table of "
                    f"{', '.join(sorted(_LIFECYCLE_FIELDS))} strings"
                )
    elif name == "surfaces":
        for key, entry in value.items():
            _surface(key, entry, where)
    elif name == "mount":
        for key, entry in value.items():
            _mount(key, entry, where)
    elif name == "sections":
        for key, entry in value.items():
            _section(key, entry, where)
    elif name == "registrations":
        for key, entry in value.items():
            _registration(key, entry, where)
    elif name in ("per-file-ignores", "allow-undocumented"):
        what = "codes" if name == "per-file-ignores" else "key globs"
        for glob, codes in value.items():
            if type(codes) is not list or any(type(c) is not str for c in codes):
                raise ConfigError(f"{where}: `{name}.{glob}` must be a list of {what}")
    elif name == "severity":
        for code, level in value.items():
            if level not in SEVERITIES:
                raise ConfigError(
                    f"{where}: `severity.{code}` must be one of {', '.join(SEVERITIES)}"
                )
    elif isinstance(value, dict) and any(type(v) is not str for v in value.values()):
        raise ConfigError(f"{where}: every value of `{name}` must be a string")
    if name == "fail-on" and value not in FAIL_ON_CHOICES:
        raise ConfigError(f"{where}: `fail-on` must be one of {', '.join(FAIL_ON_CHOICES)}")


#: What a surface can be besides a model or a dict of options.
SURFACE_KINDS = ("cli", "registered", "env", "settings", "discovered")


def _section(key: str, entry: Any, where: Path) -> tuple[str, str | None]:
    """A ``sections`` entry: ``"page#Title" = "config.path"``, or a table
    with ``surface`` (a name of ``surfaces``) and ``path``."""
    if type(entry) is str:
        return entry, None
    if (
        type(entry) is not dict
        or set(entry) - {"surface", "path"}
        or type(entry.get("surface")) is not str
        or type(entry.get("path", "")) is not str
    ):
        raise ConfigError(
            f"{where}: `sections.{key}` must be a config path, or a table of `surface` "
            "(a name of `surfaces`) and `path`"
        )
    return entry.get("path", ""), entry["surface"]


def _mount(path: str, entry: Any, where: Path) -> tuple[str, bool | None]:
    """A ``mount`` entry: ``path = "module:Class"``, or a table with
    ``target`` and ``open``."""
    if type(entry) is str:
        entry = {"target": entry}
    if type(entry) is not dict or set(entry) - {"target", "open"} or "target" not in entry:
        raise ConfigError(
            f"{where}: mount {path!r} must be a target or a table of `target` and `open`"
        )
    target, open_ = entry["target"], entry.get("open")
    if type(target) is not str or ":" not in target:
        raise ConfigError(f"{where}: mount {path!r} must name a model as 'package.module:Class'")
    if open_ is not None and type(open_) is not bool:
        raise ConfigError(f"{where}: mount {path!r}: `open` must be true or false")
    return target, open_


def _surface(name: str, entry: Any, where: Path) -> tuple[str, tuple[str, ...]]:
    """A ``surfaces`` entry: ``name = "module:Model"`` (or ``"cli"``,
    ``"registered"``, ``"env"``, ``"settings"``, ``"discovered"``), or a
    table with ``mount``, ``docs``, ``open`` and ``under``."""
    if type(entry) is str:
        entry = {"mount": entry}
    if (
        type(entry) is not dict
        or set(entry) - {"mount", "docs", "open", "under"}
        or "mount" not in entry
    ):
        raise ConfigError(
            f"{where}: `surfaces.{name}` must be a target or a table of `mount`, `docs`, "
            "`open` and `under`"
        )
    if type(entry.get("open", False)) is not bool:
        raise ConfigError(f"{where}: `surfaces.{name}.open` must be true or false")
    under = entry.get("under", "")
    if type(under) is not str or (under and not all(under.split("."))):
        raise ConfigError(
            f"{where}: `surfaces.{name}.under` must be a config path (`tool.mytool`, `extractor.*`)"
        )
    if under and entry["mount"] in SURFACE_KINDS and entry["mount"] != "discovered":
        raise ConfigError(
            f"{where}: `surfaces.{name}.under`: a {entry['mount']} surface sits under no "
            "config path"
        )
    target, docs = entry["mount"], entry.get("docs", [])
    if type(target) is not str or (":" not in target and target not in SURFACE_KINDS):
        raise ConfigError(
            f"{where}: `surfaces.{name}.mount` must be 'package.module:Name', "
            f"{' or '.join(repr(k) for k in SURFACE_KINDS)}"
        )
    if type(docs) is not list or any(type(d) is not str for d in docs):
        raise ConfigError(f"{where}: `surfaces.{name}.docs` must be a list of strings")
    return target, tuple(docs)


def _registration(name: str, entry: Any, where: Path) -> tuple[int | str, int | str]:
    """A ``registrations`` entry: ``name = {key = 0, default = "default"}``
    (positions or keywords; the key defaults to the first argument and the
    default to ``default=``)."""
    if (
        type(entry) is not dict
        or set(entry) - {"key", "default"}
        or any(type(v) not in (int, str) for v in entry.values())
    ):
        raise ConfigError(
            f"{where}: `registrations.{name}` must be a table of `key` and `default`, "
            "each an argument position or a keyword"
        )
    if not name.replace(".", "").replace("_", "").isalnum():
        raise ConfigError(f"{where}: `registrations.{name}` must name a callable")
    return entry.get("key", 0), entry.get("default", "default")


def parse_table(table: dict[str, Any], where: Path) -> dict[str, Any]:
    """Validate a ``[tool.configdrift]`` table and return it with defaults."""
    unknown = sorted(set(table) - set(DEFAULTS))
    if unknown:
        known = ", ".join(sorted(DEFAULTS))
        hint = suggestion(unknown[0], DEFAULTS) if len(unknown) == 1 else ""
        raise ConfigError(f"{where}: unknown option(s) {', '.join(unknown)}{hint} (known: {known})")
    out = dict(DEFAULTS)
    for name, value in table.items():
        _check(name, value, where)
        out[name] = value
    for key, entry in out["sections"].items():
        surface = _section(key, entry, where)[1]
        if surface is not None and surface not in out["surfaces"]:
            hint = suggestion(surface, out["surfaces"])
            raise ConfigError(
                f"{where}: `sections.{key}` names the surface {surface!r}{hint}, which "
                '`surfaces` does not name (name it there, with `mount = "discovered"` for '
                "one discovery finds)"
            )
    return out


#: The largest configuration file read.
MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024


def _read_toml(path: Path, roots: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The TOML of a configuration file; a file that lies in one of
    ``roots`` must resolve inside it (a link out of the project is never
    read, obeyed or printed)."""
    try:
        data = read_path(path, MAX_CONFIG_FILE_BYTES, roots)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except Unreadable as exc:
        raise ConfigError(f"{path}: {exc}") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except (RecursionError, MemoryError):
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    except ValueError as exc:  # a number of thousands of digits
        raise ConfigError(f"{path}: invalid TOML: {str(exc).split(':')[0]}") from None


def _our_table(data: dict[str, Any], path: Path, pyproject: bool) -> dict[str, Any] | None:
    """``[tool.configdrift]`` of a pyproject.toml (or a configdrift.toml's
    own table): a table, or a configuration error for any other shape."""
    table: Any = data
    if pyproject or ("tool" in data and path.name == "configdrift.toml"):
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            if pyproject:
                raise ConfigError(f"{path}: `tool` must be a table")
            return data
        if "configdrift" not in tool:
            return None if pyproject else data
        table = tool["configdrift"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `[tool.configdrift]` must be a table, not {_kind(table)}")
    return table


def toml_key(name: str) -> str:
    """``name`` as a TOML key: bare when it can be, quoted otherwise."""
    import json
    import re

    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def _kind(value: Any) -> str:
    return "an array of tables" if isinstance(value, list) else f"a {type(value).__name__}"


def find_config(start: Path) -> Path | None:
    """``configdrift.toml`` or pyproject.toml with our table, walking up.

    The walk stops at the first pyproject.toml, with or without our table:
    that directory is the project's root, and a parent project's options do
    not apply to it.
    """
    for directory in (start, *start.parents):
        own = directory / "configdrift.toml"
        if is_file(own):
            return own
        pyproject = directory / "pyproject.toml"
        if is_file(pyproject):
            data = _read_toml(pyproject, (directory,))
            return pyproject if _our_table(data, pyproject, True) is not None else None
    return None


def load(path: Path, explicit: Path | None = None) -> Config:
    """Options for analysing ``path``; ``explicit`` is a ``--config`` file."""
    problem = unreadable_dir(path)
    if problem is not None:
        raise ConfigError(f"{path}: {problem}")
    source = explicit if explicit is not None else find_config(path.resolve())
    if source is None:
        return Config(root=path)
    if not is_file(source):
        raise ConfigError(f"{source}: no such file")
    # A configuration found by walking up defines its own folder as the
    # root; one named with --config is read as named, unless it lies in
    # the checked tree.
    data = _read_toml(source, (source.parent if explicit is None else path,))
    table = _our_table(data, source, source.name == "pyproject.toml") or {}
    values = parse_table(table, source)
    root = source.parent if explicit is None else path
    mounts = {k: _mount(k, v, source) for k, v in values["mount"].items()}
    sections = {k: _section(k, v, source) for k, v in values["sections"].items()}
    tables = {k: v for k, v in values["surfaces"].items() if type(v) is dict}
    return Config(
        root=root,
        docs=tuple(values["docs"]),
        code=tuple(values["code"]),
        exclude=tuple(values["exclude"]),
        select=extended(tuple(values["select"]), tuple(values["extend-select"])),
        ignore=(*values["ignore"], *values["extend-ignore"]),
        severity={k.upper(): v for k, v in values["severity"].items()},
        allow_undocumented={k: tuple(v) for k, v in values["allow-undocumented"].items()},
        fail_on=values["fail-on"],
        mount={k: target for k, (target, _) in mounts.items()},
        open_mounts={k: open_ for k, (_, open_) in mounts.items() if open_ is not None},
        open_surfaces={k: v["open"] for k, v in tables.items() if "open" in v},
        under={k: v["under"] for k, v in tables.items() if v.get("under")},
        surfaces={k: _surface(k, v, source) for k, v in values["surfaces"].items()},
        registrations={k: _registration(k, v, source) for k, v in values["registrations"].items()},
        sections={k: path for k, (path, _) in sections.items()},
        section_surfaces={k: surface for k, (_, surface) in sections.items() if surface},
        config_files=tuple(values["config-files"]),
        discover=values["discover"],
        removed=dict(values["removed"]),
        deprecated=dict(values["deprecated"]),
        per_file_ignores={k: list(v) for k, v in values["per-file-ignores"].items()},
        removed_registries=tuple(values["removed-registries"]),
        deprecated_registries=tuple(values["deprecated-registries"]),
        source=source,
    )


def config_lines(config: Config) -> list[str]:
    """The lines of the configuration file, for the places of its keys."""
    if config.source is None:
        return []
    try:
        data = read_path(config.source, MAX_CONFIG_FILE_BYTES, (config.root,))
        return data.decode("utf-8").splitlines()
    except (OSError, Unreadable, UnicodeDecodeError):
        return []


def line_of(lines: list[str], key: str) -> int:
    """The line of the configuration file that names ``key`` (1 if none)."""
    for number, line in enumerate(lines, start=1):
        if f'"{key}"' in line or line.strip().startswith((f"{key} ", f"{key}=")):
            return number
    return 1
