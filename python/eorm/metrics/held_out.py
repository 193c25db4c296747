"""Figures over all held-out questions and over those with both labels, as the app's heldOut.ts: with the
'all' split validation holds every kind of question; single-label ones decide nothing between candidates but
belong in the accuracy a user would report. Ties as in every rule (rule_scores.py)."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from .summary import NAN, AnswerSlots, ScoredGroup, evaluate_groups
from .ncurve import best_of_n_curve
from .rule_scores import RULE_SCORES
from ..selection import SELECTION_RULES, selection_report


def has_both_labels(g: ScoredGroup) -> bool:
    return 0 < sum(g.labels) < len(g.labels)


def rule_score(g: ScoredGroup, rule: str, temperature: float, selector: Optional[Sequence[float]] = None) -> float:
    if rule not in RULE_SCORES:
        raise ValueError(f"unknown rule {rule!r}")
    return RULE_SCORES[rule](g, AnswerSlots(g.answers, g.labels), temperature, selector)


def rule_accuracy(groups: Sequence[ScoredGroup], rule: str, temperature: float, selector: Optional[Sequence[float]] = None) -> float:
    total = 0.0
    n = 0
    for g in groups:
        if len(g.labels) == 0:
            continue
        total += rule_score(g, rule, temperature, selector)
        n += 1
    return total / n if n else NAN


def held_out_figures(groups: Sequence[ScoredGroup], rule: str, temperature: float) -> Dict:
    every = [g for g in groups if len(g.labels) > 0]
    both = [g for g in every if has_both_labels(g)]
    return {
        "allQuestions": {"groups": len(every), "accuracy": rule_accuracy(every, rule, temperature)},
        "bothLabels": {"groups": len(both), "accuracy": rule_accuracy(both, rule, temperature)},
    }


def all_questions_figures(groups: Sequence[ScoredGroup], report: Dict, in_report) -> Dict:
    """Every rule over every non-empty group (the app's allQuestionsFigures): the report's own (out-of-fold)
    figures on the groups it covers, the maps it fitted on all of them on the others."""
    every = [g for g in groups if len(g.labels) > 0]
    rest = [g for g in every if not in_report(g)]
    temperature, selector = report["probabilityMap"]["temperature"], report["probabilityMap"]["selector"]

    def accuracy(r: str) -> float:
        total = report["rules"][r]["accuracy"] * report["groups"] if report["groups"] > 0 else 0.0
        for g in rest:
            total += rule_score(g, r, temperature, selector)
        return total / len(every) if every else NAN

    return {"groups": len(every), "rules": {r: accuracy(r) for r in SELECTION_RULES}}


def unanimous_questions(groups: Sequence[ScoredGroup]) -> Dict:
    """The evaluated questions whose candidates all give one answer, and how many were right (the app's unanimousQuestions)."""
    right = 0.0
    questions = 0
    for g in groups:
        slots = AnswerSlots(g.answers, g.labels)
        if len(slots.votes) != 1 or -1 in slots.slot:
            continue
        questions += 1
        right += slots.correct[0] / slots.votes[0]
    return {"right": right, "questions": questions}


def evaluation_figures(scored: Sequence[ScoredGroup], seed: int, curve_subsets: int, both_labels: bool) -> Dict:
    """`both_labels` (a validation): `summary`, `curve` and `selection` over the questions with both labels (where
    rules differ, and all that validation held before the 'all' split), `selection.allQuestions` (each rule)
    over every question; else (a test file) all of them over every question. `allQuestionsAccuracy`: the
    recommended rule's accuracy over every question. The vote's calibration and the selector are cross-fitted
    over the reported questions (cross_fit.py), seeded by `seed`."""
    reported = [g for g in scored if has_both_labels(g)] if both_labels else list(scored)
    selection = selection_report(reported, seed)
    selection["probabilityMap"]["unanimous"] = unanimous_questions(scored)
    rule = selection["recommended"]["rule"]
    if both_labels:
        every = all_questions_figures(scored, selection, has_both_labels)
        selection["allQuestions"] = every
        accuracy = every["rules"][rule]
    else:
        accuracy = selection["rules"][rule]["accuracy"]
    return {
        "summary": evaluate_groups(reported),
        "curve": best_of_n_curve(reported, seed, curve_subsets) if curve_subsets > 0 and reported else [],
        "selection": selection,
        "allQuestionsAccuracy": accuracy,
    }
