"""The JSON Schemas configdrift ships: its JSON report (``check`` and
``diff --format json``), ``map --format json``, and ``[tool.configdrift]``.
Each output names its schema by ``$schema``; ``configdrift schema NAME``
prints one, for an editor or a validator."""

from __future__ import annotations

import json
from typing import Any

#: Schema name -> its ``$id``, which the output's ``$schema`` names.
SCHEMA_IDS = {
    "report": "urn:configdrift:schema:report:1",
    "map": "urn:configdrift:schema:map:1",
    "config": "urn:configdrift:schema:config:1",
}


def schema_text(name: str) -> str:
    """The schema ``name`` (``report``, ``map`` or ``config``) as shipped."""
    from importlib.resources import files

    return files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as data."""
    data: dict[str, Any] = json.loads(schema_text(name))
    return data
