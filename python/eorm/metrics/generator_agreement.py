"""Generator reliabilities without a label, as the app's src/engine/metrics/generators/generatorAgreement.ts: one-coin
Dawid–Skene EM from agreement with the plain majority, a fixed number of rounds."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from .generators import answer_mass, answer_posterior, source_count, source_rates, vote_weight, weights_of
from .summary import AnswerSlots

EM_ITERATIONS = 50
AGREEMENT_ALTERNATIVES = 10


def _agreement_rates(groups, slots, sources: int, credit):
    credits = [credit(s, q) for q, s in enumerate(slots)]
    return source_rates(groups, sources, lambda q, i: credits[q][slots[q].slot[i]] if slots[q].slot[i] >= 0 else 0.0)


def _majority_credit(s: AnswerSlots, _q: int):
    most = max(s.votes, default=0)
    tied = sum(1 for v in s.votes if v == most)
    return [1 / tied if v == most else 0.0 for v in s.votes]


def fit_agreement_generators(groups, names: Sequence[str]) -> Optional[Dict]:
    """Reliabilities from agreement alone over `groups` (labels unread); None with fewer than two sources."""
    if source_count(groups) < 2:
        return None
    slots = [AnswerSlots(g["answers"], [0] * len(g["answers"])) for g in groups]
    rates, counts, pooled = _agreement_rates(groups, slots, len(names), _majority_credit)
    for _ in range(EM_ITERATIONS):
        by_source = [vote_weight(p, AGREEMENT_ALTERNATIVES) for p in rates]
        pooled_w = vote_weight(pooled, AGREEMENT_ALTERNATIVES)
        rates, counts, pooled = _agreement_rates(groups, slots, len(names), lambda s, q: answer_posterior(answer_mass(s, weights_of(groups[q]["sources"], by_source, pooled_w))))
    return {"method": "agreement", "names": list(names), "reliability": rates, "answers": list(counts), "pooled": pooled, "alternatives": AGREEMENT_ALTERNATIVES}
