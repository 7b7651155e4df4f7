"""A dict a class holds on ``self`` and reads key by key, each with its
default, is a configuration where the docs document five of its keys and
half, or one page three and half, or the examples set three and half
below one path (where it is then placed): never a request's dict read
with nothing to fall back on, never on keys no page is about, and a
default only where the reads agree."""

from __future__ import annotations

from configdrift.coverage import census
from configdrift.model import ANY_KEY, UNDOCUMENTED
from helpers import by_key, check_project

_BASE = """
class BuilderConfig:
    def __init__(self, root, config):
        self.root = root
        self.__config = config

    @property
    def target_config(self):
        return self.__config.get("target", {})
"""

_WHEEL = """
from app.base import BuilderConfig


class WheelConfig(BuilderConfig):
    @property
    def metadata_version(self):
        return self.target_config.get("core-metadata-version", "2.5")

    @property
    def shared_data(self):
        return self.target_config.get("shared-data", {})

    @property
    def strict_naming(self):
        return self.target_config.get("strict-naming", True)

    @property
    def bypass(self):
        return self.target_config.get("bypass-selection", False)

    @property
    def sbom(self):
        return self.target_config.get("sbom-files", [])

    @property
    def macos(self):
        return self.target_config.get("macos-max-compat", False)
"""

_PAGE = """# Wheel builder

## Options

| Option | Default | Description |
| --- | --- | --- |
| `core-metadata-version` | `"2.4"` | The version of core metadata to use |
| `shared-data` | | Data files installed globally |
| `strict-naming` | `true` | Normalise file names |
| `bypass-selection` | `false` | Suppress the error when nothing is selected |
| `sbom-files` | | SBOM files to ship |
"""


def _check(tmp_path, **files: str):
    base = {"app/base.py": _BASE, "app/wheel.py": _WHEEL, "docs/builder/wheel.md": _PAGE}
    return check_project(tmp_path, {**base, **files}, "app")


def _surfaces(analysis) -> list[str]:
    return [s.surface for s in analysis.everything]


def test_a_dict_a_class_reads_key_by_key_is_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "WheelConfig.target_config" in _surfaces(analysis)
    found = by_key(findings)
    finding = found[("CD104", "core-metadata-version")]
    assert "the code's default is '2.5'" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("app/wheel.py", 8)]
    assert ("CD103", "macos-max-compat") in found


def test_a_documented_key_the_class_does_not_read_is_not_judged(tmp_path) -> None:
    # The dict may be handed whole to code that reads ``pure-python``.
    page = _PAGE + "| `pure-python` | `true` | Ship pure Python only |\n"
    analysis, findings = _check(tmp_path, **{"docs/builder/wheel.md": page})
    assert "WheelConfig.target_config" in _surfaces(analysis)
    assert not any(f.key == "pure-python" for f in findings)


def test_a_dict_read_with_nothing_to_fall_back_on_is_no_configuration(tmp_path) -> None:
    # A request's data: read by name, each with ``None`` to fall back on.
    wheel = _WHEEL.replace('"2.5")', "None)").replace("{})", "None)").replace("True)", "None)")
    wheel = wheel.replace("False)", "None)").replace("[])", "None)")
    analysis, findings = _check(tmp_path, **{"app/wheel.py": wheel})
    assert _surfaces(analysis) == ["config"]
    assert not any(f.key == "core-metadata-version" for f in findings)


def test_four_keys_on_one_page_make_a_configuration(tmp_path) -> None:
    # Fewer than five names over all pages, but one page is about the dict.
    page = _PAGE.replace("| `sbom-files` | | SBOM files to ship |\n", "")
    analysis, _ = _check(tmp_path, **{"docs/builder/wheel.md": page})
    assert "WheelConfig.target_config" in _surfaces(analysis)


def test_keys_no_one_page_names_three_of_are_no_configuration(tmp_path) -> None:
    # Four names, but two pages name two each: no page is about the dict.
    rows = _PAGE.split("\n")
    head, body = rows[:5], [r for r in rows[5:] if r.startswith("| `")]
    first = "\n".join([*head, *body[:2]]) + "\n"
    second = "\n".join([*head, *body[2:4]]) + "\n"
    analysis, _ = _check(
        tmp_path, **{"docs/builder/wheel.md": first, "docs/builder/more.md": second}
    )
    assert _surfaces(analysis) == ["config"]


_ENVIRONMENTS = """# Environments

## Skip install

```toml
[tool.app.envs.lint]
skip-install = true
```

## Dependencies

```toml
[tool.app.envs.test]
dependencies = ["pytest"]
features = ["cli"]
```

## Platforms

```toml
[tool.app.envs.<ENV_NAME>]
platforms = ["linux"]
```

## Description

```toml
[project]
name = "app"

[tool.app.envs.test]
description = "Run the tests"
```

## Workspace

```toml
[tool.app.envs.test]
workspace.members = ["packages/*"]
```
"""

_ENVIRONMENT = """
class Environment:
    def __init__(self, config):
        self._config = config

    @property
    def config(self):
        return self._config

    @property
    def skip_install(self):
        return self.config.get("skip-install", False)

    @property
    def dependencies(self):
        return self.config.get("dependencies", [])

    @property
    def features(self):
        return self.config.get("features", [])

    @property
    def platforms(self):
        return self.config.get("platforms", [])

    @property
    def builder(self):
        return self.config.get("builder", False)

    @property
    def description(self):
        return self.config.get("description", "")

    @property
    def workspace(self):
        return self.config.get("workspace", {})
"""


def _environments(tmp_path, page: str = _ENVIRONMENTS):
    return check_project(
        tmp_path, {"app/env.py": _ENVIRONMENT, "docs/config/environments.md": page}, "app"
    )


def test_a_dict_the_examples_set_is_placed_where_they_set_it(tmp_path) -> None:
    # No entry names a key; the examples set four below one path, the
    # environment's name differing: ``tool.app.envs.*``.
    analysis, findings = _environments(tmp_path)
    surface = next(s for s in analysis.everything if s.surface == "Environment.config")
    keys = {node.path for node in surface.schema.walk() if node.path}
    assert ("tool", "app", "envs", ANY_KEY, "skip-install") in keys
    assert ("skip-install",) not in keys
    found = by_key(findings)
    # A key no example sets is undocumented; one an example sets is not,
    # though the example is past a broken bracket (``<ENV_NAME>`` is no
    # TOML), sets another configuration's keys beside it (``[project]``) or
    # sets a key inside its value (``workspace.members``).
    assert ("CD103", "tool.app.envs.*.builder") in found
    assert not [k for c, k in found if c == "CD103" and not k.endswith("builder")]
    # ``check``, ``coverage`` and ``map`` count the same: six keys set in
    # the examples, one undocumented.
    counted = census(surface)
    assert counted.documented == 6
    assert counted.paths(UNDOCUMENTED) == [("tool", "app", "envs", ANY_KEY, "builder")]


def test_examples_set_at_different_paths_are_no_configuration(tmp_path) -> None:
    # The same four keys, but each set below a path of its own: blocks of
    # other configurations that share names.
    page = _ENVIRONMENTS.replace("[tool.app.envs.test]", "[project.x]").replace(
        "[tool.app.envs.<ENV_NAME>]", "[tool.other]"
    )
    analysis, _ = _environments(tmp_path, page)
    assert _surfaces(analysis) == ["config"]


def test_a_dict_the_docs_document_less_than_half_of_is_no_configuration(tmp_path) -> None:
    more = "".join(
        f"\n    @property\n    def extra{i}(self):\n"
        f'        return self.target_config.get("extra-{i}", {i})\n'
        for i in range(6)
    )
    analysis, _ = _check(tmp_path, **{"app/wheel.py": _WHEEL + more})
    assert _surfaces(analysis) == ["config"]


def test_a_key_read_with_two_defaults_has_none_to_compare(tmp_path) -> None:
    wheel = _WHEEL + (
        "\n    def other(self):\n"
        '        return self.target_config.get("core-metadata-version", "2.1")\n'
    )
    analysis, findings = _check(tmp_path, **{"app/wheel.py": wheel})
    assert "WheelConfig.target_config" in _surfaces(analysis)
    assert ("CD104", "core-metadata-version") not in by_key(findings)


def test_extraction_keeps_the_reads_of_a_dict_read_by_three_keys_or_more() -> None:
    from configdrift.extract.python.extractor import extract_source

    def reads(count: int) -> int:
        methods = "".join(
            f"    def k{i}(self):\n        return self.options.get('k{i}', {i})\n"
            for i in range(count)
        )
        return len(extract_source(f"class C:\n{methods}").held_reads)

    assert reads(2) == 0  # a few reads: a record's, not kept
    assert reads(3) == 3


def test_the_path_examples_set_keys_under() -> None:
    from configdrift.index.pages import ANY, EXAMPLE, Spelt, under

    def spelt(*paths: str) -> list[Spelt]:
        return [Spelt(tuple(p.split(".")), 1, EXAMPLE) for p in paths]

    # A part that differs, or a placeholder, stands for any key.
    assert under(spelt("tool.app.envs.a.x", "tool.app.envs.b.y")) == ("tool", "app", "envs", ANY)
    assert under(spelt("tool.app.ENV_NAME.x", "tool.app.ENV_NAME.y")) == ("tool", "app", ANY)
    assert under(spelt("tool.app.x", "tool.app.y")) == ("tool", "app")
    # Set at the top, at paths of different depths, below a first part that
    # differs, or with two parts that differ: no one path.
    assert under(spelt("x", "y")) == ()
    assert under(spelt("a.x", "b.c.y", "d.e.f.z")) == ()
    assert under(spelt("a.x", "b.y")) == ()
    assert under(spelt("t.build.targets.wheel.x", "t.build.hooks.vcs.y")) == ()


def test_keys_set_beside_the_section_a_surface_is_placed_under_are_not_judged(tmp_path) -> None:
    # The example sets ``tool`` (the section the surface is placed under)
    # beside keys the code spells and one it does not: ``tool`` is no
    # option the surface reads, so the block is not shown to be its settings.
    block = (
        '\n## As JSON\n\n```json\n{"tool": {"app": {"envs": {"dev": {"features": ["x"]}}}},'
        ' "features": [], "platforms": [], "dependencies": [], "nickname": "x"}\n```\n'
    )
    analysis, findings = _environments(tmp_path, _ENVIRONMENTS + block)
    assert "Environment.config" in _surfaces(analysis)
    assert not [k for c, k in by_key(findings) if c == "CD302"]


def test_a_type_known_only_from_a_reads_fallback_is_not_compared(tmp_path) -> None:
    # ``shared-data`` is read with ``{}`` to fall back on, and used as
    # nothing certain: the page's type for it is not judged against the
    # fallback's.
    page = """# Wheel builder

## Options

| Option | Type | Description |
| --- | --- | --- |
| `core-metadata-version` | str | The version of core metadata to use |
| `shared-data` | list | Data files installed globally |
| `strict-naming` | bool | Normalise file names |
| `bypass-selection` | bool | Suppress the error when nothing is selected |
| `sbom-files` | list | SBOM files to ship |
"""
    analysis, findings = _check(tmp_path, **{"docs/builder/wheel.md": page})
    surface = next(s for s in analysis.everything if s.surface == "WheelConfig.target_config")
    assert surface.schema.children["shared-data"].type.kinds == {"dict"}
    assert [e.doc_type for e in surface.entries if e.name == "shared-data"] == ["list"]
    assert not [f for f in findings if f.code == "CD105"]
