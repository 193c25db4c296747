"""Figures over all held-out questions and over those with both labels, as the app's heldOut.ts: with the
'all' split validation holds every kind of question; single-label ones decide nothing between candidates but
belong in the accuracy a user would report. Ties as in every rule (metrics.py)."""
from __future__ import annotations

from typing import Dict, Sequence

from .metrics import NAN, ScoredGroup, best_of_n_score, majority_vote_score, weighted_vote_score


def has_both_labels(g: ScoredGroup) -> bool:
    return 0 < sum(g.labels) < len(g.labels)


def rule_score(g: ScoredGroup, rule: str, temperature: float) -> float:
    n = len(g.labels)
    correct = sum(g.labels)
    if rule == "bestOfN":
        return best_of_n_score(g.energies, g.labels)
    if rule == "majority":
        return majority_vote_score(g.answers, g.labels)
    if rule == "weightedVote":
        return weighted_vote_score(g.answers, g.energies, g.labels, temperature)
    if rule == "weightedVoteRaw":
        return weighted_vote_score(g.answers, g.energies, g.labels, 1.0)
    if rule == "first":
        return g.labels[0]
    if rule == "random":
        return correct / n
    if rule == "oracle":
        return 1 if correct > 0 else 0
    raise ValueError(f"unknown rule {rule!r}")


def rule_accuracy(groups: Sequence[ScoredGroup], rule: str, temperature: float) -> float:
    total = 0.0
    n = 0
    for g in groups:
        if len(g.labels) == 0:
            continue
        total += rule_score(g, rule, temperature)
        n += 1
    return total / n if n else NAN


def held_out_figures(groups: Sequence[ScoredGroup], rule: str, temperature: float) -> Dict:
    every = [g for g in groups if len(g.labels) > 0]
    both = [g for g in every if has_both_labels(g)]
    return {
        "allQuestions": {"groups": len(every), "accuracy": rule_accuracy(every, rule, temperature)},
        "bothLabels": {"groups": len(both), "accuracy": rule_accuracy(both, rule, temperature)},
    }
