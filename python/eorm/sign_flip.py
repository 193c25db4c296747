"""An exact test that a mean of per-question values is not 0 (the app's signFlip.ts, number for number): when
each value is as likely negative as positive under the null (symmetric about 0, independent across
questions), flipping each value's sign at random draws the null distribution of their sum. Unlike a
bootstrap interval it holds its level at any number of questions."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .selection import _mulberry32_ints

SIGN_FLIPS = 1000
# A flipped sum within this share of Σ|value| of the observed one counts as reaching it: the same values
# summed with other signs can differ from it by rounding alone, and a tie must count against the call.
TIE = 1e-9


def sign_flip_p(values: Sequence[float], seed: int, flips: int = SIGN_FLIPS) -> float:
    """Two-sided p-value (1 + #{|flipped sum| ≥ |sum|}) / (1 + flips); NaN without values. Flip b negates
    value j when Rng(seed).int(2) is 1, j = 0..n−1 of one stream; sums run left to right (cumsum)."""
    n = len(values)
    if n == 0 or flips < 1:
        return float("nan")
    v = np.asarray(values, dtype=np.float64)
    reach = abs(float(np.cumsum(v)[-1])) - TIE * float(np.cumsum(np.abs(v))[-1])
    reached = 0
    chunk = max(1, (1 << 22) // n)
    for b0 in range(0, flips, chunk):
        rows = min(chunk, flips - b0)
        negate = _mulberry32_ints(seed, b0 * n, rows * n, 2).reshape(rows, n) == 1
        sums = np.cumsum(np.where(negate, -v, v), axis=1)[:, -1]
        reached += int(np.count_nonzero(np.abs(sums) >= reach))
    return (1 + reached) / (1 + flips)
