"""Per-source audit, operation for operation as the app (src/engine/metrics/sources.ts, which documents the
rules): per generator named by the lines' `source`, how often the Best-of-N pick is its candidate against
how often chance and its own correctness would make it, the pairwise accuracy of its candidates against
the other label in their question, mean energies, and the flag "picked far above its correctness":

    picks >= FLAG_MIN_PICKS  and  picked_share >= FLAG_RATIO * chance_share
                             and  picked_share >= FLAG_RATIO * earned_share

where earned_share is the share a picker that knows the labels but not the sources would give it (per
question, a uniform pick among the correct candidates; among all when none is correct). Rows use the
app's field names (SourceRow in src/engine/metrics/selectionTypes.ts)."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .summary import NAN, rank_key

FLAG_RATIO = 1.5
FLAG_MIN_PICKS = 20


def _rate(k: float, n: float) -> float:
    return k / n if n > 0 else NAN


def source_index(sources: Sequence[Optional[str]]) -> Tuple[List[str], List[int]]:
    """Distinct sources in order of first appearance, and each candidate's index into them (-1: none given)."""
    names: List[str] = []
    ids: Dict[str, int] = {}
    index: List[int] = []
    for s in sources:
        if s is None:
            index.append(-1)
            continue
        if s not in ids:
            ids[s] = len(names)
            names.append(s)
        index.append(ids[s])
    return names, index


def source_audit(groups: Sequence[Tuple[Sequence[float], Sequence[int], Sequence[int]]], names: Sequence[str]) -> List[Dict]:
    """Rows for `groups` given as (energies, labels, source indices into `names`); [] when no candidate names a source."""
    keys = ("candidates", "correct", "picked", "chance", "earned", "pairs", "concordant", "sum_correct", "sum_incorrect", "n_incorrect")
    tallies = [dict.fromkeys(keys, 0) for _ in names]
    for t in tallies:
        for k in ("picked", "chance", "earned", "concordant", "sum_correct", "sum_incorrect"):
            t[k] = 0.0
    n_groups = 0
    for gi, (energies, labels, sources) in enumerate(groups):
        n = len(energies)
        if len(labels) != n or len(sources) != n:
            raise ValueError(f"group {gi}: {n} energies, {len(labels)} labels, {len(sources)} sources (must be equal)")
        if n == 0:
            continue
        n_groups += 1
        lowest = float("inf")
        tied = 0
        n_correct = 0
        for i in range(n):
            e = rank_key(energies[i])
            if e < lowest:
                lowest, tied = e, 1
            elif e == lowest:
                tied += 1
            n_correct += labels[i]
        for i in range(n):
            s = sources[i]
            if s < 0:
                continue
            if s >= len(tallies):
                raise ValueError(f"group {gi}, candidate {i}: source index {s} is not in names ({len(names)})")
            t = tallies[s]
            t["candidates"] += 1
            t["chance"] += 1 / n
            if rank_key(energies[i]) == lowest:
                t["picked"] += 1 / tied
            if labels[i] == 1:
                t["correct"] += 1
                t["sum_correct"] += energies[i]
                t["earned"] += 1 / n_correct
            else:
                t["n_incorrect"] += 1
                t["sum_incorrect"] += energies[i]
                if n_correct == 0:
                    t["earned"] += 1 / n
        if 0 < n_correct < n:
            # Each (correct, incorrect) pair counts for the sources of both candidates (once when they share one).
            for i in range(n):
                if labels[i] != 1:
                    continue
                kp = rank_key(energies[i])
                si = sources[i]
                for j in range(n):
                    if labels[j] != 0:
                        continue
                    kn = rank_key(energies[j])
                    v = 1 if kp < kn else 0.5 if kp == kn else 0
                    sj = sources[j]
                    if si >= 0:
                        tallies[si]["pairs"] += 1
                        tallies[si]["concordant"] += v
                    if sj >= 0 and sj != si:
                        tallies[sj]["pairs"] += 1
                        tallies[sj]["concordant"] += v

    rows: List[Dict] = []
    for s, t in enumerate(tallies):
        if t["candidates"] == 0:
            continue
        picked_share = t["picked"] / n_groups
        chance_share = t["chance"] / n_groups
        earned_share = t["earned"] / n_groups
        rows.append(
            {
                "source": names[s],
                "candidates": t["candidates"],
                "shareCorrect": t["correct"] / t["candidates"],
                "pickedShare": picked_share,
                "chanceShare": chance_share,
                "earnedShare": earned_share,
                "picks": t["picked"],
                "pairwise": _rate(t["concordant"], t["pairs"]),
                "meanEnergyCorrect": _rate(t["sum_correct"], t["correct"]),
                "meanEnergyIncorrect": _rate(t["sum_incorrect"], t["n_incorrect"]),
                "flagged": t["picked"] >= FLAG_MIN_PICKS and picked_share >= FLAG_RATIO * chance_share and picked_share >= FLAG_RATIO * earned_share,
            }
        )
    return rows
