"""``configdrift init``: write what discovery found into the configuration."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import ExitCode, usage_error
from configdrift.wording import counted

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.commands.common import Subparsers


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def init(
    path: str = ".",
    *,
    force: bool = False,
    stdout: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Write the configuration auto-discovery found: into ``[tool.configdrift]``
    of the project's pyproject.toml when it has one (appended; a table that
    is already there is never replaced), else into ``configdrift.toml``;
    ``stdout`` prints it instead."""
    from configdrift.api import project_of
    from configdrift.config import Config, ConfigError, toml_key
    from configdrift.engine import analyse
    from configdrift.unconfigured import shown

    out = out or sys.stdout
    err = err or sys.stderr
    from configdrift.files import is_file, unreadable_dir

    root = Path(path)
    if (problem := unreadable_dir(root)) is not None:
        usage_error(f"{shown(root)}: {problem}", err)
        return ExitCode.USAGE
    # From a folder inside a project (``docs/``), the project's root.
    root = project_of(root)
    pyproject = root / "pyproject.toml"
    into_pyproject = is_file(pyproject) and not os.path.lexists(root / "configdrift.toml")
    target = pyproject if into_pyproject else root / "configdrift.toml"
    if not stdout and target.is_symlink():
        # Written in place, a link would be replaced by a file, or followed.
        usage_error(f"{shown(target)} is a symbolic link: not written", err)
        return ExitCode.USAGE
    if into_pyproject and not stdout:
        from configdrift.config import _our_table, _read_toml

        try:
            existing = _our_table(_read_toml(pyproject, (root,)), pyproject, True)
        except ConfigError as exc:
            usage_error(str(exc), err)
            return ExitCode.USAGE
        if existing is not None:
            usage_error(
                f"{shown(pyproject)} has a [tool.configdrift] table already "
                "(`init --stdout` prints what discovery finds, to compare)",
                err,
            )
            return ExitCode.USAGE
    elif not stdout and (target.exists() or target.is_symlink()):
        if not force:
            usage_error(f"{shown(target)} exists (use --force to overwrite)", err)
            return ExitCode.USAGE
        if target.is_symlink() or not target.is_file():
            usage_error(f"{shown(target)} is not a regular file", err)
            return ExitCode.USAGE
    try:
        analysis = analyse(Config(root=root))
    except ConfigError as exc:
        usage_error(str(exc), err)
        return ExitCode.USAGE
    from configdrift.unconfigured import naming_pages

    mounts = [*analysis.mounts, *(m for s in analysis.surfaces for m in s.mounts)]
    packages = sorted({m.location.path.split("/")[0] for m in mounts if "/" in m.location.path})
    own = distribution_packages(root)
    code_why = "# The packages the config models and option declarations were found in:"
    if own and not any(p == o.split("/")[0] for p in packages for o in own):
        # What was found lies outside the distribution's package (a release
        # script, an installer at the top): the package is the code.
        code_why = (
            "# The distribution's own package ([project].name); what discovery found lies "
            f"outside it ({', '.join(packages) or 'top-level scripts'}):"
        )
        packages = own
    # A path that is not UTF-8 cannot be written in TOML: left out.
    packages = [p for p in packages if _utf8(p)]
    docs: list[str] = []
    why: list[str] = []
    entries = {source.path: source.entries for source in analysis.doc_sources}
    for page in _pages(analysis):
        docs.append(page)
        said = (
            f"{counted(entries[page], 'key')} documented in it"
            if entries.get(page)
            else "documents keys another surface shares with it"
            if page in analysis.pages_elsewhere
            else "renders the configuration at build time"
        )
        why.append(f"# {page}: {said}")
    confirm: list[str] = []
    if not docs and analysis.schema.children:
        # No page was recognised as documenting the keys: the page that
        # names most of them, as a comment for the user to confirm (named,
        # a page that yields no entry fails the next check with CD501).
        for page, hits in naming_pages(analysis, analysis, relative=False)[:1]:
            if _utf8(page):
                confirm.append(
                    f"# {page} names {hits} of the keys, though no entry was recognised in "
                    f'it; if it documents them in a form configdrift reads:\n# docs = ["{page}"]'
                )
    code_line = "code = [" + ", ".join(f'"{p}"' for p in packages) + "]"
    lines = [
        "# Written by `configdrift init` from what auto-discovery found; edit freely.",
        "# Options are documented in docs/configuration.md of configdrift.",
        "# The doc pages that document the configuration:",
        *why,
        "docs = [" + ", ".join(f'"{d}"' for d in docs) + "]",
        *confirm,
        code_why,
        code_line,
        'fail-on = "error"',
        "",
        "[mount]",
        '# config path = "package.module:Model"; found in the code:',
    ]
    for mount in analysis.mounts:
        path = ".".join(mount.path)
        if mount.target:
            lines.append(f"# {mount.how} at {mount.location}:")
            lines.append(f'# "{path}" = "{mount.target}"')
        else:
            lines.append(
                f"# {path or '(top level)'} = {mount.model} ({mount.how} at {mount.location})"
            )
    if analysis.surfaces:
        lines += [
            "",
            "[surfaces]",
            "# name = {mount = what it is, docs = the pages that document it}:",
        ]
    # Each surface as discovery found it (`discovered`: by its name), so
    # that the next check compares what this one did; the target of its
    # own, where it has one, for the user to switch to.
    for surface in analysis.surfaces:
        pages = ", ".join(f'"{page}"' for page in _pages(surface))
        switch = f'; its own target: mount = "{surface.target}"' if surface.target else ""
        lines.append(f"# {surface.how}{switch}")
        lines.append(f'{toml_key(surface.surface)} = {{mount = "discovered", docs = [{pages}]}}')
    text = _rendered(lines, into_pyproject)
    if packages and _loses(root, analysis, text, into_pyproject):
        # Narrowed to the package, the code compares less than discovery did
        # (the configuration is read outside it): left for the user to
        # confirm.
        at = lines.index(code_line)
        lines[at : at + 1] = [
            "# Narrowed to these, the next check would compare less than discovery did:",
            "# " + code_line,
        ]
        text = _rendered(lines, into_pyproject)
    if stdout:
        out.write(text)
        return ExitCode.OK
    from configdrift.config import MAX_CONFIG_FILE_BYTES
    from configdrift.files import Unreadable, read_path
    from configdrift.writes import write_named

    try:
        # Written beside and renamed into place: never a half-written file,
        # never opened if something else took its name meanwhile.
        before = read_path(target, MAX_CONFIG_FILE_BYTES, (root,)) if into_pyproject else b""
        if before and not before.endswith(b"\n"):
            before += b"\n"
        write_named(target, before + text.encode("utf-8", "backslashreplace"), (root,))
    except Unreadable as exc:
        usage_error(f"{shown(target)}: {exc}", err)
        return ExitCode.USAGE
    except OSError as exc:
        usage_error(f"{shown(target)}: {exc.strerror or exc}", err)
        return ExitCode.USAGE
    out.write(
        f"wrote {target}: {counted(len(docs), 'doc source')}, {counted(len(packages), 'package')}, "
        f"{counted(len(analysis.mounts), 'mount')}, "
        f"{counted(len(analysis.surfaces), 'more surface')}\n"
    )
    return ExitCode.OK


def register(sub: Subparsers) -> None:
    """``init`` and its arguments."""
    p_init = sub.add_parser(
        "init",
        help="write what auto-discovery finds into [tool.configdrift] of pyproject.toml "
        "(configdrift.toml when there is none)",
    )
    p_init.add_argument("path", nargs="?", default=".", help="the project (default: .)")
    p_init.add_argument("--force", action="store_true", help="overwrite configdrift.toml")
    p_init.add_argument(
        "--stdout", action="store_true", help="print the configuration instead of writing it"
    )
    p_init.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    return init(args.path, force=args.force, stdout=args.stdout)


def _rendered(lines: list[str], into_pyproject: bool) -> str:
    """The configuration's text, as ``configdrift.toml`` or as the
    ``[tool.configdrift]`` tables of ``pyproject.toml``."""
    text = "\n".join(lines) + "\n"
    if into_pyproject:
        text = "\n[tool.configdrift]\n" + "".join(
            f"[tool.configdrift.{line[1:]}\n" if line.startswith("[") else line + "\n"
            for line in text.splitlines()
        )
    return text


def _loses(root: Path, analysis: Analysis, text: str, into_pyproject: bool) -> bool:
    """Would a check with ``text`` as the configuration miss a finding the
    zero-config ``analysis`` has? Read from a scratch file outside the
    tree; nothing is written in it."""
    import tempfile

    from configdrift.config import ConfigError, load
    from configdrift.engine import analyse
    from configdrift.model import fingerprint
    from configdrift.rules.run import run_rules

    with tempfile.TemporaryDirectory(prefix="configdrift-init-") as scratch:
        path = Path(scratch) / ("pyproject.toml" if into_pyproject else "configdrift.toml")
        path.write_text(text, encoding="utf-8")
        try:
            configured = analyse(load(root, path))
        except ConfigError:
            return True
    before = {fingerprint(f) for f in run_rules(analysis)}
    return not before <= {fingerprint(f) for f in run_rules(configured)}


def _pages(surface: Analysis) -> list[str]:
    """Every page a surface was compared with, for the configuration to
    name: the pages that document it, and those that render it at build
    time (a reference generated from a parser, a page built from its
    module), as discovery found them. A page of autodoc is not compared:
    what it renders counts as documented wherever it is."""
    # A page that yields no entry is never written: the next check would
    # say so (CD501). Its examples are read whether it is named or not. The
    # pages whose entries of keys it accepts another surface took are, read,
    # where those keys are documented (``documented_elsewhere``).
    pages = [*surface.pages_compared, *sorted(surface.pages_elsewhere)]
    return [page for page in dict.fromkeys(pages) if _utf8(page)]


def distribution_packages(root: Path) -> list[str]:
    """The package the distribution ships, by ``[project].name`` (``-``
    and ``.`` as ``_``), at the top or under ``src/``: where its
    configuration lives, rather than in its scripts."""
    from configdrift.config import ConfigError, _read_toml

    pyproject = root / "pyproject.toml"
    try:
        table = _read_toml(pyproject, (root,)) if pyproject.is_file() else {}
    except ConfigError:
        return []
    project = table.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    if not isinstance(name, str) or not name.strip():
        return []
    module = name.strip().lower().replace("-", "_").replace(".", "_")
    return [
        rel
        for rel in (module, f"src/{module}")
        if (root / rel / "__init__.py").is_file() and not (root / rel).is_symlink()
    ][:1]
