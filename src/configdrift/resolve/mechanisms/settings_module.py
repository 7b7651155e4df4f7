"""Settings read by name from a settings object (Django's
``django.conf.settings``, a project module, a getter on ``settings``), the
upper-case names a defaults module assigns and those a django-appconf
class declares: a lenient surface."""

from __future__ import annotations

from collections.abc import Iterator

from configdrift.extract.python.exprs import assigned
from configdrift.extract.python.facts import Expr
from configdrift.index.framework_settings import DEFAULTS_MODULES, DJANGO_SETTINGS, FLASK_SETTINGS
from configdrift.index.spellings import bare, shared_affixes
from configdrift.model import Location, SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import mount_by_name, option_group, option_node
from configdrift.resolve.project import Project
from configdrift.resolve.schema import MIN_OPTIONS, new_root

#: A defaults module that declares this many settings is their registry.
MIN_DEFAULTS = MIN_OPTIONS


#: How findings name a settings object as a configuration.
SETTINGS_OBJECT = "the settings object"


def setting_reads(project: Project) -> list[SchemaNode]:
    """Settings read by name from a settings object: ``settings.NAME`` and
    ``getattr(settings, "NAME", d)`` where ``settings`` is Django's
    (``django.conf.settings``) or a project module; a getter
    (``settings.getint("NAME", d)``, ``app.config.setdefault("NAME", d)``)
    or subscript on any object called ``settings`` or an app's ``config``;
    the upper-case names a defaults module assigns
    (``default_settings.py``) and an ``AppConf`` class declares
    (``appconf_settings``), with their defaults. One node per name, but a
    setting read as another's fallback, its older spelling; Django's own
    settings are not the project's, nor a module's name that holds another
    setting's value."""
    nodes: dict[str, SchemaNode] = {}
    for name in sorted(project.modules):
        info = project.modules[name]
        if name.rsplit(".", 1)[-1] in DEFAULTS_MODULES:
            names = [
                q for q in info.facts.assigns if "." not in q and q.isupper() and q not in nodes
            ]
            affixes = shared_affixes(names)
            for qualname in names:
                known = project.known(name, own_default(qualname, info.facts.assigns[qualname]))
                where = Location(info.path, info.facts.assign_lines.get(qualname, 1))
                plain = bare(qualname, affixes)
                flags = [qualname, *([plain] if plain else [])]
                nodes[qualname] = option_node(qualname, flags, "", known, where, name, "setting")
    defaults = len(nodes)
    for name in sorted(project.modules):
        for key, expr, line, owner in appconf_settings(project, name):
            where = Location(project.modules[name].path, line)
            known = project.known(name, expr)
            group = option_group(name, owner)
            nodes.setdefault(key, option_node(key, [key], "", known, where, group, "setting"))
    reads = [
        (name, call)
        for name in sorted(project.modules)
        for call in project.modules[name].facts.registrations
        if call.method == "setting"
    ]
    # A name a module assigns from a setting it reads (``MODEL =
    # getattr(settings, "APP_MODEL", d)``) holds that setting's value.
    held = {(name, call.line) for name, call in reads}
    for name, call in reads:
        form = call.kwargs.get("form", ["c", ""])[1]
        variable = project.string(name, call.args[0])
        django = False
        if form in ("attribute", "getattr"):
            symbol = project.resolve(name, call.callee)
            django = project.external(name, call.callee) == "django.conf.settings"
            if not django and (symbol is None or symbol.kind != "module"):
                continue  # an attribute of some other ``settings``
            if not django and symbol:
                lines = project.modules[symbol.module].facts.assign_lines
                if (symbol.module, lines.get(variable or "")) in held:
                    continue
        if not variable or variable in nodes or (django and variable in DJANGO_SETTINGS):
            continue
        if call.callee.endswith(".config") and variable in FLASK_SETTINGS:
            continue  # the application's own, read by an extension
        if defaults and form == "attribute":
            continue  # the defaults module declares the settings
        known = project.known(name, call.args[1]) if len(call.args) > 1 else None
        where = Location(project.modules[name].path, call.line)
        nodes[variable] = option_node(variable, [variable], "", known, where, name, "setting")
    # ``getattr(settings, "NEW", getattr(settings, "OLD", d))``: the setting
    # read as another's fallback is its older spelling, read there.
    merged: dict[str, str] = {}
    for name, call in reads:
        older = _fallback_setting(call.args[1]) if len(call.args) > 1 else None
        named = project.string(name, call.args[0])
        newer = merged.get(named, named) if named else None
        if older and newer and older != newer and older in nodes and newer in nodes:
            node = nodes[newer]
            node.spellings = (*dict.fromkeys((*node.spellings, *nodes.pop(older).spellings)),)
            merged[older] = newer
    return list(nodes.values())


def _fallback_setting(default: Expr) -> str | None:
    """The setting a default reads from the settings object, when it is
    one (``getattr(settings, "OLD", d)``)."""
    if default[0] != "call" or default[1] != ["n", "getattr"] or len(default[2]) < 2:
        return None
    name = default[2][1]
    return str(name[1]) if name[0] == "c" and isinstance(name[1], str) else None


#: The bases of a django-appconf class: its upper-case names are settings.
_APPCONF = frozenset({"appconf.AppConf", "appconf.base.AppConf"})


def appconf_settings(project: Project, name: str) -> Iterator[tuple[str, Expr | None, int, str]]:
    """The settings an ``AppConf`` class of the module declares: each
    upper-case name its body assigns or defines, prefixed with its
    ``Meta.prefix`` (else its package's name) unless it begins with it
    (``COMPRESSORS``), with its default (none where a ``configure_<name>``
    hook computes the value), line and class."""
    info = project.modules[name]
    for cls in info.facts.classes:
        symbol = project.resolve(name, cls.name)
        if symbol is None or not project.inherits_external(symbol, _APPCONF):
            continue
        meta = next((c.assigns for c in info.facts.classes if c.name == cls.name + ".Meta"), {})
        given = project.string(name, meta["prefix"]) if "prefix" in meta else None
        prefix = (given or name.split(".")[-2:][0]).upper()
        methods = {
            q.rsplit(".", 1)[1]: span[0]
            for q, span in info.facts.function_lines.items()
            if q.rsplit(".", 1)[0] == cls.name
        }
        for key, expr, line in [*assigned(cls), *((m, None, at) for m, at in methods.items())]:
            if key.isupper():
                full = key if key.startswith(prefix) else f"{prefix}_{key}"
                yield full, None if f"configure_{key.lower()}" in methods else expr, line, cls.name


def own_default(name: str, expr: Expr) -> Expr | None:
    """The default a name is assigned: its value, or, where the value is
    a getter called with the name itself (``X = get("X", False)``), the
    getter's default (None when it gives none)."""
    if not (expr and expr[0] == "call" and expr[2] and expr[2][0] == ["c", name]):
        return expr
    args, kwargs = expr[2], expr[3]
    default: Expr | None = args[1] if len(args) > 1 else kwargs.get("default")
    return default


def surfaces(discovery: Discovery) -> list[Surface]:
    """The settings read by name from a settings object."""
    found: list[Surface] = []
    named = setting_reads(discovery.builder.project)
    if len(named) >= MIN_OPTIONS:
        node = new_root()
        mount_by_name(node, named, SETTINGS_OBJECT, "setting")
        if discovery.claim(node):
            how = f"{len(named)} settings read by name from a settings object"
            found.append(Surface("settings object", node, how, [], "settings"))
    return found
