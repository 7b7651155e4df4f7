"""Config keys, as string constants (the style large trainers use)."""

TRAIN_BATCH_SIZE = "train_batch_size"
TRAIN_BATCH_SIZE_DEFAULT = None

GRADIENT_CLIPPING = "gradient_clipping"
GRADIENT_CLIPPING_DEFAULT = 0.0

FP16 = "fp16"
ZERO_OPTIMIZATION = "zero_optimization"
CHECKPOINT = "checkpoint"
