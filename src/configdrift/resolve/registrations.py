"""Options declared by registration calls: argparse's
``parser.add_argument("--flag", default=..., type=..., dest=...)`` and
click's ``@click.option("--flag", default=..., type=..., is_flag=...)``.

Each option becomes a schema node: its key is the attribute the code reads
(``dest``), its spellings are the option strings users write (``--flag``,
``-f``), with the default and type the call gives. argparse rejects an
option it does not know ("unrecognized arguments"), so the options form a
strict section. Positional arguments are not options and are left out.
"""

from __future__ import annotations

import re

from configdrift.extract.python.body import CLICK_BUILTINS, DECLARING_CALLS
from configdrift.extract.python.facts import Expr, RegistrationCall
from configdrift.model import BUILTIN, Location, SchemaNode, TypeInfo, Value
from configdrift.resolve.flow import harmless
from configdrift.resolve.project import Project

#: What an ``action`` makes of an option: its default and its kind.
_ACTIONS: dict[str, tuple[Value | None, str]] = {
    "store_true": (Value.of(False, "False"), "bool"),
    "store_false": (Value.of(True, "True"), "bool"),
    "count": (None, "int"),
    "append": (None, "list"),
    "extend": (None, "list"),
}
#: Actions that take no value a user configures.
_NOT_OPTIONS = frozenset({"help", "version"})
_TYPES = {"int": "int", "float": "float", "str": "str", "bool": "bool"}
#: How findings name the command line: argparse's parser, click's command.
PARSER = "the argument parser"
COMMAND = "the click command"
REGISTERED = "the registered options"


#: Libraries whose ``option`` decorator declares a command's option.
CLICK_LIKE = frozenset({"click", "cloup", "rich_click", "asyncclick"})


#: The libraries whose declaring calls (``body.DECLARING_CALLS``) declare a
#: key: Tornado's ``define(name, default=None, ...)``, oslo.config's
#: ``cfg.StrOpt(name, default=None)``.
_CATALOGUE = ("tornado.options", "oslo_config")


def _spec(
    call: RegistrationCall, declared: dict[str, tuple[int | str, int | str]]
) -> tuple[int | str | None, int | str | None]:
    """(the key's argument, the default's) of a named registration."""
    if call.method in _NAMED:
        position, keyword = _NAMED[call.method]
        return 0, keyword if position is None else position
    for name, spec in declared.items():
        if name.rsplit(".", 1)[-1] == call.method:
            return spec
    return 0, "default"


def _kind(
    project: Project,
    module: str,
    call: RegistrationCall,
    declared: dict[str, tuple[int | str, int | str]] | None = None,
) -> str | None:
    """``argparse``, ``click`` or ``named`` for a call that declares an
    option: pytest's ``addoption`` takes argparse's arguments; pytest's
    ``addini(name, help, type=, default=)`` and Sphinx's
    ``add_config_value(name, default, rebuild)`` name a key users set in a
    file."""
    if call.method in ("add_argument", "addoption", "_addoption"):
        return None if _other_receiver(project, module, call) else "argparse"
    if call.method in _NAMED:
        return "named"
    declared = declared or {}
    for name in declared:
        last = name.rsplit(".", 1)[-1]
        if last != call.method:
            continue
        if "." not in name or name == call.callee:
            return "named"
        symbol = project.resolve(module, call.callee)
        if symbol is not None and (
            f"{symbol.module}.{symbol.qualname}" == name or symbol.qualname == name
        ):
            return "named"
    if call.method in DECLARING_CALLS:
        symbol = project.resolve(module, call.callee)
        if (
            symbol is not None
            and symbol.kind == "external"
            and symbol.qualname.startswith(tuple(lib + "." for lib in _CATALOGUE))
        ):
            return "named"
    if call.method in CLICK_BUILTINS and call.callee:
        symbol = project.resolve(module, call.callee)
        if (
            symbol is not None
            and symbol.kind == "external"
            and symbol.qualname.split(".")[0] in CLICK_LIKE
        ):
            return "click-builtin"
    if call.method in ("option", "Option") and call.callee:
        symbol = project.resolve(module, call.callee)
        if symbol is not None and symbol.kind == "external":
            head, _, last = symbol.qualname.rpartition(".")
            if last == "option" and head.split(".")[0] in CLICK_LIKE:
                return "click"
            if last == "Option" and head.split(".")[0] == "typer" and "__param__" in call.kwargs:
                return "typer"
    return None


#: Modules whose objects take ``add_argument`` as a parser does.
_PARSER_MODULES = ("argparse", "configargparse", "jsonargparse", "pytest", "_pytest", "tap")


def _other_receiver(project: Project, module: str, call: RegistrationCall) -> bool:
    """Is ``x.add_argument(...)`` called on an object built by another
    library than a parser's (Selenium's ``webdriver.ChromeOptions()``)?"""
    receiver = call.callee.rsplit(".", 1)[0] if "." in call.callee else ""
    facts = project.modules[module].facts
    built: str | None = None
    if receiver.startswith("self.") and receiver.count(".") == 1 and "." in call.function:
        owner = call.function.rsplit(".", 1)[0] + "."
        attr = receiver[5:]
        built = next(
            (
                callee
                for function, name, how, callee, _ in facts.attr_assigns
                if name == attr and how == "call" and function.startswith(owner)
            ),
            None,
        )
    elif receiver and "." not in receiver:
        built = next(
            (
                callee
                for function, name, callee in facts.local_types
                if function == call.function and name == receiver
            ),
            None,
        )
    if built is None:
        return False
    symbol = project.resolve(module, built)
    if symbol is None or symbol.kind != "external":
        return False
    name = symbol.qualname
    return not (
        name.split(".")[0] in _PARSER_MODULES
        or name.endswith(("Parser", "_group", "add_parser", "getgroup"))
    )


def argparse_options(
    project: Project, declared: dict[str, tuple[int | str, int | str]] | None = None
) -> tuple[list[SchemaNode], list[Location]]:
    """Every command-line option of the project (argparse's ``add_argument``,
    click's ``@option``), one node per destination (an option declared twice
    keeps the first, with both spellings), and the calls whose option
    strings are not known statically (``add_argument(*names)``)."""
    nodes: dict[str, SchemaNode] = {}
    dynamic: list[Location] = []
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            where = Location(info.path, call.line)
            if call.method == "handed":
                symbol = project.resolve(name, call.callee)
                if (symbol is None or symbol.kind == "external") and not harmless(call.callee):
                    # Code outside the project gets the parser: it may add
                    # options (``shtab.add_argument_to(parser)``).
                    dynamic.append(where)
                continue
            kind = _kind(project, name, call, declared or {})
            if kind is None:
                continue
            node: SchemaNode | None
            if kind == "click-builtin":
                node = _click_builtin(name, call, where)
            elif kind != "typer" and _dynamic(call):
                dynamic.append(where)
                continue
            elif kind == "argparse":
                node = _option(project, name, call, where)
            elif kind == "click":
                node = _click_option(project, name, call, where)
            elif kind == "typer":
                node = _typer_option(project, name, call, where)
            else:
                node = _named(project, name, call, where, _spec(call, declared or {}))
            if node is None:
                continue
            known = nodes.get(node.key)
            if known is None:
                nodes[node.key] = node
            else:
                known.spellings = tuple(dict.fromkeys((*known.spellings, *node.spellings)))
                if not _same_default(known.default, node.default):
                    # Two commands give the option different defaults: no
                    # one default to compare the docs with.
                    known.default = Value.unknown("depends on the command")
    return list(nodes.values()), dynamic


def _same_default(a: Value | None, b: Value | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.known == b.known and (a.value == b.value if a.known else a.text == b.text)


def _dynamic(call: RegistrationCall) -> bool:
    """Option strings built at runtime: a starred or computed first argument
    (a positional argument's name is a plain string)."""
    first = call.args[0] if call.args else call.kwargs.get("keys")
    if first is not None and first[0] == "seq" and first[2]:
        return any(item[0] != "c" for item in first[2])
    return first is None or first[0] != "c"


def _node(
    key: str,
    flags: list[str],
    kind: str,
    default: Value | None,
    where: Location,
    group: str,
    model_kind: str | None = None,
    choices: tuple[object, ...] | None = None,
) -> SchemaNode:
    """A registered option: the key is what the code reads, the path what
    users write (a long flag first). ``group`` is the declaring function or
    module: CD103 reports a group's undocumented options only where the docs
    describe some of its others."""
    spellings = tuple(dict.fromkeys([*(f for f in flags if f.startswith("--")), *flags]))
    return SchemaNode(
        key=key,
        path=(spellings[0],),
        spellings=spellings,
        type=TypeInfo(kind, frozenset({kind}) if kind else frozenset(), choices),
        default=default,
        location=where,
        origin=f"option of {group}",
        model_kind=model_kind,
    )


def _group(module: str, function: str) -> str:
    return module if function == "<module>" else f"{module}:{function}"


def _sequence(project: Project, module: str, expr: Expr | None) -> tuple[object, ...] | None:
    """The items of a list or tuple known statically (``choices=[...]``)."""
    if expr is None:
        return None
    value = project.evaluate(module, expr)
    if value.known and isinstance(value.value, list | tuple):
        return tuple(value.value)
    return None


def _option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    flags = [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str)]
    if not flags or len(flags) != len(call.args) or not all(f.startswith("-") for f in flags):
        return None  # a positional argument, or option strings not known statically
    action = project.string(module, call.kwargs["action"]) if "action" in call.kwargs else None
    if action in _NOT_OPTIONS:
        # ``--version`` prints and exits: a documented spelling is accepted,
        # with nothing to configure or read.
        node = _node(action, flags, "", None, where, _group(module, call.function))
        node.origin = BUILTIN
        return node
    dest_expr = call.kwargs.get("dest")
    dest = project.string(module, dest_expr) if dest_expr is not None else None
    longs = [f for f in flags if f.startswith("--")]
    if dest is None:
        dest = (longs or flags)[0].lstrip("-").replace("-", "_")
    if not dest:
        return None
    default, kind = _ACTIONS.get(action or "", (None, ""))
    if "default" in call.kwargs:
        default = project.evaluate(module, call.kwargs["default"])
    # Without ``type=``, argparse hands the code the string the user typed:
    # the default's type says nothing of it.
    type_expr = call.kwargs.get("type")
    if type_expr is not None and type_expr[0] == "n":
        kind = _TYPES.get(type_expr[1], "")
    choices = _sequence(project, module, call.kwargs.get("choices"))
    return _node(dest, flags, kind, default, where, _group(module, call.function), None, choices)


_CLICK_TYPES = {"INT": "int", "FLOAT": "float", "STRING": "str", "BOOL": "bool", "Path": "str"}
#: Calls that name a key and where its default is: (position, keyword).
_NAMED = {
    "addini": (None, "default"),
    "add_config_value": (1, "default"),
    # tox's ``add_config(keys, of_type, default, desc)``; a constant
    # (``add_constant(keys, desc, value)``) is a key users read, never set.
    "add_config": (2, "default"),
    "add_constant": (None, ""),
}
#: pytest's ini ``type=`` values and the kind of value each takes.
_INI_TYPES = {
    "bool": "bool",
    "string": "str",
    "linelist": "list",
    "args": "list",
    "pathlist": "list",
    "paths": "list",
    "int": "int",
    "float": "float",
}


def _argument(call: RegistrationCall, spec: int | str | None) -> Expr | None:
    """The argument at a position or under a keyword."""
    if isinstance(spec, int):
        return call.args[spec] if len(call.args) > spec else None
    if spec is None:
        return None
    return call.kwargs.get(spec)


def _named(
    project: Project,
    module: str,
    call: RegistrationCall,
    where: Location,
    spec: tuple[int | str | None, int | str | None] = (0, None),
) -> SchemaNode | None:
    """``parser.addini("timeout", "help", type="string", default="5")``,
    ``app.add_config_value("autoapi_dirs", [], "html")``, a catalogue's
    (``define("port", default=8888)``) or a configured registration."""
    key_expr = _argument(call, spec[0])
    if key_expr is None and call.method in ("add_config", "add_constant"):
        key_expr = call.kwargs.get("keys")
    names = [name] if key_expr is not None and (name := project.string(module, key_expr)) else []
    if key_expr is not None and key_expr[0] == "seq":
        # Several keys: the first is the key, the others its aliases.
        names = [project.string(module, item) or "" for item in key_expr[2]]
    if not names or not all(names) or names[0].startswith("-"):
        return None
    name = names[0]
    if call.method in _NAMED:
        position, keyword = _NAMED[call.method]
        expr = call.kwargs.get(keyword) if keyword else None
        if expr is None and position is not None and len(call.args) > position:
            expr = call.args[position]
    else:
        expr = _argument(call, spec[1])
        if expr is None and call.method == "define":
            expr = _argument(call, 1)  # Tornado's ``define(name, default, ...)``
    default = project.evaluate(module, expr) if expr is not None else None
    kind = ""
    if call.method == "addini" and "type" in call.kwargs:
        kind = _INI_TYPES.get(project.string(module, call.kwargs["type"]) or "", "")
    of_type = call.kwargs.get("of_type") or (
        call.args[1] if call.method == "add_config" and len(call.args) > 1 else None
    )
    if of_type is not None:
        kind = _declared_kind(of_type)
    return _node(name, names, kind, default, where, _group(module, call.function), "named")


def _declared_kind(expr: Expr) -> str:
    """The kind of value a type expression names: ``int``, ``bool``,
    ``list[str]``; nothing for a union or a class of the project."""
    if expr[0] == "sub":
        expr = expr[1]
    if expr[0] != "n":
        return ""
    name = expr[1].rsplit(".", 1)[-1]
    if name in ("list", "List", "Sequence", "set", "Set", "tuple", "Tuple"):
        return "list"
    if name in ("dict", "Dict", "Mapping"):
        return "dict"
    return _TYPES.get(name, "")


def _click_option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    """``@click.option("-n", "--count", "name", default=1, type=int,
    is_flag=..., multiple=..., type=click.Choice([...]))``: the parameter
    the command receives is its destination."""
    texts = [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str)]
    if len(texts) != len(call.args):
        return None
    flags: list[str] = []
    names: list[str] = []
    for text in texts:
        for part in text.split("/"):  # "--shout/--no-shout"
            part = part.strip()
            (flags if part.startswith("-") else names).append(part)
    if not flags:
        return None
    longs = [f for f in flags if f.startswith("--")]
    dest = names[0] if names else (longs or flags)[0].lstrip("-").replace("-", "_").lower()
    flag_expr = call.kwargs.get("is_flag")
    is_flag = flag_expr is not None and project.evaluate(module, flag_expr).value is True
    default: Value | None = Value.of(False, "False") if is_flag else None
    if "default" in call.kwargs:
        default = project.evaluate(module, call.kwargs["default"])
    kind = "bool" if is_flag else ""
    choices: tuple[object, ...] | None = None
    type_expr = call.kwargs.get("type")
    if type_expr is not None and type_expr[0] == "n":
        last = type_expr[1].rsplit(".", 1)[-1]
        kind = _TYPES.get(last) or _CLICK_TYPES.get(last, "")
    elif (
        type_expr is not None
        and type_expr[0] == "call"
        and type_expr[1][0] == "n"
        and type_expr[1][1].rsplit(".", 1)[-1] == "Choice"
        and type_expr[2]
    ):
        choices = _sequence(project, module, type_expr[2][0])
        if choices is not None:
            kind = "str"
    multiple = call.kwargs.get("multiple")
    if multiple is not None and project.evaluate(module, multiple).value is True:
        kind, choices = "list", None
    # A command receives its options as parameters, not attributes: what
    # reads them is not judged (CD202).
    group = _group(module, call.function)
    return _node(dest, flags, kind, default, where, group, "click", choices)


def _click_builtin(module: str, call: RegistrationCall, where: Location) -> SchemaNode:
    """An option click adds (``--version``, ``--help``, or the names a
    command gives them): a documented spelling is accepted, with nothing to
    configure or read."""
    flags = [a[1] for a in call.args if a[0] == "c" and isinstance(a[1], str) and a[1][:1] == "-"]
    flags = flags or [CLICK_BUILTINS[call.method]]
    key = call.method.removesuffix("_option")
    node = _node(key, flags, "", None, where, _group(module, call.function), "click")
    node.origin = BUILTIN
    return node


def _typer_option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    """A command's parameter declared as ``typer.Option(default, "--name")``
    (or in ``Annotated``): spelt ``--param-name`` unless it names its flags;
    a bool also takes ``--no-param-name``."""
    param = call.kwargs["__param__"][1]
    texts = [a[1] if a[0] == "c" and isinstance(a[1], str) else None for a in call.args]
    flags = [t for t in texts if t is not None and t.startswith("-")]
    default_expr = call.kwargs.get("default") or call.kwargs.get("__default__")
    if call.args and not (texts[0] or "").startswith("-"):
        default_expr = call.args[0]  # the older ``Option(default, *flags)``
    default = None
    if default_expr is not None and not (default_expr[0] == "src" and default_expr[1] == "..."):
        default = project.evaluate(module, default_expr)
    type_expr = call.kwargs.get("__type__")
    kind = _TYPES.get(type_expr[1], "") if type_expr is not None and type_expr[0] == "n" else ""
    if not flags:
        flags = ["--" + param.replace("_", "-")]
        if kind == "bool":
            flags.append("--no-" + param.replace("_", "-"))
    # typer is built on click: its parameters arrive as the command's.
    return _node(param, flags, kind, default, where, _group(module, call.function), "click")


def mount_options(root: SchemaNode, options: list[SchemaNode], complete: bool) -> None:
    """Make the options the children of the root: strict when every option
    is known (``complete``), open when some are declared at runtime."""
    for node in options:
        root.children[node.key] = node
    kinds = [node.model_kind or "argparse" for node in options]
    kind = max(("argparse", "click", "named"), key=kinds.count)
    if kind in ("argparse", "click") and not any("--help" in node.spellings for node in options):
        # Both add ``--help`` unless told not to (argparse ``-h`` too): a
        # documented spelling is accepted, with nothing to read.
        flags = ("--help", "-h") if kind == "argparse" else ("--help",)
        root.children.setdefault(
            "help", SchemaNode(key="help", path=(flags[0],), spellings=flags, origin=BUILTIN)
        )
    root.model = {"argparse": PARSER, "click": COMMAND, "named": REGISTERED}[kind]
    root.model_kind = kind
    first = options[0].location
    root.model_location = first
    # Keys named in a file (pytest's ini, Sphinx's conf.py) are warned
    # about or ignored when unknown: the root then rejects nothing for sure.
    complete = complete and not any(node.model_kind == "named" for node in options)
    root.strict = True if complete else None
    if complete:
        root.strict_location = first
        root.strict_owner = PARSER


#: Variables every process has: the platform's, not the project's settings.
_SYSTEM_VARIABLES = frozenset(
    {
        "HOME",
        "PATH",
        "USER",
        "USERNAME",
        "LOGNAME",
        "PWD",
        "SHELL",
        "TERM",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "TEMP",
        "TMP",
        "HOSTNAME",
        "PYTHONPATH",
        "VIRTUAL_ENV",
        "CI",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "APPDATA",
        "LOCALAPPDATA",
        "USERPROFILE",
        "COLUMNS",
        "NO_COLOR",
    }
)
#: The keys of a WSGI or CGI request's ``environ``: a web app reads them
#: from its request, not from the process environment.
_CGI = re.compile(
    r"^(?:HTTP_\w+|PATH_INFO|SCRIPT_NAME|QUERY_STRING|REQUEST_METHOD|REQUEST_URI|REMOTE_\w+"
    r"|SERVER_(?:NAME|PORT|PROTOCOL|SOFTWARE)|CONTENT_(?:TYPE|LENGTH)|wsgi\.\w+)$"
)
#: How findings name the environment as a configuration.
ENVIRONMENT = "the environment"


def environment_variables(project: Project) -> list[SchemaNode]:
    """The environment variables the code reads by name
    (``os.environ.get("X", d)``, ``os.getenv``, ``os.environ["X"]``), one
    node per name, with the first default a read gives."""
    nodes: dict[str, SchemaNode] = {}
    helpers = _env_helpers(project)
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            suffixes = {""}
            if call.method == "named_call":
                symbol = project.resolve(name, call.callee)
                if symbol is None or (symbol.module, symbol.qualname) not in helpers:
                    continue
                suffixes = helpers[(symbol.module, symbol.qualname)]
            elif call.method != "env" or call.args[0][0] == "n":
                continue
            base = project.string(name, call.args[0])
            if not base or base in _SYSTEM_VARIABLES or base.startswith("_"):
                continue  # the platform's, or private (``_APP_TEST_HOOK``)
            if _CGI.match(base):
                continue  # a WSGI request's ``environ``, not the process's
            default = project.evaluate(name, call.args[1]) if len(call.args) > 1 else None
            for suffix in sorted(suffixes):
                variable = base + suffix
                if variable not in nodes:
                    nodes[variable] = _node(
                        variable,
                        [variable],
                        "",
                        default if default is not None and default.known and not suffix else None,
                        Location(info.path, call.line),
                        name,  # grouped by module
                        "env",
                    )
    return list(nodes.values())


def _env_helpers(project: Project) -> dict[tuple[str, str], set[str]]:
    """Functions that read the environment variable their first parameter
    names (``def envbool(s, d): return os.getenv(s, d) == "1"``), with the
    suffixes they add to it (``os.getenv(s + "_FILE")``; ``""`` for the
    name itself)."""
    out: dict[tuple[str, str], set[str]] = {}
    for name, info in project.modules.items():
        for call in info.facts.registrations:
            if call.method == "env" and call.args and call.args[0][0] == "n":
                params = info.facts.functions.get(call.function, [])
                if params and params[0] == call.args[0][1]:
                    suffix = call.kwargs.get("suffix", ["c", ""])[1]
                    out.setdefault((name, call.function), set()).add(str(suffix))
    return out


def mount_environment(root: SchemaNode, variables: list[SchemaNode]) -> None:
    """The variables as the children of a lenient root: an unknown variable
    is never read, and nothing says so."""
    _mount_by_name(root, variables, ENVIRONMENT, "env")


def _mount_by_name(root: SchemaNode, keys: list[SchemaNode], model: str, kind: str) -> None:
    """Keys the code reads by name, as the children of a lenient root."""
    for node in keys:
        root.children[node.key] = node
    root.model = model
    root.model_kind = kind
    root.model_location = keys[0].location
    root.strict = False


#: Django's own settings: read by an app through ``django.conf.settings``,
#: they are the site's configuration, documented by Django, not the app's.
_DJANGO_SETTINGS = frozenset(
    [
        "ABSOLUTE_URL_OVERRIDES",
        "ADMINS",
        "ALLOWED_HOSTS",
        "APPEND_SLASH",
        "ASGI_APPLICATION",
        "AUTHENTICATION_BACKENDS",
        "AUTH_PASSWORD_VALIDATORS",
        "AUTH_USER_MODEL",
        "BASE_DIR",
        "CACHES",
        "CACHE_MIDDLEWARE_ALIAS",
        "CACHE_MIDDLEWARE_KEY_PREFIX",
        "CACHE_MIDDLEWARE_SECONDS",
        "CSRF_COOKIE_NAME",
        "CSRF_COOKIE_SECURE",
        "CSRF_HEADER_NAME",
        "CSRF_TRUSTED_ORIGINS",
        "DATABASES",
        "DATABASE_ROUTERS",
        "DATA_UPLOAD_MAX_MEMORY_SIZE",
        "DATETIME_FORMAT",
        "DATE_FORMAT",
        "DEBUG",
        "DEFAULT_AUTO_FIELD",
        "DEFAULT_CHARSET",
        "DEFAULT_FILE_STORAGE",
        "DEFAULT_FROM_EMAIL",
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_HOST_USER",
        "EMAIL_PORT",
        "EMAIL_USE_SSL",
        "EMAIL_USE_TLS",
        "FILE_UPLOAD_MAX_MEMORY_SIZE",
        "FIXTURE_DIRS",
        "FORM_RENDERER",
        "INSTALLED_APPS",
        "INTERNAL_IPS",
        "LANGUAGES",
        "LANGUAGE_CODE",
        "LOCALE_PATHS",
        "LOGGING",
        "LOGIN_REDIRECT_URL",
        "LOGIN_URL",
        "LOGOUT_REDIRECT_URL",
        "MANAGERS",
        "MEDIA_ROOT",
        "MEDIA_URL",
        "MIDDLEWARE",
        "MIGRATION_MODULES",
        "PASSWORD_HASHERS",
        "ROOT_URLCONF",
        "SECRET_KEY",
        "SECURE_PROXY_SSL_HEADER",
        "SERVER_EMAIL",
        "SESSION_COOKIE_AGE",
        "SESSION_COOKIE_NAME",
        "SESSION_COOKIE_SECURE",
        "SESSION_ENGINE",
        "SITE_ID",
        "STATICFILES_DIRS",
        "STATICFILES_FINDERS",
        "STATICFILES_STORAGE",
        "STATIC_ROOT",
        "STATIC_URL",
        "STORAGES",
        "TEMPLATES",
        "TEST_RUNNER",
        "TIME_ZONE",
        "USE_I18N",
        "USE_L10N",
        "USE_THOUSAND_SEPARATOR",
        "USE_TZ",
        "WSGI_APPLICATION",
        "X_FRAME_OPTIONS",
    ]
)
#: Modules that hold a settings object's defaults, one upper-case name each
#: (Scrapy's ``default_settings``, an app's ``conf/defaults.py``).
_DEFAULTS_MODULES = frozenset({"default_settings", "global_settings", "defaults", "app_settings"})
#: How findings name a settings object as a configuration.
SETTINGS_OBJECT = "the settings object"


def setting_reads(project: Project) -> list[SchemaNode]:
    """Settings read by name from a settings object: ``settings.NAME`` and
    ``getattr(settings, "NAME", d)`` where ``settings`` is Django's
    (``django.conf.settings``) or a project module; a getter
    (``settings.getint("NAME", d)``) or subscript on any object called
    ``settings``; and the upper-case names a defaults module assigns
    (``default_settings.py``), with their defaults. One node per name;
    Django's own settings are not the project's."""
    nodes: dict[str, SchemaNode] = {}
    for name in sorted(project.modules):
        info = project.modules[name]
        stem = name.rsplit(".", 1)[-1]
        if stem in _DEFAULTS_MODULES:
            for qualname, expr in info.facts.assigns.items():
                if "." in qualname or not qualname.isupper() or qualname in nodes:
                    continue
                default = project.evaluate(name, expr)
                line = info.facts.assign_lines.get(qualname, 1)
                nodes[qualname] = _node(
                    qualname,
                    [qualname],
                    "",
                    default if default.known else None,
                    Location(info.path, line),
                    name,
                    "setting",
                )
    defaults = len(nodes)
    for name in sorted(project.modules):
        info = project.modules[name]
        for call in info.facts.registrations:
            if call.method != "setting":
                continue
            form = call.kwargs.get("form", ["c", ""])[1]
            django = False
            if form in ("attribute", "getattr"):
                symbol = project.resolve(name, call.callee)
                django = (
                    symbol is not None
                    and symbol.kind == "external"
                    and symbol.qualname == "django.conf.settings"
                )
                if not django and (symbol is None or symbol.kind != "module"):
                    continue  # an attribute of some other ``settings``
            variable = project.string(name, call.args[0])
            if not variable or (django and variable in _DJANGO_SETTINGS):
                continue
            if variable in nodes:
                continue
            if defaults and form == "attribute":
                continue  # the defaults module declares the settings
            read = project.evaluate(name, call.args[1]) if len(call.args) > 1 else None
            nodes[variable] = _node(
                variable,
                [variable],
                "",
                read if read is not None and read.known else None,
                Location(info.path, call.line),
                name,
                "setting",
            )
    return list(nodes.values())


def mount_settings(root: SchemaNode, settings: list[SchemaNode]) -> None:
    """The settings as the children of a lenient root: a settings object
    returns what it holds, and an unknown name is never asked for."""
    _mount_by_name(root, settings, SETTINGS_OBJECT, "setting")
