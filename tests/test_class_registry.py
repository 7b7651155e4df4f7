"""A registry made of classes: subclasses of one base, each naming its key
and carrying its default (resolve/mechanisms/class_registry)."""

from __future__ import annotations

from configdrift.config import Config
from configdrift.discover import discover
from helpers import check_project, make_project

_REGISTRY = """
class Setting:
    name = None
    default = None
    validator = None
    type = None


class Workers(Setting):
    name = "workers"
    default = 1
    type = int


class Bind(Setting):
    name = "bind"
    default = "127.0.0.1:8000"


class Timeout(Setting):
    name = "timeout"
    default = 30


class Backlog(Setting):
    name = "backlog"
    default = 2048


class Daemon(Setting):
    name = "daemon"
    default = False


class UploadDir(Setting):
    name = "tmp_upload_dir"
"""

_DOCS = """
# Settings

## `workers`

Default: `1`

## `bind`

Default: `127.0.0.1:8000`

## `timeout`

Default: `60`

## `backlog`

## `daemon`

## `keepalive`

Seconds.
"""


def _check(tmp_path, registry=_REGISTRY, docs=_DOCS, extra=None):
    files = {"pkg/config.py": registry, "docs/settings.md": docs, **(extra or {})}
    return check_project(tmp_path, files, "pkg")


def test_a_family_of_option_classes_is_a_surface(tmp_path):
    analysis, findings = _check(tmp_path)
    (registry,) = [s for s in analysis.everything if s.surface == "Setting"]
    keys = registry.schema.children
    assert sorted(keys) == ["backlog", "bind", "daemon", "timeout", "tmp_upload_dir", "workers"]
    assert keys["workers"].default.value == 1 and keys["workers"].type.kinds == {"int"}
    # A class without its own default takes the base's.
    assert keys["tmp_upload_dir"].default.value is None
    assert keys["timeout"].location.line == 21  # its name
    found = {(f.code, f.key) for f in findings}
    assert ("CD104", "timeout") in found  # documented 60, the class says 30
    assert ("CD103", "tmp_upload_dir") in found


def test_classes_that_only_have_names_are_no_registry(tmp_path):
    """Commands or plugins with a ``name`` each, and nothing of an option."""
    plugins = "class Plugin:\n    pass\n\n" + "".join(
        f"\nclass P{i}(Plugin):\n    name = 'p{i}'\n    def run(self):\n        return {i}\n"
        for i in range(6)
    )
    docs = "# Plugins\n\n" + "".join(f"## `p{i}`\n\nRuns.\n\n" for i in range(6))
    analysis, _ = _check(tmp_path, plugins, docs)
    assert [s.surface for s in analysis.everything if s.surface == "Plugin"] == []


def test_a_family_whose_names_repeat_is_no_registry(tmp_path):
    same = _REGISTRY.replace('"bind"', '"workers"').replace('"timeout"', '"workers"')
    analysis, _ = _check(tmp_path, same)
    assert [s for s in analysis.everything if s.surface == "Setting"] == []


def test_a_page_beside_an_example_describes_the_example(tmp_path):
    """Its table of "defaults" holds the example's values: a page of the
    example, read for its example blocks, not a doc of the defaults."""
    make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "docs/settings.md": "# S\n",
            "examples/app/README.md": "# App\n",
            "docs/examples/usage.md": "# Usage\n",
        },
    )
    sources = discover(Config(root=tmp_path))
    assert sources.docs == ["docs/examples/usage.md", "docs/settings.md"]
    assert "examples/app/README.md" in sources.examples


def test_a_changelog_is_neither_a_doc_nor_an_example(tmp_path):
    """It tells what was: a default it names is a former one."""
    make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "docs/settings.md": "# S\n",
            "docs/changelog.rst": "Changes\n=======\n",
            "guide/release-notes/v2.md": "# v2\n",
            "docs/releasing.md": "# How we release\n",
        },
    )
    sources = discover(Config(root=tmp_path))
    assert sources.docs == ["docs/releasing.md", "docs/settings.md"]
    assert sources.examples == []


def test_a_config_file_that_assigns_settings_is_an_example_of_them(tmp_path):
    """gunicorn's ``example_config.py``: ``workers = 2`` at the top of a
    Python file named as a config file, hooks beside them."""
    example = (
        "import multiprocessing\n\nbind = '127.0.0.1:8000'\nworkers = 2\nbacklog = 64\n"
        "timout = 30\n\n\ndef post_fork(server, worker):\n    pass\n"
    )
    analysis, findings = _check(tmp_path, extra={"examples/example_config.py": example})
    (registry,) = [s for s in analysis.everything if s.surface == "Setting"]
    assert [rel for rel, _, _ in registry.blocks] == ["examples/example_config.py"]
    # How the registry's loader meets a name it lacks is not known: the
    # configuration is open, and nothing is said of ``timout``.
    assert registry.schema.strict is None
    assert not [f for f in findings if f.key == "timout"]


def test_many_config_files_are_read_by_the_workers(tmp_path):
    """Enough example config files for the extractor to hand them to its
    workers: their results are collected while the workers run."""
    from configdrift.config import Config
    from configdrift.engine import analyse

    example = "bind = '127.0.0.1:8000'\nworkers = {n}\nbacklog = 64\n"
    files = {f"examples/site{n}/app_config.py": example.format(n=n) for n in range(60)}
    make_project(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/config.py": _REGISTRY, "docs/settings.md": _DOCS, **files},
    )
    analysis = analyse(Config(root=tmp_path), jobs=2)
    (registry,) = [s for s in analysis.everything if s.surface == "Setting"]
    assert len(registry.blocks) == 60


def test_a_member_marked_deprecated_and_still_documented_is_cd402(tmp_path):
    """``deprecated = True`` on a member, or a help text that opens with
    "Deprecated", marks its key; a help text that only mentions the word
    does not."""
    registry = (
        _REGISTRY.replace('name = "backlog"', 'name = "backlog"\n    deprecated = True')
        .replace(
            'name = "daemon"', 'name = "daemon"\n    help = "Deprecated: use `detach` instead."'
        )
        .replace('name = "bind"', 'name = "bind"\n    help = "Replaces the deprecated `listen`."')
    )
    analysis, findings = _check(tmp_path, registry=registry)
    (registry_surface,) = [s for s in analysis.everything if s.surface == "Setting"]
    assert registry_surface.schema.children["daemon"].replacement == "detach"
    deprecated = {f.key for f in findings if f.code == "CD402"}
    assert deprecated == {"backlog", "daemon"}
