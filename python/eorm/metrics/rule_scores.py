"""What each selection rule scores on a question (RULE_SCORES): the one module that names rules by id, as the
app's src/engine/metrics/ruleScores.ts; everything else finds them by role (rules.py, data/rules.json). A score
is the expected accuracy of a uniformly random pick among the rule's tied choices (summary.py)."""
from __future__ import annotations

from typing import Callable, Dict, Optional, Sequence

from .summary import NAN, AnswerSlots, ScoredGroup, best_of_n_score, majority_vote_pick, weighted_vote_pick
from .selector import selector_pick
from .generators import generator_vote_score


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
# The fitted rules' members in cross_fit's and out_of_fold_scores' output (their out-of-fold scores).
FITTED_COLUMNS = {"weightedVote": "vote", "selector": "selector"}
# The vote whose probabilities the report calibrates (at the fitted temperature) and the same vote at T = 1.
CALIBRATED_VOTE_RULE = "weightedVote"
RAW_VOTE_RULE = "weightedVoteRaw"
# Each rule's figure in the evaluation summary (summary.py's format), where it has one.
SUMMARY_FIGURES: Dict[str, Callable[[Dict], float]] = {
    "bestOfN": lambda s: s["bestOfN"],
    "weightedVote": lambda s: s["baselines"]["weightedVote"],
}
