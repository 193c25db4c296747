"""Choosing one answer per question, rule for rule as the app's src/engine/metrics/selection.ts: the same scores,
the same temperature, probability map and selector cross-fitted over the reported questions (cross_fit.py), their
intervals widened by the spread of further cross-fits (repeated_cross_fit.py), the same resamples (the shared mulberry32 stream), the same
exact paired tests with Holm's adjustment (paired_test.py) and the same sentences, so `python -m eorm.score` and
the app print the same report (tests/test_app_rules.py pins it).

Every rule scores a group as the expected accuracy of a uniformly random pick among its tied choices;
an answer counts as correct with the share of its candidates labelled correct."""
from __future__ import annotations

from typing import Dict, List, Sequence

import numpy as np

from .metrics.bootstrap import BOOTSTRAP_RESAMPLES, NAN, bootstrap_replicates, difference_interval, mean, percentile_interval
from .metrics.calibration import ece_interval, reliability
from .metrics.cross_fit import brier_terms, cross_fit, log_loss_terms
from .metrics.rule_scores import CALIBRATED_VOTE_RULE, FITTED_COLUMNS, RAW_VOTE_RULE, RULE_SCORES
from .metrics.summary import AnswerSlots, ScoredGroup, assert_group, mixed_label_answers, weighted_vote_pick
from .metrics.paired_test import holm, sign_flip_test
from .metrics.repeated_cross_fit import repeated_cross_fits, widen_for_fit
from .rules import BASELINE_RULE, COMPARED_RULES, FITTED_RULES, PRIMARY_VERIFIER_RULE, SELECTION_RULES
from .selection_sentence import recommend_rule, to_fixed  # noqa: F401 (to_fixed: the sentences' rounding, for other modules)
from .selection_verdict import best_verifier_of, energy_gain_of

SIGNIFICANCE_TEST = "an exact paired sign-flip test on the per-question differences (drawn beyond 20 differing questions), Holm-adjusted over the rules compared"



def _scores(groups: Sequence[ScoredGroup], fit: Dict):
    """Each rule's score per question (RULE_SCORES): the fitted rules' out of fold where they could be fitted,
    else as applied unfitted (the vote at T = 1, the selector NaN)."""
    fitted = "reason" not in fit
    own = [r for r in SELECTION_RULES if not (fitted and r in FITTED_RULES)]
    score: Dict[str, List[float]] = {r: [] for r in SELECTION_RULES}
    prob_raw: List[float] = []
    mixed = 0
    for g in groups:
        slots = AnswerSlots(g.answers, g.labels)
        for r in own:
            score[r].append(RULE_SCORES[r](g, slots, 1.0, None))
        prob_raw.append(weighted_vote_pick(slots, g.energies, 1.0)[1])
        mixed += mixed_label_answers(slots)
    if fitted:
        for r in FITTED_RULES:
            score[r] = fit[FITTED_COLUMNS[r]]["score"]
    return score, prob_raw, mixed


def selection_report(scored: Sequence[ScoredGroup], seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> Dict:
    """The app's SelectionReport (same keys)."""
    for gi, g in enumerate(scored):
        assert_group(g, gi)
    groups = [g for g in scored if len(g.energies) > 0]
    n = len(groups)
    fit = cross_fit(groups, seed)
    fitted = "reason" not in fit
    score, prob_raw, mixed = _scores(groups, fit)
    prob, cal_map = prob_raw, "none"
    if fitted:
        platt_wins = mean(log_loss_terms(fit["vote"]["platt"], fit["vote"]["score"])) < mean(log_loss_terms(fit["vote"]["share"], fit["vote"]["score"]))
        cal_map = "platt" if platt_wins else "share"
        prob = fit["vote"]["platt"] if platt_wins else fit["vote"]["share"]
    # Unfitted, the primary verifier rule cannot pick (its fallback stands in): it is not compared.
    compared = [r for r in COMPARED_RULES if fitted or r != PRIMARY_VERIFIER_RULE]
    diffs = [[x - m for x, m in zip(score[r], score[BASELINE_RULE])] for r in compared]
    calibrated, raw = score[CALIBRATED_VOTE_RULE], score[RAW_VOTE_RULE]
    brier = brier_terms(prob, calibrated)
    log_loss = log_loss_terms(prob, calibrated)
    replicates = bootstrap_replicates([score[r] for r in SELECTION_RULES] + diffs + [brier, log_loss], resamples, seed)
    # A fitted rule's figure under further deals of the questions into folds, whose spread its interval adds.
    repeats = repeated_cross_fits(groups, seed) if fitted and n > 0 else []

    def is_fitted(r: str) -> bool:
        return len(repeats) > 0 and r in FITTED_RULES

    def mean_of(r: str, deal: int) -> float:
        return mean(repeats[deal][FITTED_COLUMNS[r]]["score"]) if is_fitted(r) else mean(score[r])

    def deals_of(r: str, versus) -> "np.ndarray | None":
        if not (is_fitted(r) or (versus is not None and is_fitted(versus))):
            return None
        return np.array([mean_of(r, t) - (0.0 if versus is None else mean_of(versus, t)) for t in range(len(repeats))])

    def widened(reps: np.ndarray, estimate: float, deals) -> np.ndarray:
        return reps if deals is None else widen_for_fit(reps, estimate, deals)

    def rule_replicates(r: str) -> np.ndarray:
        return widened(replicates[SELECTION_RULES.index(r)], mean(score[r]), deals_of(r, None))

    def diff_replicates(r: str, versus: str = BASELINE_RULE) -> np.ndarray:
        if versus == BASELINE_RULE and r in compared:
            plain = replicates[len(SELECTION_RULES) + compared.index(r)]
        else:
            plain = replicates[SELECTION_RULES.index(r)] - replicates[SELECTION_RULES.index(versus)]
        return widened(plain, mean(score[r]) - mean(score[versus]), deals_of(r, versus))

    rules = {r: {"accuracy": mean(score[r]), "ci": percentile_interval(rule_replicates(r))} for r in SELECTION_RULES}
    tests = [sign_flip_test(d) for d in diffs]
    family = [r for j, r in enumerate(compared) if tests[j]["differing"] > 0]
    adjusted = holm([tests[compared.index(r)]["p"] for r in family])
    versus = []
    for j, r in enumerate(compared):
        p_adj = adjusted[family.index(r)] if r in family else 1.0
        versus.append({"rule": r, "diff": mean(diffs[j]), "ci": difference_interval(diff_replicates(r), diffs[j]), "differing": tests[j]["differing"], "p": tests[j]["p"], "pAdjusted": p_adj, "real": bool(p_adj < 0.05)})
    ece, bins = reliability(prob, calibrated)
    ece_raw, bins_raw = reliability(prob_raw, raw)
    temperature = fit["all"]["temperature"] if fitted else 1.0
    recommended = recommend_rule(rules, versus, temperature, n)
    at = len(SELECTION_RULES) + len(compared)
    selector_cal = None
    if fitted:
        sp, ss = fit["selector"]["probability"], fit["selector"]["score"]
        selector_cal = {"ece": reliability(sp, ss)[0], "brier": mean(brier_terms(sp, ss)), "logLoss": mean(log_loss_terms(sp, ss))}
    return {
        "groups": n,
        "rules": rules,
        "temperature": temperature,
        "temperatureSource": f"fitted on {n} held-out questions; every figure that depends on it is out of fold ({fit['folds']} folds)" if fitted else f"not fitted (T = 1): {fit['reason']}",
        "versusMajority": versus,
        "bestVerifier": best_verifier_of(versus, fitted, lambda r: diffs[compared.index(r)], diff_replicates),
        "energyGain": energy_gain_of(groups, score, fitted, temperature, diff_replicates) if n > 0 else None,
        "test": SIGNIFICANCE_TEST,
        "probabilityMap": {
            "temperature": temperature,
            "platt": dict(fit["all"]["platt"]) if fitted and cal_map == "platt" else None,
            "selector": list(fit["all"]["selector"]) if fitted else None,
            "use": PRIMARY_VERIFIER_RULE if recommended["rule"] == PRIMARY_VERIFIER_RULE else "vote",
            "recommended": recommended["rule"],
        },
        "recommended": recommended,
        "mixedLabelAnswers": mixed,
        "calibration": {
            "method": f"k-fold:{fit['folds']}" if fitted else f"none: {fit['reason']}",
            "questions": n if fitted else 0,
            "map": cal_map,
            "ece": ece,
            "eceCi": ece_interval(prob, calibrated, resamples, seed),
            "brier": mean(brier),
            "brierCi": percentile_interval(replicates[at]),
            "logLoss": mean(log_loss),
            "logLossCi": percentile_interval(replicates[at + 1]),
            "eceRaw": ece_raw,
            "brierRaw": mean(brier_terms(prob_raw, raw)),
            "logLossRaw": mean(log_loss_terms(prob_raw, raw)),
            "bins": bins,
            "binsRaw": bins_raw,
            "selector": selector_cal,
        },
        "bootstrap": {"resamples": resamples, "seed": seed},
    }
