"""Choosing one answer per question, rule for rule as the app (src/engine/metrics/vote.ts, temperature.ts,
bootstrap.ts, calibration.ts, selectionSentence.ts, selection.ts; the cross-fitting in cross_fit.py): the
same scores, the same temperature, probability map and selector cross-fitted over the reported questions,
the same bootstrap resamples (the shared mulberry32 stream) and the same sentence, so
`python -m eorm.score` and the app print the same report (tests/test_app_rules.py pins it).

Every rule scores a group as the expected accuracy of a uniformly random pick among its tied choices;
an answer counts as correct with the share of its candidates labelled correct."""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .metrics import AnswerSlots, ScoredGroup, assert_group, best_of_n_score, majority_vote_pick, mixed_label_answers, rank_key, weighted_vote_pick
from .cross_fit import brier_terms, cross_fit, log_loss_terms
from .rng import M32

TEMPERATURE_MIN = 0.01
TEMPERATURE_MAX = 100.0


def at_lower_bound(t: float) -> bool:
    """The fit stopped at the search's lower end (within the search's tolerance): the criterion still fell there."""
    return t <= TEMPERATURE_MIN * 1.001


GRID_POINTS = 25
LOG_T_TOLERANCE = 1e-6
BOOTSTRAP_RESAMPLES = 1000
CALIBRATION_BINS = 10
SELECTION_RULES = ["bestOfN", "majority", "weightedVote", "weightedVoteRaw", "selector", "first", "random", "oracle"]
VERIFIER_RULES = ["bestOfN", "weightedVote", "weightedVoteRaw", "selector"]
NAN = float("nan")


# ---- temperature (temperature.ts) -----------------------------------------------------------------------


def _fit_group(g: ScoredGroup):
    s = AnswerSlots(g.answers, g.labels)
    energies: List[float] = []
    share: List[float] = []
    right = wrong = False
    for i, e in enumerate(g.energies):
        if rank_key(e) == math.inf:
            continue
        k = s.slot[i]
        q = 0.0 if k < 0 else s.correct[k] / s.votes[k]
        energies.append(float(e))
        share.append(q)
        right = right or q > 0
        wrong = wrong or q < 1
    return (energies, share) if right and wrong else None


def fit_groups(groups: Sequence[ScoredGroup]):
    return [f for f in (_fit_group(g) for g in groups) if f is not None]


def _log_sum_exp(xs: List[float]) -> float:
    """max + log1p(Σ_{others} exp(x − max)), as temperature.ts (keeps tiny losses from rounding to 0)."""
    top = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[top]:
            top = i
    rest = 0.0
    for i, x in enumerate(xs):
        if i != top:
            rest += math.exp(x - xs[top])
    return xs[top] + math.log1p(rest)


def correct_mass_nll(groups, temperature: float) -> float:
    """Mean over the groups of −log M(T), M the vote's mass on correct answers (see temperature.ts)."""
    total = 0.0
    for energies, share in groups:
        all_: List[float] = []
        right: List[float] = []
        for e, q in zip(energies, share):
            x = -e / temperature
            all_.append(x)
            if q > 0:
                right.append(x + math.log(q))
        total += _log_sum_exp(all_) - _log_sum_exp(right)
    return total / len(groups)


def fit_temperature(scored: Sequence[ScoredGroup]) -> Tuple[float, int]:
    """(T, groups it learned from); (1, 0) when no group can inform it."""
    groups = fit_groups(scored)
    if not groups:
        return 1.0, 0

    def f(u: float) -> float:
        return correct_mass_nll(groups, math.exp(u))

    lo = math.log(TEMPERATURE_MIN)
    hi = math.log(TEMPERATURE_MAX)
    step = (hi - lo) / (GRID_POINTS - 1)
    best, best_f = 0, math.inf
    for k in range(GRID_POINTS):
        v = f(lo + k * step)
        if v < best_f:
            best_f, best = v, k
    a = lo + (best - 1) * step if best > 0 else lo
    b = lo + (best + 1) * step if best < GRID_POINTS - 1 else hi
    inv_phi = (math.sqrt(5) - 1) / 2
    c = b - inv_phi * (b - a)
    d = a + inv_phi * (b - a)
    fc, fd = f(c), f(d)
    while b - a > LOG_T_TOLERANCE:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - inv_phi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + inv_phi * (b - a)
            fd = f(d)
    return math.exp((a + b) / 2), len(groups)


# ---- bootstrap (bootstrap.ts) ---------------------------------------------------------------------------


def _mulberry32_ints(seed: int, start: int, count: int, n: int) -> np.ndarray:
    """Draws start .. start+count−1 of Rng(seed).int(n), vectorised: mulberry32's state after k draws is
    seed + k·0x6D2B79F5 (mod 2^32), so every draw is a function of its position alone."""
    k = np.arange(start + 1, start + count + 1, dtype=np.uint64)
    m = np.uint64(M32)
    a = (np.uint64(seed & M32) + k * np.uint64(0x6D2B79F5)) & m
    t = ((a ^ (a >> np.uint64(15))) * (a | np.uint64(1))) & m
    t ^= (t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & m)) & m
    u = ((t ^ (t >> np.uint64(14))) & m).astype(np.float64) / 4294967296.0
    return np.floor(u * n).astype(np.int64)


def percentile(sorted_values: Sequence[float], p: float) -> float:
    n = len(sorted_values)
    if n == 0:
        return NAN
    h = (n - 1) * p
    i = math.floor(h)
    if i + 1 >= n:
        return float(sorted_values[n - 1])
    return float(sorted_values[i] + (h - i) * (sorted_values[i + 1] - sorted_values[i]))


def bootstrap_interval(estimate: float, g: int, resamples: int, seed: int, statistic) -> Dict[str, float]:
    """The 95% interval of `statistic(idx)` (idx: one resample's indices, rows of an array), over the same
    resamples as bootstrap_intervals with this seed, moved by the resamples' median bias so that it holds
    `estimate` (the app's bootstrapInterval)."""
    if g == 0 or resamples < 1:
        return {"lo": NAN, "hi": NAN}
    values = np.empty(resamples, dtype=np.float64)
    chunk = max(1, (1 << 22) // g)
    for b0 in range(0, resamples, chunk):
        rows = min(chunk, resamples - b0)
        values[b0 : b0 + rows] = statistic(_mulberry32_ints(seed, b0 * g, rows * g, g).reshape(rows, g))
    values = np.sort(values)
    mid = percentile(values, 0.5)
    return {"lo": estimate - (mid - percentile(values, 0.025)), "hi": estimate + (percentile(values, 0.975) - mid)}


def bootstrap_intervals(columns: Sequence[Sequence[float]], resamples: int, seed: int) -> List[Dict[str, float]]:
    """The 95% percentile interval of each column's mean, over the app's resamples (same indices, left-to-right sums)."""
    g = len(columns[0]) if columns else 0
    if g == 0 or resamples < 1:
        return [{"lo": NAN, "hi": NAN} for _ in columns]
    cols = np.asarray(columns, dtype=np.float64)
    means = np.empty((len(columns), resamples), dtype=np.float64)
    chunk = max(1, (1 << 22) // g)
    for b0 in range(0, resamples, chunk):
        rows = min(chunk, resamples - b0)
        idx = _mulberry32_ints(seed, b0 * g, rows * g, g).reshape(rows, g)
        for c in range(len(columns)):
            # cumsum adds left to right, as the app's loop does (np.sum would add pairwise).
            means[c, b0 : b0 + rows] = np.cumsum(cols[c][idx], axis=1)[:, -1] / g
    out = []
    for c in range(len(columns)):
        m = np.sort(means[c])
        out.append({"lo": percentile(m, 0.025), "hi": percentile(m, 0.975)})
    return out


# ---- calibration (calibration.ts) -----------------------------------------------------------------------


def reliability(probability: Sequence[float], correct: Sequence[float]) -> Tuple[float, List[Dict]]:
    count = [0] * CALIBRATION_BINS
    conf = [0.0] * CALIBRATION_BINS
    acc = [0.0] * CALIBRATION_BINS
    for p, y in zip(probability, correct):
        k = min(CALIBRATION_BINS - 1, math.floor(p * CALIBRATION_BINS))
        count[k] += 1
        conf[k] += p
        acc[k] += y
    n = len(probability)
    ece = 0.0
    bins = []
    for k, c in enumerate(count):
        b = {"lo": k / CALIBRATION_BINS, "hi": (k + 1) / CALIBRATION_BINS, "count": c, "confidence": conf[k] / c if c else NAN, "accuracy": acc[k] / c if c else NAN}
        if c:
            ece += (c / n) * abs(b["accuracy"] - b["confidence"])
        bins.append(b)
    return (ece if n else NAN), bins


def ece_interval(probability: Sequence[float], correct: Sequence[float], resamples: int, seed: int) -> Dict[str, float]:
    """ECE's 95% interval about these picks' ECE, never below 0 (the app's eceInterval): per resample Σ_bins |Σ correct − Σ probability| / N."""
    n = len(probability)
    p = np.asarray(probability, dtype=np.float64)
    y = np.asarray(correct, dtype=np.float64)
    bins = np.minimum(CALIBRATION_BINS - 1, np.floor(p * CALIBRATION_BINS)).astype(np.int64)

    def statistic(idx: np.ndarray) -> np.ndarray:
        rows = idx.shape[0]
        flat = (np.arange(rows)[:, None] * CALIBRATION_BINS + bins[idx]).ravel()
        gap = np.bincount(flat, weights=(y[idx] - p[idx]).ravel(), minlength=rows * CALIBRATION_BINS).reshape(rows, CALIBRATION_BINS)
        return np.abs(gap).sum(axis=1) / n

    ci = bootstrap_interval(reliability(probability, correct)[0], n, resamples, seed, statistic)
    return {"lo": 0.0 if ci["lo"] < 0 else ci["lo"], "hi": ci["hi"]}


# ---- the sentence (selectionSentence.ts) ----------------------------------------------------------------


def to_fixed(x: float, digits: int) -> str:
    """JavaScript's Number.prototype.toFixed: the exact binary value rounded half away from zero."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _pct(x: float) -> str:
    return to_fixed(100 * x, 1)


def _points(x: float) -> str:
    return ("-" if x < 0 else "+") + to_fixed(100 * abs(x), 1)


def _questions(n: int) -> str:
    return f"{n} question{'' if n == 1 else 's'}"


PRIORITY = ["weightedVote", "selector", "weightedVoteRaw", "bestOfN"]


def _rule_name(rule: str, t: str, recommended: bool) -> str:
    if rule == "weightedVote":
        return f"the energy-weighted vote (T = {t})" if recommended else f"the energy-weighted vote at T = {t}"
    if rule == "weightedVoteRaw":
        return "the energy-weighted vote at T = 1"
    if rule == "selector":
        return "the learned selector (vote share and energy, cross-fitted)"
    return "Best-of-N (the lowest-energy answer)" if recommended else "Best-of-N"


def largest_diff(versus: Sequence[Dict]) -> Optional[Dict]:
    """The entry with the largest diff (ties: PRIORITY order), the app's largestDiff."""
    m = None
    for v in sorted(versus, key=lambda v: PRIORITY.index(v["rule"])):
        if m is None or v["diff"] > m["diff"]:
            m = v
    return m


def recommend_rule(rules: Dict, versus: List[Dict], temperature: float, groups: int) -> Dict[str, str]:
    if groups == 0:
        return {"rule": "majority", "sentence": "No questions to compare the rules on."}
    winner = largest_diff([v for v in versus if v["real"] and v["diff"] > 0])
    best = winner or largest_diff(versus)
    if best is None:
        return {"rule": "majority", "sentence": f"Use majority vote: no verifier rule was compared on these {_questions(groups)}."}
    majority = _pct(rules["majority"]["accuracy"])
    t = to_fixed(temperature, 2)
    ci = f"95% CI {_points(best['ci']['lo'])} to {_points(best['ci']['hi'])}"
    acc = _pct(rules[best["rule"]]["accuracy"])
    if winner:
        return {"rule": best["rule"], "sentence": f"Use {_rule_name(best['rule'], t, True)}: {acc}% vs {majority}% for majority vote, {_points(best['diff'])} points ({ci}) over {_questions(groups)}."}
    return {
        "rule": "majority",
        "sentence": f"Use majority vote: no verifier rule beats it for real on these {_questions(groups)}; the best, {_rule_name(best['rule'], t, False)}, scores {acc}% vs {majority}%, {_points(best['diff'])} points ({ci}).",
    }


# ---- the report (selection.ts) --------------------------------------------------------------------------


def _mean(xs: Sequence[float]) -> float:
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs) if len(xs) else NAN


def selection_report(scored: Sequence[ScoredGroup], seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> Dict:
    """The app's SelectionReport (same keys): rules with 95% intervals, the verifier rules against majority
    vote, the vote's temperature, probability map and the selector cross-fitted over `scored` (every figure
    that depends on a fit out of fold), calibration."""
    for gi, g in enumerate(scored):
        assert_group(g, gi)
    groups = [g for g in scored if len(g.energies) > 0]
    n = len(groups)
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
        score["first"].append(float(g.labels[0]))
        score["random"].append(n_correct / len(g.labels))
        score["oracle"].append(1.0 if n_correct > 0 else 0.0)
        prob_raw.append(raw[1])
        mixed += mixed_label_answers(slots)
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
    paired = [r for r in VERIFIER_RULES if fitted or r != "selector"]
    diffs = [[x - m for x, m in zip(score[r], score["majority"])] for r in paired]
    brier = brier_terms(prob, score["weightedVote"])
    log_loss = log_loss_terms(prob, score["weightedVote"])
    intervals = bootstrap_intervals([score[r] for r in SELECTION_RULES] + diffs + [brier, log_loss], resamples, seed)
    rules = {r: {"accuracy": _mean(score[r]), "ci": intervals[c]} for c, r in enumerate(SELECTION_RULES)}
    versus = []
    for j, r in enumerate(paired):
        ci = intervals[len(SELECTION_RULES) + j]
        versus.append({"rule": r, "diff": _mean(diffs[j]), "ci": ci, "real": bool(ci["lo"] > 0 or ci["hi"] < 0)})
    ece, bins = reliability(prob, score["weightedVote"])
    ece_raw, bins_raw = reliability(prob_raw, score["weightedVoteRaw"])
    temperature = fit["all"]["temperature"] if fitted else 1.0
    recommended = recommend_rule(rules, versus, temperature, n)
    at = len(SELECTION_RULES) + len(paired)
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
        "bestVerifier": largest_diff(versus),
        "probabilityMap": {
            "temperature": temperature,
            "platt": dict(fit["all"]["platt"]) if fitted and cal_map == "platt" else None,
            "selector": list(fit["all"]["selector"]) if fitted else None,
            "use": "selector" if recommended["rule"] == "selector" else "vote",
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
            "brierCi": intervals[at],
            "logLoss": _mean(log_loss),
            "logLossCi": intervals[at + 1],
            "eceRaw": ece_raw,
            "brierRaw": _mean(brier_terms(prob_raw, score["weightedVoteRaw"])),
            "logLossRaw": _mean(log_loss_terms(prob_raw, score["weightedVoteRaw"])),
            "bins": bins,
            "binsRaw": bins_raw,
            "selector": selector_cal,
        },
        "bootstrap": {"resamples": resamples, "seed": seed},
    }
