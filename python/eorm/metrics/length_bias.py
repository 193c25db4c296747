"""Does the verifier just prefer long (or short) answers? The app's length check (src/engine/metrics/lengthBias/lengthBias.ts),
number for number: within each question, Spearman's ρ between energy and answer length in tokens beside the
same between correctness and length, averaged over questions, each with a 95% bootstrap interval over
questions; the lean (energy's ρ with length among answers of the same label, so a verifier that ignores length
given correctness has none on average) with its exact sign-flip test, and one sentence; two baseline rules that
pick by length alone (shortest, longest). Answer length as answerLength.ts counts it: the answer text's tokens in the input
tokenized up to the app's 4096-id cap, before the model's maxLen cuts it."""
from __future__ import annotations

import math
from typing import Dict, List, Sequence

from .held_out import has_both_labels
from .summary import NAN, ScoredGroup, best_of_n_score, rank_key
from .bootstrap import bootstrap_intervals, mean
from .paired_test import sign_flip_test
from ..selection_sentence import p_value, to_fixed
from ..tokenize import tokenize_groups

# src/worker/data/dataLoader.ts TOKEN_CAP: the app tokenizes its data once, up to this many ids per input.
TOKEN_CAP = 4096
BOOTSTRAP_RESAMPLES = 1000
LENGTH_RULES = ["shortest", "longest"]


def answer_tokens(ids: Sequence[int], sep_id: int) -> int:
    """Tokens after the first separator past the CLS; 0 when the question fills the input (answerLength.ts)."""
    for k in range(1, len(ids)):
        if ids[k] == sep_id:
            return len(ids) - k - 1
    return 0


def answer_tokens_by_line(groups, sep_id: int) -> Dict[int, int]:
    """Each candidate's answer tokens by its line, from the inputs the app keeps (GPT-2's <|endoftext|> as CLS and SEP)."""
    out: Dict[int, int] = {}
    for g, toks in zip(groups, tokenize_groups(groups, TOKEN_CAP)):
        for c, ids in zip(g.candidates, toks):
            out[c.line] = answer_tokens(ids, sep_id)
    return out


def midranks(xs: Sequence[float]) -> List[float]:
    """1-based ranks in ascending order; tied values share the mean of their ranks."""
    n = len(xs)
    order = sorted(range(n), key=lambda i: xs[i])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j + 2) / 2
        i = j + 1
    return out


def _add_rank_sums(x: Sequence[float], y: Sequence[float], at: Sequence[int], sums: List[float]) -> None:
    """Adds Σ (rx − m)(ry − m), Σ (rx − m)², Σ (ry − m)² over the answers `at`: their midranks among them, m the mean rank."""
    rx, ry = midranks([x[i] for i in at]), midranks([y[i] for i in at])
    m = (len(at) + 1) / 2
    for a, b in zip(rx, ry):
        sums[0] += (a - m) * (b - m)
        sums[1] += (a - m) * (a - m)
        sums[2] += (b - m) * (b - m)


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's correlation of the midranks; NaN when either is constant. Sums left to right, as the app's."""
    sums = [0.0, 0.0, 0.0]
    _add_rank_sums(x, y, range(len(x)), sums)
    d = math.sqrt(sums[1] * sums[2])
    return sums[0] / d if d > 0 else NAN


def _with_label(labels: Sequence[int], want: int) -> List[int]:
    return [i for i, label in enumerate(labels) if label == want]


def within_label_spearman(x: Sequence[float], y: Sequence[float], labels: Sequence[int]) -> float:
    """Spearman's ρ among answers of the same label: midranks within the wrong answers and within the right
    ones, each centred on its own mean, then one Pearson correlation; NaN when y is constant within every
    label, 0 when it is not but x is."""
    sums = [0.0, 0.0, 0.0]
    for want in (0, 1):
        _add_rank_sums(x, y, _with_label(labels, want), sums)
    if sums[2] == 0:
        return NAN
    return sums[0] / math.sqrt(sums[1] * sums[2]) if sums[1] > 0 else 0.0


def _lengths_differ_within_a_label(lengths: Sequence[int], labels: Sequence[int]) -> bool:
    """Two answers of the same label have different lengths: the lean is defined."""
    for want in (0, 1):
        at = _with_label(labels, want)
        if any(lengths[i] != lengths[at[0]] for i in at):
            return True
    return False


def length_rule_score(lengths: Sequence[int], labels: Sequence[int], rule: str) -> float:
    """The expected label of a random pick among the tied shortest (longest) answers."""
    return best_of_n_score(list(lengths) if rule == "shortest" else [-x for x in lengths], labels)



def _signed(x: float) -> str:
    """Two decimals with a sign; one that rounds to 0.00 reads +0.00, never -0.00."""
    digits = to_fixed(abs(x), 2)
    return ("-" if x < 0 and digits != "0.00" else "+") + digits


def _questions(n: int) -> str:
    return f"{n} question{'' if n == 1 else 's'}"


def length_sentence(b: Dict) -> str:
    if b["groups"] == 0:
        return "No question has both a right and a wrong answer and two answers of the same label with different lengths: nothing to check length against."
    lean, ci = b["lean"], b["leanCi"]
    shorter = b["real"] and lean < 0
    d, lo, hi = (-lean, -ci["hi"], -ci["lo"]) if shorter else (lean, ci["lo"], ci["hi"])
    way = "shorter" if shorter else "longer"
    head = f"leans on length more than correctness does, toward {way} answers" if b["real"] else "does not lean on length more than correctness does"
    return (
        f"The verifier {head}: over {_questions(b['groups'])}, the within-question rank correlation of length with energy is {_signed(b['energyCorr'])} "
        f"(lower energy = preferred) and with being correct {_signed(b['labelCorr'])}; among answers equally correct, its lean toward {way} answers is {_signed(d)} "
        f"(95% CI {_signed(lo)} to {_signed(hi)}; sign-flip test {p_value(b['leanP'])})."
    )


def length_bias(scored: Sequence[ScoredGroup], lengths: Sequence[Sequence[int]], seed: int, both_labels: bool, resamples: int = BOOTSTRAP_RESAMPLES) -> Dict:
    """The app's lengthBias: `lengths` per group (answer tokens per candidate); `both_labels` for a validation
    (figures over the questions with both labels, plus `allQuestions`), else every question (a test file)."""
    every = [(g, list(n)) for g, n in zip(scored, lengths) if len(g.labels) > 0]
    for g, n in every:
        if len(n) != len(g.labels):
            raise ValueError(f"length check: a group has {len(n)} lengths for {len(g.labels)} candidates")
    reported = [(g, n) for g, n in every if has_both_labels(g)] if both_labels else every
    checked = [(g, n) for g, n in reported if has_both_labels(g) and _lengths_differ_within_a_label(n, g.labels)]
    rho_e = []
    for g, n in checked:
        r = spearman([rank_key(e) for e in g.energies], n)
        rho_e.append(0.0 if r != r else r)
    rho_l = [spearman(list(g.labels), n) for g, n in checked]
    # Lower energy = preferred: the lean toward longer answers is the negated correlation.
    lean = [-within_label_spearman([rank_key(e) for e in g.energies], n, g.labels) for g, n in checked]
    e_ci, l_ci, lean_ci = bootstrap_intervals([rho_e, rho_l, lean], resamples, seed)
    lean_p = sign_flip_test(lean)["p"] if lean else NAN
    out = {
        "groups": len(checked),
        "energyCorr": mean(rho_e),
        "energyCorrCi": e_ci,
        "labelCorr": mean(rho_l),
        "labelCorrCi": l_ci,
        "lean": mean(lean),
        "leanCi": lean_ci,
        "leanP": lean_p,
        "real": bool(lean_p < 0.05),
    }
    out["sentence"] = length_sentence(out)
    scores = [[length_rule_score(n, g.labels, r) for g, n in reported] for r in LENGTH_RULES]
    cis = bootstrap_intervals(scores, resamples, seed)
    out["rules"] = {r: {"accuracy": mean(scores[k]), "ci": cis[k]} for k, r in enumerate(LENGTH_RULES)}
    if both_labels:
        out["allQuestions"] = {"groups": len(every), "rules": {r: mean([length_rule_score(n, g.labels, r) for g, n in every]) for r in LENGTH_RULES}}
    return out
