"""A model built from a loaded dict copied key by key with the keys
handled elsewhere left out (``TrainConfig(model=..., **{k: v for k, v in
raw.items() if k not in ("model",)})``) is built from that dict: its keys
are the file's. One that keeps only some keys drops the rest: unknown."""

from __future__ import annotations

from helpers import by_key, check_project

_CONFIG = """
from dataclasses import dataclass, field

import yaml


@dataclass
class ModelConfig:
    name: str = "gpt2"
    hidden_size: int = 768


@dataclass
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    epochs: int = 3
    batch_size: int = 32
    seed: int = 42


def load(path):
    with open(path) as f:
        raw = yaml.safe_load(f)
    return TrainConfig(
        model=ModelConfig(**raw.get("model", {})),
        **{k: v for k, v in raw.items() if CONDITION},
    )
"""

_PAGE = """# Configuration

| Key | Default | Description |
|---|---|---|
| `epochs` | `3` | Number of epochs |
| `batch_size` | `16` | Batch size |
| `seed` | `42` | Random seed |
| `grad_accum` | `1` | Gradient accumulation steps |
"""


def _found(tmp_path, condition: str) -> dict:
    files = {"train/config.py": _CONFIG.replace("CONDITION", condition), "docs/config.md": _PAGE}
    _, findings = check_project(tmp_path, files, "train")
    return by_key(findings)


def test_the_keys_left_after_those_handled_elsewhere_are_the_models(tmp_path) -> None:
    for number, condition in enumerate(('k not in ("model",)', 'k != "model"')):
        found = _found(tmp_path / str(number), condition)
        assert "32" in found["CD104", "batch_size"].message, condition
        assert found["CD101", "grad_accum"].severity.value == "error"


def test_a_comprehension_that_keeps_only_some_keys_is_not_followed(tmp_path) -> None:
    # The keys it does not keep are dropped: a documented one is not rejected.
    for number, condition in enumerate(("k in ALLOWED", "v is not None", "not k.startswith('_')")):
        found = _found(tmp_path / str(number), condition)
        assert ("CD101", "grad_accum") not in found, condition


def test_a_comprehension_that_changes_keys_or_values_is_not_followed(tmp_path) -> None:
    # ``{k.lower(): v ...}``, ``{k: str(v) ...}``: another dict than the file's.
    code = _CONFIG.replace(
        "**{k: v for k, v in raw.items() if CONDITION}", "**{KEY: VALUE for k, v in raw.items()}"
    )
    for number, (key, value) in enumerate((("k.lower()", "v"), ("k", "str(v)"))):
        files = {
            "train/config.py": code.replace("KEY", key).replace("VALUE", value),
            "docs/config.md": _PAGE,
        }
        _, findings = check_project(tmp_path / str(number), files, "train")
        assert ("CD101", "grad_accum") not in by_key(findings), (key, value)
