"""Train a TransEBM with the app's recipe, on one process or many (torchrun + DistributedDataParallel).

    torchrun --nproc_per_node N -m eorm.train --data FILE [FILE ...] --preset tiny|small|paper \\
        [--d-model … --max-len … --epochs … --lr … --seed …] --out DIR

The recipe is the app's (src/engine/train/loop.ts): the seeded 80/20 group split of every question
(`--split all`, the default; `mixed` splits only questions with both labels, as every run before it), with
`--holdout-sources` training on the other generators' candidates only (or the split an --init model or a
resumed checkpoint records, see split.split_for_init), epochs over the training
groups reshuffled with mixSeed(seed, epoch), `--groups-per-step` groups per rank and step, the group-wise
Bradley-Terry loss, AdamW (0.9, 0.999, 1e-8, wd on every parameter), global-norm clipping, cosine schedule
with linear warmup, validation before training and at every epoch end, best model by the validation figure
--best-metric names (default the learned selector's held-out accuracy; best_metric.py, the app's rule; a resume
keeps its run's); a step
with a non-finite loss or gradient norm is skipped, and three in a row stop the run (the app pauses).

Distributed: step s of an epoch takes the next N·k groups of the epoch's order; rank r trains groups
[r·k, (r+1)·k) of them, and the loss is the mean over all N·k groups (each rank's sum of group losses is
divided by the global group count, DDP's gradient averaging is undone), so N ranks × k groups per step are
one process with N·k groups per step. Backend: nccl on GPUs, gloo on CPU. bf16/fp16 autocast on GPUs.

Writes DIR/model.safetensors (latest weights, every epoch), DIR/best.safetensors (best by --best-metric),
DIR/checkpoint.pt (resumable: model, optimizer, position, settings and split; only rank 0 writes, so DIR
must be shared by every node) and DIR/metrics.jsonl.

The run's parts are named after the app's loop phases (src/engine/train/run.ts, epochs.ts, curves.ts,
validate.ts): read_run_inputs (RunInputs, the split), resume, train_epochs, train_one_step, record, end_epoch, validate, new_best (the best model), end.
The loop and the step (train_epochs, train_one_step) are here, with the step functions they look up at call time;
what they share and the other parts are eorm/training/run.py.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Dict, List, Optional

import torch

from .config import DEFAULT_TRAIN, PRESET_LR, PRESETS
from .model import TransEBM, load_arrays, state_dict_arrays
from .rng import Rng, mix_seed, shuffle_in_place
from .training.best_metric import BEST_METRICS
from .training.distributed import Dist
from .training.outputs import RunOutputs
from .training.run import Run, Throughput, Trainer, autocast_dtype, end, end_epoch, record, resume, save_checkpoint, validate
from .training.run_inputs import RunInputs, read_run_inputs
from .training.runlog import Progress, finite
from .training.schedule import cosine_with_warmup
from .training.step import make_optimizer, optimizer_step, train_step  # looked up here at call time: tests replace them
from .training.validation import CURVE_SUBSETS

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m eorm.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, nargs="+", metavar="FILE", help="training data in any format the app reads, labelled or with gold answers (split 80/20 by group into train and val); several files are read together as the app reads files dropped together (a chat batch's request and output files, one results file per model)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    m = p.add_argument_group("model (override the preset)")
    m.add_argument("--d-model", type=int)
    m.add_argument("--n-heads", type=int)
    m.add_argument("--n-layers", type=int)
    m.add_argument("--ffn-dim", type=int, help="default 4·d-model")
    m.add_argument("--dropout", type=float)
    m.add_argument("--max-len", type=int)
    m.add_argument("--positional", choices=["none", "learned"])
    t = p.add_argument_group("training")
    t.add_argument("--epochs", type=int, default=DEFAULT_TRAIN["epochs"])
    t.add_argument("--lr", type=float, default=None, help="peak learning rate (default: the preset's, config.PRESET_LR: tiny 1e-3, small and paper 1e-4)")
    t.add_argument("--seed", type=int, default=DEFAULT_TRAIN["seed"], help="split (unless the --init model records one for this file), shuffle, initialisation and dropout")
    t.add_argument("--warmup-ratio", type=float, default=DEFAULT_TRAIN["warmupRatio"])
    t.add_argument("--weight-decay", type=float, default=DEFAULT_TRAIN["weightDecay"])
    t.add_argument("--max-grad-norm", type=float, default=DEFAULT_TRAIN["maxGradNorm"])
    t.add_argument("--groups-per-step", type=int, default=DEFAULT_TRAIN["groupsPerStep"], help="groups per rank and step (global batch = ranks × this)")
    t.add_argument("--micro-batch", type=int, default=0, help="candidates per forward/backward pass (0 = the whole step in one pass)")
    t.add_argument("--train-fraction", type=float, default=0.8)
    t.add_argument("--split", choices=["all", "mixed"], default=None, help="all (default for a new run): hold out the fraction of every question and train on those with both labels among the rest; mixed: split only the questions with both labels (every run before this flag). A resume or --init keeps the split it records")
    t.add_argument("--holdout-sources", default=None, metavar="A,B", help="train on the other sources' candidates only and validate on these sources' candidates (same questions held out); names as the lines' `source` field")
    t.add_argument("--best-metric", choices=BEST_METRICS, default=None, help=f"the validation figure that chooses best.safetensors: selector (default for a new run: the learned selector's out-of-fold accuracy, Best-of-N's while it cannot be fitted), bestOfN, weightedVote (fitted temperature), pairwise, btLoss (lower is better); a resume keeps its run's")
    t.add_argument("--selector-field", metavar="NAME", action="append", default=None, help="a numeric field of the lines (another reward model's score, a mean logprob) the learned selector also reads beside vote share, energy and generator; repeat for several; recorded with the model")
    t.add_argument("--eval-every", type=int, default=0, help="also validate every N steps (0 = at epoch ends only)")
    t.add_argument("--init", help="start from these weights (e.g. a model exported from the app); its config wins over the model flags, and its recorded split over --seed/--train-fraction when it was trained on --data")
    t.add_argument("--resume", default="auto", help="'auto' (continue DIR/checkpoint.pt if there is one), 'never', or a checkpoint path")
    t.add_argument("--save-every", type=int, default=500, help="also write the checkpoint every N steps (0 = epoch ends only)")
    t.add_argument("--max-steps", type=int, default=0, help="stop after this many steps in all (0 = run every epoch); for tests and smoke runs")
    r = p.add_argument_group("runtime")
    r.add_argument("--device", default="auto", help="auto (CUDA when available), cpu or cuda")
    r.add_argument("--precision", choices=["auto", "fp32", "bf16", "fp16"], default="auto", help="auto = bf16 autocast on GPUs that have it, else fp32")
    r.add_argument("--eval-batch-tokens", type=int, default=64 * 512)
    r.add_argument("--curve-subsets", type=int, default=CURVE_SUBSETS, help="subsets per N for the Best-of-N-vs-N curve (0 = skip the curve)")
    r.add_argument("--tokenize-workers", type=int, default=None)
    r.add_argument("--log-every", type=int, default=1, help="write every N-th step to metrics.jsonl")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def run(argv: Optional[List[str]] = None) -> Dict:
    args = build_parser().parse_args(argv)
    if args.lr is None:
        args.lr = PRESET_LR[args.preset]
    dist_ = Dist(args.device)
    try:
        return _run(args, dist_)
    finally:
        dist_.close()


def _run(args, dist_: Dist) -> Dict:
    started = time.time()
    if not 0 < args.train_fraction <= 1:
        raise SystemExit(f"--train-fraction must be in (0, 1] (got {args.train_fraction}).")
    os.makedirs(args.out, exist_ok=True)
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if dist_.main else (lambda *a: None)
    inputs = read_run_inputs(args, dist_, log)
    trainer = make_trainer(args, dist_, inputs)
    state = resume(inputs, trainer, log)
    outputs = RunOutputs(args.out, args.data, inputs, dist_.main)
    metrics = outputs.start_metrics(state, dist_.device, trainer.amp)
    steps = inputs.steps
    amp = trainer.amp
    log(f"{len(inputs.train_groups)} train / {len(inputs.val_groups)} val groups, {steps.steps_per_epoch} steps per epoch × {args.epochs} epochs, {dist_.world} rank(s) × {steps.groups_per_rank} group(s) per step, device {dist_.device}{', autocast ' + str(amp) if amp else ''}")
    progress = Progress(steps.total_steps, state.step, dist_.main and not args.quiet)
    training = Run(args, dist_, inputs, trainer, state, outputs, metrics, progress, log, started, Throughput(time.time()))
    train_epochs(training)
    return end(training)


def make_trainer(args, dist_: Dist, inputs: RunInputs) -> Trainer:
    device = dist_.device
    torch.manual_seed(args.seed)
    model = TransEBM(inputs.cfg)
    if inputs.resume_from is not None:
        model.load_state_dict(inputs.resume_from["model"])
    elif inputs.init_model is not None:
        load_arrays(model, state_dict_arrays(inputs.init_model))
    model.to(device)
    model.train()
    if dist_.enabled:
        ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    else:
        ddp = model
    opt = make_optimizer(model, args.lr, args.weight_decay)
    amp = autocast_dtype(args.precision, device)
    scaler = torch.cuda.amp.GradScaler() if amp == torch.float16 else None
    return Trainer(model, ddp, opt, amp, scaler)


def train_epochs(run: Run) -> None:
    """Validation before training, then the epochs over the training groups, each reshuffled with the seed;
    returns early when the run stops (--max-steps) or pauses."""
    args, state, steps = run.args, run.state, run.inputs.steps
    if not state.validated_untrained:
        # Epoch 0: the untrained model, so the curves start from where training starts.
        validate(run, 0, None)
        state.validated_untrained = True
    for epoch in range(state.epoch, args.epochs + 1):
        order = list(run.inputs.train_groups)
        shuffle_in_place(order, Rng(mix_seed(args.seed, epoch)))
        # A resume mid-epoch goes on with the epoch's loss tallies so far.
        if state.step_in_epoch == 0:
            state.epoch_loss_sum, state.epoch_loss_count = 0.0, 0
        for s in range(state.step_in_epoch, steps.steps_per_epoch):
            if args.max_steps and state.step >= args.max_steps:
                run.stopped = True
                return
            train_one_step(run, order, s, epoch)
            if run.paused:
                return
            within_epoch = s + 1 < steps.steps_per_epoch
            if args.eval_every > 0 and state.step % args.eval_every == 0 and within_epoch:
                validate(run, epoch, None)
            if args.save_every > 0 and state.step % args.save_every == 0 and within_epoch:
                save_checkpoint(run)
        end_epoch(run, epoch)


def train_one_step(run: Run, order: List[int], s: int, epoch: int) -> None:
    """Step s of the epoch: its groups (this rank's share of them), the learning rate, forward, backward and
    the optimizer step, then the record of its loss."""
    args, dist_, t, state, steps, data = run.args, run.dist, run.trainer, run.state, run.inputs.steps, run.inputs.data
    step = state.step
    step_groups = order[s * steps.groups_per_step : (s + 1) * steps.groups_per_step]
    mine = step_groups[dist_.rank * steps.groups_per_rank : (dist_.rank + 1) * steps.groups_per_rank]
    lr = cosine_with_warmup(step, args.lr, steps.warmup_steps, steps.total_steps)
    for g in t.opt.param_groups:
        g["lr"] = lr
    t.opt.zero_grad(set_to_none=True)
    seed_base = mix_seed(mix_seed(args.seed ^ 0x5EED, step), dist_.rank)
    local = train_step(t.ddp, t.model, data, mine, len(step_groups), dist_.world, seed_base, dist_.device, args.micro_batch, t.amp, t.scaler)
    # The loss is all-reduced and the norm is of the all-reduced gradients: every rank decides alike.
    loss = float(dist_.all_sum(local.reshape(1).clone())[0])
    grad_norm = optimizer_step(t.model, t.opt, args.max_grad_norm, t.scaler, loss_finite=math.isfinite(loss))
    state.step = step + 1
    state.step_in_epoch = s + 1
    run.timer.steps += 1
    run.timer.tokens += sum(len(data.ids[i]) for i in data.candidates(step_groups))
    record(run, step, epoch, lr, loss, grad_norm)
    run.progress.update(state.step, {"epoch": epoch, "loss": f"{loss:.4f}", "lr": f"{lr:.2e}"})


def main(argv: Optional[List[str]] = None) -> None:
    result = run(argv)
    if int(os.environ.get("RANK", "0")) == 0:
        print(json.dumps(finite(result)))
    if result["reason"] == "paused":
        raise SystemExit(3)  # not finished: a scheduler sees it; the reason is on stderr


if __name__ == "__main__":
    main()
