"""The two gains a selection report states beyond its table, as the app's src/engine/metrics/selectionVerdict.ts:
the verifier's gain (the largest Holm-real verifier gain, else the rule declared in advance, its interval widened
for the choice) and what the energy adds over the best rule without it declared in advance."""
from __future__ import annotations

from typing import Callable, Dict, Optional, Sequence

from .metrics.bootstrap import difference_interval, mean
from .metrics.paired_test import sign_flip_test
from .rules import BASELINE_RULE, FALLBACK_VERIFIER_RULE, PRIMARY_VERIFIER_RULE, VERIFIER_RULES, generator_rule
from .selection_sentence import energy_gain_sentence, largest_diff



def primary_rule(fitted: bool) -> str:
    return PRIMARY_VERIFIER_RULE if fitted else FALLBACK_VERIFIER_RULE


def best_verifier_of(versus: Sequence[Dict], fitted: bool, diffs_of: Callable, diff_replicates: Callable) -> Optional[Dict]:
    verifier = [v for v in versus if v["rule"] in VERIFIER_RULES]
    if not verifier:
        return None
    winner = largest_diff([v for v in verifier if v["real"] and v["diff"] > 0])
    chosen = winner or next((v for v in verifier if v["rule"] == primary_rule(fitted)), verifier[0])
    alpha = 0.05 / len(verifier)
    return {**chosen, "chosen": "real gain" if winner else "declared in advance", "level": 1 - alpha, "ci": difference_interval(diff_replicates(chosen["rule"], BASELINE_RULE), diffs_of(chosen["rule"]), alpha)}


def baseline_of(groups) -> str:
    """What the energy's gain is measured against: the vote with generator weights where questions have them
    (labelled ones first), else the baseline rule."""
    gens = [getattr(g, "generators", None) or {} for g in groups]
    for kind in ("labelled", "agreement"):
        if any(x.get(kind) is not None for x in gens):
            return generator_rule(kind)
    return BASELINE_RULE


def energy_gain_of(groups, score: Dict, fitted: bool, temperature: float, diff_replicates: Callable) -> Dict:
    rule = primary_rule(fitted)
    versus = baseline_of(groups)
    d = [x - y for x, y in zip(score[rule], score[versus])]
    test = sign_flip_test(d)
    gain = {"rule": rule, "versus": versus, "diff": mean(d), "ci": difference_interval(diff_replicates(rule, versus), d), "differing": test["differing"], "p": test["p"], "real": bool(test["p"] < 0.05)}
    gain["sentence"] = energy_gain_sentence(gain, temperature)
    return gain
