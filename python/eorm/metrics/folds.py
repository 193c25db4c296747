"""The folds of every cross-fitting (cross_fit.py over held-out questions, generators.py over training ones),
dealt as the app's src/engine/metrics/folds.ts."""
from __future__ import annotations

from typing import List

from ..rng import M32, Rng

CROSS_FIT_FOLDS = 5
FOLD_STREAM = 0x2545F491


def cross_fit_folds(n: int, seed: int, folds: int = CROSS_FIT_FOLDS) -> List[int]:
    order = list(range(n))
    rng = Rng((seed ^ FOLD_STREAM) & M32)
    for i in range(n):
        j = i + rng.int(n - i)
        order[i], order[j] = order[j], order[i]
    fold = [0] * n
    for i, q in enumerate(order):
        fold[q] = i % folds
    return fold
