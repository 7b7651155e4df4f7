"""Rules about one setting across its spellings (CD601-CD604): the
config key, the environment variable and the flag that set the same thing
(``link``) must agree on its default, its type and its choices."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from configdrift.link import settings_of
from configdrift.model import IMPLIED, Finding, Location, Related, Setting, Spelling, same_value
from configdrift.rules.registry import make, register
from configdrift.rules.values import ON_OFF, parse_doc_value, values_equal

if TYPE_CHECKING:
    from configdrift.analysis import Analysis


@register("CD601")
def setting_default_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    Two spellings of one setting (a config key, an environment variable, a
    flag, linked by ``envvar=``, by a default read from the environment,
    by one variable read twice, or by the project's convention of prefix
    and kebab case) whose defaults differ, after the conversion the
    project makes: a flag's string default ``"2"`` is the key's ``2``.

    Why it matters
    Which default a user gets depends on how they set the rest: the same
    program starts on port 8000 from the environment and on 8080 from the
    command line. The docs of one spelling are then wrong for the other.

    Example
    ``port: int = 8000`` in a settings class with ``env_prefix="APP_"``,
    and ``parser.add_argument("--port", type=int, default=8080)``.

    How to fix
    Give both spellings the same default, best by reading it from one
    place (``default=settings.port``).
    """
    for setting in settings_of(analysis):
        for odd, majority in _odd_ones_out(_defaults(setting), same_value):
            here, there = odd.default, majority[0].default
            assert here is not None and there is not None
            others = _names(majority, odd)
            verb = "defaults" if len(majority) == 1 else "default"
            message = (
                f"{_named(odd, majority)} defaults to {here.text}, but {others}, "
                f"the same setting, {verb} to {there.text}"
            )
            yield _finding("CD601", odd, majority, setting, message)


@register("CD602")
def setting_type_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    Two spellings of one setting (linked as for CD601) that accept
    different values: their choices differ (``--log-level`` takes
    ``error``, ``APP_LOG_LEVEL`` does not), or their types cannot hold
    each other's values (a flag that takes an int, a key that takes a
    bool, or a flag parsed as an int where the others take a float). A
    string converts to the others, so a flag without ``type=`` agrees with
    any key; an int flag beside an int-or-float key does too.

    Why it matters
    A value one spelling takes fails, or means something else, through the
    other: a user who moves a working flag into the environment gets an
    error at start-up.

    Example
    ``log_level: Literal["debug", "info", "warning"]`` in a settings class,
    and ``--log-level`` with ``choices=["debug", "info", "warning", "error"]``.

    How to fix
    Declare the choices once (an ``Enum`` both use) or make both lists
    equal; give both spellings one type.
    """
    for setting in settings_of(analysis):
        choices = [
            (sp, frozenset(c for c in sp.type.choices if c is not None))
            for sp in setting.spellings
            if sp.type.choices
        ]
        for odd, majority in _odd_ones_out(choices, lambda a, b: a == b):
            message = _choices(odd, majority[0])
            if message:
                yield _finding("CD602", odd, majority, setting, message)
        reported: set[int] = set()
        for here, there in _kind_clashes(setting):
            if id(here) not in reported:
                reported.add(id(here))
                message = _kinds(here, there)
                if message:
                    yield _finding("CD602", here, [there], setting, message)


@register("CD603")
def setting_doc_default_mismatch(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A spelling of a setting documented with a default although it declares
    none of its own (a flag with no ``default=``, or one computed at run
    time), where the setting's other spellings agree on a different one:
    the value a user gets when they leave it unset.

    Why it matters
    The docs of the flag promise one value and the program runs with
    another; nothing in the flag's own declaration shows it, so a check of
    the flag alone (CD104) cannot see it.

    Example
    ``--port`` documented as "Defaults to `8080`." while
    ``parser.add_argument("--port", type=int)`` declares no default and
    ``APP_PORT`` (``port: int = 8000``) gives it one.

    How to fix
    Document the default the setting has, or give the flag the one the
    docs name.
    """
    for setting in settings_of(analysis):
        values = _defaults(setting)
        for spelling in setting.spellings:
            clash = _documented_clash(spelling, values)
            if clash is None:
                continue
            others, _ = clash
            holder = others[0]
            assert holder.default is not None and spelling.doc is not None
            own = (
                "declares none"
                if spelling.default is None
                else f"takes `{spelling.default.text}` at run time"
            )
            verb = "defaults" if len(others) == 1 else "default"
            message = (
                f"`{spelling.name}` is documented with default {spelling.doc_default}, but it "
                f"{own}, and {_names(others, spelling)}, the same setting, {verb} to "
                f"{holder.default.text}"
            )
            yield _finding("CD603", spelling, others, setting, message, at=spelling.doc)


@register("CD604")
def setting_docs_disagree(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    Two spellings of one setting whose doc entries name different defaults
    where the code gives neither a default that can be read (a flag
    without ``default=``, a variable read without a fallback, a default
    computed at run time): one of the two pages is wrong. A spelling
    documented as unset (``None``, ``null``: a flag that overrides the
    setting when given) disagrees with no other.

    Why it matters
    A user reads one page or the other; which default they believe
    depends on which. Where the code gives a default, CD104 and CD603 say
    which page is wrong; here only the disagreement is certain.

    Example
    ``docs/cli.md`` says `--workers` defaults to `4`; ``docs/env.md`` says
    `APP_WORKERS` defaults to `2`; the code computes it from the CPU count.

    How to fix
    Find the default the code computes and write it on both pages, or
    say on both that it is computed.
    """
    for setting in settings_of(analysis):
        documented = [
            (sp, parse_doc_value(sp.doc_default))
            for sp in setting.spellings
            if sp.doc is not None and sp.doc_default and not _own_default(sp)
        ]
        documented = [(sp, value) for sp, value in documented if value.known]
        reported: set[int] = set()
        for i, (a, doc_a) in enumerate(documented):
            for b, doc_b in documented[i + 1 :]:
                if a.doc == b.doc or id(b) in reported or doc_b.word:
                    continue
                if doc_a.value is None or doc_b.value is None:
                    continue  # unset there (a flag that overrides): the other applies
                if values_equal(doc_a, doc_b.value) is not False:
                    continue
                here, there = (a, b) if _rank(a) >= _rank(b) else (b, a)
                assert here.doc is not None and there.doc is not None
                reported.add(id(here))
                message = (
                    f"`{here.name}` is documented with default {here.doc_default}, but "
                    f"`{there.name}`, the same setting, with {there.doc_default}: one of the "
                    "two pages is wrong (the code gives neither a default that can be read)"
                )
                yield _finding("CD604", here, [there], setting, message, at=here.doc)


def _own_default(spelling: Spelling) -> bool:
    """Does the code give the spelling a default that can be read?"""
    default = spelling.default
    return default is not None and default.known and default.value is not None


def setting_default_for(analysis: Analysis, key: str, doc: Location) -> Any:
    """The default a CD603 finding's spelling (``key``, documented at
    ``doc``) has through its setting's other spellings, or None (``fix``)."""
    for setting in settings_of(analysis):
        values = _defaults(setting)
        for spelling in setting.spellings:
            if spelling.name == key and spelling.doc == doc:
                clash = _documented_clash(spelling, values)
                if clash is not None:
                    return clash[1]
    return None


def _documented_clash(
    spelling: Spelling, values: list[tuple[Spelling, Any]]
) -> tuple[list[Spelling], Any] | None:
    """The other spellings, agreeing on one default, that a spelling with
    no default of its own is documented against, and that default; None
    where nothing clashes for certain."""
    if spelling.doc is None or spelling.doc_default is None:
        return None
    if spelling.default is not None and spelling.default.known:
        return None  # a default of its own: CD104 compares the two
    others = [(sp, value) for sp, value in values if sp is not spelling]
    if not others or not all(same_value(others[0][1], value) for _, value in others):
        return None  # no default, or several: nothing is certain
    agreed = others[0][1]
    if values_equal(parse_doc_value(spelling.doc_default), agreed) is not False:
        return None
    return [sp for sp, _ in others], agreed


def _choices(here: Spelling, there: Spelling) -> str | None:
    mine = here.type.choices
    theirs = there.type.choices
    if mine is None or theirs is None:
        return None
    only_here = [c for c in mine if c is not None and not any(same_value(c, t) for t in theirs)]
    only_there = [c for c in theirs if c is not None and not any(same_value(c, m) for m in mine)]
    if not (only_here or only_there):
        return None
    if only_here:
        text = f"`{here.name}` takes {_listed(only_here)}, but `{there.name}`, the same setting, "
        text += f"rejects {_them(only_here)}"
        if only_there:
            text += f"; it takes {_listed(only_there)}, which `{here.name}` rejects"
        return text
    return (
        f"`{there.name}` takes {_listed(only_there)}, but `{here.name}`, the same setting, "
        f"rejects {_them(only_there)}"
    )


def _kinds(here: Spelling, there: Spelling) -> str | None:
    mine = here.type.kinds - {"null"}
    theirs = there.type.kinds - {"null"}
    if not mine or not theirs or mine & theirs or "str" in mine | theirs:
        return None
    if mine | theirs <= {"int", "float"}:
        # An int takes where a float is asked, but a flag parsed with
        # ``int`` rejects the fractions its setting's other spellings take.
        narrow = next(
            (
                sp
                for sp, kinds in ((here, mine), (there, theirs))
                if sp.kind == "flag" and kinds == {"int"}
            ),
            None,
        )
        if narrow is None:
            return None
        other = there if narrow is here else here
        return (
            f"`{narrow.name}` takes an int, but `{other.name}`, the same setting, takes a "
            "float: a fraction the setting takes fails as the flag"
        )
    if mine | theirs == {"list", "dict"} and "flag" in (here.kind, there.kind):
        return None  # a command line writes a dict as repeated ``KEY=VALUE`` items
    return (
        f"`{here.name}` takes {here.type.text or _listed(sorted(mine))}, but `{there.name}`, "
        f"the same setting, takes {there.type.text or _listed(sorted(theirs))}"
    )


def _parse(text: str, like: Any) -> Any:
    """A string as the number or bool ``like`` is; None for any other type
    (a list, a dict, an object), or a string that does not parse."""
    low = text.strip().lower()
    if isinstance(like, bool):
        return ON_OFF.get(low)
    if not isinstance(like, int | float):
        return None
    for kind in (int, float):
        try:
            return kind(text.strip())
        except ValueError:
            continue
    return None


def _rank(spelling: Spelling) -> tuple[int, str, int]:
    """Which spelling overrides which: a flag (or a variable a flag
    declares) over a variable over a key, else the later declaration."""
    kind = 2 if spelling.flag else {"key": 0, "env": 1, "flag": 2}[spelling.kind]
    return (kind, spelling.location.path, spelling.location.line)


def _odd_ones_out(
    values: list[tuple[Spelling, Any]], same: Callable[[Any, Any], bool]
) -> Iterator[tuple[Spelling, list[Spelling]]]:
    """The spellings whose value differs from the most spellings', each with
    those; on a tie, the one that overrides (a flag) is the odd one."""
    clusters: list[list[tuple[Spelling, Any]]] = []
    for spelling, value in values:
        for cluster in clusters:
            if same(cluster[0][1], value):
                cluster.append((spelling, value))
                break
        else:
            clusters.append([(spelling, value)])
    if len(clusters) < 2:
        return
    clusters.sort(key=lambda c: (-len(c), max(_rank(sp) for sp, _ in c)))
    majority = [sp for sp, _ in clusters[0]]
    for cluster in clusters[1:]:
        for spelling, _ in cluster:
            yield spelling, majority


def _defaults(setting: Setting) -> list[tuple[Spelling, Any]]:
    """The spellings' known defaults, a string parsed as the type of the
    setting's others (``"2"`` as ``2``): the conversion the project makes.
    A string that does not parse is left out: nothing is certain then."""
    # A switch's state when not given is no default to compare: a program
    # that merges the flags it was given over its configuration drops it.
    known = [
        (sp, sp.default.value)
        for sp in setting.spellings
        if sp.default is not None
        and sp.default.known
        and sp.default.value is not None
        and not sp.default.text.endswith(IMPLIED)
    ]
    typed = [value for _, value in known if not isinstance(value, str)]
    out: list[tuple[Spelling, Any]] = []
    for spelling, value in known:
        if isinstance(value, str) and typed:
            # A flag's ``"[]"`` beside a key's ``()``: what the project
            # parses a string into is not known beyond numbers and bools.
            value = _parse(value, typed[0])
            if value is None:
                continue
        out.append((spelling, value))
    return out


def _kind_clashes(setting: Setting) -> Iterator[tuple[Spelling, Spelling]]:
    """Pairs of spellings whose types hold none of each other's values,
    the overriding one first."""
    typed = [sp for sp in setting.spellings if sp.type.kinds - {"null"}]
    for i, a in enumerate(typed):
        for b in typed[i + 1 :]:
            if _kinds(a, b) is not None:
                yield (a, b) if _rank(a) >= _rank(b) else (b, a)


def _finding(
    code: str,
    here: Spelling,
    others: list[Spelling],
    setting: Setting,
    message: str,
    at: Location | None = None,
) -> Finding:
    """A finding on ``here`` (at its declaration, or ``at``) naming every
    other spelling's place, the docs of each and the evidence of the link."""
    related = [
        Related(sp.location.path, sp.location.line, f"`{sp.name}` is declared here")
        for sp in (*others, here)
        if at is not None or sp is not here
    ]
    related += [
        Related(sp.doc.path, sp.doc.line, f"`{sp.name}` is documented here")
        for sp in (here, *others)
        if sp.doc is not None and sp.doc != at
    ]
    link = next((k for k in setting.links if here in (k.a, k.b)), setting.links[0])
    if link.location is not None and link.location != here.location:
        related.append(Related(link.location.path, link.location.line, link.why))
    text = f"{message} ({link.how}: {link.why})"
    finding = make(code, here.name, at or here.location, text, tuple(related))
    return dataclasses.replace(finding, surface=here.surface)


def _named(spelling: Spelling, others: list[Spelling]) -> str:
    """A spelling by its name, and by what declares it where another
    spelling has the same name (one variable read in two places)."""
    if all(spelling.name != other.name for other in others):
        return f"`{spelling.name}`"
    if spelling.flag:
        return f"`{spelling.name}` as `{spelling.flag}` reads it"
    return f"`{spelling.name}` ({spelling.declared_by or spelling.surface})"


def _names(spellings: list[Spelling], odd: Spelling) -> str:
    """The spellings named in a sentence: `a`, `b` and `c`."""
    names = [_named(sp, [odd]) for sp in spellings]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _them(values: list[Any]) -> str:
    return "it" if len(values) == 1 else "them"


def _listed(values: list[Any]) -> str:
    return ", ".join(f"`{v}`" for v in values)
