"""An evaluation's figures as the app's evaluateModel (src/engine/score/evaluation.ts): the summary, the
Best-of-N curve, the selection report and each rule over every question (held_out.py)."""
from __future__ import annotations

from typing import Dict, Sequence

from .held_out import all_questions_figures, has_both_labels, unanimous_questions
from .ncurve import best_of_n_curve
from .summary import ScoredGroup, evaluate_groups
from ..selection import selection_report


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
