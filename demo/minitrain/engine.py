"""The training engine: reads its options from the config object."""

from minitrain.config import TrainerConfig


class Engine:
    def __init__(self, model, config_class=None):
        self.model = model
        self._config = config_class

    def train_batch_size(self):
        return self._config.train_batch_size

    def gradient_clipping(self):
        return self._config.gradient_clipping

    def fp16_enabled(self):
        return self._config.fp16.enabled and self._config.fp16.loss_scale >= 0

    def initial_scale(self):
        return 2 ** self._config.fp16.initial_scale_power

    def zero_stage(self):
        zero = self._config.zero
        return zero.stage, zero.reduce_bucket_size, zero.prefetch_bucket_size, zero.max_live_parameters

    def zero_overlap(self):
        return self._config.zero.overlap_comm, self._config.zero.sub_group_size

    def zero_offload(self):
        offload = self._config.zero.offload_param
        return offload.device, offload.nvme_path, offload.pin_memory, offload.buffer_count

    def zero_grad_hooks(self):
        # ZeroConfig never declared grad_hooks: this can only raise.
        return self._config.zero.grad_hooks

    def checkpoint_every(self):
        checkpoint = self._config.checkpoint
        return checkpoint.save_interval, checkpoint.keep_last, checkpoint.tag_validation


def initialize(model, config):
    config_class = TrainerConfig(config)
    engine = Engine(model, config_class=config_class)
    return engine, engine.train_batch_size(), engine.zero_stage()


def train_step(engine):
    """One step: the engine consults its options."""
    options = (
        engine.gradient_clipping(),
        engine.fp16_enabled(),
        engine.initial_scale(),
        engine.zero_overlap(),
        engine.zero_offload(),
        engine.checkpoint_every(),
    )
    return options
