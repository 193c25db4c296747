"""The bootstrap of the fitted rules with their fit inside it, as the app's src/engine/metrics/refitBootstrap.ts:
in each resample (the report's indices) the cross-fitting is redone on the resampled questions, each counted as
often as drawn, with the report's folds: the vote's temperature on a 97-point log-T grid, the selector by three
Newton steps from the coefficients fitted on every question; both scored on each fold. The replicates are
named as cross_fit's members (rule_scores.FITTED_COLUMNS: which rule each is)."""
from __future__ import annotations

import math
from typing import Dict, Sequence

import numpy as np

from .bootstrap import resample_indices
from .logistic import fit_logistic
from .summary import AnswerSlots, ScoredGroup, weighted_vote_pick
from .selector import SCORE_TIE, field_count, selector_penalties, selector_prior, selector_rows
from .temperature import TEMPERATURE_MAX, TEMPERATURE_MIN, fit_group, group_mass_nll

REFIT_GRID_POINTS = 97
REFIT_NEWTON_STEPS = 3


def refit_grid() -> np.ndarray:
    lo = math.log(TEMPERATURE_MIN)
    step = (math.log(TEMPERATURE_MAX) - lo) / (REFIT_GRID_POINTS - 1)
    return np.array([math.exp(lo + k * step) for k in range(REFIT_GRID_POINTS)])


def _selector_scores(x: np.ndarray, share: np.ndarray, starts: np.ndarray, beta) -> np.ndarray:
    """Every question's selector score under `beta` (rows grouped by question, `starts` their first rows)."""
    z = x @ np.asarray(beta)
    top = np.maximum.reduceat(z, starts)
    q = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(z))))
    tied = z >= top[q] - SCORE_TIE
    return np.add.reduceat(np.where(tied, share, 0.0), starts) / np.add.reduceat(tied.astype(np.float64), starts)


def refit_replicates(groups: Sequence[ScoredGroup], fold: Sequence[int], folds: int, selector_start, resamples: int, seed: int) -> Dict[str, np.ndarray]:
    n = len(groups)
    grid = refit_grid()
    T = len(grid)
    one = (T - 1) // 2
    nll = np.zeros((n, T))
    informs = np.zeros(n, dtype=bool)
    vote_score = np.zeros((n, T))
    for q, g in enumerate(groups):
        f = fit_group(g)
        informs[q] = f is not None
        slots = AnswerSlots(g.answers, g.labels)
        for t in range(T):
            if f is not None:
                nll[q, t] = group_mass_nll(f, float(grid[t]))
            vote_score[q, t] = weighted_vote_pick(slots, g.energies, float(grid[t]))[0]
    x, y, question, features = selector_rows(groups)
    penalties, prior = selector_penalties(field_count(groups)), selector_prior(field_count(groups))
    question = np.asarray(question, dtype=np.int64)
    answered = np.array([len(rows) > 0 for _, rows in features])
    starts = np.searchsorted(question, np.arange(n)[answered])
    share = np.asarray(y, dtype=np.float64)
    fold_arr = np.asarray(fold, dtype=np.int64)
    out = {"vote": np.empty(resamples), "selector": np.empty(resamples)}
    for b0, block in resample_indices(n, resamples, seed):
        for r in range(block.shape[0]):
            m = np.bincount(block[r], minlength=n).astype(np.float64)
            fold_nll = np.zeros((folds, T))
            for q in np.flatnonzero(m):
                fold_nll[fold_arr[q]] += m[q] * nll[q]
            vote = selector = 0.0
            for f in range(folds):
                train = np.where(fold_arr == f, 0.0, m)
                best = one
                if np.any((train > 0) & informs):
                    total = np.zeros(T)
                    for g in range(folds):
                        if g != f:
                            total = total + fold_nll[g]
                    best = int(np.argmin(total))
                beta = fit_logistic(x, y, penalties, prior, weights=train[question], start=selector_start, steps=REFIT_NEWTON_STEPS)
                sel = np.zeros(n)
                if len(starts):
                    sel[answered] = _selector_scores(x, share, starts, beta)
                for q in range(n):
                    if fold_arr[q] != f or m[q] == 0:
                        continue
                    vote += m[q] * vote_score[q, best]
                    selector += m[q] * sel[q]
            out["vote"][b0 + r] = vote / n
            out["selector"][b0 + r] = selector / n
    return out
