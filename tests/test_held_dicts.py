"""A dict a class holds on ``self`` and reads key by key, each with its
default, is a configuration where the docs document five of its keys and
half: never a request's dict read with nothing to fall back on, never on
four documented keys, and a default only where the reads agree."""

from __future__ import annotations

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


def test_four_documented_keys_are_no_configuration(tmp_path) -> None:
    page = _PAGE.replace("| `sbom-files` | | SBOM files to ship |\n", "")
    analysis, _ = _check(tmp_path, **{"docs/builder/wheel.md": page})
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


def test_extraction_keeps_the_reads_of_a_dict_read_by_five_keys_or_more() -> None:
    from configdrift.extract.python.extractor import extract_source

    def reads(count: int) -> int:
        methods = "".join(
            f"    def k{i}(self):\n        return self.options.get('k{i}', {i})\n"
            for i in range(count)
        )
        return len(extract_source(f"class C:\n{methods}").held_reads)

    assert reads(4) == 0  # a few reads: a record's, not kept
    assert reads(5) == 5
