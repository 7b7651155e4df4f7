"""Reads the user's config dict. Top-level keys are read one by one."""

from dataclasses import dataclass

from minitrain.constants import *  # noqa: F403
from minitrain.precision import get_fp16_config
from minitrain.zero import get_zero_config


@dataclass
class CheckpointConfig:
    save_interval: int = 1000
    keep_last: int = 3
    tag_validation: str = "Warn"


class TrainerConfig:
    def __init__(self, param_dict):
        self.train_batch_size = param_dict.get(TRAIN_BATCH_SIZE, TRAIN_BATCH_SIZE_DEFAULT)  # noqa: F405
        self.gradient_clipping = param_dict.get(GRADIENT_CLIPPING, GRADIENT_CLIPPING_DEFAULT)  # noqa: F405
        self.fp16 = get_fp16_config(param_dict)
        self.zero = get_zero_config(param_dict)
        self.checkpoint = CheckpointConfig(**param_dict.get(CHECKPOINT, {}))  # noqa: F405
