"""What each selection rule scores on a question (RULE_SCORES): the one module that names rules by id, as the
app's heldOut.ts; everything else finds them by role (rules.py, data/rules.json). Also the figures over all
held-out questions and over those with both labels: with the 'all' split validation holds every kind of
question; single-label ones decide nothing between candidates but belong in the accuracy a user would report.
Ties as in every rule (summary.py)."""
from __future__ import annotations

from typing import Callable, Dict, Optional, Sequence

from .summary import NAN, AnswerSlots, ScoredGroup, best_of_n_score, majority_vote_pick, weighted_vote_pick
from .selector import selector_pick
from .generators import generator_vote_score
from ..rules import SELECTION_RULES


def _generators(g: ScoredGroup, kind: str):
    return (getattr(g, "generators", None) or {}).get(kind)


# rule → score(group, its answer slots, the vote's temperature, the selector's coefficients or None): the expected
# accuracy of the rule's pick. The fitted rules score here as applied with given maps; the report's own
# figures for them are cross-fitted (FITTED_COLUMNS).
RULE_SCORES: Dict[str, Callable[[ScoredGroup, AnswerSlots, float, Optional[Sequence[float]]], float]] = {
    "bestOfN": lambda g, s, t, sel: best_of_n_score(g.energies, g.labels),
    "majority": lambda g, s, t, sel: majority_vote_pick(s),
    "weightedVote": lambda g, s, t, sel: weighted_vote_pick(s, g.energies, t)[0],
    "weightedVoteRaw": lambda g, s, t, sel: weighted_vote_pick(s, g.energies, 1.0)[0],
    "selector": lambda g, s, t, sel: selector_pick(g, sel)[0] if sel is not None else NAN,
    "generatorVote": lambda g, s, t, sel: generator_vote_score(s, _generators(g, "labelled")),
    "generatorVoteFree": lambda g, s, t, sel: generator_vote_score(s, _generators(g, "agreement")),
    "first": lambda g, s, t, sel: float(g.labels[0]),
    "random": lambda g, s, t, sel: sum(g.labels) / len(g.labels),
    "oracle": lambda g, s, t, sel: 1.0 if sum(g.labels) > 0 else 0.0,
}
# The fitted rules' members in cross_fit's and refit_replicates' output (their out-of-fold scores).
FITTED_COLUMNS = {"weightedVote": "vote", "selector": "selector"}
# The vote whose probabilities the report calibrates (at the fitted temperature) and the same vote at T = 1.
CALIBRATED_VOTE_RULE = "weightedVote"
RAW_VOTE_RULE = "weightedVoteRaw"
# Each rule's figure in the evaluation summary (summary.py's format), where it has one.
SUMMARY_FIGURES: Dict[str, Callable[[Dict], float]] = {
    "bestOfN": lambda s: s["bestOfN"],
    "weightedVote": lambda s: s["baselines"]["weightedVote"],
}


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
