"""Rules on how the code reads keys from config dicts (CD106)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.model import (
    Finding,
    Location,
    Related,
    SchemaNode,
    format_path,
    read_defaults,
    same_value,
)
from configdrift.rules.around_registry import fallbacks_against_declared, fallbacks_around
from configdrift.rules.merged_defaults import merged_defaults
from configdrift.rules.namespace_fallbacks import namespace_fallbacks
from configdrift.rules.registry import make, register

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


@register("CD106")
def read_default_conflict(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    One config key read in two places that fall back to different defaults
    when the key is not set: ``d.get("steps", 10)`` here and
    ``get_scalar_param(d, STEPS, STEPS_DEFAULT)`` with ``STEPS_DEFAULT = 100``
    there. A literal the read's value is replaced by when the key is unset
    is its default too (``d.get("branch") or "main"``; ``v = d.get("branch")``
    then ``if not v: v = "master"``). Defaults are compared as values
    (``5e8`` is ``500000000``); a default of ``None`` or one computed at
    runtime is not compared. The settings a registry declares (an option
    table or namespace, a defaults module) are compared too where the code
    reads them by name with literal fallbacks through one accessor of the
    registry's keys (``conf.get("k", False)`` here and
    ``conf.get("k", True)`` there), and a key declared with its default
    (a registry's, an option registered by name, a theme's) that such an
    accessor reads with another fallback (``getattr(config, "k", True)``
    where ``add_config_value("k", False, "env")`` declares it), and a
    command-line option read from the parsed arguments with another
    fallback (``getattr(args, "device", "cpu")`` where ``--device``
    defaults to ``"cuda"``; the receiver reads three of the parser's
    destinations so), and a key's default written again in a dict the
    code merges what it is given over (``self.config = {"wrap": 80, ...}``
    then ``self.config.update(kwargs)``, where the table declares ``79``;
    three of the dict's keys, and half, are the surface's). Fallbacks
    that both mean unset (``False`` and ``""``), a string against a
    declared non-string (parsed where it is read), an empty dict against
    a declared section (``get("colors", {})``, each key then read with its
    own fallback), and an object that reads mostly other names (a task's
    ``options``) are not compared.

    Why it matters
    The key's default depends on which code path reads it, so a documented
    default is true for one path and false for the other, and a config that
    leaves the key out behaves in two ways at once.

    Example
    The server reads ``params.get("retries", 3)`` while the client reads
    ``params.get("retries", 5)``.

    How to fix
    Read the key in one place (a constant for the default, or one accessor)
    and let every other path use that value.
    """
    for node in analysis.schema.walk():
        sites = read_defaults(node)
        if len(sites) < 2:
            continue
        first = sites[0]
        assert first.default is not None
        for site in sites[1:]:
            assert site.default is not None
            if same_value(site.default.value, first.default.value):
                continue
            key = format_path(node.path)
            yield make(
                "CD106",
                key,
                site.location,
                f"`{key}` falls back to {site.default.text} in `{site.function}`, but to "
                f"{first.default.text} in `{first.function}`: its default depends on the code path",
                (
                    Related(
                        first.location.path,
                        first.location.line,
                        f"`{first.function}` falls back to {first.default.text}",
                    ),
                ),
            )
            break
    # A registry's settings read by name (``conf.get("k", False)``), which
    # the flow does not follow (a registry's keys have no reads it follows):
    # against one another, else against the default it declares.
    told: set[str] = set()
    for key, reads in fallbacks_around(analysis):
        told.add(key)
        at, text, value = reads[0]
        where, other, _ = next(r for r in reads[1:] if not same_value(r[2], value))
        yield make(
            "CD106",
            key,
            where,
            f"`{key}` is read by name with the fallback {other} here, but with {text} "
            "elsewhere: its default depends on the code path",
            (Related(at.path, at.line, f"read with the fallback {text}"),),
        )
    for node, where, text in namespace_fallbacks(analysis):
        said = f"is read from the parsed arguments with the fallback {text} here"
        yield _against_declared(
            node, where, said, "the parser declares the default", "the parser declares it here"
        )
    for node, where, text, function in merged_defaults(analysis):
        said = f"defaults to {text} in `{function}`, which merges the given values over it"
        yield _against_declared(node, where, said)
    for node, where, text in fallbacks_against_declared(analysis):
        if node.key not in told:
            yield _against_declared(node, where, f"is read by name with the fallback {text} here")


def _against_declared(
    node: SchemaNode,
    where: Location,
    said: str,
    declared: str = "is declared with the default",
    note: str = "",
) -> Finding:
    """CD106 for a key read or defaulted (``said``) otherwise than it is
    declared (``declared``, and the related place's ``note``)."""
    key = format_path(node.path)
    assert node.default is not None
    return make(
        "CD106",
        key,
        where,
        f"`{key}` {said}, but {declared} {node.default.text}: its default depends on the code path",
        _declaration(node, note),
    )


def _declaration(node: SchemaNode, note: str = "") -> tuple[Related, ...]:
    """Where a key is declared with its default, as a related place (none
    where it is not known)."""
    if node.location is None or node.default is None:
        return ()
    where = node.location
    return (
        Related(where.path, where.line, note or f"declared with the default {node.default.text}"),
    )
