"""The fitted rules' intervals with their fit in them, by repeated cross-fitting, as the app's
src/engine/metrics/repeatedCrossFit.ts: the questions dealt into folds CROSS_FIT_REPEATS more times (the same
seeds), each fitted rule scored out of fold under each deal, and the spread of its mean over the deals added
to the bootstrap's: each replicate's distance from the estimate scaled by sqrt(1 + var(deals) / var(replicates))."""
from __future__ import annotations

import math
from typing import Dict, List, Sequence

import numpy as np

from ..rng import M32
from .cross_fit import out_of_fold_scores
from .folds import cross_fit_folds
from .summary import ScoredGroup

CROSS_FIT_REPEATS = 10
REPEAT_STRIDE = 0x9E3779B9


def repeat_seed(seed: int, r: int) -> int:
    return (seed + REPEAT_STRIDE * (r + 1)) & M32


def repeated_cross_fits(groups: Sequence[ScoredGroup], seed: int, repeats: int = CROSS_FIT_REPEATS) -> List[Dict]:
    """Each further deal's out-of-fold scores (cross_fit.out_of_fold_scores)."""
    return [out_of_fold_scores(groups, cross_fit_folds(len(groups), repeat_seed(seed, r))) for r in range(repeats)]


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    m = 0.0
    for v in values:
        m += v
    m /= n
    s = 0.0
    for v in values:
        s += (v - m) ** 2
    return s / (n - 1)


def widen_for_fit(replicates: np.ndarray, estimate: float, deals: Sequence[float]) -> np.ndarray:
    """`replicates` with the spread of `deals` added; unchanged where either has none."""
    spread = _variance(deals)
    own = _variance(replicates)
    if spread == 0 or own == 0:
        return replicates
    k = math.sqrt(1 + spread / own)
    return estimate + (np.asarray(replicates, dtype=np.float64) - estimate) * k
