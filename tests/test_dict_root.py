"""A configuration read from plain dicts, with no model: the dict that holds
it is found in the code, the docs decide between candidates, and ``mount``
can name it."""

from __future__ import annotations

from helpers import check_project, make_project

_DOCS = """
# Settings

- `name` (str): the run's name.
- `epochs` (int): how many passes.
- `seed` (int): the random seed.
- `lr` (float): the learning rate.
- `batch` (int): samples per step.
- `color` (str): documented, never read.
"""

KEYS = {"name", "epochs", "seed", "lr", "batch"}

_LOADED = """
import yaml

def read_config(path):
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    run(cfg)

def run(cfg):
    print(cfg["name"], cfg.get("epochs", 1), cfg.get("seed"), cfg.get("lr"), cfg.get("batch", 8))
"""


def _check(tmp_path, files, mount=None):
    return check_project(tmp_path, files, "pkg", mount)


def _codes(findings) -> set[tuple[str, str]]:
    return {(f.code, f.key) for f in findings}


def test_a_dict_loaded_from_a_file_is_the_root(tmp_path) -> None:
    analysis, findings = _check(tmp_path, {"pkg/load.py": _LOADED, "docs/settings.md": _DOCS})
    assert set(analysis.schema.children) == KEYS
    assert analysis.schema.strict is False
    assert ("CD102", "color") in _codes(findings)
    assert not any(f.code == "CD501" for f in findings)
    (mount,) = [m for m in analysis.mounts if m.path == ()]
    assert mount.model == "run(cfg)"
    assert mount.how == "docs: 5 of the 5 keys read under it are documented"


def test_without_documented_keys_no_dict_is_taken_for_the_config(tmp_path) -> None:
    docs = "# Other\n\n- `alpha` (int): one.\n- `beta` (int): two.\n- `gamma` (int): three.\n"
    analysis, findings = _check(tmp_path, {"pkg/load.py": _LOADED, "docs/settings.md": docs})
    assert analysis.schema.children == {}
    assert any(f.code == "CD501" for f in findings)


def test_a_key_built_at_runtime_silences_documented_not_read(tmp_path) -> None:
    code = _LOADED + "\ndef extra(cfg, which):\n    return cfg[f'col{which}']\n"
    code = code.replace("    run(cfg)\n", "    run(cfg)\n    extra(cfg, 1)\n")
    analysis, findings = _check(tmp_path, {"pkg/load.py": code, "docs/settings.md": _DOCS})
    assert set(analysis.schema.children) == KEYS
    assert ("CD102", "color") not in _codes(findings)


def test_the_docs_decide_between_two_dicts(tmp_path) -> None:
    other = """
def handle(request):
    return request["method"], request["path"], request.get("body"), request.get("headers")
"""
    analysis, _ = _check(
        tmp_path, {"pkg/load.py": _LOADED, "pkg/web.py": other, "docs/settings.md": _DOCS}
    )
    assert set(analysis.schema.children) == KEYS


def test_two_dicts_that_fit_the_docs_equally_are_not_guessed(tmp_path) -> None:
    twin = _LOADED.replace("def read_config", "def read_other").replace(
        "def run(cfg)", "def run_other(cfg)"
    )
    twin = twin.replace("    run(cfg)\n", "    run_other(cfg)\n")
    analysis, _ = _check(
        tmp_path, {"pkg/load.py": _LOADED, "pkg/twin.py": twin, "docs/settings.md": _DOCS}
    )
    assert analysis.schema.children == {}


def test_mount_names_the_dict(tmp_path) -> None:
    docs = "# Other\n\n- `alpha` (int): one.\n"
    analysis, findings = _check(
        tmp_path,
        {"pkg/load.py": _LOADED, "docs/settings.md": docs},
        mount={"": "pkg.load:run.cfg"},
    )
    assert set(analysis.schema.children) == KEYS
    assert not any("no config model" in f.message for f in findings)


def test_mount_names_a_constructor_parameter_under_a_path(tmp_path) -> None:
    code = """
class Settings:
    def __init__(self, params):
        self.name = params.get("name")
        self.size = params.get("size", 3)
"""
    analysis, _ = _check(tmp_path, {"pkg/s.py": code}, mount={"tool.app": "pkg.s:Settings.params"})
    tool = analysis.schema.child("tool")
    assert tool is not None
    app = tool.child("app")
    assert app is not None and set(app.children) == {"name", "size"}


_CLASS = """
class TrainConfig(object):
    def __init__(self, param_dict):
        self.name = param_dict.get("name")
        self.epochs = param_dict.get("epochs", 1)
        self.seed = param_dict.get("seed")
        self.lr = param_dict.get("lr")
        self.batch = param_dict.get("batch", 8)
{extra}

class Runner:
    def __init__(self, params):
        self.config = TrainConfig(params)

    def hooks(self):
        return self.config.grad_hooks
"""


def test_a_plain_config_class_has_the_attributes_it_sets(tmp_path) -> None:
    _, findings = _check(tmp_path, {"pkg/c.py": _CLASS.format(extra=""), "docs/settings.md": _DOCS})
    dead = [f for f in findings if f.code == "CD201"]
    assert [f.key for f in dead] == ["grad_hooks"]
    assert "TrainConfig declares no `grad_hooks`" in dead[0].message


def test_attributes_set_by_computed_names_are_not_judged(tmp_path) -> None:
    extra = "        for k, v in param_dict.items():\n            setattr(self, k, v)\n"
    _, findings = _check(
        tmp_path, {"pkg/c.py": _CLASS.format(extra=extra), "docs/settings.md": _DOCS}
    )
    assert not [f for f in findings if f.code == "CD201"]


def test_a_section_read_apart_is_not_taken_for_the_root(tmp_path) -> None:
    """The seeds already read the top level; a class that reads one
    section's keys from a dict handed to it through an object is not the
    root, however well the docs document that section."""
    code = """
from pydantic import BaseModel

class Model(BaseModel):
    depth: int = 1

def read(cfg):
    m = Model(**cfg.get("model", {}))
    return m, cfg["name"], cfg.get("epochs", 1), cfg.get("seed"), cfg.get("schedule")

class Scheduler:
    def __init__(self, config):
        self.kind = config["kind"]
        self.start = config.get("start", 0)
        self.end = config.get("end", 10)
        self.step = config.get("step", 1)
"""
    docs = _DOCS + (
        "\n## Schedule\n\n- `schedule` (dict): when to change.\n"
        "- `schedule.kind` (str): the kind.\n- `schedule.start` (int): first step.\n"
        "- `schedule.end` (int): last step.\n- `schedule.step` (int): the stride.\n"
    )
    analysis, _ = _check(tmp_path, {"pkg/m.py": code, "docs/settings.md": docs})
    assert {"kind", "start", "end", "step"}.isdisjoint(analysis.schema.children)
    assert not [m for m in analysis.mounts if m.path == ()]


def test_an_attribute_stored_from_outside_is_not_judged(tmp_path) -> None:
    extra = ""
    code = (
        _CLASS.format(extra=extra) + "\ndef patch(runner):\n    runner.config.grad_hooks = True\n"
    )
    _, findings = _check(tmp_path, {"pkg/c.py": code, "docs/settings.md": _DOCS})
    assert not [f for f in findings if f.code == "CD201"]


def test_a_class_that_merely_receives_the_config_is_not_a_config_class(tmp_path) -> None:
    """A trainer that reads a key or two among many other attributes has
    attributes the static view cannot list: reads of others are not judged."""
    code = """
class Trainer:
    def __init__(self, model, param_dict):
        self.model = model
        self.optimizer = None
        self.scheduler = None
        self.step = 0
        self.log = []
        self.history = {}
        self.best = None
        self.device = "cpu"
        self.name = param_dict.get("name")
        self.epochs = param_dict.get("epochs", 1)
        self.seed = param_dict.get("seed")
        self.lr = param_dict.get("lr")
        self.batch = param_dict.get("batch", 8)

def use(trainer: Trainer):
    return trainer.callbacks
"""
    analysis, findings = _check(tmp_path, {"pkg/t.py": code, "docs/settings.md": _DOCS})
    assert set(analysis.schema.children) == KEYS
    assert not [f for f in findings if f.code == "CD201"]
    assert analysis.objects.config_classes == set()


def test_a_dict_read_where_it_is_loaded(tmp_path) -> None:
    code = """
import json

def settings(path):
    with open(path) as fh:
        cfg = json.load(fh)
    return cfg["name"], cfg.get("epochs", 1), cfg.get("seed", 0), cfg["lr"], cfg["batch"]
"""
    analysis, _ = _check(tmp_path, {"pkg/s.py": code, "docs/settings.md": _DOCS})
    assert set(analysis.schema.children) == KEYS
    (mount,) = [m for m in analysis.mounts if m.path == ()]
    assert mount.model == "settings(a dict loaded from a file)"
    assert analysis.schema.children["epochs"].default.value == 1


def test_a_loaded_dict_that_is_only_passed_on_is_not_read(tmp_path) -> None:
    """``json.load`` alone makes no configuration: data loaded and handed to
    a function that reads nothing documented stays out."""
    code = """
import json

def rows(path):
    with open(path) as fh:
        data = json.load(fh)
    return data["items"], data["total"], data.get("page")
"""
    analysis, findings = _check(tmp_path, {"pkg/s.py": code, "docs/settings.md": _DOCS})
    assert analysis.schema.children == {}
    assert any("no config model" in f.message for f in findings)


def test_a_key_refused_with_raise_is_not_accepted(tmp_path) -> None:
    code = _LOADED + (
        "\ndef check(cfg):\n"
        "    if 'legacy' in cfg:\n"
        "        raise ValueError('legacy is gone')\n"
        "    if 'verbose' in cfg:\n"
        "        print('verbose')\n"
    )
    code = code.replace("    run(cfg)\n", "    run(cfg)\n    check(cfg)\n")
    analysis, _ = _check(tmp_path, {"pkg/load.py": code, "docs/settings.md": _DOCS})
    assert "legacy" not in analysis.schema.children
    assert "verbose" in analysis.schema.children


def test_a_root_from_code_not_followed_does_not_say_never_read(tmp_path) -> None:
    """The docs find the root, but the dict comes from a call the analysis
    does not follow (not a loader): other code may read the documented key,
    so CD102 stays quiet, while the root still gives the keys it reads."""
    code = _LOADED.replace("cfg = yaml.safe_load(fh)", "cfg = settings_from(fh)")
    analysis, findings = _check(tmp_path, {"pkg/load.py": code, "docs/settings.md": _DOCS})
    assert set(analysis.schema.children) == KEYS
    assert ("CD102", "color") not in _codes(findings)
    assert any("comes from code not followed" in what for _, _, what in analysis.unknown_reads)


def test_a_parameter_rebound_to_a_model_is_not_typed_by_it(tmp_path) -> None:
    """``cfg.get(...)`` on the dict before ``cfg = Model(**cfg)`` is a dict
    read, not a read of the model's ``get``."""
    code = """
from pydantic import BaseModel, ConfigDict

class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = ""

def build(cfg):
    if cfg.get("name") is None:
        cfg = {}
    cfg = Model(**cfg)
    return cfg
"""
    _, findings = _check(tmp_path, {"pkg/m.py": code}, mount={"": "pkg.m:Model"})
    assert not [f for f in findings if f.code == "CD201"]


def test_a_classmethod_called_on_its_class_reads_the_dict(tmp_path) -> None:
    code = (
        _LOADED
        + """
class Limits:
    @classmethod
    def parse(cls, config):
        return cls(config.get("rate", 1.0), config.get("burst", 3))

    @staticmethod
    def check(config):
        return config.get("strict", False)

def limits(cfg):
    return Limits.parse(cfg["limits"]), Limits.check(cfg["limits"])
"""
    )
    code = code.replace("    run(cfg)\n", "    run(cfg)\n    limits(cfg)\n")
    analysis, _ = _check(tmp_path, {"pkg/load.py": code, "docs/settings.md": _DOCS})
    section = analysis.schema.children["limits"]
    assert set(section.children) == {"rate", "burst", "strict"}


def _table(keys: list[str]) -> str:
    rows = "".join(f"| `{k}` | what {k} does |\n" for k in keys)
    return "# Reference\n\n| Parameter | Description |\n| --- | --- |\n" + rows


_MANY = [f"opt{i}" for i in range(12)]
_READER = "import json\n\ndef load(path):\n    cfg = json.load(open(path))\n    return [{reads}]\n"


def test_a_large_reference_table_counts_though_other_code_reads_some_rows(tmp_path) -> None:
    """Twelve rows the root reads and eight it does not (another component's
    keys): the page is still the config's reference."""
    reads = ", ".join(f'cfg.get("{k}")' for k in _MANY)
    docs = _table([*_MANY, *(f"web{i}" for i in range(8))])
    analysis, findings = _check(
        tmp_path, {"pkg/load.py": _READER.format(reads=reads), "docs/reference.md": docs}
    )
    assert [s.path for s in analysis.doc_sources] == ["docs/reference.md"]
    assert not [f for f in findings if f.code == "CD103"]


def test_a_list_that_mostly_names_other_things_is_not_a_reference(tmp_path) -> None:
    """List items are weaker evidence than a key table: ten keys among
    fifteen function names do not make a reference page."""
    reads = ", ".join(f'cfg.get("{k}")' for k in _MANY)
    items = [*_MANY[:10], *(f"make_model_{i}" for i in range(15))]
    docs = "# Tutorial\n\n" + "".join(f"- `{k}`: a thing\n" for k in items)
    analysis, _ = _check(
        tmp_path, {"pkg/load.py": _READER.format(reads=reads), "docs/tutorial.md": docs}
    )
    assert analysis.doc_sources == []


def test_init_writes_the_mount_that_names_the_dict_root(cli, tmp_path) -> None:
    make_project(
        tmp_path, {"pkg/__init__.py": "", "pkg/load.py": _LOADED, "docs/settings.md": _DOCS}
    )
    assert cli("init", str(tmp_path)).code == 0
    written = (tmp_path / "pyproject.toml").read_text()  # the project has one
    assert '# "" = "pkg.load:run.cfg"' in written


_TOOL = """
import tomllib


def load(path):
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return Options(data.get("tool", {}).get("mytool", {}))


class Options:
    def __init__(self, section):
        self.line_length = section.get("line-length", 88)
        self.exclude = section.get("exclude", [])
        self.strict = section.get("strict", False)
        self.color = section.get("color", True)
"""

_TOOL_DOCS = """
# Configuration

```toml
[tool.mytool]
line-length = 100
```

- `line-length` (int): the longest line.
- `exclude` (list): paths to skip.
- `strict` (bool): fail on warnings.
- `colour` (bool): misspelt.
"""


def test_a_tool_section_of_a_loaded_file_needs_fewer_documented_keys(tmp_path) -> None:
    """Three documented keys confirm a dict loaded from a file; the
    ``tool`` namespace it is reached through is no option of its own."""
    _, findings = _check(tmp_path, {"pkg/config.py": _TOOL, "docs/config.md": _TOOL_DOCS})
    codes = _codes(findings)
    assert ("CD102", "tool.mytool.colour") in codes
    assert ("CD103", "tool.mytool.color") in codes
    assert ("CD103", "tool") not in codes


def test_three_documented_keys_do_not_confirm_a_dict_of_unknown_origin(tmp_path) -> None:
    code = _TOOL.replace("data = tomllib.load(fh)", "data = fetch(fh)")
    analysis, _ = _check(tmp_path, {"pkg/config.py": code, "docs/config.md": _TOOL_DOCS})
    assert analysis.schema.children == {}


_UNSEEN = """
import yaml

def read_config(path):
    with open(path) as fh:
        cfg = yaml.safe_load(fh)
    for key in sorted(cfg):
        print(cfg[key])  # a key the code does not name: any key may be read
    run(cfg)

def run(cfg):
    print(cfg["name"], cfg.get("epochs", 1), cfg.get("seed"), cfg.get("lr"), cfg.get("batch", 8))
    print(cfg.get("prefer_larger_batch", True), cfg.get("color_mode", "auto"))
"""

_MISSPELT = _DOCS.replace(
    "- `color` (str): documented, never read.\n",
    "- `prefer_large_batch` (bool): a misspelling of a key the code reads.\n"
    "- `colour_mode` (str): a near spelling of a key documented too.\n"
    "- `color_mode` (str): the key the code reads, documented.\n"
    "- `shuffle` (bool): no near spelling of any key.\n",
)


def test_a_misspelt_entry_beside_the_undocumented_key_it_misspells_is_reported(
    tmp_path,
) -> None:
    # Reads the code cannot name silence "never read"; but a documented key
    # whose near spelling the code reads, and no doc describes, is the
    # entry's misspelling all the same.
    _, findings = _check(tmp_path, {"pkg/load.py": _UNSEEN, "docs/settings.md": _MISSPELT})
    not_read = {f.key: f for f in findings if f.code == "CD102"}
    assert set(not_read) == {"prefer_large_batch"}
    assert not_read["prefer_large_batch"].suggestion == "the code reads `prefer_larger_batch`"
    assert ("CD103", "prefer_larger_batch") in _codes(findings)


def test_a_key_another_dict_reads_is_no_read_around_a_registry(tmp_path) -> None:
    # ``cache.get("color")`` reads the key of another dict that holds some
    # of the same names: the flow's dict is no registry of settings that
    # the read bypasses, whatever the accessor also reads.
    other = '\ndef cached(cache):\n    return cache.get("name"), cache.get("seed"), cache.get("color")\n'
    _, findings = _check(tmp_path, {"pkg/load.py": _LOADED + other, "docs/settings.md": _DOCS})
    assert ("CD201", "color") not in _codes(findings)


def test_fallbacks_of_a_dict_no_registry_declares_are_the_flows_to_judge(tmp_path) -> None:
    # ``other.get("epochs", 2)`` reads a dict the flow does not follow:
    # no registry's setting read around it.
    other = (
        '\ndef elsewhere(other):\n    return other.get("epochs", 2), other.get("seed", 3)\n'
        '\n\ndef later(other):\n    return other.get("epochs", 5)\n'
    )
    _, findings = _check(tmp_path, {"pkg/load.py": _LOADED + other, "docs/settings.md": _DOCS})
    assert ("CD106", "epochs") not in _codes(findings)
