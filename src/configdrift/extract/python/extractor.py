"""Extract facts from one Python file: a pure function of its bytes.

The module body, class bodies and function signatures are read statement by
statement here; each function body is analysed by ``body.FunctionBody``.
Attribute names and attribute chains on ``self`` come from the text, in one
pass of a compiled pattern each.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections import Counter

from configdrift.extract.python.attribute_fills import attribute_fills
from configdrift.extract.python.attribute_trees import attribute_trees
from configdrift.extract.python.body import FunctionBody
from configdrift.extract.python.calls import WRAPPED, structured_placement
from configdrift.extract.python.compat import downgrade_isolated
from configdrift.extract.python.dict_sources import read_by_many
from configdrift.extract.python.docstrings import read_docstring, read_function_docstring
from configdrift.extract.python.exprs import (
    add_validator,
    dotted,
    is_main_guard,
    to_expr,
)
from configdrift.extract.python.facts import (
    HELD_MIN_KEYS,
    ClassFact,
    DictRead,
    FieldFact,
    ImportFact,
    ModuleFacts,
)
from configdrift.extract.python.function_tables import dict_key_lines, record_tables
from configdrift.extract.python.getters import getter_reads
from configdrift.extract.python.named_variables import variables_named
from configdrift.extract.python.registration_calls import (
    attribute_flags,
    automatic_prefixes,
    env_read,
    field_flags,
    registration_call,
)
from configdrift.extract.python.signatures import (
    all_parameters,
    command_line_calls,
    console_scripts,
    read_signature,
)
from configdrift.extract.python.subcommands import parser_uses
from configdrift.extract.python.typed_dicts import typed_dicts
from configdrift.extract.python.warned_keywords import warned_keywords
from configdrift.extract.python.wrappers import (
    Wrapper,
    declaring_wrappers,
    expanded,
    seen_whole,
    wrapper_called,
)
from configdrift.extract.text import NotText, decode, too_dense

# ``.name``: an attribute name (the receiver is looked at by hand: a pattern
# that matched it too would try a match at every character).
_ATTRIBUTE = re.compile(r"\.[ \t]*([A-Za-z_]\w*)(?![ \t]*=[^=])")
# The same loads on ``self`` (a whole word). A pattern that starts with the
# literal and looks behind it afterwards is searched for as a string, ten
# times faster than one that starts with a look-behind.
_SELF_ATTRIBUTE = re.compile(r"self(?<![\w.]self)\.[ \t]*([A-Za-z_]\w*)(?![ \t]*=[^=])")
# ``x.name = ...``: an attribute stored (``==`` is a comparison).
_ATTRIBUTE_STORE = re.compile(r"\.[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)")
_SELF_STORE = re.compile(r"self(?<![\w.]self)\.[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)")
# ``self.a.b``: a chain of two attributes or more on ``self``.
_SELF_CHAIN = re.compile(r"self(?<![\w.]self)(?:\.[A-Za-z_]\w*){2,}")
#: A test of an expression's type: ``isinstance(x.y, C)``, ``hasattr(x, "a")``,
#: ``type(x) is C``.
_NAME_CHAR = re.compile(r"[\w.]")
_NARROWINGS = tuple(
    (f"{word}(", re.compile(rf"{word}\(\s*([A-Za-z_][\w.]*)\s*[,)]"))
    for word in ("isinstance", "issubclass", "hasattr", "type")
)


#: How a file that ``ast`` rejects is reported until a newer grammar reads it.
SYNTAX_ERROR = "invalid Python syntax: "


def extract_python(
    data: bytes, *, newer: bool = False, declaring: frozenset[str] = frozenset()
) -> ModuleFacts:
    """Facts of one Python file, from its bytes alone; with ``newer``, a file
    ``ast`` rejects is read again in newer syntax (``extract_newer``, which
    batches many files into one child process)."""
    facts = ModuleFacts()
    dense = too_dense(data)
    if dense is not None:
        facts.error, facts.error_line = dense, 1
        return facts
    try:
        source = decode(data)
    except NotText as exc:
        facts.error, facts.error_line = str(exc), exc.line
        return facts
    facts = extract_source(source, declaring)
    if newer and is_syntax_error(facts):
        return extract_newer([(source, facts)], declaring)[0]
    return facts


def is_syntax_error(facts: ModuleFacts) -> bool:
    return facts.error is not None and facts.error.startswith(SYNTAX_ERROR)


def extract_source(source: str, declaring: frozenset[str] = frozenset()) -> ModuleFacts:
    """Facts of one Python module's text; ``declaring`` names the calls the
    configuration declares as registrations."""
    facts = ModuleFacts()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        facts.error = SYNTAX_ERROR + str(getattr(exc, "msg", exc))
        facts.error_line = getattr(exc, "lineno", None) or 1
        return facts
    module = ModuleExtractor(facts, source, declaring)
    module.run(tree)
    module.finish()
    if "=" in source:
        facts.attribute_trees = attribute_trees(tree, source)
    facts.registrations += command_line_calls(tree, source) + console_scripts(tree, source)
    if "add_parser" in source or ".command(" in source or ".group(" in source:
        facts.parsers = parser_uses(tree, "click" in source and "typer" not in source)
    if "auto_env" in source or "default_config_files" in source or "OptionParser" in source:
        # Rare: a walk of its own costs nothing elsewhere.
        facts.registrations += automatic_prefixes(tree, source)
    return facts


def extract_newer(
    sources: list[tuple[str, ModuleFacts]], declaring: frozenset[str] = frozenset()
) -> list[ModuleFacts]:
    """Facts of modules ``ast`` rejected, read again in newer syntax (in a
    child process: see ``compat.downgrade_isolated``); a module no
    supported Python version parses keeps its syntax error."""
    rewritten = downgrade_isolated([source for source, _ in sources])
    out: list[ModuleFacts] = []
    for (_, facts), text in zip(sources, rewritten, strict=True):
        newer = extract_source(text, declaring) if text is not None else None
        out.append(newer if newer is not None and newer.error is None else facts)
    return out


def _keyword_lines(call: ast.Call, prefix: str, depth: int, out: dict[str, int]) -> None:
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        out[prefix + keyword.arg] = keyword.lineno
        if type(keyword.value) is ast.Call and depth < 4:
            _keyword_lines(keyword.value, f"{prefix}{keyword.arg}.", depth + 1, out)


def _key_lines(value: ast.expr) -> dict[str, int] | None:
    """The line of each string key of a dict literal, of each string in
    the rows of a table of tuples (``(("branch", "run:branch"), ...)``), of
    the key a table of calls names first (``(Setting("name", 1), ...)``,
    also where a call is handed the table), or of each keyword of a call of
    keywords, nested ones by their path
    (``Namespace(task=Namespace(acks_late=...))``: ``task.acks_late``)."""
    if type(value) is ast.Call:
        found: dict[str, int] = {}
        if len(value.keywords) >= 2:
            _keyword_lines(value, "", 0, found)
        for item in (*value.args, *(k.value for k in value.keywords)):
            # A table of calls handed to a call: ``Settings(validators=[...])``.
            if type(item) in (ast.List, ast.Tuple):
                found.update(_key_lines(item) or {})
        return found or None
    if type(value) is ast.Dict:
        return dict_key_lines(value)
    if type(value) not in (ast.Tuple, ast.List) or len(value.elts) < 2:  # type: ignore[attr-defined]
        return None
    out: dict[str, int] = {}
    for row in value.elts:  # type: ignore[attr-defined]
        if type(row) is ast.Call:
            # A table of calls naming their keys first: ``Setting("name", 1)``.
            first = row.args[0] if row.args else None
            if type(first) is ast.Constant and isinstance(first.value, str):
                out.setdefault(first.value, first.lineno)
            continue
        if type(row) is not ast.Tuple:
            return None
        for item in row.elts:
            if type(item) is ast.Constant and isinstance(item.value, str):
                out.setdefault(item.value, item.lineno)
    return out


class ModuleExtractor:
    def __init__(
        self, facts: ModuleFacts, source: str, declaring: frozenset[str] = frozenset()
    ) -> None:
        self.facts = facts
        self.source = source
        self.declaring = declaring
        #: Can a loop of the module go over the environment's variables?
        self.mentions_environ = "environ" in source
        #: Can a function of the module deprecate a parameter?
        self.deprecates = "eprecat" in source
        #: Can a dict of the module name the class it builds (``type=``)?
        self.names_types = "type" in source
        self.fills = "hasattr(" in source and "setattr(" in source
        #: The source's lines, split when a comment above a field is read.
        self._lines: list[str] | None = None
        self.attr_loads: set[str] = set()
        #: The classes whose bodies are read, innermost last (``self.NAMES``).
        self.open_classes: list[ClassFact] = []
        #: The module's helpers that declare an option for their caller.
        self.wrappers: dict[str, Wrapper] = {}
        #: How many calls of each helper declared what it declares.
        self.wrappers_declared: Counter[str] = Counter()

    def run(self, tree: ast.Module) -> None:
        self.wrappers = declaring_wrappers(tree, self.source, WRAPPED)
        self._statements(tree.body, top=True)
        if self.wrappers:
            self.facts.registrations = seen_whole(
                self.facts.registrations, self.wrappers, self.wrappers_declared
            )
        self.facts.variables_named = variables_named(self.source)

    def finish(self) -> None:
        self._drop_unstored_attributes()
        self._chains()
        self._narrowings()
        # Attribute names from the text, in one pass of a compiled pattern:
        # visiting every Attribute node costs more than the rest together.
        names = set(self.attr_loads)
        source = self.source
        counts = Counter(_ATTRIBUTE.findall(source))
        for name, count in Counter(_SELF_ATTRIBUTE.findall(source)).items():
            counts[name] -= count
            if counts[name] <= 0:
                del counts[name]
            counts["self." + name] = count
        names.update(counts)
        self.facts.attr_loads = sorted(names)
        self.facts.attr_counts = dict(counts)
        if "=" in source:
            stores = Counter(_ATTRIBUTE_STORE.findall(source))
            stores.subtract(_SELF_STORE.findall(source))
            self.facts.attr_stores = sorted(name for name, n in stores.items() if n > 0)

    def _spans(self) -> tuple[list[tuple[str, tuple[int, int]]], list[int]]:
        """The functions' line spans, by first line (outer before inner)."""
        spans = sorted(
            self.facts.function_lines.items(), key=lambda item: (item[1][0], -item[1][1])
        )
        return spans, [span[0] for _, span in spans]

    @staticmethod
    def _innermost(
        spans: list[tuple[str, tuple[int, int]]], starts: list[int], line: int
    ) -> str | None:
        """The innermost function whose span holds the line."""
        index = bisect.bisect_right(starts, line) - 1
        while index >= 0:
            name, (first, last) = spans[index]
            if first <= line <= last:
                return name
            index -= 1
        return None

    def _chains(self) -> None:
        """Attribute chains of two attributes or more on ``self``, by function.

        Chains on locals (``cfg = get_zero_config(d); cfg.x``) are not
        recorded: a pattern for them would match every dotted name.
        """
        facts = self.facts
        source = self.source
        if not facts.function_lines or "self." not in source:
            return
        spans, starts = self._spans()
        line = 1
        position = 0
        for match in _SELF_CHAIN.finditer(source):
            # Matches come in order: count the newlines since the last one.
            line += source.count("\n", position, match.start())
            position = match.start()
            name = self._innermost(spans, starts, line)
            if name is not None:
                facts.chains.append((line, name, match.group(0)))

    def _narrowings(self) -> None:
        """The expressions each function tests the type of: a read through
        one has the type the test narrowed it to, which is not followed."""
        facts = self.facts
        source = self.source
        if not facts.function_lines or not any(word in source for word, _ in _NARROWINGS):
            return
        spans, starts = self._spans()
        # One pattern per test, each found by its literal first: faster than
        # one alternation (a lookbehind would cost that speed: the character
        # before a match is tested by hand, so that ``obj.type(x)`` and
        # ``subtype(x)`` are no tests).
        found = sorted(
            (match.start(), match.group(1))
            for word, pattern in _NARROWINGS
            if word in source
            for match in pattern.finditer(source)
            if match.start() == 0 or not _NAME_CHAR.match(source, match.start() - 1)
        )
        seen: set[tuple[str, str]] = set()
        line = 1
        position = 0
        for start, text in found:
            line += source.count("\n", position, start)
            position = start
            name = self._innermost(spans, starts, line)
            if name is not None and (name, text) not in seen:
                seen.add((name, text))
                facts.narrowed.append((name, text))

    def _drop_unstored_attributes(self) -> None:
        """An instance attribute holds a config dict only if the class stores
        one there: facts about the other ``self.X`` (``f(self.module)``) go."""
        facts = self.facts

        def owner(function: str, base: str) -> tuple[str, str]:
            return function.rsplit(".", 1)[0], base

        stored = {
            owner(s.function, s.target) for s in facts.dict_stores if s.target.startswith("self.")
        }

        def keep(function: str, base: str) -> bool:
            return not base.startswith("self.") or owner(function, base) in stored

        facts.dict_args = [a for a in facts.dict_args if keep(a.function, a.source.base)]
        # A dict stored from what a method is handed (``self.o = options``,
        # ``params.get("OPTIONS")``) is held too: taken where no flow was.
        handed = {
            owner(s.function, s.target)
            for s in facts.dict_stores
            if s.target.startswith("self.") and all(k[0] == "c" for k in s.source.keys)
        }
        kept: list[DictRead] = []
        held: list[DictRead] = []
        for read in facts.dict_reads:
            (kept if keep(read.function, read.source.base) else held).append(read)
            if owner(read.function, read.source.base) in handed:
                held.append(read)
        # Only a dict a class reads by ``HELD_MIN_KEYS`` keys or more may be
        # a configuration (``held_dicts``).
        keys: dict[tuple[str, str], set[str]] = {}
        for read in held:
            if len(read.source.keys) == 1:
                keys.setdefault(owner(read.function, read.source.base), set()).add(
                    repr(read.source.keys[0])
                )
        facts.held_reads = [
            r for r in held if len(keys.get(owner(r.function, r.source.base), ())) >= HELD_MIN_KEYS
        ]
        facts.dict_reads = kept
        facts.call_reads = read_by_many(facts.call_reads)
        facts.dict_stores = [s for s in facts.dict_stores if keep(s.function, s.source.base)]

    def import_statement(self, stmt: ast.Import | ast.ImportFrom) -> None:
        self._statements([stmt], top=False)

    def _statements(self, body: list[ast.stmt], top: bool) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        local = alias.asname
                        self.facts.imports.append(
                            ImportFact(local, alias.name, None, 0, stmt.lineno)
                        )
                    else:
                        local = alias.name.split(".")[0]
                        self.facts.imports.append(ImportFact(local, local, None, 0, stmt.lineno))
            elif isinstance(stmt, ast.ImportFrom):
                module = stmt.module or ""
                for alias in stmt.names:
                    if alias.name == "*":
                        self.facts.star_imports.append(("." * stmt.level + module, stmt.lineno))
                    else:
                        local = alias.asname or alias.name
                        self.facts.imports.append(
                            ImportFact(local, module, alias.name, stmt.level, stmt.lineno)
                        )
            elif isinstance(stmt, ast.Assign) and top:
                self._module_assign(stmt.targets, stmt.value, stmt.lineno)
            elif isinstance(stmt, ast.AnnAssign) and top and stmt.value is not None:
                self._module_assign([stmt.target], stmt.value, stmt.lineno)
                annotation = dotted(stmt.annotation)
                if isinstance(stmt.target, ast.Name) and annotation is not None:
                    # ``SETTINGS: UserSettings = {}``: a module's typed global.
                    self.facts.local_types.append(("", stmt.target.id, annotation))
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, prefix="")
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(stmt, stmt.name)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                if self.wrappers and self.helper_declared(stmt.value, "<module>"):
                    continue
                # A script's module-level ``parser.add_argument(...)``.
                registration = registration_call(
                    stmt.value, self.source, "<module>", declaring=self.declaring
                )
                if registration is not None:
                    self.facts.registrations.append(registration)
                self._structured(stmt.value)
            elif isinstance(stmt, ast.If | ast.Try | ast.With):
                self.facts.main_guard |= top and is_main_guard(stmt)
                # Conditional imports and definitions still define names.
                for block in _sub_bodies(stmt):
                    self._statements(block, top)

    def _module_value(self, value: ast.expr, top: bool = True) -> None:
        """``API_KEY = os.getenv("API_KEY", "")`` at module level (or in a
        class body), and at the top the dicts that name the class they
        build (``dict(type="ResNet")``)."""
        for node in ast.walk(value):
            read = env_read(node, self.source, "<module>")
            if read is not None:
                self.facts.registrations.append(read)
        if top and self.names_types:
            typed_dicts(value, self.source, self.facts.typed_dicts)

    def _structured(self, value: ast.expr) -> None:
        """A module's ``cs.store(name="train", node=TrainConf)`` or
        ``OmegaConf.structured(TrainConf)``: the model config files are
        merged into."""
        placement = structured_placement(value, self.source, "<module>")
        if placement is not None:
            self.facts.placements.append(placement)

    def _module_assign(self, targets: list[ast.expr], value: ast.expr, line: int) -> None:
        self._module_value(value)
        self._structured(value)
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id == "__all__" and isinstance(value, ast.List | ast.Tuple):
                    self.facts.all_names = [
                        e.value
                        for e in value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
                    continue
                self.facts.assigns[target.id] = to_expr(value, self.source)
                self.facts.assign_lines[target.id] = line
                lines = _key_lines(value)
                if lines is not None:
                    self.facts.dict_key_lines[target.id] = lines

    def _class(self, node: ast.ClassDef, prefix: str) -> None:
        qualname = prefix + node.name
        fact = ClassFact(
            name=qualname,
            line=node.lineno,
            bases=[to_expr(b, self.source) for b in node.bases],
            decorators=[to_expr(d, self.source) for d in node.decorator_list],
        )
        for kw in node.keywords:
            # class M(BaseModel, extra="forbid")
            if kw.arg is not None:
                fact.config_class[kw.arg] = to_expr(kw.value, self.source)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            fact.docstring = isinstance(body[0].value.value, str)
        read_docstring(fact, node, self.source)
        fact.warned_keywords = warned_keywords(node) if self.deprecates else []
        self.open_classes.append(fact)
        for index, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                # ``MAIL_SERVER = os.environ.get("MAIL_SERVER")`` in a config class.
                self._module_value(stmt.value, top=False)
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                value = to_expr(stmt.value, self.source) if stmt.value is not None else None
                lines = _key_lines(stmt.value) if stmt.value is not None else None
                if lines is not None:
                    # ``_config_map: ClassVar[dict[str, Item]] = {...}``
                    self.facts.dict_key_lines[f"{qualname}.{stmt.target.id}"] = lines
                after = body[index + 1] if index + 1 < len(body) else None
                described = (
                    isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                )
                if (
                    flags := field_flags(stmt.value, stmt.target.id, self.source, qualname)
                ) is not None:
                    self.facts.registrations.append(flags)
                fact.fields.append(
                    FieldFact(
                        stmt.target.id,
                        stmt.lineno,
                        to_expr(stmt.annotation, self.source),
                        value,
                        described,
                        self._deprecation_comment(stmt.lineno)
                        or _deprecation_docstring(after if described else None),
                    )
                )
                if stmt.target.id == "config_scheme" and value is not None:
                    # ``config_scheme: Tuple = (...)``: a MkDocs plugin's options, annotated.
                    fact.assigns["config_scheme"] = value
                    fact.assigns.setdefault("__line__config_scheme", ["c", stmt.lineno])
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        fact.assigns[target.id] = to_expr(stmt.value, self.source)
                        fact.assigns.setdefault("__line__" + target.id, ["c", stmt.lineno])
                        lines = _key_lines(stmt.value)
                        if lines is not None:
                            self.facts.dict_key_lines[f"{qualname}.{target.id}"] = lines
                        flags = attribute_flags(stmt.value, target.id, self.source, qualname)
                        if flags is not None:
                            self.facts.registrations.append(flags)
            elif isinstance(stmt, ast.ClassDef):
                if stmt.name == "Config":
                    for inner in stmt.body:
                        if isinstance(inner, ast.Assign):
                            for target in inner.targets:
                                if isinstance(target, ast.Name):
                                    fact.config_class[target.id] = to_expr(inner.value, self.source)
                else:
                    self._class(stmt, prefix=qualname + ".")
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(stmt, qualname + "." + stmt.name)
                add_validator(fact, stmt)
        self.open_classes.pop()
        self.facts.classes.append(fact)
        # ``self.config("port", 8080)`` through ``def config(self, key, default)``.
        self.facts.dict_reads.extend(getter_reads(node, qualname, self.source))

    def helper_declared(self, call: ast.Call, function: str) -> bool:
        """Record what ``call`` declares if it calls a helper of the module
        that declares options (``add_flag("--port", 8000)``); is it one?"""
        wrapper = wrapper_called(call, self.wrappers)
        if wrapper is None:
            return False
        made = [
            registration_call(inner, self.source, function, declaring=self.declaring)
            for inner in expanded(wrapper, call)
        ]
        declared = [m for m in made if m is not None]
        self.facts.registrations.extend(declared)
        if declared:
            self.wrappers_declared[wrapper.node.name] += 1
        return True

    def _deprecation_comment(self, line: int) -> str:
        """The comment lines right above ``line`` when they say deprecated
        (``# Deprecated: use `lint.args` instead.``), else nothing."""
        if "eprecated" not in self.source:
            return ""
        if self._lines is None:
            self._lines = self.source.splitlines()
        said: list[str] = []
        number = line - 2
        while number >= 0 and len(said) < 3:
            text = self._lines[number].strip()
            if not text.startswith("#"):
                break
            said.insert(0, text.lstrip("#").strip())
            number -= 1
        comment = " ".join(said)
        return comment if comment.lower().startswith("deprecated") else ""

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> None:
        annotated = read_signature(self.facts, self.source, node, qualname, self.deprecates)
        read_function_docstring(self.facts, node, qualname)
        FunctionBody(self, qualname, {a.arg for a in all_parameters(node)}, annotated).run(node)
        record_tables(self.facts, self.source, node, qualname)
        if self.fills:  # ``if hasattr(cfg, key): setattr(cfg, key, value)``
            self.facts.attribute_fills.extend(attribute_fills(node, qualname))


def _deprecation_docstring(after: ast.stmt | None) -> str:
    """A field's attribute docstring when it opens by saying the field is
    deprecated ("Deprecated! Moved to 'templates.file'"), else nothing."""
    if not isinstance(after, ast.Expr) or not isinstance(after.value, ast.Constant):
        return ""
    text = str(after.value.value).strip()
    return text if text.lower().startswith("deprecated") else ""


def _sub_bodies(stmt: ast.If | ast.Try | ast.With) -> list[list[ast.stmt]]:
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, ast.Try):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    return [stmt.body]
