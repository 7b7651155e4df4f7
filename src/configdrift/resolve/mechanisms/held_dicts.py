"""A dict a class holds on ``self`` (``self.config.get("dev-mode", True)``)
or a function takes as a parameter (``settings.get("REDIS_HOST",
"localhost")``) and reads key by key: its keys are a configuration's
where the docs document most of them.

Plugin and builder classes often keep their section of a configuration
file as a plain dict and read each key in a method of its own, with its
default beside it; a helper reads the settings module a command loaded
the same way. No model declares the keys; the reads do. Such a dict is a
surface when the docs name ``MIN_KEYS`` of the keys read from it by a
literal name (five at least, and half), when one page's entries name
``PAGE_MIN_KEYS`` of them (and half), or when the docs' examples set
``PAGE_MIN_KEYS`` of them (and half) at the top or below one path, where
the surface is then placed. Each time its keys must be read as optional
(``_optional``): ``MIN_DEFAULTS`` of them with a default (all but one of
a smaller dict's), few by ``d[KEY]`` alone. A request's, a response's or
a lock file entry's dict is read by name too, but requires its keys, with
nothing to fall back on. A function's local that no flow follows, bound
to what a call returns (``ini = options_from_ini(path)``) or to a key of
another dict (``buttons = theme.get("launch_buttons", {})``), is one
where a page is about it (``ABOUT_SHARE`` of its entries are its keys),
then without a default each, or, a key of another dict, where the
examples set its keys below that very key. Each key's default is the one
it is read with, when every read of it that gives one agrees and it is
known statically; its reads are the key's (``SchemaNode.reads``): the
code is seen to read it.

Whether a documented key it does not read is ignored is not known: the
dict may be handed whole to code that reads it, or read by a base class
(whose own keys are another page's). Nothing is said of it; a key it reads
that no page documents is undocumented.
"""

from __future__ import annotations

from collections import defaultdict

from configdrift.extract.python.exprs import falls_back
from configdrift.extract.python.facts import ClassFact, DictRead, Expr
from configdrift.index.pages import ENTRY, under
from configdrift.index.spellings import normal
from configdrift.model import ReadSite, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_tables import table_option, table_root
from configdrift.resolve.schema import placed_under

#: The keys the docs must name, over all pages, of one class's dict.
MIN_KEYS = 5
#: Of those read, how many must be read with a default.
MIN_DEFAULTS = 3
#: At most one key in this many may be required (read by ``d[KEY]`` alone).
REQUIRED_SHARE = 4
#: The keys one page must spell of a class's dict (and half of them),
#: by entries or by the keys its examples set: a page about the dict.
PAGE_MIN_KEYS = 3
#: The share of a page's entries that must spell a dict's keys for the
#: page to be about it.
ABOUT_SHARE = 0.75


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each dict a class holds, or a function takes as a parameter, and
    reads by literal keys, where the docs document it (``_documented``),
    placed under the path its examples set it below, if they are its
    documentation."""
    builder = discovery.builder
    project = builder.project
    found: list[Surface] = []
    for module in sorted(project.modules):
        for (qualname, how, within), keys in _containers(discovery, module):
            evidence = _evidence(discovery, keys, within)
            if evidence is None:
                continue
            path, exemplified = evidence
            first = min(line for reads in keys.values() for line, _, _, _ in reads)
            root, _, _ = table_root(builder, module, qualname, first)
            # A key it does not read may be read where the dict is handed
            # whole, or by a base class: nothing is said of it.
            root.strict = None
            for key, reads in sorted(keys.items()):
                given = [d for _, d, _, _ in reads if d is not None]
                one = len({str(d) for d in given}) == 1
                default = project.evaluate(module, given[0]) if one else None
                where = project.location(module, min(line for line, _, _, _ in reads))
                node = root.children[key] = table_option((key,), default, where, qualname)
                # Its reads: the code is seen to read it.
                node.reads = [
                    ReadSite(
                        (key,),
                        project.location(module, at),
                        module,
                        function,
                        form,
                        project.evaluate(module, fallback) if fallback is not None else None,
                    )
                    for at, fallback, form, function in reads
                ]
            if discovery.claim(root, _spelt(discovery, set(keys)), PAGE_MIN_KEYS):
                how = f"{len(keys)} keys {how}"
                if path:
                    root = placed_under(root, ".".join(path))
                    how += f", set under {'.'.join(path)} in the docs' examples"
                elif exemplified:
                    how += ", set at the top in the docs' examples"
                found.append(Surface(qualname, root, how, [], "", exemplified=exemplified))
    return found


#: Reads of one dict: key -> [(line, default expression, how, function)].
Reads = dict[str, list[tuple[int, Expr | None, str, str]]]


def _evidence(
    discovery: Discovery, keys: Reads, within: tuple[str, ...] | None
) -> tuple[tuple[str, ...], bool] | None:
    """The path a dict is documented under and whether by its examples
    (``_documented``), or None. A dict a function's local holds
    (``within`` not None: the keys of another dict it is, ``()`` for what
    a call returns) no flow follows: it is documented only by a page
    about it (``_about``), where its keys need no defaults to be a
    configuration's, or, a key of another dict, by examples that set its
    keys below that very key."""
    if within is None:
        return _documented(discovery, set(keys)) if _optional(keys) else None
    if _about(discovery, set(keys)):
        return ((), False) if _optional(keys, defaults=False) else None
    if not within or not _optional(keys):
        return None
    evidence = _documented(discovery, set(keys))
    if evidence is None or not evidence[0] or normal(evidence[0][-1]) != normal(within[-1]):
        return None
    return evidence


def _optional(keys: Reads, *, defaults: bool = True) -> bool:
    """Are the dict's keys read as a configuration's are, each optional:
    ``MIN_DEFAULTS`` of them read with a default (all but one of a smaller
    dict's), and at most a quarter of them required, read by ``d[KEY]``
    alone and never tested first? A record's dict (a lock file's entry, a
    request's scope) requires its keys."""
    given = sum(any(falls_back(d) for _, d, _, _ in reads) for reads in keys.values())
    if defaults and given < min(MIN_DEFAULTS, len(keys) - 1):
        return False
    required = sum(all(how == "subscript" for _, _, how, _ in reads) for reads in keys.values())
    return REQUIRED_SHARE * required <= len(keys)


def _containers(
    discovery: Discovery, module: str
) -> list[tuple[tuple[str, str, tuple[str, ...] | None], Reads]]:
    """The dicts of one module read by literal keys, each named (``Class.attr``
    or ``function(param)``) with what reads it and, for a function's
    local, the keys of another dict it is: those a class holds on
    ``self``, those a function takes as a parameter and reads itself
    (a key of a key, a section, is not the dict's), and a function's
    locals bound to what a call returns or to a key of another dict."""
    info = discovery.builder.project.modules[module]
    held: dict[tuple[str, str, tuple[str, ...] | None], Reads] = defaultdict(
        lambda: defaultdict(list)
    )
    reads = [(r, HELD) for r in info.facts.held_reads]
    reads += [(r, PARAM) for r in info.facts.dict_reads]
    reads += [(r, CALLED) for r in info.facts.call_reads]
    for read, origin in reads:
        container = _container(read, info.classes, origin)
        keys = read.source.keys
        if origin == CALLED:
            within = tuple(str(k[1]) for k in keys[:-1])
            name = _key(discovery, module, keys[-1:]) if container else None
        else:
            within, name = None, _key(discovery, module, keys) if container else None
        if container is not None and name is not None:
            held[(*container, within)][name].append(
                (read.line, read.default, read.how, read.function)
            )
    return sorted(held.items())


#: Where a read's dict comes from: held by a class on ``self``, a
#: function's parameter, what a call returns to a function's local.
HELD, PARAM, CALLED = "held", "param", "called"


def _container(
    read: DictRead, classes: dict[str, ClassFact], origin: str
) -> tuple[str, str] | None:
    """The dict a read reads from, named, with what reads it: a class's
    ``self.attr`` (a ``HELD`` read, that no flow follows), a function's
    parameter, or what a call returns to a function; None for another."""
    base = read.source.base
    if origin == CALLED:
        path = "".join(f"[{k[1]!r}]" for k in read.source.keys[:-1])
        return (
            f"{base}{path} in {read.function}",
            f"{read.function} reads from {base}{path}"
            if path
            else f"{read.function} reads from what {base} returns",
        )
    if origin == HELD:
        owner = read.function.rpartition(".")[0]
        if not base.startswith("self.") or base.count(".") != 1 or owner not in classes:
            return None
        return f"{owner}.{base[5:]}", f"the methods of {owner} read from {base}"
    if not read.source.is_param or "." in base or base in ("self", "cls"):
        return None
    return f"{read.function}({base})", f"{read.function} reads from its parameter {base}"


def _key(discovery: Discovery, module: str, keys: list[Expr]) -> str | None:
    """The key a read of a dict's own key reads, when it is known statically."""
    if len(keys) != 1:
        return None
    return discovery.builder.project.string(module, keys[0]) or None


def _about(discovery: Discovery, keys: set[str]) -> bool:
    """Is one page about the dict: ``PAGE_MIN_KEYS`` of its entries or
    more, and ``ABOUT_SHARE`` of them, spell keys read from it (bandit's
    list of the ``.bandit`` file's arguments, of the keys ``main`` reads
    from what ``_get_options_from_ini`` returns)?"""
    if discovery.pages is None or len(keys) < PAGE_MIN_KEYS:
        return False
    fresh = {normal(k) for k in keys - discovery.taken}
    return any(
        len(fresh & entries) >= max(PAGE_MIN_KEYS, ABOUT_SHARE * len(entries))
        for entries in (page.names(ENTRY) for page in discovery.pages())
    )


def _documented(discovery: Discovery, keys: set[str]) -> tuple[tuple[str, ...], bool] | None:
    """Is a dict documented, under which path, and by its examples? ``()``
    where the docs name ``MIN_KEYS`` of its keys and half, or where one
    page's entries spell ``PAGE_MIN_KEYS`` of them and half; where the
    docs' examples set ``PAGE_MIN_KEYS`` of them and half, the path they
    set them under (``tool.app.envs.*``, or ``()`` at the top) and
    ``True``: the examples are its documentation. None where no evidence
    is enough, or the examples set them at no one path."""
    if len(keys) >= MIN_KEYS:
        documented = keys & discovery.names - discovery.taken
        if len(documented) >= MIN_KEYS and 2 * len(documented) >= len(keys):
            return (), False
    if discovery.pages is None or len(keys) < PAGE_MIN_KEYS:
        return None
    fresh = {normal(k) for k in keys - discovery.taken}
    pages = discovery.pages()
    if any(len(fresh & page.names(ENTRY)) >= max(PAGE_MIN_KEYS, len(keys) / 2) for page in pages):
        return (), False
    examples = [s for page in pages for s in page.examples(fresh)]
    set_ = {normal(s.path[-1]) for s in examples}
    if len(set_) < PAGE_MIN_KEYS or 2 * len(set_) < len(keys):
        return None
    if 2 * sum(len(s.path) == 1 for s in examples) > len(examples):
        return (), True  # set at the top, as a settings module sets them
    # Set at no one path: blocks of other configurations that share names.
    path = under(examples)
    return (path, True) if path else None


def _spelt(discovery: Discovery, keys: set[str]) -> frozenset[str]:
    """The keys the docs spell, on any page, entries and examples alike:
    a surface's evidence."""
    named = {n for page in discovery.page_keys() for n in page.names()}
    return frozenset(k for k in keys if k in discovery.names or normal(k) in named)
