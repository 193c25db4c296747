"""Train a TransEBM with the app's recipe, on one process or many (torchrun + DistributedDataParallel).

    torchrun --nproc_per_node N -m eorm.train --data FILE.jsonl --preset tiny|small|paper \\
        [--d-model … --max-len … --epochs … --lr … --seed …] --out DIR

The recipe is the app's (src/engine/train/loop.ts): the seeded 80/20 group split (or the split an --init
model records for this file, see split.split_for_init), epochs over the training
groups reshuffled with mixSeed(seed, epoch), `--groups-per-step` groups per rank and step, the group-wise
Bradley-Terry loss, AdamW (0.9, 0.999, 1e-8, wd on every parameter), global-norm clipping, cosine schedule
with linear warmup, validation before training and at every epoch end, best model by val Best-of-N; a step
with a non-finite loss or gradient norm is skipped, and three in a row stop the run (the app pauses).

Distributed: step s of an epoch takes the next N·k groups of the epoch's order; rank r trains groups
[r·k, (r+1)·k) of them, and the loss is the mean over all N·k groups (each rank's sum of group losses is
divided by the global group count, DDP's gradient averaging is undone), so N ranks × k groups per step are
one process with N·k groups per step. Backend: nccl on GPUs, gloo on CPU. bf16/fp16 autocast on GPUs.

Writes DIR/model.safetensors (latest weights, every epoch), DIR/best.safetensors (best val Best-of-N),
DIR/checkpoint.pt (resumable: model, optimizer, position, settings and split; only rank 0 writes, so DIR
must be shared by every node) and DIR/metrics.jsonl.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Dict, List, Optional, Tuple

import torch

from . import __version__
from .config import DEFAULT_TRAIN, GPT2_EOT, GPT2_VOCAB, PRESETS, ModelConfig, make_config
from .checkpoint import read_checkpoint, write_checkpoint
from .dataset import TrainingData, file_identity, load_training_data
from .distributed import Dist, check_ranks_agree
from .metrics import best_of_n_curve, energy_histogram, evaluate_groups
from .model import TransEBM, load_arrays, score_candidates, state_dict_arrays
from .rng import Rng, mix_seed, shuffle_in_place
from .runlog import MetricsLog, Progress, atomic_write, finite
from .schedule import cosine_with_warmup, warmup_steps
from .split import short_id, split_for_init, split_groups, split_record
from .step import make_optimizer, optimizer_step, train_step  # also this module's API (tests, bench)
from .weights import load_model_file_or_exit, write_model

SMOOTHING = 0.95
CURVE_SUBSETS = 64
HISTOGRAM_BINS = 30


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m eorm.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True, help="training JSONL (split 80/20 by group into train and val)")
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
    t.add_argument("--lr", type=float, default=DEFAULT_TRAIN["lr"])
    t.add_argument("--seed", type=int, default=DEFAULT_TRAIN["seed"], help="split (unless the --init model records one for this file), shuffle, initialisation and dropout")
    t.add_argument("--warmup-ratio", type=float, default=DEFAULT_TRAIN["warmupRatio"])
    t.add_argument("--weight-decay", type=float, default=DEFAULT_TRAIN["weightDecay"])
    t.add_argument("--max-grad-norm", type=float, default=DEFAULT_TRAIN["maxGradNorm"])
    t.add_argument("--groups-per-step", type=int, default=DEFAULT_TRAIN["groupsPerStep"], help="groups per rank and step (global batch = ranks × this)")
    t.add_argument("--micro-batch", type=int, default=0, help="candidates per forward/backward pass (0 = the whole step in one pass)")
    t.add_argument("--train-fraction", type=float, default=0.8)
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


# ---- setup ---------------------------------------------------------------------------------------------


def model_config(args, init_cfg: Optional[ModelConfig]) -> ModelConfig:
    if init_cfg is not None:
        return init_cfg
    m = dict(PRESETS[args.preset])
    for flag, key in (("d_model", "dModel"), ("n_heads", "nHeads"), ("n_layers", "nLayers"), ("dropout", "dropout"), ("max_len", "maxLen"), ("positional", "positional")):
        v = getattr(args, flag)
        if v is not None:
            m[key] = v
    m["ffnDim"] = args.ffn_dim if args.ffn_dim is not None else 4 * m["dModel"]
    return make_config(vocabSize=GPT2_VOCAB, clsId=GPT2_EOT, sepId=GPT2_EOT, padId=GPT2_EOT, **m)


def autocast_dtype(precision: str, device: torch.device) -> Optional[torch.dtype]:
    if device.type != "cuda" or precision == "fp32":
        return None
    if precision == "fp16":
        return torch.float16
    if precision == "bf16" or torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return None


# ---- validation ----------------------------------------------------------------------------------------


def validate(module: TransEBM, data: TrainingData, groups: List[int], seed: int, dist_: Dist, amp, batch_tokens: int, curve_subsets: int) -> Optional[Dict]:
    """Every rank scores a share of the candidates; rank 0 gets all energies and computes the figures."""
    cand = data.candidates(groups)
    mine = cand[dist_.rank :: dist_.world]
    e_mine = score_candidates(module, [data.ids[i] for i in mine], dist_.device, batch_tokens, amp)
    full = torch.zeros(len(cand), dtype=torch.float32, device=dist_.device)
    full[dist_.rank :: dist_.world] = torch.tensor(e_mine, dtype=torch.float32, device=dist_.device)
    dist_.all_sum(full)
    if not dist_.main:
        return None
    energies = full.cpu().tolist()
    scored = data.scored(groups, energies)
    out = {"summary": evaluate_groups(scored), "histogram": energy_histogram(scored, HISTOGRAM_BINS)}
    out["curve"] = best_of_n_curve(scored, seed, curve_subsets) if curve_subsets > 0 else []
    return out


# ---- the run -------------------------------------------------------------------------------------------

# Settings a resume must share with the checkpoint; the runtime ones below may change (the files keep the checkpoint's).
RESUME_KEYS = ("data", "epochs", "lr", "seed", "warmup_ratio", "weight_decay", "max_grad_norm", "train_fraction", "global_groups_per_step")
RUNTIME_KEYS = ("groups_per_step", "world_size", "micro_batch", "precision")
# As the app (src/engine/train/loop.ts NON_FINITE_PAUSE): this many skipped (non-finite) steps in a row stop the run.
NON_FINITE_PAUSE = 3


def run(argv: Optional[List[str]] = None) -> Dict:
    args = build_parser().parse_args(argv)
    dist_ = Dist(args.device)
    try:
        return _run(args, dist_)
    finally:
        dist_.close()


def flag_settings(args, world: int, custom_model: bool) -> Dict:
    """The run's settings as the command line gives them (what model files and checkpoint.pt record)."""
    k = max(1, args.groups_per_step)
    return {
        "data": os.path.abspath(args.data),
        "epochs": args.epochs,
        "lr": args.lr,
        "seed": args.seed,
        "warmup_ratio": args.warmup_ratio,
        "weight_decay": args.weight_decay,
        "max_grad_norm": args.max_grad_norm,
        "train_fraction": args.train_fraction,
        "global_groups_per_step": k * world,
        "groups_per_step": k,
        "world_size": world,
        "micro_batch": args.micro_batch,
        "precision": args.precision,
        "preset": "custom" if custom_model else args.preset,
    }


def resumed_settings(ckpt: Dict, ckpt_path: str, flags: Dict, data_id: str, data_path: str, log) -> Tuple[Dict, Dict, Dict]:
    """A resume continues the checkpoint's run: its settings and split, recorded as they were (so the files
    equal those of the run uninterrupted), once the command line and the data file are checked against them.
    Returns (settings, split, runtime flags that differ from the checkpoint's)."""
    saved = ckpt["settings"]
    diff = [key for key in RESUME_KEYS if saved.get(key) != flags[key]]
    if diff:
        changes = ", ".join(f"{d}: {saved.get(d)} → {flags[d]}" for d in diff)
        raise SystemExit(f"{ckpt_path} was written by a run with other settings ({changes}). Use another --out, or --resume never to start over.")
    # A checkpoint from before splits were recorded: its settings' seed and fraction.
    split = ckpt.get("split") or split_record(saved["seed"], saved["train_fraction"], None)
    if split["dataset"] is None:
        split = {**split, "dataset": data_id}
        log(f"Warning: {ckpt_path} does not record which data file it was made from: it cannot be checked that {data_path} is unchanged.")
    elif split["dataset"] != data_id:
        raise SystemExit(
            f"{data_path} has changed since {ckpt_path} was written (it was {short_id(split['dataset'])}, it is now {short_id(data_id)}): "
            "its groups, split and epoch order would no longer be the run's. Put the original file back, or use another --out (or --resume never) to start over."
        )
    runtime = {key: flags[key] for key in RUNTIME_KEYS if saved.get(key) != flags[key]}
    return dict(saved), split, runtime


def _run(args, dist_: Dist) -> Dict:
    t_start = time.time()
    if not 0 < args.train_fraction <= 1:
        raise SystemExit(f"--train-fraction must be in (0, 1] (got {args.train_fraction}).")
    device = dist_.device
    os.makedirs(args.out, exist_ok=True)
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if dist_.main else (lambda *a: None)

    ckpt_path = os.path.join(args.out, "checkpoint.pt") if args.resume == "auto" else (None if args.resume == "never" else args.resume)
    ckpt, ckpt_id = read_checkpoint(ckpt_path) if ckpt_path and os.path.exists(ckpt_path) else (None, None)
    data_id = file_identity(args.data)
    # Before any rank acts on what it sees: one that sees another checkpoint (or data) than rank 0 stops them all.
    check_ranks_agree(dist_, ckpt_path, (ckpt_id, ckpt["state"]["step"]) if ckpt is not None else None, data_id)
    if ckpt is None and args.resume not in ("auto", "never"):
        raise SystemExit(f"--resume {args.resume}: no such checkpoint")
    if int(os.environ.get("LOCAL_WORLD_SIZE", dist_.world)) < dist_.world:
        log("Several nodes: only rank 0 writes to --out (checkpoint.pt included); keep --out on storage every node sees, or a resume will be refused.")

    init_cfg = None
    init_model = None
    if ckpt is not None:
        init_cfg = ModelConfig(**ckpt["cfg"])
    elif args.init:
        init_model, loaded = load_model_file_or_exit(args.init, "--init")
        init_cfg = loaded.cfg
        for w in loaded.warnings:
            log(f"--init {args.init}: {w}")
        log(f"Continuing from {args.init} (its config wins over the model flags): {init_cfg}")
    cfg = model_config(args, init_cfg)

    settings = flag_settings(args, dist_.world, init_cfg is not None)
    runtime: Dict = {}
    if ckpt is not None:
        settings, split, runtime = resumed_settings(ckpt, ckpt_path, settings, data_id, args.data, log)
    elif init_model is not None:
        split, notes = split_for_init(loaded.training, os.path.basename(args.init), os.path.basename(args.data), data_id, args.seed, args.train_fraction)
        for note in notes:
            log(note)
    else:
        split = split_record(args.seed, args.train_fraction, data_id)

    data = load_training_data(args.data, cfg.maxLen, args.tokenize_workers, quiet=not dist_.main)
    train_groups, val_groups = split_groups(data.group_labels(), split["seed"], split["trainFraction"])
    if not train_groups:
        raise SystemExit("No training groups: the dataset needs groups with both a correct and an incorrect candidate.")
    k = max(1, args.groups_per_step)
    per_step = k * dist_.world
    steps_per_epoch = math.ceil(len(train_groups) / per_step)
    total_steps = args.epochs * steps_per_epoch
    warmup = warmup_steps(total_steps, args.warmup_ratio)

    torch.manual_seed(args.seed)
    model = TransEBM(cfg)
    if ckpt is not None:
        model.load_state_dict(ckpt["model"])
    elif init_model is not None:
        load_arrays(model, state_dict_arrays(init_model))
    model.to(device)
    model.train()
    if dist_.enabled:
        ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)
    else:
        ddp = model
    opt = make_optimizer(model, args.lr, args.weight_decay)
    amp = autocast_dtype(args.precision, device)
    scaler = torch.cuda.amp.GradScaler() if amp == torch.float16 else None

    state = {"step": 0, "epoch": 1, "s": 0, "best": None, "ema": 0.0, "loss_sum": 0.0, "loss_count": 0, "val0": False, "skipped": 0, "skipped_in_a_row": 0}
    if ckpt is not None:
        opt.load_state_dict(ckpt["optimizer"])
        if scaler is not None and ckpt.get("scaler"):
            scaler.load_state_dict(ckpt["scaler"])
        state.update(ckpt["state"])
        log(f"Resuming from {ckpt_path}: step {state['step']} of {total_steps}, epoch {state['epoch']}")
        if runtime:
            changed = ", ".join(f"{key} {ckpt['settings'].get(key)} → {v}" for key, v in runtime.items())
            log(f"Resuming with other runtime settings than the checkpoint's ({changed}); the files keep recording the run's settings.")

    metrics = MetricsLog(os.path.join(args.out, "metrics.jsonl"), dist_.main, state["step"] if ckpt is not None else None)
    metrics.write(
        {
            "type": "resume" if ckpt is not None else "config",
            "version": __version__,
            "config": cfg.to_dict(),
            "settings": settings,
            "split": split,
            "trainGroups": len(train_groups),
            "valGroups": len(val_groups),
            "candidates": data.dataset.candidate_count,
            "rejectedLines": data.dataset.report.rejected,
            "atMaxLen": data.at_max_len,
            "stepsPerEpoch": steps_per_epoch,
            "totalSteps": total_steps,
            "warmupSteps": warmup,
            "device": str(device),
            "autocast": str(amp) if amp else None,
            "step": state["step"],
            **({"resumedWith": runtime} if runtime else {}),
        }
    )
    log(f"{len(train_groups)} train / {len(val_groups)} val groups, {steps_per_epoch} steps per epoch × {args.epochs} epochs, {dist_.world} rank(s) × {k} group(s) per step, device {device}{', autocast ' + str(amp) if amp else ''}")

    def summary(extra: Dict) -> Dict:
        # `split` is the contract's record; splitSeed and settings.seed/train_fraction stay for older readers.
        return {"source": "eorm python", "dataset": os.path.basename(args.data), "trainGroups": len(train_groups), "valGroups": len(val_groups), "split": split, "splitSeed": split["seed"], "settings": settings, **extra}

    def save_model(name: str, extra: Dict) -> None:
        if dist_.main:
            atomic_write(os.path.join(args.out, name), write_model(cfg, state_dict_arrays(model), training=summary(extra)))

    def save_checkpoint() -> None:
        if dist_.main:
            blob = {"cfg": cfg.to_dict(), "settings": settings, "split": split, "model": model.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict() if scaler else None, "state": dict(state)}
            write_checkpoint(os.path.join(args.out, "checkpoint.pt"), blob)

    def run_validation(epoch: int, epoch_loss: Optional[float]) -> None:
        if not val_groups:
            return
        ev = validate(model, data, val_groups, args.seed, dist_, amp, args.eval_batch_tokens, args.curve_subsets)
        model.train()
        if ev is None:
            return
        bon = ev["summary"]["bestOfN"]
        # As the app: the untrained model (epoch 0) is never the best checkpoint.
        is_best = epoch >= 1 and (state["best"] is None or bon > state["best"])
        if is_best:
            state["best"] = bon
        metrics.write({"type": "eval", "set": "val", "epoch": epoch, "step": state["step"], "epochTrainLoss": epoch_loss, "isBest": is_best, "time": time.time() - t_start, **ev})
        s = ev["summary"]
        progress.write(f"epoch {epoch} step {state['step']}: val Best-of-N {s['bestOfN']:.4f}, pairwise {s['pairwise']:.4f}, BT loss {s['btLoss']:.4f}" + (f", train loss {epoch_loss:.4f}" if epoch_loss is not None else "") + (" (best)" if is_best else ""))
        if is_best:
            save_model("best.safetensors", {"epoch": epoch, "step": state["step"], "valBestOfN": bon})

    progress = Progress(total_steps, state["step"], dist_.main and not args.quiet)
    t_steps = time.time()
    steps_timed = 0
    tokens_timed = 0
    stopped = False
    paused: Optional[str] = None
    if not state["val0"]:
        run_validation(0, None)
        state["val0"] = True
    epoch = state["epoch"]
    while epoch <= args.epochs and not (stopped or paused):
        order = list(train_groups)
        shuffle_in_place(order, Rng(mix_seed(args.seed, epoch)))
        if state["s"] == 0:
            state["loss_sum"], state["loss_count"] = 0.0, 0
        for s in range(state["s"], steps_per_epoch):
            if args.max_steps and state["step"] >= args.max_steps:
                stopped = True
                break
            step = state["step"]
            step_groups = order[s * per_step : (s + 1) * per_step]
            mine = step_groups[dist_.rank * k : (dist_.rank + 1) * k]
            lr = cosine_with_warmup(step, args.lr, warmup, total_steps)
            for g in opt.param_groups:
                g["lr"] = lr
            opt.zero_grad(set_to_none=True)
            seed_base = mix_seed(mix_seed(args.seed ^ 0x5EED, step), dist_.rank)
            local = train_step(ddp, model, data, mine, len(step_groups), dist_.world, seed_base, device, args.micro_batch, amp, scaler)
            # The loss is all-reduced and the norm is of the all-reduced gradients: every rank decides alike.
            loss = float(dist_.all_sum(local.reshape(1).clone())[0])
            grad_norm = optimizer_step(model, opt, args.max_grad_norm, scaler, loss_finite=math.isfinite(loss))
            state["step"] = step + 1
            state["s"] = s + 1
            steps_timed += 1
            tokens_timed += sum(len(data.ids[i]) for i in data.candidates(step_groups))
            if math.isfinite(loss) and math.isfinite(grad_norm):
                state["skipped_in_a_row"] = 0
                state["ema"] = SMOOTHING * state["ema"] + (1 - SMOOTHING) * loss
                state["loss_sum"] += loss
                state["loss_count"] += 1
                if step % max(1, args.log_every) == 0:
                    elapsed = time.time() - t_steps
                    metrics.write(
                        {
                            "type": "step",
                            "step": step,
                            "epoch": epoch,
                            "loss": loss,
                            "smoothed": state["ema"] / (1 - SMOOTHING ** (step + 1)),
                            "lr": lr,
                            "gradNorm": grad_norm,
                            "stepsPerSec": steps_timed / elapsed if elapsed > 0 else None,
                            "tokensPerSec": tokens_timed / elapsed if elapsed > 0 else None,
                        }
                    )
            else:
                # Skipped (see optimizer_step): counted, kept out of the curve and the epoch's mean, as in the app.
                # Under fp16's loss scaler an overflowing gradient is the scaler's own business, not divergence.
                state["skipped"] += 1
                if not (math.isfinite(loss) and scaler is not None):
                    state["skipped_in_a_row"] += 1
                metrics.write({"type": "skip", "step": step, "epoch": epoch, "loss": loss, "gradNorm": grad_norm, "lr": lr, "inARow": state["skipped_in_a_row"]})
                if state["skipped_in_a_row"] >= NON_FINITE_PAUSE:
                    what = "non-finite gradient norm" if math.isfinite(loss) else "non-finite loss"
                    paused = (
                        f"Paused: {state['skipped_in_a_row']} steps in a row (up to step {step}) had a {what}, so their updates were skipped. "
                        "Lower the learning rate (or raise warmup) and start again (--resume never), or run the same command again to resume "
                        "from checkpoint.pt and try on."
                    )
                    state["skipped_in_a_row"] = 0  # as the app after a pause: a resume tries three more
            progress.update(state["step"], {"epoch": epoch, "loss": f"{loss:.4f}", "lr": f"{lr:.2e}"})
            if paused:
                break
            if args.eval_every > 0 and state["step"] % args.eval_every == 0 and s + 1 < steps_per_epoch:
                run_validation(epoch, None)
            if args.save_every > 0 and state["step"] % args.save_every == 0 and s + 1 < steps_per_epoch:
                save_checkpoint()
        if stopped or paused:
            break
        epoch_loss = state["loss_sum"] / state["loss_count"] if state["loss_count"] else None
        run_validation(epoch, epoch_loss)
        state["epoch"], state["s"] = epoch + 1, 0
        save_model("model.safetensors", {"epoch": epoch, "step": state["step"], "epochTrainLoss": epoch_loss})
        save_checkpoint()
        epoch += 1
    progress.close()
    if stopped or paused:
        save_model("model.safetensors", {"epoch": state["epoch"], "step": state["step"], **({"paused": paused} if paused else {"stopped": True})})
        save_checkpoint()
    reason = "paused" if paused else "stopped" if stopped else "finished"
    result = {"type": "end", "reason": reason, "steps": state["step"], "skippedSteps": state["skipped"], "bestValBestOfN": state["best"], "seconds": time.time() - t_start}
    if paused:
        result["message"] = paused
        log(paused)
    metrics.write(result)
    metrics.close()
    dist_.barrier()
    return result


def main(argv: Optional[List[str]] = None) -> None:
    result = run(argv)
    if int(os.environ.get("RANK", "0")) == 0:
        print(json.dumps(finite(result)))
    if result["reason"] == "paused":
        raise SystemExit(3)  # not finished: a scheduler sees it; the reason is on stderr


if __name__ == "__main__":
    main()
