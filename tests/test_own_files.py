"""A config file of the project that sets many keys, nearly all of them
the keys of a lenient surface beside the first (a model its reference page
documents), is that surface's example: a key it sets that the model lacks
is ignored (CD302). Never a test's file, a file of few keys, one with more
than a few keys of another model, nor a key spelt with ``-`` for ``_``."""

from __future__ import annotations

import json

from helpers import by_key, check_project

_FIELDS = tuple(f"option_{i}" for i in range(24))

_MODEL = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Args:\n"
    + "".join(f"    {name}: int = {i}\n" for i, name in enumerate(_FIELDS))
    + "    vocab_file: str = ''\n"
)

_PAGE = "# Arguments\n\n" + "".join(
    f"## {name}\n\n**Type:** Integer  \n**Default:** `{i}`\n\n" for i, name in enumerate(_FIELDS)
)

#: The first surface: a command line the docs never mention.
_CLI = (
    "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
    + "".join(f"    p.add_argument('--flag-{i}', type=int)\n" for i in range(4))
    + "    return p.parse_args()\n"
)


def _config(keys: dict[str, object]) -> str:
    # YAML written as JSON, as many projects write their configs.
    return json.dumps(keys, indent=2) + "\n"


def _files(**configs: str) -> dict[str, str]:
    return {"app/args.py": _MODEL, "app/cli.py": _CLI, "docs/options.md": _PAGE, **configs}


def test_a_config_file_of_a_surface_beside_the_first_is_its_example(tmp_path) -> None:
    keys = {name: 1 for name in _FIELDS} | {"attention_type": "flash", "vocab-file": "v.json"}
    files = _files(**{"configs/large.yml": _config(keys)})
    _, findings = check_project(tmp_path, files, "app")
    found = by_key(findings)
    assert found[("CD302", "attention_type")].location.path == "configs/large.yml"
    # ``vocab-file`` is ``vocab_file`` to a loader that turns ``-`` into ``_``.
    assert ("CD302", "vocab-file") not in found


def test_files_that_are_not_the_surface_s_own_are_not_its_examples(tmp_path) -> None:
    few = {name: 1 for name in _FIELDS[:6]} | {"attention_type": "flash"}
    other = {name: 1 for name in _FIELDS} | {"extra_a": 1, "extra_b": 2}
    whole = {name: 1 for name in _FIELDS} | {"attention_type": "flash"}
    files = _files(
        **{
            "configs/small.yml": _config(few),  # too few keys to tell
            "configs/other.json": _config(other),  # two keys of another model
            "tests/data/case.yml": _config(whole),  # a test's
        }
    )
    _, findings = check_project(tmp_path, files, "app")
    assert not [f for f in findings if f.code == "CD302"]


def _schema(spellings: list[str], strict: bool | None):
    from configdrift.model import SchemaNode

    root = SchemaNode(key="", path=(), strict=strict)
    for name in spellings:
        root.children[name] = SchemaNode(key=name, path=(name,), spellings=(name,))
    return root


def _bare(tmp_path, configs: dict[str, str]):
    """A project of the command line and config files, no model surface."""
    files = {"app/cli.py": _CLI, **configs}
    analysis, _ = check_project(tmp_path, files, "app")
    return analysis


def test_only_a_lenient_surface_takes_files_and_spellings_compare_alike(tmp_path) -> None:
    from configdrift.engine.surfaces import _own_files

    keys = {name.replace("_", "-"): 1 for name in _FIELDS} | {"attention-type": "flash"}
    analysis = _bare(tmp_path, {"configs/large.yml": _config(keys)})
    # Keys spelt with ``-`` where the surface spells them with ``_``, and back.
    lenient = _schema([name.replace("_", "-") for name in _FIELDS[:20]] + list(_FIELDS[20:]), False)
    assert [rel for rel, _, _ in _own_files(analysis, lenient)] == ["configs/large.yml"]
    # What a strict or open surface does with another key is not known.
    hyphened = [name.replace("_", "-") for name in _FIELDS]
    assert _own_files(analysis, _schema(hyphened, True)) == []
    assert _own_files(analysis, _schema(hyphened, None)) == []


def test_a_small_file_of_known_keys_is_no_example_to_judge_values_by(tmp_path) -> None:
    from configdrift.engine.surfaces import _own_files

    small = {name: 1 for name in _FIELDS[:9]}
    analysis = _bare(tmp_path, {"configs/small.yml": _config(small)})
    assert _own_files(analysis, _schema(list(_FIELDS), False)) == []
    assert _own_files(analysis, _schema([*_FIELDS[:9], "x", "y"], False)) == []
