"""The mechanisms a project declares its configuration with, one module each.

Each module knows one way of declaring configuration keys: how to read it
from the project's code and, for the surfaces beside the root, a function
``surfaces(discovery)`` (the interface is ``base.Discovery``). ``SURFACES``
lists the mechanisms whose surfaces are looked for, in the order they claim
keys. The root itself is built by ``resolve.build``: models where the code
builds them, a dict read key by key (``dict_roots``), else a settings class
(``settings``), the options (``options``), the environment
(``environment``).

A new mechanism is a module here with its ``surfaces``, a line in
``SURFACES``, and a fixture test with a case it must not take.
"""

from __future__ import annotations

from configdrift.model import Surface
from configdrift.resolve.mechanisms import (
    actions,
    class_registry,
    confuse,
    data_files,
    descriptors,
    documented_models,
    environment,
    held_dicts,
    ini_reads,
    keyword_calls,
    loaded_models,
    module_constants,
    option_attributes,
    option_namespaces,
    option_tables,
    options,
    plain_classes,
    qualified_objects,
    section_classes,
    settings,
    settings_module,
    theme_options,
    typed_dicts,
)
from configdrift.resolve.mechanisms.base import Discovery, owned

#: The mechanisms whose surfaces are looked for beside the root, in the
#: order they claim keys.
SURFACES = (
    confuse,
    data_files,
    theme_options,
    actions,
    loaded_models,
    # Config classes of option objects are configurations by declaration:
    # before a TypedDict that holds one (a template's ``config``).
    descriptors,
    typed_dicts,
    keyword_calls,
    class_registry,
    option_attributes,
    # Classes of option objects the docs' headings name, one section each.
    section_classes,
    option_namespaces,
    option_tables,
    settings,
    options,
    settings_module,
    environment,
    ini_reads,
    module_constants,
    held_dicts,
    qualified_objects,
    # Last: a model taken by its page alone claims what no mechanism did,
    # then a plain class of attributes.
    documented_models,
    plain_classes,
)


def discover_surfaces(discovery: Discovery, claimed: frozenset[str] = frozenset()) -> list[Surface]:
    """The configurations beside the root's, each with a root of its own,
    each kept where the docs document three of its keys at least that the
    surfaces before it do not hold (for a command line, a page
    ``generated`` from its parser will do); the ``claimed`` spellings are
    configured surfaces', no evidence for another."""
    discovery.taken.update(owned(discovery.root))
    # The keys of the surfaces the configuration names are theirs.
    discovery.taken.update(claimed)
    return [surface for mechanism in SURFACES for surface in mechanism.surfaces(discovery)]
