"""Whether one rule beats another on the same questions, as the app's src/engine/metrics/pairedTest.ts: the exact
paired sign-flip test on the per-question differences (drawn from one fixed stream beyond 20 differing
questions), and Holm's adjustment when a rule is chosen among several."""
from __future__ import annotations

from typing import Dict, List, Sequence

import numpy as np

from .bootstrap import DIFFERENCE_EPSILON, mulberry32_ints

SIGN_FLIP_EXACT_MAX = 20
SIGN_FLIP_DRAWS = 10_000
SIGN_FLIP_STREAM = 0x5F3759DF
SUM_TOLERANCE = 1e-9


def sign_flip_test(diffs: Sequence[float]) -> Dict:
    d = [float(x) for x in diffs if abs(x) > DIFFERENCE_EPSILON]
    m = len(d)
    if m == 0:
        return {"differing": 0, "p": 1.0, "method": "exact"}
    observed = 0.0
    for x in d:
        observed += x
    bar = abs(observed) - SUM_TOLERANCE
    if m <= SIGN_FLIP_EXACT_MAX:
        sums = np.zeros(1)
        for x in d:
            sums = np.concatenate([sums + abs(x), sums - abs(x)])
        return {"differing": m, "p": float(np.count_nonzero(np.abs(sums) >= bar)) / len(sums), "method": "exact"}
    signs = 1 - 2 * mulberry32_ints(SIGN_FLIP_STREAM, 0, SIGN_FLIP_DRAWS * m, 2).reshape(SIGN_FLIP_DRAWS, m)
    # Left to right, as the app's loop adds.
    totals = np.cumsum(signs * np.abs(np.asarray(d)), axis=1)[:, -1]
    extreme = int(np.count_nonzero(np.abs(totals) >= bar))
    return {"differing": m, "p": (1 + extreme) / (1 + SIGN_FLIP_DRAWS), "method": "drawn"}


def holm(p: Sequence[float]) -> List[float]:
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out
