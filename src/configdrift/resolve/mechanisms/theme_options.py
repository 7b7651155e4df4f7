"""A Sphinx HTML theme's options: the ``[options]`` of the ``theme.conf``
(or ``theme.toml``) a project ships, each with its default. Users set them
in ``html_theme_options``; the templates read each as ``theme_<name>``.

A theme inherits another's options (``inherit = pydata_sphinx_theme``), so
the configuration is open: nothing is said of a key the file lacks. Where
its line of themes ends in Sphinx's ``basic`` or ``none`` (all else being
the project's own), an option no template or code of that line spells,
where they spell half the others, is read by nothing (``Surface.unread``);
a theme inherited from outside the project may read any, and is recorded
as unresolved.
"""

from __future__ import annotations

from configdrift.discover import MKDOCS_THEME
from configdrift.model import Location, Surface, Unresolved
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.data_files import file_root
from configdrift.resolve.schema import ThemeOptions

#: What users set a theme's options as, in their Sphinx ``conf.py``.
SET_AS = "html_theme_options"
#: What users set a MkDocs theme's options under, in their ``mkdocs.yml``.
MKDOCS_SET_AS = "theme"

#: The share of a theme's options the templates and code must spell before
#: one they never spell is taken for read by nothing.
SPELT_SHARE = 0.5


def surfaces(discovery: Discovery) -> list[Surface]:
    """Each theme whose options the docs name (three, and half of them)."""
    found: list[Surface] = []
    evidence = discovery.words() | discovery.set_at_top()
    # A theme is named by its folder (``theme/sphinx_book_theme/theme.conf``).
    themes = {_name(theme.rel): theme for theme in discovery.builder.themes}
    for theme in discovery.builder.themes:
        root = file_root(theme.rel, theme.options)
        # The name users set the options as, in their ``conf.py`` (a MkDocs
        # theme's, under ``theme:`` in their ``mkdocs.yml``).
        root.model = MKDOCS_SET_AS if theme.rel.endswith(MKDOCS_THEME) else SET_AS
        root.model_kind = "theme"
        for key in theme.deprecated & root.children.keys():
            root.children[key].deprecated = True
        named = frozenset(key for key in root.children if key in evidence)
        if not discovery.claim(root, named):
            continue
        name = _name(theme.rel)
        how = f"the options of the theme {name} ({theme.rel}), inheriting {theme.inherit}"
        # Its examples (``html_theme_options = {...}`` in a page's
        # ``conf.py``) document it; a theme it inherits from outside the
        # project takes options no file of the project spells.
        surface = Surface(f"{name} theme options", root, how, [], "", exemplified=True)
        surface.admitted = "the docs name its options"
        lineage, builtin = _lineage(theme, themes)
        if builtin is not None:
            surface.unread = _unread(lineage, _BUILTIN[builtin], set(root.children))
        elif lineage[-1].inherit not in themes:
            what = f"inherits the theme {theme.inherit}, whose options it takes too"
            surface.unresolved.append(Unresolved(Location(theme.rel, 1), what))
        found.append(surface)
    return found


#: The themes Sphinx ships that a theme may inherit, each with the options
#: its templates read (``basic``'s ``layout.html`` reads
#: ``theme_navigation_with_keys``; a theme that sets it reads it there).
_BUILTIN: dict[str, frozenset[str]] = {
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


def _lineage(
    theme: ThemeOptions, themes: dict[str, ThemeOptions]
) -> tuple[list[ThemeOptions], str | None]:
    """The theme and the project's themes it inherits, in turn, and the
    theme of Sphinx's the last inherits (None where it inherits a theme
    outside the project, or the chain turns back on itself)."""
    lineage = [theme]
    while theme.inherit not in _BUILTIN:
        parent = themes.get(theme.inherit)
        if parent is None or parent in lineage:
            return lineage, None
        lineage.append(parent)
        theme = parent
    return lineage, theme.inherit


def _unread(
    lineage: list[ThemeOptions], builtin: frozenset[str], options: set[str]
) -> frozenset[str]:
    """The options no template or code of the themes of a ``lineage`` (the
    theme and the project's themes it inherits) spells, nor Sphinx's
    ``builtin`` theme reads; none where a file could not be searched, or
    where they spell too few of the options to tell."""
    spelt = set(builtin)
    for theme in lineage:
        if theme.spelt is None:
            return frozenset()
        spelt |= theme.spelt
    if len(spelt & options) < SPELT_SHARE * len(options):
        return frozenset()
    return frozenset(options - spelt)


def _name(rel: str) -> str:
    """A theme's name: its folder's."""
    parts = rel.rsplit("/", 2)
    return parts[-2] if len(parts) > 1 else rel
