"""A JSON Schema shipped for the configuration (``docs/config.schema.json``)
is read as a page of its properties, found by the keys it names wherever
its object sits; where it forbids what it does not list, a key the code
accepts that it leaves out is CD103."""

from __future__ import annotations

import json

import pytest

from helpers import check_project

_APP = """
import json

from pydantic import BaseModel, ConfigDict, Field


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 4
    timeout: float = 30.0
    retries: int = Field(3, deprecated="set timeout instead")


def load(path):
    with open(path) as f:
        return Settings(**json.load(f))
"""

_PAGE = """# Configuration

- `host`: the address.
- `port`: the port.
- `workers`: how many.
- `timeout`: how long.
"""


def _schema(closed: object = False, nest: bool = False, **extra: dict) -> str:
    properties = {
        "host": {"type": "string"},
        "port": {"type": "integer", "default": 8080},
        "workers": {"type": "integer"},
        **extra,
    }
    body: dict = {"type": "object", "properties": properties}
    if closed is not None:
        body["additionalProperties"] = closed
    if nest:
        body = {"oneOf": [{"enum": ["app"]}, {"properties": {"app": body}}]}
    return json.dumps({"$schema": "https://json-schema.org/draft-07/schema", **body}, indent=2)


def _findings(
    tmp_path, schema: str, name: str = "docs/config.schema.json"
) -> set[tuple[str, str, str]]:
    files = {"app/settings.py": _APP, "docs/config.md": _PAGE, name: schema}
    _, findings = check_project(tmp_path, files, "app")
    return {(f.code, f.key, f.location.path) for f in findings if f.code in ("CD103", "CD104")}


@pytest.mark.parametrize("nest", [False, True], ids=["top", "nested"])
def test_a_schema_that_forbids_what_it_does_not_list(tmp_path, nest) -> None:
    found = _findings(tmp_path, _schema(nest=nest))
    assert ("CD103", "timeout", "app/settings.py") in found
    # The keys it lists, and one the code deprecates, are no gap of it.
    assert not {key for code, key, _ in found if code == "CD103"} & {"host", "retries"}
    # Its stated default is compared as a page's is.
    assert ("CD104", "port", "docs/config.schema.json") in found


@pytest.mark.parametrize("closed", [None, True, {"type": "string"}])
def test_a_schema_that_takes_other_properties_lists_no_keys(tmp_path, closed) -> None:
    found = _findings(tmp_path, _schema(closed=closed))
    assert ("CD103", "timeout", "app/settings.py") not in found
    assert ("CD104", "port", "docs/config.schema.json") in found


@pytest.mark.parametrize(
    ("schema", "name"),
    [
        # A file not named for a schema, and a schema of another config.
        (_schema(), "docs/config.json"),
        (
            _schema().replace('"host"', '"bind"').replace('"workers"', '"threads"'),
            "docs/config.schema.json",
        ),
    ],
)
def test_a_file_that_is_no_schema_of_this_config_is_not_read(tmp_path, schema, name) -> None:
    found = _findings(tmp_path, schema, name)
    assert not [item for item in found if item[2] == name or item[1] == "timeout"]


def test_the_shallowest_object_that_names_the_keys_is_the_config(tmp_path) -> None:
    # A list of overrides whose items take every key and a selector besides.
    top = json.loads(_schema(closed=None))
    item = {"type": "object", "properties": {**top["properties"], "if": {}, "timeout": {}}}
    top["properties"]["overrides"] = {"type": "array", "items": item}
    found = _findings(tmp_path, json.dumps(top, indent=2))
    files = {
        "app/settings.py": _APP,
        "docs/config.md": _PAGE,
        "docs/config.schema.json": json.dumps(top),
    }
    _, findings = check_project(tmp_path / "all", files, "app")
    assert not [f for f in findings if f.key == "if"]
    assert ("CD104", "port", "docs/config.schema.json") in found


def test_a_schema_the_code_names_is_no_page_written_by_hand(tmp_path) -> None:
    # A generator writes it (or the code reads it): the code's own.
    writer = "def write():\n    open('docs/config.schema.json', 'w')\n"
    files = {
        "app/settings.py": _APP,
        "app/schema.py": writer,
        "docs/config.md": _PAGE,
        "docs/config.schema.json": _schema(),
    }
    _, findings = check_project(tmp_path, files, "app")
    assert not [f for f in findings if "schema" in f.location.path or "schema.json" in f.message]


def test_a_closed_schema_that_lists_nearly_all_keys_tells_a_gap_once(tmp_path) -> None:
    names = [f"key_{n}" for n in range(12)]
    fields = "".join(f"    {name}: int = {n}\n" for n, name in enumerate(names))
    declared = '    host: str = "127.0.0.1"\n    port: int = 8000\n    workers: int = 4\n    timeout: float = 30.0\n'
    app = _APP.replace(declared, fields)
    page = "# Configuration\n\n" + "".join(f"- `{name}`: one.\n" for name in names)
    listed = {name: {"type": "integer"} for name in names[:-1]}
    schema = {"type": "object", "additionalProperties": False, "properties": listed}
    files = {
        "app/settings.py": app,
        "docs/config.md": page,
        "docs/config.schema.json": json.dumps(schema, indent=2),
    }
    _, findings = check_project(tmp_path, files, "app")
    assert [f.location.path for f in findings if f.code == "CD103" and f.key == names[-1]] == [
        "app/settings.py"
    ]
