"""Evaluation of an energy model on scored groups, rule for rule as the app (src/engine/metrics/summary.ts,
vote.ts, rank.ts, histogram.ts; the N-curve is ncurve.py's). Lower energy = better. Pure Python floats
(float64, like JS numbers); rates over nothing are NaN, never a fake 0.

Ties: Best-of-N scores the share of correct candidates among those tied at the lowest energy; the votes
score the mean over the tied answers of each answer's share of candidates labelled correct; pairwise
ties count 1/2. Non-finite energies (NaN, ±Infinity: a diverged model) rank as +Infinity in every pick,
comparison and vote weight; averages of energies take them as they are; nNonFinite counts them.

A scored group is a dict-like with `energies`, `labels` (0/1) and `answers` (canonical answer or None)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple


NAN = float("nan")


@dataclass
class ScoredGroup:
    energies: Sequence[float]
    labels: Sequence[int]
    answers: Sequence[Optional[str]]
    # Per candidate, its generator's vote weights: {"labelled": [...] or None, "agreement": [...] or None} (generator_table.py).
    generators: Optional[Dict[str, Optional[List[float]]]] = None
    # Per numeric field named for the selector (the map's selectorFields), each candidate's value (nan: none).
    fields: Optional[List[List[float]]] = None


def softplus(x: float) -> float:
    """log(1 + e^x), returning x for x > 20 like torch.nn.functional.softplus."""
    return x if x > 20 else math.log1p(math.exp(x))


def assert_group(g: ScoredGroup, index: int) -> None:
    n = len(g.energies)
    if len(g.labels) != n or len(g.answers) != n:
        raise ValueError(f"group {index}: {n} energies, {len(g.labels)} labels, {len(g.answers)} answers (must be equal)")
    for i, label in enumerate(g.labels):
        if label not in (0, 1):
            raise ValueError(f"group {index}, candidate {i}: label {label} is not 0 or 1")


def _rate(k: float, n: float) -> float:
    return k / n if n > 0 else NAN


def _stats(xs: List[float]) -> Dict[str, float]:
    count = len(xs)
    mean = _rate(sum_js(xs), count)
    ss = sum_js([(x - mean) * (x - mean) for x in xs])
    return {"count": count, "mean": mean, "std": math.sqrt(_rate(ss, count)) if count else NAN}


def sum_js(xs) -> float:
    """Left-to-right float64 sum (as a JS loop; Python's sum() is the same, named for clarity)."""
    total = 0.0
    for x in xs:
        total += x
    return total


def rank_key(e: float) -> float:
    """Sort key of an energy: itself when finite, else +Infinity (NaN, ±Infinity: a diverged model rank last)."""
    return e if math.isfinite(e) else math.inf


def argmin_energy(energies: Sequence[float]) -> int:
    """Index of the lowest-energy candidate; ties go to the first (strict '<'); non-finite ranks as +∞; -1 if empty."""
    if len(energies) == 0:
        return -1
    best = 0
    best_e = rank_key(energies[0])
    for i in range(1, len(energies)):
        e = rank_key(energies[i])
        if e < best_e:
            best_e, best = e, i
    return best


def best_of_n_score(energies: Sequence[float], labels: Sequence[int]) -> float:
    """Expected label of a uniform pick among the candidates tied at the lowest energy (the argmin's label
    when it is unique); NaN for an empty group."""
    lowest = math.inf
    tied = 0
    correct = 0
    for e, label in zip(energies, labels):
        k = rank_key(e)
        if k < lowest:
            lowest, tied, correct = k, 1, label
        elif k == lowest:
            tied += 1
            correct += label
    return correct / tied if tied else NAN


# ---- votes scored with the tie rule of every rule (vote.ts) -------------------------------------------

# Relative tolerance under which two answers' vote weights tie: sums of exp() differ in their last bits
# between libm and JS engines, so ties (identical candidates, equal energies) stay ties on both sides.
VOTE_TIE_TOLERANCE = 1e-12


class AnswerSlots:
    """A group's distinct answers (first-seen order): per candidate its slot (-1: no answer), per answer its
    votes and candidates labelled correct."""

    def __init__(self, answers: Sequence[Optional[str]], labels: Sequence[int]) -> None:
        index: Dict[str, int] = {}
        self.slot: List[int] = []
        self.votes: List[int] = []
        self.correct: List[int] = []
        for a, label in zip(answers, labels):
            if a is None:
                self.slot.append(-1)
                continue
            k = index.get(a)
            if k is None:
                k = index[a] = len(self.votes)
                self.votes.append(0)
                self.correct.append(0)
            self.slot.append(k)
            self.votes[k] += 1
            self.correct[k] += label


def mixed_label_answers(s: AnswerSlots) -> int:
    return sum(1 for v, c in zip(s.votes, s.correct) if 0 < c < v)


def majority_vote_pick(s: AnswerSlots) -> float:
    most = max(s.votes, default=0)
    tied = 0
    share = 0.0
    for v, c in zip(s.votes, s.correct):
        if v == most:
            tied += 1
            share += c / v
    return share / tied if tied else 0.0


def majority_vote_score(answers: Sequence[Optional[str]], labels: Sequence[int]) -> float:
    return majority_vote_pick(AnswerSlots(answers, labels))


def answer_masses(s: AnswerSlots, energies: Sequence[float], temperature: float) -> List[float]:
    min_e = math.inf
    for e in energies:
        min_e = min(min_e, rank_key(e))
    mass = [0.0] * len(s.votes)
    total = 0.0
    for i, e in enumerate(energies):
        w = 1.0 if min_e == math.inf else _js_exp(-(rank_key(e) - min_e) / temperature)
        total += w
        if s.slot[i] >= 0:
            mass[s.slot[i]] += w
    return [m / total for m in mass]


def weighted_vote_pick(s: AnswerSlots, energies: Sequence[float], temperature: float) -> Tuple[float, float]:
    """(score, probability): a random pick among the answers tied for the most mass, and that mass."""
    mass = answer_masses(s, energies, temperature)
    most = 0.0
    for m in mass:
        most = max(most, m)
    tied = 0
    share = 0.0
    probability = 0.0
    for k, m in enumerate(mass):
        if m >= most * (1 - VOTE_TIE_TOLERANCE):
            tied += 1
            share += s.correct[k] / s.votes[k]
            probability += m
    return (share / tied, probability / tied) if tied else (0.0, 0.0)


def weighted_vote_score(answers, energies, labels, temperature: float = 1.0) -> float:
    return weighted_vote_pick(AnswerSlots(answers, labels), energies, temperature)[0]


def _js_exp(x: float) -> float:
    if math.isnan(x):
        return NAN
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _pair_stats(g: ScoredGroup):
    pos = [g.energies[i] for i in range(len(g.energies)) if g.labels[i] == 1]
    neg = [g.energies[i] for i in range(len(g.energies)) if g.labels[i] != 1]
    concordant = 0.0
    loss = 0.0
    for ep in pos:
        for en in neg:
            d = ep - en
            kp, kn = rank_key(ep), rank_key(en)
            concordant += 1 if kp < kn else 0.5 if kp == kn else 0
            loss += softplus(d) if not math.isnan(d) else NAN
    pairs = len(pos) * len(neg)
    return pairs, concordant, loss / pairs, _stats(neg)["mean"] - _stats(pos)["mean"]


def evaluate_groups(groups: Sequence[ScoredGroup]) -> Dict:
    """Best-of-N, pairwise accuracy, margin, BT loss, energy statistics and baselines (the app's EvalSummary,
    same field names)."""
    n_groups = n_candidates = 0
    best = first = random = majority = weighted = oracle = 0.0
    n_no_answer = n_non_finite = n_pair_groups = n_pairs = 0
    concordant = auc_sum = margin_sum = loss_sum = 0.0
    correct_e: List[float] = []
    incorrect_e: List[float] = []
    for gi, g in enumerate(groups):
        assert_group(g, gi)
        n = len(g.energies)
        if n == 0:
            continue
        n_groups += 1
        n_candidates += n
        n_correct = 0
        for i in range(n):
            if not math.isfinite(g.energies[i]):
                n_non_finite += 1
            if g.labels[i] == 1:
                n_correct += 1
                correct_e.append(g.energies[i])
            else:
                incorrect_e.append(g.energies[i])
        best += best_of_n_score(g.energies, g.labels)
        first += g.labels[0]
        random += n_correct / n
        if all(a is None for a in g.answers):
            n_no_answer += 1
        majority += majority_vote_score(g.answers, g.labels)
        weighted += weighted_vote_score(g.answers, g.energies, g.labels)
        if n_correct > 0:
            oracle += 1
        if n_correct == 0 or n_correct == n:
            continue
        pairs, conc, loss, margin = _pair_stats(g)
        n_pair_groups += 1
        n_pairs += pairs
        concordant += conc
        auc_sum += conc / pairs
        margin_sum += margin
        loss_sum += loss
    return {
        "nGroups": n_groups,
        "nCandidates": n_candidates,
        "nPairGroups": n_pair_groups,
        "nPairs": n_pairs,
        "bestOfN": _rate(best, n_groups),
        "pairwise": _rate(concordant, n_pairs),
        "pairwiseMacro": _rate(auc_sum, n_pair_groups),
        "meanMargin": _rate(margin_sum, n_pair_groups),
        "btLoss": _rate(loss_sum, n_pair_groups),
        "energy": {"correct": _stats(correct_e), "incorrect": _stats(incorrect_e)},
        "nNoAnswer": n_no_answer,
        "nNonFinite": n_non_finite,
        "baselines": {
            "firstCandidate": _rate(first, n_groups),
            "randomExpected": _rate(random, n_groups),
            "majorityVote": _rate(majority, n_groups),
            "weightedVote": _rate(weighted, n_groups),
            "oracle": _rate(oracle, n_groups),
        },
    }


def energy_histogram(groups: Sequence[ScoredGroup], bins: int = 30) -> Dict:
    """Energy histogram per label with shared edges over the finite energies (the app's rule)."""
    if not isinstance(bins, int) or bins < 1:
        raise ValueError(f"bins must be a positive integer, got {bins}")
    lo, hi, skipped = math.inf, -math.inf, 0
    for gi, g in enumerate(groups):
        assert_group(g, gi)
        for e in g.energies:
            if not math.isfinite(e):
                skipped += 1
            else:
                lo, hi = min(lo, e), max(hi, e)
    if lo > hi:
        lo, hi = 0.0, 1.0
    elif lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    span = hi - lo
    edges = [hi if k == bins else lo + (span * k) / bins for k in range(bins + 1)]
    correct = [0] * bins
    incorrect = [0] * bins
    for g in groups:
        for i, e in enumerate(g.energies):
            if not math.isfinite(e):
                continue
            k = min(bins - 1, math.floor(((e - lo) * bins) / span))
            (correct if g.labels[i] == 1 else incorrect)[k] += 1
    return {"edges": edges, "correct": correct, "incorrect": incorrect, "skipped": skipped}
