"""The flags a script's own command line takes, where they are all known:
a script the docs run (``python hf_chat.py --max_new_tokens=16``) that
builds one ``argparse.ArgumentParser``, declares every option with a
literal flag, hands the parser to nothing else, takes no rest of the
words for another program (``nargs=argparse.REMAINDER``), and parses
with ``parse_args`` (an unknown flag fails: ``unrecognized arguments``).
Its flags are those and ``--help`` (unless ``add_help=False``), and
``--no-x`` for an ``--x`` of ``action=argparse.BooleanOptionalAction``;
an action of the project's own (a class) may make others: not closed.
Read from the script's syntax tree, never run.
"""

from __future__ import annotations

import ast

from configdrift.extract.docs.facts import ScriptParser
from configdrift.extract.python.exprs import last_name

#: The flags every argparse parser takes, unless told not to.
HELP_FLAGS = ("-h", "--help")
#: The parser's methods that take unknown flags or another parser's.
_OPEN = frozenset({"parse_known_args", "parse_known_intermixed_args", "add_subparsers"})


def closed_parser(tree: ast.Module) -> ScriptParser | None:
    """The line of the script's one parser and every flag it declares,
    where the script declares them all (see the module's docs), with the
    choices of those that take one string of a few (``choices=["a",
    "b"]``, no ``type=`` but ``str``, no ``nargs=``); None where a flag
    may come from elsewhere, or the script parses none."""
    parsers = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and last_name(node.func) == "ArgumentParser"
    ]
    if len(parsers) != 1 or any(k.arg in _OTHER_FLAGS for k in parsers[0].keywords):
        return None
    helps = _helps(parsers[0])
    if helps is None:
        return None
    # The names the parser and its groups are bound to.
    bindings = [
        (node.value is parsers[0], target.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        if node.value is parsers[0] or last_name(node.value.func) in _GROUPS
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    if not any(own for own, _ in bindings):
        return None  # a parser bound to no name: where it goes is not known
    held = {name for _, name in bindings}
    flags: list[str] = list(HELP_FLAGS) if helps else []
    choices: list[tuple[str, tuple[str, ...]]] = []
    parsed = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = last_name(node.func)
        if name in _OPEN:
            return None
        parsed = parsed or name == "parse_args"
        if name == "add_argument":
            if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
                return None
            if any(k.arg == "nargs" and _rest(k.value) for k in node.keywords):
                return None  # the words after it are another program's
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if len(texts) != len(node.args) or not all(isinstance(t, str) for t in texts):
                return None  # a flag not known statically
            given = [t for t in texts if isinstance(t, str) and t.startswith("-")]
            action = next((k.value for k in node.keywords if k.arg == "action"), None)
            if action is not None and not isinstance(action, ast.Constant):
                if last_name(action) != "BooleanOptionalAction":
                    return None  # an action of the project's may add spellings
                given += ["--no-" + t[2:] for t in given if t.startswith("--")]
            flags += given
            taken = _choices(node)
            choices += [(flag, taken) for flag in given if taken]
        elif any(isinstance(a, ast.Name) and a.id in held for a in node.args):
            return None  # the parser handed to a helper that may add options
    return (parsers[0].lineno, tuple(flags), tuple(choices)) if parsed else None


def _choices(call: ast.Call) -> tuple[str, ...]:
    """The strings an option's one word must be one of (``choices=["a",
    "b"]`` of strings, read as given: no ``type=`` but ``str``, no
    ``nargs=``); none where another value may be taken."""
    keywords = {k.arg: k.value for k in call.keywords}
    given = keywords.get("choices")
    converted = keywords.get("type")
    if (
        not isinstance(given, ast.List | ast.Tuple)
        or "nargs" in keywords
        or not (converted is None or (isinstance(converted, ast.Name) and converted.id == "str"))
    ):
        return ()
    values = [e.value for e in given.elts if isinstance(e, ast.Constant)]
    if len(values) != len(given.elts) or not all(isinstance(v, str) for v in values):
        return ()
    return tuple(str(v) for v in values)


#: The parser's keywords that give it flags of another parser's, or
#: other prefixes than ``-``.
_OTHER_FLAGS = frozenset({"parents", "prefix_chars"})


def _helps(parser: ast.Call) -> bool | None:
    """Does the parser take ``-h`` and ``--help`` (``add_help=False``
    says not); None where it is not known."""
    given = next((k.value for k in parser.keywords if k.arg == "add_help"), None)
    if given is None:
        return True
    return (
        given.value if isinstance(given, ast.Constant) and isinstance(given.value, bool) else None
    )


#: The calls that make a group of a parser's options.
_GROUPS = frozenset({"add_argument_group", "add_mutually_exclusive_group"})


def _rest(value: ast.expr) -> bool:
    """Does ``nargs=`` take the rest of the words (``argparse.REMAINDER``)?"""
    if isinstance(value, ast.Constant):
        return value.value == "..."
    return isinstance(value, ast.Attribute | ast.Name) and last_name(value) == "REMAINDER"
