"""Know your generators, as the app's src/engine/metrics/generators/generators.ts: a vote in which each answer counts by
how often its generator is right (one-coin Dawid & Skene weights w = log(p (K − 1) / (1 − p)), floored), with
reliabilities from training questions' labels (K cross-fitted over them) or from agreement alone
(generator_agreement.py). Operation for operation as the app."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

from .folds import CROSS_FIT_FOLDS, cross_fit_folds
from .summary import AnswerSlots, majority_vote_pick

GENERATOR_PRIOR_ANSWERS = 4
GENERATOR_ALTERNATIVES = [2, 3, 5, 10, 20, 50, 100]
RELIABILITY_FLOOR = 1e-3
WEIGHT_FLOOR = 0.01
MASS_TIE = 1e-9


def clamp_rate(p: float) -> float:
    return min(1 - RELIABILITY_FLOOR, max(RELIABILITY_FLOOR, p))


def vote_weight(p: float, alternatives: float) -> float:
    return max(WEIGHT_FLOOR, math.log(p) - math.log(1 - p) + math.log(alternatives - 1))


def smoothed_rates(hits: Sequence[float], counts: Sequence[float], pooled: float) -> List[float]:
    return [clamp_rate((h + GENERATOR_PRIOR_ANSWERS * pooled) / (c + GENERATOR_PRIOR_ANSWERS)) for h, c in zip(hits, counts)]


def source_count(groups) -> int:
    return len({s for g in groups for s in g["sources"] if s >= 0})


def source_rates(groups, sources: int, hit, use=None):
    """(rates, counts, pooled): smoothed rates per source from each candidate's hit(q, i), over the questions `use` keeps."""
    hits = [0.0] * sources
    counts = [0.0] * sources
    all_hits = 0.0
    every = 0
    for q, g in enumerate(groups):
        if use is not None and not use(q):
            continue
        for i, s in enumerate(g["sources"]):
            h = hit(q, i)
            all_hits += h
            every += 1
            if s < 0:
                continue
            hits[s] += h
            counts[s] += 1
    pooled = clamp_rate(all_hits / every if every > 0 else 0.5)
    return smoothed_rates(hits, counts, pooled), counts, pooled


def candidate_weights(w: Dict, source_names: Sequence[Optional[str]]) -> List[float]:
    index = {n: s for s, n in enumerate(w["names"])}
    pooled = vote_weight(w["pooled"], w["alternatives"])
    out = []
    for n in source_names:
        s = None if n is None else index.get(n)
        out.append(pooled if s is None else vote_weight(w["reliability"][s], w["alternatives"]))
    return out


def answer_mass(slots: AnswerSlots, weights: Sequence[float]) -> List[float]:
    mass = [0.0] * len(slots.votes)
    for i, k in enumerate(slots.slot):
        if k >= 0:
            mass[k] += weights[i]
    return mass


def answer_posterior(mass: Sequence[float]) -> List[float]:
    top = -math.inf
    for m in mass:
        top = max(top, m)
    out = [math.exp(m - top) for m in mass]
    z = 0.0
    for x in out:
        z += x
    return [x / z for x in out]


def generator_vote_pick(slots: AnswerSlots, weights: Sequence[float]):
    """(score, probability) of the generator-weighted vote; (0, 0) without answers."""
    mass = answer_mass(slots, weights)
    if not mass:
        return 0.0, 0.0
    top = -math.inf
    for m in mass:
        top = max(top, m)
    posterior = answer_posterior(mass)
    tied = 0
    score = probability = 0.0
    for k, m in enumerate(mass):
        if m >= top - MASS_TIE * max(1.0, abs(top)):
            tied += 1
            score += slots.correct[k] / slots.votes[k]
            probability += posterior[k]
    return score / tied, probability / tied


def generator_vote_score(slots: AnswerSlots, weights) -> float:
    return generator_vote_pick(slots, weights)[0] if weights is not None else majority_vote_pick(slots)


def weights_of(sources: Sequence[int], by_source: Sequence[float], pooled_weight: float) -> List[float]:
    return [by_source[s] if s >= 0 else pooled_weight for s in sources]


def fit_labelled_generators(groups, names: Sequence[str], seed: int) -> Optional[Dict]:
    """Reliabilities from the labels of `groups` (dicts with answers, labels, sources), K cross-fitted over them."""
    if source_count(groups) < 2:
        return None
    slots = [AnswerSlots(g["answers"], g["labels"]) for g in groups]
    label = lambda q, i: groups[q]["labels"][i]
    fold = cross_fit_folds(len(groups), seed)
    folds = min(CROSS_FIT_FOLDS, len(groups))
    per_fold = [source_rates(groups, len(names), label, lambda q, f=f: fold[q] != f) for f in range(folds)]
    best, best_score = GENERATOR_ALTERNATIVES[0], -math.inf
    for k in GENERATOR_ALTERNATIVES:
        score = 0.0
        for q, g in enumerate(groups):
            rates, _, pooled = per_fold[fold[q] % folds]
            w = weights_of(g["sources"], [vote_weight(p, k) for p in rates], vote_weight(pooled, k))
            score += generator_vote_pick(slots[q], w)[0]
        if score > best_score + 1e-9:
            best_score, best = score, k
    rates, counts, pooled = source_rates(groups, len(names), label)
    return {"method": "labels", "names": list(names), "reliability": rates, "answers": list(counts), "pooled": pooled, "alternatives": best}
