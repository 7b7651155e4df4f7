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
