"""The energy-weighted vote's temperature, fitted as the app's src/engine/metrics/calibration/temperature.ts: the mean
−log of the vote's mass on correct answers, a 25-point log-T grid, then golden-section down to 1e-6 in log T."""
from __future__ import annotations

import math
from typing import List, Sequence, Tuple

from .summary import AnswerSlots, ScoredGroup, rank_key

TEMPERATURE_MIN = 0.01
TEMPERATURE_MAX = 100.0
GRID_POINTS = 25
LOG_T_TOLERANCE = 1e-6


def at_lower_bound(t: float) -> bool:
    """The fit stopped at the search's lower end (within the search's tolerance): the criterion still fell there."""
    return t <= TEMPERATURE_MIN * 1.001


def _fit_group(g: ScoredGroup):
    """(energies, share) as the fit reads the group; None when it cannot inform T."""
    s = AnswerSlots(g.answers, g.labels)
    energies: List[float] = []
    share: List[float] = []
    right = wrong = False
    for i, e in enumerate(g.energies):
        if rank_key(e) == math.inf:
            continue
        k = s.slot[i]
        q = 0.0 if k < 0 else s.correct[k] / s.votes[k]
        energies.append(float(e))
        share.append(q)
        right = right or q > 0
        wrong = wrong or q < 1
    return (energies, share) if right and wrong else None


def fit_groups(groups: Sequence[ScoredGroup]):
    return [f for f in (_fit_group(g) for g in groups) if f is not None]


def _log_sum_exp(xs: List[float]) -> float:
    """max + log1p(Σ_{others} exp(x − max)), as temperature.ts (keeps tiny losses from rounding to 0)."""
    top = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[top]:
            top = i
    rest = 0.0
    for i, x in enumerate(xs):
        if i != top:
            rest += math.exp(x - xs[top])
    return xs[top] + math.log1p(rest)


def _group_mass_nll(group, temperature: float) -> float:
    """One group's −log M(T)."""
    energies, share = group
    all_: List[float] = []
    right: List[float] = []
    for e, q in zip(energies, share):
        x = -e / temperature
        all_.append(x)
        if q > 0:
            right.append(x + math.log(q))
    return _log_sum_exp(all_) - _log_sum_exp(right)


def correct_mass_nll(groups, temperature: float) -> float:
    """Mean over the groups of −log M(T), M the vote's mass on correct answers (see temperature.ts)."""
    total = 0.0
    for g in groups:
        total += _group_mass_nll(g, temperature)
    return total / len(groups)


def fit_temperature(scored: Sequence[ScoredGroup]) -> Tuple[float, int]:
    """(T, groups it learned from); (1, 0) when no group can inform it."""
    groups = fit_groups(scored)
    if not groups:
        return 1.0, 0

    def f(u: float) -> float:
        return correct_mass_nll(groups, math.exp(u))

    lo = math.log(TEMPERATURE_MIN)
    hi = math.log(TEMPERATURE_MAX)
    step = (hi - lo) / (GRID_POINTS - 1)
    best, best_f = 0, math.inf
    for k in range(GRID_POINTS):
        v = f(lo + k * step)
        if v < best_f:
            best_f, best = v, k
    a = lo + (best - 1) * step if best > 0 else lo
    b = lo + (best + 1) * step if best < GRID_POINTS - 1 else hi
    inv_phi = (math.sqrt(5) - 1) / 2
    c = b - inv_phi * (b - a)
    d = a + inv_phi * (b - a)
    fc, fd = f(c), f(d)
    while b - a > LOG_T_TOLERANCE:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - inv_phi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + inv_phi * (b - a)
            fd = f(d)
    return math.exp((a + b) / 2), len(groups)
