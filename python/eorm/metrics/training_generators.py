"""The generator reliabilities a model learns beside its weights, as the app's
src/engine/score/trainingGenerators.ts: fitted on its training questions' labels, never on the held-out ones."""
from __future__ import annotations

from typing import Dict, Optional, Sequence

from .generators import fit_labelled_generators
from .sources import source_index


def training_generators(data, train_groups: Sequence[int], seed: int) -> Optional[Dict]:
    names, index = source_index(data.sources)
    groups = []
    for g in train_groups:
        s, e = data.group_start[g], data.group_start[g + 1]
        groups.append({"answers": data.answers[s:e], "labels": data.labels[s:e], "sources": index[s:e]})
    return fit_labelled_generators(groups, names, seed)
