"""Trees of settings built by assigning attributes (yacs, EasyDict,
ml_collections): the trees read from a module, the keys no code reads
(CD202) and the keys read below a node that refuses them (CD201)."""

from __future__ import annotations

import pytest

from configdrift.extract.python.extractor import extract_source
from tests.helpers import by_key, check_project

_DEFAULTS = """
from yacs.config import CfgNode as CN

_C = CN()
_C.OUTPUT_DIR = "out"
_C.MODEL = CN()
_C.MODEL.DEVICE = "cuda"
_C.MODEL.DEPTH = 50
_C.MODEL.WIDTH = 64
_C.MODEL.LEGACY = False
_C.MODEL.HEAD = CN({"ENABLED": False})
_C.SOLVER = CN()
_C.SOLVER.LR = 0.1
"""

_READER = """
def build(cfg):
    device = cfg.MODEL.DEVICE
    layers = [cfg.MODEL.DEPTH, cfg.MODEL.WIDTH]
    if cfg.MODEL.HEAD.ENABLED:
        layers.append(cfg.SOLVER.LR)
    return device, layers, cfg.OUTPUT_DIR
"""


def _findings(tmp_path, defaults: str = _DEFAULTS, reader: str = _READER, **files: str) -> dict:
    base = {"app/defaults.py": defaults, "app/model.py": reader, **files}
    _, findings = check_project(tmp_path, base, "app")
    return {k: f for k, f in by_key(findings).items() if k[0] in ("CD201", "CD202")}


def test_the_trees_a_module_builds() -> None:
    facts = extract_source(_DEFAULTS)
    [(scope, root, call, line, entries)] = facts.attribute_trees
    assert (scope, root, call, line) == ("<module>", "_C", ["call", ["n", "CN"], [], {}], 4)
    assert [path for path, _, _ in entries][:3] == ["OUTPUT_DIR", "MODEL", "MODEL.DEVICE"]
    assert entries[2][1:] == (7, ["c", "cuda"])


def test_a_function_extends_a_tree_it_is_handed() -> None:
    source = "def add_config(cfg):\n    _C = cfg\n" + "".join(
        f"    _C.MODEL.K{n} = {n}\n" for n in range(3)
    )
    [(scope, root, call, line, entries)] = extract_source(source).attribute_trees
    assert (scope, root, call, line, len(entries)) == ("add_config", "_C", None, 3, 3)
    # Two paths below the root are an object it sets, not a tree.
    assert extract_source(source.replace("    _C.MODEL.K2 = 2\n", "")).attribute_trees == []


@pytest.mark.parametrize(
    "made",
    [
        # A call with an argument makes no node: an object given attributes.
        "_C = Flask(__name__)",
        # A name rebound to something else.
        "_C = CN()\n_C = other",
    ],
)
def test_a_root_that_is_no_node_of_settings_builds_no_tree(made) -> None:
    source = made + "\n" + "".join(f"_C.K{n} = {n}\n" for n in range(6))
    assert extract_source(source).attribute_trees == []


def test_a_key_no_code_reads_is_inert(tmp_path) -> None:
    found = _findings(tmp_path)
    assert set(found) == {("CD202", "MODEL.LEGACY")}
    finding = found["CD202", "MODEL.LEGACY"]
    assert (finding.location.path, finding.location.line) == ("app/defaults.py", 10)
    assert "3 of the 3 other keys of `MODEL`" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("app/defaults.py", 4)


@pytest.mark.parametrize(
    "read",
    [
        "cfg.MODEL.LEGACY",
        'getattr(cfg.MODEL, "LEGACY")',
        'cfg.merge_from_list(["MODEL.LEGACY", True])',
        "# cfg.MODEL.LEGACY is read by the plugin",
    ],
)
def test_a_key_read_by_its_name_or_quoted_is_not_inert(tmp_path, read) -> None:
    reader = _READER + f"\n\ndef legacy(cfg):\n    return {read}\n"
    assert ("CD202", "MODEL.LEGACY") not in _findings(tmp_path, reader=reader)


def test_a_key_assigned_elsewhere_is_not_read_there(tmp_path) -> None:
    reader = _READER + "\n\ndef setup(cfg):\n    cfg.MODEL.LEGACY = True\n"
    assert ("CD202", "MODEL.LEGACY") in _findings(tmp_path, reader=reader)


def test_a_node_whose_keys_the_code_hardly_reads_is_not_judged(tmp_path) -> None:
    # One of the four others read: the node may be handed whole to a library.
    reader = "def build(cfg):\n    return cfg.MODEL.DEVICE, cfg.SOLVER.LR, cfg.OUTPUT_DIR\n"
    found = _findings(tmp_path, reader=reader)
    assert not any(key.startswith("MODEL.") for _, key in found)


def test_an_object_given_attributes_is_no_tree(tmp_path) -> None:
    # No node below the root: not a tree of settings.
    defaults = "class Opts:\n    pass\n\n\n_O = Opts()\n" + "".join(
        f"_O.K{n} = {n}\n" for n in range(6)
    )
    reader = "def use(o):\n    return o.K0, o.K1, o.K2, o.K3, o.K4\n"
    assert _findings(tmp_path, defaults, reader) == {}


def test_a_key_read_below_a_node_that_lacks_it_is_a_dead_accessor(tmp_path) -> None:
    reader = _READER + "\n\ndef ratio(cfg):\n    return cfg.SOLVER.RATIO\n"
    found = _findings(tmp_path, reader=reader)
    finding = found["CD201", "SOLVER.RATIO"]
    assert (finding.location.path, finding.location.line) == ("app/model.py", 11)
    assert "AttributeError" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("app/defaults.py", 12)


@pytest.mark.parametrize(
    ("defaults", "read"),
    [
        # Another library's nodes, which may take any key.
        (
            _DEFAULTS.replace(
                "from yacs.config import CfgNode as CN", "from easydict import EasyDict as CN"
            ),
            "",
        ),
        # A node told to take keys it lacks, and the root.
        (_DEFAULTS.replace("_C.SOLVER = CN()", "_C.SOLVER = CN(new_allowed=True)"), ""),
        (_DEFAULTS.replace("_C = CN()", "_C = CN(new_allowed=True)"), ""),
        # A node told so at run time.
        (_DEFAULTS, "\n\ndef load(cfg):\n    cfg.SOLVER.set_new_allowed(True)\n"),
        # Assigned there by the code, or quoted (``hasattr``).
        (_DEFAULTS, "\n\ndef setup(cfg):\n    cfg.SOLVER.RATIO = 0.5\n"),
        (_DEFAULTS, '\n\ndef has(cfg):\n    return hasattr(cfg.SOLVER, "RATIO")\n'),
    ],
)
def test_a_read_the_tree_may_take_is_no_dead_accessor(tmp_path, defaults, read) -> None:
    reader = _READER + "\n\ndef ratio(cfg):\n    return cfg.SOLVER.RATIO\n" + read
    assert ("CD201", "SOLVER.RATIO") not in _findings(tmp_path, defaults, reader)


def test_a_method_of_a_node_is_no_key(tmp_path) -> None:
    reader = _READER + "\n\ndef copy(cfg):\n    return cfg.SOLVER.RATIO(), cfg.SOLVER.clone\n"
    assert _findings(tmp_path, reader=reader).keys() == {("CD202", "MODEL.LEGACY")}


def test_a_subclass_of_yacs_nodes_refuses_keys_too(tmp_path) -> None:
    defaults = _DEFAULTS.replace(
        "from yacs.config import CfgNode as CN", "from app.config import CN"
    )
    config = "from fvcore.common.config import CfgNode as _Base\n\n\nclass CN(_Base):\n    pass\n"
    reader = _READER + "\n\ndef ratio(cfg):\n    return cfg.SOLVER.RATIO\n"
    found = _findings(tmp_path, defaults, reader, **{"app/config.py": config})
    assert ("CD201", "SOLVER.RATIO") in found


def test_keys_a_function_adds_to_the_tree_are_its_own(tmp_path) -> None:
    extend = "def add_config(cfg):\n    cfg.SOLVER.RATIO = 0.5\n    cfg.SOLVER.STEPS = 3\n    cfg.MODEL.EXTRA = 1\n"
    reader = _READER + "\n\ndef ratio(cfg):\n    return cfg.SOLVER.RATIO, cfg.SOLVER.STEPS\n"
    found = _findings(tmp_path, reader=reader, **{"app/extra.py": extend})
    assert ("CD201", "SOLVER.RATIO") not in found
    # The extension's own keys are judged as the tree's.
    assert ("CD202", "MODEL.EXTRA") in found
