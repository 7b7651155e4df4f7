"""The object directives that document a key, in either markup: Sphinx's
(``.. confval:: name``), a project's own object type for its settings
(``.. themeconf:: site_url``), and their MyST fences (```` ```{confval}
name ```` with ``:type:`` and ``:default:`` options); and the classes an
``autosummary`` gives pages of their own, rendered from their docstrings;
the objects an autodoc directive renders, with its options."""

from __future__ import annotations

import re

from configdrift.extract.docs.entry_text import key_ok
from configdrift.extract.docs.facts import DocFacts
from configdrift.extract.docs.rst_forms import signature

#: Directives whose signature names a key.
ENTRY_DIRECTIVES = frozenset(
    {
        "confval",
        "option",
        "envvar",
        "setting",
        "conf",
        "describe",
        "object",
        "data",
        "attribute",
        "py:data",
        "py:attribute",
        "std:confval",
        "std:option",
        "std:envvar",
        # Sphinx's older name of ``option``.
        "cmdoption",
        "std:cmdoption",
    }
)

#: A project's own object type for its settings, named as Sphinx names its
#: own (``.. themeconf:: site_url``, ``.. std:pluginconfig:: name``).
_CONF_DIRECTIVE = re.compile(r"(?:[a-z]{1,20}:)?[a-z]{0,30}conf(?:val|ig)?")

#: A MyST directive's option line at the top of its body (``:default: 5``).
_OPTION = re.compile(r":([A-Za-z][\w-]{0,40}):\s*(.*)")

#: The option lines read at the top of a MyST directive's body.
MAX_OPTIONS = 20


def names_key(directive: str) -> bool:
    """Does the directive's signature name a key?"""
    return directive in ENTRY_DIRECTIVES or _CONF_DIRECTIVE.fullmatch(directive) is not None


def myst_entries(info: str, content: str) -> list[tuple[str, str | None, str | None]]:
    """The keys a MyST fence of such a directive documents (```` ```{confval}
    name ````), each with the type and the default its options give (``:type:
    int``, ``:default: 5``); none for any other fence."""
    head, _, arguments = info.strip().partition(" ")
    if not (head.startswith("{") and head.endswith("}")) or not names_key(head[1:-1].lower()):
        return []
    options: dict[str, str] = {}
    for line in content.split("\n", MAX_OPTIONS)[:MAX_OPTIONS]:
        option = _OPTION.fullmatch(line.strip())
        if option is None:
            break
        options[option.group(1).lower()] = option.group(2).strip()
    directive = head[1:-1].lower()
    return [
        (name, options.get("type") or sig_type, options.get("default") or None)
        for name, sig_type in signature(arguments, directive)
        if key_ok(name, strict_case=False)
    ]


#: Directives that set the module the names after them belong to.
MODULE_DIRECTIVES = frozenset({"module", "currentmodule", "py:module", "py:currentmodule"})


def autosummary(
    options: dict[str, object], body: str, module: str, line: int, facts: DocFacts
) -> None:
    """An ``autosummary``'s rows, into ``facts``: its classes as rendered
    from their docstrings (``autodoc``), through the template it names too
    (``:template: classtemplate.rst``), and its names in small letters."""
    classes, small = summarised(options, body, module)
    facts.autodoc.extend((name, line) for name in classes)
    facts.summarised.extend((name, line) for name in small)
    template = str(options.get("template") or "").strip()
    if template:
        facts.templated.extend((name, template, line) for name in classes)


#: The most lines of a template read.
MAX_TEMPLATE_LINES = 400


def renders_members(template: str) -> bool:
    """Does a template of autosummary's render its class with the class's
    members (``.. autoclass:: {{ objname }}`` then ``:members:``)?"""
    lines = template.splitlines()[:MAX_TEMPLATE_LINES]
    for index, line in enumerate(lines):
        words = line.split()
        if (
            len(words) >= 2
            and words[0] == ".."
            and words[1] in ("autoclass::", "py:autoclass::")
            and "members" in options_of(lines[index + 1 : index + 1 + MAX_OPTIONS])
        ):
            return True
    return False


def summarised(options: dict[str, object], body: str, module: str) -> tuple[list[str], list[str]]:
    """The names an ``autosummary`` that writes a page for each name
    (``:toctree:``) lists, a bare name under ``module`` (the page's current
    module), a dotted one as written: a class's or a function's page
    renders its docstring. Those in capitals (classes) apart from those in
    small letters (functions, and modules, whose page renders none); none
    of an ``autosummary`` that only lists them in a table."""
    if "toctree" not in options:
        return [], []
    names = [word.lstrip("~") for line in body.splitlines() for word in line.split()[:1]]
    dotted = [f"{module}.{name}" if module and "." not in name else name for name in names if name]
    capital = [name for name in dotted if name.rsplit(".", 1)[-1][:1].isupper()]
    return capital, [name for name in dotted if name not in capital]


def autodoc_directive(
    name: str, target: str, options: dict[str, str], line: int, facts: DocFacts
) -> None:
    """An autodoc directive's object, into ``facts``. An ``automodule``
    with ``:members:`` renders what its module's ``__all__`` names too, or
    the members it lists (``:members: Folder, Visa``), those alone; a
    class's directive with ``:members:`` its methods too, and an
    ``automethod`` one method."""
    if name.endswith("automethod"):
        facts.members.append((target, line))
        return
    facts.autodoc.append((target, line))
    if "members" not in options:
        return
    listed = [m.strip() for m in (options["members"] or "").split(",") if m.strip()]
    # A class's methods; a module's target names no class, so none.
    facts.members.extend((f"{target}.{m}", line) for m in listed or [""])
    if not name.endswith("automodule"):
        return
    if listed:
        facts.autodoc.extend((f"{target}.{member}", line) for member in listed)
    elif "ignore-module-all" not in options:
        facts.module_members.append((target, line))


def fence_options(content: str) -> dict[str, str]:
    """The options a MyST directive's fence opens with (``:members:``)."""
    return options_of(content.splitlines()[:MAX_OPTIONS])


def options_of(lines: list[str]) -> dict[str, str]:
    """The options (``:members: Folder, Visa``) the lines open with, by
    name, up to the first line that is none."""
    found: dict[str, str] = {}
    for line in lines:
        text = line.strip()
        if not text.startswith(":") or text.count(":") < 2:
            break
        option, _, value = text[1:].partition(":")
        found[option] = value.strip()
    return found
