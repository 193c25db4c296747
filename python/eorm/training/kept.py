"""Training data narrowed to some of its candidates (a split's `keep`, when sources are held out), every group
kept in place (src/engine/data/keptCandidates.ts): group g of the copy is group g of the original with only
its kept candidates, so the split's group indices mean the same groups, and training and validation read the
copy as any data. `dataset` stays the file's (its line counts describe the file)."""
from __future__ import annotations

from typing import Sequence

from ..dataset import TrainingData


def keep_candidates(data: TrainingData, keep: Sequence[int]) -> TrainingData:
    n = len(data.labels)
    if len(keep) != n:
        raise ValueError(f"keep has {len(keep)} entries for {n} candidates")
    kept = [i for i in range(n) if keep[i]]
    group_start = [0]
    for g in range(data.n_groups):
        group_start.append(group_start[-1] + sum(1 for i in range(data.group_start[g], data.group_start[g + 1]) if keep[i]))
    ids = [data.ids[i] for i in kept]
    sources = [data.sources[i] for i in kept] if data.sources else []
    return TrainingData(
        data.dataset,
        data.max_len,
        ids,
        [data.labels[i] for i in kept],
        group_start,
        [data.answers[i] for i in kept],
        [data.lines[i] for i in kept],
        sum(1 for t in ids if len(t) == data.max_len),
        sources,
        [data.scores[i] for i in kept] if data.scores else [],
    )
