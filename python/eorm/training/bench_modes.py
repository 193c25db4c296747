"""PyTorch's training step three ways for the bench (`python -m eorm.bench --modes eager,amp,graphs`), so the
app is compared with PyTorch as the paper trained (AMP) and as a careful user would run it (AMP + CUDA graphs):

    eager   float32, no autocast: the step the bench always timed (its figures continue the old ones)
    amp     autocast float16 with GradScaler on CUDA (the reference's --fp16); on CPU bfloat16 autocast,
            which needs no scaler (float16 autocast is CUDA's)
    graphs  amp with the model compiled by torch.compile(mode="reduce-overhead"), which records CUDA
            graphs and replays them, as the app replays its steps; batches padded to the app's replayed
            shapes (shape_buckets.py) so that few graphs exist, one recorded per shape before the timing

A mode that cannot run here gives the reason instead (CUDA graphs need CUDA and torch 2's compile).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple, Union

import torch
import torch.nn.functional as F
from torch import nn

from .shape_buckets import bucket_up, padded_length
from .step import zero_loss_free_grads

MODES = ("eager", "amp", "graphs")


@dataclass
class ModePlan:
    name: str
    # autocast dtype, or None for float32
    amp: Optional[torch.dtype]
    # float16 needs a loss scaler; bfloat16 (float32's exponent range) does not
    scaled: bool
    compiled: bool
    # what the mode is, in words for the table
    label: str


def _has_compile() -> bool:
    return hasattr(torch, "compile") and hasattr(torch, "compiler") and hasattr(torch.compiler, "cudagraph_mark_step_begin")


def plan_mode(name: str, device: torch.device) -> Union[ModePlan, str]:
    """The mode's plan on `device`, or why it cannot run there."""
    cuda = device.type == "cuda"
    if name == "eager":
        return ModePlan("eager", None, False, False, "eager float32")
    if name == "amp":
        if cuda:
            return ModePlan("amp", torch.float16, True, False, "AMP float16 + GradScaler")
        if not _cpu_bf16_autocast():
            return f"torch {torch.__version__} has no bfloat16 autocast on CPU"
        return ModePlan("amp", torch.bfloat16, False, False, "AMP bfloat16 (CPU autocast, no scaler)")
    if name == "graphs":
        if not cuda:
            return "CUDA graphs need a CUDA device"
        if not _has_compile():
            return f"torch {torch.__version__} cannot: torch.compile(mode='reduce-overhead') needs torch 2.1 or later"
        return ModePlan("graphs", torch.float16, True, True, "AMP float16 + CUDA graphs (torch.compile reduce-overhead)")
    raise ValueError(f"unknown mode {name!r}; have {', '.join(MODES)}")


def _cpu_bf16_autocast() -> bool:
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return torch.ones(2, 2).matmul(torch.ones(2, 2)).dtype == torch.bfloat16
    except (RuntimeError, TypeError):
        return False


def make_scaler(plan: ModePlan):
    """GradScaler with PyTorch's defaults (scale 2^16, halved on overflow, doubled after 2000 clean steps)."""
    if not plan.scaled:
        return None
    if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):
        return torch.amp.GradScaler("cuda")
    return torch.cuda.amp.GradScaler()


def make_mode_optimizer(model: nn.Module, plan: ModePlan, device: torch.device, lr: float, weight_decay: float) -> Tuple[torch.optim.Optimizer, str]:
    """AdamW as the app's (make_optimizer's hyper-parameters); in the AMP modes on CUDA the fused one where
    this torch has it: with a GradScaler it checks for overflow on the device, so no step waits for the host."""
    fused = plan.amp is not None and device.type == "cuda" and "fused" in inspect.signature(torch.optim.AdamW.__init__).parameters
    kw = {"fused": True} if fused else {}
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=weight_decay, **kw)
    return opt, "AdamW fused" if fused else "AdamW"


def amp_optimizer_step(model: nn.Module, opt: torch.optim.Optimizer, max_grad_norm: float, scaler) -> None:
    """The app's step after the gradients (loss-free entries zeroed, global-norm clipping, AdamW) without
    reading anything back: an overflowing step is skipped by the scaler (the AMP rule), as the app's
    non-finite rule skips it."""
    if scaler is not None:
        scaler.unscale_(opt)
    zero_loss_free_grads(model)
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    if scaler is not None:
        scaler.step(opt)
        scaler.update()
    else:
        opt.step()


class BucketPadded(nn.Module):
    """`net` on batches padded to the app's replayed shapes: candidates to bucket_up(B) (pad-only extras,
    length 1, their energies dropped), length to padded_length(T). Padded keys are masked out, so the
    real candidates' energies are unchanged; only the shapes repeat (one CUDA graph each)."""

    def __init__(self, net: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], pad_id: int, max_len: int) -> None:
        super().__init__()
        self.net = net
        self.pad_id = pad_id
        self.max_len = max_len

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        nb, tb = bucket_up(B), padded_length(T, self.max_len)
        ids = F.pad(ids, (0, tb - T, 0, nb - B), value=self.pad_id)
        lengths = F.pad(lengths, (0, nb - B), value=1)
        return self.net(ids, lengths)[:B]


def shapes_of(groups: List[int], group_sizes: Callable[[int], Tuple[int, int]], max_len: int) -> List[int]:
    """One group per distinct padded shape, in first-seen order: a warm-up over them records every graph
    the timed steps will replay. group_sizes(g) = (candidates, longest length)."""
    seen = {}
    for g in groups:
        n, longest = group_sizes(g)
        seen.setdefault((bucket_up(n), padded_length(longest, max_len)), g)
    return list(seen.values())
