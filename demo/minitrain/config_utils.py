"""The base of every config model: unknown keys are rejected."""

from pydantic import BaseModel, ConfigDict


class MiniConfigModel(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class pp_int(int):
    """An int that prints with thousands separators (used for defaults)."""

    def __repr__(self):
        return f"{int(self):,}"
