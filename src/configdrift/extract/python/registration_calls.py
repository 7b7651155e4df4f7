"""Calls that declare or read a configuration key by name: an option
registered (``parser.add_argument("--x")``, ``define("port")``,
``cfg.StrOpt("host")``, confuse's ``config.add({...})``), click's own
options, and values read by name from the environment or a settings
object (``os.environ.get("X")``, ``settings.getint("NAME")``). Each is kept
as a ``RegistrationCall``; resolution decides what it declares.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import dotted, last_name, to_expr
from configdrift.extract.python.facts import Expr, RegistrationCall

#: Methods that declare an option by name (see ``resolve.mechanisms.options``).
REGISTRATION_METHODS = frozenset(
    {
        "add_argument",
        "addoption",
        "_addoption",
        "addini",
        "add_config_value",
        "add_config",
        "add_constant",
    }
)


#: Declaring methods that may name their key by keyword alone
#: (tox's ``add_config(keys=["env_list", "envlist"], ...)``).
_KEYS_KEYWORD = frozenset({"add_config", "add_constant"})


#: Calls that declare a configuration key by name, called bare or on any
#: receiver, when their first argument is a string: Tornado's
#: ``define("port", default=8888)``, oslo.config's ``cfg.StrOpt("host")``.
#: Resolution keeps those whose callee is the library's.
DECLARING_CALLS = frozenset(
    {
        "define",
        "StrOpt",
        "IntOpt",
        "BoolOpt",
        "FloatOpt",
        "ListOpt",
        "DictOpt",
        "PortOpt",
        "MultiStrOpt",
        "HostAddressOpt",
        "URIOpt",
    }
)


def registration_call(
    call: ast.Call,
    source: str,
    function: str,
    methods: frozenset[str] = frozenset(),
    declaring: frozenset[str] = frozenset(),
) -> RegistrationCall | None:
    """``x.add_argument("--flag", ...)`` and the other declaring methods
    (``methods`` adds names called bare or on any receiver: decorators);
    ``declaring`` adds the calls the configuration declares
    (``registrations``), kept as the catalogue's are: when their first
    argument is a string."""
    func = call.func
    name = last_name(func)
    if name == "add" and type(func) is ast.Attribute:
        return _defaults_added(call, func.value, source, function)
    if not call.args and not (
        name in _KEYS_KEYWORD and any(k.arg == "keys" for k in call.keywords)
    ):
        return None
    if not ((type(func) is ast.Attribute and name in REGISTRATION_METHODS) or name in methods):
        if name not in DECLARING_CALLS and name not in declaring:
            return _flag_call(call, name, source, function)
        first = call.args[0]
        if type(first) is not ast.Constant or not isinstance(first.value, str):
            return None
    return _recorded(call, name, source, function)


def field_flags(
    value: ast.expr | None, name: str, source: str, owner: str
) -> RegistrationCall | None:
    """A class field whose metadata declares its flags (``attrs.field(
    metadata=opt("-r", "--reuse", help=...))``): an option of the field's
    name and default, shaped as any flag's declaration (``_flag_call``),
    declared in the class ``owner``."""
    if type(value) is not ast.Call:
        return None
    for keyword in value.keywords:
        if keyword.arg == "metadata" and type(keyword.value) is ast.Call and keyword.value.args:
            option = _flag_call(keyword.value, last_name(keyword.value.func), source, owner)
            if option is not None and "dest" not in option.kwargs:
                option.kwargs["dest"] = ["c", name]
                given = next((k.value for k in value.keywords if k.arg == "default"), None)
                if given is not None and "default" not in option.kwargs:
                    option.kwargs["default"] = to_expr(given, source)  # the field's
                return option
    return None


def attribute_flags(value: ast.expr, name: str, source: str, owner: str) -> RegistrationCall | None:
    """A class attribute that declares its flags (plumbum's ``pretend =
    cli.Flag(["-n", "--pretend"], help=...)``): an option read as the
    attribute's name, declared in the class ``owner``."""
    if type(value) is not ast.Call or not value.args:
        return None
    option = _flag_call(value, last_name(value.func), source, owner)
    if option is not None and "dest" not in option.kwargs:
        option.kwargs["dest"] = ["c", name]
    return option


def _recorded(
    call: ast.Call, name: str, source: str, function: str, skip: int = 0
) -> RegistrationCall:
    """The call as a fact: its arguments as expressions (but the first
    ``skip``)."""
    return RegistrationCall(
        name,
        [to_expr(a, source) for a in call.args[skip:] if type(a) is not ast.Starred],
        {k.arg: to_expr(k.value, source) for k in call.keywords if k.arg is not None},
        call.lineno,
        function,
        dotted(call.func) or "",
    )


#: The keyword a flag's declaration that decorates a function is recorded
#: with (the function is handed the value), beside its own keywords.
HANDLER = "__handler__"

#: Keywords a call that declares a command-line flag carries.
FLAG_KEYWORDS = frozenset({"help", "action", "default", "dest", "type", "metavar", "choices"})


def _flag_call(call: ast.Call, name: str, source: str, function: str) -> RegistrationCall | None:
    """A call of any name shaped as a flag's declaration: a flag first
    (``"--show-source"``) and a keyword of argparse's (``help=``,
    ``action=``): ``add_option("--x", help=...)`` through a name of the
    project's. Resolution keeps the names the project calls so again and
    again (``options.learned_flag_methods``). A function of the project's
    handed the parser first (``add_argument(parser, "--app", help=...)``)
    declares the flag after it. An empty string stands for no short flag
    (optparse's ``make_option("", "--rcfile")``); the flags may come as a
    list (plumbum's ``cli.SwitchAttr(["-x", "--exclude"], str)``), the
    library's own positional arguments after it left out."""
    if not name or not any(k.arg in FLAG_KEYWORDS for k in call.keywords):
        return None
    skip = 1 if len(call.args) >= 2 and type(call.args[0]) is ast.Name else 0
    given = [a for a in call.args[skip:] if not _is_empty(a)]
    if given and type(given[0]) in (ast.List, ast.Tuple):
        given = [e for e in given[0].elts if not _is_empty(e)]  # type: ignore[attr-defined]
        if not given or not all(_is_flag(e) for e in given):
            return None
    elif given and _computed(given[0]) and sum(k.arg in FLAG_KEYWORDS for k in call.keywords) > 1:
        # Flags built at run time (``make_option(*FLAGS, help=..., action=...)``):
        # kept as such, so that the command line they belong to is open.
        given = given[:1]
    elif not given or not _is_flag(given[0]):
        return None
    found = _recorded(call, name, source, function, len(call.args))
    found.args = [to_expr(a, source) for a in given if type(a) is not ast.Starred]
    return found


def _computed(node: ast.expr) -> bool:
    """Flags a name, an unpacking or an f-string holds, known at run time."""
    return type(node) in (ast.Starred, ast.Name, ast.Attribute, ast.JoinedStr)


def _is_empty(node: ast.expr) -> bool:
    """The empty string: no flag (optparse's short flag left out)."""
    return type(node) is ast.Constant and node.value == ""


def _is_flag(node: ast.expr) -> bool:
    """A string literal that is a flag (``"--show-source"``, ``"-s"``)."""
    return type(node) is ast.Constant and isinstance(node.value, str) and node.value.startswith("-")


def _defaults_added(
    call: ast.Call, receiver: ast.expr, source: str, function: str
) -> RegistrationCall | None:
    """confuse's defaults for a view of the configuration:
    ``config.add({...})``, ``config["import"].add({...})``,
    ``self.config.add({...})`` (a plugin's own section), as the
    registration ``config.add`` whose first argument is the dict and whose
    others are the view's keys."""
    if len(call.args) != 1 or call.keywords or type(call.args[0]) is not ast.Dict:
        return None
    keys: list[Expr] = []
    node = receiver
    while type(node) is ast.Subscript:
        index = node.slice
        if type(index) is not ast.Constant or not isinstance(index.value, str):
            return None
        keys.append(["c", index.value])
        node = node.value
    last = node.attr if type(node) is ast.Attribute else node.id if type(node) is ast.Name else ""
    if last != "config":
        return None
    return RegistrationCall(
        "config.add",
        [to_expr(call.args[0], source), *reversed(keys)],
        {},
        call.lineno,
        function,
        dotted(node) or "",
    )


#: Decorators that declare a command's option (``@click.option("--x")``).
OPTION_DECORATORS = frozenset({"option"})


#: click's decorators that add an option of its own, and its default flag.
CLICK_BUILTINS = {"version_option": "--version", "help_option": "--help"}
#: A decorator of another name that adds an option no call here declares
#: (``@click_log.simple_verbosity_option(logger)``): a call by this name.
ADDED_OPTION = "added_option"


def click_builtin(deco: ast.expr, source: str, function: str) -> RegistrationCall | None:
    """``@click.version_option(...)``, ``@click.help_option(...)`` (called or
    not), and a command's ``context_settings={"help_option_names": [...]}``:
    the options click adds, as a call named ``version_option`` or
    ``help_option``; another decorator named ``*_option`` or ``*_options``
    as a call named ``ADDED_OPTION``."""
    call = deco if type(deco) is ast.Call else None
    func = call.func if call is not None else deco
    name = last_name(func)
    if name and name not in CLICK_BUILTINS and name.endswith(("_option", "_options")):
        # Another library's decorator (or the project's) that adds options:
        # which, the resolver tells by where its name comes from.
        return RegistrationCall(ADDED_OPTION, [], {}, deco.lineno, function, dotted(func) or "")
    if name in CLICK_BUILTINS:
        args = call.args if call is not None else []
        keywords = call.keywords if call is not None else []
        return RegistrationCall(
            name,
            [to_expr(a, source) for a in args if type(a) is not ast.Starred],
            {k.arg: to_expr(k.value, source) for k in keywords if k.arg is not None},
            deco.lineno,
            function,
            dotted(func) or "",
        )
    for keyword in call.keywords if call is not None else []:
        if keyword.arg != "context_settings" or type(keyword.value) is not ast.Dict:
            continue
        for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
            if (
                type(key) is ast.Constant
                and key.value == "help_option_names"
                and type(value) in (ast.List, ast.Tuple)
            ):
                return RegistrationCall(
                    "help_option",
                    [to_expr(v, source) for v in value.elts],  # type: ignore[attr-defined]
                    {},
                    deco.lineno,
                    function,
                    dotted(func) or "",
                )
    return None


def context_settings(deco: ast.expr, source: str, function: str) -> RegistrationCall | None:
    """A command's ``context_settings`` (``@click.command(context_settings=
    {"auto_envvar_prefix": "APP"})``, or a name bound to such a dict): where
    click's automatic variables come from, as a call named
    ``context_settings``."""
    if type(deco) is not ast.Call:
        return None
    for keyword in deco.keywords:
        if keyword.arg == "context_settings":
            return _keyword_given(keyword.arg, deco, keyword.value, source, function)
    return None


#: Keywords that give every option of a parser or command another
#: spelling: a variable, click's (``cli(auto_envvar_prefix="APP")``) and
#: configargparse's (``ArgumentParser(auto_env_var_prefix="APP_")``), or a
#: key of the config files configargparse reads (``default_config_files``).
AUTOMATIC = frozenset({"auto_envvar_prefix", "auto_env_var_prefix", "default_config_files"})


#: optparse's ``OptionParser(version=...)``, which adds ``--version``: the
#: call as one named so.
PARSER_VERSION = "parser_version"


def automatic_prefixes(tree: ast.Module, source: str) -> list[RegistrationCall]:
    """The calls that give options automatic spellings, as calls named by
    their keyword (``auto_envvar_prefix``) with its value as argument and
    the callee (the command, or the parser class) as ``callee``; and a
    parser given a version (``OptionParser(version=...)``), as a call named
    ``PARSER_VERSION``."""
    return [
        _keyword_given(
            keyword.arg if keyword.arg in AUTOMATIC else PARSER_VERSION,
            node,
            keyword.value,
            source,
            "<module>",
        )
        for node in ast.walk(tree)
        if type(node) is ast.Call
        for keyword in node.keywords
        if keyword.arg in AUTOMATIC
        or (keyword.arg == "version" and last_name(node.func) == "OptionParser")
    ]


def _keyword_given(
    keyword: str, call: ast.Call, value: ast.expr, source: str, function: str
) -> RegistrationCall:
    """One keyword of a call as a fact: a call named by the keyword, with
    the keyword's value as its argument and the callee as ``callee``."""
    return RegistrationCall(
        keyword, [to_expr(value, source)], {}, call.lineno, function, dotted(call.func) or ""
    )


#: Calls and mappings that read an environment variable by name.
ENV_CALLS = frozenset({"os.environ.get", "environ.get", "os.getenv", "getenv"})

#: Calls that convert a value without changing what it holds
#: (``int(os.getenv("PORT", "80"))``, ``env["PORT"] = str(args.port)``).
CONVERSIONS = frozenset({"int", "float", "str", "bool"})


ENV_MAPPINGS = frozenset({"os.environ", "environ"})


def variable_read(expr: Expr | None) -> str | None:
    """The variable an expression reads: ``os.environ.get("X", d)``,
    ``os.getenv("X")``, also inside a conversion (``int(...)``)."""
    if expr is None or expr[0] != "call" or expr[1][0] != "n":
        return None
    if expr[1][1] in CONVERSIONS and len(expr[2]) == 1:
        return variable_read(expr[2][0])
    args = expr[2]
    if expr[1][1] in ENV_CALLS and args and args[0][0] == "c" and isinstance(args[0][1], str):
        return str(args[0][1]) or None
    return None


#: A settings object's getters (Scrapy's ``settings.getint("NAME")``).
_SETTING_GETTERS = frozenset(
    {
        *("get", "getbool", "getint", "getfloat", "getlist", "getdict", "getwithbase"),
        *("getdictorlist", "setdefault"),
    }
)


#: configparser's getters: ``get(section, option, *, fallback=...)``.
_INI_GETTERS = frozenset({"get", "getint", "getfloat", "getboolean"})


def _ini_names(args: list[ast.expr]) -> bool:
    """A section and an option as a string, the section a string not spelt
    as a setting (``settings.get("NAME", "x")`` is a setting's default) or
    computed (``get(self.version, "driver-cores", None)``)."""
    if len(args) < 2 or type(args[1]) is not ast.Constant or not isinstance(args[1].value, str):
        return False
    section = args[0]
    if type(section) is ast.Constant:
        return isinstance(section.value, str) and not _setting_name(section)
    return type(section) in (ast.Name, ast.Attribute, ast.Call, ast.JoinedStr)


def _settings_object(node: ast.expr) -> str | None:
    """``settings``, ``self.settings``, ``crawler.settings``, an app's
    ``app.config`` (Flask's): the dotted name of what looks like a
    settings object."""
    name = dotted(node)
    if name is not None and (name == "settings" or name.endswith((".settings", ".config"))):
        return name
    return None


def _setting_name(node: ast.expr) -> bool:
    """An upper-case name, as settings are spelt (``MYAPP_TIMEOUT``)."""
    return (
        type(node) is ast.Constant
        and isinstance(node.value, str)
        and len(node.value) > 1
        and node.value.isupper()
        and node.value.replace("_", "").isalnum()
    )


def _variable(node: ast.expr) -> bool:
    """A name a helper named for the environment may read, in any case
    (``getenv_int("dramatiq_lua_max_stack")``): two words or more."""
    return (
        type(node) is ast.Constant
        and isinstance(node.value, str)
        and "_" in node.value.strip("_")
        and node.value.isidentifier()
    )


def env_read(node: ast.AST, source: str, function: str) -> RegistrationCall | None:
    """A configuration value read by name: an environment variable
    (``os.environ.get("X", d)``, ``os.getenv("X", d)``, ``os.environ["X"]``,
    a registration ``env``) or a setting of a settings object
    (``settings.NAME``, ``getattr(settings, "NAME", d)``,
    ``settings.getint("NAME", d)``, ``settings["NAME"]``, a registration
    ``setting`` whose callee is the object's dotted name)."""
    # Cheap tests first: this runs on every call, subscript and attribute.
    kind, callee, form = "env", "os.environ", ""
    if type(node) is ast.Attribute:
        attr = node.attr
        if not attr.isupper() or len(attr) < 2 or _settings_object(node.value) is None:
            return None
        return RegistrationCall(
            "setting",
            [["c", attr]],
            {"form": ["c", "attribute"]},
            node.lineno,
            function,
            _settings_object(node.value) or "",
        )
    if type(node) is ast.Call:
        func = node.func
        last = last_name(func)
        if not node.args:
            return None
        if (
            last in _INI_GETTERS
            and type(func) is ast.Attribute
            and _ini_names(node.args)
            and dotted(func) not in ENV_CALLS
        ):
            # ``parser.getint("server", "port", fallback=8000)``: an INI option.
            given = {k.arg: to_expr(k.value, source) for k in node.keywords if k.arg}
            return RegistrationCall(
                "ini",
                [to_expr(a, source) for a in node.args[:3]],
                {**given, "getter": ["c", last]},
                node.lineno,
                function,
                dotted(func.value) or "",
            )
        if last == "getattr" and type(func) is ast.Name and len(node.args) >= 2:
            holder = _settings_object(node.args[0])
            if holder is None or not _setting_name(node.args[1]):
                return None
            kind, callee, form = "setting", holder, "getattr"
            name = node.args[1]
            default = node.args[2] if len(node.args) > 2 else None
        elif last in _SETTING_GETTERS and type(func) is ast.Attribute:
            holder = _settings_object(func.value)
            if holder is not None:
                if not _setting_name(node.args[0]):
                    return None
                kind, callee, form = "setting", holder, "getter"
            elif last != "get" or dotted(func) not in ENV_CALLS:
                return None
            else:
                callee = dotted(func.value) or callee  # ``environ`` or ``os.environ``
            name = node.args[0]
            default = node.args[1] if len(node.args) > 1 else None
        elif last == "getenv" and dotted(func) in ENV_CALLS:
            name = node.args[0]
            default = node.args[1] if len(node.args) > 1 else None
        elif (helper := dotted(func)) is not None and (
            _setting_name(node.args[0])
            or (
                "env" in helper.lower()
                and (_variable(node.args[0]) or type(node.args[0]) is ast.Name)
            )
        ):
            # ``envbool("DEBUG", False)``: a helper that may read a variable
            # by its parameter (resolution decides).
            kind, form, name, callee = "named_call", "", node.args[0], helper
            named = next((k.value for k in node.keywords if k.arg == "default"), None)
            default = node.args[1] if len(node.args) > 1 else named  # decouple's ``default=``
        else:
            return None
    elif type(node) is ast.Subscript and type(node.ctx) is ast.Load:
        value = node.value
        if last_name(value) == "environ" and dotted(value) in ENV_MAPPINGS:
            name, default = node.slice, None
            callee = dotted(value) or callee
        elif (holder := _settings_object(value)) is not None and _setting_name(node.slice):
            kind, callee, form = "setting", holder, "subscript"
            name, default = node.slice, None
        else:
            return None
    elif type(node) is ast.Compare:
        # ``"NO_COLOR" in os.environ``: a variable read for its presence.
        target = node.comparators[0]
        if (
            len(node.ops) != 1
            or type(node.ops[0]) not in (ast.In, ast.NotIn)
            or last_name(target) != "environ"
            or dotted(target) not in ENV_MAPPINGS
        ):
            return None
        name, default = node.left, None
        callee = dotted(target) or callee
    else:
        return None
    if kind == "env" and type(name) is ast.Name:
        # ``os.getenv(name, d)`` with a parameter: the function is a helper
        # that reads the variable its callers name; or a constant's.
        args = [["n", name.id]] + ([to_expr(default, source)] if default is not None else [])
        return RegistrationCall("env", args, {}, node.lineno, function, callee)
    if (
        kind == "env"
        and type(name) is ast.BinOp
        and type(name.op) is ast.Add
        and type(name.left) is ast.Name
        and type(name.right) is ast.Constant
        and isinstance(name.right.value, str)
    ):
        # ``os.getenv(name + "_FILE")``: the variable with a suffix.
        suffix = {"suffix": ["c", name.right.value]}
        return RegistrationCall("env", [["n", name.left.id]], suffix, node.lineno, function, callee)
    if kind == "named_call" and type(name) is ast.Name:
        # ``get_environ(env_name)``: a helper's helper, or a constant's name.
        return RegistrationCall(kind, [["n", name.id]], {}, node.lineno, function, callee)
    if type(name) is not ast.Constant or not isinstance(name.value, str):
        return None
    args = [to_expr(name, source)] + ([to_expr(default, source)] if default is not None else [])
    kwargs: dict[str, Expr] = {"form": ["c", form]} if form else {}
    if kind == "named_call":  # the keywords it gives (``prefix=""`` names another variable)
        keywords: list[ast.keyword] = getattr(node, "keywords", [])
        kwargs["given"] = ["c", ",".join(k.arg for k in keywords if k.arg)]
    return RegistrationCall(kind, args, kwargs, node.lineno, function, callee)


def click_parameter(texts: list[str]) -> tuple[list[str], str]:
    """The flags of a click option's declarations (``"--shout/--no-shout"``
    split in two) and the parameter the command receives: the declaration
    that is no flag, else its first long flag's, else its first flag's, in
    small letters with ``-`` as ``_``."""
    flags: list[str] = []
    names: list[str] = []
    for text in texts:
        for part in text.split("/"):
            part = part.strip()
            (flags if part.startswith("-") else names).append(part)
    longs = [f for f in flags if f.startswith("--")]
    if names or not flags:
        return flags, names[0] if names else ""
    return flags, (longs or flags)[0].lstrip("-").replace("-", "_").lower()


#: The builtin types an option's declared type names, by name.
TYPES = {"int": "int", "float": "float", "str": "str", "bool": "bool"}


def declared_kind(expr: Expr) -> str:
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
    return TYPES.get(name, "")


def option_variables(call: RegistrationCall | None) -> list[tuple[str, str]]:
    """The environment variables a flag's call names, each with its
    keyword: click's and typer's ``envvar="X"`` (or a list of them),
    configargparse's ``env_var=``."""
    if call is None:
        return []
    found: list[tuple[str, str]] = []
    for keyword in ("envvar", "env_var"):
        named = call.kwargs.get(keyword)
        if named is None:
            continue
        for item in named[2] if named[0] == "seq" else [named]:
            if item[0] == "c" and isinstance(item[1], str) and item[1]:
                found.append((item[1], keyword))
    return found
