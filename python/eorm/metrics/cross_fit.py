"""Cross-fitting over the evaluated (held-out) questions, as the app's src/engine/metrics/crossFit.ts,
logistic.ts, calibrationMap.ts and selector.ts: the same folds (the shared mulberry32 stream), the same
penalised logistic fits (a fixed number of Newton steps from the prior, Cholesky solves) for Platt's map of
the vote's share and the learned selector, so the app and `eorm.score` give the same figures to rounding.
Nothing here ever sees a training question."""
from __future__ import annotations

import math
from typing import Dict, List, Sequence

import numpy as np

from .logistic import clamp_probability, fit_logistic, logit, sigmoid
from .summary import AnswerSlots, ScoredGroup, weighted_vote_pick
from .folds import CROSS_FIT_FOLDS, cross_fit_folds
from .selector import fit_selector, selector_pick
from .temperature import fit_temperature

CROSS_FIT_MIN_QUESTIONS = 20
PLATT_PENALTY = 1.0


# ---- calibrationMap.ts ----------------------------------------------------------------------------------


def fit_platt(share: Sequence[float], correct: Sequence[float]) -> Dict[str, float]:
    x = np.array([[1.0, logit(p)] for p in share], dtype=np.float64).reshape(-1, 2)
    b, a = fit_logistic(x, correct, [PLATT_PENALTY, PLATT_PENALTY], [0.0, 1.0])
    return {"a": a, "b": b}


def apply_platt(m: Dict[str, float], share: float) -> float:
    return sigmoid(m["b"] + m["a"] * logit(share))


def brier_terms(prob: Sequence[float], correct: Sequence[float]) -> List[float]:
    return [(q - y) ** 2 for q, y in zip(prob, correct)]


def log_loss_terms(prob: Sequence[float], correct: Sequence[float]) -> List[float]:
    out = []
    for p, y in zip(prob, correct):
        q = clamp_probability(p)
        out.append(-y * math.log(q) - (1 - y) * math.log(1 - q))
    return out


# ---- crossFit.ts ----------------------------------------------------------------------------------------


def fit_verifier_maps(groups: Sequence[ScoredGroup]) -> Dict:
    temperature, _ = fit_temperature(groups)
    share, correct = [], []
    for g in groups:
        score, prob = weighted_vote_pick(AnswerSlots(g.answers, g.labels), g.energies, temperature)
        share.append(prob)
        correct.append(score)
    return {"temperature": temperature, "platt": fit_platt(share, correct), "selector": fit_selector(groups)}


def cross_fit(groups: Sequence[ScoredGroup], seed: int) -> Dict:
    """{folds, vote: {score, share, platt}, selector: {score, probability}, all: maps} out of fold, or {reason}."""
    n = len(groups)
    if n < CROSS_FIT_MIN_QUESTIONS:
        return {"reason": f"only {n} held-out question{'' if n == 1 else 's'} (at least {CROSS_FIT_MIN_QUESTIONS} are needed to calibrate out of fold)"}
    return {"folds": CROSS_FIT_FOLDS, **out_of_fold_scores(groups, cross_fit_folds(n, seed)), "all": fit_verifier_maps(groups)}


def out_of_fold_scores(groups: Sequence[ScoredGroup], fold: Sequence[int]) -> Dict:
    """{vote: {score, share, platt}, selector: {score, probability}}: each question's from the maps fitted on the other folds."""
    n = len(groups)
    out = {"vote": {"score": [0.0] * n, "share": [0.0] * n, "platt": [0.0] * n}, "selector": {"score": [0.0] * n, "probability": [0.0] * n}}
    for f in range(CROSS_FIT_FOLDS):
        maps = fit_verifier_maps([g for k, g in enumerate(groups) if fold[k] != f])
        for k, g in enumerate(groups):
            if fold[k] != f:
                continue
            score, prob = weighted_vote_pick(AnswerSlots(g.answers, g.labels), g.energies, maps["temperature"])
            out["vote"]["score"][k] = score
            out["vote"]["share"][k] = prob
            out["vote"]["platt"][k] = apply_platt(maps["platt"], prob)
            s, p = selector_pick(g, maps["selector"])
            out["selector"]["score"][k] = s
            out["selector"]["probability"][k] = p
    return out
