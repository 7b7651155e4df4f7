"""The commands of the command line, one module each: its library
function (callable from Python, tested without a subprocess), its
arguments (``register``), and the call from parsed arguments (``_run``).
``cli.build_parser`` registers them in this order."""

from __future__ import annotations

from configdrift.commands import (
    check,
    completion,
    coverage,
    diff,
    fix,
    init,
    map,
    rules,
    schema,
    sweep,
)

COMMANDS = (check, diff, sweep, map, fix, coverage, init, rules, schema, completion)
