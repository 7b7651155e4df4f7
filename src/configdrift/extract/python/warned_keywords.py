"""The keywords a class warns are deprecated where they are used: its
``__init__`` keeps the keyword's value on ``self`` (``self._config_path =
config_path``), and a statement of one of its methods uses that
attribute in a message that says "deprecated" (``"The use of the
configuration [{}] {} is deprecated".format(self._config_path["section"],
...)``). A name given by such a keyword is an old spelling of the option:
it still works, with a warning."""

from __future__ import annotations

import ast

from configdrift.extract.python.exprs import deprecation_messages

#: The statements a message is looked for in: one that holds the message
#: and the attribute says the one of the other.
_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Raise)


def warned_keywords(node: ast.ClassDef) -> list[str]:
    """The parameters of the class's ``__init__`` whose value a method
    uses in a deprecation message, in the signature's order."""
    init = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None:
        return []
    args = init.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)][1:]
    kept: dict[str, str] = {}  # attribute -> the name whose value it keeps
    for sub in ast.walk(init):
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Name):
            kept.update({attr: sub.value.id for attr in _self_attributes(sub.targets)})
    if not kept:
        return []
    warned: set[str] = set()
    for method in node.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for stmt in ast.walk(method):
            if isinstance(stmt, _SIMPLE) and deprecation_messages(stmt):
                used = {_self_attribute(sub) for sub in ast.walk(stmt)}
                warned.update(kept[attr] for attr in used & kept.keys())
    return [p for p in params if p in warned]


def _self_attributes(targets: list[ast.expr]) -> list[str]:
    """The attributes of ``self`` an assignment's targets set."""
    return [name for t in targets if (name := _self_attribute(t))]


def _self_attribute(node: ast.AST) -> str:
    """The attribute of ``self`` the node is (``self._config_path``), or ""."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == "self" else ""
    return ""
