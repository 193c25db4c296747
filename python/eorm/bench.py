"""Speed of the app's training step and scoring in PyTorch on this machine's CPU (or GPU), for `npm run bench`.

    python3 -m eorm.bench --data FILE.jsonl --preset tiny --threads 2 --steps 40
    python3 -m eorm.bench --data FILE.jsonl --preset paper --max-len 512 --device cuda
    python3 -m eorm.bench --data FILE.jsonl --modes eager,amp,graphs      (CUDA's default: all three)

Trains the same model on the same data with the same step as the app (one group per step in the order of
the app's first epoch, dropout, BT loss, global-norm clipping, AdamW), times the steps after a warm-up, then
scores the validation split in eval mode. Tokens are real tokens (no padding counted). Each mode of
training/bench_modes.py (eager float32, AMP, AMP + CUDA graphs) trains a fresh model of the same seed, with its
tokens/s and peak GPU memory, or the reason it cannot run here. Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from .training.bench_modes import MODES, BucketPadded, ModePlan, amp_optimizer_step, make_mode_optimizer, make_scaler, plan_mode, shapes_of
from .config import PRESETS, make_config
from .dataset import load_training_data_or_exit
from .model import TransEBM, score_candidates
from .rng import Rng, mix_seed, shuffle_in_place
from .split import split_groups
from .training.step import make_optimizer, optimizer_step, train_step


def blas_name() -> str:
    """The BLAS this process loaded (from its memory map; Linux), as the bench's table names it."""
    try:
        with open("/proc/self/maps") as f:
            maps = f.read()
    except OSError:
        return "BLAS unknown"
    if "openblas" in maps:
        return "OpenBLAS"
    if "mkl" in maps:
        return "MKL"
    if "/blas/libblas" in maps:
        return "reference BLAS"
    return "BLAS unknown"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", required=True)
    p.add_argument("--preset", default="tiny", choices=sorted(PRESETS))
    p.add_argument("--max-len", type=int, default=None)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--steps", type=int, default=40, help="timed steps (after --warmup untimed ones)")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--seconds", type=float, default=60.0, help="stop timing steps after this long (each mode)")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", default="cpu", help="torch device: cpu, cuda, cuda:1, …")
    p.add_argument("--modes", default=None, help=f"comma-separated, of {', '.join(MODES)} (bench_modes.py); default: all on CUDA, eager on CPU")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    shape = dict(PRESETS[args.preset])
    if args.max_len:
        shape["maxLen"] = args.max_len
    cfg = make_config(**shape)
    data = load_training_data_or_exit(args.data, cfg.maxLen, quiet=True)
    train, val = split_groups(data.group_labels(), seed=args.seed)
    order = list(train)
    shuffle_in_place(order, Rng(mix_seed(args.seed, 1)))
    device = torch.device(args.device)
    names = (args.modes or ("eager,amp,graphs" if device.type == "cuda" else "eager")).split(",")
    modes = {}
    score = None
    for name in names:
        plan = plan_mode(name, device)
        if isinstance(plan, str):
            modes[name] = {"skipped": plan}
            continue
        torch.manual_seed(args.seed)
        model = TransEBM(cfg).to(device)
        try:
            modes[name] = run_mode(plan, model, data, order, args, device)
        except Exception as e:  # a mode failing (a compiler's error) is reported beside the others
            modes[name] = {"skipped": f"failed: {type(e).__name__}: {str(e)[-400:]}"}
        if name == "eager" and "skipped" not in modes[name]:
            score = time_scoring(model, data, val, device)
        del model
        if device.type == "cuda":
            torch.cuda.empty_cache()
    ran = [m for m in modes.values() if "skipped" not in m]
    print(json.dumps({
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "blas": blas_name(),
        "device": str(device),
        "deviceName": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "preset": args.preset,
        "maxLen": cfg.maxLen,
        "dModel": cfg.dModel,
        # The first mode that ran (eager float32 by default): the figures the bench always read.
        "train": ran[0]["train"] if ran else None,
        "score": score,
        "modes": modes,
    }))


def sync(device: torch.device) -> None:
    # CUDA runs asynchronously: a clock is read only once the device has finished its queue.
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def run_mode(plan: ModePlan, model: TransEBM, data, order, args, device: torch.device) -> dict:
    """Trains `model` on `order`'s groups in the mode `plan` (bench_modes.py): warm-up, then timed steps."""
    model.train()
    cuda = device.type == "cuda"
    if cuda:
        torch.cuda.reset_peak_memory_stats(device)
    scaler = make_scaler(plan)
    if plan.name == "eager":
        opt, opt_name = make_optimizer(model, 1e-4, 0.01), "AdamW"
    else:
        opt, opt_name = make_mode_optimizer(model, plan, device, 1e-4, 0.01)
    net = BucketPadded(torch.compile(model, mode="reduce-overhead"), model.cfg.padId, model.cfg.maxLen) if plan.compiled else model

    def step(s: int, g: int) -> None:
        opt.zero_grad(set_to_none=True)
        if plan.compiled:
            torch.compiler.cudagraph_mark_step_begin()
        train_step(net, model, data, [g], 1, 1, mix_seed(args.seed ^ 0x5EED, s), device, 0, plan.amp, scaler)
        if plan.name == "eager":
            optimizer_step(model, opt, 1.0)  # as the bench always timed it (it reads the norm back)
        else:
            amp_optimizer_step(model, opt, 1.0, scaler)

    # Compiled: each padded shape run three times (CUDA graph trees warm up, record, then replay).
    sizes = lambda g: (len(data.candidates([g])), max(len(data.ids[i]) for i in data.candidates([g])))
    warm = [g for g in shapes_of(order, sizes, model.cfg.maxLen) for _ in range(3)] if plan.compiled else [order[s % len(order)] for s in range(args.warmup)]
    for s, g in enumerate(warm):
        step(s, g)
    sync(device)
    tokens = timed = 0
    t0 = time.perf_counter()
    for s in range(args.steps):
        g = order[(args.warmup + s) % len(order)]
        step(len(warm) + s, g)
        timed += 1
        tokens += sum(len(data.ids[i]) for i in data.candidates([g]))
        if time.perf_counter() - t0 > args.seconds:
            break
    sync(device)
    train_s = time.perf_counter() - t0
    out = {"label": plan.label, "optimizer": opt_name, "warmupSteps": len(warm),
           "train": {"steps": timed, "seconds": train_s, "stepsPerSec": timed / train_s, "tokensPerSec": tokens / train_s}}
    if cuda:
        out["peakBytes"] = torch.cuda.max_memory_allocated(device)
        out["peakReservedBytes"] = torch.cuda.max_memory_reserved(device)
    if scaler is not None:
        out["lossScale"] = float(scaler.get_scale())
    return out


def time_scoring(model: TransEBM, data, val, device: torch.device) -> dict:
    """The validation split scored in eval mode (eager float32)."""
    model.eval()
    cands = [data.ids[i] for i in data.candidates(val)]
    with torch.no_grad():
        t1 = time.perf_counter()
        score_candidates(model, cands, device)
        sync(device)
        score_s = time.perf_counter() - t1
    tokens = sum(len(c) for c in cands)
    return {"candidates": len(cands), "tokens": tokens, "seconds": score_s, "candidatesPerSec": len(cands) / score_s, "tokensPerSec": tokens / score_s}


if __name__ == "__main__":
    main()
