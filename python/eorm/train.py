"""Train a TransEBM with the app's recipe, on one process or many (torchrun + DistributedDataParallel).

    torchrun --nproc_per_node N -m eorm.train --data FILE.jsonl --preset tiny|small|paper \\
        [--d-model … --max-len … --epochs … --lr … --seed …] --out DIR

The recipe is the app's (src/engine/train/loop.ts): the seeded 80/20 group split, epochs over the training
groups reshuffled with mixSeed(seed, epoch), `--groups-per-step` groups per rank and step, the group-wise
Bradley-Terry loss, AdamW (0.9, 0.999, 1e-8, wd on every parameter), global-norm clipping, cosine schedule
with linear warmup, validation before training and at every epoch end, best model by val Best-of-N.

Distributed: step s of an epoch takes the next N·k groups of the epoch's order; rank r trains groups
[r·k, (r+1)·k) of them, and the loss is the mean over all N·k groups (each rank's sum of group losses is
divided by the global group count, DDP's gradient averaging is undone), so N ranks × k groups per step are
one process with N·k groups per step. Backend: nccl on GPUs, gloo on CPU. bf16/fp16 autocast on GPUs.

Writes DIR/model.safetensors (latest weights, every epoch), DIR/best.safetensors (best val Best-of-N),
DIR/checkpoint.pt (resumable: model, optimizer, position in the run) and DIR/metrics.jsonl.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time
from dataclasses import replace
from typing import Dict, List, Optional

import torch
import torch.distributed as dist
import torch.nn.functional as F

from . import __version__
from .config import DEFAULT_TRAIN, GPT2_EOT, GPT2_VOCAB, PRESETS, ModelConfig, make_config
from .dataset import TrainingData, load_training_data
from .metrics import best_of_n_curve, energy_histogram, evaluate_groups
from .model import TransEBM, load_arrays, pad_batch, score_candidates, state_dict_arrays
from .rng import Rng, mix_seed, shuffle_in_place
from .schedule import cosine_with_warmup, warmup_steps
from .split import split_groups
from .weights import load_model_file, write_model

SMOOTHING = 0.95
CURVE_SUBSETS = 64
HISTOGRAM_BINS = 30


class DivergedError(RuntimeError):
    def __init__(self, step: int) -> None:
        super().__init__(f"The loss became NaN or infinite at step {step}. Lower the learning rate (or raise warmup) and start again.")


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
    t.add_argument("--seed", type=int, default=DEFAULT_TRAIN["seed"], help="split, shuffle, initialisation and dropout")
    t.add_argument("--warmup-ratio", type=float, default=DEFAULT_TRAIN["warmupRatio"])
    t.add_argument("--weight-decay", type=float, default=DEFAULT_TRAIN["weightDecay"])
    t.add_argument("--max-grad-norm", type=float, default=DEFAULT_TRAIN["maxGradNorm"])
    t.add_argument("--groups-per-step", type=int, default=DEFAULT_TRAIN["groupsPerStep"], help="groups per rank and step (global batch = ranks × this)")
    t.add_argument("--micro-batch", type=int, default=0, help="candidates per forward/backward pass (0 = the whole step in one pass)")
    t.add_argument("--train-fraction", type=float, default=0.8)
    t.add_argument("--eval-every", type=int, default=0, help="also validate every N steps (0 = at epoch ends only)")
    t.add_argument("--init", help="start from these weights (e.g. a model exported from the app); its config wins over the model flags")
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


class Dist:
    def __init__(self, device_arg: str) -> None:
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        want_cuda = device_arg == "cuda" or (device_arg == "auto" and torch.cuda.is_available())
        if device_arg.startswith("cuda:"):
            want_cuda = True
        if want_cuda:
            self.device = torch.device(device_arg if device_arg.startswith("cuda:") else f"cuda:{self.local_rank}")
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")
        self.enabled = self.world > 1
        if self.enabled:
            dist.init_process_group("nccl" if self.device.type == "cuda" else "gloo", timeout=datetime.timedelta(minutes=60))

    @property
    def main(self) -> bool:
        return self.rank == 0

    def barrier(self) -> None:
        if self.enabled:
            dist.barrier()

    def all_sum(self, t: torch.Tensor) -> torch.Tensor:
        if self.enabled:
            dist.all_reduce(t, op=dist.ReduceOp.SUM)
        return t

    def close(self) -> None:
        if self.enabled:
            dist.destroy_process_group()


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


class Progress:
    """tqdm when installed (and wanted), else a plain line every few seconds."""

    def __init__(self, total: int, initial: int, enabled: bool) -> None:
        self.bar = None
        self.enabled = enabled
        self.last = 0.0
        self.total = total
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=initial, unit="step", dynamic_ncols=True)
            except ImportError:
                pass

    def update(self, step: int, info: Dict) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(info, refresh=False)
        elif time.time() - self.last > 5 or step == self.total:
            self.last = time.time()
            print(f"step {step}/{self.total} " + " ".join(f"{k} {v}" for k, v in info.items()), flush=True)

    def write(self, text: str) -> None:
        if self.bar is not None:
            self.bar.write(text)
        elif self.enabled:
            print(text, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class MetricsLog:
    """metrics.jsonl (and TensorBoard when installed); rank 0 only."""

    def __init__(self, path: str, enabled: bool, keep_until_step: Optional[int]) -> None:
        self.enabled = enabled
        self.tb = None
        if not enabled:
            return
        if keep_until_step is not None and os.path.exists(path):
            # Resuming: drop what was logged after the checkpoint, so the file reads as one run.
            kept = []
            with open(path, encoding="utf-8") as f:
                for line in f:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    kind = rec.get("type")
                    if kind == "step" and rec.get("step", 0) >= keep_until_step:
                        continue
                    if kind == "eval" and rec.get("step", 0) > keep_until_step:
                        continue
                    if kind == "end":
                        continue
                    kept.append(line if line.endswith("\n") else line + "\n")
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(kept)
            self.file = open(path, "a", encoding="utf-8")
        else:
            self.file = open(path, "w", encoding="utf-8")
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(os.path.join(os.path.dirname(path), "tensorboard"))
        except Exception:
            self.tb = None

    def write(self, rec: Dict) -> None:
        if not self.enabled:
            return
        self.file.write(json.dumps(_finite(rec), separators=(",", ":")) + "\n")
        self.file.flush()
        if self.tb is None:
            return
        if rec["type"] == "step":
            for k in ("loss", "smoothed", "lr", "gradNorm"):
                self.tb.add_scalar(f"train/{k}", rec[k], rec["step"])
        elif rec["type"] == "eval":
            s = rec["summary"]
            for k in ("bestOfN", "pairwise", "btLoss", "meanMargin"):
                if isinstance(s.get(k), float) and math.isfinite(s[k]):
                    self.tb.add_scalar(f"val/{k}", s[k], rec["step"])

    def close(self) -> None:
        if self.enabled:
            self.file.close()
            if self.tb is not None:
                self.tb.close()


def _finite(v):
    """JSON has no NaN/Infinity: they become null (as JSON.stringify writes them)."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x) for x in v]
    return v


def _atomic_write(path: str, data: bytes) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


# ---- one step ------------------------------------------------------------------------------------------


def pair_weights(labels: List[int], group_of: List[int], n_global_groups: int, device) -> torch.Tensor:
    """W_ij = 1 / (P_g · Q_g · G) for i correct and j incorrect in the same group g; G = global groups in the step."""
    lab = torch.tensor(labels, dtype=torch.bool)
    grp = torch.tensor(group_of, dtype=torch.long)
    n_groups = int(grp.max()) + 1
    pos = torch.bincount(grp[lab], minlength=n_groups).double()
    neg = torch.bincount(grp[~lab], minlength=n_groups).double()
    per_group = torch.where((pos > 0) & (neg > 0), 1.0 / (pos * neg * n_global_groups).clamp(min=1), torch.zeros_like(pos))
    mask = lab[:, None] & ~lab[None, :] & (grp[:, None] == grp[None, :])
    w = torch.where(mask, per_group[grp][:, None].expand(-1, len(labels)), torch.zeros(()).double())
    return w.float().to(device)


def bt_loss(e: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Σ_ij W_ij · softplus(E_i − E_j) (mean over pairs within a group, sum/G over groups)."""
    return (w * F.softplus(e[:, None] - e[None, :])).sum()


def train_step(ddp, module: TransEBM, data: TrainingData, groups: List[int], n_global: int, world: int, seed_base: int, device, micro_batch: int, amp: Optional[torch.dtype], scaler) -> torch.Tensor:
    """Forward + backward of this rank's groups; returns this rank's share of the global loss (sum of its
    group losses / n_global), detached. Gradients end up averaged over ranks by DDP = the global mean."""
    cand = data.candidates(groups)
    if not cand:
        # Fewer groups than ranks in the epoch's last step: join the gradient all-reduce with zeros.
        ids, lengths = pad_batch([[module.cfg.clsId]], module.cfg.padId, device)
        with torch.autocast(device.type, dtype=amp, enabled=amp is not None):
            loss = ddp(ids, lengths).float().sum() * 0.0
        (scaler.scale(loss) if scaler else loss).backward()
        return torch.zeros((), device=device)
    labels = [data.labels[i] for i in cand]
    group_of = []
    for k, g in enumerate(groups):
        group_of += [k] * (data.group_start[g + 1] - data.group_start[g])
    w = pair_weights(labels, group_of, n_global, device)
    # DDP averages gradients over ranks; the loss is a global mean, so scale this rank's part back up.
    scale = float(world)
    n = len(cand)
    size = n if micro_batch <= 0 else min(micro_batch, n)
    chunks = [(s, min(n, s + size)) for s in range(0, n, size)]

    def energies(c: int, net) -> torch.Tensor:
        s, e = chunks[c]
        torch.manual_seed(mix_seed(seed_base, c))
        ids, lengths = pad_batch([data.ids[i] for i in cand[s:e]], module.cfg.padId, device)
        with torch.autocast(device.type, dtype=amp, enabled=amp is not None):
            return net(ids, lengths).float()

    if len(chunks) == 1:
        loss = bt_loss(energies(0, ddp), w)
        (scaler.scale(loss * scale) if scaler else loss * scale).backward()
        return loss.detach()
    # Micro-batched: energies without gradients, dL/dE in closed form, then Σ stopgrad(dL/dE_i)·E_i chunk by
    # chunk with the same dropout masks (same seeds), gradients accumulated; one all-reduce at the end.
    with torch.no_grad():
        e_all = torch.cat([energies(c, module) for c in range(len(chunks))])
    e_all.requires_grad_(True)
    loss = bt_loss(e_all, w)
    (d_e,) = torch.autograd.grad(loss, e_all)
    for c, (s, e) in enumerate(chunks):
        last = c == len(chunks) - 1
        ctx = ddp.no_sync() if (not last and hasattr(ddp, "no_sync")) else _null()
        with ctx:
            surrogate = (d_e[s:e] * energies(c, ddp)).sum() * scale
            (scaler.scale(surrogate) if scaler else surrogate).backward()
    return loss.detach()


def optimizer_step(model: TransEBM, opt: torch.optim.Optimizer, max_grad_norm: float, scaler=None) -> float:
    """Global-norm clipping (torch's clip_grad_norm_: coef = max_norm / (norm + 1e-6), at most 1) and one AdamW
    step; returns the gradient norm before clipping."""
    if scaler is not None:
        scaler.unscale_(opt)
    grad_norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm))
    if scaler is not None:
        scaler.step(opt)
        scaler.update()
    else:
        opt.step()
    return grad_norm


def make_optimizer(model: TransEBM, lr: float, weight_decay: float) -> torch.optim.Optimizer:
    """AdamW as the app and the reference: betas (0.9, 0.999), eps 1e-8, decoupled decay on every parameter."""
    return torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=weight_decay)


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


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

RESUME_KEYS = ("data", "epochs", "lr", "seed", "warmup_ratio", "weight_decay", "max_grad_norm", "train_fraction", "global_groups_per_step")


def run(argv: Optional[List[str]] = None) -> Dict:
    args = build_parser().parse_args(argv)
    dist_ = Dist(args.device)
    try:
        return _run(args, dist_)
    finally:
        dist_.close()


def _run(args, dist_: Dist) -> Dict:
    t_start = time.time()
    device = dist_.device
    os.makedirs(args.out, exist_ok=True)
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if dist_.main else (lambda *a: None)

    ckpt_path = os.path.join(args.out, "checkpoint.pt") if args.resume == "auto" else (None if args.resume == "never" else args.resume)
    ckpt = None
    if ckpt_path and os.path.exists(ckpt_path):
        ckpt = torch.load(ckpt_path, map_location="cpu")
    elif args.resume not in ("auto", "never"):
        raise SystemExit(f"--resume {args.resume}: no such checkpoint")

    init_cfg = None
    init_model = None
    if ckpt is not None:
        init_cfg = ModelConfig(**ckpt["cfg"])
    elif args.init:
        init_model, loaded = load_model_file(args.init)
        init_cfg = loaded.cfg
        for w in loaded.warnings:
            log(f"--init {args.init}: {w}")
        log(f"Continuing from {args.init} (its config wins over the model flags): {init_cfg}")
    cfg = model_config(args, init_cfg)

    data = load_training_data(args.data, cfg.maxLen, args.tokenize_workers, quiet=not dist_.main)
    train_groups, val_groups = split_groups(data.group_labels(), args.seed, args.train_fraction)
    if not train_groups:
        raise SystemExit("No training groups: the dataset needs groups with both a correct and an incorrect candidate.")
    k = max(1, args.groups_per_step)
    per_step = k * dist_.world
    steps_per_epoch = math.ceil(len(train_groups) / per_step)
    total_steps = args.epochs * steps_per_epoch
    warmup = warmup_steps(total_steps, args.warmup_ratio)
    settings = {
        "data": os.path.abspath(args.data),
        "epochs": args.epochs,
        "lr": args.lr,
        "seed": args.seed,
        "warmup_ratio": args.warmup_ratio,
        "weight_decay": args.weight_decay,
        "max_grad_norm": args.max_grad_norm,
        "train_fraction": args.train_fraction,
        "global_groups_per_step": per_step,
        "groups_per_step": k,
        "world_size": dist_.world,
        "micro_batch": args.micro_batch,
        "precision": args.precision,
        "preset": args.preset if init_cfg is None else "custom",
    }
    if ckpt is not None:
        saved = ckpt["settings"]
        diff = [key for key in RESUME_KEYS if saved.get(key) != settings[key]]
        if diff:
            changes = ", ".join(f"{d}: {saved.get(d)} → {settings[d]}" for d in diff)
            raise SystemExit(f"{ckpt_path} was written by a run with other settings ({changes}). Use another --out, or --resume never to start over.")

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

    state = {"step": 0, "epoch": 1, "s": 0, "best": None, "ema": 0.0, "loss_sum": 0.0, "loss_count": 0, "val0": False}
    if ckpt is not None:
        opt.load_state_dict(ckpt["optimizer"])
        if scaler is not None and ckpt.get("scaler"):
            scaler.load_state_dict(ckpt["scaler"])
        state.update(ckpt["state"])
        log(f"Resuming from {ckpt_path}: step {state['step']} of {total_steps}, epoch {state['epoch']}")

    metrics = MetricsLog(os.path.join(args.out, "metrics.jsonl"), dist_.main, state["step"] if ckpt is not None else None)
    metrics.write(
        {
            "type": "resume" if ckpt is not None else "config",
            "version": __version__,
            "config": cfg.to_dict(),
            "settings": settings,
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
        }
    )
    log(f"{len(train_groups)} train / {len(val_groups)} val groups, {steps_per_epoch} steps per epoch × {args.epochs} epochs, {dist_.world} rank(s) × {k} group(s) per step, device {device}{', autocast ' + str(amp) if amp else ''}")

    def summary(extra: Dict) -> Dict:
        return {"source": "eorm python", "dataset": os.path.basename(args.data), "trainGroups": len(train_groups), "valGroups": len(val_groups), "settings": settings, **extra}

    def save_model(name: str, extra: Dict) -> None:
        if dist_.main:
            _atomic_write(os.path.join(args.out, name), write_model(cfg, state_dict_arrays(model), training=summary(extra)))

    def save_checkpoint() -> None:
        if dist_.main:
            blob = {"cfg": cfg.to_dict(), "settings": settings, "model": model.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict() if scaler else None, "state": dict(state)}
            tmp = f"{os.path.join(args.out, 'checkpoint.pt')}.tmp"
            torch.save(blob, tmp)
            os.replace(tmp, os.path.join(args.out, "checkpoint.pt"))

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
    if not state["val0"]:
        run_validation(0, None)
        state["val0"] = True
    epoch = state["epoch"]
    while epoch <= args.epochs and not stopped:
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
            loss = float(dist_.all_sum(local.reshape(1).clone())[0])
            if not math.isfinite(loss):
                raise DivergedError(step)
            grad_norm = optimizer_step(model, opt, args.max_grad_norm, scaler)
            state["ema"] = SMOOTHING * state["ema"] + (1 - SMOOTHING) * loss
            state["loss_sum"] += loss
            state["loss_count"] += 1
            state["step"] = step + 1
            state["s"] = s + 1
            steps_timed += 1
            tokens_timed += sum(len(data.ids[i]) for i in data.candidates(step_groups))
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
            progress.update(state["step"], {"epoch": epoch, "loss": f"{loss:.4f}", "lr": f"{lr:.2e}"})
            if args.eval_every > 0 and state["step"] % args.eval_every == 0 and s + 1 < steps_per_epoch:
                run_validation(epoch, None)
            if args.save_every > 0 and state["step"] % args.save_every == 0 and s + 1 < steps_per_epoch:
                save_checkpoint()
        if stopped:
            break
        epoch_loss = state["loss_sum"] / state["loss_count"] if state["loss_count"] else None
        run_validation(epoch, epoch_loss)
        state["epoch"], state["s"] = epoch + 1, 0
        save_model("model.safetensors", {"epoch": epoch, "step": state["step"], "epochTrainLoss": epoch_loss})
        save_checkpoint()
        epoch += 1
    progress.close()
    if stopped:
        save_model("model.safetensors", {"epoch": state["epoch"], "step": state["step"], "stopped": True})
        save_checkpoint()
    result = {"type": "end", "reason": "stopped" if stopped else "finished", "steps": state["step"], "bestValBestOfN": state["best"], "seconds": time.time() - t_start}
    metrics.write(result)
    metrics.close()
    dist_.barrier()
    return result


def main(argv: Optional[List[str]] = None) -> None:
    result = run(argv)
    if int(os.environ.get("RANK", "0")) == 0:
        print(json.dumps(_finite(result)))


if __name__ == "__main__":
    main()
