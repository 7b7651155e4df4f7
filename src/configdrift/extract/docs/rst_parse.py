"""docutils set up to parse any page of reStructuredText, statically.

Sphinx is not needed: the directives and roles docutils does not know
(``confval``, ``option``, ``code-block``, ``autoclass``, a project's own
``conf``) are parsed by one generic directive, which keeps its name,
arguments, options and body, and one generic role, which keeps its text as
a literal. Nothing a page names is read from disk (``include`` and ``raw``
are off), and the parse runs within ``rst_budget``'s bounds.
"""

from __future__ import annotations

import gc
import io
from typing import Any

from configdrift.extract.docs.entry_text import role_target
from configdrift.extract.docs.rst_budget import budgeted, install_budget

#: Directives that show code: their first argument is the language.
CODE_DIRECTIVES = frozenset({"code-block", "sourcecode", "code"})


#: A page larger than this is parsed with the cyclic collector on.
LARGE_RST_BYTES = 128 * 1024


#: Bytes of reStructuredText parsed between two collections. A docutils
#: tree is all cycles (parents and children, the parser's states): with the
#: collector paused for speed, nothing frees it, and a page costs about two
#: hundred times its size. Past this much, the garbage is collected.
RST_GARBAGE_BUDGET = 1024 * 1024


_parsed = 0


def release_parsed(size: int) -> None:
    global _parsed
    _parsed += size
    if _parsed > RST_GARBAGE_BUDGET:
        _parsed = 0
        if not gc.isenabled():
            gc.collect()


_SETTINGS: Any = None


def _settings() -> Any:
    """docutils' settings, built once (building them parses option specs)."""
    global _SETTINGS
    if _SETTINGS is None:
        from docutils.frontend import get_default_settings
        from docutils.parsers.rst import Parser

        settings = get_default_settings(Parser)
        settings.report_level = 5
        settings.halt_level = 5
        settings.file_insertion_enabled = False
        settings.raw_enabled = False
        settings.syntax_highlight = "none"
        settings.character_level_inline_markup = False
        _SETTINGS = settings
    return _SETTINGS


def parse_rst(text: str) -> Any:
    from docutils.parsers.rst import Parser, directives, roles
    from docutils.utils import new_document

    _register()
    settings = _settings()
    settings.warning_stream = io.StringIO()
    lookup_directive, lookup_role = directives.directive, roles.role

    def any_directive(name: str, language: Any, document: Any) -> tuple[Any, list[Any]]:
        if name.lower() in CODE_DIRECTIVES:
            # Read as a literal block with its content's first line (docutils'
            # own ``code`` directive records none, nor is its highlighting
            # wanted).
            return _Generic, []
        found, messages = lookup_directive(name, language, document)
        return (found or _Generic), messages

    def any_role(name: str, language: Any, lineno: int, reporter: Any) -> tuple[Any, list[Any]]:
        found, messages = lookup_role(name, language, lineno, reporter)
        return (found or _literal_role), messages

    # docutils looks both up through its modules at each use. What another
    # library registered in this process (Sphinx's ``toctree``, which needs
    # a Sphinx environment) is set aside: docutils' own directives and roles
    # are found in its registries (and kept in tables of configdrift's own
    # from one page to the next), every other one is generic.
    registered = directives._directives, roles._roles  # type: ignore[attr-defined]
    directives._directives, roles._roles = _OWN_DIRECTIVES, _OWN_ROLES  # type: ignore[attr-defined]
    directives.directive = any_directive  # type: ignore[assignment]
    roles.role = any_role  # type: ignore[assignment]
    try:
        # The parser alone: no reader, writer or transforms (a section stays
        # a section, titles are not promoted to the document's).
        document = new_document("<page>", settings)
        with budgeted():
            Parser().parse(text, document)
        return document
    finally:
        directives.directive, roles.role = lookup_directive, lookup_role
        directives._directives, roles._roles = registered  # type: ignore[attr-defined]


_REGISTERED = False
#: docutils' own directives and roles, as its lookups find them while a
#: page is parsed (nothing another library registers is ever among them).
_OWN_DIRECTIVES: dict[str, Any] = {}
_OWN_ROLES: dict[str, Any] = {}


_Generic: Any = None


def _literal_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: Any = None,
    content: Any = None,
) -> tuple[list[Any], list[Any]]:
    """An unknown role (``:confval:`name```): its text as a literal, a
    mention rather than an entry."""
    from docutils import nodes

    node = nodes.literal(rawtext, text.lstrip("!~"))
    node["role"] = name
    node["target"] = role_target(text) or ""
    return [node], []


def _register() -> None:
    """Define the generic directive once (docutils is imported lazily)."""
    global _REGISTERED, _Generic
    if _REGISTERED:
        return
    from docutils import nodes
    from docutils.parsers.rst import Directive, directives

    install_budget()

    class AnyOptions(dict[str, Any]):
        def __bool__(self) -> bool:
            return True

        def __contains__(self, key: object) -> bool:
            return True

        def __getitem__(self, key: str) -> Any:
            return directives.unchanged

    class ObjectNode(nodes.Element):
        """A directive docutils does not know, kept with its name,
        arguments, options and parsed body."""

    class Generic(Directive):
        required_arguments = 0
        optional_arguments = 100
        final_argument_whitespace = True
        has_content = True
        option_spec = AnyOptions()

        def run(self) -> list[Any]:
            node = ObjectNode()
            node["directive"] = self.name.lower()
            node["arguments"] = " ".join(self.arguments)
            node["options"] = dict(self.options)
            node.line = self.lineno
            name = self.name.lower()
            if name in CODE_DIRECTIVES:
                block = nodes.literal_block("\n".join(self.content), "\n".join(self.content))
                block["language"] = (self.arguments[0] if self.arguments else "").lower()
                block.line = self.content_offset + 1  # the first line of the content
                return [block]
            if self.content:
                self.state.nested_parse(self.content, self.content_offset, node)
            return [node]

    _Generic = Generic
    _REGISTERED = True
