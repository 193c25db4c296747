"""Accuracy against the number of candidates N for every selection rule, draw for draw as the app's
bestOfNCurve (src/engine/metrics/ncurve.ts): per N, `subsets_per_n` trials; a trial draws one uniform random
N-subset of every group with at least N candidates (a group of exactly N takes them all), scores each rule
and averages over those groups; a row is the mean of its trials and the 2.5th-97.5th percentile band of them
(the PRM800K evaluation's convention: how much the figure moves with which N candidates a question got, not
an interval over questions). A row without a sampled group is computed once (a point band). Ties as in every
rule (metrics.py): Best-of-N the share correct among the tied lowest energies, votes a random pick among the
tied answers, each correct with the share of its candidates labelled correct."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from .summary import ScoredGroup, assert_group, best_of_n_score, majority_vote_score, weighted_vote_score
from ..rng import Rng

CURVE_RULES = ("model", "majorityVote", "weightedVote", "random", "oracle")


def curve_sizes(max_size: int) -> List[int]:
    ns: List[int] = []
    n = 1
    while n <= max_size:
        ns.append(n)
        n *= 2
    if ns and ns[-1] != max_size:
        ns.append(max_size)
    return ns


def quantile(sorted_xs: Sequence[float], p: float) -> float:
    """The p-quantile of ascending values, linear between order statistics (numpy's default)."""
    h = (len(sorted_xs) - 1) * p
    lo = int(h // 1)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (h - lo) * (sorted_xs[hi] - sorted_xs[lo])


def _draw_subset(m: int, k: int, rng: Rng) -> List[int]:
    perm = list(range(m))
    for i in range(k):
        j = i + rng.int(m - i)
        perm[i], perm[j] = perm[j], perm[i]
    return sorted(perm[:k])


def _score_subset(g: ScoredGroup, idx: Sequence[int], temperature: float) -> Dict[str, float]:
    e = [float(g.energies[i]) for i in idx]
    lab = [g.labels[i] for i in idx]
    a = [g.answers[i] for i in idx]
    n_correct = sum(lab)
    return {
        "model": best_of_n_score(e, lab),
        "majorityVote": majority_vote_score(a, lab),
        "weightedVote": weighted_vote_score(a, e, lab, temperature),
        "random": n_correct / len(idx),
        "oracle": 1 if n_correct > 0 else 0,
    }


def best_of_n_curve(groups: Sequence[ScoredGroup], seed: int, subsets_per_n: int = 64, temperature: float = 1.0) -> List[Dict]:
    if not isinstance(subsets_per_n, int) or subsets_per_n < 1:
        raise ValueError(f"subsetsPerN must be a positive integer, got {subsets_per_n}")
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    for gi, g in enumerate(groups):
        assert_group(g, gi)
    rng = Rng(seed)
    max_size = max((len(g.energies) for g in groups), default=0)
    rows = []
    for n in curve_sizes(max_size):
        members = [g for g in groups if len(g.energies) >= n]
        whole: List[Optional[Dict[str, float]]] = [_score_subset(g, range(n), temperature) if len(g.energies) == n else None for g in members]
        exact = sum(1 for w in whole if w is not None)
        trials = 1 if exact == len(members) else subsets_per_n
        per_trial: Dict[str, List[float]] = {r: [] for r in CURVE_RULES}
        for _ in range(trials):
            total = {r: 0.0 for r in CURVE_RULES}
            for g, w in zip(members, whole):
                s = w if w is not None else _score_subset(g, _draw_subset(len(g.energies), n, rng), temperature)
                for r in CURVE_RULES:
                    total[r] += s[r]
            for r in CURVE_RULES:
                per_trial[r].append(total[r] / len(members))
        row: Dict = {"n": n, "nGroups": len(members), "exactGroups": exact, "trials": trials}
        band = {}
        for r in CURVE_RULES:
            xs = per_trial[r]
            acc = 0.0
            for x in xs:
                acc += x
            row[r] = acc / trials
            ordered = sorted(xs)
            band[r] = {"lo": quantile(ordered, 0.025), "hi": quantile(ordered, 0.975)}
        row["band"] = band
        rows.append(row)
    return rows
