"""Penalised logistic regression with a fixed amount of work, as the app's src/engine/metrics/logistic.ts:
NEWTON_STEPS Newton steps from the prior, each solved by Cholesky and halved until the objective does not rise."""
from __future__ import annotations

import math
from typing import List, Sequence

import numpy as np

NEWTON_STEPS = 30
MAX_HALVINGS = 30
PROBABILITY_FLOOR = 1e-6


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def sigmoid_array(z: np.ndarray) -> np.ndarray:
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
    terms = softplus - y * z
    f = float(np.sum(terms))
    for j in range(len(beta)):
        f += 0.5 * penalty[j] * (beta[j] - prior[j]) ** 2
    return f


def fit_logistic(x, y: Sequence[float], penalty: Sequence[float], prior: Sequence[float]) -> List[float]:
    """The app's fitLogistic: NEWTON_STEPS Newton steps from the prior on the penalised log loss, each step
    halved until the objective does not rise."""
    d = len(prior)
    x = np.asarray(x, dtype=np.float64).reshape(-1, d)
    y_ = np.asarray(y, dtype=np.float64)
    beta = [float(v) for v in prior]
    f = _objective(x, y_, penalty, prior, beta)
    for _ in range(NEWTON_STEPS):
        p = sigmoid_array(x @ np.asarray(beta))
        r = p - y_
        c = p * (1 - p)
        g = x.T @ r
        h = x.T @ (x * c[:, None])
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
