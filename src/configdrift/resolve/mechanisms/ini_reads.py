"""Options read from an INI file section by section: configparser's
``parser.getint("server", "port", fallback=8000)`` (and a parser of the
project's own that takes the default third, ``getint("core", "x", 5)``).

A read is one where the parser is certain: a ``fallback=``, a typed getter
(``getint``, ``getfloat``, ``getboolean``), a default given third, or a
receiver the function binds to a ``ConfigParser``. Each section is a
section of the surface, each option a key with the read's default and
the getter's type (spelt with ``-`` and ``_`` alike: a parser may take
one for the other). configparser takes any option a file sets and reads
only those asked for: the surface is lenient, but for a section another
surface reads too, or any where a read names its section at run time
(``get(self.version, "cores")``): what a section lacks may be read there."""

from __future__ import annotations

from configdrift.extract.python.facts import RegistrationCall
from configdrift.model import Location, SchemaNode, Surface
from configdrift.resolve.mechanisms.base import Discovery
from configdrift.resolve.mechanisms.option_nodes import option_group, option_node
from configdrift.resolve.project import Project
from configdrift.resolve.schema import MIN_OPTIONS, ensure_path, new_root

#: The kind of value each getter hands back.
_KINDS = {"getint": "int", "getfloat": "float", "getboolean": "bool", "get": ""}
#: How findings name the surface.
INI_FILE = "the INI file's sections"


def _certain(project: Project, module: str, call: RegistrationCall) -> bool:
    """Is the receiver of the read an INI parser for certain?"""
    if "fallback" in call.kwargs or len(call.args) > 2 or call.kwargs["getter"][1] != "get":
        return True
    return any(
        function == call.function and name == call.callee and callee.endswith("ConfigParser")
        for function, name, callee in project.modules[module].facts.local_types
    )


def ini_reads(project: Project) -> SchemaNode | None:
    """The options the code reads from INI sections, under one root."""
    reads = [
        (module, call, project.string(module, call.args[0]), project.string(module, call.args[1]))
        for module in sorted(project.modules)
        for call in project.modules[module].facts.registrations
        if call.method == "ini"
    ]
    # A section read for certain somewhere is an INI file's wherever it is read.
    certain = {section for module, call, section, _ in reads if _certain(project, module, call)}
    # ``get(self.version, "driver-cores", None)``: any section's option.
    computed = None in certain
    root = new_root()
    count = 0
    for module, call, section, key in reads:
        if section is None or section not in certain or not key:
            continue
        parent = ensure_path(root, (section,), None, f"section read in {module}")
        if key in parent.children:
            continue
        where = Location(project.modules[module].path, call.line)
        parent.location = parent.location or where
        given = call.kwargs.get("fallback") or (call.args[2] if len(call.args) > 2 else None)
        default = project.known(module, given) if given is not None else None
        kind = _KINDS.get(str(call.kwargs["getter"][1]), "")
        # A parser may take ``marker_index`` for ``marker-index`` (luigi's does).
        other = key.replace("-", "_") if "-" in key else key.replace("_", "-")
        group = option_group(module, call.function)
        node = option_node(key, list(dict.fromkeys([key, other])), kind, default, where, group)
        node.path = (section, key)
        # What a section lacks may be read under a computed section's name.
        parent.strict = None if computed else False
        parent.children[key] = node
        count += 1
    if count < MIN_OPTIONS:
        return None
    root.model, root.model_kind, root.strict = INI_FILE, "ini", False
    root.model_location = next(iter(root.children.values())).location
    return root


def surfaces(discovery: Discovery) -> list[Surface]:
    """The INI options the code reads, where the docs document three."""
    root = ini_reads(discovery.builder.project)
    if root is None:
        return []
    for name, section in root.children.items():
        if name in discovery.taken:
            # Another surface reads this section too (luigi's ``class
            # spark(Config)``): what it lacks may be read there.
            section.strict = None
    if not discovery.claim(root):
        return []
    sections = ", ".join(f"[{name}]" for name in root.children)
    return [Surface("ini", root, f"options read from the sections {sections}", [], "discovered")]
