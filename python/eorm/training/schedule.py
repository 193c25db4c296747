"""Cosine schedule with linear warmup (transformers.get_cosine_schedule_with_warmup, 0.5 cycles), as the app's
src/engine/model/schedule.ts: `step` is the 0-based optimizer step, so with warmup the first step uses lr 0."""
import math


def cosine_with_warmup(step: int, base_lr: float, warmup_steps: int, total_steps: int) -> float:
    if step < warmup_steps:
        return (base_lr * step) / max(1, warmup_steps)
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return base_lr * max(0.0, 0.5 * (1 + math.cos(math.pi * progress)))


def warmup_steps(total_steps: int, warmup_ratio: float) -> int:
    """The reference's warmup: int(ratio · total)."""
    return math.floor(warmup_ratio * total_steps)
