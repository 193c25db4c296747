"""Speed of the app's training step and scoring in PyTorch on this machine's CPU (or GPU), for `npm run bench`.

    python3 -m eorm.bench --data FILE.jsonl --preset tiny --threads 2 --steps 40
    python3 -m eorm.bench --data FILE.jsonl --preset paper --max-len 512 --device cuda

Trains the same model on the same data with the same step as the app (one group per step in the order of
the app's first epoch, dropout, BT loss, global-norm clipping, AdamW), times the steps after a warm-up, then
scores the validation split in eval mode. Tokens are real tokens (no padding counted). Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import time

import torch

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
    p.add_argument("--seconds", type=float, default=60.0, help="stop timing steps after this long")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", default="cpu", help="torch device: cpu, cuda, cuda:1, …")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    shape = dict(PRESETS[args.preset])
    if args.max_len:
        shape["maxLen"] = args.max_len
    cfg = make_config(**shape)
    data = load_training_data_or_exit(args.data, cfg.maxLen, quiet=True)
    train, val = split_groups(data.group_labels(), seed=args.seed)
    order = list(train)
    shuffle_in_place(order, Rng(mix_seed(args.seed, 1)))
    device = torch.device(args.device)
    model = TransEBM(cfg).to(device)
    model.train()
    opt = make_optimizer(model, 1e-4, 0.01)

    def sync() -> None:
        # CUDA runs asynchronously: a clock is read only once the device has finished its queue.
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    tokens = 0
    timed = 0
    t0 = 0.0
    for s in range(args.warmup + args.steps):
        if s == args.warmup:
            sync()
            t0 = time.perf_counter()
        g = order[s % len(order)]
        opt.zero_grad(set_to_none=True)
        train_step(model, model, data, [g], 1, 1, mix_seed(args.seed ^ 0x5EED, s), device, 0, None, None)
        optimizer_step(model, opt, 1.0)
        if s >= args.warmup:
            timed += 1
            tokens += sum(len(data.ids[i]) for i in data.candidates([g]))
            if time.perf_counter() - t0 > args.seconds:
                break
    sync()
    train_s = time.perf_counter() - t0
    cands = [data.ids[i] for i in data.candidates(val)]
    with torch.no_grad():
        t1 = time.perf_counter()
        score_candidates(model, cands, device)
        sync()
        score_s = time.perf_counter() - t1
    print(json.dumps({
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "blas": blas_name(),
        "device": str(device),
        "deviceName": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "preset": args.preset,
        "maxLen": cfg.maxLen,
        "dModel": cfg.dModel,
        "train": {"steps": timed, "seconds": train_s, "stepsPerSec": timed / train_s, "tokensPerSec": tokens / train_s},
        "score": {"candidates": len(cands), "tokens": sum(len(c) for c in cands), "seconds": score_s,
                  "candidatesPerSec": len(cands) / score_s, "tokensPerSec": sum(len(c) for c in cands) / score_s},
    }))


if __name__ == "__main__":
    main()
