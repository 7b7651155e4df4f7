from pydantic import BaseModel

from minitrain.constants import FP16


class FP16Config(BaseModel):
    enabled: bool = False
    loss_scale: float = 0.0
    initial_scale_power: int = 16

    class Config:  # pydantic v1 spelling, still honoured by v2
        extra = "forbid"


def get_fp16_config(param_dict):
    return FP16Config(**param_dict.get(FP16, {}))
