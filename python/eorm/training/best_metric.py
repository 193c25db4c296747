"""Which validation makes the best model (best.safetensors): the figure --best-metric names, rule for rule as
the app's src/engine/train/bestMetric.ts. Higher is better except the BT loss; a figure that is not a number
(NaN: e.g. pairwise with no question holding both labels) never makes a model the best; equal is not better
(the earlier model stays). The untrained model (epoch 0) is never the best (train.new_best)."""
from __future__ import annotations

import math
from typing import Dict, Optional

BEST_METRICS = ("selector", "bestOfN", "weightedVote", "pairwise", "btLoss")
# What a run recorded before the setting existed chose by.
DEFAULT_BEST_METRIC = "bestOfN"
# What a new run chooses by unless told (the app's DEFAULT_TRAIN_SETTINGS.bestMetric).
NEW_RUN_BEST_METRIC = "selector"


def lower_is_better(metric: str) -> bool:
    return metric == "btLoss"


def metric_value(ev: Dict, metric: str) -> float:
    """The figure of a validation (validation.validation_figures) that `metric` names: the selector's out-of-fold
    accuracy (Best-of-N while it cannot be fitted); the weighted vote is the
    one with the temperature cross-fitted over the validation questions, out of fold (the summary's unfitted vote
    without a selection report)."""
    s = ev["summary"]
    if metric == "selector":
        # Not fitted (too few held-out questions): NaN, which would keep no best model at all.
        sel = ev.get("selection")
        acc = sel["rules"]["selector"]["accuracy"] if sel and "selector" in sel["rules"] else None
        return acc if acc is not None and math.isfinite(acc) else s["bestOfN"]
    if metric == "bestOfN":
        return s["bestOfN"]
    if metric == "weightedVote":
        sel = ev.get("selection")
        return sel["rules"]["weightedVote"]["accuracy"] if sel else s["baselines"]["weightedVote"]
    if metric == "pairwise":
        return s["pairwise"]
    if metric == "btLoss":
        return s["btLoss"]
    raise ValueError(f"unknown best metric {metric!r} (one of {', '.join(BEST_METRICS)})")


def is_better(value: float, best: Optional[float], metric: str) -> bool:
    """`value` beats the best so far (None: none yet)."""
    if math.isnan(value):
        return False
    if best is None or math.isnan(best):
        return True
    return value < best if lower_is_better(metric) else value > best
