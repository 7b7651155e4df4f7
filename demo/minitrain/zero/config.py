"""ZeRO-style sharding options."""

from typing import Optional

from pydantic import AliasChoices, Field

from minitrain.config_utils import MiniConfigModel, pp_int
from minitrain.constants import ZERO_OPTIMIZATION
from minitrain.zero.offload import OffloadConfig

__all__ = ["ZeroConfig", "get_zero_config"]


class ZeroConfig(MiniConfigModel):
    stage: int = 0
    reduce_bucket_size: int = Field(pp_int(5e8), ge=0)
    prefetch_bucket_size: int = Field(pp_int(5e7), alias="stage3_prefetch_bucket_size")
    max_live_parameters: int = Field(
        pp_int(1e9), validation_alias=AliasChoices("stage3_max_live_parameters", "max_live_parameters")
    )
    overlap_comm: Optional[bool] = None  # decided at runtime from the stage
    offload_param: Optional[OffloadConfig] = None
    sub_group_size: int = Field(pp_int(1e9), ge=0)
    round_robin_gradients: bool = False
    cpu_offload: Optional[bool] = Field(
        None, json_schema_extra={"deprecated": True, "new_param": "offload_param"}
    )


def get_zero_config(param_dict):
    if ZERO_OPTIMIZATION in param_dict:
        zero_dict = param_dict[ZERO_OPTIMIZATION]
    else:
        zero_dict = {}
    return ZeroConfig(**zero_dict)
