"""Choosing one answer per question, rule for rule as the app (src/engine/metrics/vote.ts, temperature.ts,
bootstrap.ts, calibration.ts, selectionSentence.ts, selection.ts): the same scores, the same fitted
temperature, the same bootstrap resamples (the shared mulberry32 stream) and the same sentence, so
`python -m eorm.score` and the app print the same report (tests/test_app_rules.py pins it).

Every rule scores a group as the expected accuracy of a uniformly random pick among its tied choices;
an answer counts as correct with the share of its candidates labelled correct."""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .metrics import AnswerSlots, ScoredGroup, assert_group, best_of_n_score, majority_vote_pick, mixed_label_answers, rank_key, weighted_vote_pick
from .rng import M32, Rng

TEMPERATURE_MIN = 0.01
TEMPERATURE_MAX = 100.0


def at_lower_bound(t: float) -> bool:
    """The fit stopped at the search's lower end (within the search's tolerance): the criterion still fell there."""
    return t <= TEMPERATURE_MIN * 1.001


GRID_POINTS = 25
LOG_T_TOLERANCE = 1e-6
BOOTSTRAP_RESAMPLES = 1000
CALIBRATION_BINS = 10
FIT_MAX_GROUPS = 64  # the app's (src/engine/train/evaluation.ts)
SELECTION_RULES = ["bestOfN", "majority", "weightedVote", "weightedVoteRaw", "first", "random", "oracle"]
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


def fit_subset(groups: Sequence[int], seed: int, max_groups: int = FIT_MAX_GROUPS) -> List[int]:
    """At most max_groups of groups, drawn without replacement (the app's fitSubset), ascending."""
    items = list(groups)
    if len(items) <= max_groups:
        return items
    rng = Rng((seed ^ 0x9E3779B9) & M32)
    for i in range(max_groups):
        j = i + rng.int(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return sorted(items[:max_groups])


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


def recommend_rule(rules: Dict, versus: List[Dict], temperature: float, groups: int) -> Dict[str, str]:
    if groups == 0:
        return {"rule": "majority", "sentence": "No questions to compare the rules on."}
    ordered = sorted(versus, key=lambda v: 0 if v["rule"] == "weightedVote" else 1)

    def largest(vs):
        m = None
        for v in vs:
            if m is None or v["diff"] > m["diff"]:
                m = v
        return m

    winner = largest([v for v in ordered if v["real"] and v["diff"] > 0])
    best = winner or largest(ordered)
    if best is None:
        return {"rule": "majority", "sentence": f"Use majority vote: no verifier rule was compared on these {_questions(groups)}."}
    majority = _pct(rules["majority"]["accuracy"])
    t = to_fixed(temperature, 2)
    ci = f"95% CI {_points(best['ci']['lo'])} to {_points(best['ci']['hi'])}"
    acc = _pct(rules[best["rule"]]["accuracy"])
    if winner:
        name = f"the energy-weighted vote (T = {t})" if best["rule"] == "weightedVote" else "Best-of-N (the lowest-energy answer)"
        return {"rule": best["rule"], "sentence": f"Use {name}: {acc}% vs {majority}% for majority vote, {_points(best['diff'])} points ({ci}) over {_questions(groups)}."}
    name = f"the energy-weighted vote at T = {t}" if best["rule"] == "weightedVote" else "Best-of-N"
    return {
        "rule": "majority",
        "sentence": f"Use majority vote: no verifier rule beats it for real on these {_questions(groups)}; the best, {name}, scores {acc}% vs {majority}%, {_points(best['diff'])} points ({ci}).",
    }


# ---- the report (selection.ts) --------------------------------------------------------------------------


def _mean(xs: Sequence[float]) -> float:
    s = 0.0
    for x in xs:
        s += x
    return s / len(xs) if len(xs) else NAN


def selection_report(
    scored: Sequence[ScoredGroup],
    seed: int,
    fit_on: Optional[Sequence[ScoredGroup]],
    no_fit_reason: str = "no training groups given",
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> Dict:
    """The app's SelectionReport (same keys): rules with 95% intervals, the verifier rules against majority
    vote, the temperature fitted on `fit_on` (training groups, never `scored`; None: T = 1), calibration."""
    if fit_on is None:
        temperature, source = 1.0, f"not fitted (T = 1): {no_fit_reason}"
    else:
        temperature, n_fit = fit_temperature(fit_on)
        if n_fit == 0:
            temperature, source = 1.0, "not fitted (T = 1): no training group has both a correct and an incorrect answer"
        else:
            source = f"fitted on {n_fit} training group{'' if n_fit == 1 else 's'}"
            if at_lower_bound(temperature):
                source += f", at the search's lower bound ({TEMPERATURE_MIN:g}): the training groups may separate more sharply than held-out ones; compare with T = 1"
    for gi, g in enumerate(scored):
        assert_group(g, gi)
    groups = [g for g in scored if len(g.energies) > 0]
    n = len(groups)
    score: Dict[str, List[float]] = {r: [] for r in SELECTION_RULES}
    prob: List[float] = []
    prob_raw: List[float] = []
    mixed = 0
    for g in groups:
        slots = AnswerSlots(g.answers, g.labels)
        fitted = weighted_vote_pick(slots, g.energies, temperature)
        raw = weighted_vote_pick(slots, g.energies, 1.0)
        n_correct = sum(g.labels)
        score["bestOfN"].append(best_of_n_score(g.energies, g.labels))
        score["majority"].append(majority_vote_pick(slots))
        score["weightedVote"].append(fitted[0])
        score["weightedVoteRaw"].append(raw[0])
        score["first"].append(float(g.labels[0]))
        score["random"].append(n_correct / len(g.labels))
        score["oracle"].append(1.0 if n_correct > 0 else 0.0)
        prob.append(fitted[1])
        prob_raw.append(raw[1])
        mixed += mixed_label_answers(slots)
    paired = ["bestOfN", "weightedVote"]
    diffs = [[x - m for x, m in zip(score[r], score["majority"])] for r in paired]
    intervals = bootstrap_intervals([score[r] for r in SELECTION_RULES] + diffs, resamples, seed)
    rules = {r: {"accuracy": _mean(score[r]), "ci": intervals[c]} for c, r in enumerate(SELECTION_RULES)}
    versus = []
    for j, r in enumerate(paired):
        ci = intervals[len(SELECTION_RULES) + j]
        versus.append({"rule": r, "diff": _mean(diffs[j]), "ci": ci, "real": bool(ci["lo"] > 0 or ci["hi"] < 0)})
    ece, bins = reliability(prob, score["weightedVote"])
    ece_raw, bins_raw = reliability(prob_raw, score["weightedVoteRaw"])
    return {
        "groups": n,
        "rules": rules,
        "temperature": temperature,
        "temperatureSource": source,
        "versusMajority": versus,
        "recommended": recommend_rule(rules, versus, temperature, n),
        "mixedLabelAnswers": mixed,
        "calibration": {"ece": ece, "eceRaw": ece_raw, "bins": bins, "binsRaw": bins_raw},
        "bootstrap": {"resamples": resamples, "seed": seed},
    }
