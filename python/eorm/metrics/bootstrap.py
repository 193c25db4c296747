"""Percentile bootstrap over groups, resample for resample as the app's src/engine/metrics/bootstrap.ts: one
mulberry32 stream seeded by the report's seed, resample b drawing its G indices in order; sums left to right."""
from __future__ import annotations

import math
from typing import Callable, Dict, List, Sequence

import numpy as np

from ..rng import M32

# Per-question differences this small (absolute) are no difference (the app's pairedTest.ts DIFFERENCE_EPSILON).
DIFFERENCE_EPSILON = 1e-12

BOOTSTRAP_RESAMPLES = 1000
NAN = float("nan")


def mean(xs: Sequence[float]) -> float:
    """The mean, summed left to right as the app does (bootstrap.ts mean); NaN when empty."""
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs) if len(xs) else NAN


def mulberry32_ints(seed: int, start: int, count: int, n: int) -> np.ndarray:
    """Draws start .. start+count−1 of Rng(seed).int(n), vectorised: mulberry32's state after k draws is
    seed + k·0x6D2B79F5 (mod 2^32), so every draw is a function of its position alone."""
    k = np.arange(start + 1, start + count + 1, dtype=np.uint64)
    m = np.uint64(M32)
    a = (np.uint64(seed & M32) + k * np.uint64(0x6D2B79F5)) & m
    t = ((a ^ (a >> np.uint64(15))) * (a | np.uint64(1))) & m
    t ^= (t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & m)) & m
    u = ((t ^ (t >> np.uint64(14))) & m).astype(np.float64) / 4294967296.0
    return np.floor(u * n).astype(np.int64)


def percentile(sorted_values: Sequence[float], p: float) -> float:
    n = len(sorted_values)
    if n == 0:
        return NAN
    h = (n - 1) * p
    i = math.floor(h)
    if i + 1 >= n:
        return float(sorted_values[n - 1])
    return float(sorted_values[i] + (h - i) * (sorted_values[i + 1] - sorted_values[i]))


def bootstrap_interval(estimate: float, g: int, resamples: int, seed: int, statistic: Callable) -> Dict[str, float]:
    """The 95% interval of `statistic(idx)` (idx: one block of resamples' indices, rows of an array), over the
    same resamples as bootstrap_intervals with this seed, moved by the resamples' median bias so that it holds
    `estimate` (the app's bootstrapInterval)."""
    if g == 0 or resamples < 1:
        return {"lo": NAN, "hi": NAN}
    values = np.empty(resamples, dtype=np.float64)
    for b0, idx in resample_indices(g, resamples, seed):
        values[b0 : b0 + idx.shape[0]] = statistic(idx)
    values = np.sort(values)
    mid = percentile(values, 0.5)
    return {"lo": estimate - (mid - percentile(values, 0.025)), "hi": estimate + (percentile(values, 0.975) - mid)}


def resample_indices(g: int, resamples: int, seed: int):
    """Yields (b0, idx): blocks of resamples from b0 on, idx of shape (rows, g), the app's draws in order."""
    chunk = max(1, (1 << 22) // g)
    for b0 in range(0, resamples, chunk):
        rows = min(chunk, resamples - b0)
        yield b0, mulberry32_ints(seed, b0 * g, rows * g, g).reshape(rows, g)


def bootstrap_replicates(columns: Sequence[Sequence[float]], resamples: int, seed: int) -> List[np.ndarray]:
    """Each column's mean in every resample (resample order); empty arrays when there are no groups."""
    g = len(columns[0]) if columns else 0
    if g == 0 or resamples < 1:
        return [np.empty(0) for _ in columns]
    cols = np.asarray(columns, dtype=np.float64)
    means = np.empty((len(columns), resamples), dtype=np.float64)
    for b0, idx in resample_indices(g, resamples, seed):
        for c in range(len(columns)):
            # cumsum adds left to right, as the app's loop does (np.sum would add pairwise).
            means[c, b0 : b0 + idx.shape[0]] = np.cumsum(cols[c][idx], axis=1)[:, -1] / g
    return list(means)


def percentile_interval(replicates: Sequence[float], alpha: float = 0.05) -> Dict[str, float]:
    """The central interval leaving `alpha` of the replicates out (the app's percentileInterval)."""
    if len(replicates) == 0:
        return {"lo": NAN, "hi": NAN}
    s = np.sort(np.asarray(replicates, dtype=np.float64))
    tail = alpha / 2
    return {"lo": percentile(s, tail), "hi": percentile(s, 1 - tail)}


def difference_interval(replicates: Sequence[float], d: Sequence[float], alpha: float = 0.05) -> Dict[str, float]:
    """A paired difference's interval (the app's differenceInterval): the percentile interval, widened by
    1 - (alpha/2)**(1/n) on a side no question of the n differences `d` moves towards, the exact bound on a
    share of such questions never seen."""
    ci = percentile_interval(replicates, alpha)
    n = len(d)
    if n == 0:
        return ci
    better = any(x > DIFFERENCE_EPSILON for x in d)
    worse = any(x < -DIFFERENCE_EPSILON for x in d)
    unseen = 1 - (alpha / 2) ** (1 / n)
    return {"lo": ci["lo"] if worse else ci["lo"] - unseen, "hi": ci["hi"] if better else ci["hi"] + unseen}


def bootstrap_intervals(columns: Sequence[Sequence[float]], resamples: int, seed: int) -> List[Dict[str, float]]:
    """The 95% percentile interval of each column's mean, over the app's resamples."""
    return [percentile_interval(m) for m in bootstrap_replicates(columns, resamples, seed)]
