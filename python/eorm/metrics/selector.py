"""The learned selector, as the app's src/engine/metrics/selector.ts: per distinct final answer, a penalised
logistic model of "this answer is right" over its vote share, its lowest and mean standardised energy, log of
its candidate count and its posterior under the generator-weighted vote (0 where no generator is known), then one
feature per numeric field the user named: the mean over the answer's candidates of the field standardised within the
question (a line without it counts as the mean, 0)."""
from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .generators import answer_mass, answer_posterior
from .logistic import fit_logistic, sigmoid
from .summary import AnswerSlots, ScoredGroup, rank_key

SELECTOR_FEATURES = ["intercept", "voteShare", "lowestEnergy", "meanEnergy", "logCount", "generatorShare"]
SHARE_PRIOR = 5.0
SELECTOR_PENALTY = 10.0
NONFINITE_Z = 3.0
SCORE_TIE = 1e-9


def selector_prior(fields: int) -> List[float]:
    return [0.0, SHARE_PRIOR] + [0.0] * (len(SELECTOR_FEATURES) - 2 + fields)


def selector_penalties(fields: int) -> List[float]:
    return [0.01] + [SELECTOR_PENALTY] * (len(SELECTOR_FEATURES) - 1 + fields)


def _mean_std(finite: Sequence[float]) -> Tuple[float, float]:
    """Mean and population standard deviation, summed in order (0, 0 for none)."""
    n = len(finite)
    total = 0.0
    for v in finite:
        total += v
    mean = total / n if n else 0.0
    ss = 0.0
    for v in finite:
        ss += (v - mean) ** 2
    return mean, math.sqrt(ss / n) if n else 0.0


def _standardised_field(values: Sequence[float]) -> List[float]:
    """A named field standardised within its question; a missing (nan) value counts as the mean, 0."""
    mean, std = _mean_std([v for v in values if math.isfinite(v)])
    return [(v - mean) / std if math.isfinite(v) and std > 0 else 0.0 for v in values]


def _standardised(energies: Sequence[float]) -> List[float]:
    mean, std = _mean_std([rank_key(e) for e in energies if rank_key(e) != math.inf])
    out = []
    for x in energies:
        e = rank_key(x)
        out.append(NONFINITE_Z if e == math.inf else ((e - mean) / std if std > 0 else 0.0))
    return out


def selector_generator_weights(g: ScoredGroup) -> Optional[Sequence[float]]:
    """The per-candidate generator weights the selector reads: labelled where known, else from agreement."""
    gen = getattr(g, "generators", None) or {}
    return gen.get("labelled") if gen.get("labelled") is not None else gen.get("agreement")


def answer_features(answers, energies, labels, generator_weights=None, fields=()) -> Tuple[AnswerSlots, List[List[float]]]:
    slots = AnswerSlots(answers, labels)
    posterior = answer_posterior(answer_mass(slots, generator_weights)) if generator_weights is not None else None
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
    rows = [[1.0, slots.votes[a] / len(answers), lowest[a], total[a] / slots.votes[a], math.log(slots.votes[a]), posterior[a] if posterior else 0.0] for a in range(k)]
    for values in fields:
        sums = [0.0] * k
        for i, v in enumerate(_standardised_field(values)):
            if slots.slot[i] >= 0:
                sums[slots.slot[i]] += v
        for a in range(k):
            rows[a].append(sums[a] / slots.votes[a])
    return slots, rows


def group_features(g: ScoredGroup):
    """A question's features as the selector reads them (its generator weights and named fields)."""
    return answer_features(g.answers, g.energies, g.labels, selector_generator_weights(g), getattr(g, "fields", None) or ())


def field_count(groups: Sequence[ScoredGroup]) -> int:
    return len(getattr(groups[0], "fields", None) or ()) if groups else 0


def _selector_rows(groups: Sequence[ScoredGroup]):
    """(x, y): every answer of these questions as a row, and its target."""
    rows: List[List[float]] = []
    ys: List[float] = []
    for slots, x in (group_features(g) for g in groups):
        rows.extend(x)
        ys.extend(c / v for c, v in zip(slots.correct, slots.votes))
    d = len(SELECTOR_FEATURES) + field_count(groups)
    return np.array(rows, dtype=np.float64).reshape(-1, d), ys


def fit_selector(groups: Sequence[ScoredGroup]) -> List[float]:
    x, y = _selector_rows(groups)
    return fit_logistic(x, y, selector_penalties(field_count(groups)), selector_prior(field_count(groups)))


def _linear(row: Sequence[float], beta: Sequence[float]) -> float:
    z = 0.0
    for xj, bj in zip(row, beta):
        z += xj * bj
    return z


def selector_probabilities(rows: Sequence[Sequence[float]], beta: Sequence[float]) -> List[float]:
    return [sigmoid(_linear(r, beta)) for r in rows]


def pick_by_features(features, beta: Sequence[float]) -> Tuple[float, float]:
    """(score, probability) of the selector's pick on a question's features (tied answers averaged); (0, 0) without answers."""
    slots, rows = features
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


def selector_pick(g: ScoredGroup, beta: Sequence[float]) -> Tuple[float, float]:
    return pick_by_features(group_features(g), beta)
