"""One training step of the app's recipe (src/engine/train/step/step.ts): the group-wise Bradley-Terry loss over a
rank's groups (optionally in micro-batches with the same gradients), global-norm clipping and AdamW, with
the app's rule for a non-finite step."""
from __future__ import annotations

import math
from contextlib import nullcontext
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F

from ..dataset import TrainingData
from ..model import TransEBM, pad_batch
from ..rng import mix_seed


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
        ctx = ddp.no_sync() if (not last and hasattr(ddp, "no_sync")) else nullcontext()
        with ctx:
            surrogate = (d_e[s:e] * energies(c, ddp)).sum() * scale
            (scaler.scale(surrogate) if scaler else surrogate).backward()
    return loss.detach()


def loss_free_range(name: str, d_model: int) -> Optional[Tuple[int, int]]:
    """The entries [start, end) of parameter `name` whose gradient is exactly 0 in exact arithmetic (as
    src/engine/train/step/lossFreeGradients.ts): the energy head's bias (the Bradley-Terry loss sees energy
    differences within a group) and each layer's attention key bias (q·b_k is the same for every key of a
    query; softmax drops it). None for a parameter without any."""
    if name == "head.3.bias":
        return (0, 1)
    if name.endswith("self_attn.in_proj_bias"):
        return (d_model, 2 * d_model)
    return None


def zero_loss_free_grads(model: TransEBM) -> None:
    """Sets the loss-free gradient entries to exactly 0 (times 0, so a non-finite one stays non-finite):
    computed, they are float rounding, which AdamW would turn into steps of about lr."""
    for name, p in model.named_parameters():
        r = loss_free_range(name, model.cfg.dModel)
        if r is not None and p.grad is not None:
            p.grad[r[0] : r[1]].mul_(0)


def optimizer_step(model: TransEBM, opt: torch.optim.Optimizer, max_grad_norm: float, scaler=None, loss_finite: bool = True) -> float:
    """The loss-free gradient entries zeroed (before the norm, as in the app), global-norm clipping (torch's
    clip_grad_norm_: coef = max_norm / (norm + 1e-6), at most 1) and one AdamW step; returns the gradient
    norm before clipping. A step whose loss or gradient norm is not finite changes
    nothing: no weight, no moment, not AdamW's step count (the app's rule, src/engine/train/step/step.ts)."""
    if scaler is not None:
        scaler.unscale_(opt)
    zero_loss_free_grads(model)
    grad_norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm))
    apply = loss_finite and math.isfinite(grad_norm)
    if scaler is not None:
        if apply:
            scaler.step(opt)
        scaler.update()  # lowers the scale after an overflow (unscale_ recorded it)
    elif apply:
        opt.step()
    return grad_norm


def make_optimizer(model: TransEBM, lr: float, weight_decay: float) -> torch.optim.Optimizer:
    """AdamW as the app and the reference: betas (0.9, 0.999), eps 1e-8, decoupled decay on every parameter."""
    return torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=weight_decay)

