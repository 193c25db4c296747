"""Calibration of the picked answer's probability, as the app's src/engine/metrics/calibration/calibration.ts: a
reliability diagram of 10 equal bins, its expected calibration error, and ECE's bootstrap interval."""
from __future__ import annotations

import math
from typing import Dict, List, Sequence, Tuple

import numpy as np

from .bootstrap import NAN, bootstrap_interval

CALIBRATION_BINS = 10


def reliability(probability: Sequence[float], correct: Sequence[float]) -> Tuple[float, List[Dict]]:
    count = [0] * CALIBRATION_BINS
    conf = [0.0] * CALIBRATION_BINS
    acc = [0.0] * CALIBRATION_BINS
    for p, y in zip(probability, correct):
        k = min(CALIBRATION_BINS - 1, math.floor(p * CALIBRATION_BINS))
        count[k] += 1
        conf[k] += p
        acc[k] += y
    n = len(probability)
    ece = 0.0
    bins = []
    for k, c in enumerate(count):
        b = {"lo": k / CALIBRATION_BINS, "hi": (k + 1) / CALIBRATION_BINS, "count": c, "confidence": conf[k] / c if c else NAN, "accuracy": acc[k] / c if c else NAN}
        if c:
            ece += (c / n) * abs(b["accuracy"] - b["confidence"])
        bins.append(b)
    return (ece if n else NAN), bins


def ece_interval(probability: Sequence[float], correct: Sequence[float], resamples: int, seed: int) -> Dict[str, float]:
    """ECE's 95% interval about these picks' ECE, never below 0 (the app's eceInterval): per resample Σ_bins |Σ correct − Σ probability| / N."""
    n = len(probability)
    p = np.asarray(probability, dtype=np.float64)
    y = np.asarray(correct, dtype=np.float64)
    bins = np.minimum(CALIBRATION_BINS - 1, np.floor(p * CALIBRATION_BINS)).astype(np.int64)

    def statistic(idx: np.ndarray) -> np.ndarray:
        rows = idx.shape[0]
        flat = (np.arange(rows)[:, None] * CALIBRATION_BINS + bins[idx]).ravel()
        gap = np.bincount(flat, weights=(y[idx] - p[idx]).ravel(), minlength=rows * CALIBRATION_BINS).reshape(rows, CALIBRATION_BINS)
        return np.abs(gap).sum(axis=1) / n

    ci = bootstrap_interval(reliability(probability, correct)[0], n, resamples, seed, statistic)
    return {"lo": 0.0 if ci["lo"] < 0 else ci["lo"], "hi": ci["hi"]}
