"""The parameters a class's docstring describes: what autodoc renders as
its reference (``.. autoclass::``, ``[[autodoc]]``, ``::: pkg.Class``).

Three styles are read, line by line, never run:

- Google and Hugging Face: an ``Args:`` (``Parameters:``, ``Attributes:``
  ...) line, then one entry per name one level deeper, ``name (type):``
  or ``name (`int`, *optional*, defaults to `0`):`` or ``name: text``;
- numpy: ``Parameters`` over a line of dashes, then ``name : type``;
- Sphinx fields: ``:param name:``, ``:param int name:``.

Each entry keeps its line in the file, the type its parentheses give and
the default its text states as a value (``defaults to `0```, ``Default is
`False`.``); a default in words ("15 seconds") is none.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Set as AbstractSet

from configdrift.extract.docs.facts import Block
from configdrift.extract.docs.prose_defaults import conditional
from configdrift.extract.docs.python_config import inline_call, python_blocks
from configdrift.extract.names import one_edit
from configdrift.extract.python.attribute_fills import init_values
from configdrift.extract.python.exprs import (
    defaulted,
    deprecated_keywords,
    deprecation_messages,
    to_expr,
)
from configdrift.extract.python.facts import ClassFact, DocParam, ModuleFacts

#: The headers of a section that lists parameters, Google style.
_GOOGLE = frozenset(
    {
        "args",
        "arguments",
        "parameters",
        "params",
        "keyword args",
        "keyword arguments",
        "attributes",
        "other parameters",
    }
)
#: The headers of every section, Google style: one written at an entry's
#: depth (``Examples:`` indented under ``Args:``) ends the entries.
_HEADERS = _GOOGLE | frozenset(
    {"example", "examples", "note", "notes", "returns", "return", "raises", "yields", "warning"}
    | {"warnings", "see also", "references", "todo", "usage"}
)
#: The headers of a section that lists parameters, numpy style.
_NUMPY = frozenset({"parameters", "attributes", "other parameters"})

#: One entry of a Google section: a name, its type in parentheses (which
#: may hold one level more: ``defaults to `(None, None)```, and run long:
#: a union of four classes, each with its role), a colon.
_ENTRY = re.compile(
    r"^(\*{0,2}[A-Za-z_]\w{0,80}) {0,3}"
    r"(?:\(((?:[^()\n]|\([^()\n]{0,80}\)){0,400})\)|\{[^{}\n]{0,200}\})? {0,3}:(?!//)"
)
#: One entry of a numpy section: ``name : type``, or the name alone.
_NUMPY_ENTRY = re.compile(r"^([A-Za-z_]\w{0,80})(?: {0,3}: {0,3}([^\n]{0,200}))?")
#: A Sphinx field: ``:param name:``, ``:param int name:``.
_FIELD = re.compile(
    r"^:(?:param|parameter|arg|argument|key|keyword) {1,10}(?:[^:\n ]{1,80} {1,10})?(\w{1,80}):"
)
#: A default stated as a value: ``defaults to `x```, ``Default is ``5``.``,
#: ``default: 5``, ``default=None``.
_DEFAULT = re.compile(
    r"\bdefault(?:s| value)?(?: is| set to| to|:|=)? {0,3}"
    r"(`{1,2}[^`\n]{1,80}`{1,2}|-?\d{1,20}(?:\.\d{1,20})?(?:[eE][-+]?\d{1,3})?\b|True\b|False\b|None\b)",
    re.IGNORECASE,
)

#: A name in code in prose (```seed```, ````seed````).
_CODE_NAME = re.compile(r"`{1,2}([A-Za-z_]\w{0,80})`")

#: The most entries kept of one docstring.
MAX_PARAMS = 200
#: The longest docstring read.
MAX_DOCSTRING = 100_000


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _default(text: str, name: str) -> str | None:
    flat = " ".join(text.split())
    found = _DEFAULT.search(flat)
    if found is None:
        return None
    value = found.group(1)
    rest = flat[found.end() :].lstrip(" ")
    # A number's point may start a sum (``1./3``, ``2.**24``).
    after = rest[1:2] if rest[:1] == "." and not value.startswith("`") else rest[:1]
    if not value.startswith("`") and (after.isalpha() or after in ("/", "*", "+", "-")):
        return None  # a quantity in words ("15 seconds") or a sum ("1/3"), not a value
    if conditional(flat[found.end() :]):
        return None  # "defaults to `x` if ...": a default in one case only
    value = value.strip("`")
    left, equals, right = value.partition("=")
    # ``Default set to `r = 0```: the value the entry's name is given.
    return right.strip() if equals and left.strip() == name and right.strip() else value


def _type(text: str | None) -> str | None:
    """The type an entry's parentheses give: their text up to the first
    comma outside brackets (``Optional[Union[List[str], str]]``, then
    ``*optional*``)."""
    if not text:
        return None
    depth = 0
    end = len(text)
    for at, char in enumerate(text):
        depth += (char in "[(") - (char in "])")
        if char == "," and depth == 0:
            end = at
            break
    first = text[:end].replace("`", "").replace("*", "").strip()
    return None if first.lower() in ("", "optional") else first


def doc_params(docstring: str, first_line: int) -> list[DocParam]:
    """The parameters ``docstring`` describes, ``first_line`` the line of
    its first line in the file; none where it has no section of them."""
    lines = docstring.splitlines()
    out: list[DocParam] = []
    index = 0
    while index < len(lines) and len(out) < MAX_PARAMS:
        stripped = lines[index].strip()
        header = stripped.rstrip(":").strip().lower()
        dashes = index + 1 < len(lines) and set(lines[index + 1].strip()) == {"-"}
        attribute = header == "attributes"
        if stripped.endswith(":") and header in _GOOGLE:
            index = _section(lines, index, first_line, out, numpy=False, attribute=attribute)
        elif not stripped.endswith(":") and header in _NUMPY and dashes:
            index = _section(lines, index + 1, first_line, out, numpy=True, attribute=attribute)
        else:
            field = _FIELD.match(stripped)
            if field:
                text = stripped[field.end() :]
                rest = _more(lines, index, _indent(lines[index]))
                out.append(
                    DocParam(
                        field.group(1),
                        first_line + index,
                        None,
                        _default(text + rest, field.group(1)),
                    )
                )
            index += 1
    return out[:MAX_PARAMS]


def _more(lines: list[str], index: int, indent: int) -> str:
    """The text of the lines after ``index`` indented deeper than
    ``indent``: an entry's description."""
    text: list[str] = []
    for line in lines[index + 1 :]:
        if line.strip() and _indent(line) <= indent:
            break
        text.append(line)
    return " " + " ".join(text)


def _section(
    lines: list[str],
    index: int,
    first_line: int,
    out: list[DocParam],
    *,
    numpy: bool,
    attribute: bool,
) -> int:
    """Read the entries of the section whose header (or underline) is at
    ``index``; return the index after it."""
    base = _indent(lines[index])
    index += 1
    entry_indent: int | None = None
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            index += 1
            continue
        indent = _indent(line)
        if indent < base or (indent == base and not numpy):
            break  # the section has ended
        following = next((n for n in lines[index + 1 :] if n.strip()), "")
        if numpy and indent == base and set(following.strip()) == {"-"}:
            break  # the next section's header
        if entry_indent is None:
            entry_indent = indent
        if (
            not numpy
            and indent <= entry_indent
            and stripped[:1].isupper()
            and stripped.rstrip(":").lower() in _HEADERS
        ):
            break  # another section's header (``Examples:``), indented as an entry is
        if indent == entry_indent:
            pattern = _NUMPY_ENTRY if numpy else _ENTRY
            found = pattern.match(stripped)
            if found is None or (numpy and found.end() != len(stripped)):
                if not numpy and not stripped.startswith(">"):
                    break  # prose after the entries (a quoted line heads a group of them)
            else:
                name = found.group(1).lstrip("*")
                typed = found.group(2)
                rest = stripped[found.end() :] + _more(lines, index, indent)
                if not found.group(1).startswith("*"):
                    out.append(
                        DocParam(
                            name,
                            first_line + index,
                            _type(typed),
                            _default(typed or "", name) or _default(rest, name),
                            attribute,
                        )
                    )
        elif indent < entry_indent:
            break
        index += 1
    return index


def _docstring(body: list[ast.stmt]) -> tuple[str, int] | None:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        value = body[0].value.value
        if isinstance(value, str):
            return value[:MAX_DOCSTRING], body[0].value.lineno
    return None


def example_code(docstring: str, first_line: int) -> list[tuple[int, str]]:
    """The doctest examples of a docstring (``>>> Config(r=8)`` and its
    ``...`` lines), each run of them as one piece of code with the line
    of its first in the file."""
    out: list[tuple[int, str]] = []
    code: list[str] = []
    start = 0
    for index, line in enumerate([*docstring.splitlines(), ""]):
        text = line.strip()
        if text.startswith((">>>", "...")) and (len(text) == 3 or text[3] == " "):
            if not code:
                start = first_line + index
            code.append(text[4:])
        elif code:
            out.append((start, "\n".join(code)))
            code = []
    return out


def example_calls(
    docstring: tuple[str, int] | None, params: AbstractSet[str] = frozenset()
) -> list[Block]:
    """The calls with keyword arguments of a docstring's examples
    (``>>> config = LoraConfig(r=8, lora_alpha=16)``) and of its prose's
    literals (````StaticErrorEvaluator(const=0)````), at their lines in
    the file; none where it has neither. A call of one of the callable's
    ``params`` (``target(i, flag=b)`` in the docstring of ``builds(target,
    ...)``) calls what is given for it: none of the project's callables."""
    if docstring is None:
        return []
    text, first = docstring
    calls: list[Block] = []
    if ">>>" in text:
        for line, code in example_code(text, first):
            calls.extend(python_blocks(code, line, 0, "python")[1])
    if "``" in text and "=" in text:
        for span in _CODE_SPAN.finditer(text):
            if span.group(1) != "``":
                continue  # reST's literals are in two backticks
            # The prose around it: its paragraph, from blank line to blank line.
            start, end = text.rfind("\n\n", 0, span.start()) + 1, text.find("\n\n", span.end())
            prose = text[start : span.start()] + text[span.end() : end if end >= 0 else len(text)]
            line = first + text.count("\n", 0, span.start())
            inline_call(span.group(2), line, 0, calls, prose)
    return [call for call in calls if call.call.partition(".")[0] not in params]


def read_docstring(fact: ClassFact, node: ast.ClassDef, source: str) -> None:
    """What a class's docstring says of its parameters, into its facts:
    those it (else its ``__init__``'s) describes, the calls of its
    examples, the defaults and annotations its ``__init__`` gives its
    parameters (and the literal values it gives attributes) and, where it
    describes some, the keywords it mentions elsewhere."""
    init = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    own = _docstring(node.body)
    docstrings = [found for found in (own, init and _docstring(init.body)) if found]
    fact.doc_params = next((p for found in docstrings if (p := doc_params(*found))), [])
    if init is not None:
        # ``*handlers`` is described by its name, and given by position.
        star = init.args.vararg.arg if init.args.vararg is not None else None
        fact.doc_params = [p for p in fact.doc_params if p.name != star]
        fact.init_defaults = {a.arg: to_expr(d, source) for a, d in defaulted(init.args)}
        fact.init_values = init_values(init, source)
        fact.init_annotations = {
            a.arg: to_expr(a.annotation, source)
            for a in (*init.args.args, *init.args.kwonlyargs)
            if a.annotation is not None
        }
    keywords = _keywords(node, init)
    fact.doc_calls = example_calls(own, keywords)
    fact.doc_misspelt = _misspelt(keywords, docstrings)
    if not fact.doc_params:
        words = set(re.findall(r"\w+", "\n".join(text for text, _ in docstrings)))
        fact.doc_spelt = sorted(keywords & words)
        return
    fact.doc_mentions = _mentions(keywords, init, [text for text, _ in docstrings])


def read_function_docstring(
    facts: ModuleFacts, node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str
) -> None:
    """What a module function's docstring describes that its signature
    lacks, into its facts: the names it describes that are no parameter,
    and those it writes in code one letter from one; and the calls of its
    examples and its prose's literals."""
    found = _docstring(node.body)
    if qualname.count(".") > 1 or found is None:
        return  # a module function's or a method's (``Retries.delay``) alone
    args = node.args
    keywords = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    # ``*collections`` is described by its name.
    taken = keywords | {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    params = doc_params(*found)
    untaken = [p for p in params if p.name not in taken and not p.attribute]
    if untaken:
        nested = _nested_fields(*found)
        if kept := [(p.name, p.line) for p in untaken if p.line not in nested]:
            facts.doc_untaken[qualname] = (len(params), kept)
    public = {name for name in keywords if not name.startswith("_")}
    if misspelt := _misspelt(public, [found]):
        facts.doc_misspelt[qualname] = misspelt
    if calls := example_calls(found, taken):
        facts.doc_calls[qualname] = calls


def _nested_fields(docstring: str, first_line: int) -> set[int]:
    """The lines of the ``:param x:`` fields indented deeper than the
    docstring's text: a field list in a quote, of something else than the
    function (the function it returns, "takes the following arguments")."""
    lines = docstring.splitlines()
    depths = [_indent(line) for line in lines[1:] if line.strip()]
    base = min(depths, default=0)
    return {
        first_line + number
        for number, line in enumerate(lines)
        if number and line.lstrip().startswith(":") and _indent(line) > base
    }


def _keywords(node: ast.ClassDef, init: ast.FunctionDef | None) -> set[str]:
    """The class's own keywords: the names its body annotates, its
    ``__init__``'s parameters (``self`` and private ones left out)."""
    names = {
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    }
    if init is not None:
        names.update(
            a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)
        )
    return {name for name in names if name != "self" and not name.startswith("_")}


#: Code in prose: one or two backticks around text of one line.
_CODE_SPAN = re.compile(r"(`{1,2})([^`\n]{1,120})\1")
#: A name inside it (``1-use_chile_gene_prob``: ``use_chile_gene_prob``).
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w{0,80}")


def _misspelt(keywords: set[str], docstrings: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """The names the docstrings write in code one letter from one of the
    class's ``keywords`` (and from no other), each with that keyword and
    its line. Only names of two words or more are compared
    (``target_name``): a short word one letter from a keyword is as often
    another word (``beta`` beside ``eta``)."""
    found: dict[str, tuple[str, str, int]] = {}
    for text, first in docstrings:
        for span in _CODE_SPAN.finditer(text):
            for word in _NAME.findall(span.group(2)):
                if word in keywords or "_" not in word.strip("_") or word in found:
                    continue
                near = [k for k in keywords if one_edit(word, k)]
                if len(near) == 1:
                    found[word] = (word, near[0], first + text.count("\n", 0, span.start()))
    return list(found.values())


def _mentions(keywords: set[str], init: ast.FunctionDef | None, texts: list[str]) -> list[str]:
    """The class's own ``keywords`` (the names its body annotates, its
    ``__init__``'s parameters) its docstrings (``texts``) spell in code
    anywhere (``> - `learning_rate`: Defaults to `5e-7```) or a
    deprecation message of its ``__init__`` names: described, if not in
    an entry of their own; a word of prose ("bias") is not."""
    words = set(_CODE_NAME.findall("\n".join(texts)))
    if init is not None:
        words.update(_deprecated(init))
    return sorted(keywords & words)


def _deprecated(init: ast.FunctionDef) -> set[str]:
    """The words of the deprecation messages of an ``__init__`` and the
    parameters whose default says they are deprecated (``="deprecated"``):
    left out of its docstring on purpose."""
    words: set[str] = set(deprecated_keywords(init))
    for message in deprecation_messages(init):
        words.update(re.findall(r"\w+", message[:MAX_DOCSTRING]))
    return words
