"""``configdrift schema NAME``: print a JSON Schema configdrift ships (the
JSON report, ``map --format json``, ``[tool.configdrift]``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import ExitCode

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers


def show_schema(name: str, *, out: TextIO | None = None) -> int:
    """Print the schema ``name``."""
    from configdrift.schemas import schema_text

    (out or sys.stdout).write(schema_text(name))
    return ExitCode.OK


def register(sub: Subparsers) -> None:
    """``schema NAME``, with its argument."""
    from configdrift.schemas import SCHEMA_IDS

    p_schema = sub.add_parser(
        "schema",
        help="print a JSON Schema: the JSON report, map's JSON, or [tool.configdrift]",
        description="Print a JSON Schema configdrift ships. `report` describes "
        "`check --format json` and `diff --format json`, `map` describes "
        "`map --format json`, `config` describes [tool.configdrift] (or configdrift.toml) "
        "for an editor's completion.",
    )
    p_schema.add_argument("name", choices=sorted(SCHEMA_IDS), help="which schema")
    p_schema.set_defaults(run=lambda args: show_schema(args.name))
