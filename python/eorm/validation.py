"""The figures of a validation, with the scoring shared by the ranks: every rank scores a share of the
candidates, rank 0 gets all energies and computes the summary, the energy histogram and the Best-of-N curve."""
from __future__ import annotations

from typing import Dict, List, Optional

import torch

from .dataset import TrainingData
from .distributed import Dist
from .metrics import energy_histogram, evaluate_groups
from .ncurve import best_of_n_curve
from .model import TransEBM, score_candidates

CURVE_SUBSETS = 64
HISTOGRAM_BINS = 30


def validation_figures(module: TransEBM, data: TrainingData, groups: List[int], seed: int, dist_: Dist, amp, batch_tokens: int, curve_subsets: int) -> Optional[Dict]:
    """{summary, histogram, curve} on rank 0, None on the others."""
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
