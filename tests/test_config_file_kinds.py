"""``config-files`` reads TOML and INI files as well as JSON and YAML:
each declared file's keys are checked against the schema, whatever its
kind; an undeclared TOML file is never taken for a config."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from helpers import make_project, mounted_config

_FILES = {
    "deploy/app.toml": '[server]\nhost = "example.org"\nport = 8080\ntimeout = 3\n',
    "deploy/app.ini": "[server]\nhost = example.org\nport = 8080\ntimeout = 3\n",
}


@pytest.mark.parametrize("rel", sorted(_FILES))
def test_a_declared_file_of_each_kind_is_checked(tmp_path, rel: str) -> None:
    files = mounted_config('host: str = "localhost"', "port: int = 8000")
    files["configdrift.toml"] = f'config-files = ["{rel}"]\n' + files["configdrift.toml"]
    # The file's keys sit in a table (a section): the model holds them there.
    files["configdrift.toml"] = files["configdrift.toml"].replace('"" = ', '"server" = ')
    root = make_project(tmp_path / "proj", {**files, rel: _FILES[rel]})
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    found = {(f["code"], f["key"], f["path"]) for f in json.loads(result.out)["findings"]}
    assert any(k == "server.timeout" and path == rel for _, k, path in found), found
    # Undeclared, the file is no config of the project.
    files["configdrift.toml"] = files["configdrift.toml"].split("\n", 1)[1]
    root = make_project(tmp_path / "bare", {**files, rel: _FILES[rel]})
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    assert not any(f["path"] == rel for f in json.loads(result.out)["findings"])


_FIELDS = [f"setting_{n}_value" for n in range(20)]


def test_a_file_that_writes_keys_with_dashes_is_a_lenient_config_s(tmp_path) -> None:
    # ``"setting-1-value"`` for ``setting_1_value``, as a loader that turns
    # ``-`` into ``_`` reads it: the file is the lenient model's, and the
    # key no field holds in either spelling is said.
    model = "from dataclasses import dataclass\n\n\n@dataclass\nclass Args:\n" + "".join(
        f"    {name}: int = 1\n" for name in _FIELDS
    )
    page = "# Configuration\n\n" + "".join(f"- **{name}** (int): a setting.\n" for name in _FIELDS)
    data = {name.replace("_", "-"): 2 for name in _FIELDS} | {"save-interval": 100}
    files = {"pkg/args.py": model, "docs/configuration.md": page}
    files["configs/run.json"] = json.dumps(data, indent=1)
    root = make_project(tmp_path / "lenient", {"pkg/__init__.py": "", **files})
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    found = {(f["key"], f["path"]) for f in json.loads(result.out)["findings"]}
    assert {key for key, path in found if path == "configs/run.json"} == {"save-interval"}
    # A strict model's loader may not turn ``-`` into ``_``: such a file
    # is not taken for its config.
    strict = mounted_config(*(f"{name}: int = 1" for name in _FIELDS))
    strict["configs/run.json"] = files["configs/run.json"]
    root = make_project(tmp_path / "strict", strict)
    result = run_cli("check", str(root), "--format", "json", "--no-cache")
    assert not [f for f in json.loads(result.out)["findings"] if f["path"] == "configs/run.json"]
