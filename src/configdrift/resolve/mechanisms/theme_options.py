"""A Sphinx HTML theme's options: the ``[options]`` of the ``theme.conf``
(or ``theme.toml``) a project ships, each with its default. Users set them
in ``html_theme_options``; the templates read each as ``theme_<name>``.

A theme inherits another's options (``inherit = pydata_sphinx_theme``), so
the configuration is open: nothing is said of a key the file lacks. An
option no template or code spells, where they spell half the others, is
read by nothing (``Surface.unread``).
"""

from __future__ import annotations

from configdrift.model import Location, SchemaNode, Surface, Unresolved
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.confuse import add_file_keys
from configdrift.resolve.schema import ThemeOptions

#: What users set a theme's options as, in their Sphinx ``conf.py``.
SET_AS = "html_theme_options"

#: The share of a theme's options the templates and code must spell before
#: one they never spell is taken for read by nothing.
SPELT_SHARE = 0.5


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each theme whose options the docs name (three, and half of them)."""
    found: list[Surface] = []
    words = discovery.words()
    # A theme is named by its folder (``theme/sphinx_book_theme/theme.conf``).
    themes = {_name(theme.rel): theme for theme in discovery.builder.themes}
    for theme in discovery.builder.themes:
        root = SchemaNode(key="", path=(), strict=None, origin="root")
        # The name users set the options as, in their ``conf.py``.
        root.model = SET_AS
        root.model_kind = "theme"
        add_file_keys(root, theme.rel, theme.options)
        named = frozenset(key for key in root.children if key in words)
        if not discovery.claim(root, named):
            continue
        name = _name(theme.rel)
        how = f"the options of the theme {name} ({theme.rel}), inheriting {theme.inherit}"
        # Its examples (``html_theme_options = {...}`` in a page's
        # ``conf.py``) document it; a theme it inherits from outside the
        # project takes options no file of the project spells.
        surface = Surface(f"{name} theme options", root, how, [], "", exemplified=True)
        surface.admitted = "the docs name its options"
        surface.unread = _unread(theme, set(root.children), themes)
        if not surface.unread and _outside(theme, themes):
            what = f"inherits the theme {theme.inherit}, whose options it takes too"
            surface.unresolved.append(Unresolved(Location(theme.rel, 1), what))
        found.append(surface)
    return found


#: The themes Sphinx ships that a theme may inherit, each with the options
#: its templates read (``basic``'s ``layout.html`` reads
#: ``theme_navigation_with_keys``; a theme that sets it reads it there).
_BUILTIN = {
    "none": frozenset(),
    "basic": frozenset(
        {
            "nosidebar",
            "sidebarwidth",
            "body_min_width",
            "body_max_width",
            "navigation_with_keys",
            "enable_search_shortcuts",
            "globaltoc_collapse",
            "globaltoc_includehidden",
            "globaltoc_maxdepth",
        }
    ),
}


def _unread(
    theme: ThemeOptions, options: set[str], themes: dict[str, ThemeOptions]
) -> frozenset[str]:
    """The options no template or code of the theme, nor of the project's
    themes it inherits, spells; none where it inherits a theme outside the
    project (whose templates may read any of them)."""
    spelt: set[str] = set()
    seen: set[str] = set()
    while True:
        if theme.spelt is None or theme.rel in seen:
            return frozenset()
        seen.add(theme.rel)
        spelt |= theme.spelt
        if theme.inherit in _BUILTIN:
            spelt |= _BUILTIN[theme.inherit]
            break
        parent = themes.get(theme.inherit)
        if parent is None:
            return frozenset()
        theme = parent
    if len(spelt & options) < SPELT_SHARE * len(options):
        return frozenset()
    return frozenset(options - spelt)


def _outside(theme: ThemeOptions, themes: dict[str, ThemeOptions]) -> bool:
    """Does the theme inherit, at last, a theme outside the project?"""
    seen: set[str] = set()
    while theme.inherit not in _BUILTIN and theme.rel not in seen:
        seen.add(theme.rel)
        parent = themes.get(theme.inherit)
        if parent is None:
            return True
        theme = parent
    return False


def _name(rel: str) -> str:
    """A theme's name: its folder's."""
    parts = rel.rsplit("/", 2)
    return parts[-2] if len(parts) > 1 else rel
