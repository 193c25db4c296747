"""TransEBM in PyTorch: the app's model (src/engine/model/transebm.ts) with the reference's `state_dict` names.

    x      = emb(ids) * sqrt(d)  (+ pos(t) only with positional='learned')
    layer  = x + Drop(MHA(LN1(x))); x + Drop(W2·Drop(GELU(W1·LN2(x))))      (pre-LN, exact GELU, padding keys masked)
    energy = head.3(GELU(head.1(LayerNorm(h_cls))))                       (lower = better)

The encoder layers are `nn.TransformerEncoderLayer(norm_first=True, activation="gelu", batch_first=True)`
modules, so names and initialisation are PyTorch's; the forward is written out from their submodules so
that, like the app, the last layer computes only the CLS query (nothing else of it reaches the energy).
Each layer is initialised independently (the app does the same; `nn.TransformerEncoder` would clone one).
"""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

import torch
import torch.nn.functional as F
from torch import nn

from .config import ModelConfig, param_shapes


class _Encoder(nn.Module):
    """Holds `layers` so the names read `enc.layers.{i}.…` as in `nn.TransformerEncoder`."""

    def __init__(self, layers: List[nn.Module]) -> None:
        super().__init__()
        self.layers = nn.ModuleList(layers)


class TransEBM(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        d = cfg.dModel
        self.emb = nn.Embedding(cfg.vocabSize, d)
        if cfg.positional == "learned":
            self.pos = nn.Embedding(cfg.maxLen, d)
        self.enc = _Encoder(
            [
                nn.TransformerEncoderLayer(d, cfg.nHeads, dim_feedforward=cfg.ffnDim, dropout=cfg.dropout, activation="gelu", batch_first=True, norm_first=True)
                for _ in range(cfg.nLayers)
            ]
        )
        self.head = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU(), nn.Linear(d, 1))

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """ids: int64 [B, T] (CLS first, padded anyhow); lengths: [B] true lengths. Returns energies [B]."""
        cfg = self.cfg
        B, T = ids.shape
        if T > cfg.maxLen:
            raise ValueError(f"input length {T} exceeds maxLen {cfg.maxLen}")
        x = self.emb(ids) * math.sqrt(cfg.dModel)
        if cfg.positional == "learned":
            x = x + self.pos.weight[:T]
        pad = torch.arange(T, device=ids.device)[None, :] >= lengths.to(ids.device)[:, None]
        n = len(self.enc.layers)
        for i, layer in enumerate(self.enc.layers):
            last = i == n - 1
            h = layer.norm1(x)
            q = h[:, :1] if last else h
            a = layer.self_attn(q, h, h, key_padding_mask=pad, need_weights=False)[0]
            x = (x[:, :1] if last else x) + layer.dropout1(a)
            x = x + layer.dropout2(layer.linear2(layer.dropout(F.gelu(layer.linear1(layer.norm2(x))))))
        return self.head(x[:, 0]).reshape(-1)


def pad_batch(candidates: Sequence[Sequence[int]], pad_id: int, device=None) -> Tuple[torch.Tensor, torch.Tensor]:
    """Candidates (CLS first, already truncated) padded to the longest: int64 ids [B, T] and lengths [B]."""
    if not candidates:
        raise ValueError("pad_batch: no candidates")
    T = max(len(c) for c in candidates)
    ids = torch.full((len(candidates), T), pad_id, dtype=torch.long)
    for b, c in enumerate(candidates):
        if len(c) == 0:
            raise ValueError(f"pad_batch: candidate {b} is empty (it needs at least the CLS id)")
        ids[b, : len(c)] = torch.as_tensor(list(c), dtype=torch.long)
    lengths = torch.tensor([len(c) for c in candidates], dtype=torch.long)
    if device is not None:
        ids, lengths = ids.to(device), lengths.to(device)
    return ids, lengths


EVAL_BATCH_MAX = 64
EVAL_TOKENS_PER_BATCH = 64 * 512


def distinct_inputs(candidates: Sequence[Sequence[int]], as_multisets: bool = False) -> Tuple[List[Sequence[int]], List[int]]:
    """(each distinct input once, in order of first appearance; per candidate, its index there). `as_multisets`
    (a model without positional encoding): inputs with the same first id and the same other ids in another
    order are one input. Such a model's energy is a function of the multiset, equal in exact arithmetic but not
    in floats, where the order of the attention sums moves the last bits: scored once, they tie exactly, and the
    tie goes to the first candidate on both sides (distinctInputs.ts; issue 48, point 9)."""
    index: Dict[Tuple, int] = {}
    unique: List[Sequence[int]] = []
    of = []
    for c in candidates:
        key = (tuple(c[:1]), tuple(sorted(c[1:]))) if as_multisets else tuple(c)
        if key not in index:
            index[key] = len(unique)
            unique.append(c)
        of.append(index[key])
    return unique, of


@torch.no_grad()
def score_candidates(model: TransEBM, candidates: Sequence[Sequence[int]], device=None, batch_tokens: int = EVAL_TOKENS_PER_BATCH, autocast_dtype: Optional[torch.dtype] = None) -> List[float]:
    """Eval-mode energies (no dropout), results in input order as Python floats. Each distinct input (as
    distinct_inputs has it) is scored once and its energy reused (as the app does): ties are exact equality, and the same input padded in
    another batch can come back one float step apart. Longest first in batches of ≤ 64 candidates and
    ≤ `batch_tokens` padded tokens."""
    # Without positional encoding an input's energy depends on its ids, not their order.
    unique, of = distinct_inputs(candidates, model.cfg.positional == "none")
    energies = _score_each(model, unique, device, batch_tokens, autocast_dtype)
    return [energies[k] for k in of]


def _score_each(model: TransEBM, candidates: Sequence[Sequence[int]], device, batch_tokens: int, autocast_dtype: Optional[torch.dtype]) -> List[float]:
    was_training = model.training
    model.eval()
    device = device or next(model.parameters()).device
    out = [0.0] * len(candidates)
    order = sorted(range(len(candidates)), key=lambda i: -len(candidates[i]))
    s = 0
    try:
        while s < len(order):
            longest = len(candidates[order[s]])
            take = max(1, min(EVAL_BATCH_MAX, batch_tokens // max(1, longest)))
            idx = order[s : s + take]
            s += len(idx)
            ids, lengths = pad_batch([candidates[i] for i in idx], model.cfg.padId, device)
            if autocast_dtype is not None:
                with torch.autocast(device_type=torch.device(device).type, dtype=autocast_dtype):
                    e = model(ids, lengths)
            else:
                e = model(ids, lengths)
            for i, v in zip(idx, e.float().cpu().tolist()):
                out[i] = v
    finally:
        model.train(was_training)
    return out


def state_dict_arrays(model: TransEBM) -> Dict[str, torch.Tensor]:
    """The parameters in state_dict order, float32 on the CPU (what a weights file holds)."""
    sd = model.state_dict()
    return {name: sd[name].detach().float().cpu().contiguous() for name, _ in param_shapes(model.cfg)}


def load_arrays(model: TransEBM, tensors: Dict[str, torch.Tensor]) -> None:
    """Copies named tensors (every parameter of the config, shapes checked) into the model."""
    expected = dict(param_shapes(model.cfg))
    missing = [n for n in expected if n not in tensors]
    if missing:
        raise ValueError(f'parameter "{missing[0]}" is missing')
    for name, shape in expected.items():
        if tuple(tensors[name].shape) != tuple(shape):
            raise ValueError(f'parameter "{name}" has shape {list(tensors[name].shape)}, the config needs {list(shape)}')
    model.load_state_dict({n: tensors[n] for n in expected}, strict=True)
