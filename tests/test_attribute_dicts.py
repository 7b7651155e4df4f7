"""A loaded config whose keys the code reads as attributes
(``cfg = OmegaConf.load(path)``, ``EasyDict(yaml.safe_load(f))``, then
``cfg.train.lr``): each attribute chain is a read of its keys."""

from __future__ import annotations

from configdrift.extract.python.extractor import extract_source
from helpers import by_key, check_project

_TRAIN = """
from omegaconf import OmegaConf


def main(path):
    cfg = LOAD
    model = build(cfg.model.name, cfg.model.hidden_size, cfg.model.dropout)
    for epoch in range(cfg.train.epochs):
        step(model, cfg.train.lr, cfg.train.batch_size)
    save(cfg.output_dir)
"""

_CONFIG = """model:
  name: gpt2
  hidden_size: 768
  dropout: 0.1
train:
  epochs: 3
  lr: 0.0003
  batch_size: 32
  warmup: 100
output_dir: out
"""

_PAGE = """# Configuration

## `model`

- `name`: the model.
- `hidden_size`: the width.
- `dropout`: the dropout rate.
- `num_heads`: attention heads.

## `train`

- `epochs`: how many epochs.
- `lr`: learning rate.
- `batch_size`: batch size.
"""


def test_attribute_reads_of_a_loaded_config_are_its_keys(tmp_path) -> None:
    loads = (
        "OmegaConf.load(path)",
        "EasyDict(yaml.safe_load(open(path)))",
    )
    for number, load in enumerate(loads):
        files = {
            "trainer/train.py": _TRAIN.replace("LOAD", load),
            "configs/base.yaml": _CONFIG,
            "docs/config.md": _PAGE,
        }
        _, findings = check_project(tmp_path / str(number), files, "trainer")
        found = by_key(findings)
        assert ("CD102", "model.num_heads") in found, load
        assert ("CD302", "train.warmup") in found, load
        assert ("CD103", "output_dir") in found, load


def _reads(body: str) -> list[tuple]:
    facts = extract_source(f"def main(path):\n{body}")
    return [tuple(k[1] for k in r.source.keys) for r in facts.dict_reads if r.how == "attribute"]


def test_only_keys_of_an_attribute_dict_are_read() -> None:
    assert _reads("    cfg = OmegaConf.load(path)\n    return cfg.train.lr\n") == [
        ("train", "lr"),
        ("train",),
    ]
    # A dict's methods, private names, a plain dict, another object.
    assert (
        _reads("    cfg = OmegaConf.load(path)\n    return cfg.get('a'), cfg.items(), cfg._x\n")
        == []
    )
    assert _reads("    cfg = yaml.safe_load(open(path))\n    return cfg.train\n") == []
    assert _reads("    cfg = parser.parse_args()\n    return cfg.train\n") == []
