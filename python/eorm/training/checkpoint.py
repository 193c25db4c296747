"""checkpoint.pt: everything a run needs to continue (model, optimizer, position, settings, split), written
whole or not at all; read back with its identity (the SHA-256 of its bytes), so the ranks of a multi-node
run can check that they all resume from the same file."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Dict, Optional, Tuple

import torch

from ..data_files import file_identity
from .runlog import replaced_whole


@dataclass
class RunState:
    """Where a run stands between two steps, and its running figures (src/engine/train/checkpoint.ts RunPosition
    and RunTallies): all a resume needs besides the weights and the optimizer to go on exactly as the run
    uninterrupted would; the epoch's order, dropout masks and the learning rate follow from the seed and this."""

    step: int = 0
    epoch: int = 1
    # The first step still to take in `epoch`.
    step_in_epoch: int = 0
    best_val_best_of_n: Optional[float] = None
    # The best model's figure of the run's best metric (settings["best_metric"]); None in checkpoints before it.
    best_metric_value: Optional[float] = None
    # Unnormalised EMA of the loss (the smoothed curve divides by 1 − 0.95^(step+1)).
    ema: float = 0.0
    epoch_loss_sum: float = 0.0
    epoch_loss_count: int = 0
    # The untrained model's validation (epoch 0) is done: a resume does not repeat it.
    validated_untrained: bool = False
    skipped_steps: int = 0
    skipped_in_a_row: int = 0

    def to_checkpoint(self) -> Dict:
        return {CHECKPOINT_KEYS[f.name]: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_checkpoint(cls, saved: Dict) -> "RunState":
        """A key a checkpoint lacks keeps its start value."""
        return cls(**{name: saved[key] for name, key in CHECKPOINT_KEYS.items() if key in saved})


# checkpoint.pt's names for RunState's fields: a file format, which checkpoints already written keep.
CHECKPOINT_KEYS = {
    "step": "step",
    "epoch": "epoch",
    "step_in_epoch": "s",
    "best_val_best_of_n": "best",
    "best_metric_value": "best_metric",
    "ema": "ema",
    "epoch_loss_sum": "loss_sum",
    "epoch_loss_count": "loss_count",
    "validated_untrained": "val0",
    "skipped_steps": "skipped",
    "skipped_in_a_row": "skipped_in_a_row",
}


def read_checkpoint(path: str) -> Tuple[Dict, str]:
    return torch.load(path, map_location="cpu"), file_identity(path)


def write_checkpoint(path: str, blob: Dict) -> None:
    with replaced_whole(path) as f:
        torch.save(blob, f)
