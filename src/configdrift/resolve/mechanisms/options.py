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

from collections import Counter
from collections.abc import Callable

from configdrift.extract.python.facts import RegistrationCall
from configdrift.extract.python.registration_calls import (
    ADDED_OPTION,
    CLICK_BUILTINS,
    DECLARING_CALLS,
    OPTION_DECORATORS,
    PARSER_VERSION,
    REGISTRATION_METHODS,
    TYPES,
)
from configdrift.index.spellings import separated
from configdrift.model import BUILTIN, IMPLIED, Location, SchemaNode, Surface, Unresolved, Value
from configdrift.resolve.flow_graph import harmless
from configdrift.resolve.mechanisms import option_nodes
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.click import (
    adds_unseen_options,
    beside_click,
    click_builtin,
    click_option,
    of_click,
    takes_unknown,
    typer_option,
    wraps_click_option,
)
from configdrift.resolve.mechanisms.named_keys import NAMED, named_option, named_spec
from configdrift.resolve.mechanisms.option_nodes import option_group, option_node
from configdrift.resolve.mechanisms.signature_cli import signature_options
from configdrift.resolve.project import ModuleInfo, Project
from configdrift.resolve.schema import DYNAMIC, MIN_OPTIONS, SchemaBuilder, new_root

#: What an ``action`` makes of an option: its default and its kind. A
#: switch's default is its state when not given (``IMPLIED``), which a
#: program that merges flags over a configuration often drops.
_ACTIONS: dict[str, tuple[Value | None, str]] = {
    "store_true": (Value.of(False, f"False{IMPLIED}"), "bool"),
    "store_false": (Value.of(True, f"True{IMPLIED}"), "bool"),
    "count": (None, "int"),
    "append": (None, "list"),
    "extend": (None, "list"),
}
#: Actions that take no value a user configures.
_NOT_OPTIONS = frozenset({"help", "version"})
#: How findings name the command line: argparse's parser, click's command.
PARSER = "the argument parser"
COMMAND = "the click command"
REGISTERED = "the registered options"
#: How ``map`` says each group of options (``option_groups``) was found.
FOUND_AS = {
    "cli": "options declared with add_argument or @option",
    "registered": "keys registered by name",
}


#: The libraries whose declaring calls (``body.DECLARING_CALLS``) declare a
#: key: Tornado's ``define(name, default=None, ...)``, oslo.config's
#: ``cfg.StrOpt(name, default=None)``.
_CATALOGUE = ("tornado.options.", "oslo_config.")
#: optparse's parser, given a version: it adds ``--version``.
_OPTPARSE = "optparse.OptionParser"


def _kind(
    project: Project,
    module: str,
    call: RegistrationCall,
    declared: dict[str, tuple[int | str, int | str]],
) -> str | None:
    """``argparse``, ``click`` or ``named`` for a call that declares an
    option: pytest's ``addoption`` takes argparse's arguments; pytest's
    ``addini(name, help, type=, default=)`` and Sphinx's
    ``add_config_value(name, default, rebuild)`` name a key users set in a
    file."""
    if call.method in ("add_argument", "addoption", "_addoption"):
        return None if _other_receiver(project, module, call) else "argparse"
    if call.method in NAMED:
        return "named"
    for name in declared:
        if name.rsplit(".", 1)[-1] != call.method:
            continue
        if "." not in name or name == call.callee:
            return "named"
        symbol = project.resolve(module, call.callee)
        if symbol is not None and name in (f"{symbol.module}.{symbol.qualname}", symbol.qualname):
            return "named"
    # The three sets of names below share none: the one that holds the method decides.
    if call.method in DECLARING_CALLS:
        return "named" if project.external(module, call.callee).startswith(_CATALOGUE) else None
    if call.method == PARSER_VERSION:
        return "version" if project.external(module, call.callee) == _OPTPARSE else None
    if call.method in CLICK_BUILTINS and call.callee:
        return "click-builtin" if of_click(project.external(module, call.callee)) else None
    if call.method in ("option", "Option") and call.callee:
        head, _, last = project.external(module, call.callee).rpartition(".")
        if last == "option" and (of_click(head) or beside_click(project, module, call)):
            return "click"
        if wraps_click_option(project, module, call.callee):  # ``return click.option(...)``
            return "click"
        if last == "Option" and head.split(".")[0] == "typer" and "__param__" in call.kwargs:
            return "typer"
    return None


#: How many flag-shaped calls of one name make it the project's way of
#: declaring options.
MIN_LEARNED = 5


def learned_flag_methods(
    project: Project, declared: dict[str, tuple[int | str, int | str]]
) -> frozenset[str]:
    """Names the project calls again and again with a flag first and
    argparse's keywords (``add_option("--show-source", action="store_true",
    help=...)``) and no library's known name: its own way of declaring
    command-line options, taken as ``add_argument`` is; and the names
    called so on one module or object, together as often (plumbum's
    ``cli.Flag`` and ``cli.SwitchAttr``)."""
    # A library's name is never learned: ``add_argument`` on a browser's
    # options object stays no option of the project's.
    known = {
        *REGISTRATION_METHODS,
        *DECLARING_CALLS,
        *OPTION_DECORATORS,
        *CLICK_BUILTINS,
        *NAMED,
        "Option",
        "handed",
        "config.add",
        *(name.rsplit(".", 1)[-1] for name in declared),
    }
    counts: Counter[str] = Counter()
    # The calls by the module or object they are made on (``cli`` of
    # ``cli.Flag`` and ``cli.SwitchAttr``): one library's family of
    # declarations, learned together.
    families: dict[str, Counter[str]] = {}
    for name, info in project.modules.items():
        for call in info.facts.registrations:
            flag = (
                bool(call.args) and call.args[0][0] == "c" and str(call.args[0][1]).startswith("-")
            )
            if call.method not in known and flag:
                counts[call.method] += 1
                head = project.external(name, call.callee).rpartition(".")[0]
                if head:
                    families.setdefault(head, Counter())[call.method] += 1
    learned = {method for method, n in counts.items() if n >= MIN_LEARNED}
    for family in families.values():
        if family.total() >= MIN_LEARNED:
            learned.update(family)
    return frozenset(learned)


#: Modules whose objects take ``add_argument`` as a parser does.
_PARSER_MODULES = ("argparse", "configargparse", "jsonargparse", "pytest", "_pytest", "tap")


def _other_receiver(project: Project, module: str, call: RegistrationCall) -> bool:
    """Is ``x.add_argument(...)`` called on an object built by another
    library than a parser's (Selenium's ``webdriver.ChromeOptions()``)?"""
    receiver = call.callee.rsplit(".", 1)[0] if "." in call.callee else ""
    facts = project.modules[module].facts
    built: list[str] = []
    if receiver.startswith("self.") and receiver.count(".") == 1 and "." in call.function:
        owner = call.function.rsplit(".", 1)[0] + "."
        built = [
            callee
            for function, name, how, callee, _ in facts.attr_assigns
            if name == receiver[5:] and how == "call" and function.startswith(owner)
        ]
    elif receiver and "." not in receiver:
        built = [
            callee
            for function, name, callee in facts.local_types
            if function == call.function and name == receiver
        ]
    name = project.external(module, built[0]) if built else ""
    return bool(name) and not (
        name.split(".")[0] in _PARSER_MODULES
        or name.endswith(("Parser", "_group", "add_parser", "getgroup"))
    )


def _script(info: ModuleInfo) -> bool:
    """Is the module a script: a file in no package that runs itself
    (``if __name__ == "__main__":``), as ``release/macos/build_pkg.py``
    does? A plugin of a namespace package (``beetsplug/export.py``) is
    imported, not run."""
    return "." not in info.name and not info.is_package and info.facts.main_guard


def _options_of(
    project: Project,
    names: list[str],
    declared: dict[str, tuple[int | str, int | str]],
    learned: frozenset[str],
) -> tuple[dict[str, SchemaNode], list[Location]]:
    """The options the modules ``names`` declare, by destination (a key
    registered by name apart from a flag of its destination), and the
    calls that declare options not known statically."""
    nodes: dict[str, SchemaNode] = {}
    dynamic: list[Location] = []
    for name in names:
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
            kind = _kind(project, name, call, declared)
            if kind is None and call.method in learned:
                kind = "argparse"
            if kind is None:
                continue
            node: SchemaNode | None
            if kind == "click-builtin":
                node = click_builtin(name, call, where)
            elif kind == "version":
                # ``OptionParser(version=...)`` adds ``--version``, to print and exit.
                node = option_node("version", ["--version"], "", None, where, name)
                node.origin = BUILTIN
            elif kind != "typer" and _dynamic(project, name, call):
                dynamic.append(where)
                continue
            elif kind == "argparse":
                node = _option(project, name, call, where)
                if node is not None and _framework_parser(project, name, call):
                    # ``def add_arguments(self, parser)`` of a Django command:
                    # the framework builds the parser, with options of its own.
                    dynamic.append(where)
            elif kind == "click":
                node = click_option(project, name, call, where)
            elif kind == "typer":
                node = typer_option(project, name, call, where)
            else:
                node = named_option(project, name, call, where, named_spec(call, declared))
            if node is None:
                continue
            # A key registered by name for a file (pytest's ``addini``) is
            # not the flag of its name: two spellings users write apart.
            slot = f"named:{node.key}" if node.model_kind == "named" else node.key
            known = nodes.setdefault(slot, node)
            if known is node:
                continue
            if known.hidden and not node.hidden:  # the shown one is the option
                nodes[slot], known, node = node, node, known
            fresh = [s for s in node.spellings if s not in known.spellings]
            if node.location is not None and known.location is not None and not node.hidden:
                # ``--no-color`` declared apart from ``--color``, in one file
                # (another file's parser may be another program's), or
                # ``--log_level`` beside ``--log-level`` anywhere: a flag of
                # its own that the docs may leave out, unless its declaration
                # hides it from the help (``--ls``, ``help=argparse.SUPPRESS``).
                same = node.location.path == known.location.path
                variants = {separated(s) for s in known.spellings}
                apart = [s for s in fresh if same or separated(s) in variants]
                known.apart += tuple((s, node.location) for s in apart if s[:2] == "--")
            if node.hidden and not known.hidden:  # an old spelling, kept out of the help
                known.hidden_spellings += tuple(fresh)
            known.spellings = tuple(dict.fromkeys((*known.spellings, *node.spellings)))
            if not _same_default(known.default, node.default):
                # Two commands give the option different defaults: no
                # one default to compare the docs with.
                known.default = Value.unknown("depends on the command")
    return nodes, dynamic


def _framework_parser(project: Project, module: str, call: RegistrationCall) -> bool:
    """Is the parser a call adds to handed to a method of a class that
    extends a class outside the project (a framework's hook, such as
    Django's ``BaseCommand.add_arguments(self, parser)``)? The framework
    then builds it, with options the project never declares."""
    owner, _, _ = call.function.rpartition(".")
    facts = project.modules[module].facts
    if not owner or call.callee.split(".", 1)[0] not in facts.functions.get(call.function, ()):
        return False
    cls = next((c for c in facts.classes if c.name == owner), None)
    return cls is not None and any(
        (symbol := project.resolve(module, base[1])) is None or symbol.kind == "external"
        for base in cls.bases
        if base[0] == "n"
    )


def _same_default(a: Value | None, b: Value | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.known == b.known and (a.value == b.value if a.known else a.text == b.text)


def _dynamic(project: Project, module: str, call: RegistrationCall) -> bool:
    """Option strings built at runtime: a starred or computed first argument
    (a positional argument's name is a plain string); a constant's name
    (``add_config_value(_WORKERS_KEY, ...)``) is known."""
    first = call.args[0] if call.args else call.kwargs.get("keys")
    if first is not None and first[0] == "seq" and first[2]:
        return any(project.string(module, item) is None for item in first[2])
    return first is None or project.string(module, first) is None


#: Keywords of a flag's declaration that give more flags of the option
#: (nox's ``negative_flags=``, ``aliases=``).
_MORE_FLAGS = ("flags", "aliases")


def _option(
    project: Project, module: str, call: RegistrationCall, where: Location
) -> SchemaNode | None:
    flags = [flag for a in call.args if (flag := project.string(module, a)) is not None]
    if not flags or len(flags) != len(call.args) or not all(f.startswith("-") for f in flags):
        return None  # a positional argument, or option strings not known statically
    for keyword, value in call.kwargs.items():
        if keyword.endswith(_MORE_FLAGS) and value[0] == "seq":
            # ``negative_flags=("-N", "--no-reuse")``: the same option's other spellings.
            more = [project.string(module, item) for item in value[2]]
            flags += [f for f in more if f and f.startswith("-") and f not in flags]
    if not any(f.strip("-") for f in flags):
        return None  # ``add_argument("-")``: standard input, no option to document
    action = project.string(module, call.kwargs["action"]) if "action" in call.kwargs else None
    if action in _NOT_OPTIONS:
        # ``--version`` prints and exits: a documented spelling is accepted,
        # with nothing to configure or read.
        node = option_node(action, flags, "", None, where, option_group(module, call.function))
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
        kind = TYPES.get(type_expr[1], "")
    choices = project.sequence(module, call.kwargs.get("choices"))
    node = option_node(
        dest, flags, kind, default, where, option_group(module, call.function), None, choices
    )
    option_nodes.hide_or_deprecate(project, module, call.kwargs, node)
    return option_nodes.with_variables(node, call, module)


#: Flags every command line has, that no page is expected to describe.
_UNIVERSAL = frozenset({"--help", "--version"})


def mount_options(root: SchemaNode, options: list[SchemaNode], complete: bool) -> None:
    """Make the options the children of the root: strict when every option
    is known and unknown flags are refused (``complete``), open when some
    are declared at runtime or unknown flags are handed back."""
    for node in options:
        known = root.children.get(node.key)
        if known is not None:
            # A key registered by name beside the flag of its name, in one
            # surface: one option, of both spellings.
            known.spellings = tuple(dict.fromkeys((*known.spellings, *node.spellings)))
            continue
        root.children[node.key] = node
        if _UNIVERSAL.intersection(node.spellings):
            # A command line's own ``--help`` or ``--version``: no page is
            # expected to describe it, whoever declares it.
            node.origin = BUILTIN
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


#: A parser's methods that hand unknown flags back rather than refuse them.
_KNOWN_ARGS = frozenset({"parse_known_args", "parse_known_intermixed_args"})


def options_complete(builder: SchemaBuilder) -> bool:
    """Does the command line reject every flag it does not declare: none
    declared at run time, no ``parse_known_args`` anywhere (it hands
    unknown flags back, to be passed on or ignored), no click command told
    to take unknown options or extra arguments?"""
    if declared_options(builder)[1]:
        return False
    project = builder.project
    for module, info in project.modules.items():
        if _KNOWN_ARGS.intersection(info.facts.attr_loads):
            return False
        for call in info.facts.registrations:
            if (
                call.method == "context_settings"
                and call.args
                and takes_unknown(info, call.args[0])
            ):
                return False
            if call.method == ADDED_OPTION and adds_unseen_options(project, module, call.callee):
                return False
    return True


def declared_options(builder: SchemaBuilder) -> tuple[list[SchemaNode], list[Location]]:
    """The project's registered options (argparse's ``add_argument``,
    click's ``@option``, a signature's parameters, keys registered by
    name), one node per destination (an option declared twice keeps the
    first, with both spellings), and where options are built at runtime
    (``add_argument(*names)``); computed once.

    A script outside every package that runs itself
    (``release/build_pkg.py``) is a program of its own: its options count only
    when the packages declare too few to be a command line."""
    if builder.options_found is None:
        project, declared = builder.project, builder.declared
        learned = learned_flag_methods(project, declared)
        packaged = [name for name in sorted(project.modules) if not _script(project.modules[name])]
        found, dynamic = _options_of(project, packaged, declared, learned)
        if len(found) < MIN_OPTIONS:
            found, dynamic = _options_of(project, sorted(project.modules), declared, learned)
        nodes = list(found.values())
        signatures, opened = signature_options(builder)
        known = {node.key: node for node in nodes}
        for node in signatures:
            first = known.setdefault(node.key, node)
            if first is node:
                nodes.append(node)
            elif not _same_default(first.default, node.default):
                # Two commands' parameters of one name, with two defaults.
                first.default = Value.unknown("depends on the command")
        builder.options_found = nodes, dynamic + opened
    return builder.options_found


def option_groups(builder: SchemaBuilder) -> list[tuple[str, list[SchemaNode]]]:
    """The options split by what users write: command-line flags
    (``cli``) and keys registered by name for a file (``registered``:
    pytest's ini, Sphinx's conf.py, tox's ``add_config``), larger first."""
    options, _ = declared_options(builder)
    named = [o for o in options if o.model_kind == "named"]
    flags = [o for o in options if o.model_kind != "named"]
    if min(len(named), len(flags)) < MIN_OPTIONS:
        # A plugin's two flags and two ini keys: one surface, named by
        # what most of them are.
        return [("cli" if len(flags) >= len(named) else "registered", options)] if options else []
    return sorted([("cli", flags), ("registered", named)], key=lambda g: -len(g[1]))


def options_documented(
    builder: SchemaBuilder,
    root: SchemaNode,
    options: list[SchemaNode],
    doc_names: Callable[[], frozenset[str]],
) -> bool:
    """Do the docs describe the command line rather than what the code
    placed at the root? The options win when the docs name three of
    them at least and none of the placed keys: a tree built from models
    of serialized data (a report file, a transfer's metadata) that no
    page documents is no configuration."""
    names = doc_names()
    placed = {s for node in root.walk() if node is not root for s in node.spellings or (node.key,)}
    placed |= {key for site in builder.flow.reads()[0] for key in site.path}
    if placed & names:
        return False
    spelt = {s for node in options for s in node.spellings}
    return len(spelt & names) >= MIN_OPTIONS


def surfaces(discovery: Discovery) -> list[Surface]:
    """The groups of options the root is not: the command line's
    flags, or the keys registered by name for a file; a command line
    also when a page is generated from its parser."""
    found: list[Surface] = []
    for name, options in option_groups(discovery.builder):
        if name == discovery.builder.primary_options or len(options) < MIN_OPTIONS:
            continue
        # Keys registered by name (pytest's ini, Sphinx's conf.py, tox's
        # ``add_config``) are a file's; flags are the command line's.
        dynamic = declared_options(discovery.builder)[1]
        cli = new_root()
        mount_options(cli, options, complete=options_complete(discovery.builder))
        claimed = discovery.claim(cli) or (discovery.generated and name == "cli")
        admitted = ""
        if not claimed and name == "cli" and discovery.spelt is not None:
            # Flags the pages write in prose or command lines, with no entries.
            flags = frozenset(s for o in options for s in o.spellings if s.startswith("--"))
            claimed = discovery.claim(cli, discovery.names | discovery.spelt(flags))
            admitted = "the pages write its flags in prose and command lines" if claimed else ""
        if claimed:
            unresolved = [Unresolved(where, DYNAMIC) for where in dynamic]
            how = f"{len(options)} {FOUND_AS[name]}"
            found.append(Surface(name, cli, how, unresolved, name, admitted=admitted))
    return found
