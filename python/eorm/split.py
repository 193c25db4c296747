"""Train/validation split by group, seeded, exactly as the app's `splitGroups` (src/engine/data/split.ts):
the groups with both a correct and an incorrect candidate, shuffled with mulberry32(seed), cut at
round(0.8 · n) with both parts non-empty when n ≥ 2."""
from __future__ import annotations

from typing import List, Sequence, Tuple

from .js import js_round
from .rng import Rng, shuffle_in_place

DEFAULT_SPLIT_SEED = 42
DEFAULT_TRAIN_FRACTION = 0.8


def trainable_groups(labels: Sequence[Sequence[int]]) -> List[int]:
    """Indices of the groups (given as per-group label lists) with at least one 1 and one 0, ascending."""
    return [g for g, ls in enumerate(labels) if 0 < sum(ls) < len(ls)]


def split_groups(labels: Sequence[Sequence[int]], seed: int = DEFAULT_SPLIT_SEED, train_fraction: float = DEFAULT_TRAIN_FRACTION) -> Tuple[List[int], List[int]]:
    if not (0 < train_fraction <= 1):
        raise ValueError(f"trainFraction must be in (0, 1] (got {train_fraction})")
    groups = trainable_groups(labels)
    shuffle_in_place(groups, Rng(seed))
    n = len(groups)
    n_train = js_round(n * train_fraction)
    if train_fraction < 1 and n >= 2:
        n_train = min(n - 1, max(1, n_train))
    return groups[:n_train], groups[n_train:]
