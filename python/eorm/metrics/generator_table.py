"""The generators of an evaluation's questions, as the app's src/engine/metrics/generators/generatorTable.ts: each
candidate's vote weights (labelled reliabilities from training questions, and agreement fitted on the evaluated
questions, which reads no label) and the per-generator table."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Dict, List, Optional, Sequence

from .generator_agreement import fit_agreement_generators
from .generators import candidate_weights, vote_weight
from .summary import ScoredGroup

NAN = float("nan")


def with_generators(groups: Sequence[ScoredGroup], sources: Sequence[Sequence[int]], names: Sequence[str], labelled: Optional[Dict]):
    """(groups with their generator weights, agreement fit, table); the groups unchanged and no table with fewer than two generators."""
    sourced = [{"answers": g.answers, "labels": g.labels, "sources": s} for g, s in zip(groups, sources)]
    agreement = fit_agreement_generators(sourced, names)
    if agreement is None:
        return list(groups), None, None
    out = []
    for g, src in zip(groups, sources):
        cand = [names[s] if s >= 0 else None for s in src]
        gen = {"labelled": candidate_weights(labelled, cand) if labelled else None, "agreement": candidate_weights(agreement, cand)}
        out.append(replace(g, generators=gen))
    return out, agreement, _table(groups, sources, names, labelled, agreement)


def _table(groups, sources, names, labelled, agreement) -> Dict:
    candidates = [0.0] * len(names)
    correct = [0.0] * len(names)
    for g, src in zip(groups, sources):
        for i, s in enumerate(src):
            if s < 0:
                continue
            candidates[s] += 1
            correct[s] += g.labels[i]
    index = {n: i for i, n in enumerate(labelled["names"])} if labelled else {}
    rows: List[Dict] = []
    for i, source in enumerate(names):
        j = index.get(source)
        reliability = (labelled["pooled"] if j is None else labelled["reliability"][j]) if labelled else NAN
        rows.append({
            "source": source,
            "candidates": candidates[i],
            "observedCorrect": correct[i] / candidates[i] if candidates[i] > 0 else NAN,
            "reliability": reliability,
            "reliabilityFree": agreement["reliability"][i],
            "weight": vote_weight(reliability, labelled["alternatives"]) if labelled else NAN,
            "weightFree": vote_weight(agreement["reliability"][i], agreement["alternatives"]),
        })
    return {"alternatives": labelled["alternatives"] if labelled else NAN, "alternativesFree": agreement["alternatives"], "rows": [r for r in rows if r["candidates"] > 0]}
