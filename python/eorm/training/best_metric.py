"""Which validation makes the best model (best.safetensors): the figure --best-metric names, rule for rule as
the app's src/engine/train/bestMetric.ts. Higher is better except the BT loss; a figure that is not a number
(NaN: e.g. pairwise with no question holding both labels) never makes a model the best; equal is not better
(the earlier model stays). The untrained model (epoch 0) is never the best (train.new_best)."""
from __future__ import annotations

import math
from typing import Dict, Optional

from ..metrics.rule_scores import SUMMARY_FIGURES
from ..rules import BEST_METRIC_RULES, PRIMARY_VERIFIER_RULE, RULE_BY_ID, UNFITTED_BEST_METRIC

BEST_METRICS = (*BEST_METRIC_RULES, "pairwise", "btLoss")
# What a run recorded before the setting existed chose by.
DEFAULT_BEST_METRIC = UNFITTED_BEST_METRIC
# What a new run chooses by unless told (the app's DEFAULT_TRAIN_SETTINGS.bestMetric).
NEW_RUN_BEST_METRIC = PRIMARY_VERIFIER_RULE


def lower_is_better(metric: str) -> bool:
    return metric == "btLoss"


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def metric_value(ev: Dict, metric: str) -> float:
    """The figure of a validation (validation.validation_figures) that `metric` names, as the app's metricValue:
    an unfitted rule's is the summary's; the primary verifier rule's (the selector) its out-of-fold accuracy,
    the unfitted best metric's (Best-of-N) while it cannot be fitted (a NaN would keep no best model at all);
    another fitted rule's (the vote, its temperature cross-fitted) the selection report's, else the summary's."""
    s = ev["summary"]
    if metric in BEST_METRIC_RULES:
        if not RULE_BY_ID[metric]["fitted"]:
            return SUMMARY_FIGURES[metric](s)
        sel = ev.get("selection")
        acc = sel["rules"][metric]["accuracy"] if sel and metric in sel["rules"] else None
        if metric == PRIMARY_VERIFIER_RULE:
            return acc if _finite(acc) else SUMMARY_FIGURES[UNFITTED_BEST_METRIC](s)
        return acc if acc is not None else SUMMARY_FIGURES[metric](s)
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
