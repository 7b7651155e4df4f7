from enum import Enum
from typing import Optional

from pydantic import Field

from minitrain.config_utils import MiniConfigModel


class OffloadDevice(str, Enum):
    none = "none"
    cpu = "cpu"
    nvme = "nvme"


class OffloadConfig(MiniConfigModel):
    device: OffloadDevice = OffloadDevice.none
    nvme_path: Optional[str] = None
    pin_memory: bool = True
    buffer_count: int = Field(5, ge=0)
