"""Cross-fitting over the evaluated (held-out) questions, as the app's src/engine/metrics/crossFit.ts,
logistic.ts, calibrationMap.ts and selector.ts: the same folds (the shared mulberry32 stream), the same
penalised logistic fits (a fixed number of Newton steps from the prior, Cholesky solves) for Platt's map of
the vote's share and the learned selector, so the app and `eorm.score` give the same figures to rounding.
Nothing here ever sees a training question."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .metrics import AnswerSlots, ScoredGroup, rank_key, weighted_vote_pick
from .rng import M32, Rng

CROSS_FIT_FOLDS = 5
CROSS_FIT_MIN_QUESTIONS = 20
FOLD_STREAM = 0x2545F491
NEWTON_STEPS = 30
MAX_HALVINGS = 30
PROBABILITY_FLOOR = 1e-6
PLATT_PENALTY = 1.0
SELECTOR_FEATURES = ["intercept", "voteShare", "lowestEnergy", "meanEnergy", "logCount"]
SHARE_PRIOR = 5.0
SELECTOR_PRIOR = [0.0, SHARE_PRIOR, 0.0, 0.0, 0.0]
SELECTOR_PENALTY = 10.0
SELECTOR_PENALTIES = [0.01, SELECTOR_PENALTY, SELECTOR_PENALTY, SELECTOR_PENALTY, SELECTOR_PENALTY]
NONFINITE_Z = 3.0
SCORE_TIE = 1e-9


# ---- logistic.ts ----------------------------------------------------------------------------------------


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def _sigmoid_array(z: np.ndarray) -> np.ndarray:
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1 / (1 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1 + e)
    return out


def clamp_probability(p: float) -> float:
    return min(1 - PROBABILITY_FLOOR, max(PROBABILITY_FLOOR, p))


def logit(p: float) -> float:
    q = clamp_probability(p)
    return math.log(q / (1 - q))


def _solve_spd(a: List[List[float]], b: List[float]) -> List[float]:
    d = len(b)
    l = [[0.0] * d for _ in range(d)]
    for i in range(d):
        for j in range(i + 1):
            s = a[i][j]
            for k in range(j):
                s -= l[i][k] * l[j][k]
            l[i][j] = math.sqrt(s) if i == j else s / l[j][j]
    z = [0.0] * d
    for i in range(d):
        s = b[i]
        for k in range(i):
            s -= l[i][k] * z[k]
        z[i] = s / l[i][i]
    out = [0.0] * d
    for i in range(d - 1, -1, -1):
        s = z[i]
        for k in range(i + 1, d):
            s -= l[k][i] * out[k]
        out[i] = s / l[i][i]
    return out


def _objective(x: np.ndarray, y: np.ndarray, penalty, prior, beta) -> float:
    z = x @ np.asarray(beta)
    softplus = np.where(z > 0, z + np.log1p(np.exp(-np.abs(z))), np.log1p(np.exp(np.minimum(z, 0.0))))
    f = float(np.sum(softplus - y * z))
    for j in range(len(beta)):
        f += 0.5 * penalty[j] * (beta[j] - prior[j]) ** 2
    return f


def fit_logistic(x: np.ndarray, y: Sequence[float], penalty: Sequence[float], prior: Sequence[float]) -> List[float]:
    """The app's fitLogistic: NEWTON_STEPS Newton steps from the prior on the penalised log loss, each halved
    until the objective does not rise."""
    d = len(prior)
    x = np.asarray(x, dtype=np.float64).reshape(-1, d)
    y_ = np.asarray(y, dtype=np.float64)
    beta = [float(v) for v in prior]
    f = _objective(x, y_, penalty, prior, beta)
    for _ in range(NEWTON_STEPS):
        p = _sigmoid_array(x @ np.asarray(beta))
        g = x.T @ (p - y_)
        h = x.T @ (x * (p * (1 - p))[:, None])
        grad = [penalty[j] * (beta[j] - prior[j]) + float(g[j]) for j in range(d)]
        hess = [[float(h[i, j]) + (penalty[i] if i == j else 0.0) for j in range(d)] for i in range(d)]
        s = _solve_spd(hess, grad)
        t = 1.0
        for _ in range(MAX_HALVINGS + 1):
            nxt = [beta[j] - t * s[j] for j in range(d)]
            f_next = _objective(x, y_, penalty, prior, nxt)
            if f_next <= f:
                beta, f = nxt, f_next
                break
            t /= 2
    return beta


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


# ---- selector.ts ----------------------------------------------------------------------------------------


def _standardised(energies: Sequence[float]) -> List[float]:
    finite = [rank_key(e) for e in energies if rank_key(e) != math.inf]
    n = len(finite)
    total = 0.0
    for e in finite:
        total += e
    mean = total / n if n else 0.0
    ss = 0.0
    for e in finite:
        ss += (e - mean) ** 2
    std = math.sqrt(ss / n) if n else 0.0
    out = []
    for x in energies:
        e = rank_key(x)
        out.append(NONFINITE_Z if e == math.inf else ((e - mean) / std if std > 0 else 0.0))
    return out


def answer_features(answers, energies, labels) -> Tuple[AnswerSlots, List[List[float]]]:
    slots = AnswerSlots(answers, labels)
    z = _standardised(energies)
    k = len(slots.votes)
    lowest = [math.inf] * k
    total = [0.0] * k
    for i, zi in enumerate(z):
        a = slots.slot[i]
        if a < 0:
            continue
        lowest[a] = min(lowest[a], zi)
        total[a] += zi
    rows = [[1.0, slots.votes[a] / len(answers), lowest[a], total[a] / slots.votes[a], math.log(slots.votes[a])] for a in range(k)]
    return slots, rows


def fit_selector(groups: Sequence[ScoredGroup]) -> List[float]:
    rows: List[List[float]] = []
    ys: List[float] = []
    for g in groups:
        slots, x = answer_features(g.answers, g.energies, g.labels)
        rows.extend(x)
        ys.extend(c / v for c, v in zip(slots.correct, slots.votes))
    d = len(SELECTOR_FEATURES)
    return fit_logistic(np.array(rows, dtype=np.float64).reshape(-1, d), ys, SELECTOR_PENALTIES, SELECTOR_PRIOR)


def _linear(row: Sequence[float], beta: Sequence[float]) -> float:
    z = 0.0
    for xj, bj in zip(row, beta):
        z += xj * bj
    return z


def selector_probabilities(rows: Sequence[Sequence[float]], beta: Sequence[float]) -> List[float]:
    return [sigmoid(_linear(r, beta)) for r in rows]


def selector_pick(g: ScoredGroup, beta: Sequence[float]) -> Tuple[float, float]:
    """(score, probability) of the selector's pick (tied answers averaged); (0, 0) without answers."""
    slots, rows = answer_features(g.answers, g.energies, g.labels)
    if not rows:
        return 0.0, 0.0
    z = [_linear(r, beta) for r in rows]
    top = max(z)
    tied = 0
    score = prob = 0.0
    for a, v in enumerate(z):
        if v >= top - SCORE_TIE:
            tied += 1
            score += slots.correct[a] / slots.votes[a]
            prob += sigmoid(v)
    return score / tied, prob / tied


# ---- crossFit.ts ----------------------------------------------------------------------------------------


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


def fit_verifier_maps(groups: Sequence[ScoredGroup]) -> Dict:
    from .selection import fit_temperature  # selection.py imports this module

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
    fold = cross_fit_folds(n, seed)
    out = {
        "folds": CROSS_FIT_FOLDS,
        "vote": {"score": [0.0] * n, "share": [0.0] * n, "platt": [0.0] * n},
        "selector": {"score": [0.0] * n, "probability": [0.0] * n},
        "all": fit_verifier_maps(groups),
    }
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
