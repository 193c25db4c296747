"""Choosing one answer per question, rule for rule as the app's src/engine/metrics/selection.ts: the same scores,
the same temperature, probability map and selector cross-fitted over the reported questions (cross_fit.py) and
refitted inside the bootstrap (refit_bootstrap.py), the same resamples (the shared mulberry32 stream), the same
exact paired tests with Holm's adjustment (paired_test.py) and the same sentences, so `python -m eorm.score` and
the app print the same report (tests/test_app_rules.py pins it).

Every rule scores a group as the expected accuracy of a uniformly random pick among its tied choices;
an answer counts as correct with the share of its candidates labelled correct."""
from __future__ import annotations

from typing import Dict, List, Sequence

import numpy as np

from .metrics.bootstrap import BOOTSTRAP_RESAMPLES, NAN, bootstrap_replicates, percentile_interval
from .metrics.calibration import ece_interval, reliability
from .metrics.cross_fit import brier_terms, cross_fit, log_loss_terms
from .metrics.folds import cross_fit_folds
from .metrics.generators import generator_vote_score
from .metrics.summary import AnswerSlots, ScoredGroup, assert_group, best_of_n_score, majority_vote_pick, mixed_label_answers, weighted_vote_pick
from .metrics.paired_test import holm, sign_flip_test
from .metrics.refit_bootstrap import refit_replicates
from .rules import COMPARED_RULES, RULE_BY_ID, SELECTION_RULES
from .selection_sentence import recommend_rule, to_fixed  # noqa: F401 (to_fixed: the sentences' rounding, for other modules)
from .selection_verdict import best_verifier_of, energy_gain_of

SIGNIFICANCE_TEST = "an exact paired sign-flip test on the per-question differences (drawn beyond 20 differing questions), Holm-adjusted over the rules compared"


def _mean(xs: Sequence[float]) -> float:
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs) if len(xs) else NAN


def _generators(g: ScoredGroup, key: str):
    return (getattr(g, "generators", None) or {}).get(key)


def _scores(groups: Sequence[ScoredGroup]):
    score: Dict[str, List[float]] = {r: [] for r in SELECTION_RULES}
    prob_raw: List[float] = []
    mixed = 0
    for g in groups:
        slots = AnswerSlots(g.answers, g.labels)
        raw = weighted_vote_pick(slots, g.energies, 1.0)
        n_correct = sum(g.labels)
        score["bestOfN"].append(best_of_n_score(g.energies, g.labels))
        score["majority"].append(majority_vote_pick(slots))
        score["weightedVoteRaw"].append(raw[0])
        score["generatorVote"].append(generator_vote_score(slots, _generators(g, "labelled")))
        score["generatorVoteFree"].append(generator_vote_score(slots, _generators(g, "agreement")))
        score["first"].append(float(g.labels[0]))
        score["random"].append(n_correct / len(g.labels))
        score["oracle"].append(1.0 if n_correct > 0 else 0.0)
        prob_raw.append(raw[1])
        mixed += mixed_label_answers(slots)
    return score, prob_raw, mixed


def selection_report(scored: Sequence[ScoredGroup], seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> Dict:
    """The app's SelectionReport (same keys)."""
    for gi, g in enumerate(scored):
        assert_group(g, gi)
    groups = [g for g in scored if len(g.energies) > 0]
    n = len(groups)
    score, prob_raw, mixed = _scores(groups)
    fit = cross_fit(groups, seed)
    fitted = "reason" not in fit
    prob, cal_map = prob_raw, "none"
    if fitted:
        score["weightedVote"] = fit["vote"]["score"]
        score["selector"] = fit["selector"]["score"]
        platt_wins = _mean(log_loss_terms(fit["vote"]["platt"], fit["vote"]["score"])) < _mean(log_loss_terms(fit["vote"]["share"], fit["vote"]["score"]))
        cal_map = "platt" if platt_wins else "share"
        prob = fit["vote"]["platt"] if platt_wins else fit["vote"]["share"]
    else:
        score["weightedVote"] = list(score["weightedVoteRaw"])
        score["selector"] = [NAN] * n
    compared = [r for r in COMPARED_RULES if fitted or r != "selector"]
    diffs = [[x - m for x, m in zip(score[r], score["majority"])] for r in compared]
    brier = brier_terms(prob, score["weightedVote"])
    log_loss = log_loss_terms(prob, score["weightedVote"])
    replicates = bootstrap_replicates([score[r] for r in SELECTION_RULES] + diffs + [brier, log_loss], resamples, seed)
    refit = refit_replicates(groups, cross_fit_folds(n, seed), fit["folds"], fit["all"]["selector"], resamples, seed) if fitted and n > 0 else None

    def rule_replicates(r: str) -> np.ndarray:
        return refit[r] if refit is not None and RULE_BY_ID[r]["fitted"] else replicates[SELECTION_RULES.index(r)]

    def diff_replicates(r: str, versus: str = "majority") -> np.ndarray:
        if versus == "majority" and r in compared and not (refit is not None and RULE_BY_ID[r]["fitted"]):
            return replicates[len(SELECTION_RULES) + compared.index(r)]
        return rule_replicates(r) - rule_replicates(versus)

    rules = {r: {"accuracy": _mean(score[r]), "ci": percentile_interval(rule_replicates(r))} for r in SELECTION_RULES}
    tests = [sign_flip_test(d) for d in diffs]
    family = [r for j, r in enumerate(compared) if tests[j]["differing"] > 0]
    adjusted = holm([tests[compared.index(r)]["p"] for r in family])
    versus = []
    for j, r in enumerate(compared):
        p_adj = adjusted[family.index(r)] if r in family else 1.0
        versus.append({"rule": r, "diff": _mean(diffs[j]), "ci": percentile_interval(diff_replicates(r)), "differing": tests[j]["differing"], "p": tests[j]["p"], "pAdjusted": p_adj, "real": bool(p_adj < 0.05)})
    ece, bins = reliability(prob, score["weightedVote"])
    ece_raw, bins_raw = reliability(prob_raw, score["weightedVoteRaw"])
    temperature = fit["all"]["temperature"] if fitted else 1.0
    recommended = recommend_rule(rules, versus, temperature, n)
    at = len(SELECTION_RULES) + len(compared)
    selector_cal = None
    if fitted:
        sp, ss = fit["selector"]["probability"], fit["selector"]["score"]
        selector_cal = {"ece": reliability(sp, ss)[0], "brier": _mean(brier_terms(sp, ss)), "logLoss": _mean(log_loss_terms(sp, ss))}
    return {
        "groups": n,
        "rules": rules,
        "temperature": temperature,
        "temperatureSource": f"fitted on {n} held-out questions; every figure that depends on it is out of fold ({fit['folds']} folds)" if fitted else f"not fitted (T = 1): {fit['reason']}",
        "versusMajority": versus,
        "bestVerifier": best_verifier_of(versus, fitted, diff_replicates),
        "energyGain": energy_gain_of(groups, score, fitted, temperature, diff_replicates) if n > 0 else None,
        "test": SIGNIFICANCE_TEST,
        "probabilityMap": {
            "temperature": temperature,
            "platt": dict(fit["all"]["platt"]) if fitted and cal_map == "platt" else None,
            "selector": list(fit["all"]["selector"]) if fitted else None,
            "use": "selector" if recommended["rule"] == "selector" else "vote",
            "recommended": recommended["rule"],
        },
        "recommended": recommended,
        "mixedLabelAnswers": mixed,
        "calibration": {
            "method": f"k-fold:{fit['folds']}" if fitted else f"none: {fit['reason']}",
            "questions": n if fitted else 0,
            "map": cal_map,
            "ece": ece,
            "eceCi": ece_interval(prob, score["weightedVote"], resamples, seed),
            "brier": _mean(brier),
            "brierCi": percentile_interval(replicates[at]),
            "logLoss": _mean(log_loss),
            "logLossCi": percentile_interval(replicates[at + 1]),
            "eceRaw": ece_raw,
            "brierRaw": _mean(brier_terms(prob_raw, score["weightedVoteRaw"])),
            "logLossRaw": _mean(log_loss_terms(prob_raw, score["weightedVoteRaw"])),
            "bins": bins,
            "binsRaw": bins_raw,
            "selector": selector_cal,
        },
        "bootstrap": {"resamples": resamples, "seed": seed},
    }
