"""What a training run's parts share (Run, its Trainer and Throughput) and the parts that take no step function
(eorm.train holds the loop and the step): resume, record (a step's loss into the curve, a skipped step
counted), end_epoch, save_checkpoint, validate and new_best (the best model), end. Named after the app's loop
phases (src/engine/train/run.ts, epochs.ts, curves.ts, validate.ts)."""
from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional

import torch

from ..model import TransEBM
from .best_metric import DEFAULT_BEST_METRIC, is_better, metric_value
from .checkpoint import RunState
from .distributed import Dist
from .outputs import RunOutputs
from .run_inputs import RunInputs
from .runlog import MetricsLog, Progress
from .validation import validation_figures

SMOOTHING = 0.95
# As the app (src/engine/train/curves.ts NON_FINITE_PAUSE): this many skipped (non-finite) steps in a row stop the run.
NON_FINITE_PAUSE = 3


# ---- the model and its optimizer -----------------------------------------------------------------------


@dataclass
class Trainer:
    model: TransEBM
    # DistributedDataParallel's wrapper on several processes, else the model itself.
    ddp: torch.nn.Module
    opt: torch.optim.Optimizer
    amp: Optional[torch.dtype]
    # fp16 only: its loss scaler.
    scaler: Optional[object]


def autocast_dtype(precision: str, device: torch.device) -> Optional[torch.dtype]:
    if device.type != "cuda" or precision == "fp32":
        return None
    if precision == "fp16":
        return torch.float16
    if precision == "bf16" or torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return None


def resume(inputs: RunInputs, trainer: Trainer, log: Callable[..., None]) -> RunState:
    """The state a run starts from: a new run's, or the checkpoint's (with its optimizer and loss scaler)."""
    ckpt = inputs.resume_from
    if ckpt is None:
        return RunState()
    trainer.opt.load_state_dict(ckpt["optimizer"])
    if trainer.scaler is not None and ckpt.get("scaler"):
        trainer.scaler.load_state_dict(ckpt["scaler"])
    state = RunState.from_checkpoint(ckpt["state"])
    log(f"Resuming from {inputs.checkpoint_path}: step {state.step} of {inputs.steps.total_steps}, epoch {state.epoch}")
    if inputs.resumed_with:
        changed = ", ".join(f"{key} {ckpt['settings'].get(key)} → {v}" for key, v in inputs.resumed_with.items())
        log(f"Resuming with other runtime settings than the checkpoint's ({changed}); the files keep recording the run's settings.")
    return state


# ---- the loop ------------------------------------------------------------------------------------------


@dataclass
class Throughput:
    """The steps and tokens behind metrics.jsonl's stepsPerSec and tokensPerSec, since `start`."""

    start: float
    steps: int = 0
    tokens: int = 0


@dataclass
class Run:
    """What the loop's parts share."""

    args: argparse.Namespace
    dist: Dist
    inputs: RunInputs
    trainer: Trainer
    state: RunState
    outputs: RunOutputs
    metrics: MetricsLog
    progress: Progress
    log: Callable[..., None]
    started: float
    timer: Throughput
    # --max-steps reached.
    stopped: bool = False
    # Why the run paused itself (non-finite steps in a row).
    paused: Optional[str] = None
    # What the last validation fitted for later use (the app's latest.training): its temperature and probability
    # map, the generator weights among them, written into every model file from then on.
    fitted: Dict = field(default_factory=dict)


def record(run: Run, step: int, epoch: int, lr: float, loss: float, grad_norm: float) -> None:
    """A step's loss into the curve and the epoch's mean; a skipped (non-finite) step counted instead, and the
    run paused after NON_FINITE_PAUSE of them in a row."""
    state = run.state
    if math.isfinite(loss) and math.isfinite(grad_norm):
        state.skipped_in_a_row = 0
        state.ema = SMOOTHING * state.ema + (1 - SMOOTHING) * loss
        state.epoch_loss_sum += loss
        state.epoch_loss_count += 1
        if step % max(1, run.args.log_every) == 0:
            elapsed = time.time() - run.timer.start
            run.metrics.write(
                {
                    "type": "step",
                    "step": step,
                    "epoch": epoch,
                    "loss": loss,
                    "smoothed": state.ema / (1 - SMOOTHING ** (step + 1)),
                    "lr": lr,
                    "gradNorm": grad_norm,
                    "stepsPerSec": run.timer.steps / elapsed if elapsed > 0 else None,
                    "tokensPerSec": run.timer.tokens / elapsed if elapsed > 0 else None,
                }
            )
        return
    # Skipped (see optimizer_step): counted, kept out of the curve and the epoch's mean, as in the app.
    # Under fp16's loss scaler an overflowing gradient is the scaler's own business, not divergence.
    state.skipped_steps += 1
    if not (math.isfinite(loss) and run.trainer.scaler is not None):
        state.skipped_in_a_row += 1
    run.metrics.write({"type": "skip", "step": step, "epoch": epoch, "loss": loss, "gradNorm": grad_norm, "lr": lr, "inARow": state.skipped_in_a_row})
    if state.skipped_in_a_row >= NON_FINITE_PAUSE:
        what = "non-finite gradient norm" if math.isfinite(loss) else "non-finite loss"
        run.paused = (
            f"Paused: {state.skipped_in_a_row} steps in a row (up to step {step}) had a {what}, so their updates were skipped. "
            "Lower the learning rate (or raise warmup) and start again (--resume never), or run the same command again to resume "
            "from checkpoint.pt and try on."
        )
        state.skipped_in_a_row = 0  # as the app after a pause: a resume tries three more


def end_epoch(run: Run, epoch: int) -> None:
    state = run.state
    epoch_loss = state.epoch_loss_sum / state.epoch_loss_count if state.epoch_loss_count else None
    validate(run, epoch, epoch_loss)
    state.epoch, state.step_in_epoch = epoch + 1, 0
    run.outputs.save_model("model.safetensors", run.trainer.model, {"epoch": epoch, "step": state.step, "epochTrainLoss": epoch_loss, **run.fitted})
    save_checkpoint(run)


def save_checkpoint(run: Run) -> None:
    t = run.trainer
    run.outputs.save_checkpoint(t.model, t.opt, t.scaler, run.state)


# ---- validation and the best model ---------------------------------------------------------------------


def validate(run: Run, epoch: int, epoch_loss: Optional[float]) -> None:
    args, model, state = run.args, run.trainer.model, run.state
    if not run.inputs.val_groups:
        return
    ev = validation_figures(
        model, run.inputs.data, run.inputs.val_groups, args.seed, run.dist, run.trainer.amp, args.eval_batch_tokens, args.curve_subsets, run.inputs.train_groups, run.inputs.settings.get("selector_fields", [])
    )
    model.train()
    if ev is None:
        return
    bon = ev["summary"]["bestOfN"]
    sel = ev["selection"]
    run.fitted = {"temperature": sel["temperature"], "temperatureSource": sel["temperatureSource"], "probabilityMap": sel["probabilityMap"]}
    metric = run.inputs.settings.get("best_metric", DEFAULT_BEST_METRIC)
    score = metric_value(ev, metric)
    is_best = new_best(state, epoch, bon, score, metric)
    run.metrics.write({"type": "eval", "set": "val", "epoch": epoch, "step": state.step, "epochTrainLoss": epoch_loss, "isBest": is_best, "time": time.time() - run.started, **ev})
    s = ev["summary"]
    run.progress.write(f"epoch {epoch} step {state.step}: val Best-of-N {s['bestOfN']:.4f}, pairwise {s['pairwise']:.4f}, BT loss {s['btLoss']:.4f}" + (f", train loss {epoch_loss:.4f}" if epoch_loss is not None else "") + (" (best)" if is_best else ""))
    if is_best:
        # slot "best", as the app's export of its best checkpoint: readers label its validation figures optimistic.
        run.outputs.save_model("best.safetensors", model, {"slot": "best", "epoch": epoch, "step": state.step, "valBestOfN": bon, "bestMetric": metric, "bestMetricValue": score, **run.fitted})


def new_best(state: RunState, epoch: int, best_of_n: float, score: float, metric: str) -> bool:
    """Whether this validation's figure of `metric` (`score`) is the run's best so far (then recorded, with its
    Best-of-N, as such). As the app (src/engine/train/validate.ts): the untrained model (epoch 0) is a reference
    point, never the best model; on a small validation set it could stay best. A checkpoint written before the
    metric was recorded chose by Best-of-N: its best Best-of-N is its best figure."""
    best = state.best_metric_value
    if best is None and metric == DEFAULT_BEST_METRIC:
        best = state.best_val_best_of_n
    if epoch >= 1 and is_better(score, best, metric):
        state.best_val_best_of_n = best_of_n
        state.best_metric_value = score
        return True
    return False


# ---- the end -------------------------------------------------------------------------------------------


def end(run: Run) -> Dict:
    """The files of a run that stopped or paused (so a resume continues it), and the end record."""
    state, paused = run.state, run.paused
    run.progress.close()
    if run.stopped or paused:
        run.outputs.save_model("model.safetensors", run.trainer.model, {"epoch": state.epoch, "step": state.step, **({"paused": paused} if paused else {"stopped": True}), **run.fitted})
        save_checkpoint(run)
    reason = "paused" if paused else "stopped" if run.stopped else "finished"
    result = {"type": "end", "reason": reason, "steps": state.step, "skippedSteps": state.skipped_steps, "bestValBestOfN": state.best_val_best_of_n, "seconds": time.time() - run.started}
    if paused:
        result["message"] = paused
        run.log(paused)
    run.metrics.write(result)
    run.metrics.close()
    run.dist.barrier()
    return result
