"""A field whose name begins with ``_``: pydantic keeps it as a private
attribute, no keyword; a dataclass or a TypedDict takes it as a key (its
``__init__`` has the parameter ``_name``), though not one for users to
find documented; a name Python mangles (``__name``) is none."""

from __future__ import annotations

from helpers import APP_CONFIG, DATACLASS_SETTINGS, by_key, check_project

#: A dataclass and a strict pydantic model, each with a private field.
_DATACLASS = DATACLASS_SETTINGS.replace(
    "    workers: int = 2\n",
    '    workers: int = 2\n    _skip_tasks: bool = False\n    __secret: str = ""\n',
)
_PYDANTIC = APP_CONFIG.replace(
    "    debug: bool = False\n", "    debug: bool = False\n    _skip_tasks: bool = False\n"
)
#: The fields each documents but the private one.
_SETTINGS_KEYS = ("seed", "device", "workers")
_APP_KEYS = ("host", "port", "workers", "debug")


def _page(*keys: str) -> str:
    entries = "".join(f"## `{key}`\n\nWhat it does.\n\n" for key in keys)
    return f"# Configuration\n\n{entries}"


def _findings(tmp_path, source: str, *keys: str) -> dict:
    files = {"pkg/config.py": source, "docs/configuration.md": _page(*keys)}
    return by_key(check_project(tmp_path, files, "pkg")[1])


def test_a_dataclass_takes_its_private_field_as_a_key(tmp_path) -> None:
    found = _findings(tmp_path, _DATACLASS, *_SETTINGS_KEYS, "_skip_tasks")
    assert not [key for key in found if key[0] == "CD101"]


def test_a_dataclass_private_field_is_never_undocumented(tmp_path) -> None:
    found = _findings(tmp_path, _DATACLASS, *_SETTINGS_KEYS)
    assert not [key for key in found if key[0] == "CD103"]
    # The field of a name Python mangles is no keyword: documented, it is
    # rejected; so is a pydantic model's private attribute.
    found = _findings(tmp_path / "mangled", _DATACLASS, *_SETTINGS_KEYS, "__secret")
    assert ("CD101", "__secret") in found


def test_a_pydantic_private_attribute_is_no_key(tmp_path) -> None:
    found = _findings(tmp_path, _PYDANTIC, *_APP_KEYS, "_skip_tasks")
    assert ("CD101", "_skip_tasks") in found


_TYPED = """
from typing import TypedDict


class Settings(TypedDict, total=False):
    name: str
    retries: int
    _internal: bool
    __mangled: bool
"""


def test_a_typed_dict_takes_its_private_key(tmp_path) -> None:
    analysis, _ = check_project(
        tmp_path,
        {"pkg/settings.py": _TYPED, "docs/settings.md": _page("name", "retries")},
        "pkg",
        mount={"": "pkg.settings:Settings"},
    )
    assert set(analysis.schema.children) == {"name", "retries", "_internal"}
    assert analysis.schema.children["_internal"].hidden


_RENDERED = '''
from dataclasses import dataclass


@dataclass
class Mount:
    """A mount.

    Args:
        source: Where from.
        target: Where to.
        read_only: Whether it is read only.
    """

    source: str
    target: str
    read_only: bool = False
    _raw: str = ""
'''


def test_a_private_field_is_for_no_docstring_to_describe(tmp_path) -> None:
    files = {
        "pkg/mount.py": _RENDERED,
        "docs/reference.md": "# Reference\n\n[[autodoc]] mount.Mount\n",
    }
    found = by_key(check_project(tmp_path, files, "pkg")[1])
    assert ("CD103", "Mount(_raw=)") not in found
    # Negative case: a public field the docstring leaves out is undocumented.
    files["pkg/mount.py"] = _RENDERED.replace("_raw", "raw")
    found = by_key(check_project(tmp_path / "public", files, "pkg")[1])
    assert ("CD103", "Mount(raw=)") in found


_TWO_MODELS = """
import json
from dataclasses import dataclass


@dataclass
class Settings:
    host: str = "localhost"
    port: int = 8000
    workers: int = 1
    timeout: int = 30
    debug: bool = False


@dataclass
class Sweeper:
    _target_: str = "pkg.Sweeper"
    host: str = "localhost"
    port: int = 8000
    workers: int = 1
    timeout: int = 30
    trials: int = 5
"""


def test_a_private_key_is_no_evidence_the_docs_document_a_model(tmp_path) -> None:
    # The page documents all five keys of ``Settings``, four of
    # ``Sweeper`` and its ``_target_``: no tie of five keys each, never
    # guessed between; ``Settings`` is the page's.
    page = _page("host", "port", "workers", "timeout", "debug", "_target_")
    analysis, _ = check_project(
        tmp_path, {"pkg/config.py": _TWO_MODELS, "docs/configuration.md": page}, "pkg"
    )
    assert "Settings" in [s.surface for s in analysis.everything]
