"""What a run writes to --out: model.safetensors (the latest weights), best.safetensors, checkpoint.pt and
metrics.jsonl's first record. Only rank 0 writes, so a multi-node run's --out must be shared by every node."""
from __future__ import annotations

import os
from typing import Dict, Optional

import torch

from .. import __version__
from .checkpoint import RunState, write_checkpoint
from ..data_files import data_name
from ..model import TransEBM, state_dict_arrays
from .run_inputs import RunInputs
from .runlog import MetricsLog, atomic_write
from ..weights import write_model


class RunOutputs:
    def __init__(self, out_dir: str, data_paths, inputs: RunInputs, main: bool) -> None:
        self.out_dir = out_dir
        self.data_name = data_name(data_paths)
        self.inputs = inputs
        self.main = main

    def training_summary(self, extra: Dict) -> Dict:
        i = self.inputs
        # `split` is the contract's record; splitSeed and settings.seed/train_fraction stay for older readers.
        return {"source": "eorm python", "dataset": self.data_name, "trainGroups": len(i.train_groups), "valGroups": len(i.val_groups), "split": i.split, "splitSeed": i.split["seed"], "settings": i.settings, **extra}

    def save_model(self, name: str, model: TransEBM, extra: Dict) -> None:
        if self.main:
            atomic_write(os.path.join(self.out_dir, name), write_model(self.inputs.cfg, state_dict_arrays(model), training=self.training_summary(extra)))

    def save_checkpoint(self, model: TransEBM, opt: torch.optim.Optimizer, scaler, state: RunState) -> None:
        if self.main:
            i = self.inputs
            blob = {"cfg": i.cfg.to_dict(), "settings": i.settings, "split": i.split, "model": model.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict() if scaler else None, "state": state.to_checkpoint()}
            write_checkpoint(os.path.join(self.out_dir, "checkpoint.pt"), blob)

    def start_metrics(self, state: RunState, device: torch.device, amp: Optional[torch.dtype]) -> MetricsLog:
        """metrics.jsonl, opened with the run's first record ("config"; "resume" when resumed, the records after
        the checkpoint's step dropped)."""
        i = self.inputs
        resumed = i.resume_from is not None
        metrics = MetricsLog(os.path.join(self.out_dir, "metrics.jsonl"), self.main, state.step if resumed else None)
        metrics.write(
            {
                "type": "resume" if resumed else "config",
                "version": __version__,
                "config": i.cfg.to_dict(),
                "settings": i.settings,
                "split": i.split,
                "trainGroups": len(i.train_groups),
                "valGroups": len(i.val_groups),
                "candidates": i.data.dataset.candidate_count,
                "rejectedLines": i.data.dataset.report.rejected,
                "atMaxLen": i.data.at_max_len,
                "stepsPerEpoch": i.steps.steps_per_epoch,
                "totalSteps": i.steps.total_steps,
                "warmupSteps": i.steps.warmup_steps,
                "device": str(device),
                "autocast": str(amp) if amp else None,
                "step": state.step,
                **({"resumedWith": i.resumed_with} if i.resumed_with else {}),
            }
        )
        return metrics
