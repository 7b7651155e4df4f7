"""Rules on what code reads from config objects (CD201, CD202)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.discover import MKDOCS_THEME
from configdrift.extract.python.facts import built_name_matches
from configdrift.model import (
    ANY_KEY,
    LIST_ITEM,
    ConfigPath,
    DocEntry,
    Finding,
    Related,
    SchemaNode,
    format_path,
)
from configdrift.rules.around_registry import read_around
from configdrift.rules.attribute_trees import inert_leaves, undeclared_reads
from configdrift.rules.built_names import built_reads_of
from configdrift.rules.evidence import (
    code_files,
    function_called,
    is_loaded,
    loaded_names,
    named_bare,
    named_in_templates,
    once,
    quoted_elsewhere,
    quoted_in,
    quoted_twice,
    read_by_key,
    read_elsewhere,
)
from configdrift.rules.registry import make, register

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.model import ReadSite


#: Surfaces read by name, not through config objects.
_READ_BY_NAME = frozenset({"argparse", "click", "env", "setting"})


@register("CD201")
def dead_accessor(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    Code that reads an attribute of a config object, or a key of a config
    dict, that the schema does not declare: ``self.config.server.X``
    where the model behind ``server`` has no field ``X``, or
    ``params["server"]["X"]`` under a model that forbids ``X``.
    The finding says whether anything calls the function that holds the read.
    Also, as a warning, a setting the package reads by name from its
    settings object (``settings.getint("PER_IP")``) that its defaults module
    does not declare: the read bypasses the registry, with a default of its
    own. And, as a warning, a key the docs present on a registry's page
    (an option table or namespace, a defaults module) that the registry
    does not declare, where the code reads it by its literal name
    (``conf.get("redis_client_name")``, ``_get("client_name")``): the
    docs and the code agree on a setting the registry's type, default and
    old names never apply to. The read must be through an accessor that
    reads two of the registry's own keys by name too, in the same file
    (``conf.get``, ``_get``), outside the tests; a key spelt in another
    case than the registry's (``Task`` beside ``task_acks_late``) is
    something else, and a word (``url``) read by name may be any dict's.
    And a key the docs present beside options registered by name (Sphinx's
    ``add_config_value``), with the prefix most of them share, that the
    code reads as an attribute of the configuration
    (``app.config.foo_color``) where nothing registers, assigns or quotes
    it: Sphinx raises an ``AttributeError`` at the read, and ignores the
    value ``conf.py`` sets. And a key read below a node of a yacs tree
    of defaults (``cfg.DATALOADER.RATIO`` where ``_C.DATALOADER = CN()``
    declares no ``RATIO``, nor any code assigns it there): yacs raises
    an ``AttributeError``, and refuses a config file that sets it.

    Why it matters
    The read can only fail (an ``AttributeError``), or it reads a key that a
    valid config can never contain. It is often the last trace of an option
    that was documented but never wired up.

    Example
    ``keepalive()`` returns ``self.config.server.keepalive``, but
    ``ServerConfig`` never declared ``keepalive``.

    How to fix
    Declare the field if the option is meant to exist; otherwise delete the
    accessor and its callers.
    """
    yield from read_around(analysis)
    yield from undeclared_reads(analysis)
    if analysis.first is not None and analysis.schema.model_kind in _READ_BY_NAME:
        # A surface read by name holds no config objects of its own: the
        # chains were judged with the first surface (a shortcut, no verdict).
        return
    objects = analysis.objects
    loaded = loaded_names(analysis)
    mounted = {node.model for node in analysis.schema.walk() if node.model}
    seen: set[tuple[str, int, str]] = set()
    for chain in objects.chains():
        parts = chain.text.split(".")
        for index, receivers in enumerate(chain.receivers):
            if index == 0 and parts[0] == "self":
                continue  # a class's own members are its business, not config
            if objects.is_narrowed(chain.module, chain.function, ".".join(parts[: index + 1])):
                break  # the type at the read is the one a test narrowed it to
            attr = parts[index + 1]
            verdicts = [objects.declares(owner, attr) for owner in receivers]
            if not verdicts or any(v is not False for v in verdicts):
                continue
            if any(objects.declared_below(owner, attr) for owner in receivers):
                continue  # a subclass that declares it may be what is read
            if not all(objects.is_config_object(owner, mounted) for owner in receivers):
                continue
            key = (chain.location.path, chain.location.line, attr)
            if key in seen:
                break
            seen.add(key)
            owner = sorted(receivers, key=lambda s: s.qualname)[0]
            info = analysis.project.modules[owner.module]
            cls = info.classes[owner.qualname]
            called = function_called(loaded, chain.function)
            where = f"`{chain.function}`" + (", which nothing calls," if called is False else "")
            yield make(
                "CD201",
                attr,
                chain.location,
                f"{where} reads `{'.'.join(parts[: index + 2])}`, but {owner.qualname} declares no `{attr}`: "
                "the read can only fail",
                (
                    Related(
                        info.path,
                        cls.line,
                        f"{owner.qualname} declares its fields here"
                        if objects.model(owner) is not None
                        else f"{owner.qualname} sets its attributes from the config",
                    ),
                ),
            )
            break
    for site, node in analysis.dead_reads:
        yield make(
            "CD201",
            format_path(site.path),
            site.location,
            f"`{site.function}` reads `{format_path(site.path)}`, but {node.model or 'the schema'} forbids unknown keys: "
            "no valid config holds it",
            (
                Related(
                    node.model_location.path,
                    node.model_location.line,
                    f"{node.model} declares the accepted keys",
                ),
            )
            if node.model_location
            else (),
            None,
        )


def _fields(root: SchemaNode) -> Iterator[tuple[SchemaNode, SchemaNode]]:
    """(model node, field node) for every model field in the tree."""
    for node in root.walk():
        if node.model is None:
            continue
        for child in node.children.values():
            if child.key not in (ANY_KEY, LIST_ITEM) and child.origin.startswith(
                ("field of", "option")
            ):
                yield node, child


@register("CD202")
def inert_option(analysis: Analysis) -> Iterator[Finding]:
    """What it finds
    A config key that is accepted and then never used: a model field that no
    code reads (no attribute access, no ``getattr`` with its name), a
    setting a defaults module or an ``AppConf`` class declares that no code
    spells (as an attribute or a string), or a key read from a dict only to
    be copied into an attribute of a config object that nothing reads, or
    a key of a tree of settings built by assigning attributes (``_C.MODEL.X
    = 1``, yacs's defaults) that no code reads by its name (as an attribute
    or a string) where the code reads half of its siblings or more. It
    stays quiet where a read could hide: a ``getattr`` with a computed name
    that could build the field's name, on an object that may be the model
    (``self`` in its class, a name typed as it or that the code reads the
    model's fields through, a loop over such an object's own attributes or
    over those of whatever a function is handed; not a loop over
    ``sys.modules``), or on any other object where the code quotes the
    name; a module's constant read by its bare name; the model dumped
    whole (``model_dump()``, ``dict()``), or looped over as a dict through
    an object the code reads two of its fields through and nothing else
    (``for key, value in self.current.items()``), or a
    dict's key a template among the code spells (``{{ build_date }}``), or
    a command-line option the code finds by its long flag in the argument
    list (``argv.index("--config")``: the flag quoted beside its
    declaration); and it does not judge the fields of a model none of
    whose fields the code reads (such a model is used whole, in ways
    static analysis does not see).

    Why it matters
    Users set the option and nothing happens. Inert options are also the half
    of a removal that was never finished.

    Example
    ``legacy_mode`` is parsed into ``self.legacy_mode_enabled``, which no
    code reads.

    How to fix
    Wire the option to the code that should honour it, or remove it (and
    register the removal so that old configs get a clear error).
    """
    loaded = loaded_names(analysis)
    dumped = _dumped_models(analysis)
    fields = list(_fields(analysis.schema))
    dumped |= _iterated_models(analysis, fields)
    # A model none of whose fields the code reads is used some other way
    # (serialised, handed on whole): its fields are not judged one by one.
    # A table's key is read by name too: a getter's literal argument
    # anywhere but the table itself (``settings.get("SECRET")``); so is a
    # setting a settings object declares.
    tabled = {
        field.key: (field.location.path, field.location.line)
        for model, field in fields
        if (model.model_kind == "table" or field.model_kind == "setting")
        and field.location is not None
        and not is_loaded(field.key, loaded)
    }
    code = code_files(analysis)
    by_name = quoted_elsewhere(analysis, code, tabled)
    # A module's constant is read by its bare name, where it is assigned or
    # imported (``STATS_NAME_WIDTH - 4``).
    constants = {field.key for model, field in fields if model.model in analysis.project.modules}
    by_name |= named_bare(analysis, code, constants - by_name)
    consumed = {
        model.model
        for model, field in fields
        if is_loaded(field.key, loaded) or field.key in by_name or field.reads
    }
    documented = {entry.path: entry for entry in analysis.entries}
    accessors = _accessor_only(analysis, loaded)
    candidates: list[tuple[SchemaNode, str, bool]] = []
    scoped: dict[int, list[tuple[tuple[str, ...], bool]]] = {}
    # Names only a built name on an object nothing shows to be the model's
    # may read: read, where the code quotes them (``get(cfg, "timeout")``).
    loose: set[str] = set()

    def built_of(model: SchemaNode) -> list[tuple[tuple[str, ...], bool]]:
        if id(model) not in scoped:
            scoped[id(model)] = built_reads_of(analysis, model)
        return scoped[id(model)]

    for model, field in fields:
        name = field.key
        if field.deprecated or field.location is None or model.model in dumped or field.reads:
            continue  # a TypedDict's key is read as a dict's (``settings["path"]``)
        if model.model_kind == "argparse" and is_loaded("__dict__", loaded):
            continue  # ``vars(args)`` hands every option on at once
        if field.model_kind in ("click", "env"):
            continue  # a command's parameter, or a variable the code reads
        if model.model not in consumed:
            continue
        matched = [shown for parts, shown in built_of(model) if built_name_matches(parts, name)]
        if any(matched):
            continue  # ``getattr(cfg, f"{section}_{option}")`` may read it
        readers = accessors.get((model.model or "", name))
        if matched:
            loose.add(name)
        key = format_path(field.path)
        unread = not readers
        if readers:
            names = ", ".join(f"`{r}`" for r in readers)
            message = (
                f"`{key}` is read only by {names}, which nothing calls: setting it does nothing"
            )
        elif is_loaded(name, loaded):
            continue
        else:
            message = f"`{key}` is declared by {model.model}, but no code reads `{name}`: setting it does nothing"
        candidates.append((field, message, unread))
    # Reads the code view does not hold: another field's default built from
    # it (``url: str = f"redis://{host}"``), scripts and tests.
    wanted = {field.key for field, _, unread in candidates if unread}
    used = read_elsewhere(analysis, wanted) | _used_in_bodies(analysis, wanted)
    # A key the code reads from a dict by its name (``merged["formatter"]``)
    # may reach the field through the dict the model is built from.
    used |= read_by_key(analysis, code, wanted - used)
    # A MkDocs config is a dict: ``self.config[key]`` reads a key some call
    # names (``self._config("archive_toc", default)``); a Django command's
    # options arrive as a dict (``options["days"]``); so does a TypedDict.
    keyed = {
        field.key
        for field, _, unread in candidates
        if unread
        and field.model_kind is None
        and _parent_kind(analysis, field) in ("mkdocs", "argparse", "typeddict")
    }
    used |= by_name
    # Of those, the names the code quotes may be read through them.
    quoted = quoted_in(analysis, code, loose)
    if keyed:
        used |= quoted_in(analysis, code, keyed)
        # A dict the code renders a template with: the template reads it.
        used |= named_in_templates(analysis, keyed - used)
        # An option the code finds by its flag in the argument list
        # (``argv[argv.index("--config") + 1]``, before the parser runs).
        used |= _read_by_flag(
            analysis, code, [f for f, _, _ in candidates if f.key in keyed - used]
        )
    for field, message, unread in candidates:
        if (unread and field.key in used) or field.key in quoted:
            continue
        assert field.location is not None
        yield make(
            "CD202",
            format_path(field.path),
            field.location,
            message,
            tuple(
                Related(e.location.path, e.location.line, "documented here")
                for e in [documented.get(field.path)]
                if e is not None
            ),
        )
    yield from _inert_copies(analysis, loaded)
    yield from _inert_file_keys(analysis, documented)
    yield from inert_leaves(analysis)


def _read_by_flag(analysis: Analysis, code: list[str], fields: list[SchemaNode]) -> set[str]:
    """The options among ``fields`` whose long flag the code quotes beside
    its declaration: read from the argument list itself."""
    flags = {
        s: field
        for field in fields
        if _parent_kind(analysis, field) == "argparse"
        for s in field.spellings
        if s.startswith("--")
    }
    return {flags[s].key for s in quoted_twice(analysis, code, set(flags))}


def _inert_file_keys(
    analysis: Analysis, documented: dict[ConfigPath, DocEntry]
) -> Iterator[Finding]:
    """Keys of a defaults file the code reads by dotted path
    (``config.get("array.chunk-size")``) that no code names in any way
    (``model.Surface.unread``)."""
    root = analysis.schema
    for node in root.walk():
        dotted = ".".join(node.path)
        if dotted not in analysis.unread or node.deprecated or node.location is None:
            continue
        # Sphinx's templates read ``theme_<name>``, MkDocs's ``config.theme.<name>``.
        spelling = (
            f"config.theme.{dotted}"
            if node.location.path.endswith(MKDOCS_THEME)
            else f"theme_{dotted}"
        )
        why = (
            f"is declared in {node.location.path}, but no template of the theme "
            f"(`{spelling}`) nor any code spells it"
            if root.model_kind == "theme"
            else f"is set in {root.model}, but no code reads it by its dotted path "
            "(nor a section above it)"
        )
        yield make(
            "CD202",
            dotted,
            node.location,
            f"`{dotted}` {why}: setting it does nothing",
            tuple(
                Related(e.location.path, e.location.line, "documented here")
                for e in [documented.get(node.path)]
                if e is not None
            ),
        )


def _parent_kind(analysis: Analysis, field: SchemaNode) -> str | None:
    """The kind of model that declares ``field``."""
    from configdrift.model import resolve_path

    parent = resolve_path(analysis.schema, field.path[:-1])[0]
    return parent.model_kind if parent is not None else None


def _used_in_bodies(analysis: Analysis, names: set[str]) -> set[str]:
    """Field names that another field's default uses (``url: str =
    f"redis://{host}"``, in the class or a base)."""
    from configdrift.extract.python.exprs import render

    used: set[str] = set()
    if not names:
        return used
    for model in analysis.code.known_models():
        for _module, fact in model.fields:
            if fact.value is not None and fact.name not in names:
                text = render(fact.value)
                used.update(n for n in re.findall(r"[A-Za-z_]\w*", text) if n in names)
    return used


def _accessor_only(analysis: Analysis, loaded: set[str]) -> dict[tuple[str, str], list[str]]:
    """(model, field) -> the methods that read it, when every read of the
    field in the project is a typed chain in a method that nothing calls."""
    return once(analysis, "accessors", lambda: _find_accessors(analysis, loaded))


def _find_accessors(analysis: Analysis, loaded: set[str]) -> dict[tuple[str, str], list[str]]:
    totals: dict[str, int] = {}
    for info in analysis.project.modules.values():
        for name, count in info.facts.attr_counts.items():
            totals[name] = totals.get(name, 0) + count
    reads: dict[tuple[str, str], list[str]] = {}
    counted: dict[str, int] = {}
    for chain in analysis.objects.chains():
        parts = chain.text.split(".")
        if len(chain.receivers) != len(parts) - 1:
            continue
        name = parts[-1]
        counted[name] = counted.get(name, 0) + 1
        if function_called(loaded, chain.function) is not False:
            reads.setdefault(("", name), []).append("")  # a read that is used
            continue
        for owner in chain.receivers[-1]:
            functions = reads.setdefault((owner.qualname, name), [])
            if chain.function not in functions:
                functions.append(chain.function)
    out: dict[tuple[str, str], list[str]] = {}
    for (model, name), functions in reads.items():
        if not model or ("", name) in reads or f"self.{name}" in totals:
            continue
        if counted.get(name, 0) == totals.get(name, 0):
            out[(model, name)] = functions
    return out


def _dumped_models(analysis: Analysis) -> set[str]:
    """Models some code dumps whole: every field may be used through the dump."""
    return once(analysis, "dumped", lambda: _find_dumped(analysis))


#: Methods of a dict-like object that hand on its every key at once.
_WHOLE = frozenset({"items", "keys", "values", "copy"})


def _iterated_models(analysis: Analysis, fields: list[tuple[SchemaNode, SchemaNode]]) -> set[str]:
    """Models read through an expression of no known type that the code
    also hands on whole as a dict (``self.current.nav_translations`` and
    ``for key, value in self.current.items()``): where every other name
    read through it is a field of a model, two at least, that model's
    every field may be used through the loop."""
    from configdrift.resolve.objects import DUMPS

    names = once(analysis, "names read through", lambda: _read_through(analysis))
    own: dict[str, set[str]] = {}
    for model, field in fields:
        if model.model is not None:
            own.setdefault(model.model, set()).add(field.key)
    out: set[str] = set()
    for read in names.values():
        if not read & _WHOLE:
            continue
        through = read - _WHOLE - DUMPS
        if len(through) >= 2:
            # Each model that has them all may be the object looped over.
            out.update(m for m, keys in own.items() if through <= keys)
    return out


def _read_through(analysis: Analysis) -> dict[str, set[str]]:
    """The names the code reads through each expression of its attribute
    chains (``self.current`` to ``nav_translations``, ``items``), once a
    project."""
    names: dict[str, set[str]] = {}
    for info in analysis.project.modules.values():
        for _, _, chain in info.facts.chains:
            head, _, last = chain.rpartition(".")
            if head:
                names.setdefault(head, set()).add(last)
    return names


def _find_dumped(analysis: Analysis) -> set[str]:
    from configdrift.resolve.objects import DUMPS

    out: set[str] = set()
    for chain in analysis.objects.chains():
        parts = chain.text.split(".")
        for index, receivers in enumerate(chain.receivers):
            if parts[index + 1] in DUMPS:
                out.update(r.qualname for r in receivers)
    return out


def _inert_copies(analysis: Analysis, loaded: set[str]) -> Iterator[Finding]:
    """Keys read from a dict into an attribute that nothing reads."""
    project = analysis.project
    stored: dict[tuple[str, int], list[tuple[str, str]]] = {}
    getters: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    for name, info in project.modules.items():
        for function, attr, kind, value, line in info.facts.attr_assigns:
            if kind != "call":
                continue
            stored.setdefault((info.path, line), []).append((attr, function))
            symbol = project.resolve(name, value)
            if symbol is not None and symbol.kind == "function":
                getters.setdefault((symbol.module, symbol.qualname), []).append(
                    (attr, info.path, line)
                )
    by_path: dict[tuple[str, ...], list[tuple[ReadSite, list[tuple[str, str, int]]]]] = {}
    for site in analysis.reads:
        targets = [
            (a, site.location.path, site.location.line)
            for a, _ in stored.get((site.location.path, site.location.line), ())
        ]
        targets += getters.get((site.module, site.function), [])
        by_path.setdefault(site.path, []).append((site, targets))
    from configdrift.model import resolve_path
    from configdrift.rules.evidence import unknown_under

    for path, uses in sorted(by_path.items()):
        node = resolve_path(analysis.schema, path)[0]
        if node is None or node.children or node.model:
            continue  # a section: its keys are judged one by one
        if unknown_under(analysis, path) is not None:
            continue  # handed on whole (``f(**d[KEY])``): used where we cannot see
        if not all(targets for _, targets in uses):
            continue  # read for some other use somewhere
        attrs = {a for _, targets in uses for a, _, _ in targets}
        if any(is_loaded(a, loaded) for a in attrs):
            continue
        site, targets = uses[0]
        attr, where, line = targets[0]
        yield make(
            "CD202",
            format_path(path),
            site.location,
            f"`{format_path(path)}` is read into `{attr}`, which no code reads: setting it does nothing",
            (Related(where, line, f"stored as `{attr}` here"),),
        )
