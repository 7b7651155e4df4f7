"""Config classes of option objects: MkDocs config classes (a plugin's
``config_scheme``) and traitlets classes of traits tagged ``config=True``."""

from __future__ import annotations

from configdrift.model import SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.project import Symbol
from configdrift.resolve.schema import SchemaBuilder, new_root


def descriptor_surfaces(builder: SchemaBuilder) -> list[Surface]:
    """Config classes of option objects: each MkDocs config class that no
    other one extends or nests (a plugin's options, ``plugins: - name:``
    in ``mkdocs.yml``), and the traitlets classes together, one key per
    class (``c.ServerApp.port``, ``--ServerApp.port``)."""
    project = builder.project
    found: dict[str, list[Symbol]] = {"mkdocs": [], "traitlets": []}
    for symbol in project.class_symbols():
        info = builder.model(symbol)
        if info is not None and info.kind in found and info.fields:
            found[info.kind].append(symbol)
    bases: set[Symbol] = set()
    nested: set[str] = set()
    roots: dict[Symbol, SchemaNode] = {}
    for symbol in found["mkdocs"]:
        bases.update(s for s in project.mro(symbol)[1:] if s.kind == "class")
        roots[symbol] = node = builder.model_root(symbol)
        nested.update(n.model for n in node.walk() if n is not node and n.model)
    inner = bases | {s for s in found["mkdocs"] if s.qualname in nested}
    how = "a MkDocs config class of options"
    out = [
        Surface(s.qualname, roots[s], how, [], s.target) for s in found["mkdocs"] if s not in inner
    ]
    if found["traitlets"]:
        # A class the project does not declare may be another package's
        # (``c.GitHubOAuthenticator``): the classes are an open set.
        root = new_root()
        root.model, root.model_kind = "the traitlets classes", "traitlets"
        for symbol in found["traitlets"]:
            key = symbol.qualname.rsplit(".", 1)[-1]
            if key in root.children:
                continue
            info = builder.model(symbol)
            assert info is not None
            # A namespace (``c.ServerApp.port``), not an option: no
            # location of its own, so only its traits are reported.
            child = SchemaNode(key=key, path=(key,), spellings=(key,), origin="class")
            builder.fill(child, symbol, direct=True)
            _inherit_library_traits(builder, symbol, child)
            root.children[key] = child
            root.model_location = root.model_location or info.location
        how = f"{len(root.children)} classes of traits tagged config=True"
        out.append(Surface("traitlets", root, how, [], ""))
    return out


def surfaces(discovery: Discovery) -> list[Surface]:
    """MkDocs config classes and the traitlets classes; the traitlets
    classes are also claimed by the options examples set on ``c``
    (``c.ServerApp.port = 8888``), the way their users write them."""
    found: list[Surface] = []
    if discovery.builder.imported("mkdocs") or discovery.builder.imported("traitlets"):
        for surface in descriptor_surfaces(discovery.builder):
            evidence = None
            if surface.root.model_kind == "traitlets" and discovery.written is not None:
                evidence = discovery.names | discovery.written()
            if discovery.claim(surface.root, evidence):
                found.append(surface)
    return found


#: The options traitlets' ``Application`` declares.
_APPLICATION_TRAITS = (
    "log_level",
    "log_datefmt",
    "log_format",
    "logging_config",
    "show_config",
    "show_config_json",
)
#: The options a class inherits from traitlets' (and Jupyter's) bases: none
#: from a plain configurable, the logging options from an application.
LIBRARY_TRAITS: dict[str, tuple[str, ...]] = {
    "traitlets.HasTraits": (),
    "traitlets.config.Configurable": (),
    "traitlets.config.LoggingConfigurable": (),
    "traitlets.config.SingletonConfigurable": (),
    "traitlets.config.configurable.Configurable": (),
    "traitlets.config.configurable.LoggingConfigurable": (),
    "traitlets.config.configurable.SingletonConfigurable": (),
    "traitlets.config.Application": _APPLICATION_TRAITS,
    "traitlets.config.application.Application": _APPLICATION_TRAITS,
}
LIBRARY_TRAITS["jupyter_core.application.JupyterApp"] = (
    *_APPLICATION_TRAITS,
    "config_file",
    "config_file_name",
    "generate_config",
    "answer_yes",
)


def _inherit_library_traits(builder: SchemaBuilder, symbol: Symbol, node: SchemaNode) -> None:
    """The options ``symbol`` inherits from the library's bases, as keys of
    its own (no location: they are the library's to document); a base of
    another library may bring any: the class is then open."""
    for base in builder.project.mro(symbol):
        if base.kind != "external" or base.qualname == "object":
            continue
        traits = LIBRARY_TRAITS.get(base.qualname)
        if traits is None:
            node.strict = None  # another library's options are unknown
            return
        for name in traits:
            trait = SchemaNode(
                key=name, path=(*node.path, name), spellings=(name,), origin=base.qualname
            )
            node.children.setdefault(name, trait)
