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
