"""A callable an example config names, with the keywords it is called
with: a class named by ``class_path``, with the ``init_args`` it is built
with (jsonargparse, LightningCLI: ``model: {class_path: pkg.models.Padim,
init_args: {backbone: ...}}``); a class or function named by ``_target_``
(Hydra's ``instantiate``) or ``_component_`` (torchtune's), with the keys
beside it but those beginning ``_`` (``_partial_``, ``_recursive_``).

The loader imports the callable and calls it with those keys as keywords,
so each is a keyword argument of a call of it, judged as a call in the
docs' Python blocks is (``doc_calls``): where the callable is the
project's own for certain (its dotted path spelt with the package's name)
and its signature names every keyword it takes, a keyword it does not take
makes the config fail to load (CD301). A list whose items each name their
own ``_target_`` is not judged: which keys go with which is not known. The
examples are the pages' blocks and the project's YAML and JSON files that
name a ``class_path``, a ``_target_`` or a ``_component_``, but a test's.

So is a dict of a Python config file that names the class it builds by
its ``type`` (MMEngine's registries: ``dict(type="ResNet", depth=50)``):
the class registered under that name (``@MODELS.register_module()``, by
its own name or the one it is given), one class of the project's, or
the class a name imports (``type=ResNet``). The keys MMEngine takes out
before it builds (a hook's ``priority``, an optimizer wrapper's
``constructor`` and ``paramwise_cfg``) and those beginning ``_``
(``_delete_``, ``_scope_``) are not keywords. A dict that is the value of
another's key is handed to the class that one builds: it is judged only
where the ``__init__`` that class runs (its own, or a base's of the
project) takes that key by name and uses it whole
(``MODELS.build(backbone)``), never a key of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from configdrift.discover import in_tests
from configdrift.extract.docs.block_model import BlockKey
from configdrift.extract.docs.facts import Block
from configdrift.files import read_or_none
from configdrift.model import Finding, Location
from configdrift.place.config_files import config_files
from configdrift.resolve.project import Symbol
from configdrift.rules.doc_calls import constructor, function_text, keywords_taken
from configdrift.rules.evidence import once
from configdrift.rules.registry import make

if TYPE_CHECKING:
    from configdrift.analysis import Analysis
    from configdrift.extract.python.facts import Expr

#: The key that names the class, and the one that holds its keywords.
CLASS_PATH = "class_path"
INIT_ARGS = "init_args"
#: The keys that name a callable whose keywords are the keys beside them.
TARGETS = ("_target_", "_component_")
_MARKERS = re.compile(rb"class_path|_target_|_component_")
#: The most config files searched for a class path, and the bytes of each.
MAX_FILES = 2000
MAX_FILE_BYTES = 1 << 20


def class_path_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each key of an example config that the callable it is
    given to does not take; once a project."""
    if analysis.first is not None:
        return
    for rel, marker, target, keys in _calls(analysis):
        symbol = _callable_of(analysis, target)
        if symbol is None or (marker == CLASS_PATH and symbol.kind != "class"):
            continue
        signature = keywords_taken(analysis, symbol.module, symbol.qualname, symbol.kind == "class")
        if signature is None:
            continue
        taken, declared = signature
        name = symbol.qualname.rpartition(".")[2]
        for key in keys:
            keyword = key.path[-1]
            if keyword in taken:
                continue
            if marker == CLASS_PATH:
                how = f"with `{keyword}` in its `{INIT_ARGS}`"
            else:
                how = f"with `{keyword}` beside it"
            yield make(
                "CD301",
                ".".join(key.path),
                Location(rel, key.line),
                f"the example builds `{name}` (`{marker}: {target}`) {how}, which "
                f"{symbol.qualname} does not take: loading it raises TypeError (unexpected "
                "keyword argument)",
                (declared,),
            )


#: The keys MMEngine takes out of a config before it builds the class.
BUILD_KEYS = frozenset({"priority", "constructor", "paramwise_cfg"})


def registered_keywords(analysis: Analysis) -> Iterator[Finding]:
    """CD301 for each key of a config's dict that the class its ``type``
    names does not take; once a project."""
    if analysis.first is not None:
        return
    project = analysis.project
    for module, info in sorted(project.modules.items()):
        if not info.facts.typed_dicts or in_tests(info.path):
            continue
        built = [_built(analysis, module, expr) for expr, *_ in info.facts.typed_dicts]
        for (expr, line, keys, parent), symbol in zip(info.facts.typed_dicts, built, strict=True):
            if symbol is None:
                continue
            if parent is not None and not _handed_whole(analysis, built[parent[0]], parent[1]):
                continue  # the class it is handed to may change it before it builds
            signature = constructor(analysis, symbol.module, symbol.qualname)
            if signature is None:
                continue
            taken, declared = signature
            name = symbol.qualname.rpartition(".")[2]
            written = repr(expr[1]) if expr[0] == "c" else expr[1]
            for key, at in keys:
                if key in taken or key in BUILD_KEYS or key[:1] == "_":
                    continue
                yield make(
                    "CD301",
                    f"{name}({key}=)",
                    Location(info.path, at),
                    f"the config builds `{name}` (`type={written}`, line {line}) with `{key}`, "
                    f"which {symbol.qualname} does not take: building it raises TypeError "
                    "(unexpected keyword argument)",
                    (declared,),
                )


def _built(analysis: Analysis, module: str, expr: Expr) -> Symbol | None:
    """The project's class a typed dict's ``type`` names: the one
    registered under a string, or the class a name is bound to."""
    if expr[0] == "c":
        symbol = once(analysis, "class_paths.registered", lambda: _registered(analysis)).get(
            expr[1]
        )
    else:
        symbol = analysis.project.resolve(module, expr[1])
    return symbol if symbol is not None and symbol.kind == "class" else None


#: A use of a parameter but as a whole value: ``cfg.pop(``, ``cfg[``.
_TOUCHED = r"\b{}\s*[.\[]"


def _handed_whole(analysis: Analysis, owner: Symbol | None, param: str) -> bool:
    """Does the class a dict is handed to, as the keyword ``param``, use it
    only as a whole (``MODELS.build(backbone)``), never a key of it
    (``vision_encoder.pop("pretrained")``)? The ``__init__`` read is the
    class's own, else the one it inherits from a base of the project's
    (``BaseClassifier``), which must name ``param`` and use it. No where
    that ``__init__`` is another library's or its text cannot be read."""
    if owner is None:
        return False
    found = once(analysis, f"class_paths.init {owner}", lambda: _init_text(analysis, owner))
    if found is None or param not in found[0]:
        return False  # taken by ``**kwargs``: where it goes is not followed
    name = re.escape(param)
    if len(re.findall(rf"\b{name}\b", found[1])) < 2:
        return False  # named in the signature alone: the dict is never built
    return re.search(_TOUCHED.format(name), found[1]) is None


def _init_text(analysis: Analysis, owner: Symbol) -> tuple[list[str], str] | None:
    """The parameters and the text of the ``__init__`` a class runs: its
    own, else the nearest of its bases' in the project; None where a base
    of another library's comes first, or the file cannot be read."""
    project = analysis.project
    for ancestor in project.mro(owner):
        if ancestor.kind != "class" or ancestor.module not in project.modules:
            return None
        params = project.modules[ancestor.module].facts.functions.get(
            f"{ancestor.qualname}.__init__"
        )
        if params is None:
            continue
        text = function_text(analysis, ancestor.module, f"{ancestor.qualname}.__init__")
        return None if text is None else (params, text.decode("utf-8", "replace"))
    return None


def _registered(analysis: Analysis) -> dict[str, Symbol]:
    """The project's classes a registry holds by name
    (``@MODELS.register_module()``: the class's own name; ``name="X"`` or
    ``"X"``: that one), each name one class's; a name two classes take is
    none's."""
    found: dict[str, list[Symbol]] = {}
    for module, info in sorted(analysis.project.modules.items()):
        for cls in info.facts.classes:
            for deco in cls.decorators:
                if deco[0] != "call" or deco[1][0] != "n":
                    continue
                if deco[1][1].rpartition(".")[2] != "register_module":
                    continue
                given = deco[3].get("name", deco[2][0] if deco[2] else None)
                if given is None:
                    name: object = cls.name
                elif given[0] == "c" and isinstance(given[1], str):
                    name = given[1]
                else:
                    continue  # a name built at run time
                found.setdefault(str(name), []).append(Symbol("class", module, cls.name))
    return {name: symbols[0] for name, symbols in found.items() if len(symbols) == 1}


def _callable_of(analysis: Analysis, target: str) -> Symbol | None:
    """The project's class or function a dotted path names, following the
    imports of the module it is spelt through (``pkg.data.Folder``); None
    for another library's or a name not resolved."""
    project = analysis.project
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module in project.modules:
            symbol = project.resolve(module, ".".join(parts[cut:]))
            return symbol if symbol is not None and symbol.kind in ("class", "function") else None
    return None


def _calls(analysis: Analysis) -> Iterator[tuple[str, str, str, list[BlockKey]]]:
    """Each callable an example config names with the keys it is called
    with: (file, the key that names it, its dotted path, the keys)."""
    blocks = [
        (rel, block) for rel, doc in sorted(analysis.pages_read.items()) for block in doc.blocks
    ]
    blocks += _files(analysis)
    for rel, block in blocks:
        named: dict[tuple[str, ...], list[BlockKey]] = {}
        targets: dict[tuple[str, ...], list[BlockKey]] = {}
        for key in block.keys:
            if not key.path or not isinstance(key.value, str):
                continue
            if key.path[-1] == CLASS_PATH:
                named.setdefault(key.path[:-1], []).append(key)
            elif key.path[-1] in TARGETS:
                targets.setdefault(key.path, []).append(key)
        for parent, paths in named.items():
            for target, args in _items(block.keys, (*parent, INIT_ARGS), paths):
                if args:
                    yield rel, CLASS_PATH, target, args
        for path, found in targets.items():
            if len(found) != 1:
                continue  # a list's items, each its own target: whose keys are whose is not known
            parent = path[:-1]
            beside = [
                key
                for key in block.keys
                if len(key.path) == len(path)
                and key.path[:-1] == parent
                and key.path[-1][:1] != "_"
            ]
            if beside:
                yield rel, path[-1], str(found[0].value), beside


def _items(
    keys: list[BlockKey], at: tuple[str, ...], paths: list[BlockKey]
) -> Iterator[tuple[str, list[BlockKey]]]:
    """Each class path of one place with the keys under its init args. The
    items of a list share their path (``callbacks: [{class_path: A,
    init_args: ...}, {class_path: B, ...}]``): each init args goes with the
    class path written above it, where that is certain (no init args above
    the first, none two between class paths); none where it is not."""
    under = [key for key in keys if len(key.path) == len(at) + 1 and key.path[: len(at)] == at]
    heads = sorted(key.line for key in keys if key.path == at)
    if len(paths) == 1 and len(heads) <= 1:
        yield str(paths[0].value), under  # one item, its keys in any order
        return
    starts = sorted(key.line for key in paths)
    bounds = [*starts[1:], float("inf")]
    if any(line < starts[0] for line in heads) or any(
        sum(start < line < end for line in heads) > 1
        for start, end in zip(starts, bounds, strict=True)
    ):
        return  # an item writes its init args first: which class they build is not known
    for key, end in zip(sorted(paths, key=lambda k: k.line), bounds, strict=True):
        yield str(key.value), [arg for arg in under if key.line < arg.line < end]


def _files(analysis: Analysis) -> list[tuple[str, Block]]:
    """The project's YAML and JSON files that name a class path or a
    target, each as one block; a test's are its own (a config that must
    fail to load)."""
    root = analysis.config.root
    named = [
        rel
        for rel in analysis.config_files[:MAX_FILES]
        if not in_tests(rel) and _MARKERS.search(read_or_none(root, rel, MAX_FILE_BYTES) or b"")
    ]
    return config_files(root, [], set(), named) if named else []
