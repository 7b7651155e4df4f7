"""An OmegaConf structured config (``OmegaConf.structured(TrainConf)``,
Hydra's ``cs.store(name="train", node=TrainConf)``) is the schema config
files are merged into: loaded by construction, and strict (an unknown key
raises omegaconf's ConfigKeyError)."""

from __future__ import annotations

from helpers import by_key, check_project

_CONFIG = """
from dataclasses import dataclass, field

from hydra.core.config_store import ConfigStore
from omegaconf import OmegaConf


@dataclass
class OptimizerConf:
    lr: float = 1e-3
    momentum: float = 0.9


@dataclass
class TrainConf:
    epochs: int = 10
    batch_size: int = 64
    optimizer: OptimizerConf = field(default_factory=OptimizerConf)
    log_every: int = 100


REGISTER
"""

_PAGE = """# Configuration

| Key | Default | Description |
|---|---|---|
| `epochs` | `10` | Epochs |
| `batch_size` | `32` | Batch size |
| `optimizer.lr` | `1e-3` | Learning rate |
| `optimizer.momentum` | `0.9` | Momentum |
| `warmup_steps` | `0` | Warmup |
| `optimizer.nesterov` | `false` | Nesterov |
"""

_READS = "def main(cfg):\n    print(cfg.epochs, cfg.batch_size, cfg.optimizer.lr, cfg.optimizer.momentum)\n"


def _found(tmp_path, register: str) -> dict:
    files = {
        "trainer/config.py": _CONFIG.replace("REGISTER", register),
        "trainer/main.py": _READS,
        "docs/configuration.md": _PAGE,
    }
    _, findings = check_project(tmp_path, files, "trainer")
    return by_key(findings)


def test_a_structured_config_is_the_files_schema(tmp_path) -> None:
    registrations = (
        'cs = ConfigStore.instance()\ncs.store(name="train", node=TrainConf)',
        "SCHEMA = OmegaConf.structured(TrainConf)",
        "def schema():\n    return OmegaConf.structured(TrainConf())",
    )
    for number, register in enumerate(registrations):
        found = _found(tmp_path / str(number), register)
        assert "64" in found["CD104", "batch_size"].message, register
        rejected = found["CD101", "warmup_steps"]
        assert "raises an omegaconf ConfigKeyError" in rejected.message, register
        assert ("CD103", "log_every") in found
        # OmegaConf checks a nested structured config's keys too.
        nested = found["CD101", "optimizer.nesterov"]
        assert "OptimizerConf forbids unknown keys" in nested.message, register


def test_a_store_or_a_call_that_names_no_schema_is_none(tmp_path) -> None:
    # A cache's ``store(node=...)`` with no name, another ``structured``,
    # a schema held in a variable: nothing says the model is one.
    registrations = (
        "cache.store(node=TrainConf)",
        "other.structured(TrainConf)",
        "SCHEMA = OmegaConf.structured(CONF)",
    )
    for number, register in enumerate(registrations):
        found = _found(tmp_path / str(number), register)
        assert not [key for code, key in found if code.startswith("CD1")], register


_DACITE = """
from dataclasses import dataclass

import yaml
CONVERTER


@dataclass
class Config:
    name: str = "x"
    retries: int = 3
    timeout: float = 10.0
    verbose: bool = False


def load(path):
    with open(path) as f:
        raw = yaml.safe_load(f)
    return BUILD
"""

_DACITE_PAGE = (
    "# Configuration\n\n- `name` (default `x`): the name.\n- `retries` (default `5`): retries.\n"
    "- `timeout` (default `10.0`): seconds.\n- `colour` (default `red`): the colour.\n"
)


def test_a_class_a_library_builds_from_a_loaded_dict_drops_what_it_lacks(tmp_path) -> None:
    # dacite and cattrs ignore the keys the class lacks: read by nothing.
    builds = (
        ("import dacite", "dacite.from_dict(data_class=Config, data=raw)"),
        ("from dacite import from_dict", "from_dict(Config, raw)"),
        ("import cattrs", "cattrs.structure(raw, Config)"),
    )
    for number, (converter, build) in enumerate(builds):
        code = _DACITE.replace("CONVERTER", converter).replace("BUILD", build)
        files = {"tool/config.py": code, "docs/config.md": _DACITE_PAGE}
        _, findings = check_project(tmp_path / str(number), files, "tool")
        found = by_key(findings)
        assert "3" in found["CD104", "retries"].message, build
        assert ("CD102", "colour") in found, build
        assert ("CD101", "colour") not in found, build


def test_a_library_told_how_to_build_is_not_followed(tmp_path) -> None:
    # ``config=dacite.Config(strict=True)`` may reject what the class lacks.
    build = "dacite.from_dict(data_class=Config, data=raw, config=dacite.Config(strict=True))"
    code = _DACITE.replace("CONVERTER", "import dacite").replace("BUILD", build)
    files = {"tool/config.py": code, "docs/config.md": _DACITE_PAGE}
    _, findings = check_project(tmp_path, files, "tool")
    assert ("CD102", "colour") not in by_key(findings)
