"""The subcommands an argparse program declares and the parser each
option is added to: ``p = subs.add_parser("install")`` then
``p.add_argument("--dry-run")`` or ``_add_common_options(p)``.

A name bound to what ``add_parser("name")`` returns is that subcommand's
parser until it is bound again (programs reuse one ``p`` for each
subcommand in turn); an argument group made from it
(``p.add_argument_group("output")``) adds to it too. A function's
first parameter is a parser of its own, named for the function (``@helper``),
so that the options a helper adds reach the subcommands it is handed.
Only the function's own statements are read: a nested function is read
as a function of its own.

A click program's subcommand is a function ``command`` (or ``group``)
decorates (``@cli.command("run")``, else the function's name
with ``-`` for ``_``); its options are those its ``@click.option``
decorators declare, all of them where its other decorators are click's
own (``@click.argument``, ``@click.pass_context``): a decorator of the
project's may add more (``@install_options``), a command given ``cls=``
or ``context_settings=`` may take others, and a group's subcommands take
their own. So with argparse: a subcommand's parser that makes subparsers
of its own (``add_subparsers``) is handed on, its options not all known.
"""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import dotted
from configdrift.extract.python.facts import ParserUses

#: The methods of a parser that make another object adding to it.
_GROUPS = frozenset({"add_argument_group", "add_mutually_exclusive_group"})
#: The methods of a parser that add an option.
_ADDS = frozenset({"add_argument"})
#: The methods of a parser that neither add options nor hand it on.
_QUIET = frozenset({"set_defaults", "print_help", "print_usage", "format_help", "error"})


#: click's decorators that add no option of their own making.
_CLICK_OWN = frozenset(
    {
        "option",
        "argument",
        "pass_context",
        "pass_obj",
        "version_option",
        "help_option",
        "password_option",
        "confirmation_option",
    }
)
#: The ends of a function's name that click 8.2 drops from its command's.
_SUFFIXES = ("-command", "-cmd", "-group", "-grp")
#: The keywords of a command's decorator that may make it take other options.
_OPEN_COMMAND = frozenset({"cls", "context_settings"})


def parser_uses(tree: ast.Module, click: bool = False) -> ParserUses:
    """The module's subcommands and where their parsers go (see the module);
    with ``click``, its click commands too (never typer's, whose options
    are their functions' parameters)."""
    uses = ParserUses()
    _body(tree.body, {}, uses)
    for stmt in tree.body if click else ():
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            _click_command(stmt, uses)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
            params = [name for name in params if name not in {"self", "cls"}]
            # A helper is handed the parser first (``_add_dev_option(p,
            # help_text=...)``).
            _body(node.body, {params[0]: f"@{node.name}"} if params else {}, uses)
    return uses


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``body``, not those of the functions and classes it defines."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _body(body: list[ast.stmt], bound: dict[str, str], uses: ParserUses) -> None:
    """Follow the parsers' names through ``body``'s statements in order."""
    events: list[tuple[tuple[int, int], int, ast.AST]] = []
    calls: dict[int, ast.Call] = {}
    for node in _own_nodes(body):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
            events.append((end, 1, node))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            events.append(((node.lineno, node.col_offset), 0, node))
        elif isinstance(node, ast.Call):
            calls.update((id(arg), node) for arg in _operands(node))
    for _, _, node in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(node, ast.Name):
            token = bound.get(node.id)
            if token is not None:
                _use(node, token, calls.get(id(node)), uses)
            continue
        assert isinstance(node, ast.Assign | ast.AnnAssign)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        token = _made(node.value, bound, uses)
        for target in targets:
            if isinstance(target, ast.Name):
                if token is None:
                    bound.pop(target.id, None)
                else:
                    bound[target.id] = token


def _operands(call: ast.Call) -> list[ast.expr]:
    """The receiver of a method call and the call's positional arguments."""
    out = list(call.args)
    if isinstance(call.func, ast.Attribute):
        out.append(call.func.value)
    return out


def _made(value: ast.expr | None, bound: dict[str, str], uses: ParserUses) -> str | None:
    """The parser a value is: a new subcommand's, or a group of a known one."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return None
    method = value.func.attr
    if method == "add_parser" and value.args:
        first = value.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            name = first.value
            if name in uses.subcommands or any(k.arg == "parents" for k in value.keywords):
                # Two programs' subcommands of one name, or options of other
                # parsers (``parents=``): not followed.
                _escape(uses, name)
            uses.subcommands.setdefault(name, value.lineno)
            return name
    receiver = value.func.value
    if method in _GROUPS and isinstance(receiver, ast.Name):
        return bound.get(receiver.id)
    return None


def _use(node: ast.Name, token: str, call: ast.Call | None, uses: ParserUses) -> None:
    """A parser's name read: an option added, the parser handed to a
    function, a group made of it, or a use not followed."""
    if call is None:
        _escape(uses, token)
        return
    func = call.func
    if isinstance(func, ast.Attribute) and func.value is node:
        if func.attr in _ADDS:
            uses.options[call.lineno] = token
        elif func.attr not in _GROUPS and func.attr not in _QUIET:
            _escape(uses, token)
        return
    callee = dotted(func)
    if callee is None or call.args[:1] != [node]:
        _escape(uses, token)
    else:
        uses.handed.append((token, callee, call.lineno))


def _escape(uses: ParserUses, token: str) -> None:
    if token not in uses.escaped:
        uses.escaped.append(token)


def _click_command(node: ast.FunctionDef | ast.AsyncFunctionDef, uses: ParserUses) -> None:
    """A module's function a click group's ``command`` or ``group``
    decorates: a subcommand of that name (see the module)."""
    name: str | None = None
    known = True
    for deco in node.decorator_list:
        func = deco.func if isinstance(deco, ast.Call) else deco
        method = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = func.value if isinstance(func, ast.Attribute) else None
        if method in ("command", "group") and isinstance(owner, ast.Name):
            name = _command_name(deco, node.name)
            given = deco.keywords if isinstance(deco, ast.Call) else []
            # A group's own options are few: the flags under its name are
            # mostly its subcommands' (``app publish cloudrun --title``).
            known = known and method == "command" and not any(k.arg in _OPEN_COMMAND for k in given)
        elif method not in _CLICK_OWN:
            known = False  # a decorator of the project's may add options
    if name is None or (name == node.name.replace("_", "-") and name.endswith(_SUFFIXES)):
        return  # click 8.2 names ``run_cmd`` "run", older ones "run-cmd"
    token = f"@{node.name}"
    if name in uses.subcommands:
        _escape(uses, name)
    uses.subcommands.setdefault(name, node.lineno)
    uses.functions.setdefault(name, token)
    if not known:
        _escape(uses, token)


def _command_name(deco: ast.expr, function: str) -> str:
    """The name a command's decorator gives it, else its function's (click
    writes ``_`` as ``-``)."""
    if isinstance(deco, ast.Call):
        given = [*deco.args[:1], *(k.value for k in deco.keywords if k.arg == "name")]
        for value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return function.replace("_", "-")
